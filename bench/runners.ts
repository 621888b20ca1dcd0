// What every database bench shares: the real app on SQLite or on PostgreSQL (DATABASE_URL in a schema of
// its own, or a throwaway cluster), a raw driver connection beside it for "the SQL a query can't beat",
// the admin's cookie, an action's handler called in-process, and medians / p95.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from 'server';
import { CONF_FIELD, DOCUMENTO_TIPOS, validate } from 'shared/domain';
import type { DocumentoTipo, FlagName } from 'shared/domain';
import { createRegistry } from '../server/src/actions/index.ts';
import { param } from '../server/src/demo/datos.ts';
import { hasPostgresBinaries, startCluster } from '../server/test/pg-cluster.ts';

export const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };
export const KEEP = process.env.BENCH_KEEP === '1';

export type Runner = {
  name: 'sqlite' | 'postgres';
  app: FastifyInstance;
  /** The same SQL straight on the driver: a prepared better-sqlite3 statement, or a named node-postgres one. */
  rawQuery: (sql: string, params: unknown[]) => Promise<unknown[]>;
  /** Several raw statements in one transaction (a write's raw counterpart). */
  rawTransaction: (run: () => Promise<void>) => Promise<void>;
  close: () => Promise<void>;
  /** How to start the real server (server/scripts/spawn-server.mjs) on this same database: its SQLite folder or its URL. */
  servidor: { dataDir?: string; env: Record<string, string> };
};

/** `?` on SQLite, `$i` on PostgreSQL. */
export { param };

export function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  return { p50: q(0.5), p95: q(0.95) };
}

export const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

const registry = createRegistry();

/** What the dispatcher runs after the session check: validate() of the action's input, then its handler. */
export async function callHandler<T = unknown>(
  r: Runner,
  ac: string,
  input: Record<string, unknown>,
  user: { id: number; nombre: string; email: string } | null = null,
): Promise<{ RESULT: string; data?: T[]; total?: number; message?: string }> {
  const action = registry.get(ac);
  if (!action) throw new Error(`unknown action ${ac}`);
  let value: Record<string, unknown> = input;
  if (action.input) {
    const checked = validate(action.input, input);
    if (!checked.ok) throw new Error(`${ac}: ${JSON.stringify(checked.errors)}`);
    value = checked.value as Record<string, unknown>;
  }
  return (await action.handler({
    input: value as never,
    raw: input,
    user: user as never,
    request: undefined as never,
    reply: undefined as never,
    app: r.app.manager,
  })) as { RESULT: string; data?: T[]; total?: number; message?: string };
}

export async function login(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/op.asp?ac=identificar', payload: ADMIN });
  const c = res.cookies.find((x) => x.name === 'mtpv_sesion');
  if (!c) throw new Error(`login failed: ${res.body}`);
  return `mtpv_sesion=${c.value}`;
}

/** Switches module flags on, as the configuration screen does (inject checks them). */
export async function activarFlags(r: Runner, cookie: string, flags: FlagName[]): Promise<void> {
  const conf = (await r.app.inject({ method: 'GET', url: '/api/op.asp', query: { ac: 'listadoconfiguraciones' }, headers: { cookie } })).json().data[0];
  for (const f of flags) conf[CONF_FIELD[f]] = 1;
  const res = await r.app.inject({ method: 'POST', url: '/api/op.asp?ac=editarconfiguracion', payload: conf, headers: { cookie } });
  if (res.json().RESULT !== '0') throw new Error(res.body);
}

export async function sqliteRunner(prefix: string): Promise<Runner> {
  // BENCH_SQLITE_DIR: the data directory a run kept (BENCH_KEEP=1), measured again without generating; never deleted.
  const reusado = process.env.BENCH_SQLITE_DIR;
  const dataDir = reusado ?? fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const app = await buildApp({ dataDir, staticRoot: dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
  let raw: SQLite.Database | undefined;
  const statements = new Map<string, SQLite.Statement>();
  const rawQuery = async (sql: string, params: unknown[]) => {
    if (!raw) {
      raw = new SQLite(path.join(dataDir, 'manager.sqlite'));
      raw.pragma('busy_timeout = 5000');
      // The server's durability (db/index.ts): every commit syncs the WAL, and no commit checkpoints it (the
      // server's worker does, for this connection's writes too).
      raw.pragma('synchronous = FULL');
      raw.pragma('wal_autocheckpoint = 20000');
    }
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = raw.prepare(sql);
      statements.set(sql, stmt);
    }
    if (stmt.reader) return stmt.all(...params);
    stmt.run(...params);
    return [];
  };
  return {
    name: 'sqlite',
    app,
    servidor: { dataDir, env: {} },
    rawQuery,
    async rawTransaction(run) {
      await rawQuery('begin immediate', []);
      try {
        await run();
        await rawQuery('commit', []);
      } catch (err) {
        await rawQuery('rollback', []);
        throw err;
      }
    },
    async close() {
      raw?.close();
      await app.close();
      if (KEEP || reusado) console.log(`sqlite: kept ${path.join(dataDir, 'manager.sqlite')}`);
      else fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** DATABASE_URL (in a schema of its own, dropped afterwards), or a throwaway cluster like the server's tests. */
export async function postgresUrl(prefix: string): Promise<{ url: string; stop: () => Promise<void> } | null> {
  // BENCH_PG_URL: a database a run kept (BENCH_KEEP=1 prints it), measured again without generating; never dropped.
  if (process.env.BENCH_PG_URL) return { url: process.env.BENCH_PG_URL, stop: async () => {} };
  if (process.env.DATABASE_URL) {
    const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return {
      url: u.toString(),
      async stop() {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  }
  if (!hasPostgresBinaries()) return null;
  // No fsync (a throwaway cluster), but synchronous commits: with them off, VACUUM can't mark freshly
  // written pages all-visible (no hint bits before the WAL flush) and index-only scans read the heap.
  const cluster = await startCluster({ prefix });
  return { url: cluster.url, stop: async () => cluster.stop() };
}

export async function postgresRunner(prefix: string): Promise<Runner | null> {
  const server = await postgresUrl(`${prefix}pg-`);
  if (!server) return null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const app = await buildApp({ dataDir, staticRoot: dataDir, databaseUrl: server.url, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const names = new Map<string, string>();
  const rawQuery = async (sql: string, params: unknown[]) => {
    if (!params.length) return (await client.query(sql)).rows;
    // Named: parsed and planned once, the best a driver can do.
    const name = names.get(sql) ?? `q${names.size}`;
    names.set(sql, name);
    return (await client.query({ name, text: sql, values: params })).rows;
  };
  return {
    name: 'postgres',
    app,
    servidor: { env: { DATABASE_URL: server.url } },
    rawQuery,
    async rawTransaction(run) {
      await client.query('begin');
      try {
        await run();
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    },
    async close() {
      await client.end();
      await app.close();
      if (KEEP) console.log(`postgres: kept ${server.url}`);
      else await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Today in the business's time zone, the bench's data generated and the planner's statistics refreshed, both timed. */
export async function generarDatos<G>(r: Runner, generate: (r: Runner, hoy: string) => Promise<G>): Promise<{ hoy: string; gen: G; tiempo: string }> {
  const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: r.app.manager.timeZone }).format(new Date());
  let t0 = Date.now();
  const gen = await generate(r, hoy);
  const genMs = Date.now() - t0;
  t0 = Date.now();
  await r.rawQuery(r.name === 'postgres' ? 'vacuum analyze' : 'analyze', []);
  return { hoy, gen, tiempo: `generated in ${(genMs / 1000).toFixed(1)} s (analyze ${((Date.now() - t0) / 1000).toFixed(1)} s)` };
}

/**
 * PostgreSQL: `run` (a bulk load) with these tables' secondary indexes dropped, then each created again from its own
 * definition (pg_indexes.indexdef) — one sort per index instead of a million insertions into ten B-trees. Indexes that
 * back a constraint (primary keys, uniques the load relies on) stay. SQLite: `run` as is.
 */
export async function sinIndices<T>(r: Runner, tablas: string[], run: () => Promise<T>): Promise<T> {
  if (r.name !== 'postgres') return run();
  const defs = (await r.rawQuery(
    `select i.indexname, i.indexdef from pg_indexes i where i.schemaname = current_schema() and i.tablename = any($1)
       and not exists (select 1 from pg_constraint c where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
    [tablas],
  )) as { indexname: string; indexdef: string }[];
  for (const d of defs) await r.rawQuery(`drop index ${d.indexname}`, []);
  const out = await run();
  const t0 = Date.now();
  // More memory for the sorts than a query's default (this session only).
  await r.rawQuery(`set maintenance_work_mem = '256MB'`, []);
  for (const d of defs) await r.rawQuery(d.indexdef, []);
  console.log(`  postgres: ${defs.length} secondary indexes of ${tablas.join(', ')} created again in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

/** Runs `bench` on SQLite, then on PostgreSQL (BENCH_ONLY=sqlite|postgres for one of them). */
export async function onBothEngines(prefix: string, bench: (r: Runner) => Promise<void>): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only !== 'postgres') {
    const r = await sqliteRunner(prefix);
    try {
      await bench(r);
    } finally {
      await r.close();
    }
  }
  if (only !== 'sqlite') {
    const r = await postgresRunner(prefix);
    if (!r) console.log('\npostgres: SKIPPED (no DATABASE_URL and no initdb/pg_ctl on PATH)');
    else {
      try {
        await bench(r);
      } finally {
        await r.close();
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// What the document benches share: the printed row, and a document read back by hand as `listado…&id=` answers it.

/** One printed row of a bench table. */
export type Row = Record<string, string | number>;

/** Medians and p95 of raw, handler (and inject, or `third`: the request over HTTP) and their ratios, as the bench tables print them. */
export function row(name: string, note: string, raw: number[], handler: number[], inject?: number[], third = 'inject'): Row {
  const r = stats(raw);
  const h = stats(handler);
  const out: Row = {
    operation: name,
    note,
    'raw p50': r.p50.toFixed(3),
    'raw p95': r.p95.toFixed(3),
    'handler p50': h.p50.toFixed(3),
    'handler p95': h.p95.toFixed(3),
    'ratio p50': (h.p50 / r.p50).toFixed(2),
    'ratio p95': (h.p95 / r.p95).toFixed(2),
  };
  if (inject) {
    const i = stats(inject);
    out[`${third} p50`] = i.p50.toFixed(3);
    out[`${third} p95`] = i.p95.toFixed(3);
    if (third !== 'inject') out[`${third} ÷ raw p50`] = (i.p50 / r.p50).toFixed(2);
  }
  return out;
}

/** The header columns of a document and its joins, as the engine's selectHeader: the party's (by type), the serie's and, for invoices, the corrected one's. */
export function headerSql(tipo: string): { columns: string; joins: string } {
  const def = DOCUMENTO_TIPOS[tipo as DocumentoTipo];
  const t = def.tercero;
  const tabla = t === 'cliente' ? 'clientes' : 'proveedores';
  let columns = `d.id, d.tipo, d.serie_id, d.numero, d.ejercicio, d.fecha, d.estado, d.almacen_id, d.almacen_destino_id, d.familia_id,
    d.ubicacion_id, d.cliente_id, d.proveedor_id, d.forma_pago, d.fecha_entrega, d.retencion, d.con_recargo, d.observaciones, d.base, d.iva, d.recargo,
    d.retencion_importe, d.total, d.desglose, d.clave, d.creado, d.modificado, d.tipo_factura, d.factura_id, d.modo_rectificacion, d.cobro_fecha,
    d.cobro_forma, d.usuario_id, ao.nombre as almacen_nombre, ad.nombre as almacen_destino_nombre`;
  let joins = 'from documentos d left join almacenes ao on ao.id = d.almacen_id left join almacenes ad on ad.id = d.almacen_destino_id';
  if (def.series) {
    columns += ', se.codigo as serie_codigo, fd.tipo as factura_tipo, fd.ejercicio as factura_ejercicio, fd.numero as factura_num, fse.codigo as factura_serie';
    joins += ' left join series se on se.id = d.serie_id left join documentos fd on fd.id = d.factura_id left join series fse on fse.id = fd.serie_id';
  }
  if (t) {
    columns += `, te.razon_social as ${t}_nombre, te.nif as ${t}_nif`;
    joins += ` left join ${tabla} te on te.id = d.${t}_id`;
  }
  return { columns, joins };
}

/**
 * A read action measured `runs` times (after 20 warm-up runs) three ways, interleaved in a rotating order so the three
 * see the same machine: its raw SQL on the driver, its handler in-process, and the whole op.asp request by inject.
 */
export async function medirLectura(
  r: Runner,
  cookie: string,
  runs: number,
  label: string,
  note: (total: number) => string,
  ac: string,
  input: (k: number) => Record<string, string>,
  raw: (k: number) => Promise<void>,
): Promise<Row> {
  const times = { raw: [] as number[], handler: [] as number[], inject: [] as number[] };
  let total = 0;
  for (let run = -20; run < runs; run++) {
    const order = [0, 1, 2].map((k) => (k + run + 30) % 3);
    for (const which of order) {
      const t0 = process.hrtime.bigint();
      if (which === 0) await raw(run + 20);
      else if (which === 1) {
        const res = await callHandler(r, ac, input(run + 20));
        if (res.RESULT !== '0') throw new Error(`${ac}: ${res.message}`);
        total = res.total ?? 0;
      } else {
        const res = await r.app.inject({ method: 'GET', url: '/api/op.asp', query: { ac, ...input(run + 20) }, headers: { cookie } });
        if (res.statusCode !== 200 || res.json().RESULT !== '0') throw new Error(res.body);
      }
      if (run >= 0) times[(['raw', 'handler', 'inject'] as const)[which]].push(ms(t0));
    }
  }
  return row(label, note(total), times.raw, times.handler, times.inject);
}

const HEADER_SQL = (d: Runner['name'], tipo: string) => {
  const h = headerSql(tipo);
  return `select ${h.columns}, f.nombre as familia_nombre, u.codigo as ubicacion_codigo, uc.nombre as creado_por_nombre
  ${h.joins} left join familias f on f.id = d.familia_id left join ubicaciones u on u.id = d.ubicacion_id
  left join usuarios uc on uc.id = d.creado_por where d.id = ${param(d, 1)} and d.tipo = ${param(d, 2)}`;
};

/** A document as `listado…&id=` answers it, by hand: header, lines with their links, history, linked documents. */
export async function rawReadBack(r: Runner, tipo: string, id: number): Promise<void> {
  const d = r.name;
  await r.rawQuery(HEADER_SQL(d, tipo), [id, tipo]);
  const lineas = (await r.rawQuery(
    `select l.id, l.orden, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precio, l.descuento, l.pendiente, l.ubicacion_id,
       u.codigo as ubicacion_codigo, l.motivo, l.teorico,
       (select min(e.padre_linea_id) from documento_enlaces e where e.linea_id = l.id) as origen_linea_id,
       (select coalesce(sum(e.cantidad), 0) from documento_enlaces e where e.padre_linea_id = l.id) as enlazado
     from documento_lineas l left join ubicaciones u on u.id = l.ubicacion_id where l.documento_id = ${param(d, 1)} order by l.orden, l.id`,
    [id],
  )) as { origen_linea_id: number | null; enlazado: number | string }[];
  await r.rawQuery(
    `select a.id, a.accion, a.fecha, us.nombre as usuario_nombre, a.deshecha_por from documento_acciones a left join usuarios us on us.id = a.usuario_id
     where a.documento_id = ${param(d, 1)} order by a.id`,
    [id],
  );
  // The linked documents, on the side the lines show links: children (what took from its lines) and parents.
  for (const [mine, other, some] of [
    ['padre_linea_id', 'linea_id', lineas.some((l) => Number(l.enlazado) > 0)],
    ['linea_id', 'padre_linea_id', lineas.some((l) => l.origen_linea_id !== null)],
  ] as const) {
    if (!some) continue;
    await r.rawQuery(
      `select distinct d.id, d.tipo, d.ejercicio, d.numero, s.codigo as serie_codigo, d.fecha, d.estado from documento_lineas l
       join documento_enlaces e on e.${mine} = l.id join documento_lineas o on o.id = e.${other} join documentos d on d.id = o.documento_id
       left join series s on s.id = d.serie_id where l.documento_id = ${param(d, 1)} order by d.id`,
      [id],
    );
  }
  // Invoices: their latest registro de facturación.
  if (DOCUMENTO_TIPOS[tipo as DocumentoTipo].series) {
    await r.rawQuery(
      `select id, tipo, huella, fecha_hora_huso, emisor, num_serie, fecha_expedicion, importe_total from registros_facturacion
       where documento_id = ${param(d, 1)} order by id desc limit 1`,
      [id],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The raw side of document writes: the statements the engine runs, by hand on the driver.

/** `(?, ?, …), (…)` for `rows` tuples of `width` parameters, numbered from `from` on PostgreSQL. */
export const tuples = (d: Runner['name'], rows: number, width: number, from = 1) =>
  Array.from({ length: rows }, (_, k) => `(${Array.from({ length: width }, (_, j) => param(d, from + k * width + j)).join(', ')})`).join(', ');

/**
 * The next number of a counter, locking its row until the transaction ends (siguienteNumero): `update … returning`, the
 * row created on the year's first. `enSerie` (an invoice's emission): a date before the serie's last is refused.
 */
export async function rawSiguienteNumero(r: Runner, tipo: string, serieId: number, fecha: string, enSerie = false): Promise<number> {
  const d = r.name;
  const ejercicio = Number(fecha.slice(0, 4));
  const [c] = (await r.rawQuery(
    `update contadores set ultimo = ultimo + 1, ultima_fecha = case when ultima_fecha is null or ultima_fecha < ${param(d, 1)} then ${param(d, 2)} else ultima_fecha end
     where tipo = ${param(d, 3)} and serie_id = ${param(d, 4)} and ejercicio = ${param(d, 5)}${enSerie ? ` and (ultima_fecha is null or ultima_fecha <= ${param(d, 6)})` : ''} returning ultimo`,
    [fecha, fecha, tipo, serieId, ejercicio, ...(enSerie ? [fecha] : [])],
  )) as { ultimo: number }[];
  if (c) return Number(c.ultimo);
  const donde = `tipo = ${param(d, 1)} and serie_id = ${param(d, 2)} and ejercicio = ${param(d, 3)}`;
  if ((await r.rawQuery(`select ultimo from contadores where ${donde}`, [tipo, serieId, ejercicio])).length) throw new Error(`${tipo}: date before the serie's last`);
  await r.rawQuery(`insert into contadores (tipo, serie_id, ejercicio, ultimo, ultima_fecha) values ${tuples(d, 1, 5)}`, [tipo, serieId, ejercicio, 1, fecha]);
  return 1;
}

export type LineaRaw = { articulo_id: number; codigo: string; descripcion: string; tipo_iva: string; cantidad: number; precio: number; descuento: number; pendiente: number };

/** A document's lines in one multi-row insert; with `ids`, their ids in order (RETURNING promises no order), as the engine reads them to link them. */
export async function rawInsertarLineas(r: Runner, docId: number, lineas: LineaRaw[], ids = false): Promise<number[]> {
  const d = r.name;
  await r.rawQuery(
    `insert into documento_lineas (documento_id, orden, articulo_id, codigo, descripcion, tipo_iva, cantidad, precio, descuento, pendiente) values ${tuples(d, lineas.length, 10)}`,
    lineas.flatMap((l, k) => [docId, k + 1, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precio, l.descuento, l.pendiente]),
  );
  if (!ids) return [];
  return ((await r.rawQuery(`select id from documento_lineas where documento_id = ${param(d, 1)} order by orden`, [docId])) as { id: number }[]).map((l) => Number(l.id));
}

/** Line links [child line, parent line, cantidad] in one multi-row insert. */
export async function rawEnlaces(r: Runner, enlaces: [number, number, number][]): Promise<void> {
  if (!enlaces.length) return;
  await r.rawQuery(`insert into documento_enlaces (linea_id, padre_linea_id, cantidad) values ${tuples(r.name, enlaces.length, 3)}`, enlaces.flat());
}

/**
 * A document's stock from its lines in one `insert … select`: ±cantidad at the net unit price, with the action that moved it (or null: a save).
 * `soloDirectas`: only the lines no link ties to a parent (an invoice's direct sales).
 */
export async function rawStockDeLineas(
  r: Runner,
  mov: { tipo: string; docId: number; almacen: number; signo: 1 | -1; causa: string; accionId: number | null; fecha: string; soloDirectas?: boolean },
): Promise<void> {
  const d = r.name;
  const directas = mov.soloDirectas ? ' and not exists (select 1 from documento_enlaces e where e.linea_id = l.id)' : '';
  await r.rawQuery(
    `insert into stock_movimientos (articulo_id, almacen_id, cantidad, causa, documento_tipo, documento_id, documento_linea_id, accion_id, fecha, precio)
     select l.articulo_id, ${param(d, 1)}, ${mov.signo < 0 ? '-' : ''}l.cantidad, ${param(d, 2)}, ${param(d, 3)}, l.documento_id, l.id, cast(${param(d, 4)} as integer), ${param(d, 5)},
       (l.precio * (10000 - l.descuento) + 5000) / 10000
     from documento_lineas l where l.documento_id = ${param(d, 6)}${directas} order by l.orden`,
    [mov.almacen, mov.causa, mov.tipo, mov.accionId, mov.fecha, mov.docId],
  );
}
