import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, leerDocumento } from './documentos-fixtures.ts';

/**
 * Issue 17: rectificativas count where invoices count (what is owed, the cobro proposed, the customer's figures), and
 * cobros in parts and by vencimiento (`cobrarfactura` with `importe`, eliminarcobro, the overdue filter following what
 * is left, an invoice «al contado» paid on issue).
 */

const HOY = todayIn('Europe/Madrid');
const diaMas = (fecha: string, n: number) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const ANIO = Number(HOY.slice(0, 4));

type Cobro = { id: number; documento_id: number; documento_numero: string; fecha: string; importe: number; forma: string | null };
type Doc = Row & {
  estado: string;
  numero: string;
  total: number;
  por_cobrar: number;
  cobro_fecha: string | null;
  cobro_forma: string | null;
  lineas: (Row & { id: number })[];
  cuenta: { importe: number; cobrado: number; saldo: number; plazos: { fecha: string; importe: number; pendiente: number }[]; cobros: Cobro[] } | null;
};
const post = enviar<Doc>;
const ok = guardar<Doc>;
const leer = (t: SuiteApp, plural: string, id: number) => leerDocumento<Doc>(t, plural, id);

describe.each(backends())('cobros ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieA: number;
  let serieR: number;
  let cliente: Row;
  let a: Row;
  let exento: Row;
  const figuras = async () => (await list(t, t.cookie, 'listadoclientes', { id: cliente.id })).rows[0] as Row & {
    pendiente_cobro: number;
    vencido: number;
    ventas_por_ejercicio: { ejercicio: number; base: number; total: number }[];
  };
  const ids = async (plural: string, cobro: string) => (await list(t, t.cookie, `listado${plural}`, { cobro, porPagina: 100, cliente_id: cliente.id })).rows.map((r) => r.id);
  const factura = async (forma_pago: string, lineas: Record<string, unknown>[]) => {
    const f = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, forma_pago, lineas });
    return ok(t, 'emitirfactura', { id: f.id });
  };
  const rectificar = async (f: Doc, precio: number) => {
    const r = await ok(t, 'editarrectificativa', {
      fecha: HOY, serie_id: serieR, factura_id: f.id, tipo: 'R1', cliente_id: cliente.id, almacen_id: principal,
      lineas: [{ articulo_id: a.id, cantidad: -1_000, precio, origen_linea_id: f.lineas[0].id }],
    });
    return ok(t, 'emitirrectificativa', { id: r.id });
  };

  it('setup: a customer paying by transfer at 30 days, an article at 21 %, one exempt', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieA = series.find((s) => s.codigo === 'A')!.id;
    serieR = series.find((s) => s.codigo === 'R')!.id;
    cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020', forma_pago: 'transferencia_30' });
    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('COB-A', { precio_venta: 433_200 }));
    exento = await save(t, t.cookie, 'editararticulo', nuevoArticulo('COB-E', { precio_venta: 1_000_000, tipo_iva: 'exento' }));
  });

  let fa: Doc;
  let r: Doc;
  it('a rectificativa nets into what the customer owes: A 52,42 € and R −5,11 € leave 47,31 € pending, in its figures and its sales per year', async () => {
    fa = await factura('transferencia_30', [{ articulo_id: a.id, cantidad: 1_000, precio: 433_200 }]);
    expect(fa).toMatchObject({ total: 5_242, por_cobrar: 5_242, cobro_fecha: null });
    expect((await figuras()).pendiente_cobro).toBe(5_242);
    // R: 4,22 € less (−0,89 € IVA): −5,11 €.
    r = await rectificar(fa, 42_200);
    expect(r).toMatchObject({ total: -511, por_cobrar: 0 });
    expect(r.cuenta).toMatchObject({ importe: 4_731, cobrado: 0, saldo: 4_731 });
    fa = await leer(t, 'facturas', fa.id);
    expect(fa).toMatchObject({ por_cobrar: 4_731, cuenta: { importe: 4_731, saldo: 4_731, plazos: [{ fecha: diaMas(HOY, 30), importe: 4_731, pendiente: 4_731 }] } });
    const fig = await figuras();
    expect(fig.pendiente_cobro).toBe(4_731);
    expect(fig.ventas_por_ejercicio).toEqual([{ ejercicio: ANIO, base: 4_332 - 422, total: 4_731 }]);
    // Its credit is taken from what the invoice owes: nothing to refund.
    expect(await ids('facturas', 'pendiente')).toEqual([fa.id]);
    expect(await ids('rectificativas', 'pendiente')).toEqual([]);
    const reembolso = await post(t, 'cobrarfactura', { id: r.id, fecha: HOY, forma: 'transferencia' });
    expect(reembolso).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.rectificativaSinReembolso } });
  });

  it('paying the invoice what is left (no importe) settles both the invoice and its rectificativa', async () => {
    const pagada = await post(t, 'cobrarfactura', { id: fa.id, fecha: HOY, forma: 'transferencia' });
    expect(pagada.body).toMatchObject({ RESULT: '0', message: MESSAGES.cobroRegistrado });
    expect(pagada.body.data![0]).toMatchObject({ por_cobrar: 0, cobro_fecha: HOY, cobro_forma: 'transferencia', cuenta: { cobrado: 4_731, saldo: 0 } });
    expect((await leer(t, 'rectificativas', r.id)).cobro_fecha).toBe(HOY);
    expect((await figuras()).pendiente_cobro).toBe(0);
    expect(await ids('facturas', 'cobrada')).toEqual([fa.id]);
    expect(await ids('rectificativas', 'cobrada')).toEqual([r.id]);
    expect((await post(t, 'cobrarfactura', { id: fa.id, fecha: HOY })).body).toMatchObject({ RESULT: '1', message: MESSAGES.facturaSinPendiente });
  });

  it('«Contado»: paid on issue with its forma; a rectificativa after it is a refund owed, recorded on it', async () => {
    const fb = await factura('contado', [{ articulo_id: a.id, cantidad: 1_000, precio: 433_200 }]);
    expect(fb).toMatchObject({ por_cobrar: 0, cobro_fecha: HOY, cobro_forma: 'contado' });
    expect(fb.cuenta!.cobros).toEqual([expect.objectContaining({ fecha: HOY, importe: 5_242, forma: 'contado', documento_numero: fb.numero })]);
    expect(await ids('facturas', 'pendiente')).not.toContain(fb.id);
    const r2 = await rectificar(fb, 42_200);
    expect(r2).toMatchObject({ por_cobrar: -511, cobro_fecha: null, cuenta: { saldo: -511 } });
    expect((await figuras()).pendiente_cobro).toBe(-511);
    expect(await ids('rectificativas', 'pendiente')).toEqual([r2.id]);
    const demasiado = await post(t, 'cobrarfactura', { id: r2.id, fecha: HOY, forma: 'transferencia', importe: 600 });
    expect(demasiado.body).toMatchObject({ RESULT: '1', message: MESSAGES.cobroSuperaPendiente.replace('{importe}', '5,11 €') });
    const hecho = await post(t, 'cobrarfactura', { id: r2.id, fecha: HOY, forma: 'transferencia' });
    expect(hecho.body).toMatchObject({ RESULT: '0', message: MESSAGES.reembolsoRegistrado });
    expect(hecho.body.data![0]).toMatchObject({ por_cobrar: 0, cobro_fecha: HOY, cuenta: { cobrado: 5_242 - 511, saldo: 0 } });
    expect(hecho.body.data![0].cuenta!.cobros.map((c) => c.importe)).toEqual([5_242, -511]);
    expect((await figuras()).pendiente_cobro).toBe(0);
  });

  it('two vencimientos: paid instalment by instalment or in parts; pending and overdue follow what is left', async () => {
    const fc = await factura('recibo_30_60', [{ articulo_id: exento.id, cantidad: 1_000, precio: 1_000_000 }]);
    expect(fc.cuenta!.plazos.map((p) => [p.fecha, p.importe])).toEqual([[diaMas(HOY, 30), 5_000], [diaMas(HOY, 60), 5_000]]);
    // Issued 45 days ago: the first instalment is overdue, the second not yet.
    await t.app.manager.db.updateTable('documentos').set({ fecha: diaMas(HOY, -45) }).where('id', '=', fc.id).execute();
    expect(await ids('facturas', 'vencida')).toEqual([fc.id]);
    expect((await figuras()).vencido).toBe(5_000);

    let d = (await post(t, 'cobrarfactura', { id: fc.id, fecha: HOY, forma: 'efectivo', importe: 2_000 })).body.data![0];
    expect(d).toMatchObject({ por_cobrar: 8_000, cobro_fecha: null, cuenta: { cobrado: 2_000 } });
    expect(d.cuenta!.plazos.map((p) => p.pendiente)).toEqual([3_000, 5_000]);
    expect(await ids('facturas', 'vencida')).toEqual([fc.id]);
    expect((await figuras())).toMatchObject({ pendiente_cobro: 8_000, vencido: 3_000 });

    d = (await post(t, 'cobrarfactura', { id: fc.id, fecha: HOY, forma: 'efectivo', importe: 3_000 })).body.data![0];
    expect(d).toMatchObject({ por_cobrar: 5_000, plazos_cubiertos: 1 });
    expect(await ids('facturas', 'vencida')).toEqual([]);
    expect(await ids('facturas', 'pendiente')).toEqual([fc.id]);
    expect((await figuras())).toMatchObject({ pendiente_cobro: 5_000, vencido: 0 });

    const demasiado = await post(t, 'cobrarfactura', { id: fc.id, fecha: HOY, importe: 9_000 });
    expect(demasiado).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.cobroSuperaPendiente.replace('{importe}', '50,00 €') } });
    // A way of paying that is no forma de pago (issue 26: «Forma de cobro» lists ways of paying): a recibo, a cheque.
    const mal = await post(t, 'cobrarfactura', { id: fc.id, fecha: HOY, forma: 'bizum_30', importe: 1_000 });
    expect(mal).toMatchObject({ status: 400, body: { RESULT: '1' } });
    expect(mal.body.errors).toHaveProperty('forma');
    d = (await post(t, 'cobrarfactura', { id: fc.id, fecha: HOY, forma: 'recibo', importe: 1_000 })).body.data![0];
    expect(d.cuenta!.cobros.at(-1)).toMatchObject({ importe: 1_000, forma: 'recibo' });
    d = (await post(t, 'cobrarfactura', { id: fc.id, fecha: HOY, forma: 'cheque', importe: 1_000 })).body.data![0];
    expect(d.cuenta!.cobros.at(-1)).toMatchObject({ importe: 1_000, forma: 'cheque' });
    d = (await post(t, 'cobrarfactura', { id: fc.id, fecha: HOY, forma: 'transferencia' })).body.data![0];
    expect(d).toMatchObject({ por_cobrar: 0, cobro_fecha: HOY, cobro_forma: 'transferencia' });
    expect(d.cuenta!.cobros.map((c) => [c.importe, c.forma])).toEqual([[2_000, 'efectivo'], [3_000, 'efectivo'], [1_000, 'recibo'], [1_000, 'cheque'], [3_000, 'transferencia']]);

    // A cobro entered by mistake is removed: the invoice is pending again (its second instalment).
    const quitado = await post(t, 'eliminarcobro', { id: d.cuenta!.cobros[4].id });
    expect(quitado.body).toMatchObject({ RESULT: '0', message: MESSAGES.cobroEliminado });
    expect(quitado.body.data![0]).toMatchObject({ por_cobrar: 3_000, cobro_fecha: null, plazos_cubiertos: 1 });
    expect(await ids('facturas', 'pendiente')).toEqual([fc.id]);
    // No date: every cobro of the invoice removed.
    expect((await post(t, 'cobrarfactura', { id: fc.id, fecha: '' })).body.data![0]).toMatchObject({ por_cobrar: 10_000, plazos_cubiertos: 0, cuenta: { cobros: [] } });
    expect(await ids('facturas', 'vencida')).toEqual([fc.id]);
    // Its issue date as its record says again: a backup with an invoice other than its record says is refused (issue 24).
    await t.app.manager.db.updateTable('documentos').set({ fecha: HOY }).where('id', '=', fc.id).execute();
  });
  it('a backup made before cobros in parts restores each paid document\'s cobro as its first row, and every account', async () => {
    const descarga = await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } });
    const copia = JSON.parse(descarga.body) as { tablas: Record<string, Record<string, unknown>[]> };
    expect(copia.tablas.cobros.length).toBeGreaterThan(0);
    const antes = (await list(t, t.cookie, 'listadofacturas', { porPagina: 100, cliente_id: cliente.id })).rows.map((r) => [r.id, r.por_cobrar, r.cobro_fecha]);
    // As an older installation wrote it: no cobros, no por_cobrar; the one cobro of each paid document in its row.
    delete (copia.tablas as Record<string, unknown>).cobros;
    for (const d of copia.tablas.documentos) {
      delete d.por_cobrar;
      delete d.plazos_cubiertos;
    }
    const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(JSON.stringify(copia)));
    const res = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie: t.cookie } });
    expect(res.json()).toMatchObject({ RESULT: '0' });
    const despues = (await list(t, t.cookie, 'listadofacturas', { porPagina: 100, cliente_id: cliente.id })).rows.map((r) => [r.id, r.por_cobrar, r.cobro_fecha]);
    expect(despues).toEqual(antes);
    expect((await figuras()).pendiente_cobro).toBe(10_000);
  });
});
