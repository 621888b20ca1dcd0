import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { buildApp } from '../src/app.ts';
import { ErrorDeConfiguracion, origenesDe, trustProxyDe } from '../src/entorno.ts';
import { trabajoPendiente } from '../src/actions/sesion.ts';
import { ADMIN, backends, useTestApp } from './helpers.ts';

/** The mails sent so far, once the recovery mails started after their answers have gone (issue 24). */
async function outboxTexts(dataDir: string): Promise<string[]> {
  await trabajoPendiente();
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

describe('the environment a deployment is started with', () => {
  it('TRUST_PROXY: unset means no proxy; a hop count; true is one hop; addresses; anything else refused with a message', () => {
    expect(trustProxyDe(undefined)).toBe(false);
    expect(trustProxyDe('')).toBe(false);
    expect(trustProxyDe('0')).toBe(false);
    expect(trustProxyDe('1')).toBe(1);
    expect(trustProxyDe('2')).toBe(2);
    expect(trustProxyDe('true')).toBe(1);
    expect(trustProxyDe('127.0.0.1, ::1')).toEqual(['127.0.0.1', '::1']);
    expect(trustProxyDe('10.0.0.0/8,loopback')).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => trustProxyDe('todos')).toThrow(/TRUST_PROXY no es válida/);
  });

  it('MANAGER_ORIGENES: origins only, each checked', () => {
    expect(origenesDe('http://tienda.local:3000/, https://tpv.ejemplo.es')).toEqual(['http://tienda.local:3000', 'https://tpv.ejemplo.es']);
    expect(() => origenesDe('tienda.local')).toThrow(ErrorDeConfiguracion);
    expect(() => origenesDe('ftp://tienda.local')).toThrow(/https:\/\//);
  });

  it('in production, a server without PUBLIC_URL refuses to start, saying what to set, before it opens the database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-prod-'));
    try {
      const started = buildApp({ dataDir, staticRoot: dataDir, production: true, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
      await expect(started).rejects.toThrow(ErrorDeConfiguracion);
      await expect(started).rejects.toThrow(/Falta PUBLIC_URL: en producción \(NODE_ENV=production\) es obligatoria/);
      expect(fs.existsSync(path.join(dataDir, 'manager.sqlite'))).toBe(false);
      await expect(buildApp({ dataDir, staticRoot: dataDir, production: true, publicUrl: 'tpv.ejemplo.es' })).rejects.toThrow(/PUBLIC_URL no es una dirección válida/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** A request as the reverse proxy forwards it: from the proxy's socket, with the X-Forwarded-For chain it received plus the client. */
const porProxy = (xff: string, extra: Record<string, string> = {}) => ({
  method: 'POST' as const,
  url: '/api/op.asp?ac=identificar',
  remoteAddress: '127.0.0.1',
  headers: { 'x-forwarded-for': xff, 'x-forwarded-proto': 'https', ...extra },
});

describe.each(backends())('behind one reverse proxy: TRUST_PROXY=1 ($name)', (backend) => {
  const t = useTestApp(backend, { trustProxy: trustProxyDe('1'), publicUrl: 'https://tpv.ejemplo.es' }, { login: false });

  it("the audit trail records the address the proxy saw, not the one the client wrote into X-Forwarded-For", async () => {
    const res = await t.app.inject({ ...porProxy('198.51.100.66, 203.0.113.20'), payload: { email: ADMIN.email, password: 'mala-clave-1' } });
    expect(res.json().message).toBe(MESSAGES.loginFailed);
    const linea = await t.app.manager.db
      .selectFrom('actividad')
      .select(['ip', 'tipo'])
      .where('tipo', '=', 'login_fallido')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(linea.ip).toBe('203.0.113.20');
    const ok = await t.app.inject({ ...porProxy('10.9.9.9, 203.0.113.21'), payload: { email: ADMIN.email, password: ADMIN.password } });
    expect(ok.json().RESULT).toBe('0');
    const sesion = await t.app.manager.db.selectFrom('sesiones').select('ip').orderBy('creada', 'desc').executeTakeFirstOrThrow();
    expect(sesion.ip).toBe('203.0.113.21');
    // The proxy said https: the session cookie is Secure.
    expect(ok.cookies.find((c) => c.name === 'mtpv_sesion')?.secure).toBe(true);
  });

  it('a client changing its own X-Forwarded-For entries on every try is still one address for the login limit', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({ ...porProxy(`192.0.2.${i}, 203.0.113.30`), payload: { email: `nadie${i}@demo.es`, password: 'x' } });
      expect(res.json().message).toBe(MESSAGES.loginFailed);
    }
    const bloqueada = await t.app.inject({ ...porProxy('192.0.2.200, 203.0.113.30'), payload: { email: ADMIN.email, password: ADMIN.password } });
    expect(bloqueada.statusCode).toBe(429);
    expect(bloqueada.json().message).toBe(MESSAGES.tooManyAttempts);
    // Another real client behind the same proxy is not blocked.
    const otra = await t.app.inject({ ...porProxy('192.0.2.200, 203.0.113.31'), payload: { email: ADMIN.email, password: ADMIN.password } });
    expect(otra.json().RESULT).toBe('0');
  });

  it('the recovery link is PUBLIC_URL whatever Host, X-Forwarded-Host or Origin the request brings', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/op.asp?ac=recordar',
      remoteAddress: '127.0.0.1',
      headers: { host: 'atacante.example', 'x-forwarded-host': 'atacante.example', 'x-forwarded-for': '203.0.113.40' },
      payload: { email: ADMIN.email },
    });
    expect(res.json().RESULT).toBe('0');
    const mail = (await outboxTexts(t.dataDir)).at(-1)!;
    expect(mail).toContain('https://tpv.ejemplo.es/recuperar-psswd?token=');
    expect(mail).not.toContain('atacante');
  });
});

describe.each(backends())('without PUBLIC_URL: only the configured origins ($name)', (backend) => {
  const t = useTestApp(backend, { origins: ['http://tienda.local:3000'], localOrigin: 'http://localhost:3100' }, { login: false });

  it('a request from a configured origin gets its link there; any other Host or Origin gets the first configured one', async () => {
    const pedir = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/op.asp?ac=recordar', headers, payload: { email: ADMIN.email } });
    await pedir({ host: 'localhost:3100', origin: 'http://localhost:3100' });
    expect((await outboxTexts(t.dataDir)).at(-1)).toContain('http://localhost:3100/recuperar-psswd?token=');
    await pedir({ host: 'tienda.local:3000', origin: 'http://tienda.local:3000' });
    expect((await outboxTexts(t.dataDir)).at(-1)).toContain('http://tienda.local:3000/recuperar-psswd?token=');
    await pedir({ host: 'atacante.example', origin: 'http://atacante.example' });
    const mail = (await outboxTexts(t.dataDir)).at(-1)!;
    expect(mail).toContain('http://tienda.local:3000/recuperar-psswd?token=');
    expect(mail).not.toContain('atacante');
  });
});

describe("TRUST_PROXY as the proxy's addresses (sqlite)", () => {
  const t = useTestApp({ name: 'sqlite' }, { trustProxy: trustProxyDe('127.0.0.1,::1') }, { login: false });

  it('through the proxy the client is the address it saw; a client reaching the port directly is its own socket, whatever it sends', async () => {
    await t.app.inject({ ...porProxy('127.0.0.1, 203.0.113.60'), payload: { email: ADMIN.email, password: 'mala-1' } });
    await t.app.inject({
      method: 'POST',
      url: '/api/op.asp?ac=identificar',
      remoteAddress: '203.0.113.61',
      headers: { 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' },
      payload: { email: ADMIN.email, password: 'mala-2' },
    });
    const ips = await t.app.manager.db.selectFrom('actividad').select('ip').where('tipo', '=', 'login_fallido').orderBy('id').execute();
    expect(ips.map((r) => r.ip)).toEqual(['203.0.113.60', '203.0.113.61']);
  });
});

const DEPLOY = path.join(import.meta.dirname, '..', 'deploy');
const hay = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

describe('the deployment files in server/deploy/', () => {
  it.runIf(hay('nginx') && hay('openssl'))('nginx.conf passes `nginx -t` (with a throwaway certificate in place of Let’s Encrypt’s)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-nginx-'));
    try {
      const cert = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=tpv.ejemplo.es',
        '-keyout', path.join(dir, 'privkey.pem'), '-out', path.join(dir, 'fullchain.pem')]);
      expect(cert.status).toBe(0);
      const sitio = fs.readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8').replaceAll('/etc/letsencrypt/live/tpv.ejemplo.es', dir);
      expect(sitio).toContain(path.join(dir, 'fullchain.pem'));
      fs.writeFileSync(path.join(dir, 'sitio.conf'), sitio);
      fs.writeFileSync(
        path.join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/sitio.conf;\n}\n`,
      );
      const r = spawnSync('nginx', ['-t', '-p', dir, '-e', `${dir}/error.log`, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
      expect(r.stderr).toContain('syntax is ok');
      expect(r.stderr).toContain('test is successful');
      expect(r.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(hay('caddy'))('Caddyfile passes `caddy validate`', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-caddy-'));
    try {
      const r = spawnSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', path.join(DEPLOY, 'Caddyfile')], {
        encoding: 'utf8',
        env: { ...process.env, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home },
      });
      expect(r.stdout + r.stderr).toContain('Valid configuration');
      expect(r.status).toBe(0);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it.runIf(hay('systemd-analyze'))('manager-tpv.service passes `systemd-analyze verify`, runs with NODE_ENV=production and is not restarted on a bad setting', () => {
    const r = spawnSync('systemd-analyze', ['verify', path.join(DEPLOY, 'manager-tpv.service')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const unidad = fs.readFileSync(path.join(DEPLOY, 'manager-tpv.service'), 'utf8');
    expect(unidad).toMatch(/^Environment=NODE_ENV=production$/m);
    expect(unidad).toMatch(/^RestartPreventExitStatus=78$/m);
    // The example settings have everything production asks for.
    const env = fs.readFileSync(path.join(DEPLOY, 'manager-tpv.env.example'), 'utf8');
    for (const v of ['PUBLIC_URL=https://', 'TRUST_PROXY=1', 'HOST=127.0.0.1', 'DATABASE_URL=postgres://', 'MANAGER_COPIAS_DIR=/']) expect(env).toContain(v);
  });

  it('a server started with NODE_ENV=production and no PUBLIC_URL exits with status 78 and says what to set', { timeout: 120_000 }, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-prod-'));
    try {
      const tsx = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
      const r = spawnSync(tsx, ['src/main.ts'], {
        cwd: path.join(import.meta.dirname, '..'),
        env: { ...process.env, NODE_ENV: 'production', PUBLIC_URL: '', DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' },
        encoding: 'utf8',
        timeout: 100_000,
      });
      expect(r.status).toBe(78);
      expect(r.stderr).toContain('Manager TPV no arranca: Falta PUBLIC_URL: en producción (NODE_ENV=production) es obligatoria');
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** A free TCP port on an address. */
function puertoLibre(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

type Respuesta = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request from 127.0.0.3 (the client) to nginx on 127.0.0.2, over https (its throwaway certificate) or http. */
function pedir(url: string, opts: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Respuesta> {
  const u = new URL(url);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? (body ? 'POST' : 'GET'),
        localAddress: '127.0.0.3',
        rejectUnauthorized: false,
        servername: 'tpv.ejemplo.es',
        headers: { host: 'tpv.ejemplo.es', ...(body ? { 'content-type': 'application/json' } : {}), ...(opts.headers ?? {}) },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          data += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the real server behind the real nginx of server/deploy/nginx.conf (TRUST_PROXY=1)', () => {
  it.runIf(hay('nginx') && hay('openssl') && process.platform === 'linux')(
    'https only, the client address nginx saw (never one it wrote), the login limit per real address, Secure cookies and PUBLIC_URL links',
    { timeout: 180_000 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-nginx-real-'));
      // The plain-JS helper the e2e suite starts the real server with (`tsx src/main.ts`, its own SQLite folder).
      const spawnServer = '../scripts/spawn-server.mjs';
      const { startServer } = (await import(spawnServer)) as {
        startServer(o: { quiet?: boolean; env?: Record<string, string> }): Promise<{ baseUrl: string; dataDir: string; stop(): Promise<void> }>;
      };
      const server = await startServer({ quiet: true, env: { TRUST_PROXY: '1', PUBLIC_URL: 'https://tpv.ejemplo.es', MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password } });
      let nginx: ReturnType<typeof spawn> | undefined;
      try {
        const cert = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=tpv.ejemplo.es',
          '-keyout', path.join(dir, 'privkey.pem'), '-out', path.join(dir, 'fullchain.pem')]);
        expect(cert.status).toBe(0);
        const [p80, p443] = [await puertoLibre('127.0.0.2'), await puertoLibre('127.0.0.2')];
        // server/deploy/nginx.conf as it is, but for this run's ports, loopback addresses and certificate.
        const sitio = fs
          .readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8')
          .replace('server 127.0.0.1:3000;', `server 127.0.0.1:${new URL(server.baseUrl).port};`)
          .replace(/^\s*listen \[::\]:\d+.*$/gm, '')
          .replace('listen 80;', `listen 127.0.0.2:${p80};`)
          .replace('listen 443 ssl http2;', `listen 127.0.0.2:${p443} ssl http2;`)
          .replaceAll('/etc/letsencrypt/live/tpv.ejemplo.es', dir);
        fs.writeFileSync(path.join(dir, 'sitio.conf'), sitio);
        fs.writeFileSync(
          path.join(dir, 'nginx.conf'),
          `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir};\n  proxy_temp_path ${dir};\n  include ${dir}/sitio.conf;\n}\n`,
        );
        nginx = spawn('nginx', ['-p', dir, '-e', `${dir}/error.log`, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
        const https443 = `https://127.0.0.2:${p443}`;
        for (let i = 0; ; i++) {
          const ok = await pedir(`${https443}/api/deploy.json`).then((r) => r.status === 200, () => false);
          if (ok) break;
          if (i > 100) throw new Error(`nginx did not start: ${fs.existsSync(`${dir}/error.log`) ? fs.readFileSync(`${dir}/error.log`, 'utf8') : ''}`);
          await new Promise((r) => setTimeout(r, 100));
        }

        const redirigida = await pedir(`http://127.0.0.2:${p80}/ventas/facturas`);
        expect(redirigida.status).toBe(301);
        expect(redirigida.headers.location).toBe('https://tpv.ejemplo.es/ventas/facturas');

        const mala = await pedir(`${https443}/api/op.asp?ac=identificar`, {
          headers: { 'x-forwarded-for': '198.51.100.66' },
          body: { email: ADMIN.email, password: 'no-es-la-clave-1' },
        });
        expect(JSON.parse(mala.body).message).toBe(MESSAGES.loginFailed);
        expect(mala.headers['strict-transport-security']).toBe('max-age=31536000');
        const buena = await pedir(`${https443}/api/op.asp?ac=identificar`, {
          headers: { 'x-forwarded-for': '198.51.100.67, 10.0.0.1' },
          body: { email: ADMIN.email, password: ADMIN.password },
        });
        expect(JSON.parse(buena.body).RESULT).toBe('0');
        const cookie = String(buena.headers['set-cookie']);
        expect(cookie).toMatch(/mtpv_sesion=.*; Secure/);

        await pedir(`${https443}/api/op.asp?ac=recordar`, {
          headers: { host: 'atacante.example', 'x-forwarded-host': 'atacante.example' },
          body: { email: ADMIN.email },
        });

        // 19 more failures, each with another X-Forwarded-For: still one address, the one nginx saw; the next is refused.
        for (let i = 0; i < 19; i++) {
          const r = await pedir(`${https443}/api/op.asp?ac=identificar`, { headers: { 'x-forwarded-for': `192.0.2.${i}` }, body: { email: `nadie${i}@demo.es`, password: 'x' } });
          expect(JSON.parse(r.body).message).toBe(MESSAGES.loginFailed);
        }
        const bloqueada = await pedir(`${https443}/api/op.asp?ac=identificar`, { headers: { 'x-forwarded-for': '192.0.2.250' }, body: { email: ADMIN.email, password: ADMIN.password } });
        expect(bloqueada.status).toBe(429);

        const db = new SQLite(path.join(server.dataDir, 'manager.sqlite'), { readonly: true });
        try {
          const ips = db.prepare("select distinct ip from actividad where tipo = 'login_fallido'").pluck().all();
          expect(ips).toEqual(['127.0.0.3']);
          expect(db.prepare('select ip from sesiones').pluck().all()).toEqual(['127.0.0.3']);
          expect(db.prepare("select count(*) from intentos_login where clave = 'ip:127.0.0.3'").pluck().get()).toBe(20);
        } finally {
          db.close();
        }
        // The server (another process) sends the recovery mail after its answer: wait for it.
        let mail = '';
        for (let i = 0; i < 50 && !mail; i++) {
          mail = (await outboxTexts(server.dataDir)).at(-1) ?? '';
          if (!mail) await new Promise((r) => setTimeout(r, 100));
        }
        expect(mail).toContain('https://tpv.ejemplo.es/recuperar-psswd?token=');
        expect(mail).not.toContain('atacante');
      } finally {
        nginx?.kill('SIGTERM');
        await server.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
