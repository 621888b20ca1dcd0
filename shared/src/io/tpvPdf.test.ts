import type { jsPDF } from 'jspdf';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { barrasCode128 } from '../domain/code128';
import { urlQr } from '../domain/fiscal';
import { descargarTicketPdf, type TicketPdf } from './tpvPdf';
import { guardados as seen, textosPdf } from './pdfPrueba';

const qrs = vi.hoisted(() => [] as { texto: string; y: number; lado: number }[]);
vi.mock('./qrPdf', async (orig) => {
  const real = await orig<typeof import('./qrPdf')>();
  return {
    ...real,
    dibujarQr: (doc: jsPDF, texto: string, x: number, y: number, lado: number) => {
      qrs.push({ texto, y, lado });
      real.dibujarQr(doc, texto, x, y, lado);
    },
  };
});
vi.mock('jspdf', async (orig) => (await import('./pdfPrueba')).jspdfQueGuarda(orig));
beforeEach(() => {
  seen.length = 0;
  qrs.length = 0;
});

const datos = (emision: TicketPdf['emision'], entorno: 'produccion' | 'pruebas'): TicketPdf => ({
  empresa: { nombre: 'Cafetería Sol', nif: 'B12345674' },
  titulo: 'Factura simplificada',
  numero: 'T1 2026/000012',
  fecha: '25/11/2026 10:15',
  lineas: [{ nombre: 'Café con leche', cantidad: '2', precio: '1,50 €', importe: '3,00 €' }],
  desglose: [{ tipo: '10 %', base: '2,73 €', cuota: '0,27 €' }],
  total: '3,00 €',
  pagos: [{ forma: 'Efectivo', importe: '3,00 €' }],
  qr: urlQr({ nif: 'B12345674', numserie: 'T1 2026/000012', fecha: '2026-11-25', importe: 300n }, entorno),
  emision,
  pie: 'Gracias por su compra',
});

describe('the 80 mm ticket (issue 22)', () => {
  it('prints the QR first, at the top, and under it the legend of what its record was made for', async () => {
    const casos = [
      { emision: { entorno: 'pruebas', demo: 1, verifactu: 0 } as const, entorno: 'pruebas' as const, dice: /DEMOSTRACI.N . sin validez fiscal/, noDice: /verificable|PRUEBA/ },
      { emision: { entorno: 'pruebas', demo: 0, verifactu: 1 } as const, entorno: 'pruebas' as const, dice: /FACTURA DE PRUEBA/, noDice: /verificable|DEMOSTRACI|enviado/ },
      { emision: { entorno: 'produccion', demo: 0, verifactu: 1 } as const, entorno: 'produccion' as const, dice: /Factura verificable en la sede/, noDice: /PRUEBA|DEMOSTRACI/ },
      { emision: { entorno: 'produccion', demo: 0, verifactu: 0 } as const, entorno: 'produccion' as const, dice: /QR tributario:/, noDice: /verificable|PRUEBA|DEMOSTRACI|VERI\*FACTU/ },
      // A ticket that does not say what its record was made for is never printed as production.
      { emision: undefined, entorno: 'pruebas' as const, dice: /DEMOSTRACI/, noDice: /verificable/ },
    ];
    for (const c of casos) {
      seen.length = 0;
      qrs.length = 0;
      await descargarTicketPdf(datos(c.emision, c.entorno), 't.pdf');
      const t = textosPdf(seen[0].doc.output());
      const caso = JSON.stringify(c.emision);
      expect(t, caso).toMatch(c.dice);
      expect(t, caso).not.toMatch(c.noDice);
      // Before the content: «QR tributario:» is the first text, the shop and the lines come after the QR.
      expect(t.indexOf('QR tributario:'), caso).toBe(0);
      expect(t.indexOf('QR tributario:')).toBeLessThan(t.indexOf('Cafeter'));
      expect(qrs[0].y, caso).toBeLessThan(15);
      expect(qrs[0].lado).toBeGreaterThanOrEqual(30);
      expect(qrs[0].lado).toBeLessThanOrEqual(40);
    }
  });

  it('issue 23: at its foot, the number as a Code 128 barcode — the bars drawn are the symbol\'s, module by module', async () => {
    await descargarTicketPdf(datos({ entorno: 'produccion', demo: 0, verifactu: 1 }, 'produccion'), 't.pdf');
    const salida = seen[0].doc.output();
    // The bars: filled rectangles 12 mm high (34,02 pt), left to right.
    const rects = [...salida.matchAll(/^([\d.]+) ([\d.]+) ([\d.]+) -34\.0157\d* re$/gm)].map((m) => ({ x: Number(m[1]), w: Number(m[3]) }));
    const { barras } = barrasCode128('T1 2026/000012');
    expect(rects).toHaveLength(barras.length);
    const modulo = rects[0].w / barras[0].ancho;
    expect(modulo).toBeCloseTo((0.33 * 72) / 25.4, 3);
    rects.forEach((r, i) => {
      expect(r.w / modulo).toBeCloseTo(barras[i].ancho, 6);
      expect((r.x - rects[0].x) / modulo).toBeCloseTo(barras[i].x, 6);
    });
    // The number printed under it too (and in the header).
    expect(textosPdf(salida).split('T1 2026/000012').length - 1).toBe(2);
  });
});
