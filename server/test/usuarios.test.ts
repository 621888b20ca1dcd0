import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { ADMIN, backends, expectCleanAnswer, useTestApp } from './helpers.ts';

describe.each(backends())('usuarios ($name)', (backend) => {
  const t = useTestApp(backend);
  let adminId: number;
  beforeAll(async () => {
    adminId = (await t.op('identificar', { body: { email: ADMIN.email, password: ADMIN.password } })).json().user.id;
  });

  const create = (body: Record<string, unknown>) => t.op('editarusuario', { cookie: t.cookie, body });

  it('creates a user (active by default), never answering the password hash', async () => {
    const res = await create({ nombre: 'Lucía Pérez', email: 'Lucia@Demo.es', password: 'Clave-lucia-1' });
    const body = expectCleanAnswer(res);
    expect(body.RESULT).toBe('0');
    const [u] = body.data as Record<string, unknown>[];
    expect(u).toMatchObject({ nombre: 'Lucía Pérez', email: 'lucia@demo.es', activo: 1, ultimo_acceso: null });
    expect(u).not.toHaveProperty('password_hash');
    expect(res.body).not.toContain('scrypt');
    await t.login('lucia@demo.es', 'Clave-lucia-1');
  });

  it('requires a password to create, and checks its length', async () => {
    const none = await create({ nombre: 'Sin Clave', email: 'sin@demo.es' });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ password: MESSAGES.passwordRequired });
    const short = await create({ nombre: 'Corta', email: 'corta@demo.es', password: '123' });
    expect(short.json().errors).toEqual({ password: MESSAGES.passwordTooShort });
  });

  it('refuses a repeated email with 400 on the email field', async () => {
    const res = await create({ nombre: 'Otra Lucía', email: 'lucia@demo.es', password: 'Clave-otra-12' });
    expect(res.statusCode).toBe(400);
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.invalidFields, errors: { email: MESSAGES.duplicated } });
  });

  it('lists with paging, order, search and filter, and a total', async () => {
    for (const [nombre, email] of [
      ['Ana Gómez', 'ana@demo.es'],
      ['Bruno Díaz', 'bruno@demo.es'],
      ['Carmen Ruiz', 'carmen@tienda.es'],
    ]) {
      expect((await create({ nombre, email, password: 'Clave-larga-1' })).json().RESULT).toBe('0');
    }
    const page1 = (await t.op('listadousuarios', { cookie: t.cookie, query: { porPagina: '10', orden: 'nombre', dir: 'asc' } })).json();
    expect(page1.total).toBe(5);
    expect(page1.data.map((u: { nombre: string }) => u.nombre)).toEqual(['Administrador', 'Ana Gómez', 'Bruno Díaz', 'Carmen Ruiz', 'Lucía Pérez']);
    for (const u of page1.data) expect(u).not.toHaveProperty('password_hash');

    const desc = (await t.op('listadousuarios', { cookie: t.cookie, query: { porPagina: '10', orden: 'email', dir: 'desc', pagina: '1' } })).json();
    expect(desc.data[0].email).toBe('lucia@demo.es');

    const search = (await t.op('listadousuarios', { cookie: t.cookie, query: { q: 'TIENDA' } })).json();
    expect(search.total).toBe(1);
    expect(search.data[0].nombre).toBe('Carmen Ruiz');

    const literal = (await t.op('listadousuarios', { cookie: t.cookie, query: { q: '%' } })).json();
    expect(literal.total).toBe(0);

    const bad = await t.op('listadousuarios', { cookie: t.cookie, query: { orden: 'password_hash', porPagina: '7' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['orden', 'porPagina']);

    const one = (await t.op('listadousuarios', { cookie: t.cookie, query: { id: String(adminId) } })).json();
    expect(one.data).toHaveLength(1);
    expect(one.data[0].email).toBe(ADMIN.email);
    expect((await t.op('listadousuarios', { cookie: t.cookie, query: { id: '9999' } })).json().RESULT).toBe('3');
  });

  it('paginates with a page size from the list and page numbers from 1', async () => {
    // 5 users: page size 10 shows all on page 1 and none on page 2.
    const p2 = (await t.op('listadousuarios', { cookie: t.cookie, query: { porPagina: '10', pagina: '2' } })).json();
    expect(p2.total).toBe(5);
    expect(p2.data).toEqual([]);
  });

  it('updates without changing the password unless one is given; deactivating ends their sessions', async () => {
    const list = (await t.op('listadousuarios', { cookie: t.cookie, query: { q: 'ana@' } })).json();
    const ana = list.data[0];
    const anaCookie = await t.login('ana@demo.es', 'Clave-larga-1');
    const renamed = await t.op('editarusuario', { cookie: t.cookie, body: { id: ana.id, nombre: 'Ana Gómez Sanz', email: 'ana@demo.es' } });
    expect(renamed.json().data[0]).toMatchObject({ nombre: 'Ana Gómez Sanz', activo: 1 });
    expect((await t.op('listadoconfiguraciones', { cookie: anaCookie })).statusCode).toBe(200);
    await t.login('ana@demo.es', 'Clave-larga-1');

    await t.op('editarusuario', { cookie: t.cookie, body: { id: ana.id, nombre: 'Ana Gómez Sanz', email: 'ana@demo.es', password: 'Clave-nueva-22' } });
    await t.login('ana@demo.es', 'Clave-nueva-22');

    const anaCookie2 = await t.login('ana@demo.es', 'Clave-nueva-22');
    const off = await t.op('editarusuario', { cookie: t.cookie, body: { id: ana.id, nombre: 'Ana Gómez Sanz', email: 'ana@demo.es', activo: 0 } });
    expect(off.json().data[0].activo).toBe(0);
    expect((await t.op('listadoconfiguraciones', { cookie: anaCookie2 })).statusCode).toBe(401);
    const inactive = (await t.op('listadousuarios', { cookie: t.cookie, query: { activo: '0' } })).json();
    expect(inactive.data.map((u: { email: string }) => u.email)).toEqual(['ana@demo.es']);
  });

  it('nobody can deactivate or delete themselves', async () => {
    const off = await t.op('editarusuario', { cookie: t.cookie, body: { id: adminId, nombre: 'Administrador', email: ADMIN.email, activo: 0 } });
    expect(off.statusCode).toBe(400);
    expect(expectCleanAnswer(off)).toEqual({ RESULT: '1', message: MESSAGES.invalidFields, errors: { activo: MESSAGES.cannotDeactivateSelf } });
    const del = await t.op('eliminarusuario', { cookie: t.cookie, body: { id: adminId } });
    expect(expectCleanAnswer(del)).toEqual({ RESULT: '1', message: MESSAGES.cannotDeleteSelf });
    expect((await t.op('listadousuarios', { cookie: t.cookie, query: { id: String(adminId) } })).json().data[0].activo).toBe(1);
  });

  it('deletes another user and their sessions; a second delete finds nothing', async () => {
    const bruno = (await t.op('listadousuarios', { cookie: t.cookie, query: { q: 'bruno' } })).json().data[0];
    const brunoCookie = await t.login('bruno@demo.es', 'Clave-larga-1');
    const del = await t.op('eliminarusuario', { cookie: t.cookie, body: { id: bruno.id } });
    expect(expectCleanAnswer(del).RESULT).toBe('0');
    expect((await t.op('listadoconfiguraciones', { cookie: brunoCookie })).statusCode).toBe(401);
    const sessions = await t.app.manager.db.selectFrom('sesiones').select('token_hash').where('usuario_id', '=', bruno.id).execute();
    expect(sessions).toEqual([]);
    expect((await t.op('eliminarusuario', { cookie: t.cookie, body: { id: bruno.id } })).json().RESULT).toBe('3');
  });
});
