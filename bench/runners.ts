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
import { validate } from 'shared/domain';
import { createRegistry } from '../server/src/actions/index.ts';
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
};

/** `?` on SQLite, `$i` on PostgreSQL. */
export const param = (dialect: Runner['name'], i: number) => (dialect === 'sqlite' ? '?' : `$${i}`);

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

export async function sqliteRunner(prefix: string): Promise<Runner> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const app = await buildApp({ dataDir, staticRoot: dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
  let raw: SQLite.Database | undefined;
  const statements = new Map<string, SQLite.Statement>();
  const rawQuery = async (sql: string, params: unknown[]) => {
    raw ??= new SQLite(path.join(dataDir, 'manager.sqlite'));
    raw.pragma('busy_timeout = 5000');
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
      if (KEEP) console.log(`sqlite: kept ${path.join(dataDir, 'manager.sqlite')}`);
      else fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** DATABASE_URL (in a schema of its own, dropped afterwards), or a throwaway cluster like the server's tests. */
async function postgresUrl(prefix: string): Promise<{ url: string; stop: () => Promise<void> } | null> {
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
