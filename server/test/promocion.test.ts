import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, ROL_PREDEFINIDO, derechoAjeno, nombreDerecho, reglaEditarRol, reglaEditarUsuario } from 'shared/domain';
import type { RolPredefinido } from 'shared/domain';
import { plegarNombre } from '../src/auth/nombres.ts';
import { ADMIN, backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { list, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

/**
 * Issue 24, «No self-promotion»: a user who manages users without being an Administrador tries every way up, and
 * each is refused with 403 and the rule's Spanish message, changing nothing.
 */

const CLAVE = 'Clave-promocion-2026';
const regla = (message: string) => ({ RESULT: '1', message, derecho: 'promocion' });
const derechoAjenoMsg = (d: string) => MESSAGES.reglaDerechoAjeno.replace('{derecho}', d);

describe('the rules, as pure functions (shared/domain/promocion.ts)', () => {
  const admin = { id: 1, clave: 'administrador' as const, derechos: ROL_PREDEFINIDO.administrador.derechos };
  const personal = { id: 9, clave: null, derechos: { areas: { usuarios: ['ver', 'editar'] as const }, especiales: [], descuento_maximo: 500 } };

  it('a right the caller lacks, named as the role screen names it', () => {
    const f = derechoAjeno(personal.derechos, { areas: { copias: ['ver'] }, especiales: [], descuento_maximo: 0 });
    expect(f).toEqual({ area: 'copias', nivel: 'ver' });
    expect(nombreDerecho(f!)).toBe('«Copias de seguridad › Descargar»');
    // Keeping a right the role already had is not granting it; a larger discount is.
    expect(derechoAjeno(personal.derechos, { areas: { copias: ['ver'] }, especiales: [], descuento_maximo: 0 }, { areas: { copias: ['ver'] }, especiales: [], descuento_maximo: 0 })).toBeNull();
    expect(derechoAjeno(personal.derechos, { areas: {}, especiales: [], descuento_maximo: 600 })).toEqual({ especial: 'descuento' });
    expect(derechoAjeno(personal.derechos, { areas: {}, especiales: [], descuento_maximo: 500 })).toBeNull();
  });

  it('own role, an administrator, the Administrador role', () => {
    expect(reglaEditarRol(personal, { ...personal }, personal.derechos)).toBe(MESSAGES.reglaRolPropio);
    expect(reglaEditarRol(personal, { ...admin }, personal.derechos)).toBe(MESSAGES.reglaRolDeAdministrador);
    expect(reglaEditarRol(admin, null, ROL_PREDEFINIDO.administrador.derechos)).toBeNull();
    expect(reglaEditarUsuario(5, personal, { id: 7, rol: admin }, { otros: true })).toBeNull();
    expect(reglaEditarUsuario(5, personal, { id: 7, rol: admin }, { credenciales: true })).toBe(MESSAGES.reglaUsuarioAdministrador);
    expect(reglaEditarUsuario(5, personal, { id: 7, rol: null }, { rol: admin })).toBe(MESSAGES.reglaAsignarAdministrador);
    expect(reglaEditarUsuario(5, personal, { id: 5, rol: personal }, { rol: admin })).toBe(MESSAGES.reglaRolPropio);
  });

  it('look-alike names fold to the same one', () => {
    const a = plegarNombre('Administrador');
    for (const n of ['Admіnistrador', 'Administrador\u200B', ' administrador ', 'ＡＤＭＩＮＩＳＴＲＡＤＯＲ', 'Αdministrador', 'Аdmіnіstrаdоr', 'Admi\u00ADnistrador', 'ADMINISTRADOR\u2060']) {
      expect(plegarNombre(n), JSON.stringify(n)).toBe(a);
    }
    expect(plegarNombre('Administradora')).not.toBe(a);
    expect(plegarNombre('Almacén')).not.toBe(plegarNombre('Almacen'));
  });
});

describe.each(backends())('no self-promotion ($name)', (backend) => {
  const t = useTestApp(backend);
  let rolId: Record<RolPredefinido, number>;
  let adminId: number;
  let personal: Row;
  let p: { id: number; cookie: string };

  const op = async (cookie: string, ac: string, body: Record<string, unknown>) => {
    const res = await t.op(ac, { cookie, body });
    return { status: res.statusCode, body: expectCleanAnswer(res) };
  };

  beforeAll(async () => {
    const { rows } = await list(t, t.cookie, 'listadoroles', { porPagina: 100 });
    rolId = Object.fromEntries(rows.map((r) => [r.clave, r.id])) as Record<RolPredefinido, number>;
    adminId = (await t.op('identificar', { body: { email: ADMIN.email, password: ADMIN.password } })).json().user.id;
    // «Usuarios › crear y modificar» (and the till's PIN), not Administrador.
    personal = await save(t, t.cookie, 'editarrol', {
      nombre: 'Personal',
      derechos: { areas: { usuarios: ['ver', 'editar', 'eliminar'], tpv: ['ver', 'editar'], catalogo: ['ver'] }, especiales: [], descuento_maximo: 0 },
    });
    const u = await save(t, t.cookie, 'editarusuario', { nombre: 'Pepa', email: 'pepa@promocion.es', password: CLAVE, rol_id: personal.id });
    p = { id: u.id, cookie: await t.login('pepa@promocion.es', CLAVE) };
  });

  it('cannot widen its own role (backups, configuration)', async () => {
    const r = await op(p.cookie, 'editarrol', {
      id: personal.id,
      nombre: 'Personal',
      derechos: { areas: { usuarios: ['ver', 'editar', 'eliminar'], tpv: ['ver', 'editar'], catalogo: ['ver'], copias: ['ver'], configuracion: ['ver', 'editar'] }, especiales: [] },
    });
    expect(r).toEqual({ status: 403, body: regla(MESSAGES.reglaRolPropio) });
    // Nor even narrow it: it's another user's job.
    expect((await op(p.cookie, 'editarrol', { id: personal.id, nombre: 'Personal', derechos: { areas: { usuarios: ['ver'] }, especiales: [] } })).status).toBe(403);
    const saved = (await list(t, t.cookie, 'listadoroles', { id: personal.id })).rows[0];
    expect(saved.derechos).toEqual({ areas: { catalogo: ['ver'], tpv: ['ver', 'editar'], usuarios: ['ver', 'editar', 'eliminar'] }, especiales: [], descuento_maximo: 0 });
  });

  it('cannot create or widen another role with a right it lacks, and cannot give itself that role', async () => {
    const r = await op(p.cookie, 'editarrol', { nombre: 'Copias', derechos: { areas: { copias: ['ver'] }, especiales: [] } });
    expect(r).toEqual({ status: 403, body: regla(derechoAjenoMsg('«Copias de seguridad › Descargar»')) });
    expect((await list(t, t.cookie, 'listadoroles', { q: 'Copias' })).total).toBe(0);
    // A role within its own rights: yes; widening it past them: no.
    const lector = await save(t, p.cookie, 'editarrol', { nombre: 'Lector de catálogo', derechos: { areas: { catalogo: ['ver'] }, especiales: [] } });
    const widen = await op(p.cookie, 'editarrol', { id: lector.id, nombre: 'Lector de catálogo', derechos: { areas: { catalogo: ['ver'], configuracion: ['ver', 'editar'] }, especiales: [] } });
    expect(widen).toEqual({ status: 403, body: regla(derechoAjenoMsg('«Configuración › Ver»')) });
    const especial = await op(p.cookie, 'editarrol', { id: lector.id, nombre: 'Lector de catálogo', derechos: { areas: { catalogo: ['ver'] }, especiales: ['ver_costes'] } });
    expect(especial).toEqual({ status: 403, body: regla(derechoAjenoMsg('«Ver precios de compra, costes y márgenes»')) });
    const descuento = await op(p.cookie, 'editarrol', { id: lector.id, nombre: 'Lector de catálogo', derechos: { areas: { catalogo: ['ver'] }, especiales: [], descuento_maximo: 1050 } });
    expect(descuento).toEqual({ status: 403, body: regla(derechoAjenoMsg('«un descuento máximo del 10,5 %»')) });
    // An Administrador widens it; then the user manager may keep those rights while renaming it (not granting them).
    await save(t, t.cookie, 'editarrol', { id: lector.id, nombre: 'Lector de catálogo', derechos: { areas: { catalogo: ['ver'], copias: ['ver'] }, especiales: [] } });
    expect((await op(p.cookie, 'editarrol', { id: lector.id, nombre: 'Lector', derechos: { areas: { catalogo: ['ver'], copias: ['ver'] }, especiales: [] } })).body.RESULT).toBe('0');
    // …but it cannot take that role: it would give itself a backup.
    const tomar = await op(p.cookie, 'editarusuario', { id: p.id, nombre: 'Pepa', email: 'pepa@promocion.es', rol_id: lector.id });
    expect(tomar).toEqual({ status: 403, body: regla(MESSAGES.reglaRolPropio) });
    const otro = await save(t, t.cookie, 'editarusuario', { nombre: 'Luis', email: 'luis@promocion.es', password: CLAVE, rol_id: rolId.consulta });
    const dar = await op(p.cookie, 'editarusuario', { id: otro.id, nombre: 'Luis', email: 'luis@promocion.es', rol_id: lector.id });
    expect(dar).toEqual({ status: 403, body: regla(derechoAjenoMsg('«Copias de seguridad › Descargar»')) });
    expect((await list(t, t.cookie, 'listadousuarios', { id: otro.id })).rows[0].rol_id).toBe(rolId.consulta);
    // A new user with a role beyond its rights (Gestión), or with none (Consulta sees what it doesn't): refused.
    const nuevo = await op(p.cookie, 'editarusuario', { nombre: 'Nuevo', email: 'nuevo@promocion.es', password: CLAVE, rol_id: rolId.gestion });
    expect(nuevo.status).toBe(403);
    expect(nuevo.body.message).toMatch(/^Nadie puede dar un derecho que no tiene: su rol no incluye «Catálogo › Crear y modificar»\.$/);
    expect((await op(p.cookie, 'editarusuario', { nombre: 'Nuevo', email: 'nuevo@promocion.es', password: CLAVE })).status).toBe(403);
    expect((await list(t, t.cookie, 'listadousuarios', { q: 'nuevo@promocion.es' })).total).toBe(0);
    // Within its rights: yes.
    expect((await op(p.cookie, 'editarusuario', { nombre: 'Nuevo', email: 'nuevo@promocion.es', password: CLAVE, rol_id: personal.id })).body.RESULT).toBe('0');
  });

  it('cannot give itself or anyone the Administrador role', async () => {
    expect(await op(p.cookie, 'editarusuario', { id: p.id, nombre: 'Pepa', email: 'pepa@promocion.es', rol_id: rolId.administrador })).toEqual({
      status: 403,
      body: regla(MESSAGES.reglaRolPropio),
    });
    const otro = await save(t, t.cookie, 'editarusuario', { nombre: 'Marta', email: 'marta@promocion.es', password: CLAVE, rol_id: personal.id });
    expect(await op(p.cookie, 'editarusuario', { id: otro.id, nombre: 'Marta', email: 'marta@promocion.es', rol_id: rolId.administrador })).toEqual({
      status: 403,
      body: regla(MESSAGES.reglaAsignarAdministrador),
    });
    const creado = await op(p.cookie, 'editarusuario', { nombre: 'Jefe', email: 'jefe@promocion.es', password: CLAVE, rol_id: rolId.administrador });
    expect(creado).toEqual({ status: 403, body: regla(MESSAGES.reglaAsignarAdministrador) });
    expect((await list(t, t.cookie, 'listadousuarios', { rol_id: rolId.administrador })).rows.map((r) => r.id)).toEqual([adminId]);
  });

  it("cannot set an administrator's password (logging them out), e-mail or PIN, deactivate or delete them, nor then download the backup", async () => {
    const admin = { id: adminId, nombre: 'Administrador', email: ADMIN.email };
    const soloAdmin = { status: 403, body: regla(MESSAGES.reglaUsuarioAdministrador) };
    expect(await op(p.cookie, 'editarusuario', { ...admin, password: 'Tomada-por-Pepa-1' })).toEqual(soloAdmin);
    expect(await op(p.cookie, 'editarusuario', { ...admin, email: 'pepa2@promocion.es' })).toEqual(soloAdmin);
    expect(await op(p.cookie, 'editarusuario', { ...admin, activo: 0 })).toEqual(soloAdmin);
    expect(await op(p.cookie, 'eliminarusuario', { id: adminId })).toEqual(soloAdmin);
    expect(await op(p.cookie, 'editarpintpv', { usuario_id: adminId, pin: '1234' })).toEqual(soloAdmin);
    // The administrator's session still works, its password is the same, and the backup stays closed to Pepa.
    expect((await t.op('sesion', { cookie: t.cookie })).statusCode).toBe(200);
    expect((await t.op('identificar', { body: { email: ADMIN.email, password: 'Tomada-por-Pepa-1' } })).json().RESULT).toBe('1');
    expect((await t.op('identificar', { body: ADMIN })).json().RESULT).toBe('0');
    expect((await t.op('copiaseguridad', { cookie: p.cookie })).statusCode).toBe(403);
    // The administrator's name is not a credential: a user manager may correct it.
    expect((await op(p.cookie, 'editarusuario', { ...admin, nombre: 'Administradora' })).body.RESULT).toBe('0');
    await save(t, t.cookie, 'editarusuario', admin);
  });

  it("cannot take over an account with rights its role lacks: another's password, e-mail or PIN", async () => {
    const g = await save(t, t.cookie, 'editarusuario', { nombre: 'Gema', email: 'gema@promocion.es', password: CLAVE, rol_id: rolId.gestion });
    const msg = MESSAGES.reglaCredencialesAjenas.replace('{derecho}', '«Catálogo › Crear y modificar»');
    expect(await op(p.cookie, 'editarusuario', { id: g.id, nombre: 'Gema', email: 'gema@promocion.es', password: 'Otra-clave-2026' })).toEqual({ status: 403, body: regla(msg) });
    expect(await op(p.cookie, 'editarusuario', { id: g.id, nombre: 'Gema', email: 'gema2@promocion.es' })).toEqual({ status: 403, body: regla(msg) });
    expect(await op(p.cookie, 'editarpintpv', { usuario_id: g.id, pin: '4321' })).toEqual({ status: 403, body: regla(msg) });
    expect((await t.op('identificar', { body: { email: 'gema@promocion.es', password: CLAVE } })).json().RESULT).toBe('0');
    // Demoting or deactivating a user is not a promotion: allowed (Consulta's rights are beyond Pepa's, Personal's aren't).
    expect((await op(p.cookie, 'editarusuario', { id: g.id, nombre: 'Gema', email: 'gema@promocion.es', rol_id: personal.id })).body.RESULT).toBe('0');
    // Now Gema's rights are within Pepa's: her PIN and password can be set.
    expect((await op(p.cookie, 'editarpintpv', { usuario_id: g.id, pin: '4321' })).body.RESULT).toBe('0');
    expect((await op(p.cookie, 'editarusuario', { id: g.id, nombre: 'Gema', email: 'gema@promocion.es', password: 'Otra-clave-2026' })).body.RESULT).toBe('0');
  });

  it('an Administrador may do all of it', async () => {
    const todo = await save(t, t.cookie, 'editarrol', { nombre: 'Casi todo', derechos: ROL_PREDEFINIDO.administrador.derechos });
    const u = await save(t, t.cookie, 'editarusuario', { nombre: 'Casi', email: 'casi@promocion.es', password: CLAVE, rol_id: todo.id });
    expect((await op(t.cookie, 'editarusuario', { id: u.id, nombre: 'Casi', email: 'casi@promocion.es', rol_id: rolId.administrador })).body.RESULT).toBe('0');
    expect((await op(t.cookie, 'eliminarusuario', { id: u.id })).body.RESULT).toBe('0');
  });

  it('look-alike role names are duplicates of an existing name', async () => {
    for (const nombre of ['Admіnistrador', 'Administrador\u200B', 'ＡＤＭＩＮＩＳＴＲＡＤＯＲ', 'Αdministrador', 'Реrsonal', 'personal\u200D ']) {
      const r = await op(t.cookie, 'editarrol', { nombre, derechos: { areas: { catalogo: ['ver'] }, especiales: [] } });
      expect(r, JSON.stringify(nombre)).toEqual({ status: 400, body: { RESULT: '1', message: MESSAGES.invalidFields, errors: { nombre: MESSAGES.duplicated } } });
    }
    // Renaming a role to a look-alike of another: refused too; a name saved without its invisible characters.
    const r = await save(t, t.cookie, 'editarrol', { nombre: 'Mostrador\u200B', derechos: { areas: { catalogo: ['ver'] }, especiales: [] } });
    expect(r.nombre).toBe('Mostrador');
    expect((await op(t.cookie, 'editarrol', { id: r.id, nombre: 'Gеstión', derechos: { areas: {}, especiales: [] } })).status).toBe(400);
  });
});
