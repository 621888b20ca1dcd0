import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CierreTpv } from '../domain/tpv';
import { downloadInformeZPdf, informeZDeCierre, informeZPdfBlob, type InformeZ } from './informeZPdf';
import { guardados as seen } from './pdfPrueba';

vi.mock('jspdf', async (orig) => (await import('./pdfPrueba')).jspdfQueGuarda(orig));
beforeEach(() => {
  seen.length = 0;
});

const Z: InformeZ = {
  terminal: 'Caja 1',
  codigo: 12,
  cajero: 'Lucía Pérez',
  apertura: '2026-11-25T08:00:00Z',
  cierre: '2026-11-25T20:05:00Z',
  tickets: 48,
  devoluciones: 1,
  total: 61230,
  fondo: 15000,
  esperado: 42500,
  contado: 42000,
  diferencia: -500,
  desgloseEfectivo: [
    { label: 'Fondo inicial', importe: 15000 },
    { label: 'Cobrado en efectivo', importe: 31000 },
    { label: 'Salidas de caja', importe: -3500 },
  ],
  numeros: { primero: 'T1 2026/000101', ultimo: 'T1 2026/000148' },
  formas: [
    { label: 'Efectivo', esperado: 42500, contado: 42000, diferencia: -500 },
    { label: 'Tarjeta', esperado: 31730, contado: 31730, diferencia: 0 },
  ],
  ivas: [
    { label: 'Reducido 10 %', base: 50000, iva: 5000, total: 55000 },
    { label: 'General 21 %', base: 5149, iva: 1081, total: 6230 },
  ],
  billetes: [{ valor: 20000, cantidad: 2 }, { valor: 2000, cantidad: 1 }],
  movimientos: [{ fecha_hora: '2026-11-25T13:00:00Z', label: 'Salida', importe: -3500, concepto: 'Pan' }],
  cajeros: [
    { nombre: 'Lucía Pérez', tickets: 30, devoluciones: 1, total: 40000 },
    { nombre: 'Marcos Gil', tickets: 18, devoluciones: 0, total: 21230 },
  ],
};

const CIERRE: CierreTpv = {
  id: 3, terminal_id: 1, terminal_nombre: 'Caja 1', codigo: 12, caja_id: 9, usuario_id: 1, usuario_nombre: 'Lucía Pérez',
  apertura: '2026-11-25T08:00:00Z', cierre: '2026-11-25T20:05:00Z', fondo: 15000, tickets: 1, devoluciones: 0, total: 500, formas: [],
  efectivo: { fondo: 15000, cobrado: 500, cambio: 0, devuelto: 0, entradas: 0, salidas: 0, esperado: 15500, contado: 15500, diferencia: 0 },
  diferencia: 0, impuestos: [], movimientos: [], denominaciones: null, primer_numero: null, ultimo_numero: null,
};

describe('Informe Z', () => {
  it('prints the terminal, the closing code, cashier, counts, each method expected / counted / difference, IVA, the cash and its count', async () => {
    await downloadInformeZPdf(Z, { fileName: 'z.pdf', empresa: { nombre: 'Cafetería Sol', nif: 'B12345674' } });
    expect(seen).toHaveLength(1);
    expect(seen[0].name).toBe('z.pdf');
    const raw = seen[0].doc.output();
    for (const t of [
      'Cafeter',
      'NIF B12345674',
      '(Informe Z)',
      '(Caja 1 · Cierre nº 12)',
      '(Cajero: Lucía Pérez)',
      '(Tickets: 48 · Devoluciones: 1)',
      'Del T1 2026/000101 al T1 2026/000148',
      '425,00',
      '420,00',
      '-5,00',
      '+310,00',
      '-35,00',
      'Diferencia \\(falta\\)',
      'Reducido 10 %',
      '612,30',
      '(Recuento)',
      '(Página 1 de 1)',
      // Issue 23: every cashier of the caja.
      '(Por cajero)',
      '(Marcos Gil)',
      '(30 \\(+1 dev.\\))',
      '212,30',
    ])
      expect(raw).toContain(t);
  });

  it('on an 80 mm roll: the shop header of the ticket, and a page exactly as long as the report', async () => {
    const empresa = { nombre: 'Cafetería Sol', nif: 'B12345674', lineas: ['Calle Mayor 1, Soria'] };
    await downloadInformeZPdf(Z, { fileName: 'z.pdf', empresa, papel: 'ticket' });
    const corto = seen[0].doc;
    expect(corto.internal.pageSize.getWidth()).toBeCloseTo(80);
    const raw = corto.output();
    for (const t of ['NIF B12345674', 'Calle Mayor 1, Soria', '(Informe Z)', '(Recuento)', 'Diferencia \\(falta\\)']) expect(raw).toContain(t);
    const movimientos = Array.from({ length: 30 }, (_, i) => ({ fecha_hora: '2026-11-25T13:00:00Z', label: 'Salida', importe: -100 - i, concepto: `Pago ${i}` }));
    await downloadInformeZPdf({ ...Z, movimientos }, { fileName: 'z.pdf', empresa, papel: 'ticket' });
    const largo = seen[1].doc;
    // 29 movements more, 4 mm each on the roll: the page grows by that, no blank tail and nothing cut.
    expect(largo.internal.pageSize.getHeight() - corto.internal.pageSize.getHeight()).toBeCloseTo(29 * 4, 0);
    expect(largo.output()).toContain('Pago 29');
  });

  it('a closing of the demo company says so (issue 22), on A4 and on the roll; a live one does not', async () => {
    for (const papel of ['a4', 'ticket'] as const) {
      seen.length = 0;
      await downloadInformeZPdf({ ...Z, demo: true }, { fileName: 'z.pdf', papel });
      expect(seen[0].doc.output(), papel).toMatch(/\(DEMOSTRACI.N . sin validez fiscal\)/);
      seen.length = 0;
      await downloadInformeZPdf(Z, { fileName: 'z.pdf', papel });
      expect(seen[0].doc.output(), papel).not.toContain('sin validez fiscal');
    }
    expect(informeZDeCierre({ ...CIERRE, demo: 1 }).demo).toBe(true);
    expect(informeZDeCierre({ ...CIERRE, demo: 0 }).demo).toBe(false);
    expect(informeZDeCierre({ ...CIERRE, cajeros: [{ usuario_id: 2, nombre: 'Marcos Gil', tickets: 1, devoluciones: 0, total: 500 }] }).cajeros).toEqual([
      { nombre: 'Marcos Gil', tickets: 1, devoluciones: 0, total: 500 },
    ]);
  });

  it('on an 80 mm roll, as a Blob', async () => {
    const blob = await informeZPdfBlob(Z, { papel: 'ticket' });
    expect(blob.type).toBe('application/pdf');
    expect(blob.size).toBeGreaterThan(1000);
  });
});
