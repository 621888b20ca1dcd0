import type { jsPDF } from 'jspdf';
import { barrasCode128, textoCode128Valido } from '../domain/code128';

/**
 * Issue 23: a number as a Code 128 barcode in a PDF (shared `barrasCode128`, subsets B and C, our own encoder), centred
 * on `cx`, 0,33 mm a module (less if `anchoMax` is narrow for it), ten modules of quiet zone each side, 12 mm high, the
 * text under it. The 80 mm ticket and the back office's A4 print of a ticket draw it with this, so a scanner at the
 * till reads either. Answers the next y (unchanged when the text cannot be encoded).
 */
export function dibujarCode128(doc: jsPDF, texto: string, cx: number, y: number, anchoMax: number): number {
  if (!textoCode128Valido(texto)) return y;
  const { barras, modulos } = barrasCode128(texto);
  const modulo = Math.min(0.33, anchoMax / (modulos + 20));
  const x0 = cx - (modulos * modulo) / 2;
  const alto = 12;
  y += 2;
  doc.setFillColor(0, 0, 0);
  for (const b of barras) doc.rect(x0 + b.x * modulo, y, b.ancho * modulo, alto, 'F');
  y += alto + 3;
  doc.setFontSize(7);
  doc.text(texto, cx, y, { align: 'center' });
  return y + 1;
}
