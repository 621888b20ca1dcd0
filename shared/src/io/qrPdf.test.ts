import type { jsPDF } from 'jspdf';
import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
import { dibujarQr, matrizQr } from './qrPdf';

const URL_QR = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4';

describe('fiscal QR', () => {
  it('is level M, the smallest version that holds the URL', () => {
    const m = matrizQr(URL_QR);
    const ref = qrcode(0, 'M');
    ref.addData(URL_QR, 'Byte');
    ref.make();
    expect(m.length).toBe(ref.getModuleCount());
    expect(m.every((fila, r) => fila.every((v, c) => v === ref.isDark(r, c)))).toBe(true);
    // With level L the same text fits a smaller or equal symbol: M is not L.
    const l = qrcode(0, 'L');
    l.addData(URL_QR, 'Byte');
    l.make();
    expect(l.getModuleCount()).toBeLessThanOrEqual(m.length);
    expect(m.flat().some((v, i) => v !== (l.isDark(Math.floor(i / l.getModuleCount()), i % l.getModuleCount())))).toBe(true);
  });

  it('draws each row’s dark runs inside its square, as one filled path', () => {
    const rects: number[][] = [];
    let fills = 0;
    const fake = {
      setFillColor: () => fake,
      rect: (x: number, y: number, w: number, h: number, style: unknown) => {
        expect(style).toBeNull();
        rects.push([x, y, w, h]);
        return fake;
      },
      fill: () => {
        fills++;
        return fake;
      },
    };
    dibujarQr(fake as unknown as jsPDF, URL_QR, 88, 12, 34);
    expect(fills).toBe(1);
    const m = matrizQr(URL_QR);
    const modulo = 34 / m.length;
    // Every dark module is covered once, nothing outside the square.
    const oscuros = m.flat().filter(Boolean).length;
    const cubiertos = rects.reduce((s, [, , w]) => s + Math.round(w / modulo), 0);
    expect(cubiertos).toBe(oscuros);
    for (const [x, y, w, h] of rects) {
      expect(x).toBeGreaterThanOrEqual(88);
      expect(y).toBeGreaterThanOrEqual(12);
      expect(x + w).toBeLessThanOrEqual(88 + 34 + 1e-9);
      expect(y + h).toBeLessThanOrEqual(12 + 34 + 1e-9);
    }
  });
});
