import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { trabajoPendiente } from '../src/actions/sesion.ts';
import { contrasenaRechazada, totalComunes } from '../src/auth/contrasenas.ts';
import { backends, useTestApp } from './helpers.ts';
import { save } from './catalogo-fixtures.ts';

/**
 * Issue 24, «Smaller ones»: passwords that are among the most common or are the user's e-mail are refused wherever a
 * password is set; `recordar` answers before it looks anything up or sends anything; a reset revokes the user's other
 * live links.
 */

async function outbox(dataDir: string): Promise<string[]> {
  await trabajoPendiente();
  const dir = path.join(dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];
}
const tokenOf = (mail: string | undefined) => /\/recuperar-psswd\?token=([A-Za-z0-9_-]+)/.exec(mail ?? '')?.[1];
const campo = (message: string) => ({ RESULT: '1', message: MESSAGES.invalidFields, errors: { password: message } });

describe('the rule', () => {
  it('a list of at least 10.000 common passwords, kept in the repository; the e-mail and its local part', () => {
    expect(totalComunes()).toBeGreaterThanOrEqual(10_000);
    for (const p of ['password', 'PASSWORD', 'iloveyou', '12345678', 'qwertyuiop', 'sunshine', 'contraseña', 'football']) {
      expect(contrasenaRechazada(p, 'ana@tienda.es'), p).toBe(MESSAGES.passwordComun);
    }
    expect(contrasenaRechazada('anagarcia88', 'anagarcia88@tienda.es')).toBe(MESSAGES.passwordEmail);
    expect(contrasenaRechazada('AnaGarcia88@Tienda.es', 'anagarcia88@tienda.es')).toBe(MESSAGES.passwordEmail);
    expect(contrasenaRechazada('x-anagarcia88@tienda.es!', 'anagarcia88@tienda.es')).toBe(MESSAGES.passwordEmail);
    expect(contrasenaRechazada('Clave-tienda-2026', 'anagarcia88@tienda.es')).toBeNull();
  });
});

describe.each(backends())('passwords and recovery ($name)', (backend) => {
  const t = useTestApp(backend);

  it('Usuarios refuses a common password or the e-mail, creating or changing, and changes nothing', async () => {
    const nuevo = await t.op('editarusuario', { cookie: t.cookie, body: { nombre: 'Ana', email: 'anagarcia@tienda.es', password: 'iloveyou' } });
    expect(nuevo.statusCode).toBe(400);
    expect(nuevo.json()).toEqual(campo(MESSAGES.passwordComun));
    expect((await t.op('editarusuario', { cookie: t.cookie, body: { nombre: 'Ana', email: 'anagarcia@tienda.es', password: 'anagarcia' } })).json()).toEqual(
      campo(MESSAGES.passwordEmail),
    );
    const ana = await save(t, t.cookie, 'editarusuario', { nombre: 'Ana', email: 'anagarcia@tienda.es', password: 'Clave-ana-2026' });
    const cambio = await t.op('editarusuario', { cookie: t.cookie, body: { id: ana.id, nombre: 'Ana', email: 'anagarcia@tienda.es', password: 'Password' } });
    expect(cambio.json()).toEqual(campo(MESSAGES.passwordComun));
    expect((await t.op('identificar', { body: { email: 'anagarcia@tienda.es', password: 'Clave-ana-2026' } })).json().RESULT).toBe('0');
  });

  it('the reset form: the same rule, and the link still works for another try', async () => {
    await save(t, t.cookie, 'editarusuario', { nombre: 'Bea', email: 'bea.ruiz@tienda.es', password: 'Clave-bea-2026' });
    await t.op('recordar', { body: { email: 'bea.ruiz@tienda.es' } });
    const token = tokenOf((await outbox(t.dataDir)).at(-1));
    expect(token).toBeTruthy();
    const comun = await t.op('restablecer', { body: { token, password: 'baseball' } });
    expect(comun.statusCode).toBe(400);
    expect(comun.json()).toEqual(campo(MESSAGES.passwordComun));
    expect((await t.op('restablecer', { body: { token, password: 'BEA.RUIZ@tienda.es' } })).json()).toEqual(campo(MESSAGES.passwordEmail));
    expect((await t.op('identificar', { body: { email: 'bea.ruiz@tienda.es', password: 'Clave-bea-2026' } })).json().RESULT).toBe('0');
    expect((await t.op('restablecer', { body: { token, password: 'Otra-clave-bea-9' } })).json().RESULT).toBe('0');
  });

  it('recordar answers before it looks the address up or sends the mail: the same answer, known or not', async () => {
    const mailer = t.app.manager.mailer;
    const send = mailer.send.bind(mailer);
    let abrir!: () => void;
    const puerta = new Promise<void>((r) => {
      abrir = r;
    });
    let enviados = 0;
    mailer.send = async (m) => {
      await puerta;
      enviados++;
      return send(m);
    };
    try {
      const plazo = <T>(p: Promise<T>) => Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error('recordar waited for the mail')), 5000))]);
      const conocida = await plazo(t.op('recordar', { body: { email: 'bea.ruiz@tienda.es' } }));
      const desconocida = await plazo(t.op('recordar', { body: { email: 'nadie@tienda.es' } }));
      // Answered while the mail is still held back: nothing sent yet, and both answers are the same bytes.
      expect(enviados).toBe(0);
      expect(conocida.statusCode).toBe(200);
      expect(conocida.body).toBe(desconocida.body);
      expect(conocida.json()).toEqual({ RESULT: '0', message: MESSAGES.recoverySent, data: [] });
      abrir();
      const mails = await outbox(t.dataDir);
      expect(enviados).toBe(1);
      expect(mails.at(-1)).toContain('bea.ruiz@tienda.es');
    } finally {
      mailer.send = send;
    }
  });

  it("a reset revokes the user's other live links; so does a password set in Usuarios", async () => {
    const carla = await save(t, t.cookie, 'editarusuario', { nombre: 'Carla', email: 'carla@tienda.es', password: 'Clave-carla-2026' });
    await t.op('recordar', { body: { email: 'carla@tienda.es' } });
    const primero = tokenOf((await outbox(t.dataDir)).at(-1));
    await t.op('recordar', { body: { email: 'carla@tienda.es' } });
    const segundo = tokenOf((await outbox(t.dataDir)).at(-1));
    expect(primero).not.toBe(segundo);
    expect((await t.op('restablecer', { body: { token: segundo, password: 'Nueva-carla-2026' } })).json().RESULT).toBe('0');
    expect((await t.op('restablecer', { body: { token: primero, password: 'Otra-carla-2026' } })).json()).toEqual({ RESULT: '1', message: MESSAGES.recoveryInvalid });
    expect((await t.op('identificar', { body: { email: 'carla@tienda.es', password: 'Nueva-carla-2026' } })).json().RESULT).toBe('0');

    await t.op('recordar', { body: { email: 'carla@tienda.es' } });
    const tercero = tokenOf((await outbox(t.dataDir)).at(-1));
    await save(t, t.cookie, 'editarusuario', { id: carla.id, nombre: 'Carla', email: 'carla@tienda.es', password: 'Puesta-por-admin-7' });
    expect((await t.op('restablecer', { body: { token: tercero, password: 'Otra-carla-2026' } })).json()).toEqual({ RESULT: '1', message: MESSAGES.recoveryInvalid });
  });
});
