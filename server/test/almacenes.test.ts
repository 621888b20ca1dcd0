import { describe, expect, it } from 'vitest';
import { MESSAGES, TOASTS } from 'shared/domain';
import { backends, createTestApp, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp, TestApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

const FECHA = '2026-03-10';

/** A POST that must succeed: its data[0]. */
async function ok(t: TestApp, cookie: string, ac: string, body: Record<string, unknown>): Promise<Row> {
  return save(t, cookie, ac, body);
}

/** A POST's whole answer and status. */
async function post(t: TestApp, cookie: string, ac: string, body: Record<string, unknown>) {
  const res = await t.op(ac, { cookie, body });
  return { status: res.statusCode, body: expectCleanAnswer(res) as Record<string, unknown> & { errors?: Record<string, string> } };
}

/** Stock per warehouse as the article record shows it. */
async function stockDe(t: TestApp, cookie: string, articuloId: number): Promise<Record<number, number>> {
  const rec = await articulo(t, cookie, articuloId);
  return Object.fromEntries((rec.stock as { almacen_id: number; stock: number }[]).map((s) => [s.almacen_id, s.stock]));
}

/** Σ ledger per (article, warehouse), straight from the table. */
async function libro(t: SuiteApp): Promise<Map<string, number>> {
  const rows = await t.app.manager.db
    .selectFrom('stock_movimientos')
    .select(['articulo_id', 'almacen_id'])
    .select((eb) => eb.fn.sum<number>('cantidad').as('s'))
    .groupBy(['articulo_id', 'almacen_id'])
    .execute();
  return new Map(rows.map((r) => [`${r.articulo_id}/${r.almacen_id}`, Number(r.s)]));
}

async function inicial(t: SuiteApp, articulo_id: number, almacen_id: number, cantidad: number, extra: Record<string, unknown> = {}) {
  await t.app.manager.db
    .insertInto('stock_movimientos')
    .values({ articulo_id, almacen_id, ubicacion: null, cantidad, causa: 'inicial', documento_tipo: null, documento_id: null, fecha: '2026-01-01', precio: 0, ...extra })
    .execute();
}

describe.each(backends())('almacenes y documentos de almacén ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let tienda: number;
  let cerrado: number;
  let a1: Row;
  let a2: Row;
  let a3: Row;

  it('masters: almacenes (van fields only with furgonetas) and ubicaciones, unique codes, refused deletes', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100, activo: 1 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    await setFlags(t, t.cookie, { almacenes: 1, furgonetas: 0 });
    const tiendaRow = await ok(t, t.cookie, 'editaralmacen', { codigo: 'TIENDA', nombre: 'Tienda centro', direccion: 'Calle Mayor 1', es_furgoneta: 1, matricula: '1234ABC' });
    tienda = tiendaRow.id;
    expect(tiendaRow).toMatchObject({ codigo: 'TIENDA', direccion: 'Calle Mayor 1', activo: 1, es_furgoneta: 0, matricula: null });
    await setFlags(t, t.cookie, { furgonetas: 1 });
    const van = await ok(t, t.cookie, 'editaralmacen', { id: tienda, codigo: 'TIENDA', nombre: 'Tienda centro', es_furgoneta: 1, matricula: '1234ABC', conductor_id: 1 });
    expect(van).toMatchObject({ es_furgoneta: 1, matricula: '1234ABC', conductor_id: 1, conductor_nombre: 'Administrador', direccion: 'Calle Mayor 1' });
    cerrado = (await ok(t, t.cookie, 'editaralmacen', { codigo: 'CERRADO', nombre: 'Almacén cerrado', activo: 0 })).id;
    const dup = await post(t, t.cookie, 'editaralmacen', { codigo: 'TIENDA', nombre: 'Otra' });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual({ codigo: MESSAGES.duplicated });
    const page = await list(t, t.cookie, 'listadoalmacenes', { porPagina: 10, orden: 'nombre', es_furgoneta: 1 });
    expect(page.rows.map((r) => r.codigo)).toEqual(['TIENDA']);

    const u1 = await ok(t, t.cookie, 'editarubicacion', { almacen_id: principal, codigo: 'A-01-1', descripcion: 'Pasillo A' });
    expect(u1).toMatchObject({ almacen_id: principal, almacen_nombre: 'Almacén principal', codigo: 'A-01-1', activo: 1 });
    expect((await post(t, t.cookie, 'editarubicacion', { almacen_id: principal, codigo: 'A-01-1' })).body.errors).toEqual({ codigo: MESSAGES.duplicated });
    // The same code in another warehouse is another location.
    await ok(t, t.cookie, 'editarubicacion', { almacen_id: tienda, codigo: 'A-01-1' });
    expect((await list(t, t.cookie, 'listadoubicaciones', { almacen_id: principal })).total).toBe(1);

    a1 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ALM-1', { precio_compra: 20_000 }));
    a2 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ALM-2', { precio_compra: 15_000 }));
    a3 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ALM-3', { precio_compra: 1_000 }));
    await inicial(t, a1.id, principal, 100_000);
    await inicial(t, a2.id, principal, 50_000, { ubicacion_id: u1.id });
    await inicial(t, a3.id, principal, 10_000);

    // Referenced: refused with RESULT 2; unreferenced: deleted.
    expect((await post(t, t.cookie, 'eliminarubicacion', { id: u1.id })).body).toMatchObject({ RESULT: '2', message: TOASTS.associated.text });
    expect((await post(t, t.cookie, 'eliminaralmacen', { id: principal })).body.RESULT).toBe('2');
    const vacia = await ok(t, t.cookie, 'editarubicacion', { almacen_id: principal, codigo: 'VACIA' });
    expect((await post(t, t.cookie, 'eliminarubicacion', { id: vacia.id })).body.RESULT).toBe('0');

    // The record shows the stock per location where it exists.
    const rec = await articulo(t, t.cookie, a2.id);
    expect((rec.stock as Row[])[0]).toMatchObject({ almacen_id: principal, stock: 50_000, en_transito: 0, ubicaciones: [{ ubicacion_id: u1.id, ubicacion_codigo: 'A-01-1', stock: 50_000 }] });
  });

  it('the stock a warehouse holds, valued at average cost', async () => {
    const res = await list(t, t.cookie, 'listadostockalmacen', { almacen_id: principal, orden: 'valor', dir: 'desc' });
    expect(res.rows.map((r) => [r.codigo, r.stock, r.coste_medio, r.valor])).toEqual([
      ['ALM-1', 100_000, 20_000, 20_000],
      ['ALM-2', 50_000, 15_000, 7_500],
      ['ALM-3', 10_000, 1_000, 100],
    ]);
    expect(res.body.valor_total).toBe(27_600);
    expect((await list(t, t.cookie, 'listadostockalmacen', { almacen_id: principal, q: 'alm-2' })).total).toBe(1);
  });

  it('movimiento: send, partial receipt in two steps, each undo restores stock exactly; wrong states refused', async () => {
    const mov = await ok(t, t.cookie, 'editarmovimiento', {
      fecha: FECHA,
      almacen_id: principal,
      almacen_destino_id: tienda,
      observaciones: 'Reposición',
      lineas: [
        { articulo_id: a1.id, cantidad: 10_000 },
        { articulo_id: a2.id, cantidad: 4_000, precio: 12_345 },
      ],
    });
    expect(mov).toMatchObject({ tipo: 'movimiento', estado: 'creado', numero: expect.stringMatching(/^MOV 2026\/\d{6}$/), almacen_nombre: 'Almacén principal', almacen_destino_nombre: 'Tienda centro', ejercicio: 2026 });
    const lineas = mov.lineas as Row[];
    expect(lineas.map((l) => [l.codigo, l.cantidad, l.precio, l.pendiente])).toEqual([
      ['ALM-1', 10_000, 20_000, 0],
      ['ALM-2', 4_000, 12_345, 0],
    ]);
    // Valued at cost: 10 × 2 € + 4 × 1,2345 € = 24,94 €.
    expect(mov.total).toBe(2494);

    const refused = await post(t, t.cookie, 'recibirmovimiento', { id: mov.id });
    expect(refused.body).toEqual({ RESULT: '1', message: MESSAGES.accionNoPermitida });
    expect((await post(t, t.cookie, 'deshacerenviomovimiento', { id: mov.id })).body.message).toBe(MESSAGES.accionNoPermitida);

    const s0 = { a1: await stockDe(t, t.cookie, a1.id), a2: await stockDe(t, t.cookie, a2.id) };
    const enviado = await ok(t, t.cookie, 'enviarmovimiento', { id: mov.id });
    expect(enviado.estado).toBe('enviado');
    expect((enviado.lineas as Row[]).map((l) => l.pendiente)).toEqual([10_000, 4_000]);
    expect(await stockDe(t, t.cookie, a1.id)).toEqual({ ...s0.a1, [principal]: 90_000, [tienda]: 0 });
    expect(((await articulo(t, t.cookie, a1.id)).stock as Row[]).find((s) => s.almacen_id === tienda)!.en_transito).toBe(10_000);
    // Editing or deleting a sent document is refused.
    expect((await post(t, t.cookie, 'editarmovimiento', { id: mov.id, fecha: FECHA, almacen_id: principal, almacen_destino_id: tienda, lineas: [] })).body.message).toBe(MESSAGES.accionNoPermitida);
    expect((await post(t, t.cookie, 'eliminarmovimiento', { id: mov.id })).body.RESULT).toBe('2');

    // More than pending: refused, nothing changed.
    const mas = await post(t, t.cookie, 'recibirmovimiento', { id: mov.id, lineas: [{ id: lineas[0].id, cantidad: 10_001 }] });
    expect(mas).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.recibirMasDePendiente } });

    // First receipt: 6 of a1, a2 absent.
    const parcial = await ok(t, t.cookie, 'recibirmovimiento', { id: mov.id, lineas: [{ id: lineas[0].id, cantidad: 6_000 }] });
    expect(parcial.estado).toBe('recibido_parcial');
    expect((parcial.lineas as Row[]).map((l) => l.pendiente)).toEqual([4_000, 4_000]);
    expect(await stockDe(t, t.cookie, a1.id)).toMatchObject({ [principal]: 90_000, [tienda]: 6_000 });
    // Second receipt: everything pending.
    const total = await ok(t, t.cookie, 'recibirmovimiento', { id: mov.id });
    expect(total.estado).toBe('recibido');
    expect(await stockDe(t, t.cookie, a1.id)).toMatchObject({ [principal]: 90_000, [tienda]: 10_000 });
    expect(await stockDe(t, t.cookie, a2.id)).toMatchObject({ [principal]: 46_000, [tienda]: 4_000 });
    expect(((await articulo(t, t.cookie, a1.id)).stock as Row[]).find((s) => s.almacen_id === tienda)!.en_transito).toBe(0);
    expect((await post(t, t.cookie, 'enviarmovimiento', { id: mov.id })).body.message).toBe(MESSAGES.accionNoPermitida);

    // Undo the second receipt, then the first, then the send.
    expect((await ok(t, t.cookie, 'deshacerrecepcionmovimiento', { id: mov.id })).estado).toBe('recibido_parcial');
    expect(await stockDe(t, t.cookie, a1.id)).toMatchObject({ [principal]: 90_000, [tienda]: 6_000 });
    const deshecho = await ok(t, t.cookie, 'deshacerrecepcionmovimiento', { id: mov.id });
    expect(deshecho.estado).toBe('enviado');
    expect((deshecho.lineas as Row[]).map((l) => l.pendiente)).toEqual([10_000, 4_000]);
    const creado = await ok(t, t.cookie, 'deshacerenviomovimiento', { id: mov.id });
    expect(creado.estado).toBe('creado');
    expect((creado.lineas as Row[]).map((l) => l.pendiente)).toEqual([0, 0]);
    expect(await stockDe(t, t.cookie, a1.id)).toEqual(s0.a1);
    expect(await stockDe(t, t.cookie, a2.id)).toEqual(s0.a2);
    expect((creado.historial as Row[]).map((h) => [h.accion, h.deshecha_por !== null])).toEqual([
      ['enviar', true],
      ['recibir', true],
      ['recibir', true],
      ['deshacerrecepcion', false],
      ['deshacerrecepcion', false],
      ['deshacerenvio', false],
    ]);
    // The ledger is append-only: every row is still there, with its opposite.
    const rows = await t.app.manager.db.selectFrom('stock_movimientos').select('cantidad').where('documento_id', '=', mov.id).where('documento_tipo', '=', 'movimiento').execute();
    // Sent 2, received 1 then 2 (an absent line moves nothing), and their 5 opposites.
    expect(rows.length).toBe(10);
    expect(rows.reduce((s, r) => s + Number(r.cantidad), 0)).toBe(0);
    // It has moved stock: it can't be deleted any more (its history stays).
    expect((await post(t, t.cookie, 'eliminarmovimiento', { id: mov.id })).body).toMatchObject({ RESULT: '2', message: MESSAGES.documentoConHistorial });
  });

  it('lists documents with filters and the totals row; a document by id', async () => {
    const res = await list(t, t.cookie, 'listadomovimientos', { almacen_id: tienda, orden: 'numero', dir: 'desc' });
    expect(res.total).toBe(1);
    // Sent, it moved at cost (docs/costes.md): ALM-2's typed 1,2345 € became its cost, 1,50 € (no valued entry yet:
    // its precio_compra): 10 × 2 € + 4 × 1,50 € = 26,00 €.
    expect(res.rows[0]).toMatchObject({ num_lineas: 2, almacen_destino_nombre: 'Tienda centro', total: 2600 });
    expect(res.rows[0]).not.toHaveProperty('lineas');
    expect(res.body.totales).toEqual({ total: 2600 });
    expect((await list(t, t.cookie, 'listadomovimientos', { estado: 'recibido' })).total).toBe(0);
    expect((await list(t, t.cookie, 'listadomovimientos', { desde: '2026-03-11' })).total).toBe(0);
    expect((await list(t, t.cookie, 'listadomovimientos', { q: 'reposi' })).total).toBe(1);
    expect((await t.op('listadomovimientos', { cookie: t.cookie, query: { id: '999999' } })).json().RESULT).toBe('3');
  });

  it('the same create sent twice with one clave makes one document', async () => {
    const body = { fecha: FECHA, almacen_id: principal, almacen_destino_id: tienda, clave: '3f1c9a2e-0000-4000-8000-000000000001', lineas: [{ articulo_id: a3.id, cantidad: 1_000 }] };
    const antes = (await list(t, t.cookie, 'listadomovimientos')).total;
    const [x, y] = await Promise.all([ok(t, t.cookie, 'editarmovimiento', body), ok(t, t.cookie, 'editarmovimiento', body)]);
    const z = await ok(t, t.cookie, 'editarmovimiento', body);
    expect(y.id).toBe(x.id);
    expect(z.id).toBe(x.id);
    expect((await list(t, t.cookie, 'listadomovimientos')).total).toBe(antes + 1);
    // Deletable while creado and untouched.
    expect((await post(t, t.cookie, 'eliminarmovimiento', { id: x.id })).body.RESULT).toBe('0');
  });

  it('bad input gets a Spanish 400 message and changes nothing', async () => {
    const antes = (await list(t, t.cookie, 'listadomovimientos')).total;
    const libroAntes = await libro(t);
    const base = { fecha: FECHA, almacen_id: principal, almacen_destino_id: tienda, lineas: [{ articulo_id: a1.id, cantidad: 1_000 }] };
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ ...base, almacen_destino_id: principal }, { almacen_destino_id: MESSAGES.almacenDestinoIgual }],
      [{ ...base, almacen_destino_id: cerrado }, { almacen_destino_id: MESSAGES.almacenNoActivo }],
      [{ ...base, almacen_id: 999_999 }, { almacen_id: MESSAGES.almacenNoActivo }],
      [{ ...base, lineas: [{ articulo_id: a1.id, cantidad: 'abc' }] }, { 'lineas.0.cantidad': MESSAGES.cantidadMayorQueCero }],
      [{ ...base, lineas: [{ articulo_id: a1.id, cantidad: 1.5 }] }, { 'lineas.0.cantidad': MESSAGES.cantidadMayorQueCero }],
      [{ ...base, lineas: [{ articulo_id: a1.id, cantidad: 1 }, { articulo_id: a1.id, cantidad: -5 }] }, { 'lineas.1.cantidad': MESSAGES.cantidadMayorQueCero }],
      [{ ...base, lineas: [{ articulo_id: a1.id, cantidad: 1 }, { articulo_id: a1.id, cantidad: 1 }, { articulo_id: a1.id, cantidad: 1 }, { articulo_id: 987_654, cantidad: 1 }] }, { 'lineas.3.articulo_id': MESSAGES.articuloNoExiste }],
      [{ ...base, lineas: 'x' }, { lineas: MESSAGES.invalidList }],
    ];
    for (const [body, errors] of cases) {
      const res = await post(t, t.cookie, 'editarmovimiento', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ RESULT: '1', message: MESSAGES.invalidFields, errors });
    }
    const perdida = await post(t, t.cookie, 'editarperdida', { fecha: FECHA, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 1_000 }] });
    expect(perdida.body.errors).toEqual({ 'lineas.0.motivo': MESSAGES.motivoPerdida });
    const otraUbicacion = (await list(t, t.cookie, 'listadoubicaciones', { almacen_id: tienda })).rows[0].id;
    const inv = await post(t, t.cookie, 'editarinventario', { fecha: FECHA, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 0, ubicacion_id: otraUbicacion }] });
    expect(inv.body.errors).toEqual({ 'lineas.0.ubicacion_id': MESSAGES.ubicacionOtroAlmacen });
    expect((await list(t, t.cookie, 'listadomovimientos')).total).toBe(antes);
    expect((await list(t, t.cookie, 'listadoperdidas')).total).toBe(0);
    expect(await libro(t)).toEqual(libroAntes);
  });

  it('inventario: starts from the theoretical stock; finishing adjusts to counted; its undo restores it', async () => {
    const teoricas = await list(t, t.cookie, 'lineasteoricasinventario', { almacen_id: principal });
    expect(teoricas.rows.map((r) => [r.codigo, r.teorico])).toEqual([
      ['ALM-1', 100_000],
      ['ALM-2', 50_000],
      ['ALM-3', 10_000],
    ]);
    const antes = { a1: await stockDe(t, t.cookie, a1.id), a2: await stockDe(t, t.cookie, a2.id), a3: await stockDe(t, t.cookie, a3.id) };
    const inv = await ok(t, t.cookie, 'editarinventario', {
      fecha: FECHA,
      almacen_id: principal,
      lineas: [
        { articulo_id: a1.id, cantidad: 97_500 },
        { articulo_id: a2.id, cantidad: 50_000 },
        { articulo_id: a3.id, cantidad: 0 },
      ],
    });
    expect(inv.estado).toBe('pendiente');
    // Stock moves after the count was typed: finishing uses the stock at that moment.
    await inicial(t, a1.id, principal, 1_000);
    const fin = await ok(t, t.cookie, 'finalizarinventario', { id: inv.id });
    expect(fin.estado).toBe('finalizado');
    expect((fin.lineas as Row[]).map((l) => l.teorico)).toEqual([101_000, 50_000, 10_000]);
    expect((await stockDe(t, t.cookie, a1.id))[principal]).toBe(97_500);
    expect((await stockDe(t, t.cookie, a2.id))[principal]).toBe(50_000);
    expect((await stockDe(t, t.cookie, a3.id))[principal]).toBe(0);
    expect((await post(t, t.cookie, 'finalizarinventario', { id: inv.id })).body.message).toBe(MESSAGES.accionNoPermitida);
    const undo = await ok(t, t.cookie, 'deshacerfinalizacioninventario', { id: inv.id });
    expect(undo.estado).toBe('pendiente');
    expect((undo.lineas as Row[]).map((l) => l.teorico)).toEqual([null, null, null]);
    expect((await stockDe(t, t.cookie, a1.id))[principal]).toBe(antes.a1[principal] + 1_000);
    expect(await stockDe(t, t.cookie, a3.id)).toEqual(antes.a3);
    // A count of one location adjusts only that location.
    const u1 = (await list(t, t.cookie, 'listadoubicaciones', { almacen_id: principal, q: 'A-01-1' })).rows[0].id;
    const porUbicacion = await ok(t, t.cookie, 'editarinventario', { fecha: FECHA, almacen_id: principal, ubicacion_id: u1, lineas: [{ articulo_id: a2.id, cantidad: 48_000 }] });
    expect((await list(t, t.cookie, 'lineasteoricasinventario', { almacen_id: principal, ubicacion_id: u1 })).rows.map((r) => r.teorico)).toEqual([50_000]);
    await ok(t, t.cookie, 'finalizarinventario', { id: porUbicacion.id });
    const rec = await articulo(t, t.cookie, a2.id);
    expect((rec.stock as Row[])[0]).toMatchObject({ stock: 48_000, ubicaciones: [{ ubicacion_id: u1, stock: 48_000 }] });
    await ok(t, t.cookie, 'deshacerfinalizacioninventario', { id: porUbicacion.id });
  });

  it('pérdida: finishing takes the stock out with its reason; undo restores it', async () => {
    const antes = await stockDe(t, t.cookie, a1.id);
    const per = await ok(t, t.cookie, 'editarperdida', { fecha: FECHA, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 2_500, motivo: 'rotura' }] });
    expect((per.lineas as Row[])[0]).toMatchObject({ motivo: 'rotura', precio: 20_000 });
    await ok(t, t.cookie, 'finalizarperdida', { id: per.id });
    expect((await stockDe(t, t.cookie, a1.id))[principal]).toBe(antes[principal] - 2_500);
    const causas = await t.app.manager.db.selectFrom('stock_movimientos').select('causa').where('documento_id', '=', per.id).where('documento_tipo', '=', 'perdida').execute();
    expect(causas.map((c) => c.causa)).toEqual(['perdida']);
    await ok(t, t.cookie, 'deshacerfinalizacionperdida', { id: per.id });
    expect(await stockDe(t, t.cookie, a1.id)).toEqual(antes);
    await ok(t, t.cookie, 'finalizarperdida', { id: per.id });
  });

  it("an article's movements, newest first, with the running balance, paged and filtered", async () => {
    const all = await list(t, t.cookie, 'listadomovimientosarticulo', { articulo_id: a1.id, porPagina: 100 });
    // In date order, then id (docs/costes.md): rows of documents dated in the past come before later-dated ones.
    const ledger = await t.app.manager.db.selectFrom('stock_movimientos').select(['id', 'cantidad', 'almacen_id']).where('articulo_id', '=', a1.id).orderBy('fecha').orderBy('id').execute();
    expect(all.total).toBe(ledger.length);
    const running = (rows: { cantidad: number }[]) => {
      let acc = 0;
      return rows.map((r) => {
        acc += Number(r.cantidad);
        return acc;
      });
    };
    const saldos = running(ledger);
    const esperado = ledger.map((r, i) => ({ id: r.id, saldo: saldos[i] })).reverse();
    expect(all.rows.map((r) => ({ id: r.id, saldo: r.saldo }))).toEqual(esperado);
    expect(all.rows[0].saldo).toBe((await articulo(t, t.cookie, a1.id)).stock_total);
    const conDocumento = all.rows.find((r) => r.documento_tipo === 'movimiento')!;
    expect(conDocumento.documento_numero).toMatch(/^MOV 2026\/\d{6}$/);
    // Page 2 of 10 keeps the same balances; a warehouse filter balances within that warehouse.
    const p2 = await list(t, t.cookie, 'listadomovimientosarticulo', { articulo_id: a1.id, porPagina: 10, pagina: 2 });
    expect(p2.rows.map((r) => r.saldo)).toEqual(esperado.slice(10, 20).map((r) => r.saldo));
    const enTienda = await list(t, t.cookie, 'listadomovimientosarticulo', { articulo_id: a1.id, almacen_id: tienda, porPagina: 100 });
    const esperadoT = running(ledger.filter((r) => r.almacen_id === tienda)).reverse();
    expect(enTienda.rows.map((r) => r.saldo)).toEqual(esperadoT);
    expect((await list(t, t.cookie, 'listadomovimientosarticulo', { articulo_id: a1.id, hasta: '2026-01-01' })).rows.every((r) => String(r.fecha) <= '2026-01-01')).toBe(true);
  });

  it("an article's usual location per warehouse: shown on its record, used by received transfers, refused from another warehouse", async () => {
    const hueco = await ok(t, t.cookie, 'editarubicacion', { almacen_id: tienda, codigo: 'T-09', descripcion: 'Estantería 9' });
    const otra = (await list(t, t.cookie, 'listadoubicaciones', { almacen_id: principal })).rows[0];
    const wrong = await post(t, t.cookie, 'editarubicacionarticulo', { articulo_id: a3.id, almacen_id: tienda, ubicacion_id: otra.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ ubicacion_id: MESSAGES.ubicacionOtroAlmacen });
    await ok(t, t.cookie, 'editarubicacionarticulo', { articulo_id: a3.id, almacen_id: tienda, ubicacion_id: hueco.id });
    const rec = await articulo(t, t.cookie, a3.id);
    const enTienda = (rec.stock as Row[]).find((s) => s.almacen_id === tienda)!;
    expect(enTienda).toMatchObject({ ubicacion_habitual_id: hueco.id, ubicacion_habitual_codigo: 'T-09' });

    await inicial(t, a3.id, principal, 5_000);
    const mov = await ok(t, t.cookie, 'editarmovimiento', { fecha: FECHA, almacen_id: principal, almacen_destino_id: tienda, lineas: [{ articulo_id: a3.id, cantidad: 2_000 }] });
    await ok(t, t.cookie, 'enviarmovimiento', { id: mov.id });
    await ok(t, t.cookie, 'recibirmovimiento', { id: mov.id });
    const after = await articulo(t, t.cookie, a3.id);
    const tiendaAfter = (after.stock as Row[]).find((s) => s.almacen_id === tienda)!;
    expect((tiendaAfter.ubicaciones as Row[]).find((u) => u.ubicacion_id === hueco.id)).toMatchObject({ ubicacion_codigo: 'T-09', stock: 2_000 });

    // Cleared without ubicacion_id.
    await ok(t, t.cookie, 'editarubicacionarticulo', { articulo_id: a3.id, almacen_id: tienda });
    expect(((await articulo(t, t.cookie, a3.id)).stock as Row[]).find((s) => s.almacen_id === tienda)).toMatchObject({ ubicacion_habitual_id: null });
  });

  it('without a location on the line, stock leaves and enters through the article\'s usual location', async () => {
    const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ALM-UBI'));
    const a011 = (await list(t, t.cookie, 'listadoubicaciones', { almacen_id: principal, q: 'A-01-1' })).rows[0];
    await inicial(t, art.id, principal, 10_000, { ubicacion_id: a011.id });
    await ok(t, t.cookie, 'editarubicacionarticulo', { articulo_id: art.id, almacen_id: principal, ubicacion_id: a011.id });
    const mov = await ok(t, t.cookie, 'editarmovimiento', { fecha: FECHA, almacen_id: principal, almacen_destino_id: tienda, lineas: [{ articulo_id: art.id, cantidad: 3_000 }] });
    await ok(t, t.cookie, 'enviarmovimiento', { id: mov.id });
    const per = await ok(t, t.cookie, 'editarperdida', { fecha: FECHA, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 1_000, motivo: 'rotura' }] });
    await ok(t, t.cookie, 'finalizarperdida', { id: per.id });
    const enPrincipal = ((await articulo(t, t.cookie, art.id)).stock as Row[]).find((s) => s.almacen_id === principal)!;
    expect(enPrincipal.stock).toBe(6_000);
    // All of it still in A-01-1: no negative "unlocated" remainder.
    expect(enPrincipal.ubicaciones).toEqual([{ ubicacion_id: a011.id, ubicacion_codigo: 'A-01-1', stock: 6_000 }]);
  });

  it('recalcularstock finds a difference and repairs it', async () => {
    expect((await post(t, t.cookie, 'recalcularstock', { aplicar: 0 })).body.data).toEqual([]);
    const db = t.app.manager.db;
    const { sql } = await import('kysely');
    await sql`update articulos set stock_total = stock_total + 7 where id = ${a3.id}`.execute(db);
    const check = await post(t, t.cookie, 'recalcularstock', { aplicar: 0 });
    const fila = await db.selectFrom('articulos').select(['stock_total', 'coste_medio']).where('id', '=', a3.id).executeTakeFirstOrThrow();
    const guardado = Number(fila.stock_total);
    const coste = fila.coste_medio === null ? null : Number(fila.coste_medio);
    expect(check.body.data).toEqual([{ articulo_id: a3.id, codigo: 'ALM-3', descripcion: 'Artículo ALM-3', guardado, libro: guardado - 7, coste_guardado: coste, coste_libro: coste }]);
    expect((await post(t, t.cookie, 'recalcularstock', { aplicar: 1 })).body.data).toEqual([{ reparados: 1 }]);
    expect((await post(t, t.cookie, 'recalcularstock', { aplicar: 0 })).body.data).toEqual([]);
  });

  it('a randomised sequence of 500 actions and undos: each undo restores the stock before its action; stock = Σ ledger', async () => {
    // mulberry32: a seeded generator, the same sequence on every run.
    let seed = 20260310;
    const rnd = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return (((x ^ (x >>> 14)) >>> 0) % n);
    };
    const articulos = [a1.id, a2.id, a3.id];
    const almacenes = [principal, tienda];
    const snapshot = async () => JSON.stringify([...(await libro(t)).entries()].filter(([, v]) => v !== 0).sort());
    type Doc = { id: number; tipo: 'movimiento' | 'inventario' | 'perdida'; estado: string };
    const docs: Doc[] = [];
    const lineas = () =>
      Array.from({ length: 1 + rnd(3) }, (_, i) => ({ articulo_id: articulos[(rnd(3) + i) % 3], cantidad: 1 + rnd(5_000), motivo: 'otros' }));
    let acciones = 0;
    let undos = 0;
    while (acciones + undos < 500) {
      if (docs.length < 3 || rnd(8) === 0) {
        const tipo = (['movimiento', 'inventario', 'perdida'] as const)[rnd(3)];
        const origen = almacenes[rnd(2)];
        const ls = tipo === 'inventario' ? [...new Map(lineas().map((l) => [l.articulo_id, l])).values()] : lineas();
        const d = await ok(t, t.cookie, `editar${tipo}`, { fecha: FECHA, almacen_id: origen, almacen_destino_id: almacenes.find((a) => a !== origen), lineas: ls });
        docs.push({ id: d.id, tipo, estado: String(d.estado) });
        continue;
      }
      const doc = docs[rnd(docs.length)];
      const verbos: Record<string, string[]> = {
        creado: ['enviar'],
        enviado: ['recibir', 'deshacerenvio'],
        recibido_parcial: ['recibir', 'deshacerrecepcion'],
        recibido: ['deshacerrecepcion'],
        pendiente: ['finalizar'],
        finalizado: ['deshacerfinalizacion'],
      };
      const verbo = verbos[doc.estado][rnd(verbos[doc.estado].length)];
      const undoNow = !verbo.startsWith('deshacer') && rnd(2) === 0;
      const before = undoNow ? await snapshot() : '';
      let body: Record<string, unknown> = { id: doc.id };
      if (verbo === 'recibir' && rnd(2) === 0) {
        const full = (await list(t, t.cookie, 'listadomovimientos', { id: doc.id })).rows[0];
        const pend = (full.lineas as Row[]).filter((l) => Number(l.pendiente) > 0);
        body = { id: doc.id, lineas: pend.slice(0, 1).map((l) => ({ id: l.id, cantidad: 1 + rnd(Number(l.pendiente)) })) };
      }
      const after = await ok(t, t.cookie, `${verbo}${doc.tipo}`, body);
      doc.estado = String(after.estado);
      if (verbo.startsWith('deshacer')) undos++;
      else acciones++;
      // Half of the actions are undone at once: the stock is exactly what it was before.
      if (!verbo.startsWith('deshacer') && undoNow) {
        const undo = { enviar: 'deshacerenvio', recibir: 'deshacerrecepcion', finalizar: 'deshacerfinalizacion' }[verbo as 'enviar']!;
        const back = await ok(t, t.cookie, `${undo}${doc.tipo}`, { id: doc.id });
        doc.estado = String(back.estado);
        undos++;
        expect(await snapshot()).toBe(before);
      }
    }
    // Stock = Σ ledger everywhere: the record per warehouse, the stored total, and the check.
    const sums = await libro(t);
    for (const a of articulos) {
      const rec = await articulo(t, t.cookie, a);
      for (const s of rec.stock as { almacen_id: number; stock: number }[]) expect(s.stock).toBe(sums.get(`${a}/${s.almacen_id}`) ?? 0);
      expect(rec.stock_total).toBe(almacenes.reduce((s, al) => s + (sums.get(`${a}/${al}`) ?? 0), 0));
    }
    expect((await post(t, t.cookie, 'recalcularstock', { aplicar: 0 })).body.data).toEqual([]);
    // Pending quantities agree with the ledger: what left and has not arrived is in transit.
    const transit = await t.app.manager.db.selectFrom('documento_lineas').select((eb) => eb.fn.sum<number>('pendiente').as('p')).executeTakeFirstOrThrow();
    const traspasos = await t.app.manager.db.selectFrom('stock_movimientos').select((eb) => eb.fn.sum<number>('cantidad').as('s')).where('causa', '=', 'traspaso').executeTakeFirstOrThrow();
    expect(Number(transit.p ?? 0)).toBe(-Number(traspasos.s ?? 0));
    expect(undos).toBeGreaterThan(150);
  }, 240_000);

  it('backs up and restores the documents, their lines, history, counters and the ledger', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } });
    const backup = res.body;
    const tablas = JSON.parse(backup).tablas;
    expect(tablas.documento_lineas.length).toBeGreaterThan(0);
    expect(tablas.documento_acciones.length).toBeGreaterThan(0);
    expect(tablas.contadores.length).toBeGreaterThan(0);
    const ver = async () => ({
      movimientos: (await list(t, t.cookie, 'listadomovimientos', { porPagina: 100 })).rows,
      uno: (await list(t, t.cookie, 'listadomovimientos', { id: tablas.documentos.find((d: Row) => d.tipo === 'movimiento').id })).rows,
      ubicaciones: (await list(t, t.cookie, 'listadoubicaciones', { porPagina: 100 })).rows,
      almacenes: (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows,
      stock: await articulo(t, t.cookie, a1.id),
      movs: (await list(t, t.cookie, 'listadomovimientosarticulo', { articulo_id: a1.id, porPagina: 100 })).rows,
    });
    const before = await ver();
    const extra = await ok(t, t.cookie, 'editarperdida', { fecha: FECHA, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 1_000, motivo: 'robo' }] });
    await ok(t, t.cookie, 'finalizarperdida', { id: extra.id });
    const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(backup));
    const restored = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie: t.cookie } });
    expect(restored.json().RESULT).toBe('0');
    expect(await ver()).toEqual(before);
    // Numbering continues after the restored counters.
    const next = await ok(t, t.cookie, 'editarperdida', { fecha: FECHA, almacen_id: principal, lineas: [{ articulo_id: a1.id, cantidad: 1_000, motivo: 'robo' }] });
    expect(next.numero).toBe(extra.numero);
  });

  it('with the almacenes flag off every action but recalcularstock answers 403', async () => {
    await setFlags(t, t.cookie, { almacenes: 0 });
    for (const ac of ['listadoalmacenes', 'listadomovimientos', 'listadostockalmacen', 'listadomovimientosarticulo']) {
      expect((await t.op(ac, { cookie: t.cookie })).statusCode).toBe(403);
    }
    for (const ac of ['editarmovimiento', 'enviarmovimiento', 'finalizarinventario', 'editaralmacen', 'editarubicacion']) {
      const res = await t.op(ac, { cookie: t.cookie, body: { id: 1 } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.moduleOff);
    }
    expect((await t.op('recalcularstock', { cookie: t.cookie, body: { aplicar: 0 } })).statusCode).toBe(200);
    await setFlags(t, t.cookie, { almacenes: 1 });
  });
});

describe.each(backends())('demo: almacenes con stock ($name)', (backend) => {
  it('the demo company has a second warehouse, locations and opening stock', async () => {
    const t = await createTestApp(backend, { demoStock: true });
    try {
      const cookie = await t.login();
      const almacenes = (await list(t, cookie, 'listadoalmacenes', { porPagina: 100 })).rows.map((r) => r.nombre);
      expect(almacenes).toEqual(['Almacén principal', 'Tienda centro']);
      const principal = (await list(t, cookie, 'listadoalmacenes', { q: 'PRINCIPAL' })).rows[0].id;
      expect((await list(t, cookie, 'listadoubicaciones', { almacen_id: principal })).total).toBe(3);
      const stock = await list(t, cookie, 'listadostockalmacen', { almacen_id: principal });
      expect(stock.total).toBeGreaterThan(5);
      expect(Number(stock.body.valor_total)).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});
