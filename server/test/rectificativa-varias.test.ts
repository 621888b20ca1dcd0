import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { backends, useTestApp } from './helpers.ts';
import { validarXml } from './xsd.ts';

/**
 * A rectificativa of several invoices of one customer (issue 16: a rappel over a period): FacturasRectificadas with
 * one IDFacturaRectificada per invoice (Validaciones 3.1.3.4), by differences only; the record valid against the XSD.
 */

const HOY = todayIn('Europe/Madrid');

describe.each(backends())('rectificativa of several invoices ($name)', (backend) => {
  const t = useTestApp(backend);

  it('3.1.3.4 FacturasRectificadas: a rappel names every invoice it corrects; refused by substitution or with another customer\'s invoice', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const serieA = series.find((s) => s.codigo === 'A')!.id;
    const serieR = series.find((s) => s.tipo === 'rectificativa')!.id;
    const cliente = (await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' })).id;
    const otro = (await save(t, t.cookie, 'editarcliente', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005' })).id;
    const articulo = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('RAPPEL-1', { precio_venta: 100_0000 }))).id;
    const emitir = async (c: number) => {
      const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: c, almacen_id: almacen, serie_id: serieA, lineas: [{ articulo_id: articulo, cantidad: 1_000, precio: 100_0000 }] });
      return save(t, t.cookie, 'emitirfactura', { id: b.id }) as Promise<Row & { numero: string }>;
    };
    const [f1, f2, f3] = [await emitir(cliente), await emitir(cliente), await emitir(cliente)];
    const ajena = await emitir(otro);
    // A 2 % rappel on the three: one line, by differences.
    const cuerpo = (extra: Record<string, unknown>) => ({
      fecha: HOY, factura_id: f1.id, serie_id: serieR, tipo: 'R1', modo: 'diferencias', lineas: [{ articulo_id: articulo, cantidad: -1_000, precio: 6_0000 }], ...extra,
    });
    const mal = await t.op('editarrectificativa', { cookie: t.cookie, body: cuerpo({ facturas_rectificadas: `${f2.id},${ajena.id}` }) });
    expect(mal.json()).toMatchObject({ RESULT: '1', errors: { facturas_rectificadas: MESSAGES.facturasRectificadasNoValidas } });
    const sust = await t.op('editarrectificativa', { cookie: t.cookie, body: cuerpo({ modo: 'sustitucion', facturas_rectificadas: `${f2.id}` }) });
    expect(sust.json()).toMatchObject({ RESULT: '1', errors: { facturas_rectificadas: MESSAGES.variasFacturasSoloDiferencias } });

    const r = await save(t, t.cookie, 'editarrectificativa', cuerpo({ facturas_rectificadas: `${f2.id}, ${f3.id}` }));
    expect(JSON.parse(String(r.facturas_rectificadas))).toEqual([f2.id, f3.id]);
    const e = await save(t, t.cookie, 'emitirrectificativa', { id: r.id });
    expect(e).toMatchObject({ estado: 'emitida', total: -7_26 });
    const [reg] = (await list(t, t.cookie, 'listadoregistrosfacturacion', { documento_id: r.id })).rows as (Row & { xml: string })[];
    const fecha = HOY.split('-').reverse().join('-');
    const id = (n: string) => `<sf:IDFacturaRectificada><sf:IDEmisorFactura>B86420973</sf:IDEmisorFactura><sf:NumSerieFactura>${n}</sf:NumSerieFactura><sf:FechaExpedicionFactura>${fecha}</sf:FechaExpedicionFactura></sf:IDFacturaRectificada>`;
    expect(reg.xml).toContain(`<sf:TipoRectificativa>I</sf:TipoRectificativa><sf:FacturasRectificadas>${id(f1.numero)}${id(f2.numero)}${id(f3.numero)}</sf:FacturasRectificadas>`);
    expect(reg.xml).toContain(`<sf:DescripcionOperacion>Rectificación de las facturas ${f1.numero}, ${f2.numero}, ${f3.numero}</sf:DescripcionOperacion>`);
    validarXml(reg.xml);
    // An invoice a rappel corrects cannot be annulled, as one a rectificativa corrects.
    expect((await t.op('anularfactura', { cookie: t.cookie, body: { id: f3.id } })).json()).toMatchObject({ RESULT: '2', message: MESSAGES.facturaConRectificativas });
  });
});
