import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
