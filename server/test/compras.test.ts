import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES, TOASTS } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, leerDocumento, stockPorAlmacen } from './documentos-fixtures.ts';

const HOY = todayIn('Europe/Madrid');

type Linea = { id: number; articulo_id: number; cantidad: number; pendiente: number; origen_linea_id: number | null; enlazado: number };
type Doc = Row & { estado: string; lineas: Linea[]; hijos: { tipo: string; id: number; numero: string }[]; padres: { tipo: string; id: number }[] };

const post = enviar<Doc>;
const ok = guardar<Doc>;
const leer = leerDocumento<Doc>;

const stockDe = stockPorAlmacen;
const ledgerRows = async (t: SuiteApp, tipo: string, id: number) =>
  t.app.manager.db.selectFrom('stock_movimientos').select(['cantidad', 'almacen_id', 'precio']).where('documento_tipo', '=', tipo).where('documento_id', '=', id).execute();

describe.each(backends())('compras ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let tienda: number;
  let p1: Row;
  let p2: Row;
  let a1: Row;
  let a2: Row;
  let a3: Row;

  it('proveedores: generated code, province from the postal code, NIF / IBAN validation, unique NIF, search', async () => {
    await setFlags(t, t.cookie, { almacenes: 1, compras: 1, compras_pedidos: 1, compras_albaranes: 1, compras_devoluciones: 1, hcp: 1 });
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    tienda = (await save(t, t.cookie, 'editaralmacen', { codigo: 'TIENDA', nombre: 'Tienda' })).id;
    p1 = await save(t, t.cookie, 'editarproveedor', {
      nif: 'b28456713', razon_social: 'Suministros Castilla, S.L.', codigo_postal: '28045', email: 'pedidos@castilla.es', iban: 'ES91 2100 0418 4502 0005 1332',
      forma_pago: 'transferencia_30',
    });
    expect(p1).toMatchObject({ codigo: 'P0001', nif: 'B28456713', provincia: 'Madrid', iban: 'ES9121000418450200051332', activo: 1, retencion: 0 });
    p2 = await save(t, t.cookie, 'editarproveedor', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005' });
    expect(p2).toMatchObject({ codigo: 'P0002', provincia: 'Barcelona', email: null });
    const bad = await post(t, 'editarproveedor', { nif: 'B28456710', razon_social: 'X', iban: 'ES0000000000000000000000' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ nif: MESSAGES.invalidNif, iban: MESSAGES.invalidIban });
    const dup = await post(t, 'editarproveedor', { nif: 'B28456713', razon_social: 'Otro' });
    expect(dup.body.errors).toEqual({ nif: MESSAGES.duplicated });
    expect((await list(t, t.cookie, 'listadoproveedores', { q: 'mediterraneo' })).rows.map((r) => r.codigo)).toEqual(['P0002']);
    const cambiado = await save(t, t.cookie, 'editarproveedor', { id: p2.id, nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', telefono: '933001200' });
    expect(cambiado).toMatchObject({ codigo: 'P0002', provincia: 'Barcelona', telefono: '933001200' });

    a1 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('COM-1', { precio_compra: 100_000 }));
    a2 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('COM-2', { precio_compra: 50_000, tipo_iva: '10' }));
    a3 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('COM-3', { precio_compra: 10_000 }));
  });

  let pedido: Doc;
  it('pedido: send and undo; partial receipts in steps, each a linked albarán; undo of the latest; refusals', async () => {
    pedido = await ok(t, 'editarpedidocompra', {
      fecha: HOY, proveedor_id: p1.id, almacen_id: principal,
      lineas: [{ articulo_id: a1.id, cantidad: 10_000 }, { articulo_id: a2.id, cantidad: 5_000, precio: 60_000, descuento: 1000 }],
    });
    expect(pedido).toMatchObject({ estado: 'creado', proveedor_nombre: 'Suministros Castilla, S.L.', proveedor_nif: 'B28456713', forma_pago: 'transferencia_30' });
    // precio defaults to the article's precio_compra; everything is pending.
    expect(pedido.lineas.map((l) => [l.cantidad, (l as unknown as Row).precio, l.pendiente])).toEqual([[10_000, 100_000, 10_000], [5_000, 60_000, 5_000]]);
    // 100 € + 27 € (5 × 6 € − 10 %) at 21 % and 10 %.
    expect(pedido).toMatchObject({ base: 12_700, iva: 2_100 + 270, total: 12_700 + 2_370 });
    const [l1, l2] = pedido.lineas;
    const sinProveedor = await post(t, 'editarpedidocompra', { fecha: HOY, proveedor_id: 999, almacen_id: principal, lineas: [] });
    expect(sinProveedor.body.errors).toEqual({ proveedor_id: MESSAGES.proveedorNoActivo });

    expect((await ok(t, 'enviarpedidocompra', { id: pedido.id })).estado).toBe('enviado');
    expect((await ok(t, 'deshacerenviopedidocompra', { id: pedido.id })).estado).toBe('creado');
    await ok(t, 'enviarpedidocompra', { id: pedido.id });
    expect((await post(t, 'editarpedidocompra', { id: pedido.id, fecha: HOY, proveedor_id: p1.id, almacen_id: principal })).body).toMatchObject({
      RESULT: '1', message: MESSAGES.accionNoPermitida,
    });

    let r = await ok(t, 'recibirpedidocompra', { id: pedido.id, lineas: [{ id: l1.id, cantidad: 4_000 }] });
    expect(r.estado).toBe('recibido_parcial');
    expect(r.hijos).toHaveLength(1);
    expect(r.lineas.map((l) => l.pendiente)).toEqual([6_000, 5_000]);
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 4_000 });
    const alb1 = await leer(t, 'albaranescompra', r.hijos[0].id);
    expect(alb1).toMatchObject({ estado: 'pendiente', proveedor_id: p1.id, almacen_id: principal });
    expect(alb1.lineas.map((l) => [l.articulo_id, l.cantidad, l.origen_linea_id])).toEqual([[a1.id, 4_000, l1.id]]);
    expect(alb1.padres.map((p) => p.id)).toEqual([pedido.id]);

    r = await ok(t, 'recibirpedidocompra', { id: pedido.id, lineas: [{ id: l1.id, cantidad: 6_000 }, { id: l2.id, cantidad: 2_000 }] });
    expect(r.estado).toBe('recibido_parcial');
    expect(r.hijos).toHaveLength(2);
    expect(r.lineas.map((l) => [l.pendiente, l.enlazado])).toEqual([[0, 10_000], [3_000, 2_000]]);
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 10_000 });
    expect(await stockDe(t, a2.id)).toMatchObject({ [principal]: 2_000 });

    const mas = await post(t, 'recibirpedidocompra', { id: pedido.id, lineas: [{ id: l2.id, cantidad: 3_001 }] });
    expect(mas).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.recibirMasDePendiente } });
    expect((await leer(t, 'pedidoscompra', pedido.id)).hijos).toHaveLength(2);

    // Undo the latest receipt: its albarán goes, stock and pending units come back.
    const alb2 = r.hijos[1].id;
    r = await ok(t, 'deshacerrecepcionpedidocompra', { id: pedido.id });
    expect(r.estado).toBe('recibido_parcial');
    expect(r.hijos.map((h) => h.id)).toEqual([alb1.id]);
    expect(r.lineas.map((l) => l.pendiente)).toEqual([6_000, 5_000]);
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 4_000 });
    expect(await stockDe(t, a2.id)).toMatchObject({ [principal]: 0 });
    expect((await t.op('listadoalbaranescompra', { cookie: t.cookie, query: { id: String(alb2) } })).json().RESULT).toBe('3');

    // Everything pending at once.
    r = await ok(t, 'recibirpedidocompra', { id: pedido.id });
    expect(r.estado).toBe('recibido');
    expect(r.lineas.map((l) => l.pendiente)).toEqual([0, 0]);
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 10_000 });
    expect(await stockDe(t, a2.id)).toMatchObject({ [principal]: 5_000 });
    pedido = r;
  });

  it('devolución from an albarán: up to received − returned, stock leaves; the receipt can no longer be undone', async () => {
    const alb = await leer(t, 'albaranescompra', pedido.hijos[1].id);
    const la1 = alb.lineas.find((l) => l.articulo_id === a1.id)!;
    expect(la1.cantidad).toBe(6_000);
    const demasiado = await post(t, 'editardevolucioncompra', {
      fecha: HOY, proveedor_id: p1.id, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 6_001, origen_linea_id: la1.id }],
    });
    expect(demasiado.status).toBe(400);
    expect(demasiado.body.errors).toEqual({ 'lineas.0.cantidad': MESSAGES.devolverMasDeRecibido });
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 10_000 });
    const otroProveedor = await post(t, 'editardevolucioncompra', {
      fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 1_000, origen_linea_id: la1.id }],
    });
    expect(otroProveedor.body.errors).toEqual({ 'lineas.0.origen_linea_id': MESSAGES.lineaOrigenNoValida });

    const dev = await ok(t, 'editardevolucioncompra', {
      fecha: HOY, proveedor_id: p1.id, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 2_000, origen_linea_id: la1.id }],
    });
    expect(dev.padres.map((p) => p.id)).toEqual([alb.id]);
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 8_000 });
    // Returned 2 of 6: 4 more at most, counting this devolución's own when it is edited.
    const segunda = await post(t, 'editardevolucioncompra', {
      fecha: HOY, proveedor_id: p1.id, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 4_001, origen_linea_id: la1.id }],
    });
    expect(segunda.body.errors).toEqual({ 'lineas.0.cantidad': MESSAGES.devolverMasDeRecibido });
    const editada = await ok(t, 'editardevolucioncompra', {
      id: dev.id, fecha: HOY, proveedor_id: p1.id, almacen_id: principal, lineas: [{ id: dev.lineas[0].id, articulo_id: a1.id, cantidad: 6_000 }],
    });
    expect(editada.lineas[0].origen_linea_id).toBe(la1.id);
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 4_000 });
    expect((await leer(t, 'albaranescompra', alb.id)).lineas.find((l) => l.id === la1.id)!.enlazado).toBe(6_000);

    // The albarán has a devolución: undoing its receipt is refused, nothing changes.
    const undo = await post(t, 'deshacerrecepcionpedidocompra', { id: pedido.id });
    // Issue 17: it names what depends on it and what to do.
    expect(undo.body).toMatchObject({
      RESULT: '2',
      message: MESSAGES.documentoConHijas.replace('{documento}', `El albarán de compra ${alb.numero}`).replace('{hijo}', `la devolución de compra ${dev.numero}`),
    });
    expect((await leer(t, 'pedidoscompra', pedido.id)).estado).toBe('recibido');
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 4_000 });
    // Nor can the albarán be edited or deleted.
    expect((await post(t, 'eliminaralbarancompra', { id: alb.id })).body.RESULT).toBe('2');

    await ok(t, 'editardevolucioncompra', {
      id: dev.id, fecha: HOY, proveedor_id: p1.id, almacen_id: principal, lineas: [{ id: dev.lineas[0].id, articulo_id: a1.id, cantidad: 2_000 }],
    });
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 8_000 });
    await ok(t, 'finalizardevolucioncompra', { id: dev.id });
    expect((await ok(t, 'deshacerfinalizaciondevolucioncompra', { id: dev.id })).estado).toBe('pendiente');
    await post(t, 'eliminardevolucioncompra', { id: dev.id });
    expect(await stockDe(t, a1.id)).toMatchObject({ [principal]: 10_000 });
  });

  it('finalizar closes what is pending; its undo restores it', async () => {
    const p = await ok(t, 'editarpedidocompra', { fecha: HOY, proveedor_id: p1.id, almacen_id: principal, lineas: [{ articulo_id: a3.id, cantidad: 3_000 }] });
    await ok(t, 'enviarpedidocompra', { id: p.id });
    await ok(t, 'recibirpedidocompra', { id: p.id, lineas: [{ id: p.lineas[0].id, cantidad: 1_000 }] });
    let r = await ok(t, 'finalizarpedidocompra', { id: p.id });
    expect(r.estado).toBe('finalizado');
    expect(r.lineas[0].pendiente).toBe(0);
    expect((await post(t, 'recibirpedidocompra', { id: p.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.accionNoPermitida });
    r = await ok(t, 'deshacerfinalizacionpedidocompra', { id: p.id });
    expect(r).toMatchObject({ estado: 'recibido_parcial' });
    expect(r.lineas[0].pendiente).toBe(2_000);
    // Deleting its albarán (still Pendiente) gives the units back too.
    await post(t, 'eliminaralbarancompra', { id: r.hijos[0].id });
    expect((await leer(t, 'pedidoscompra', p.id)).lineas[0].pendiente).toBe(3_000);
    expect(await stockDe(t, a3.id)).toMatchObject({ [principal]: 0 });
  });

  it('albarán entered directly: stock on save, edits write only the difference, warehouse change moves it, delete reverses it', async () => {
    const body = { fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a3.id, cantidad: 5_000, precio: 200_000, descuento: 1000 }] };
    const alb = await ok(t, 'editaralbarancompra', body);
    expect(await stockDe(t, a3.id)).toMatchObject({ [principal]: 5_000 });
    let rows = await ledgerRows(t, 'albarancompra', alb.id);
    expect(rows.map((r) => [Number(r.cantidad), Number(r.precio)])).toEqual([[5_000, 180_000]]);
    // The article's last purchase price is the net one.
    expect((await articulo(t, t.cookie, a3.id)).precio_compra).toBe(180_000);

    await ok(t, 'editaralbarancompra', { ...body, id: alb.id, lineas: [{ articulo_id: a3.id, cantidad: 7_000, precio: 200_000, descuento: 1000 }] });
    rows = await ledgerRows(t, 'albarancompra', alb.id);
    expect(rows.map((r) => Number(r.cantidad))).toEqual([5_000, 2_000]);
    // The same lines again: nothing written.
    await ok(t, 'editaralbarancompra', { ...body, id: alb.id, lineas: [{ articulo_id: a3.id, cantidad: 7_000, precio: 200_000, descuento: 1000 }] });
    expect((await ledgerRows(t, 'albarancompra', alb.id)).length).toBe(2);

    await ok(t, 'editaralbarancompra', { ...body, id: alb.id, almacen_id: tienda, lineas: [{ articulo_id: a3.id, cantidad: 7_000, precio: 200_000, descuento: 1000 }] });
    rows = await ledgerRows(t, 'albarancompra', alb.id);
    expect(rows.length).toBe(4);
    expect(await stockDe(t, a3.id)).toMatchObject({ [principal]: 0, [tienda]: 7_000 });

    expect((await post(t, 'eliminaralbarancompra', { id: alb.id })).body.RESULT).toBe('0');
    rows = await ledgerRows(t, 'albarancompra', alb.id);
    expect(rows.length).toBe(5);
    expect(rows.reduce((s, r) => s + Number(r.cantidad), 0)).toBe(0);
    expect(await stockDe(t, a3.id)).toMatchObject({ [principal]: 0, [tienda]: 0 });
  });

  it('average purchase cost after receipts at different prices and discounts; precio_compra = the last net price', async () => {
    const a4 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('COM-4', { precio_compra: 1 }));
    await ok(t, 'editaralbarancompra', { fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a4.id, cantidad: 10_000, precio: 100_000 }] });
    await ok(t, 'editaralbarancompra', {
      fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a4.id, cantidad: 10_000, precio: 300_000, descuento: 1000 }],
    });
    const rec = await articulo(t, t.cookie, a4.id);
    // (10 × 10 € + 10 × 27 €) / 20 = 18,50 €.
    expect(rec).toMatchObject({ precio_medio_compra: 185_000, precio_compra: 270_000, unidades_compradas: 20_000 });
    // A new line defaults to the last price.
    const p = await ok(t, 'editarpedidocompra', { fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a4.id, cantidad: 1_000 }] });
    expect((p.lineas[0] as unknown as Row).precio).toBe(270_000);
    await post(t, 'eliminarpedidocompra', { id: p.id });
  });

  it('hcp: an invoice over 2 albaranes and 1 devolución finishes them; computed totals and difference; undo; another supplier refused', async () => {
    const alb = (precio: number) =>
      ok(t, 'editaralbarancompra', { fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 2_000, precio }] });
    const x = await alb(100_000);
    const y = await alb(50_000);
    const z = await ok(t, 'editardevolucioncompra', {
      fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 1_000, precio: 100_000, origen_linea_id: x.lineas[0].id }],
    });
    const ajeno = (await list(t, t.cookie, 'listadoalbaranescompra', { proveedor_id: p1.id, estado: 'pendiente' })).rows[0];
    expect(ajeno.proveedor_nombre).toBe('Suministros Castilla, S.L.');
    const refused = await post(t, 'editarfacturaproveedor', {
      proveedor_id: p2.id, numero_proveedor: 'F-1', fecha: HOY, total: 1, albaranes: [x.id, ajeno.id], devoluciones: [],
    });
    expect(refused).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.documentoOtroProveedor } });
    expect((await leer(t, 'albaranescompra', x.id)).estado).toBe('pendiente');

    const factura = (
      await post(t, 'editarfacturaproveedor', { proveedor_id: p2.id, numero_proveedor: 'F-2026-77', fecha: HOY, total: 3_640, albaranes: [x.id, y.id], devoluciones: [z.id] })
    ).body.data![0] as unknown as Row;
    // 20 € + 10 € − 10 € = 20 € base, 4,20 € IVA.
    expect(factura).toMatchObject({ base: 2_000, iva: 420, total_documentos: 2_420, total: 3_640, diferencia: 1_220, proveedor_nombre: 'Distribuciones Mediterráneo, S.L.' });
    expect((factura.documentos as unknown[]).length).toBe(3);
    for (const [plural, id] of [['albaranescompra', x.id], ['albaranescompra', y.id], ['devolucionescompra', z.id]] as const) {
      expect((await leer(t, plural, id)).estado).toBe('finalizado');
    }
    const listed = await list(t, t.cookie, 'listadofacturasproveedor', { proveedor_id: p2.id });
    expect(listed.rows).toHaveLength(1);
    expect(listed.rows[0]).toMatchObject({ numero_proveedor: 'F-2026-77', num_documentos: 3, diferencia: 1_220 });
    // Already finished: a second invoice is refused.
    expect((await post(t, 'editarfacturaproveedor', { proveedor_id: p2.id, numero_proveedor: 'F-3', fecha: HOY, total: 0, albaranes: [x.id] })).body.message).toBe(
      MESSAGES.documentoNoPendiente,
    );
    // Covered by the invoice: its own undo is refused (only undoing the reconciliation brings it back), nothing changed.
    for (const [ac, id] of [['deshacerfinalizacionalbarancompra', x.id], ['deshacerfinalizaciondevolucioncompra', z.id]] as const) {
      expect(await post(t, ac, { id })).toMatchObject({ status: 200, body: { RESULT: '2', message: MESSAGES.conciliadoEnFactura.replace('{factura}', 'F-2026-77') } });
    }
    expect((await leer(t, 'albaranescompra', x.id)).estado).toBe('finalizado');
    expect((await leer(t, 'devolucionescompra', z.id)).estado).toBe('finalizado');
    expect((await post(t, 'eliminarfacturaproveedor', { id: factura.id })).body.RESULT).toBe('0');
    for (const [plural, id] of [['albaranescompra', x.id], ['albaranescompra', y.id], ['devolucionescompra', z.id]] as const) {
      expect((await leer(t, plural, id)).estado).toBe('pendiente');
    }
    expect((await list(t, t.cookie, 'listadofacturasproveedor', {})).total).toBe(0);
  });

  it('as suppliers deliver (issue 17): their delivery-note number on the albarán and in «Recibir», hcp searches it; more than ordered with a confirmation; hcp finishing every albarán finishes the order; refusals name what depends', async () => {
    const pc = await ok(t, 'editarpedidocompra', { fecha: HOY, proveedor_id: p1.id, almacen_id: principal, lineas: [{ articulo_id: a3.id, cantidad: 10_000 }] });
    await ok(t, 'enviarpedidocompra', { id: pc.id });
    const antes = (await stockDe(t, a3.id))[principal] ?? 0;
    const linea = [{ id: pc.lineas[0].id, cantidad: 12_000 }];
    expect((await post(t, 'recibirpedidocompra', { id: pc.id, albaran_proveedor: 'x'.repeat(61) })).body.errors).toEqual({ albaran_proveedor: MESSAGES.tooLong });
    // 12 where 10 were ordered: refused without the clerk's confirmation, nothing made.
    expect((await post(t, 'recibirpedidocompra', { id: pc.id, lineas: linea, albaran_proveedor: 'ALB-5531' })).body).toMatchObject({ RESULT: '1', message: MESSAGES.recibirMasDePendiente });
    expect((await leer(t, 'pedidoscompra', pc.id)).estado).toBe('enviado');
    const recibido = await ok(t, 'recibirpedidocompra', { id: pc.id, lineas: linea, albaran_proveedor: ' ALB-5531 ', exceso: 1 });
    expect(recibido.estado).toBe('recibido');
    expect(recibido.lineas[0].pendiente).toBe(0);
    const alb = await leer(t, 'albaranescompra', recibido.hijos[0].id);
    expect(alb).toMatchObject({ albaran_proveedor: 'ALB-5531', observaciones: 'Recibido más de lo pedido: COM-3 12 (pedido pendiente 10)' });
    expect(alb.lineas[0]).toMatchObject({ cantidad: 12_000, origen_linea_id: pc.lineas[0].id });
    expect((await stockDe(t, a3.id))[principal]).toBe(antes + 12_000);
    // The albarán keeps and changes its supplier number like any header field.
    const editado = await ok(t, 'editaralbarancompra', {
      id: alb.id, fecha: HOY, proveedor_id: p1.id, almacen_id: principal, albaran_proveedor: 'ALB-5532',
      lineas: [{ id: alb.lineas[0].id, articulo_id: a3.id, cantidad: 12_000, precio: (alb.lineas[0] as unknown as Row).precio }],
    });
    expect(editado.albaran_proveedor).toBe('ALB-5532');

    // hcp shows and searches the supplier's number.
    const buscados = (await list(t, t.cookie, 'listadopendienteshcp', { proveedor_id: p1.id, q: '5532' })).rows;
    expect(buscados.map((r) => [r.id, r.albaran_proveedor])).toEqual([[alb.id, 'ALB-5532']]);
    expect((await list(t, t.cookie, 'listadopendienteshcp', { proveedor_id: p1.id, q: `${alb.numero}` })).rows.map((r) => r.id)).toEqual([alb.id]);

    // Reconciled: the albarán finishes, and so does its order (fully received, its only albarán finished).
    const factura = (await post(t, 'editarfacturaproveedor', { proveedor_id: p1.id, numero_proveedor: 'FN-2026/0457', fecha: HOY, total: 0, albaranes: [alb.id], devoluciones: [] })).body
      .data![0] as unknown as Row;
    expect((await leer(t, 'albaranescompra', alb.id)).estado).toBe('finalizado');
    expect((await leer(t, 'pedidoscompra', pc.id)).estado).toBe('finalizado');
    // An undo refused because of the reconciliation says which invoice and what to do.
    expect((await post(t, 'deshacerfinalizacionalbarancompra', { id: alb.id })).body).toMatchObject({
      RESULT: '2', message: 'Está conciliado en la factura de proveedor FN-2026/0457: deshaga primero la conciliación',
    });
    await ok(t, 'deshacerfinalizacionpedidocompra', { id: pc.id });
    expect((await post(t, 'deshacerrecepcionpedidocompra', { id: pc.id })).body).toMatchObject({
      RESULT: '2', message: `El albarán de compra ${alb.numero} está conciliado en la factura de proveedor FN-2026/0457: deshaga primero la conciliación`,
    });
    expect((await leer(t, 'pedidoscompra', pc.id)).estado).toBe('recibido');
    await ok(t, 'finalizarpedidocompra', { id: pc.id });
    // Undoing the reconciliation reopens the albarán and the order it finished.
    expect((await post(t, 'eliminarfacturaproveedor', { id: factura.id })).body.RESULT).toBe('0');
    expect((await leer(t, 'albaranescompra', alb.id)).estado).toBe('pendiente');
    expect((await leer(t, 'pedidoscompra', pc.id)).estado).toBe('recibido');
    // Its receipt can be undone now: the albarán goes, its 12 units leave.
    expect((await ok(t, 'deshacerrecepcionpedidocompra', { id: pc.id })).estado).toBe('enviado');
    expect((await stockDe(t, a3.id))[principal]).toBe(antes);
  });

  it('hcp pages the pending documents of a supplier (more than 100), albaranes and devoluciones together, oldest first', async () => {
    const p3 = await save(t, t.cookie, 'editarproveedor', { nif: 'A58818501', razon_social: 'Almacenes del Norte, S.A.', codigo_postal: '48001' });
    const fechas = Array.from({ length: 130 }, (_, i) => `2026-0${1 + Math.floor(i / 28)}-${String(1 + (i % 28)).padStart(2, '0')}`);
    const albaranes: Doc[] = [];
    for (const fecha of fechas) {
      albaranes.push(await ok(t, 'editaralbarancompra', { fecha, proveedor_id: p3.id, almacen_id: principal, lineas: [{ articulo_id: a3.id, cantidad: 1_000, precio: 10_000 }] }));
    }
    const devolucion = await ok(t, 'editardevolucioncompra', {
      fecha: '2026-05-20', proveedor_id: p3.id, almacen_id: principal, lineas: [{ articulo_id: a3.id, cantidad: 1_000, precio: 10_000, origen_linea_id: albaranes[0].lineas[0].id }],
    });
    // Another supplier's and a finished one are not offered.
    await ok(t, 'finalizaralbarancompra', { id: albaranes[129].id });

    const pagina1 = await list(t, t.cookie, 'listadopendienteshcp', { proveedor_id: p3.id, porPagina: 100 });
    expect(pagina1.total).toBe(130);
    expect(pagina1.rows).toHaveLength(100);
    expect(pagina1.rows[0]).toMatchObject({ id: albaranes[0].id, tipo: 'albarancompra', numero: albaranes[0].numero, fecha: fechas[0], signo: 1, base: 100, iva: 21, total: 121 });
    expect(pagina1.rows[0].desglose).toEqual([{ tipo_iva: '21', base: 100, iva: 21, recargo: 0 }]);
    const pagina2 = await list(t, t.cookie, 'listadopendienteshcp', { proveedor_id: p3.id, porPagina: 100, pagina: 2 });
    expect(pagina2.rows).toHaveLength(30);
    expect(pagina2.rows.at(-1)).toMatchObject({ id: devolucion.id, tipo: 'devolucioncompra', numero: devolucion.numero, signo: -1, total: 121 });
    const vistos = [...pagina1.rows, ...pagina2.rows].map((r) => r.id);
    expect(new Set(vistos).size).toBe(130);
    expect(vistos).not.toContain(albaranes[129].id);
    // The period and the number narrow it.
    expect((await list(t, t.cookie, 'listadopendienteshcp', { proveedor_id: p3.id, desde: '2026-05-19', hasta: '2026-05-31' })).rows.map((r) => r.id)).toEqual([devolucion.id]);
    expect((await list(t, t.cookie, 'listadopendienteshcp', { proveedor_id: p3.id, q: albaranes[7].numero as string })).rows.map((r) => r.id)).toEqual([albaranes[7].id]);
    expect((await t.op('listadopendienteshcp', { cookie: t.cookie, query: {} })).statusCode).toBe(400);

    // One invoice over all of them, in one transaction.
    const ids = vistos.filter((id) => id !== devolucion.id);
    const factura = await post(t, 'editarfacturaproveedor', { proveedor_id: p3.id, numero_proveedor: 'N-500', fecha: '2026-06-01', total: 129 * 121 - 121, albaranes: ids, devoluciones: [devolucion.id] });
    expect(factura.body.data![0]).toMatchObject({ diferencia: 0 });
    expect((await list(t, t.cookie, 'listadopendienteshcp', { proveedor_id: p3.id })).total).toBe(0);
  });

  it('lists filter by supplier and carry its name; a supplier with documents cannot be deleted', async () => {
    const page = await list(t, t.cookie, 'listadoalbaranescompra', { proveedor_id: p2.id, orden: 'fecha', dir: 'desc' });
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.proveedor_id === p2.id && r.proveedor_nombre === 'Distribuciones Mediterráneo, S.L.')).toBe(true);
    expect((await list(t, t.cookie, 'listadoalbaranescompra', { q: 'mediterr' })).total).toBe(page.total);
    expect((await post(t, 'eliminarproveedor', { id: p2.id })).body).toMatchObject({ RESULT: '2', message: TOASTS.associated.text });
    const libre = await save(t, t.cookie, 'editarproveedor', { nif: 'A28765436', razon_social: 'Sin documentos, S.A.' });
    expect((await post(t, 'eliminarproveedor', { id: libre.id })).body.RESULT).toBe('0');
  });

  it('enviarcorreopedidocompra writes an .eml with the PDF attached; a supplier without e-mail is told', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% pedido de prueba\n%%EOF\n');
    const { payload, headers } = multipart('archivo', 'pedido.pdf', 'application/pdf', pdf);
    const res = await t.app.inject({ method: 'POST', url: '/api/op.asp', query: { ac: 'enviarcorreopedidocompra', id: String(pedido.id) }, payload, headers: { ...headers, cookie: t.cookie } });
    expect(res.json()).toMatchObject({ RESULT: '0', message: MESSAGES.pedidoEnviadoPorCorreo, data: [{ id: pedido.id, email: 'pedidos@castilla.es' }] });
    const outbox = path.join(t.dataDir, 'outbox');
    const emls = fs.readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    const eml = fs.readFileSync(path.join(outbox, emls[emls.length - 1]), 'utf8');
    expect(eml).toContain('To: pedidos@castilla.es');
    expect(eml).toContain('Content-Type: multipart/mixed');
    expect(eml).toContain('Content-Disposition: attachment; filename="Pedido PC ');
    expect(eml).toContain(pdf.toString('base64'));

    const otro = await ok(t, 'editarpedidocompra', { fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 1_000 }] });
    const m2 = multipart('archivo', 'pedido.pdf', 'application/pdf', pdf);
    const res2 = await t.app.inject({ method: 'POST', url: '/api/op.asp', query: { ac: 'enviarcorreopedidocompra', id: String(otro.id) }, payload: m2.payload, headers: { ...m2.headers, cookie: t.cookie } });
    expect(res2.json()).toMatchObject({ RESULT: '1', message: MESSAGES.proveedorSinEmail });
    await post(t, 'eliminarpedidocompra', { id: otro.id });
  });

  it('graficoinicio counts the real purchase orders of the month', async () => {
    const pedidos = await list(t, t.cookie, 'listadopedidoscompra', { desde: `${HOY.slice(0, 7)}-01`, hasta: HOY });
    const esperado = pedidos.rows.reduce((s, r) => s + Number(r.total), 0);
    expect(esperado).toBeGreaterThan(0);
    const data = (await t.op('graficoinicio', { cookie: t.cookie })).json().data;
    expect(data[data.length - 1].compras).toBe(esperado);
  });

  it('each flag off refuses its actions with 403', async () => {
    const status = async (ac: string, body?: Record<string, unknown>) => (await t.op(ac, { cookie: t.cookie, ...(body ? { body } : {}) })).statusCode;
    await setFlags(t, t.cookie, { compras_pedidos: 0 });
    expect(await status('listadopedidoscompra')).toBe(403);
    expect(await status('recibirpedidocompra', { id: pedido.id })).toBe(403);
    expect(await status('listadoalbaranescompra')).toBe(200);
    await setFlags(t, t.cookie, { compras_pedidos: 1, compras_devoluciones: 0 });
    expect(await status('listadodevolucionescompra')).toBe(403);
    expect(await status('editardevolucioncompra', { fecha: HOY })).toBe(403);
    await setFlags(t, t.cookie, { compras_devoluciones: 1, hcp: 0 });
    expect(await status('listadofacturasproveedor')).toBe(403);
    expect(await status('editarfacturaproveedor', { proveedor_id: p1.id })).toBe(403);
    await setFlags(t, t.cookie, { hcp: 1, compras: 0 });
    for (const ac of ['listadoproveedores', 'listadoalbaranescompra', 'listadopedidoscompra']) expect(await status(ac)).toBe(403);
    expect(await status('editarproveedor', { nif: 'B28456713' })).toBe(403);
    await setFlags(t, t.cookie, { compras: 1 });
    expect(await status('listadoproveedores')).toBe(200);
  });
});
