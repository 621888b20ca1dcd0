import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { Database } from './schema.ts';
import { nombreDe } from './nombradas.ts';

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
   * Changes whenever data may have changed: at once after any write or commit of this process,
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

/** Opens SQLite under dataDir, or PostgreSQL when a URL is given. */
export function openDatabase(opts: { dataDir: string; databaseUrl?: string }): Db {
  if (opts.databaseUrl) {
    // count() and sum() come back as int8/numeric; cents stay far below 2^53, so numbers are exact.
    const types = {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    };
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, types });
    // The hot paths' statements (compiledQuery) go as named prepared statements: see db/nombradas.ts.
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
        const name = typeof text === 'string' ? nombreDe(text) : undefined;
        return name && Array.isArray(rest[0]) ? query({ name, text, values: rest[0] }, ...rest.slice(1)) : query(text, ...rest);
      };
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const fileName = path.join(opts.dataDir, 'manager.sqlite');
  const file = new SQLite(fileName);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.function('translate', { deterministic: true }, translate);
  let writes = 0;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(file, () => void writes++) }),
  });
  const total = file.prepare('select total_changes()').pluck();
  totalChanges.set(db, () => total.get() as number);
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
        dataVersion ??= open().prepare('pragma data_version').pluck();
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
      readerFile?.close();
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
 * Kysely prepares every query anew; preparing costs more than running a small query, so the
 * statements of the (few, parameterised) query shapes are kept and reused. Every statement that
 * may change data (writes, RETURNING, begin/commit) reports `onWrite` after it ran.
 */
function withStatementCache(file: SQLite.Database, onWrite: () => void, max = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const wrap = (sqlText: string): SqliteStatement => {
    const stmt = file.prepare(sqlText);
    if (stmt.reader && /^\s*select\b/i.test(sqlText)) return stmt as unknown as SqliteStatement;
    return {
      reader: stmt.reader,
      all(parameters) {
        const rows = stmt.all(parameters);
        onWrite();
        return rows;
      },
      run(parameters) {
        const result = stmt.run(parameters);
        onWrite();
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
