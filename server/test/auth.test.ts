import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { trabajoPendiente } from '../src/actions/sesion.ts';
import { ADMIN, backends, createTestApp, expectCleanAnswer, useTestApp } from './helpers.ts';

/** The mails sent so far, once the recovery mails started after their answers have gone (issue 24). */
async function outboxTexts(dataDir: string): Promise<string[]> {
  await trabajoPendiente();
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

const tokenOf = (mail: string) => /\/recuperar-psswd\?token=([A-Za-z0-9_-]+)/.exec(mail)?.[1];

describe.each(backends())('sesión y acceso ($name)', (backend) => {
  const t = useTestApp(backend, {}, { login: false });

  it('logs in with good credentials: user, configuration and a safe cookie', async () => {
    const res = await t.op('identificar', { body: { email: 'Admin@Demo.es ', password: ADMIN.password } });
    expect(res.statusCode).toBe(200);
    const body = expectCleanAnswer(res);
    expect(body.RESULT).toBe('0');
    expect(body.user).toMatchObject({ email: ADMIN.email, nombre: 'Administrador' });
    expect(body.user).not.toHaveProperty('password_hash');
    const [conf] = body.data as Record<string, unknown>[];
    expect(conf.razon_social).toBe('Comercial Demo, S.L.');
    expect(conf.conf_ventas).toBe(1);
    const cookie = res.cookies.find((c) => c.name === 'mtpv_sesion')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.path).toBe('/');
    expect(cookie.secure).toBeFalsy();
  });

  it('issues a new session token at every login', async () => {
    const a = await t.login();
    const b = await t.login();
    expect(a).not.toBe(b);
  });

  it('refuses a wrong password with the Spanish message and no cookie', async () => {
    const res = await t.op('identificar', { body: { email: ADMIN.email, password: 'otra-cosa' } });
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.loginFailed });
    expect(res.cookies.find((c) => c.name === 'mtpv_sesion')).toBeUndefined();
  });

  it('answers 400 with Spanish field errors for empty credentials', async () => {
    const res = await t.op('identificar', { body: { email: '', password: '' } });
    expect(res.statusCode).toBe(400);
    expect(expectCleanAnswer(res)).toEqual({
      RESULT: '1',
      message: 'Revise los campos marcados',
      errors: { email: 'Debe introducir una dirección de correo electrónico', password: 'La contraseña no puede estar vacia' },
    });
  });

  it('answers 401 without a session, and after logout', async () => {
    const none = await t.op('listadoconfiguraciones');
    expect(none.statusCode).toBe(401);
    expect(expectCleanAnswer(none)).toEqual({ RESULT: '1', message: MESSAGES.sessionExpired });

    const cookie = await t.login();
    expect((await t.op('listadoconfiguraciones', { cookie })).statusCode).toBe(200);
    const out = await t.op('cerrarsesion', { cookie, method: 'POST' });
    expect(expectCleanAnswer(out).RESULT).toBe('0');
    const cleared = out.cookies.find((c) => c.name === 'mtpv_sesion')!;
    expect(cleared.value).toBe('');
    const after = await t.op('listadoconfiguraciones', { cookie });
    expect(after.statusCode).toBe(401);
  });

  it('treats an expired session as none', async () => {
    const cookie = await t.login();
    await t.app.manager.db.updateTable('sesiones').set({ expira: '2000-01-01T00:00:00.000Z' }).execute();
    expect((await t.op('listadoconfiguraciones', { cookie })).statusCode).toBe(401);
  });

  it('refuses an inactive user with the same message as a wrong password', async () => {
    const cookie = await t.login();
    const created = await t.op('editarusuario', {
      cookie,
      body: { nombre: 'Inactiva', email: 'inactiva@demo.es', password: 'Clave-inactiva-1', activo: 0 },
    });
    expect(created.json().RESULT).toBe('0');
    const res = await t.op('identificar', { body: { email: 'inactiva@demo.es', password: 'Clave-inactiva-1' } });
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.loginFailed });
  });

  it('rate-limits: the 6th try after 5 failures for one email gets 429, even with the right password', async () => {
    const email = 'limite@demo.es';
    const cookie = await t.login();
    await t.op('editarusuario', { cookie, body: { nombre: 'Límite', email, password: 'Clave-limite-1' } });
    for (let i = 0; i < 5; i++) {
      const res = await t.op('identificar', { body: { email, password: 'mal' }, headers: {} });
      expect(res.json().message).toBe(MESSAGES.loginFailed);
    }
    const blocked = await t.op('identificar', { body: { email, password: 'Clave-limite-1' } });
    expect(blocked.statusCode).toBe(429);
    expect(expectCleanAnswer(blocked)).toEqual({ RESULT: '1', message: MESSAGES.tooManyAttempts });
    const rows = await t.app.manager.db.selectFrom('intentos_login').selectAll().where('clave', '=', `email:${email}`).execute();
    expect(rows).toHaveLength(5);
    // Other users are not affected.
    expect((await t.op('identificar', { body: { email: ADMIN.email, password: ADMIN.password } })).json().RESULT).toBe('0');
  });

  it('rate-limits by IP after 20 failures, whatever the email', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/op.asp?ac=identificar',
        remoteAddress: ip,
        payload: { email: `nadie${i}@demo.es`, password: 'x' },
      });
      expect(res.statusCode).toBe(200);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/op.asp?ac=identificar',
      remoteAddress: ip,
      payload: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/op.asp?ac=identificar',
      remoteAddress: '203.0.113.8',
      payload: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(elsewhere.json().RESULT).toBe('0');
  });

  it('without PUBLIC_URL, the recovery link points at this machine, never at the Host the request names', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/op.asp?ac=recordar',
      headers: { host: 'tienda.local:3000', origin: 'http://tienda.local:3000' },
      payload: { email: ADMIN.email },
    });
    expect(res.json().RESULT).toBe('0');
    const mail = (await outboxTexts(t.dataDir)).at(-1)!;
    expect(mail).toContain('http://localhost:3000/recuperar-psswd?token=');
    expect(mail).not.toContain('tienda.local');
  });

  it('refuses GET for state-changing actions and unknown actions with 400', async () => {
    const get = await t.op('identificar', { method: 'GET', query: { email: ADMIN.email, password: ADMIN.password } });
    expect(get.statusCode).toBe(405);
    expect(expectCleanAnswer(get).RESULT).toBe('1');
    const unknown = await t.op('borrartodo', { method: 'POST', body: {} });
    expect(unknown.statusCode).toBe(400);
    expect(expectCleanAnswer(unknown)).toEqual({ RESULT: '1', message: MESSAGES.unknownAction });
    const missing = await t.app.inject({ method: 'GET', url: '/api/op.asp' });
    expect(missing.statusCode).toBe(400);
  });
});

describe('cookie behind an https reverse proxy', () => {
  it('is Secure when the request came over https, and not otherwise', async () => {
    const t = await createTestApp({ name: 'sqlite' }, { trustProxy: true });
    try {
      const login = (proto: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/op.asp?ac=identificar',
          headers: { 'x-forwarded-proto': proto },
          payload: { email: ADMIN.email, password: ADMIN.password },
        });
      const https = (await login('https')).cookies.find((c) => c.name === 'mtpv_sesion')!;
      expect(https.secure).toBe(true);
      expect(https.httpOnly).toBe(true);
      const http = (await login('http')).cookies.find((c) => c.name === 'mtpv_sesion')!;
      expect(http.secure).toBeFalsy();
    } finally {
      await t.close();
    }
  });
});

describe.each(backends())('recuperación de contraseña ($name)', (backend) => {
  const t = useTestApp(backend, { publicUrl: 'https://tpv.example.es' }, { login: false });

  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const known = await t.op('recordar', { body: { email: ADMIN.email } });
    const unknown = await t.op('recordar', { body: { email: 'nadie@demo.es' } });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ RESULT: '0', message: MESSAGES.recoverySent, data: [] });
    const mails = await outboxTexts(t.dataDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${ADMIN.email}`);
    expect(mails[0]).toContain('https://tpv.example.es/recuperar-psswd?token=');
  });

  it('resets the password once with the mailed token, ending existing sessions', async () => {
    const cookie = await t.login();
    await t.op('recordar', { body: { email: ADMIN.email } });
    const token = tokenOf((await outboxTexts(t.dataDir)).at(-1)!)!;
    expect(token).toBeTruthy();

    const short = await t.op('restablecer', { body: { token, password: 'corta' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual({ password: MESSAGES.passwordTooShort });

    const ok = await t.op('restablecer', { body: { token, password: 'Nueva-clave-2026' } });
    expect(expectCleanAnswer(ok)).toMatchObject({ RESULT: '0', message: MESSAGES.passwordChanged });
    expect((await t.op('listadoconfiguraciones', { cookie })).statusCode).toBe(401);
    expect((await t.op('identificar', { body: { email: ADMIN.email, password: ADMIN.password } })).json().RESULT).toBe('1');
    await t.login(ADMIN.email, 'Nueva-clave-2026');

    const again = await t.op('restablecer', { body: { token, password: 'Otra-clave-2026' } });
    expect(expectCleanAnswer(again)).toEqual({ RESULT: '1', message: MESSAGES.recoveryInvalid });

    // Put the original password back for the other tests.
    await t.op('recordar', { body: { email: ADMIN.email } });
    const back = tokenOf((await outboxTexts(t.dataDir)).at(-1)!)!;
    expect((await t.op('restablecer', { body: { token: back, password: ADMIN.password } })).json().RESULT).toBe('0');
  });

  it('refuses an expired token and an invented one', async () => {
    await t.op('recordar', { body: { email: ADMIN.email } });
    const token = tokenOf((await outboxTexts(t.dataDir)).at(-1)!)!;
    await t.app.manager.db.updateTable('recuperaciones').set({ expira: '2000-01-01T00:00:00.000Z' }).execute();
    const expired = await t.op('restablecer', { body: { token, password: 'Nueva-clave-2026' } });
    expect(expired.json()).toEqual({ RESULT: '1', message: MESSAGES.recoveryInvalid });
    const invented = await t.op('restablecer', { body: { token: 'no-existe', password: 'Nueva-clave-2026' } });
    expect(invented.json()).toEqual({ RESULT: '1', message: MESSAGES.recoveryInvalid });
    await t.login();
  });

  it('stores only the hash of tokens', async () => {
    await t.op('recordar', { body: { email: ADMIN.email } });
    const token = tokenOf((await outboxTexts(t.dataDir)).at(-1)!)!;
    const rows = await t.app.manager.db.selectFrom('recuperaciones').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });
});
