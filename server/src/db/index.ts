import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export type Db = {
  db: Kysely<Database>;
  dialect: DialectName;
  close: () => Promise<void>;
};

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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(path.join(opts.dataDir, 'manager.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small query, so the
 * statements of the (few, parameterised) query shapes are kept and reused.
 */
function withStatementCache(file: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => file.close(),
    prepare(sqlText: string) {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = file.prepare(sqlText) as unknown as SqliteStatement;
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
  };
}
