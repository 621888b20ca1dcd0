import { barrasCode128, textoCode128Valido } from 'shared';

/** Quiet zone each side, in modules (the symbology asks at least ten). */
const MARGEN = 10;

/**
 * A Code 128 barcode of `texto` as SVG (shared `barrasCode128`, no package): the ticket's number, so a return finds
 * it with the scanner (issue 23). As wide as the roll allows (≤ 64 mm), 12 mm high, crisp edges for thermal print.
 */
export function CodigoBarras({ texto, etiqueta = 'Código de barras' }: { texto: string; etiqueta?: string }) {
  if (!textoCode128Valido(texto)) return null;
  const { barras, modulos } = barrasCode128(texto);
  const ancho = modulos + 2 * MARGEN;
  return (
    <svg
      className="barras"
      viewBox={`0 0 ${ancho} 40`}
      preserveAspectRatio="none"
      shapeRendering="crispEdges"
      role="img"
      aria-label={`${etiqueta}: ${texto}`}
      data-barras={texto}
      style={{ width: `min(64mm, ${(ancho * 0.33).toFixed(1)}mm)`, height: '12mm', margin: '4px auto 0' }}
    >
      <rect width={ancho} height={40} fill="#fff" />
      <path d={barras.map((b) => `M${b.x + MARGEN} 0h${b.ancho}v40h-${b.ancho}z`).join('')} fill="#000" />
    </svg>
  );
}
