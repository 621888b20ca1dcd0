import { describe, expect, it } from 'vitest';
import { MESSAGES, isValidNif } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, createTestApp, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, kitDeDos, leerDocumento, stockPorAlmacen } from './documentos-fixtures.ts';

const HOY = todayIn('Europe/Madrid');

type Linea = Row & { articulo_id: number; cantidad: number; precio: number; descuento: number; pendiente: number; origen_linea_id: number | null; enlazado: number };
type Doc = Row & {
  estado: string;
  numero: string;
  lineas: Linea[];
  hijos: { tipo: string; id: number; numero: string }[];
  padres: { tipo: string; id: number }[];
  horas?: { proceso_id: number; proceso_nombre: string; horas: number; precio: number }[];
};

const post = enviar<Doc>;
const ok = guardar<Doc>;
const leer = leerDocumento<Doc>;

const stockDe = stockPorAlmacen;
/** disponibleventa of some articles in a warehouse, by article. */
async function disponible(t: SuiteApp, almacenId: number, ids: number[]) {
  const { rows } = await list(t, t.cookie, 'disponibleventa', { almacen_id: almacenId, ids: ids.join(',') });
  return Object.fromEntries(rows.map((r) => [r.articulo_id, { stock: r.stock, reservado: r.reservado, disponible: r.disponible }]));
}
/** A draft invoice as stored (the invoices' own actions are facturas.ts'): header and lines with their links. */
async function factura(t: SuiteApp, id: number) {
  const db = t.app.manager.db;
  const doc = await db.selectFrom('documentos').select(['id', 'tipo', 'estado', 'numero', 'cliente_id', 'total']).where('id', '=', id).executeTakeFirstOrThrow();
  const lineas = await db
    .selectFrom('documento_lineas as l')
    .leftJoin('documento_enlaces as e', 'e.linea_id', 'l.id')
    .select(['l.id', 'l.articulo_id', 'l.cantidad', 'l.precio', 'e.padre_linea_id as origen_linea_id'])
    .where('l.documento_id', '=', id)
    .orderBy('l.orden')
    .execute();
  return { ...doc, total: Number(doc.total), lineas: lineas.map((l) => ({ ...l, cantidad: Number(l.cantidad), precio: Number(l.precio) })) };
}
const ledger = async (t: SuiteApp, tipo: string, id: number) =>
  (
    await t.app.manager.db
      .selectFrom('stock_movimientos')
      .select(['articulo_id', 'cantidad', 'precio', 'causa'])
      .where('documento_tipo', '=', tipo)
      .where('documento_id', '=', id)
      .orderBy('id')
      .execute()
  ).map((r) => [r.articulo_id, Number(r.cantidad), Number(r.precio), r.causa]);

describe.each(backends())('ventas ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let c1: Row;
  let c2: Row;
  let c3: Row;
  let a: Row;
  let b: Row;
  let comp1: Row;
  let comp2: Row;
  let kit: Row;

  it('clientes: code C0001, province, NIF validation, unique NIF, tarifa 2/3 only with their flags, search', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    c1 = await save(t, t.cookie, 'editarcliente', {
      nif: 'b85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020', forma_pago: 'transferencia_30', email: 'admin@reformas.es',
    });
    expect(c1).toMatchObject({
      codigo: 'C0001', nif: 'B85612349', provincia: 'Madrid', activo: 1, recargo: 0, tarifa: 1, descuento: 0, retencion: 0,
      ventas_por_ejercicio: [], pendiente_cobro: 0, vencido: 0,
    });
    c2 = await save(t, t.cookie, 'editarcliente', { nif: '50738214F', razon_social: 'María López García', codigo_postal: '45001', recargo: 1, forma_pago: 'contado' });
    expect(c2).toMatchObject({ codigo: 'C0002', provincia: 'Toledo', recargo: 1 });
    c3 = await save(t, t.cookie, 'editarcliente', { nif: 'B46728192', razon_social: 'Construcciones Levante, S.L.', tarifa: 2, descuento: 500 });
    expect(c3).toMatchObject({ codigo: 'C0003', tarifa: 2, descuento: 500 });

    const bad = await post(t, 'editarcliente', { nif: 'B85612340', razon_social: 'X', iban: 'ES0000000000000000000000' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ nif: MESSAGES.invalidNif, iban: MESSAGES.invalidIban });
    expect((await post(t, 'editarcliente', { nif: 'B85612349', razon_social: 'Otro' })).body.errors).toEqual({ nif: MESSAGES.duplicated });
    // tarifa_3 is off in the demo configuration.
    await setFlags(t, t.cookie, { tarifa_3: 0 });
    expect((await post(t, 'editarcliente', { id: c3.id, nif: 'B46728192', razon_social: 'Construcciones Levante, S.L.', tarifa: 3 })).body.errors).toEqual({
      tarifa: MESSAGES.selectOption,
    });
    expect((await list(t, t.cookie, 'listadoclientes', { q: 'lopez' })).rows.map((r) => r.codigo)).toEqual(['C0002']);
    // A change carries only what it sends.
    const cambiado = await save(t, t.cookie, 'editarcliente', { id: c1.id, nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', telefono: '915702318' });
    expect(cambiado).toMatchObject({ codigo: 'C0001', provincia: 'Madrid', telefono: '915702318', forma_pago: 'transferencia_30' });

    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('VEN-A', { precio_compra: 60_000, precio_venta: 100_000, tarifa_2: 80_000 }));
    b = await save(t, t.cookie, 'editararticulo', nuevoArticulo('VEN-B', { precio_compra: 30_000, precio_venta: 50_000, tipo_iva: '10' }));
    ({ comp1, comp2, kit } = await kitDeDos(t, 'VEN'));
    // Opening stock, bought from a supplier.
    const p = await save(t, t.cookie, 'editarproveedor', { nif: 'B28456713', razon_social: 'Suministros Castilla, S.L.' });
    await ok(t, 'editaralbarancompra', {
      fecha: HOY, proveedor_id: p.id, almacen_id: principal,
      lineas: [a, b, comp1, comp2].map((x) => ({ articulo_id: x.id, cantidad: x === a ? 20_000 : 10_000, precio: 10_000 })),
    });
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 20_000 });
  });

  it("sale lines default to the customer's tarifa price and discount; recargo comes from the customer, with its totals", async () => {
    const pedido = await ok(t, 'editarpedidoventa', {
      fecha: HOY, cliente_id: c3.id, almacen_id: principal,
      lineas: [
        { articulo_id: a.id, cantidad: 2_000 },
        { articulo_id: a.id, cantidad: 1_000, precio: 90_000, descuento: 0 },
        // No tarifa 2 price: tarifa 1's.
        { articulo_id: b.id, cantidad: 1_000 },
      ],
    });
    expect(pedido).toMatchObject({ estado: 'pendiente', cliente_nombre: 'Construcciones Levante, S.L.', cliente_nif: 'B46728192', con_recargo: 0 });
    expect(pedido.lineas.map((l) => [l.precio, l.descuento, l.pendiente])).toEqual([[80_000, 500, 2_000], [90_000, 0, 1_000], [50_000, 500, 1_000]]);
    // 2 × 8 € − 5 % + 9 € = 24,20 € at 21 % (5,08 €); 5 € − 5 % = 4,75 € at 10 % (0,475 → 0,48 €).
    expect(pedido).toMatchObject({ base: 2_895, iva: 508 + 48, recargo: 0, total: 3_451 });
    expect((await post(t, 'eliminarpedidoventa', { id: pedido.id })).body.RESULT).toBe('0');

    const alb = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000 }] });
    // 10 € + 21 % IVA + 5,2 % recargo.
    expect(alb).toMatchObject({ con_recargo: 1, base: 1_000, iva: 210, recargo: 52, total: 1_262, forma_pago: 'contado' });
    expect(alb.lineas[0]).toMatchObject({ precio: 100_000, descuento: 0, pendiente: 1_000 });
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 19_000 });
    expect((await post(t, 'eliminaralbaranventa', { id: alb.id })).body.RESULT).toBe('0');
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 20_000 });

    const sinCliente = await post(t, 'editaralbaranventa', { fecha: HOY, cliente_id: 9999, almacen_id: principal, lineas: [] });
    expect(sinCliente).toMatchObject({ status: 400, body: { errors: { cliente_id: MESSAGES.clienteNoActivo } } });
  });

  it("a sale line without a location leaves from the article's usual one in the warehouse, and a return comes back to it", async () => {
    const hueco = await ok(t, 'editarubicacion', { almacen_id: principal, codigo: 'V-01', descripcion: 'Mostrador' });
    await ok(t, 'editarubicacionarticulo', { articulo_id: a.id, almacen_id: principal, ubicacion_id: hueco.id });
    const alb = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 2_000 }] });
    expect(alb.lineas[0]).toMatchObject({ ubicacion_id: hueco.id });
    const filas = await t.app.manager.db
      .selectFrom('stock_movimientos')
      .select(['ubicacion_id', 'cantidad'])
      .where('documento_tipo', '=', 'albaranventa')
      .where('documento_id', '=', alb.id)
      .execute();
    expect(filas.map((f) => [f.ubicacion_id, Number(f.cantidad)])).toEqual([[hueco.id, -2_000]]);
    const rec = await articulo(t, t.cookie, a.id);
    const enPrincipal = (rec.stock as { almacen_id: number; ubicaciones?: { ubicacion_id: number | null; stock: number }[] }[]).find((s) => s.almacen_id === principal)!;
    expect(enPrincipal.ubicaciones?.find((u) => u.ubicacion_id === hueco.id)?.stock).toBe(-2_000);
    expect((await post(t, 'eliminaralbaranventa', { id: alb.id })).body.RESULT).toBe('0');
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 20_000 });
    await post(t, 'editarubicacionarticulo', { articulo_id: a.id, almacen_id: principal, ubicacion_id: null });
  });

  let pedido: Doc;
  it('pedido: confirmar reserves its pending units; servir in two parts makes linked albaranes; refusals change nothing; undo', async () => {
    pedido = await ok(t, 'editarpedidoventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, fecha_entrega: HOY,
      lineas: [{ articulo_id: a.id, cantidad: 10_000 }, { articulo_id: b.id, cantidad: 4_000 }],
    });
    const [la, lb] = pedido.lineas;
    // Pendiente reserves nothing yet.
    expect((await disponible(t, principal, [a.id]))[a.id]).toEqual({ stock: 20_000, reservado: 0, disponible: 20_000 });
    expect((await ok(t, 'confirmarpedidoventa', { id: pedido.id })).estado).toBe('confirmado');
    expect((await disponible(t, principal, [a.id, b.id]))).toEqual({
      [a.id]: { stock: 20_000, reservado: 10_000, disponible: 10_000 },
      [b.id]: { stock: 10_000, reservado: 4_000, disponible: 6_000 },
    });
    expect((await ok(t, 'deshacerconfirmacionpedidoventa', { id: pedido.id })).estado).toBe('pendiente');
    expect((await disponible(t, principal, [a.id]))[a.id].reservado).toBe(0);
    await ok(t, 'confirmarpedidoventa', { id: pedido.id });
    // A confirmed order may still change until something is served.
    pedido = await ok(t, 'editarpedidoventa', {
      id: pedido.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal,
      lineas: [{ articulo_id: a.id, cantidad: 10_000 }, { articulo_id: b.id, cantidad: 4_000 }],
    });
    expect(pedido.estado).toBe('confirmado');
    const [l1, l2] = pedido.lineas;
    expect([l1.id, l2.id]).not.toEqual([la.id, lb.id]);

    let r = await ok(t, 'servirpedidoventa', { id: pedido.id, lineas: [{ id: l1.id, cantidad: 4_000 }] });
    expect(r.estado).toBe('enviado_parcial');
    expect(r.lineas.map((l) => l.pendiente)).toEqual([6_000, 4_000]);
    expect(r.hijos).toHaveLength(1);
    const alb1 = await leer(t, 'albaranesventa', r.hijos[0].id);
    expect(alb1).toMatchObject({ estado: 'pendiente', cliente_id: c1.id, almacen_id: principal, forma_pago: 'transferencia_30' });
    expect(alb1.lineas.map((l) => [l.articulo_id, l.cantidad, l.precio, l.origen_linea_id, l.pendiente])).toEqual([[a.id, 4_000, 100_000, l1.id, 4_000]]);
    expect(await ledger(t, 'albaranventa', alb1.id)).toEqual([[a.id, -4_000, 100_000, 'venta']]);
    expect((await disponible(t, principal, [a.id]))[a.id]).toEqual({ stock: 16_000, reservado: 6_000, disponible: 10_000 });

    // Refusals: more than pending, nothing to serve, a line of another document, editing a served order.
    const mas = await post(t, 'servirpedidoventa', { id: pedido.id, lineas: [{ id: l1.id, cantidad: 6_001 }] });
    expect(mas).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.servirMasDePendiente } });
    const nada = await post(t, 'servirpedidoventa', { id: pedido.id, lineas: [{ id: l1.id, cantidad: 0 }] });
    expect(nada).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.nadaQueServir } });
    const ajena = await post(t, 'servirpedidoventa', { id: pedido.id, lineas: [{ id: alb1.lineas[0].id, cantidad: 1_000 }] });
    expect(ajena.body).toMatchObject({ RESULT: '1', message: MESSAGES.lineaOtroDocumento });
    const editar = await post(t, 'editarpedidoventa', {
      id: pedido.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000 }],
    });
    expect(editar.body).toMatchObject({ RESULT: '1', message: MESSAGES.accionNoPermitida });
    expect((await post(t, 'eliminarpedidoventa', { id: pedido.id })).body.RESULT).toBe('2');
    r = await leer(t, 'pedidosventa', pedido.id);
    expect(r.lineas.map((l) => [l.cantidad, l.pendiente])).toEqual([[10_000, 6_000], [4_000, 4_000]]);
    expect(r.hijos).toHaveLength(1);
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 16_000 });

    r = await ok(t, 'servirpedidoventa', { id: pedido.id, lineas: [{ id: l1.id, cantidad: 6_000 }, { id: l2.id, cantidad: 2_000 }] });
    expect(r).toMatchObject({ estado: 'enviado_parcial' });
    expect(r.lineas.map((l) => [l.pendiente, l.enlazado])).toEqual([[0, 10_000], [2_000, 2_000]]);
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 10_000 });
    expect(await stockDe(t, b.id)).toMatchObject({ [principal]: 8_000 });

    // Undo the latest: its albarán goes; stock, pending units and reservation come back.
    const alb2 = r.hijos[1].id;
    r = await ok(t, 'deshacerserviciopedidoventa', { id: pedido.id });
    expect(r.estado).toBe('enviado_parcial');
    expect(r.hijos.map((h) => h.id)).toEqual([alb1.id]);
    expect(r.lineas.map((l) => l.pendiente)).toEqual([6_000, 4_000]);
    expect((await t.op('listadoalbaranesventa', { cookie: t.cookie, query: { id: String(alb2) } })).json().RESULT).toBe('3');
    expect(await disponible(t, principal, [a.id, b.id])).toEqual({
      [a.id]: { stock: 16_000, reservado: 6_000, disponible: 10_000 },
      [b.id]: { stock: 10_000, reservado: 4_000, disponible: 6_000 },
    });

    // Everything pending at once: Enviado total, nothing reserved.
    r = await ok(t, 'servirpedidoventa', { id: pedido.id });
    expect(r.estado).toBe('enviado');
    expect(r.lineas.map((l) => l.pendiente)).toEqual([0, 0]);
    expect(await disponible(t, principal, [a.id, b.id])).toEqual({
      [a.id]: { stock: 10_000, reservado: 0, disponible: 10_000 },
      [b.id]: { stock: 6_000, reservado: 0, disponible: 6_000 },
    });
    expect((await ok(t, 'finalizarpedidoventa', { id: pedido.id })).estado).toBe('finalizado');
    expect((await ok(t, 'deshacerfinalizacionpedidoventa', { id: pedido.id })).estado).toBe('enviado');
    pedido = r;
  });

  it('finalizar closes what is pending and stops reserving it; its undo gives both back', async () => {
    const p = await ok(t, 'editarpedidoventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: b.id, cantidad: 5_000 }] });
    await ok(t, 'confirmarpedidoventa', { id: p.id });
    await ok(t, 'servirpedidoventa', { id: p.id, lineas: [{ id: p.lineas[0].id, cantidad: 2_000 }] });
    expect((await disponible(t, principal, [b.id]))[b.id]).toEqual({ stock: 4_000, reservado: 3_000, disponible: 1_000 });
    let r = await ok(t, 'finalizarpedidoventa', { id: p.id });
    expect(r.estado).toBe('finalizado');
    expect(r.lineas[0].pendiente).toBe(0);
    expect((await disponible(t, principal, [b.id]))[b.id]).toEqual({ stock: 4_000, reservado: 0, disponible: 4_000 });
    expect((await post(t, 'servirpedidoventa', { id: p.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.accionNoPermitida });
    r = await ok(t, 'deshacerfinalizacionpedidoventa', { id: p.id });
    expect(r).toMatchObject({ estado: 'enviado_parcial' });
    expect(r.lineas[0].pendiente).toBe(3_000);
    expect((await disponible(t, principal, [b.id]))[b.id].reservado).toBe(3_000);
    // Deleting its albarán (still Pendiente) gives the units back too.
    expect((await post(t, 'eliminaralbaranventa', { id: r.hijos[0].id })).body.RESULT).toBe('0');
    expect((await leer(t, 'pedidosventa', p.id)).lineas[0].pendiente).toBe(5_000);
    expect(await stockDe(t, b.id)).toMatchObject({ [principal]: 6_000 });
    await ok(t, 'finalizarpedidoventa', { id: p.id });
  });

  it("deshacerservicio is refused while the served albarán is invoiced (RESULT 2), and works again once the draft invoice is undone", async () => {
    const p = await ok(t, 'editarpedidoventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000 }] });
    await ok(t, 'confirmarpedidoventa', { id: p.id });
    const servido = await ok(t, 'servirpedidoventa', { id: p.id });
    const albId = servido.hijos[0].id;
    const facturado = await ok(t, 'facturaralbaranventa', { id: albId });
    expect(facturado.estado).toBe('finalizado');
    expect(facturado.hijos.map((h) => h.tipo)).toEqual(['factura']);
    const undo = await post(t, 'deshacerserviciopedidoventa', { id: p.id });
    expect(undo.body.RESULT).toBe('2');
    expect((await leer(t, 'pedidosventa', p.id)).estado).toBe('enviado');
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 9_000 });
    // The albarán can't be edited while invoiced either.
    const editar = await post(t, 'editaralbaranventa', { id: albId, fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [] });
    expect(editar.body.RESULT).not.toBe('0');

    expect((await ok(t, 'deshacerfacturacionalbaranventa', { id: albId })).estado).toBe('pendiente');
    expect((await ok(t, 'deshacerserviciopedidoventa', { id: p.id })).estado).toBe('confirmado');
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 10_000 });
    // Its servir moved stock (through the albarán it made): the pedido stays, in the history's record.
    expect((await post(t, 'deshacerconfirmacionpedidoventa', { id: p.id })).body.RESULT).toBe('0');
    expect((await post(t, 'eliminarpedidoventa', { id: p.id })).body).toMatchObject({ RESULT: '2', message: MESSAGES.documentoConHistorial });
  });

  let albKit: Doc;
  it("kits: selling one takes its components' stock (scaled, the kit's price shared by their prices), never the kit's", async () => {
    albKit = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 3_000 }] });
    expect(albKit.lineas[0]).toMatchObject({ precio: 60_000 });
    expect(await stockDe(t, comp1.id)).toMatchObject({ [principal]: 4_000 });
    expect(await stockDe(t, comp2.id)).toMatchObject({ [principal]: 7_000 });
    expect((await articulo(t, t.cookie, kit.id)).stock_total).toBe(0);
    // 6 € of the kit: 2 × 2 € and 1 × 1 € of value → 2,40 € per C1 and 1,20 € per C2.
    expect(await ledger(t, 'albaranventa', albKit.id)).toEqual([[comp1.id, -6_000, 24_000, 'venta'], [comp2.id, -3_000, 12_000, 'venta']]);
    expect(await disponible(t, principal, [kit.id, comp1.id])).toEqual({
      [kit.id]: { stock: 2_000, reservado: 0, disponible: 2_000 },
      [comp1.id]: { stock: 4_000, reservado: 0, disponible: 4_000 },
    });

    // An edit writes the difference: 2 kits and 1 of A.
    albKit = await ok(t, 'editaralbaranventa', {
      id: albKit.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal,
      lineas: [{ articulo_id: kit.id, cantidad: 2_000 }, { articulo_id: a.id, cantidad: 1_000 }],
    });
    expect(await stockDe(t, comp1.id)).toMatchObject({ [principal]: 6_000 });
    expect(await stockDe(t, comp2.id)).toMatchObject({ [principal]: 8_000 });
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 9_000 });
    expect((await ledger(t, 'albaranventa', albKit.id)).slice(2)).toEqual([[comp1.id, 2_000, 24_000, 'venta'], [comp2.id, 1_000, 12_000, 'venta'], [a.id, -1_000, 100_000, 'venta']]);

    // A confirmed order of a kit reserves its components.
    const p = await ok(t, 'editarpedidoventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 1_000 }] });
    await ok(t, 'confirmarpedidoventa', { id: p.id });
    expect(await disponible(t, principal, [kit.id, comp1.id, comp2.id])).toEqual({
      [kit.id]: { stock: 3_000, reservado: 1_000, disponible: 2_000 },
      [comp1.id]: { stock: 6_000, reservado: 2_000, disponible: 4_000 },
      [comp2.id]: { stock: 8_000, reservado: 1_000, disponible: 7_000 },
    });
    await ok(t, 'deshacerconfirmacionpedidoventa', { id: p.id });
    expect((await post(t, 'eliminarpedidoventa', { id: p.id })).body.RESULT).toBe('0');
  });

  it('devolución: from albarán lines up to what was sold and not returned (kits bring their components back); other customers refused; nothing changed', async () => {
    const lk = albKit.lineas.find((l) => l.articulo_id === kit.id)!;
    const demasiado = await post(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 2_001, origen_linea_id: lk.id }],
    });
    expect(demasiado).toMatchObject({ status: 400, body: { errors: { 'lineas.0.cantidad': MESSAGES.devolverMasDeVendido } } });
    const otroCliente = await post(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c2.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 1_000, origen_linea_id: lk.id }],
    });
    expect(otroCliente.body.errors).toEqual({ 'lineas.0.origen_linea_id': MESSAGES.lineaOrigenClienteNoValida });
    const otroArticulo = await post(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000, origen_linea_id: lk.id }],
    });
    expect(otroArticulo.body.errors).toEqual({ 'lineas.0.origen_linea_id': MESSAGES.lineaOrigenClienteNoValida });
    expect(await stockDe(t, comp1.id)).toMatchObject({ [principal]: 6_000 });

    const dev = await ok(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 1_000, origen_linea_id: lk.id }],
    });
    expect(dev).toMatchObject({ estado: 'pendiente' });
    expect(dev.padres.map((p) => p.id)).toEqual([albKit.id]);
    expect(await ledger(t, 'devolucionventa', dev.id)).toEqual([[comp1.id, 2_000, 24_000, 'devolucion_venta'], [comp2.id, 1_000, 12_000, 'devolucion_venta']]);
    expect(await stockDe(t, comp1.id)).toMatchObject({ [principal]: 8_000 });
    // 1 of 2 returned: one more at most, counting its own when edited.
    const segunda = await post(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 1_001, origen_linea_id: lk.id }],
    });
    expect(segunda.body.errors).toEqual({ 'lineas.0.cantidad': MESSAGES.devolverMasDeVendido });
    const editada = await ok(t, 'editardevolucionventa', {
      id: dev.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ id: dev.lineas[0].id, articulo_id: kit.id, cantidad: 2_000 }],
    });
    expect(editada.lineas[0].origen_linea_id).toBe(lk.id);
    expect(await stockDe(t, comp1.id)).toMatchObject({ [principal]: 10_000 });
    // The albarán has a devolución: it can't be edited or deleted.
    expect((await post(t, 'eliminaralbaranventa', { id: albKit.id })).body.RESULT).toBe('2');
    expect((await post(t, 'eliminardevolucionventa', { id: dev.id })).body.RESULT).toBe('0');
    expect(await stockDe(t, comp1.id)).toMatchObject({ [principal]: 6_000 });

    // A direct devolución (no origin) brings stock back as well; a draft invoice's line is no origin.
    const directa = await ok(t, 'editardevolucionventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000 }] });
    expect(await stockDe(t, a.id)).toMatchObject({ [principal]: 10_000 });
    await ok(t, 'facturaralbaranventa', { id: albKit.id });
    const borrador = (await leer(t, 'albaranesventa', albKit.id)).hijos[0];
    const lineaFactura = (await factura(t, borrador.id)).lineas[0];
    const deBorrador = await post(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: lineaFactura.articulo_id, cantidad: 1_000, origen_linea_id: lineaFactura.id }],
    });
    expect(deBorrador.body.errors).toEqual({ 'lineas.0.origen_linea_id': MESSAGES.lineaOrigenClienteNoValida });
    // Invoiced (a draft covers the albarán), what was sold can still be returned from the albarán.
    const trasFactura = await ok(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: kit.id, cantidad: 2_000, origen_linea_id: lk.id }],
    });
    expect(await stockDe(t, comp1.id)).toMatchObject({ [principal]: 10_000 });
    await post(t, 'eliminardevolucionventa', { id: trasFactura.id });
    await post(t, 'eliminardevolucionventa', { id: directa.id });
    await ok(t, 'deshacerfacturacionalbaranventa', { id: albKit.id });
  });

  let proceso: Row;
  let parte: Doc;
  it("parte: hours per proceso (price = the proceso's cost) and materials; totals with both; who did it", async () => {
    proceso = await save(t, t.cookie, 'editarproceso', { codigo: 'MONT', nombre: 'Montaje', tiempo: 60, coste: 250_000 });
    const admin = (await list(t, t.cookie, 'listadousuarios', {})).rows[0];
    const malo = await post(t, 'editarparte', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, horas: [{ proceso_id: 9999, horas: 1_000 }, { proceso_id: proceso.id, horas: 0 }], usuario_id: 9999,
    });
    expect(malo).toMatchObject({ status: 400 });
    expect(malo.body.errors).toEqual({
      'horas.0.proceso_id': MESSAGES.unknownElement, 'horas.1.horas': MESSAGES.cantidadMayorQueCero, usuario_id: MESSAGES.unknownElement,
    });
    parte = await ok(t, 'editarparte', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, observaciones: 'Montaje de estanterías',
      lineas: [{ articulo_id: b.id, cantidad: 1_000 }], horas: [{ proceso_id: proceso.id, horas: 2_500 }],
    });
    expect(parte).toMatchObject({ estado: 'pendiente', usuario_id: admin.id, usuario_nombre: admin.nombre, observaciones: 'Montaje de estanterías' });
    expect(parte.horas).toEqual([{ id: expect.any(Number), proceso_id: proceso.id, proceso_nombre: 'Montaje', horas: 2_500, precio: 250_000 }]);
    // 5 € of material at 10 % + 2,5 h × 25 € at 21 %.
    expect(parte).toMatchObject({ base: 6_750, iva: 50 + 1_313, total: 8_113 });
    // The hours' service article: 'MO-MONT', in hours, linked to the proceso.
    const mo = (await list(t, t.cookie, 'listadoarticulos', { barras: 'MO-MONT' })).rows[0];
    expect(mo).toBeDefined();
    const moRec = await articulo(t, t.cookie, mo.id);
    expect(moRec).toMatchObject({ codigo: 'MO-MONT', descripcion: 'Montaje', unidad_medida: 'h', precio_venta: 250_000, tipo_iva: '21', procesos: [proceso.id] });
    // Saved, a parte moves no stock.
    expect(await stockDe(t, b.id)).toMatchObject({ [principal]: 6_000 });

    // An edit replaces hours and lines; a price typed in stays.
    parte = await ok(t, 'editarparte', {
      id: parte.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal, usuario_id: admin.id,
      lineas: [{ articulo_id: b.id, cantidad: 2_000 }], horas: [{ proceso_id: proceso.id, horas: 1_000, precio: 300_000 }, { proceso_id: proceso.id, horas: 500 }],
    });
    expect(parte.horas!.map((h) => [h.horas, h.precio])).toEqual([[1_000, 300_000], [500, 250_000]]);
    // 10 € at 10 % + (30 + 12,50) € at 21 %.
    expect(parte).toMatchObject({ base: 5_250, iva: 100 + 893, total: 6_243 });
    // The list says who did the work.
    const fila = (await list(t, t.cookie, 'listadopartes', { cliente_id: c1.id })).rows.find((r) => r.id === parte.id);
    expect(fila).toMatchObject({ usuario_nombre: 'Administrador', cliente_nombre: c1.razon_social });

    // A parte deleted while Pendiente takes its hours with it.
    const otro = await ok(t, 'editarparte', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, horas: [{ proceso_id: proceso.id, horas: 1_000 }] });
    expect((await post(t, 'eliminarparte', { id: otro.id })).body.RESULT).toBe('0');
    expect(await t.app.manager.db.selectFrom('parte_horas').select('id').where('documento_id', '=', otro.id).execute()).toEqual([]);
  });

  it('parte: finalizar takes the materials out (causa parte) and its undo puts them back; facturar makes a draft invoice with materials and hours', async () => {
    let r = await ok(t, 'finalizarparte', { id: parte.id });
    expect(r.estado).toBe('finalizado');
    expect(await stockDe(t, b.id)).toMatchObject({ [principal]: 4_000 });
    expect(await ledger(t, 'parte', parte.id)).toEqual([[b.id, -2_000, 50_000, 'parte']]);
    expect((await post(t, 'editarparte', { id: parte.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal })).body.message).toBe(MESSAGES.accionNoPermitida);
    r = await ok(t, 'deshacerfinalizacionparte', { id: parte.id });
    expect(r.estado).toBe('pendiente');
    expect(await stockDe(t, b.id)).toMatchObject({ [principal]: 6_000 });
    await ok(t, 'finalizarparte', { id: parte.id });
    // It has moved stock: it can no longer be deleted, even back in Pendiente.
    r = await ok(t, 'facturarparte', { id: parte.id });
    expect(r.estado).toBe('facturado');
    expect(r.hijos.map((h) => [h.tipo, h.numero])).toEqual([['factura', 'Borrador']]);
    const borrador = await factura(t, r.hijos[0].id);
    expect(borrador).toMatchObject({ tipo: 'factura', estado: 'borrador', numero: null, cliente_id: c1.id, total: 6_243 });
    const mo = (await list(t, t.cookie, 'listadoarticulos', { barras: 'MO-MONT' })).rows[0];
    // The hours come linked to the parte's hours lines (hidden from its `lineas`).
    const lineasHoras = await t.app.manager.db
      .selectFrom('documento_lineas')
      .select(['id', 'pendiente'])
      .where('documento_id', '=', parte.id)
      .where('motivo', '=', 'horas')
      .orderBy('orden')
      .execute();
    expect(lineasHoras.map((l) => Number(l.pendiente))).toEqual([0, 0]);
    expect(borrador.lineas.map((l) => [l.articulo_id, l.cantidad, l.precio, l.origen_linea_id])).toEqual([
      [b.id, 2_000, 50_000, parte.lineas[0].id],
      [mo.id, 1_000, 300_000, lineasHoras[0].id],
      [mo.id, 500, 250_000, lineasHoras[1].id],
    ]);
    expect(r.lineas).toHaveLength(1);
    // The materials are not taken twice; the hours never move stock.
    expect(await stockDe(t, b.id)).toMatchObject({ [principal]: 4_000 });
    expect((await articulo(t, t.cookie, mo.id)).stock_total).toBe(0);

    r = await ok(t, 'deshacerfacturacionparte', { id: parte.id });
    expect(r).toMatchObject({ estado: 'finalizado', hijos: [] });
    expect(await t.app.manager.db.selectFrom('documentos').select('id').where('id', '=', borrador.id).execute()).toEqual([]);
    await ok(t, 'deshacerfinalizacionparte', { id: parte.id });
    expect(await stockDe(t, b.id)).toMatchObject({ [principal]: 6_000 });
    expect((await post(t, 'eliminarparte', { id: parte.id })).body.RESULT).toBe('2');

    // Only hours: its invoice shows among its children; deleting the draft makes it invoiceable again.
    const soloHoras = await ok(t, 'editarparte', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, horas: [{ proceso_id: proceso.id, horas: 1_000 }] });
    expect(soloHoras).toMatchObject({ lineas: [], num_lineas: 0, total: 3_025 });
    await ok(t, 'finalizarparte', { id: soloHoras.id });
    expect(await ledger(t, 'parte', soloHoras.id)).toEqual([]);
    r = await ok(t, 'facturarparte', { id: soloHoras.id });
    expect(r.hijos.map((h) => h.tipo)).toEqual(['factura']);
    expect((await post(t, 'eliminarfactura', { id: r.hijos[0].id })).body.RESULT).toBe('0');
    expect((await leer(t, 'partes', soloHoras.id)).estado).toBe('finalizado');
  });

  it("a customer's record: sales per year (albaranes − devoluciones + direct invoices), what it owes and what is overdue; delete refused with documents", async () => {
    const albaranes = (await list(t, t.cookie, 'listadoalbaranesventa', { cliente_id: c1.id, porPagina: 100 })).rows;
    const devoluciones = (await list(t, t.cookie, 'listadodevolucionesventa', { cliente_id: c1.id, porPagina: 100 })).rows;
    const base = albaranes.reduce((s, r) => s + Number(r.base), 0) - devoluciones.reduce((s, r) => s + Number(r.base), 0);
    expect(base).toBeGreaterThan(0);
    // Two emitted invoices made directly (as the fiscal side writes them): one from 2020, unpaid and overdue; one of today on 30 days.
    const creado = new Date().toISOString();
    const factura = (fecha: string, total: number, forma_pago: string) => ({
      tipo: 'factura', serie_id: null, numero: null, fecha, ejercicio: Number(fecha.slice(0, 4)), estado: 'emitida', cliente_id: c1.id, forma_pago,
      base: total, total, creado,
      // What is left to collect, as an issued invoice's account keeps it (issue 17).
      por_cobrar: total,
    });
    await t.app.manager.db.insertInto('documentos').values([factura('2020-03-01', 10_000, 'contado'), factura(HOY, 5_000, 'transferencia_30')]).execute();
    const rec = (await list(t, t.cookie, 'listadoclientes', { id: c1.id })).rows[0];
    const anio = Number(HOY.slice(0, 4));
    expect(rec.ventas_por_ejercicio).toEqual([
      { ejercicio: anio, base: base + 5_000, total: expect.any(Number) },
      { ejercicio: 2020, base: 10_000, total: 10_000 },
    ]);
    expect(rec).toMatchObject({ pendiente_cobro: 15_000, vencido: 10_000 });
    expect((await post(t, 'eliminarcliente', { id: c1.id })).body.RESULT).toBe('2');
    const libre = await save(t, t.cookie, 'editarcliente', { nif: 'A28930170', razon_social: 'Sin documentos, S.A.' });
    expect((await post(t, 'eliminarcliente', { id: libre.id })).body.RESULT).toBe('0');
    await t.app.manager.db.deleteFrom('documentos').where('tipo', '=', 'factura').where('numero', 'is', null).where('estado', '=', 'emitida').execute();
  });

  it('lists filter by customer and carry its name; graficoinicio counts the real sales orders of the month', async () => {
    const page = await list(t, t.cookie, 'listadoalbaranesventa', { cliente_id: c1.id, orden: 'fecha', dir: 'desc' });
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.cliente_id === c1.id && r.cliente_nombre === 'Reformas Hernández, S.L.')).toBe(true);
    expect((await list(t, t.cookie, 'listadoalbaranesventa', { q: 'hernandez' })).total).toBe(page.total);
    const pedidos = await list(t, t.cookie, 'listadopedidosventa', { desde: `${HOY.slice(0, 7)}-01`, hasta: HOY });
    const esperado = (pedidos.body.totales as { total: number }).total;
    expect(esperado).toBeGreaterThan(0);
    const data = (await t.op('graficoinicio', { cookie: t.cookie })).json().data;
    expect(data[data.length - 1].ventas).toBe(esperado);
  });

  it('disponibleventa refuses a bad list of ids', async () => {
    const res = await t.op('disponibleventa', { cookie: t.cookie, query: { almacen_id: String(principal), ids: '1,x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ ids: MESSAGES.invalidList });
    const muchos = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    expect((await t.op('disponibleventa', { cookie: t.cookie, query: { almacen_id: String(principal), ids: muchos } })).statusCode).toBe(400);
  });

  it('a backup carries customers and a parte\'s hours, and restores them', async () => {
    const p = await ok(t, 'editarparte', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, horas: [{ proceso_id: proceso.id, horas: 1_500 }] });
    const download = await t.op('copiaseguridad', { cookie: t.cookie });
    const backup = download.json();
    expect(backup.tablas.clientes.map((c: Row) => c.codigo)).toEqual(['C0001', 'C0002', 'C0003']);
    expect(backup.tablas.clientes[1]).toMatchObject({ recargo: 1, nif: '50738214F' });
    expect(backup.tablas.parte_horas.filter((h: Row) => h.documento_id === p.id)).toEqual([
      { id: expect.any(Number), documento_id: p.id, orden: 1, proceso_id: proceso.id, horas: 1_500, precio: 250_000 },
    ]);
    await post(t, 'eliminarparte', { id: p.id });
    await save(t, t.cookie, 'editarcliente', { id: c3.id, nif: 'B46728192', razon_social: 'Cambiado' });
    const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(download.body));
    const res = await t.app.inject({ method: 'POST', url: '/api/op.asp', query: { ac: 'restaurarcopia' }, payload, headers: { ...headers, cookie: t.cookie } });
    expect(res.json().RESULT).toBe('0');
    expect((await list(t, t.cookie, 'listadoclientes', { id: c3.id })).rows[0].razon_social).toBe('Construcciones Levante, S.L.');
    expect((await leer(t, 'partes', p.id)).horas).toEqual([{ id: expect.any(Number), proceso_id: proceso.id, proceso_nombre: 'Montaje', horas: 1_500, precio: 250_000 }]);
    // Ids go on after the restored ones (PostgreSQL sequences follow).
    const nuevo = await save(t, t.cookie, 'editarcliente', { nif: 'A28930170', razon_social: 'Después de restaurar, S.A.' });
    expect(nuevo.id).toBeGreaterThan(c3.id);
  });

  it('each flag off refuses its actions with 403', async () => {
    const status = async (ac: string, body?: Record<string, unknown>) => (await t.op(ac, { cookie: t.cookie, ...(body ? { body } : {}) })).statusCode;
    await setFlags(t, t.cookie, { ventas_pedidos: 0 });
    expect(await status('listadopedidosventa')).toBe(403);
    expect(await status('servirpedidoventa', { id: pedido.id })).toBe(403);
    expect(await status('listadoalbaranesventa')).toBe(200);
    await setFlags(t, t.cookie, { ventas_pedidos: 1, partes_trabajo: 0 });
    expect(await status('listadopartes')).toBe(403);
    expect(await status('editarparte', { fecha: HOY })).toBe(403);
    await setFlags(t, t.cookie, { partes_trabajo: 1, ventas_devoluciones: 0 });
    expect(await status('listadodevolucionesventa')).toBe(403);
    await setFlags(t, t.cookie, { ventas_devoluciones: 1, ventas: 0 });
    for (const ac of ['listadoclientes', 'listadoalbaranesventa', 'listadopedidosventa']) expect(await status(ac)).toBe(403);
    expect(await status('disponibleventa')).toBe(403);
    expect(await status('editarcliente', { nif: 'B85612349' })).toBe(403);
    await setFlags(t, t.cookie, { ventas: 1 });
    expect(await status('listadoclientes')).toBe(200);
  });
});

describe.each(backends())('ventas demo data ($name)', (backend) => {
  it('the demo company has customers with valid NIFs (one under recargo de equivalencia) and a normal, a rectificativa and a simplificada serie', async () => {
    const t = await createTestApp(backend, { demoStock: true });
    try {
      const cookie = await t.login();
      const clientes = (await list(t, cookie, 'listadoclientes', { porPagina: 100 })).rows;
      expect(clientes.length).toBeGreaterThanOrEqual(5);
      expect(clientes.every((c) => isValidNif(String(c.nif)))).toBe(true);
      expect(clientes.some((c) => c.recargo === 1)).toBe(true);
      const series = (await list(t, cookie, 'listadoseries', { porPagina: 100 })).rows;
      expect(new Set(series.filter((s) => s.activo === 1).map((s) => s.tipo))).toEqual(new Set(['normal', 'rectificativa', 'simplificada']));
    } finally {
      await t.close();
    }
  });
});
