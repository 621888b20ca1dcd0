import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { ADMIN, PNG_1X1, backends, createTestApp, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import type { Backend, TestApp } from './helpers.ts';

async function download(t: TestApp, cookie: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res;
}

function restore(t: TestApp, cookie: string, content: Buffer | string) {
  const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(content));
  return t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie } });
}

/** What a user sees of an installation: configuration, users, series, files and the chart. */
async function snapshot(t: TestApp, cookie: string) {
  const conf = (await t.op('listadoconfiguraciones', { cookie })).json().data;
  const usuarios = (await t.op('listadousuarios', { cookie, query: { porPagina: '100' } })).json().data.map(
    ({ ultimo_acceso: _u, ...u }: Record<string, unknown>) => u,
  );
  const series = (await t.op('listadoseries', { cookie, query: { porPagina: '100' } })).json().data;
  const grafico = (await t.op('graficoinicio', { cookie })).json().data;
  return { conf, usuarios, series, grafico };
}

async function populate(t: TestApp, cookie: string) {
  await t.op('editarusuario', { cookie, body: { nombre: 'Marta Vidal', email: 'marta@demo.es', password: 'Clave-marta-1' } });
  await t.op('editarserie', { cookie, body: { codigo: 'B', descripcion: 'Tienda 2', tipo: 'normal' } });
  const { payload, headers } = multipart('archivo', 'logo.png', 'image/png', PNG_1X1);
  const up = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subirarchivo', payload, headers: { ...headers, cookie } });
  const logo = up.json().data[0].url as string;
  const conf = (await t.op('listadoconfiguraciones', { cookie })).json().data[0];
  await t.op('editarconfiguracion', { cookie, body: { ...conf, razon_social: 'Copias Ñandú, S.L.', logo, conf_seo: 1 } });
  const serieA = (await t.op('listadoseries', { cookie })).json().data.find((s: { codigo: string }) => s.codigo === 'A');
  const mes = new Date().toISOString().slice(0, 7);
  await t.app.manager.db
    .insertInto('documentos')
    .values({ tipo: 'pedido_venta', serie_id: serieA.id, numero: 7, fecha: `${mes}-02`, estado: 'Pendiente', total: 4242, creado: new Date().toISOString() })
    .execute();
  return logo;
}

describe.each(backends())('copia de seguridad ($name)', (backend) => {
  const t = useTestApp(backend);

  it('downloads a dated JSON attachment with the data tables and no sessions', async () => {
    await populate(t, t.cookie);
    const res = await download(t, t.cookie);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="manager-tpv-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['content-type']).toContain('application/json');
    const backup = res.json();
    expect(backup).toMatchObject({ formato: 'manager-tpv-backup', version: 1 });
    expect(Object.keys(backup.tablas).sort()).toEqual([
      'almacenes',
      'archivos',
      'articulo_componentes',
      'articulo_materiales',
      'articulo_procesos',
      'articulo_proporciones',
      'articulo_ubicaciones',
      'articulos',
      'clientes',
      'cobros',
      'configuracion',
      'contadores',
      'demo_datos',
      'documento_acciones',
      'documento_enlaces',
      'documento_lineas',
      'documentos',
      'facturas_proveedor',
      'facturas_proveedor_documentos',
      'familias',
      'marcas',
      'materiales',
      'pagos_proveedor',
      'parte_horas',
      'procesos',
      'proveedores',
      'registros_cadena',
      'registros_facturacion',
      'remesa_recibos',
      'remesas',
      'roles',
      'series',
      'stock_movimientos',
      'subfamilias',
      'tpv_botones',
      'tpv_cajas',
      'tpv_cierres',
      'tpv_incidencias',
      'tpv_movimientos',
      'tpv_paginas',
      'tpv_pagos',
      'tpv_terminales',
      'tpv_tickets',
      'tpv_vales',
      'ubicaciones',
      'usuarios',
      'verifactu_envios',
    ]);
    expect(backup.tablas.archivos[0].datos).toBe(PNG_1X1.toString('base64'));
    expect(backup.tablas.documentos[0].total).toBe(4242);
    expect(res.body).not.toContain('token_hash');
  });

  it('restores it: changes made after the backup are gone, this session survives, others end', async () => {
    const before = await snapshot(t, t.cookie);
    const backup = (await download(t, t.cookie)).body;
    const other = await t.login('marta@demo.es', 'Clave-marta-1');

    await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'Z', descripcion: 'Después', tipo: 'normal' } });
    await t.op('editarusuario', { cookie: t.cookie, body: { nombre: 'Nuevo', email: 'nuevo@demo.es', password: 'Clave-nuevo-1' } });
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, razon_social: 'Cambiada, S.A.', conf_ventas: 0 } });

    const res = await restore(t, t.cookie, backup);
    expect(expectCleanAnswer(res)).toMatchObject({ RESULT: '0', message: MESSAGES.backupRestored });
    expect(await snapshot(t, t.cookie)).toEqual(before);
    expect((await t.op('listadoconfiguraciones', { cookie: other })).statusCode).toBe(401);

    // New rows after a restore get fresh ids (PostgreSQL sequences follow the restored ids).
    const created = await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'N', descripcion: 'Nueva', tipo: 'normal' } });
    expect(created.json().RESULT).toBe('0');
  });

  it('refuses something that is not a backup with 400 and changes nothing', async () => {
    const before = await snapshot(t, t.cookie);
    for (const bad of [
      'esto no es json',
      JSON.stringify({ formato: 'otra-cosa', version: 1, tablas: {} }),
      JSON.stringify({ formato: 'manager-tpv-backup', version: 1, tablas: { configuracion: [] } }),
    ]) {
      const res = await restore(t, t.cookie, bad);
      expect(res.statusCode).toBe(400);
      expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.invalidBackup });
    }
    // Well-formed but inconsistent (a document pointing at a missing serie): refused whole, in one transaction.
    const backup = (await download(t, t.cookie)).json();
    backup.tablas.documentos.push({ ...backup.tablas.documentos[0], id: 999, serie_id: 12345 });
    const res = await restore(t, t.cookie, JSON.stringify(backup));
    expect(res.statusCode).toBe(400);
    expect(await snapshot(t, t.cookie)).toEqual(before);
  });
});

const pg = backends().find((b) => b.name === 'postgres');

describe.runIf(pg)('copia entre bases de datos', () => {
  const pairs: { from: Backend; to: Backend }[] = pg
    ? [
        { from: { name: 'sqlite' }, to: pg },
        { from: pg, to: { name: 'sqlite' } },
      ]
    : [];
  it.each(pairs)('a backup taken on $from.name restores into $to.name', async ({ from, to }) => {
    const a = await createTestApp(from);
    const b = await createTestApp(to);
    try {
      const ca = await a.login();
      const logo = await populate(a, ca);
      const backup = (await download(a, ca)).body;
      const expected = await snapshot(a, ca);

      const cb = await b.login();
      expect(expectCleanAnswer(await restore(b, cb, backup)).RESULT).toBe('0');
      // The restoring user existed in both with the same id and email: still logged in.
      expect(await snapshot(b, cb)).toEqual(expected);
      const img = await b.app.inject({ method: 'GET', url: logo });
      expect(img.rawPayload.equals(PNG_1X1)).toBe(true);
      await b.login('marta@demo.es', 'Clave-marta-1');
      await b.login(ADMIN.email, ADMIN.password);
      const created = await b.op('editarusuario', { cookie: cb, body: { nombre: 'Tras', email: 'tras@demo.es', password: 'Clave-tras-11' } });
      expect(created.json().RESULT).toBe('0');
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/** Records are inalterable (RD 1007/2023): a restore never loses an emitted invoice, a rectificativa or a record. */
describe.each(backends())('copia y registros de facturación ($name)', (backend) => {
  const t = useTestApp(backend);
  const anio = todayIn('Europe/Madrid').slice(0, 4);
  const hoy = todayIn('Europe/Madrid');
  let base: Record<string, unknown>;
  let serieR: number;
  let articuloId: number;

  async function emitir(extra: Record<string, unknown> = {}) {
    const borrador = await save(t, t.cookie, 'editarfactura', { ...base, lineas: [{ articulo_id: articuloId, cantidad: 1_000, precio: 100_000 }], ...extra });
    return save(t, t.cookie, 'emitirfactura', { id: borrador.id });
  }
  /** What a user checks after a refused restore: the invoices and their records, as they were. */
  async function facturacion() {
    const facturas = (await list(t, t.cookie, 'listadofacturas', { porPagina: 100 })).rows.map((r) => [r.numero, r.estado, r.total]);
    const rectificativas = (await list(t, t.cookie, 'listadorectificativas', { porPagina: 100 })).rows.map((r) => [r.numero, r.estado, r.total]);
    const registros = (await list(t, t.cookie, 'listadoregistrosfacturacion', { porPagina: 100 })).rows.map((r) => [r.num_serie, r.tipo, r.huella]);
    return { facturas, rectificativas, registros };
  }
  const backup = async () => (await download(t, t.cookie)).body;

  let copia1: string;
  let copia2: string;
  let f2: Row;
  it('refuses a backup without the invoice emitted after it, naming it; nothing changes and numbering goes on', async () => {
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieR = series.find((s) => s.codigo === 'R')!.id;
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows[0].id;
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    articuloId = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('COPIA-A', { precio_venta: 100_000 }))).id;
    base = { fecha: hoy, cliente_id: cliente.id, almacen_id: almacen, serie_id: series.find((s) => s.codigo === 'A')!.id };

    expect((await emitir()).numero).toBe(`A ${anio}/000001`);
    copia1 = await backup();
    f2 = await emitir();
    expect(f2.numero).toBe(`A ${anio}/000002`);
    // A draft made after the backup is no fiscal document: it does not stop a restore.
    await save(t, t.cookie, 'editarfactura', { ...base, lineas: [] });
    const antes = await facturacion();

    const res = await restore(t, t.cookie, copia1);
    expect(expectCleanAnswer(res)).toEqual({
      RESULT: '1',
      message: `La copia no contiene la factura A ${anio}/000002 (y su registro VERI*FACTU): restaurarla la borraría y los registros de facturación son inalterables.`,
    });
    expect(await facturacion()).toEqual(antes);
    expect((await emitir()).numero).toBe(`A ${anio}/000003`);
  });

  it('refuses one without a rectificativa, or without a registro de anulación, emitted after it', async () => {
    copia2 = await backup();
    const borrador = await save(t, t.cookie, 'editarrectificativa', {
      ...base, serie_id: serieR, factura_id: f2.id, tipo: 'R1', modo: 'diferencias', lineas: [{ articulo_id: articuloId, cantidad: -1_000, precio: 100_000 }],
    });
    const r1 = await save(t, t.cookie, 'emitirrectificativa', { id: borrador.id });
    expect(r1.numero).toBe(`R ${anio}/000001`);
    let antes = await facturacion();
    expect(expectCleanAnswer(await restore(t, t.cookie, copia2))).toEqual({
      RESULT: '1',
      message: `La copia no contiene la factura rectificativa R ${anio}/000001 (y su registro VERI*FACTU): restaurarla la borraría y los registros de facturación son inalterables.`,
    });
    expect(await facturacion()).toEqual(antes);

    const copia3 = await backup();
    const f3 = (await list(t, t.cookie, 'listadofacturas', { q: `A ${anio}/000003` })).rows[0];
    await save(t, t.cookie, 'anularfactura', { id: f3.id });
    antes = await facturacion();
    expect(expectCleanAnswer(await restore(t, t.cookie, copia3))).toEqual({
      RESULT: '1',
      message: `La copia no contiene el registro de anulación de la factura A ${anio}/000003: restaurarla lo borraría y los registros de facturación son inalterables.`,
    });
    expect(await facturacion()).toEqual(antes);
  });

  it('refuses a backup whose record differs, or whose chain head or numbering is behind the database', async () => {
    const actual = JSON.parse(await backup());
    const antes = await facturacion();
    const alterada = structuredClone(actual);
    const ultimo = alterada.tablas.registros_facturacion.at(-1);
    ultimo.huella = '0'.repeat(64);
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(alterada))).message).toBe(
      `La copia no contiene el registro de anulación de la factura A ${anio}/000003: restaurarla lo borraría y los registros de facturación son inalterables.`,
    );

    const cadena = structuredClone(actual);
    cadena.tablas.registros_cadena[0].ultimo_orden -= 1;
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(cadena)))).toEqual({
      RESULT: '1',
      message: 'La copia haría retroceder la cadena de registros VERI*FACTU del NIF B86420973: los registros de facturación son inalterables.',
    });

    const numeracion = structuredClone(actual);
    const contador = numeracion.tablas.contadores.find((c: { tipo: string; serie_id: number }) => c.tipo === 'factura' && c.serie_id === base.serie_id);
    contador.ultimo -= 1;
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(numeracion)))).toEqual({
      RESULT: '1',
      message: `La copia haría retroceder la numeración de la serie A en ${anio}: se repetirían números ya emitidos.`,
    });
    expect(await facturacion()).toEqual(antes);

    // The backup of now restores, and numbering goes on after it.
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(actual))).RESULT).toBe('0');
    expect(await facturacion()).toEqual(antes);
    expect((await emitir()).numero).toBe(`A ${anio}/000004`);
  });

  it.runIf(backend.name === 'postgres')('a record written while the restore waits to start is seen: refused, and kept', async () => {
    const copia = await backup();
    const db = t.app.manager.db;
    let restaurando: ReturnType<typeof restore> | undefined;
    // An emission in flight on another connection: the chain's head advanced and its record written, not yet committed.
    await db.transaction().execute(async (trx) => {
      const ultimo = await trx.selectFrom('registros_facturacion').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      const { id: _id, ...resto } = ultimo;
      await trx.updateTable('registros_cadena').set({ ultimo_orden: ultimo.orden + 1, ultima_huella: 'F'.repeat(64) }).where('emisor', '=', ultimo.emisor).execute();
      await trx
        .insertInto('registros_facturacion')
        .values({ ...resto, orden: ultimo.orden + 1, tipo: 'alta', huella: 'F'.repeat(64), huella_anterior: ultimo.huella } as never)
        .execute();
      restaurando = restore(t, t.cookie, copia);
      await new Promise((r) => setTimeout(r, 500));
    });
    const res = expectCleanAnswer(await restaurando!);
    expect(res.RESULT).toBe('1');
    expect(res.message).toMatch(/^La copia no contiene el registro de alta de la factura/);
    const huellas = (await db.selectFrom('registros_facturacion').select('huella').execute()).map((r) => r.huella);
    expect(huellas).toContain('F'.repeat(64));
  });

  it('moving to a new machine: an empty database takes any backup, one holding a prefix of its records a later one', async () => {
    const nueva = await createTestApp(backend);
    try {
      const cookie = await nueva.login();
      expect(expectCleanAnswer(await restore(nueva, cookie, copia1)).RESULT).toBe('0');
      expect((await list(nueva, cookie, 'listadoregistrosfacturacion')).rows.map((r) => r.num_serie)).toEqual([`A ${anio}/000001`]);
      expect(expectCleanAnswer(await restore(nueva, cookie, copia2)).RESULT).toBe('0');
      const numeros = [1, 2, 3].map((n) => `A ${anio}/00000${n}`);
      expect((await list(nueva, cookie, 'listadoregistrosfacturacion')).rows.map((r) => r.num_serie).sort()).toEqual(numeros);
      expect(expectCleanAnswer(await restore(nueva, cookie, copia1)).message).toBe(
        `La copia no contiene la factura A ${anio}/000003 (y su registro VERI*FACTU): restaurarla la borraría y los registros de facturación son inalterables.`,
      );
    } finally {
      await nueva.close();
    }
  });
});
