import { useEffect, useState } from 'react';

/**
 * A QR code on screen (the fiscal QR of a ticket or an invoice) as an SVG, drawn from the same matrix the PDFs
 * print (`matrizQr`: level M), with its quiet zone. The encoder loads with the first QR shown.
 */
export function QrCode({ texto, lado = 132, label }: { texto: string; lado?: number; label: string }) {
  const [matriz, setMatriz] = useState<boolean[][] | null>(null);
  useEffect(() => {
    let live = true;
    void import('../io/qrPdf').then(({ matrizQr }) => live && setMatriz(matrizQr(texto)));
    return () => {
      live = false;
    };
  }, [texto]);
  const n = matriz?.length ?? 0;
  const borde = 4;
  const d = matriz
    ? matriz.flatMap((fila, r) => fila.map((oscuro, c) => (oscuro ? `M${c + borde} ${r + borde}h1v1h-1z` : '')).filter(Boolean)).join('')
    : '';
  return (
    <svg role="img" aria-label={label} data-qr={texto} width={lado} height={lado} viewBox={`0 0 ${n + borde * 2 || 1} ${n + borde * 2 || 1}`} shapeRendering="crispEdges">
      <rect width="100%" height="100%" fill="#fff" />
      {d && <path d={d} fill="#000" />}
    </svg>
  );
}
