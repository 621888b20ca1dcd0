import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/index.ts';

const run = promisify(execFile);

/**
 * The upgrade's backup (issue 22): before the first pending migration runs on a database that has data, a copy of the
 * database exactly as the previous version left it — the whole file on SQLite (`VACUUM INTO`), `pg_dump` of this
 * installation's schema on PostgreSQL (the JSON backup can't be used: its tables are the new version's). Written under
 * a temporary name and renamed once checked: the SQLite copy opens, passes `integrity_check` and has the steps done;
 * the dump is listed by `pg_restore --list` with its tables' data. If it can't be taken, nothing is migrated and the
 * server does not start (main.ts says why). These files are not pruned: remove them once the new version is trusted.
 */
export async function copiaAntesDeMigrar(
  // biome-ignore lint/suspicious/noExplicitAny: the database before migrating is not today's schema.
  db: Kysely<any>,
  dialect: DialectName,
  opts: { dir: string; dataDir: string; databaseUrl?: string },
  info: { pendientes: string[]; hechas: number },
): Promise<string> {
  await fs.mkdir(opts.dir, { recursive: true, mode: 0o700 });
  const sello = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const ultimo = (await db.selectFrom('kysely_migration').select('name').orderBy('name', 'desc').executeTakeFirst())?.name ?? 'vacia';
  const base = `antes-de-migrar-${sello}-${ultimo}`;
  if (dialect === 'sqlite') {
    const file = path.join(opts.dir, `${base}.sqlite`);
    const tmp = `${file}.tmp`;
    await fs.rm(tmp, { force: true });
    await sql`vacuum into ${tmp}`.execute(db);
    const copia = new SQLite(tmp, { readonly: true, fileMustExist: true });
    try {
      const integridad = copia.pragma('integrity_check', { simple: true });
      const pasos = copia.prepare('select count(*) from kysely_migration').pluck().get() as number;
      if (integridad !== 'ok' || pasos !== info.hechas) throw new Error(`la copia ${path.basename(file)} no se puede leer entera`);
    } finally {
      copia.close();
    }
    await fs.rename(tmp, file);
    return file;
  }
  const file = path.join(opts.dir, `${base}.pgdump`);
  const tmp = `${file}.tmp`;
  const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s;
  // The password goes in the environment, not on the command line (visible to every user in `ps`).
  const url = new URL(opts.databaseUrl!);
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(url.password) };
  url.password = '';
  // libpq reads %20 as a space but not «+» (what URLSearchParams writes for one, e.g. in options=-c search_path=…).
  url.search = url.search.replace(/\+/g, '%20');
  try {
    await run('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${tmp}`, `--dbname=${url.toString()}`], { env });
    const { stdout } = await run('pg_restore', ['--list', tmp], { maxBuffer: 64 * 1024 * 1024 });
    if (!new RegExp(`TABLE DATA ${schema} kysely_migration\\b`).test(stdout)) throw new Error(`la copia ${path.basename(file)} no tiene los datos`);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('no se encuentra pg_dump: instale el cliente de PostgreSQL (postgresql-client) de la misma versión que el servidor o superior');
    throw new Error(`pg_dump no pudo hacer la copia: ${(e.stderr ?? e.message).trim()}`);
  }
  await fs.rename(tmp, file);
  return file;
}
