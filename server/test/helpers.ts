import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { BuildAppOptions } from '../src/app.ts';

/** A real 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export const ADMIN = { email: 'admin@demo.es', password: 'Admin-prueba-2026' };

export type Backend = { name: 'sqlite' | 'postgres'; url?: string };

/** SQLite always; PostgreSQL too when the global setup found or started one. */
export function backends(): Backend[] {
  const url = inject('pgUrl');
  return url ? [{ name: 'sqlite' }, { name: 'postgres', url }] : [{ name: 'sqlite' }];
}

export type TestApp = {
  app: FastifyInstance;
  dataDir: string;
  /** Logs in and returns the cookie header for later requests. */
  login(email?: string, password?: string): Promise<string>;
  /** `/api/op.asp?ac=...` with a session cookie; GET puts input in the query, POST in the body. */
  op(ac: string, opts?: { cookie?: string; method?: 'GET' | 'POST'; body?: unknown; query?: Record<string, string>; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
};

/** An empty database: a temp folder for SQLite, a fresh schema for PostgreSQL (`databaseUrl` points at it). */
export async function freshDatabase(backend: Backend): Promise<{ dataDir: string; databaseUrl?: string; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-test-'));
  if (backend.name !== 'postgres') return { dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: backend.url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const u = new URL(backend.url!);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dataDir,
    databaseUrl: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: backend.url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh app on a fresh database: a temp folder for SQLite, a fresh schema for PostgreSQL. */
export async function createTestApp(backend: Backend, extra: Partial<BuildAppOptions> = {}): Promise<TestApp> {
  const { dataDir, databaseUrl, drop } = await freshDatabase(backend);
  const app = await buildApp({
    dataDir,
    databaseUrl,
    staticRoot: extra.staticRoot ?? dataDir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    // The demo's opening stock and second warehouse would change what the suites count; almacenes.test.ts checks it apart.
    demoStock: false,
    // As MANAGER_DEMO=0: no generated past (demo.test.ts turns it on).
    demo: false,
    ...extra,
  });

  const op: TestApp['op'] = (ac, o = {}) => {
    const method = o.method ?? (o.body === undefined ? 'GET' : 'POST');
    const req: InjectOptions = {
      method,
      url: '/api/op.asp',
      query: { ac, ...(o.query ?? {}) },
      headers: { ...(o.cookie ? { cookie: o.cookie } : {}), ...(o.headers ?? {}) },
    };
    if (o.body !== undefined) req.payload = o.body as InjectOptions['payload'];
    return app.inject(req);
  };

  return {
    app,
    dataDir,
    op,
    async login(email = ADMIN.email, password = ADMIN.password) {
      const res = await op('identificar', { body: { email, password } });
      const c = res.cookies.find((x) => x.name === 'mtpv_sesion');
      if (res.json().RESULT !== '0' || !c) throw new Error(`login failed: ${res.body}`);
      return `mtpv_sesion=${c.value}`;
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

/** A suite's app (see useTestApp): a TestApp, and the admin's session cookie. */
export type SuiteApp = TestApp & {
  /** `cookie=...` of the admin, logged in once before the suite's tests (unless `login: false`). */
  readonly cookie: string;
};

/**
 * The fixture of a `describe.each(backends())` suite: a fresh app on `backend` built before its tests
 * (and the admin logged in), closed after them. Call it in the describe body; use the answer in tests
 * and later hooks, where the app exists.
 */
export function useTestApp(backend: Backend, extra: Partial<BuildAppOptions> = {}, { login = true } = {}): SuiteApp {
  let current: TestApp | undefined;
  let cookie: string | undefined;
  beforeAll(async () => {
    current = await createTestApp(backend, extra);
    if (login) cookie = await current.login();
  });
  afterAll(async () => current?.close());
  const the = () => {
    if (!current) throw new Error('the suite app exists only in its tests and hooks');
    return current;
  };
  return {
    get app() {
      return the().app;
    },
    get dataDir() {
      return the().dataDir;
    },
    get cookie() {
      if (cookie === undefined) throw new Error('this suite app did not log in');
      return cookie;
    },
    login: (email, password) => the().login(email, password),
    op: (ac, opts) => the().op(ac, opts),
    close: () => the().close(),
  };
}

/** A multipart body with one file field (and, before it, some text fields). */
export function multipart(field: string, filename: string, type: string, content: Buffer, fields: Record<string, string> = {}) {
  const boundary = '----mtpv' + crypto.randomBytes(8).toString('hex');
  const texts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  const head = Buffer.from(
    `${texts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every JSON answer of op.asp: never an empty object, never a stack trace or SQL. */
export function expectCleanAnswer(res: LightMyRequestResponse): Record<string, unknown> {
  const body = res.json() as Record<string, unknown>;
  if (!body || typeof body !== 'object' || Object.keys(body).length === 0) throw new Error('empty answer');
  if (!['0', '1', '2', '3'].includes(String(body.RESULT))) throw new Error(`no RESULT in ${res.body}`);
  if (/\bat .+:\d+:\d+|select |insert into|SQLITE_|syntax error/i.test(res.body)) throw new Error(`leaks internals: ${res.body}`);
  return body;
}
