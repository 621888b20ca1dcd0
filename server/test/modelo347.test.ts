import { describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import { backends, useTestApp } from './helpers.ts';

/**
 * Issue 25: a simplified invoice in the 347 (RGAT, RD 1065/2007, art. 33.2: operations for which no invoice naming
 * the recipient had to be issued are left out). A simplified invoice with the business customer's NIF and address
 * (RD 1619/2012 art. 7.2, «cualificada», recorded as F1 with FacturaSimplificadaArt7273) names it: it counts toward
 * the customer's total; a plain F2 names nobody (the record carries no Destinatarios): it does not, even when the
 * back office knows whom it sold to. docs/fiscal.md, «Libros y modelos».
 */

const HOY = todayIn('Europe/Madrid');

describe.each(backends())('modelo347 and simplified invoices ($name)', (backend) => {
  const t = useTestApp(backend);

  it('an invoice (2.750 €) and two «cualificada» simplified ones (330 € each) add up to 3.410 € declared; a plain F2 of 330 € to the same customer is left out', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const serieA = series.find((s) => s.codigo === 'A')!.id;
    const serieT = series.find((s) => s.codigo === 'T')!.id;
    const cliente = (await save(t, t.cookie, 'editarcliente', {
      nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', direccion: 'Calle Sierpes 4', codigo_postal: '41004', poblacion: 'Sevilla',
    })).id;
    // At 10 %: a base of 300,00 € is 330,00 €.
    const a = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('347-A', { precio_venta: 1_000_000, tipo_iva: '10' }))).id;
    const emitir = async (serie: number, base: number) => {
      const b = await save(t, t.cookie, 'editarfactura', {
        fecha: HOY, cliente_id: cliente, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: a, cantidad: 1_000, precio: base * 100 }],
      });
      return save(t, t.cookie, 'emitirfactura', { id: b.id });
    };
    // 2.750 € alone stays under the 3.005,06 € threshold: the customer is declared only if the simplified ones count.
    expect(await emitir(serieA, 250_000)).toMatchObject({ tipo_factura: 'F1', total: 275_000 });
    // Customer with NIF and address: each simplified invoice is «cualificada» (F1).
    for (let i = 0; i < 2; i++) expect(await emitir(serieT, 30_000)).toMatchObject({ tipo_factura: 'F1', total: 33_000 });
    // The same customer without its address now: a plain F2, naming nobody.
    await save(t, t.cookie, 'editarcliente', { id: cliente, nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', direccion: '', codigo_postal: '41004', poblacion: 'Sevilla' });
    expect(await emitir(serieT, 30_000)).toMatchObject({ tipo_factura: 'F2', total: 33_000 });

    const m347 = (await t.op('modelo347', { cookie: t.cookie, query: { ejercicio: HOY.slice(0, 4) } })).json() as { data: Record<string, unknown>[] };
    const fila = m347.data.find((r) => r.clave === `B|${cliente}`);
    expect(fila).toMatchObject({ nif: 'B85612349', importe: 341_000 });
  });
});
