import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LineaActividad } from 'shared/domain';
import { trabajoPendiente } from '../src/actions/sesion.ts';
import { backends, useTestApp } from './helpers.ts';
import { list, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

/**
 * Issue 24, «Every change of rights on the record»: creating or editing a role, a user's PIN, a PIN login and a
 * throttled login each leave a line with who and what; and after a scripted session that touches every secret the
 * product keeps (passwords, PINs, recovery tokens, terminal pairing), the whole activity table holds none of them.
 */

const CLAVE = 'Clave-auditoria-2026';

async function lineas(t: ReturnType<typeof useTestApp>, query: Record<string, string | number> = {}) {
  return (await list(t, t.cookie, 'listadoactividad', { porPagina: 100, ...query })).rows as unknown as LineaActividad[];
}

const outbox = (dataDir: string) => {
  const dir = path.join(dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];
};

describe.each(backends())('rights on the record ($name)', (backend) => {
  const t = useTestApp(backend);
  let admin: { id: number; nombre: string };
  let rol: Row;
  let marta: Row;

  beforeAll(async () => {
    admin = (await t.op('sesion', { cookie: t.cookie })).json().user;
  });

  it('creating and editing a role: a line each, with the name and the rights before and after', async () => {
    rol = await save(t, t.cookie, 'editarrol', { nombre: 'Mostrador', derechos: { areas: { ventas: ['ver'] }, especiales: [] } });
    await save(t, t.cookie, 'editarrol', { id: rol.id, nombre: 'Mostrador', derechos: { areas: { ventas: ['ver', 'editar'] }, especiales: ['descuento'] } });
    const [editado, creado] = await lineas(t, { entidad: 'rol', entidad_id: rol.id });
    expect(creado).toMatchObject({ accion: 'editarrol', tipo: 'guardar', usuario_id: admin.id, usuario_nombre: admin.nombre, numero: 'Mostrador', antes: null });
    expect(JSON.parse(String(creado.despues?.derechos))).toEqual({ areas: { ventas: ['ver'] }, especiales: [], descuento_maximo: 0 });
    expect(editado).toMatchObject({ accion: 'editarrol', tipo: 'guardar', usuario_id: admin.id, numero: 'Mostrador' });
    expect(JSON.parse(String(editado.antes?.derechos))).toEqual({ areas: { ventas: ['ver'] }, especiales: [], descuento_maximo: 0 });
    expect(JSON.parse(String(editado.despues?.derechos))).toEqual({ areas: { ventas: ['ver', 'editar'] }, especiales: ['descuento'], descuento_maximo: 0 });
    // A refused save leaves nothing.
    expect((await t.op('editarrol', { cookie: t.cookie, body: { id: rol.id, nombre: 'Gestión', derechos: { areas: {}, especiales: [] } } })).statusCode).toBe(400);
    expect(await lineas(t, { entidad: 'rol', entidad_id: rol.id })).toHaveLength(2);
  });

  it("a user's PIN names the user; a PIN login and a throttled one are on the record too", async () => {
    marta = await save(t, t.cookie, 'editarusuario', { nombre: 'Marta Vidal', email: 'marta@auditoria.es', password: CLAVE, rol_id: rol.id });
    expect((await t.op('editarpintpv', { cookie: t.cookie, body: { usuario_id: marta.id, pin: '2468' } })).json().RESULT).toBe('0');
    const [pin] = await lineas(t, { entidad: 'usuario', entidad_id: marta.id });
    expect(pin).toMatchObject({ accion: 'editarpintpv', tipo: 'pin', usuario_id: admin.id, numero: 'marta@auditoria.es', despues: { usuario: 'Marta Vidal', pin: '(cambiado)' } });

    // A paired till: Marta's PIN login, then failures until it is throttled.
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows[0].id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const terminal = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Caja auditoría',
      almacen_id: almacen,
      serie_id: series.find((s) => s.codigo === 'T')!.id,
      serie_rectificativa_id: series.find((s) => s.codigo === 'R')!.id,
      formas_pago: ['efectivo'],
    });
    const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
    const par = await t.op('emparejarterminal', { body: { codigo } });
    const tpv = `mtpv_terminal=${par.cookies.find((c) => c.name === 'mtpv_terminal')!.value}`;
    expect((await t.op('identificartpv', { cookie: tpv, body: { usuario_id: marta.id, pin: '2468' } })).json().RESULT).toBe('0');
    for (let i = 0; i < 5; i++) expect((await t.op('identificartpv', { cookie: tpv, body: { usuario_id: marta.id, pin: '0000' } })).statusCode).toBe(200);
    expect((await t.op('identificartpv', { cookie: tpv, body: { usuario_id: marta.id, pin: '2468' } })).statusCode).toBe(429);
    const suyas = (await lineas(t, { entidad: 'usuario', entidad_id: marta.id })).map((l) => [l.accion, l.tipo, l.numero, l.usuario_id]);
    expect(suyas.slice(0, 7)).toEqual([
      ['identificartpv', 'login_bloqueado', 'PIN (Caja auditoría)', null],
      ...Array.from({ length: 5 }, () => ['identificartpv', 'login_fallido', 'PIN (Caja auditoría)', null]),
      ['identificartpv', 'login', 'PIN (Caja auditoría)', marta.id],
    ]);

    // The password's login, throttled by the e-mail: the sixth attempt is refused unchecked, and logged.
    for (let i = 0; i < 5; i++) await t.op('identificar', { body: { email: 'marta@auditoria.es', password: 'no-es-esta' } });
    expect((await t.op('identificar', { body: { email: 'marta@auditoria.es', password: CLAVE } })).statusCode).toBe(429);
    const [bloqueo] = await lineas(t, { entidad: 'usuario', entidad_id: marta.id });
    expect(bloqueo).toMatchObject({ accion: 'identificar', tipo: 'login_bloqueado', numero: 'marta@auditoria.es', usuario_id: null, ip: '127.0.0.1' });
  });

  it('after a session touching every secret, no hash, token or secret is anywhere in the trail — a deleted user\'s line included', async () => {
    // A password changed by the administrator, a recovery link used, a PIN set, then the user deleted.
    await save(t, t.cookie, 'editarusuario', { id: marta.id, nombre: 'Marta Vidal', email: 'marta@auditoria.es', password: 'Otra-clave-auditoria-1' });
    const pepe = await save(t, t.cookie, 'editarusuario', { nombre: 'Pepe', email: 'pepe@auditoria.es', password: CLAVE, rol_id: rol.id });
    await t.op('recordar', { body: { email: 'pepe@auditoria.es' } });
    await trabajoPendiente();
    const token = /\/recuperar-psswd\?token=([A-Za-z0-9_-]+)/.exec(outbox(t.dataDir).join('\n'))?.[1];
    expect(token).toBeTruthy();
    expect((await t.op('restablecer', { body: { token, password: 'Nueva-clave-pepe-9' } })).json().RESULT).toBe('0');
    expect((await t.op('editarpintpv', { cookie: t.cookie, body: { usuario_id: pepe.id, pin: '1357' } })).json().RESULT).toBe('0');
    const secretos = await t.app.manager.db.selectFrom('usuarios').select(['password_hash', 'pin_hash']).where('id', 'in', [marta.id, pepe.id]).execute();
    expect((await t.op('eliminarusuario', { cookie: t.cookie, body: { id: marta.id } })).json().RESULT).toBe('0');
    await save(t, t.cookie, 'editarrol', { id: rol.id, nombre: 'Mostrador 2', derechos: { areas: { ventas: ['ver'] }, especiales: [] } });

    const borrado = (await lineas(t, { entidad: 'usuario', entidad_id: marta.id }))[0];
    expect(borrado).toMatchObject({ accion: 'eliminarusuario', tipo: 'eliminar', numero: 'marta@auditoria.es' });
    expect(borrado.antes).toMatchObject({ nombre: 'Marta Vidal', email: 'marta@auditoria.es' });
    expect(Object.keys(borrado.antes ?? {}).filter((k) => /hash|token|pin|password/.test(k))).toEqual([]);

    // Every column of every line, as stored.
    const filas = await t.app.manager.db.selectFrom('actividad').selectAll().execute();
    expect(filas.length).toBeGreaterThan(20);
    const texto = filas.map((f) => Object.values(f).map((v) => String(v ?? '')).join('\u0001')).join('\n');
    const terminales = await t.app.manager.db.selectFrom('tpv_terminales').select('token_hash').execute();
    const sesiones = await t.app.manager.db.selectFrom('sesiones').select('token_hash').execute();
    const conocidos = [...secretos.flatMap((s) => [s.password_hash, s.pin_hash]), token!, ...terminales.map((x) => x.token_hash), ...sesiones.map((x) => x.token_hash)].filter(
      Boolean,
    ) as string[];
    expect(conocidos.length).toBeGreaterThan(5);
    for (const s of conocidos) expect(texto.includes(s), 'a known secret is in the trail').toBe(false);
    // Nothing that even looks like one: an scrypt string, a sha-256 in hex, a long base64url run.
    expect(texto).not.toMatch(/scrypt\$/);
    expect(texto).not.toMatch(/\b[0-9a-f]{64}\b/i);
    expect(texto).not.toMatch(/[A-Za-z0-9_-]{40,}/);
    expect(texto).not.toMatch(/"(pin_hash|password_hash|token_hash|codigo_hash)"/);
  });
});
