import type { jsPDF } from 'jspdf';
import qrcode from 'qrcode-generator';

/**
 * The fiscal QR (DetalleEspecificacTecnCodigoQRfactura, art. 21 of the order): ISO/IEC 18004, error
 * correction level M, the smallest version that holds the text. `true` is a dark module.
 */
export function matrizQr(texto: string): boolean[][] {
  const qr = qrcode(0, 'M');
  qr.addData(texto, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.isDark(r, c)));
}

/**
 * Draws a QR as vector squares, `lado` mm wide with its top-left corner at (x, y) (the quiet zone is the
 * caller's blank space around it). Each row's dark runs are one rectangle, all in one path filled once:
 * no seams between modules when the page is rasterised (a phone's camera, zbarimg).
 */
export function dibujarQr(doc: jsPDF, texto: string, x: number, y: number, lado: number): void {
  const m = matrizQr(texto);
  const modulo = lado / m.length;
  doc.setFillColor(0, 0, 0);
  m.forEach((fila, r) => {
    let c = 0;
    while (c < fila.length) {
      if (!fila[c]) {
        c++;
        continue;
      }
      const desde = c;
      while (c < fila.length && fila[c]) c++;
      doc.rect(x + desde * modulo, y + r * modulo, (c - desde) * modulo, modulo, null);
    }
  });
  doc.fill();
}
