import { describe, expect, it } from 'vitest';
import { informePorSlug } from '../definiciones';
import { pdfInforme } from '../exportar';
import { filaTotales } from '../tabla';
import type { Columna } from '../tipos';
import { TOTALES_VENTAS, VENTAS } from '../../fakeInformes';

describe('PDF export', () => {
  it('prints the company, the title, the filters, the rows with their totals and page numbers', async () => {
    const ventas = informePorSlug('info-ventas')!;
    const columnas = [...ventas.agrupar.find((a) => a.value === 'cliente')!.claves, ...(ventas.cifras as Columna[]).slice(0, 9)];
    const filas = [...Array.from({ length: 60 }, (_, i) => ({ ...VENTAS.cliente[1], nombre: `Cliente ${i + 1}` })), filaTotales(TOTALES_VENTAS)!];
    const doc = await pdfInforme({
      fileName: 'x.pdf',
      titulo: 'Ventas',
      empresa: { nombre: 'Comercial Demo', nif: 'B86420973', lineas: ['Calle de Alcalá, 120'] },
      filtros: ['Periodo: 01/01/2026 – 31/01/2026 · Agrupado por: Cliente'],
      columnas,
      filas,
    });
    const out = doc.output();
    expect(doc.getNumberOfPages()).toBe(2);
    for (const t of ['Comercial Demo', 'NIF B86420973', 'Ventas', 'Agrupado por: Cliente', 'Cliente 60', '1.815,60', 'Total', 'Página 1 de 2', 'Página 2 de 2']) {
      expect(out, t).toContain(t);
    }
  });
});
