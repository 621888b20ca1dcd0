import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, kitDeDos, leerDocumento, stockPorAlmacen } from './documentos-fixtures.ts';

/**
 * The document engine's corrections (docs/documentos.md): a rectificativa's header from the invoice it corrects, what
 * can be returned counting both paths (albarán and the invoice that billed it), a Finalizado order whose albarán is
 * edited, the average sale price after a rectificativa's price correction, and kits outside sales.
 */

const HOY = todayIn('Europe/Madrid');

type Linea = Row & { articulo_id: number; cantidad: number; precio: number; pendiente: number; origen_linea_id: number | null };
type Doc = Row & {
  estado: string;
  numero: string;
  cliente_id: number | null;
  almacen_id: number | null;
  lineas: Linea[];
  hijos: { tipo: string; id: number; numero: string }[];
  historial: { accion: string }[];
};

const post = enviar<Doc>;
const ok = guardar<Doc>;
const leer = leerDocumento<Doc>;

/** What a refused save must leave as it was: documents, lines and the ledger. */
async function foto(t: SuiteApp) {
  const db = t.app.manager.db;
  const n = async (table: 'documentos' | 'documento_lineas' | 'stock_movimientos') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { documentos: await n('documentos'), lineas: await n('documento_lineas'), ledger: await n('stock_movimientos') };
}

describe.each(backends())('el motor de documentos: correcciones ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let tienda: number;
  let serieA: number;
  let serieR: number;
  let cliente: Row;
  let proveedor: Row;
  let a: Row;
  let b: Row;
  let comp1: Row;
  let comp2: Row;
  let kit: Row;

  it('setup: a customer, a supplier, articles, a kit of two components, opening stock', async () => {
    const almacenes = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows;
    principal = almacenes.find((r) => r.codigo === 'PRINCIPAL')!.id;
    tienda = (await save(t, t.cookie, 'editaralmacen', { codigo: 'MOT-TIENDA', nombre: 'Tienda del motor' })).id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieA = series.find((s) => s.codigo === 'A')!.id;
    serieR = series.find((s) => s.codigo === 'R')!.id;
    cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    proveedor = await save(t, t.cookie, 'editarproveedor', { nif: 'B28456713', razon_social: 'Suministros Castilla, S.L.' });
    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('MOT-A', { precio_venta: 100_000 }));
    b = await save(t, t.cookie, 'editararticulo', nuevoArticulo('MOT-B', { precio_venta: 50_000 }));
    ({ comp1, comp2, kit } = await kitDeDos(t, 'MOT'));
    await ok(t, 'editaralbarancompra', {
      fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal,
      lineas: [a, b, comp1, comp2].map((x) => ({ articulo_id: x.id, cantidad: 50_000, precio: 10_000 })),
    });
    expect(await stockPorAlmacen(t, a.id)).toMatchObject({ [principal]: 50_000 });
  });

  it('editarrectificativa without customer or warehouse takes them from the invoice it corrects', async () => {
    const borrador = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: 3_000, precio: 100_000 }] });
    const f = await ok(t, 'emitirfactura', { id: borrador.id });
    const r = await ok(t, 'editarrectificativa', {
      fecha: HOY, serie_id: serieR, factura_id: f.id, tipo: 'R1',
      lineas: [{ articulo_id: a.id, cantidad: -1_000, precio: 100_000, origen_linea_id: f.lineas[0].id }],
    });
    expect(r).toMatchObject({ cliente_id: cliente.id, almacen_id: principal, factura_id: f.id, total: -1_210 });
    // Edited again without them: still the invoice's.
    const editada = await ok(t, 'editarrectificativa', {
      id: r.id, fecha: HOY, serie_id: serieR, factura_id: f.id, tipo: 'R1',
      lineas: [{ articulo_id: a.id, cantidad: -2_000, precio: 100_000, origen_linea_id: f.lineas[0].id }],
    });
    expect(editada).toMatchObject({ cliente_id: cliente.id, almacen_id: principal, total: -2_420 });
    const antes = (await stockPorAlmacen(t, a.id))[principal];
    await ok(t, 'emitirrectificativa', { id: r.id });
    expect((await stockPorAlmacen(t, a.id))[principal]).toBe(antes + 2_000);

    // Without the invoice either: each field says what is missing, and nothing is written.
    const f0 = await foto(t);
    const sin = await post(t, 'editarrectificativa', { fecha: HOY, serie_id: serieR, tipo: 'R1', lineas: [] });
    expect(sin.status).toBe(400);
    expect(sin.body.errors).toMatchObject({ cliente_id: MESSAGES.required, almacen_id: MESSAGES.required, factura_id: MESSAGES.facturaARectificarNoValida });
    expect(await foto(t)).toEqual(f0);
  });

  it('a line returned through its albarán and through the invoice that billed it is counted once: no double return', async () => {
    const alb = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: b.id, cantidad: 5_000 }] });
    const facturado = await ok(t, 'facturaralbaranventa', { id: alb.id, serie_id: serieA });
    const f = await ok(t, 'emitirfactura', { id: facturado.hijos[0].id });
    const lineaAlbaran = alb.lineas[0].id;
    const lineaFactura = f.lineas[0].id;
    const devolver = (origen: number, cantidad: number) =>
      post(t, 'editardevolucionventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: b.id, cantidad, origen_linea_id: origen }] });

    expect((await devolver(lineaAlbaran, 3_000)).body.RESULT).toBe('0');
    // 3 of 5 already came back through the albarán: 3 more through the invoice would be 6.
    const f0 = await foto(t);
    const doble = await devolver(lineaFactura, 3_000);
    expect(doble).toMatchObject({ status: 400, body: { errors: { 'lineas.0.cantidad': MESSAGES.devolverMasDeVendido } } });
    expect(await foto(t)).toEqual(f0);
    expect((await devolver(lineaFactura, 2_000)).body.RESULT).toBe('0');
    // All 5 are back: neither path takes one more, nor both at once in one devolución.
    const f1 = await foto(t);
    expect((await devolver(lineaAlbaran, 1_000)).body.errors).toEqual({ 'lineas.0.cantidad': MESSAGES.devolverMasDeVendido });
    expect((await devolver(lineaFactura, 1_000)).body.errors).toEqual({ 'lineas.0.cantidad': MESSAGES.devolverMasDeVendido });
    expect(await foto(t)).toEqual(f1);

    const otro = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: b.id, cantidad: 4_000 }] });
    const f2 = await ok(t, 'emitirfactura', { id: (await ok(t, 'facturaralbaranventa', { id: otro.id, serie_id: serieA })).hijos[0].id });
    const ambas = await post(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal,
      lineas: [
        { articulo_id: b.id, cantidad: 2_000, origen_linea_id: otro.lineas[0].id },
        { articulo_id: b.id, cantidad: 3_000, origen_linea_id: f2.lineas[0].id },
      ],
    });
    expect(ambas.status).toBe(400);
    expect(Object.values(ambas.body.errors ?? {})).toContain(MESSAGES.devolverMasDeVendido);
  });

  it('editing the albarán of a Finalizado order reopens its pending units and its state; finishing again and undoing stay exact', async () => {
    const p = await ok(t, 'editarpedidoventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: b.id, cantidad: 5_000 }] });
    await ok(t, 'confirmarpedidoventa', { id: p.id });
    const servido = await ok(t, 'servirpedidoventa', { id: p.id, lineas: [{ id: p.lineas[0].id, cantidad: 3_000 }] });
    const fin = await ok(t, 'finalizarpedidoventa', { id: p.id });
    expect(fin).toMatchObject({ estado: 'finalizado' });
    expect(fin.lineas[0].pendiente).toBe(0);

    // The albarán delivered 2, not 3.
    const alb = await leer(t, 'albaranesventa', servido.hijos[0].id);
    await ok(t, 'editaralbaranventa', {
      id: alb.id, fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ id: alb.lineas[0].id, articulo_id: b.id, cantidad: 2_000 }],
    });
    const reabierto = await leer(t, 'pedidosventa', p.id);
    expect(reabierto.estado).toBe('enviado_parcial');
    expect(reabierto.lineas[0].pendiente).toBe(3_000);
    expect(reabierto.historial.map((h) => h.accion)).toEqual(['confirmar', 'servir', 'finalizar', 'deshacerfinalizacion']);
    const disp = (await list(t, t.cookie, 'disponibleventa', { almacen_id: principal, ids: String(b.id) })).rows[0];
    expect(disp.reservado).toBe(3_000);

    // Finishing again closes those 3; its undo gives back exactly them.
    expect((await ok(t, 'finalizarpedidoventa', { id: p.id })).lineas[0].pendiente).toBe(0);
    const deshecho = await ok(t, 'deshacerfinalizacionpedidoventa', { id: p.id });
    expect(deshecho).toMatchObject({ estado: 'enviado_parcial' });
    expect(deshecho.lineas[0].pendiente).toBe(3_000);

    // A price change only (nothing given back) leaves a finished order finished.
    await ok(t, 'finalizarpedidoventa', { id: p.id });
    const ahora = await leer(t, 'albaranesventa', alb.id);
    await ok(t, 'editaralbaranventa', {
      id: alb.id, fecha: HOY, cliente_id: cliente.id, almacen_id: principal,
      lineas: [{ id: ahora.lineas[0].id, articulo_id: b.id, cantidad: 2_000, precio: 45_000 }],
    });
    expect((await leer(t, 'pedidosventa', p.id)).estado).toBe('finalizado');
  });

  it('deleting the albarán of a Finalizado purchase order reopens it too', async () => {
    const p = await ok(t, 'editarpedidocompra', { fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 4_000 }] });
    const recibido = await ok(t, 'recibirpedidocompra', { id: p.id, lineas: [{ id: p.lineas[0].id, cantidad: 1_000 }] });
    expect((await ok(t, 'finalizarpedidocompra', { id: p.id })).estado).toBe('finalizado');
    expect((await post(t, 'eliminaralbarancompra', { id: recibido.hijos[0].id })).body.RESULT).toBe('0');
    const reabierto = await leer(t, 'pedidoscompra', p.id);
    expect(reabierto.lineas[0].pendiente).toBe(4_000);
    expect(reabierto.estado).toBe('recibido_parcial');
  });

  it('the average sale price follows a rectificativa that corrects the price, by differences and by substitution', async () => {
    const x = await save(t, t.cookie, 'editararticulo', nuevoArticulo('MOT-X', { precio_venta: 100_000 }));
    await ok(t, 'editaralbarancompra', { fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ articulo_id: x.id, cantidad: 20_000, precio: 10_000 }] });
    const borrador = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: x.id, cantidad: 10_000, precio: 100_000 }] });
    const f = await ok(t, 'emitirfactura', { id: borrador.id });
    expect(await articulo(t, t.cookie, x.id)).toMatchObject({ precio_medio_venta: 100_000, unidades_vendidas: 10_000 });

    // By differences: the 10 units out at 10 € and back in at 8 €.
    const r1 = await ok(t, 'editarrectificativa', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieR, factura_id: f.id, tipo: 'R1',
      lineas: [
        { articulo_id: x.id, cantidad: -10_000, precio: 100_000, origen_linea_id: f.lineas[0].id },
        { articulo_id: x.id, cantidad: 10_000, precio: 80_000 },
      ],
    });
    await ok(t, 'emitirrectificativa', { id: r1.id });
    expect(await articulo(t, t.cookie, x.id)).toMatchObject({ precio_medio_venta: 80_000, unidades_vendidas: 10_000, stock_total: 10_000 });

    // By substitution, another invoice of 10 at 10 €: replaced by the same 10 units at 7 €.
    const otra = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: x.id, cantidad: 10_000, precio: 100_000 }] });
    const g = await ok(t, 'emitirfactura', { id: otra.id });
    const r2 = await ok(t, 'editarrectificativa', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieR, factura_id: g.id, tipo: 'R1', modo: 'sustitucion',
      lineas: [{ articulo_id: x.id, cantidad: 10_000, precio: 70_000 }],
    });
    await ok(t, 'emitirrectificativa', { id: r2.id });
    // 10 units at 8 € and 10 at 7 €.
    expect(await articulo(t, t.cookie, x.id)).toMatchObject({ precio_medio_venta: 75_000, unidades_vendidas: 20_000, stock_total: 0 });
  });

  it('kits: purchases and warehouse documents refuse them with a message (their components are bought, moved and counted); nothing changes', async () => {
    const f0 = await foto(t);
    const linea = { articulo_id: kit.id, cantidad: 1_000, precio: 10_000 };
    const compra = { fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000 }, linea] };
    for (const ac of ['editarpedidocompra', 'editaralbarancompra', 'editardevolucioncompra']) {
      const res = await post(t, ac, compra);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ 'lineas.1.articulo_id': MESSAGES.kitNoComprable });
    }
    const almacen = [
      ['editarmovimiento', { fecha: HOY, almacen_id: principal, almacen_destino_id: tienda, lineas: [linea] }],
      ['editarinventario', { fecha: HOY, almacen_id: principal, lineas: [linea] }],
      ['editarperdida', { fecha: HOY, almacen_id: principal, lineas: [{ ...linea, motivo: 'rotura' }] }],
    ] as const;
    for (const [ac, body] of almacen) {
      const res = await post(t, ac, body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ 'lineas.0.articulo_id': MESSAGES.kitSinStockPropio });
    }
    expect(await foto(t)).toEqual(f0);
    expect((await articulo(t, t.cookie, kit.id)).stock_total).toBe(0);
    // Sales still take it, moving its components.
    const antes = (await stockPorAlmacen(t, comp1.id))[principal];
    await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 1_000 }] });
    expect((await stockPorAlmacen(t, comp1.id))[principal]).toBe(antes - 2_000);
  });
});
