import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { ADMIN, backends, createTestApp, expectCleanAnswer } from './helpers.ts';
import type { TestApp } from './helpers.ts';

const CONFIG_MENU = { name: 'mf_config', prefix: '/config', group: 'Configuración', entries: [{ path: '', label: 'Configuración' }] };
const CDN_MENU = { name: 'mf_cdn', prefix: '/cdn', group: 'Informes', module: 'ventas', entries: [] };

/** A repository root with a built shell, one built remote, one missing and one on a CDN. */
function fixtureRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-static-'));
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  };
  write('shell/dist/index.html', '<!doctype html><title>Manager TPV</title><div id="root"></div>');
  write('shell/dist/main.3f2a1b9c.js', 'console.log(1)');
  write('mf-config/dist/menu.json', JSON.stringify(CONFIG_MENU));
  write('mf-config/dist/mf-manifest.json', '{"id":"mf_config"}');
  write('mf-cdn/dist/menu.json', JSON.stringify(CDN_MENU));
  write(
    'deploy.json',
    JSON.stringify({
      remotes: [
        { name: 'mf_config', dist: 'mf-config/dist', url: '/remotes/mf-config/' },
        { name: 'mf_ventas', dist: 'mf-ventas/dist', url: '/remotes/mf-ventas/' },
        { name: 'mf_cdn', dist: 'mf-cdn/dist', url: 'https://cdn.example.es/mf-cdn/' },
      ],
      almacenHosts: ['almacen.localhost'],
    }),
  );
  return root;
}

describe('HTTP: static hosting, deploy, headers, origin and heartbeat', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = fixtureRoot();
    t = await createTestApp({ name: 'sqlite' }, { staticRoot: root, publicUrl: 'https://tpv.example.es' });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('sets the security headers, with a CSP allowing exactly the remote origins', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/deploy.json' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://cdn.example.es;");
    expect(csp).toContain("connect-src 'self' https://cdn.example.es;");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('describes the deploy: built remotes with their manifest, missing ones skipped, branding by host', async () => {
    const info = (await t.app.inject({ method: 'GET', url: '/api/deploy.json' })).json();
    expect(info.remotes).toEqual([
      { ...CONFIG_MENU, manifest: '/remotes/mf-config/mf-manifest.json' },
      { ...CDN_MENU, manifest: 'https://cdn.example.es/mf-cdn/mf-manifest.json' },
    ]);
    expect(info.branding).toEqual({ title: 'Manager TPV', logo: '/branding/manager-tpv.svg', favicon: '/branding/favicon-tpv.svg' });
    const almacen = (await t.app.inject({ method: 'GET', url: '/api/deploy.json', headers: { host: 'almacen.localhost:3000' } })).json();
    expect(almacen.branding).toEqual({ title: 'Manager Almacén', logo: '/branding/manager-almacen.svg', favicon: '/branding/favicon-almacen.svg' });
  });

  it('serves the shell, with index.html (no-cache) for any unknown page and hashed files long-cached', async () => {
    const index = await t.app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<title>Manager TPV</title>');
    expect(index.headers['cache-control']).toBe('no-cache');
    const deep = await t.app.inject({ method: 'GET', url: '/ventas/factura/12?x=1' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toBe(index.body);
    expect(deep.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject({ method: 'GET', url: '/main.3f2a1b9c.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('keeps search engines out: robots.txt disallows everything and every answer says noindex', async () => {
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
    for (const url of ['/', '/ventas/factura/12', '/api/deploy.json', '/remotes/mf-config/mf-manifest.json']) {
      expect((await t.app.inject({ method: 'GET', url })).headers['x-robots-tag']).toBe('noindex');
    }
  });

  it('serves each built remote at its URL; unknown /api, /remotes and /archivos paths are 404 JSON', async () => {
    const manifest = await t.app.inject({ method: 'GET', url: '/remotes/mf-config/mf-manifest.json' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    for (const url of ['/api/nada', '/remotes/mf-ventas/mf-manifest.json', '/archivos/no-es-uuid']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(expectCleanAnswer(res).RESULT).not.toBe('0');
    }
  });

  it('refuses state-changing requests from another origin, accepts its own and the public URL', async () => {
    const login = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/op.asp?ac=identificar', headers: { host: 'localhost:3000', ...headers }, payload: ADMIN });
    const evil = await login({ origin: 'https://evil.example.com' });
    expect(evil.statusCode).toBe(403);
    expect(expectCleanAnswer(evil)).toEqual({ RESULT: '1', message: MESSAGES.forbiddenOrigin });
    expect(evil.cookies).toHaveLength(0);
    expect((await login({ origin: 'null' })).statusCode).toBe(403);
    expect((await login({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await login({ origin: 'http://localhost:3000' })).json().RESULT).toBe('0');
    expect((await login({ origin: 'https://tpv.example.es' })).json().RESULT).toBe('0');
    expect((await login({ 'sec-fetch-site': 'same-origin' })).json().RESULT).toBe('0');
    // Reads are not state-changing: a cross-site GET is answered (the cookie is SameSite anyway).
    expect((await t.app.inject({ method: 'GET', url: '/api/deploy.json', headers: { origin: 'https://evil.example.com' } })).statusCode).toBe(200);
  });

  it('heartbeat: a tiny page that reloads every minute and tells the parent, under its own nonce CSP', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/api/logueado.asp' });
    expect(anon.statusCode).toBe(200);
    expect(anon.headers['content-type']).toContain('text/html');
    expect(anon.body).toContain('<meta http-equiv="refresh" content="60">');
    expect(anon.body).toContain("parent.postMessage({ tipo: 'logueado', logueado: false }, location.origin)");
    const nonce = /<script nonce="([^"]+)">/.exec(anon.body)![1];
    expect(String(anon.headers['content-security-policy'])).toContain(`script-src 'nonce-${nonce}'`);

    const cookie = await t.login();
    const logged = await t.app.inject({ method: 'GET', url: '/api/logueado.asp', headers: { cookie } });
    expect(logged.body).toContain('logueado: true');
    const nonce2 = /<script nonce="([^"]+)">/.exec(logged.body)![1];
    expect(nonce2).not.toBe(nonce);
  });

  it('sessions slide on use (12 h) but the heartbeat does not extend them', async () => {
    const cookie = await t.login();
    const db = t.app.manager.db;
    const inOneHour = new Date(Date.now() + 3600_000).toISOString();
    await db.updateTable('sesiones').set({ expira: inOneHour }).execute();
    await t.app.inject({ method: 'GET', url: '/api/logueado.asp', headers: { cookie } });
    const after = await db.selectFrom('sesiones').select('expira').execute();
    expect(after.every((s) => s.expira === inOneHour)).toBe(true);

    await t.op('listadoconfiguraciones', { cookie });
    const slid = await db.selectFrom('sesiones').select('expira').orderBy('expira', 'desc').executeTakeFirstOrThrow();
    expect(Date.parse(slid.expira) - Date.now()).toBeGreaterThan(11.9 * 3600_000);
  });

  it('answers malformed JSON with 400 RESULT 1, and an empty JSON body as an empty input', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/op.asp?ac=identificar',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.invalidRequest });
    const empty = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=cerrarsesion', headers: { 'content-type': 'application/json' } });
    expect(empty.json()).toEqual({ RESULT: '0', data: [] });
  });
});

describe('HTTP: shell not built', () => {
  it('answers / with a Spanish hint to run pnpm build', async () => {
    const t = await createTestApp({ name: 'sqlite' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toBe(MESSAGES.notBuilt);
      expect((await t.app.inject({ method: 'GET', url: '/robots.txt' })).body).toBe('User-agent: *\nDisallow: /\n');
      const info = (await t.app.inject({ method: 'GET', url: '/api/deploy.json' })).json();
      expect(info.remotes).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe.each(backends())('unexpected errors ($name)', (backend) => {
  it('answer 500 with the generic Spanish message: no stack trace, no SQL', async () => {
    const t = await createTestApp(backend);
    try {
      const cookie = await t.login();
      await (backend.name === 'postgres' ? sql`drop table documentos cascade` : sql`drop table documentos`).execute(t.app.manager.db);
      const res = await t.op('graficoinicio', { cookie });
      expect(res.statusCode).toBe(500);
      expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.unexpectedError });
      expect(res.body).not.toMatch(/documentos|stack|\.ts/);
    } finally {
      await t.close();
    }
  });
});

describe('SQLite: changes made by another process', () => {
  it('are seen within a second (sessions and configuration are cached between writes)', async () => {
    const t = await createTestApp({ name: 'sqlite' });
    const { default: SQLite } = await import('better-sqlite3');
    const other = new SQLite(path.join(t.dataDir, 'manager.sqlite'));
    try {
      const cookie = await t.login();
      expect((await t.op('listadoseries', { cookie })).statusCode).toBe(200);
      other.prepare('update configuracion set conf_ventas = 0').run();
      await new Promise((r) => setTimeout(r, 1100));
      expect((await t.op('listadoseries', { cookie })).statusCode).toBe(403);
      other.prepare('delete from sesiones').run();
      await new Promise((r) => setTimeout(r, 1100));
      expect((await t.op('listadoconfiguraciones', { cookie })).statusCode).toBe(401);
    } finally {
      other.close();
      await t.close();
    }
  });
});
