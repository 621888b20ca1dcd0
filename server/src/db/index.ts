import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { Database } from './schema.ts';
import { nombresDeConexion } from './nombradas.ts';
import { startCheckpointer } from './checkpoint.ts';

export type DialectName = 'sqlite' | 'postgres';

export type Db = {
  db: Kysely<Database>;
  dialect: DialectName;
  close: () => Promise<void>;
};

/**
 * A second, read-only SQLite connection for the reads every request makes (session, configuration).
 * It runs them synchronously, skipping Kysely's async connection queue, and — being a separate
 * connection under WAL — sees only committed data, never another request's open transaction.
 */
export type SqliteReader = {
  all<R>(sql: string, parameters: readonly unknown[]): R[];
  /**
   * Changes whenever the data the caches hold (sessions, users, configuration: anything but the business data of
   * NO_CACHEADAS) may have changed: at once after such a write of this process and after the commit that follows it,
   * and within a second after another process's commit (PRAGMA data_version, checked once a second).
   */
  version(): number;
};

const readers = new WeakMap<Kysely<Database>, SqliteReader>();
const totalChanges = new WeakMap<Kysely<Database>, () => number>();

/** The synchronous reader of a SQLite database; undefined on PostgreSQL and inside transactions. */
export const readerOf = (db: Kysely<Database>): SqliteReader | undefined => readers.get(db);

/**
 * SQLite's total_changes() of the one writing connection, read synchronously: rows inserted, updated or deleted
 * since it opened. The activity log compares it around a transaction to know whether it wrote. Undefined on PostgreSQL.
 */
export const cambiosDe = (db: Kysely<Database>): (() => number) | undefined => totalChanges.get(db);

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** How often the checkpoint worker copies the WAL into the database (db/checkpoint.ts). */
const CHECKPOINT_MS = 1000;
/**
 * The main connection's own autocheckpoint, in pages: only a bound for when the worker falls behind (a 20.000-row
 * import commits ≈ 10.000 pages at once), never reached by the requests' writes between two of its checkpoints.
 */
const BACKSTOP_PAGES = 20_000;

/** Opens SQLite under dataDir, or PostgreSQL when a URL is given. */
export function openDatabase(opts: { dataDir: string; databaseUrl?: string; log?: { error(obj: object, msg: string): void } }): Db {
  if (opts.databaseUrl) {
    // count() and sum() come back as int8/numeric; cents stay far below 2^53, so numbers are exact.
    const types = {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    };
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, types });
    // Every parameterised statement goes as a named prepared statement, parsed and planned once per connection: the
    // hot paths' fixed ones (compiledQuery) and the last 200 other texts each connection ran (db/nombradas.ts). An
    // unnamed statement is parsed, analysed and planned on every call (0,1-2 ms, more than most of them take to run).
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
      const nombre = nombresDeConexion((viejo) => {
        if (parsed) delete parsed[viejo];
        query(`deallocate ${viejo}`).catch(() => {});
      });
      (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
        const values = rest[0];
        return typeof text === 'string' && Array.isArray(values) && values.length
          ? query({ name: nombre(text), text, values }, ...rest.slice(1))
          : query(text, ...rest);
      };
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const fileName = path.join(opts.dataDir, 'manager.sqlite');
  const file = new SQLite(fileName);
  file.pragma('journal_mode = WAL');
  // A committed invoice survives a power cut: every commit syncs the WAL (NORMAL syncs only at checkpoints, so the
  // last commits before a power loss could vanish and their numbers be issued again). See docs/servidor.md, Durability.
  file.pragma('synchronous = FULL');
  file.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  // After a checkpoint of a large burst, the WAL file is cut back to 64 MiB when the WAL restarts.
  file.pragma('journal_size_limit = 67108864');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.function('translate', { deterministic: true }, translate);
  let writes = 0;
  // A transaction that wrote what a cache holds changes the version again when it ends: a read between its write and
  // its commit still saw the old data.
  let pending = false;
  const onWrite = (efecto: Efecto) => {
    if (efecto === 'cachea') {
      writes++;
      // Outside a transaction the statement committed itself.
      pending = file.inTransaction;
    } else if (efecto === 'fin' && pending) {
      writes++;
      pending = false;
    }
  };
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(file, onWrite) }),
  });
  const total = file.prepare('select total_changes()').pluck();
  totalChanges.set(db, () => total.get() as number);
  const checkpointer = startCheckpointer(fileName, CHECKPOINT_MS, (message) => opts.log?.error({ message }, 'WAL checkpoint failed'));
  let readerFile: SQLite.Database | undefined;
  // Opened on first use: after the migrations, once the file and its WAL exist.
  const open = () => {
    readerFile ??= new SQLite(fileName, { readonly: true, fileMustExist: true });
    return readerFile;
  };
  const statements = new Map<string, SQLite.Statement>();
  let dataVersion: SQLite.Statement | undefined;
  let external = 0;
  let checkedAt = 0;
  readers.set(db, {
    all<R>(sql: string, parameters: readonly unknown[]) {
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = open().prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt.all(...parameters) as R[];
    },
    version() {
      const now = Date.now();
      if (now - checkedAt >= 1000) {
        // On the main connection: it changes with other processes' commits only, not with this one's own.
        dataVersion ??= file.prepare('pragma data_version').pluck();
        external = dataVersion.get() as number;
        checkedAt = now;
      }
      return writes + external * 2 ** 32;
    },
  });
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      await checkpointer.stop();
      readerFile?.close();
      // The last connection to close checkpoints the rest of the WAL and removes it.
      await db.destroy();
    },
  };
}

const translations = new Map<string, { map: Map<string, string>; ascii: boolean }>();

/**
 * PostgreSQL's `translate(text, from, to)` for SQLite, so one SQL folds accents on both engines
 * (db/consulta.ts `contains`): each character of `from` in `text` becomes the one at the same
 * place in `to`, or goes when `to` is shorter. Plain ASCII text returns at once when `from` has none.
 */
function translate(text: unknown, from: unknown, to: unknown): string | null {
  if (text === null || text === undefined) return null;
  const s = String(text);
  const key = `${from}\u0000${to}`;
  let t = translations.get(key);
  if (!t) {
    const f = [...String(from)];
    const target = [...String(to)];
    const map = new Map<string, string>();
    for (let i = f.length - 1; i >= 0; i--) map.set(f[i], target[i] ?? '');
    t = { map, ascii: f.some((c) => c.charCodeAt(0) < 128) };
    translations.set(key, t);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range
  if (!t.ascii && /^[\x00-\x7f]*$/.test(s)) return s;
  let out = '';
  for (const ch of s) out += t.map.get(ch) ?? ch;
  return out;
}

/**
 * The business data no cache of the reader's version holds (session, users, configuration do): a save, an emission
 * or a stock movement writes only these, so the next request's session and flags stay cached. Their triggers write
 * only among them (stock_total, the search tables). A table not listed counts as cached (the safe side).
 */
const NO_CACHEADAS = new Set([
  'documentos', 'documento_lineas', 'documento_enlaces', 'documento_acciones', 'contadores', 'stock_movimientos', 'parte_horas',
  'registros_facturacion', 'registros_cadena', 'articulos', 'articulo_ubicaciones', 'articulo_componentes', 'articulo_materiales',
  'articulo_procesos', 'articulo_proporciones', 'facturas_proveedor', 'facturas_proveedor_documentos', 'clientes', 'proveedores',
  // The activity log, written with every change: no cache reads it.
  'actividad',
  // Issue 26: supplier payments and remesas, written with the invoices they pay.
  'pagos_proveedor', 'remesas', 'remesa_recibos',
  // The TPV's sales and cash (issue 13); terminals and buttons stay cached (configuration-like).
  'tpv_cajas', 'tpv_cierres', 'tpv_movimientos', 'tpv_tickets', 'tpv_pagos', 'tpv_incidencias', 'tpv_vales',
  // The reports' aggregates and the stock per warehouse (migration 0019), written with the documents and the ledger.
  'informe_ventas_dia', 'informe_ventas_articulo', 'informe_pendientes', 'stock_almacen',
  // The per month × article sums (migration 0028): sales, written with the per-document rows; purchases, by the ledger's triggers.
  'informe_ventas_articulo_mes', 'informe_compras_mes',
]);

/** What a statement other than a plain select does to the cached data: nothing, may change it, or ends a transaction. */
type Efecto = 'nada' | 'cachea' | 'fin';

function efectoDe(sqlText: string): Efecto {
  // The end of the whole transaction; not `rollback to` a savepoint, after which it goes on.
  if (/^\s*(commit|end)\b|^\s*rollback\b(?!\s+to\b)/i.test(sqlText)) return 'fin';
  if (/^\s*(begin|savepoint|release|rollback)\b/i.test(sqlText)) return 'nada';
  const tabla = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?/i.exec(sqlText)?.[1];
  return tabla && NO_CACHEADAS.has(tabla) ? 'nada' : 'cachea';
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small query, so the
 * statements of the (few, parameterised) query shapes are kept and reused. Every statement that
 * may change data (writes, RETURNING, begin/commit) reports what it does to the cached data (`onWrite`) after it ran.
 */
function withStatementCache(file: SQLite.Database, onWrite: (efecto: Efecto) => void, max = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const wrap = (sqlText: string): SqliteStatement => {
    const stmt = file.prepare(sqlText);
    if (stmt.reader && /^\s*select\b/i.test(sqlText)) return stmt as unknown as SqliteStatement;
    const efecto = efectoDe(sqlText);
    return {
      reader: stmt.reader,
      all(parameters) {
        const rows = stmt.all(parameters);
        onWrite(efecto);
        return rows;
      },
      run(parameters) {
        const result = stmt.run(parameters);
        onWrite(efecto);
        return result;
      },
      iterate: (parameters) => stmt.iterate(parameters),
    };
  };
  return {
    close: () => file.close(),
    prepare(sqlText: string) {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = wrap(sqlText);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
  };
}
