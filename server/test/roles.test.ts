import { beforeAll, describe, expect, it } from 'vitest';
import {
  CONF_FIELD,
  FLAG_NAMES,
  MESSAGES,
  ROLES_PREDEFINIDOS,
  ROL_PREDEFINIDO,
  falta,
  leerNecesidad,
  mensajeFalta,
} from 'shared/domain';
import type { Derechos, RolPredefinido } from 'shared/domain';
import { createRegistry } from '../src/actions/index.ts';
import { ACCIONES_TPV, DERECHOS, accionesSinDerecho, comprobarNecesidad } from '../src/auth/derechos.ts';
import { todayIn } from '../src/context.ts';
import { ADMIN, backends, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

const HOY = todayIn('Europe/Madrid');
const AYER = todayIn('Europe/Madrid', new Date(Date.now() - 36 * 60 * 60 * 1000));
const REGISTRY = createRegistry();
const CLAVE = 'Clave-roles-2026';

/** A POST or GET as its action's method, answered as it came. */
async function llamar(t: SuiteApp, cookie: string, ac: string, body: Record<string, unknown> = {}) {
  const method = REGISTRY.get(ac)?.method ?? 'POST';
  const res = method === 'GET' ? await t.op(ac, { cookie, method: 'GET' }) : await t.op(ac, { cookie, method: 'POST', body });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & { derecho?: string; message?: string } };
}

/** A user with this role (by id), logged in: its id and cookie. */
async function usuarioCon(t: SuiteApp, email: string, rolId: number) {
  const u = await save(t, t.cookie, 'editarusuario', { nombre: email.split('@')[0], email, password: CLAVE, rol_id: rolId });
  return { id: u.id, cookie: await t.login(email, CLAVE) };
}

describe('the table of rights', () => {
  it('has an entry for every action of the registry: a new action without one fails here', () => {
    expect(accionesSinDerecho(REGISTRY.keys())).toEqual([]);
    // What a new action would look like: missing, and refused to everyone (even with a session) until it has a row.
    expect(accionesSinDerecho([...REGISTRY.keys(), 'accionnueva'])).toEqual(['accionnueva']);
    const admin = { id: 1, nombre: 'A', email: 'a@a.es', tokenHash: '', terminalId: null, rol: { id: 1, nombre: 'Administrador', clave: 'administrador' as const, derechos: ROL_PREDEFINIDO.administrador.derechos } };
    expect(comprobarNecesidad('accionnueva', admin)?.status).toBe(403);
    expect(comprobarNecesidad('listadofamilias', admin)).toBeNull();
  });

  it('declares the public actions public and nothing else', () => {
    const publicas = [...REGISTRY.values()].filter((a) => a.public).map((a) => a.name).sort();
    const enTabla = [...DERECHOS].filter(([, d]) => d.necesidad === 'publica').map(([n]) => n).sort();
    expect(enTabla).toEqual(publicas);
  });

  it('Caja: nothing of the back office — only logging in and out, drawing the app and the till (sell, return, cash, close)', () => {
    const caja = [...REGISTRY.keys()].filter((n) => falta(ROL_PREDEFINIDO.caja.derechos, DERECHOS.get(n)!.necesidad) === null).sort();
    expect(caja).toEqual(
      [
        'cerrarsesion', 'identificar', 'listadoconfiguraciones', 'recordar', 'restablecer', 'sesion',
        // The till (issue 13): pairing and PIN login are public (the terminal's cookie is their credential).
        // Not the back office's TPV screens (terminals, closings: Ventas'); listadotickets finds a ticket to return or
        // invoice, facturarventatpv the full invoice (F1) of a sale over the limit, clientestpv / altaclientetpv the customer of that full invoice (F3).
        'emparejarterminal', 'terminaltpv', 'identificartpv', 'editarpintpv', 'articulostpv', 'listadobotonestpv', 'abrircajatpv',
        'movimientocajatpv', 'cajatpv', 'subirtickets', 'listadotickets', 'devolverticket', 'facturarticket', 'facturarventatpv', 'valetpv', 'clientestpv', 'altaclientetpv', 'editarcierretpv',
        // A return without a ticket: online it needs «devolver_sin_ticket» (refused by its check); one the till already
        // issued offline is kept and flagged, never refused (issue 23).
        'devolversinticket',
      ].sort(),
    );
  });

  it('a PIN session (issue 23): the till\'s actions are real actions, and everything Caja does at the till is among them', () => {
    for (const n of ACCIONES_TPV) expect(REGISTRY.has(n), n).toBe(true);
    const caja = [...REGISTRY.keys()].filter((n) => DERECHOS.get(n)!.necesidad !== 'publica' && falta(ROL_PREDEFINIDO.caja.derechos, DERECHOS.get(n)!.necesidad) === null);
    expect(caja.filter((n) => !ACCIONES_TPV.has(n))).toEqual([]);
    expect(ACCIONES_TPV.has('copiaseguridad') || ACCIONES_TPV.has('listadousuarios') || ACCIONES_TPV.has('editarconfiguracion')).toBe(false);
  });

  it('Consulta: no action that changes anything (every POST but logging in and out is refused)', () => {
    const posts = [...REGISTRY.values()].filter((a) => a.method === 'POST' && !a.public && falta(ROL_PREDEFINIDO.consulta.derechos, DERECHOS.get(a.name)!.necesidad) === null);
    expect(posts.map((a) => a.name)).toEqual([]);
  });

  it('Gestión: everything but users and roles (the users it reads are names to pick), backups, VERI*FACTU and the demo\'s removal', () => {
    const refused = [...REGISTRY.keys()].filter((n) => falta(ROL_PREDEFINIDO.gestion.derechos, DERECHOS.get(n)!.necesidad) !== null).sort();
    expect(refused).toEqual(
      [
        'copiaseguridad', 'restaurarcopia', 'editarusuario', 'eliminarusuario', 'listadoroles', 'editarrol', 'eliminarrol',
        'listadoverifactu', 'editarverifactu', 'subircertificadoverifactu', 'eliminarcertificadoverifactu', 'enviarregistrosverifactu',
        'subsanarregistrofacturacion',
        // Removing the demo's generated year deletes documents of every kind.
        'eliminardemo',
      ].sort(),
    );
  });
});

describe.each(backends())('roles ($name)', (backend) => {
  const t = useTestApp(backend);
  let rolId: Record<RolPredefinido, number>;
  let adminId: number;

  beforeAll(async () => {
    const { rows } = await list(t, t.cookie, 'listadoroles', { porPagina: 100 });
    rolId = Object.fromEntries(rows.map((r) => [r.clave, r.id])) as Record<RolPredefinido, number>;
    adminId = (await t.op('identificar', { body: { email: ADMIN.email, password: ADMIN.password } })).json().user.id;
    // Every module on: a refusal below is the role's, never a flag's.
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    for (const f of FLAG_NAMES) conf[CONF_FIELD[f]] = 1;
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: conf })).json().RESULT).toBe('0');
  });

  it('lists the five built-in roles first, in their order, with their rights and users', async () => {
    const { rows, total } = await list(t, t.cookie, 'listadoroles');
    expect(total).toBe(5);
    expect(rows.map((r) => [r.clave, r.nombre, r.predefinido])).toEqual(ROLES_PREDEFINIDOS.map((c) => [c, ROL_PREDEFINIDO[c].nombre, 1]));
    expect(rows[0]).toMatchObject({ usuarios: 1, derechos: ROL_PREDEFINIDO.administrador.derechos });
    expect(rows[3]).toMatchObject({ usuarios: 0, derechos: ROL_PREDEFINIDO.caja.derechos });
    // The one administrator of a fresh install has the Administrador role.
    const me = (await list(t, t.cookie, 'listadousuarios', { id: adminId })).rows[0];
    expect(me).toMatchObject({ rol_id: rolId.administrador, rol_nombre: 'Administrador' });
  });

  it('identificar and sesion answer the role with its rights, and what every action needs', async () => {
    const res = (await t.op('identificar', { body: { email: ADMIN.email, password: ADMIN.password } })).json();
    expect(res.user.rol).toEqual({ id: rolId.administrador, nombre: 'Administrador', clave: 'administrador', derechos: ROL_PREDEFINIDO.administrador.derechos });
    for (const name of REGISTRY.keys()) expect(leerNecesidad(res.acciones[name]), name).not.toBeNull();
    expect(res.acciones.eliminarfamilia).toBe('catalogo.eliminar');
    expect(res.acciones.anularfactura).toBe('facturas.acciones+anular_facturas');
    const sesion = (await t.op('sesion', { cookie: t.cookie })).json();
    expect(sesion).toMatchObject({ RESULT: '0', user: { id: adminId, rol: { clave: 'administrador' } } });
    expect(sesion.data[0].razon_social).toBeTruthy();
    expect(sesion.acciones).toEqual(res.acciones);
  });

  // The generated test: every action of the registry as a user of every built-in role, answered 403 by the role
  // exactly when the role's table says so. Other answers (400, RESULT 1/3) don't matter here.
  for (const clave of ROLES_PREDEFINIDOS) {
    it(`${clave}: every action of the registry is refused (403) exactly as the role's table says`, async () => {
      const { cookie } = await usuarioCon(t, `${clave}@roles.es`, rolId[clave]);
      const derechos: Derechos = ROL_PREDEFINIDO[clave].derechos;
      // Logging out last: it ends the session the rest use.
      const names = [...REGISTRY.keys()].sort((a, b) => Number(a === 'cerrarsesion') - Number(b === 'cerrarsesion'));
      const wrong: string[] = [];
      for (const ac of names) {
        const f = falta(derechos, DERECHOS.get(ac)!.necesidad);
        const { status, body } = await llamar(t, cookie, ac);
        const byRole = status === 403 && body.derecho !== undefined;
        if (f) {
          if (!byRole || body.message !== mensajeFalta(f, derechos) || body.RESULT !== '1') wrong.push(`${ac}: expected 403 «${mensajeFalta(f, derechos)}», got ${status} ${JSON.stringify(body)}`);
        } else if (byRole || status === 401) {
          wrong.push(`${ac}: expected allowed, got ${status} ${JSON.stringify(body)}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('a refusal names what is missing, in Spanish, before the input is even looked at', async () => {
    const { cookie } = await usuarioCon(t, 'consulta2@roles.es', rolId.consulta);
    const res = await t.op('eliminarfamilia', { cookie, body: { id: 'no es un número' } });
    expect(res.statusCode).toBe(403);
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: 'Su rol no permite eliminar en Catálogo.', derecho: 'catalogo.eliminar' });
    const caja = await usuarioCon(t, 'caja2@roles.es', rolId.caja);
    const copia = await t.op('copiaseguridad', { cookie: caja.cookie });
    expect(copia.json()).toMatchObject({ RESULT: '1', message: 'Su rol no permite descargar copias de seguridad.' });
  });

  it('a role that reads users only to pick one (Gestión: a parte\'s worker) gets their names, not their emails or roles', async () => {
    const g = await usuarioCon(t, 'gestion-lee@roles.es', rolId.gestion);
    const { rows } = await list(t, g.cookie, 'listadousuarios', { porPagina: 100 });
    expect(rows.length).toBeGreaterThan(3);
    for (const r of rows) expect(Object.keys(r).sort()).toEqual(['activo', 'id', 'nombre']);
    // Nor found by their email.
    expect((await list(t, g.cookie, 'listadousuarios', { q: 'roles.es' })).total).toBe(0);
    expect((await list(t, g.cookie, 'listadousuarios', { id: adminId })).rows).toEqual([{ id: adminId, nombre: 'Administrador', activo: 1 }]);
    expect(Object.keys((await list(t, t.cookie, 'listadousuarios', { id: adminId })).rows[0])).toContain('email');
  });

  describe('roles', () => {
    let vendedor: Row;

    it('creates a role: every level brings «ver», unknown areas and rights are dropped, the name is unique', async () => {
      vendedor = await save(t, t.cookie, 'editarrol', {
        nombre: 'Vendedor',
        derechos: {
          areas: { ventas: ['editar', 'acciones', 'eliminar'], facturas: ['ver', 'editar', 'acciones'], catalogo: ['ver', 'editar'], almacenes: ['ver'], cocina: ['ver'] },
          especiales: ['volar'],
          descuento_maximo: 1000,
        },
      });
      expect(vendedor).toMatchObject({
        nombre: 'Vendedor',
        clave: null,
        predefinido: 0,
        usuarios: 0,
        derechos: {
          areas: { catalogo: ['ver', 'editar'], ventas: ['ver', 'editar', 'acciones', 'eliminar'], facturas: ['ver', 'editar', 'acciones'], almacenes: ['ver'] },
          especiales: [],
          descuento_maximo: 1000,
        },
      });
      const dup = await t.op('editarrol', { cookie: t.cookie, body: { nombre: 'vendedor', derechos: { areas: {}, especiales: [] } } });
      expect(dup.statusCode).toBe(400);
      expect(dup.json().errors).toEqual({ nombre: MESSAGES.duplicated });
      const bad = await t.op('editarrol', { cookie: t.cookie, body: { nombre: 'Malo', derechos: { areas: { ventas: 'todo' }, especiales: [] } } });
      expect(bad.json().errors).toEqual({ derechos: MESSAGES.rolDerechosNoValidos });
      const tope = await t.op('editarrol', { cookie: t.cookie, body: { nombre: 'Malo', derechos: { areas: {}, especiales: [], descuento_maximo: 10001 } } });
      expect(tope.json().errors).toEqual({ derechos: MESSAGES.rolDerechosNoValidos });
    });

    it('the built-in roles are read-only: a change or a delete is refused, a copy is a new role', async () => {
      const change = await t.op('editarrol', { cookie: t.cookie, body: { id: rolId.gestion, nombre: 'Gestión', derechos: ROL_PREDEFINIDO.administrador.derechos } });
      expect(expectCleanAnswer(change)).toEqual({ RESULT: '1', message: MESSAGES.rolPredefinidoInmutable });
      const del = await t.op('eliminarrol', { cookie: t.cookie, body: { id: rolId.caja } });
      expect(expectCleanAnswer(del)).toEqual({ RESULT: '1', message: MESSAGES.rolPredefinidoInmutable });
      const copia = await save(t, t.cookie, 'editarrol', { nombre: 'Gestión sin descuentos', derechos: { ...ROL_PREDEFINIDO.gestion.derechos, especiales: [], descuento_maximo: 500 } });
      expect(copia).toMatchObject({ predefinido: 0, derechos: { areas: ROL_PREDEFINIDO.gestion.derechos.areas, especiales: [], descuento_maximo: 500 } });
      expect((await list(t, t.cookie, 'listadoroles', { id: rolId.gestion })).rows[0].derechos).toEqual(ROL_PREDEFINIDO.gestion.derechos);
    });

    it('a role in use is not deleted (RESULT 2); an unused one is', async () => {
      const u = await usuarioCon(t, 'vende@roles.es', vendedor.id);
      const del = await t.op('eliminarrol', { cookie: t.cookie, body: { id: vendedor.id } });
      expect(expectCleanAnswer(del)).toEqual({ RESULT: '2', message: MESSAGES.rolEnUso });
      expect((await list(t, t.cookie, 'listadoroles', { id: vendedor.id })).rows[0].usuarios).toBe(1);
      const suelto = await save(t, t.cookie, 'editarrol', { nombre: 'Temporal', derechos: { areas: {}, especiales: [] } });
      expect((await t.op('eliminarrol', { cookie: t.cookie, body: { id: suelto.id } })).json().RESULT).toBe('0');
      expect((await t.op('eliminarrol', { cookie: t.cookie, body: { id: suelto.id } })).json().RESULT).toBe('3');
      expect((await list(t, t.cookie, 'listadousuarios', { rol_id: vendedor.id })).rows.map((r) => r.id)).toEqual([u.id]);
    });

    it('a user: rol_id must exist; a new one without it gets Consulta; an update without it keeps theirs', async () => {
      const bad = await t.op('editarusuario', { cookie: t.cookie, body: { nombre: 'X', email: 'x@roles.es', password: CLAVE, rol_id: 9999 } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual({ rol_id: MESSAGES.rolNoExiste });
      const sin = await save(t, t.cookie, 'editarusuario', { nombre: 'Sin rol', email: 'sinrol@roles.es', password: CLAVE });
      expect(sin).toMatchObject({ rol_id: rolId.consulta, rol_nombre: 'Consulta' });
      const renamed = await save(t, t.cookie, 'editarusuario', { id: sin.id, nombre: 'Con nombre', email: 'sinrol@roles.es' });
      expect(renamed).toMatchObject({ rol_id: rolId.consulta });
    });
  });

  it("a role changed applies to the user's next request, not their next login", async () => {
    const u = await usuarioCon(t, 'cambia@roles.es', rolId.consulta);
    const body = { codigo: 'CAMB', nombre: 'Cambiante' };
    expect((await t.op('editarfamilia', { cookie: u.cookie, body })).statusCode).toBe(403);
    expect((await t.op('sesion', { cookie: u.cookie })).json().user.rol.clave).toBe('consulta');
    await save(t, t.cookie, 'editarusuario', { id: u.id, nombre: 'cambia', email: 'cambia@roles.es', rol_id: rolId.gestion });
    const now = await t.op('editarfamilia', { cookie: u.cookie, body });
    expect(now.json().RESULT).toBe('0');
    expect((await t.op('sesion', { cookie: u.cookie })).json().user.rol).toMatchObject({ clave: 'gestion', nombre: 'Gestión' });
    // And a role's rights changed, too.
    const propio = await save(t, t.cookie, 'editarrol', { nombre: 'Catálogo', derechos: { areas: { catalogo: ['ver', 'editar'] }, especiales: [] } });
    await save(t, t.cookie, 'editarusuario', { id: u.id, nombre: 'cambia', email: 'cambia@roles.es', rol_id: propio.id });
    expect((await t.op('editarfamilia', { cookie: u.cookie, body: { codigo: 'CAMB2', nombre: 'Otra' } })).json().RESULT).toBe('0');
    await save(t, t.cookie, 'editarrol', { id: propio.id, nombre: 'Catálogo', derechos: { areas: { catalogo: ['ver'] }, especiales: [] } });
    expect((await t.op('editarfamilia', { cookie: u.cookie, body: { codigo: 'CAMB3', nombre: 'Otra más' } })).statusCode).toBe(403);
  });

  describe('the last Administrador', () => {
    it('is neither deleted, deactivated nor given another role: not by a user manager, not by themselves (issue 24: only an Administrador touches an administrator)', async () => {
      // The administrators other tests made go first: the one of the first start is the last.
      const otros = (await list(t, t.cookie, 'listadousuarios', { rol_id: rolId.administrador, porPagina: 100 })).rows.filter((r) => r.id !== adminId);
      for (const o of otros) expect((await t.op('eliminarusuario', { cookie: t.cookie, body: { id: o.id } })).json().RESULT).toBe('0');
      // Someone who manages users without being an administrador.
      const personal = await save(t, t.cookie, 'editarrol', { nombre: 'Personal', derechos: { areas: { usuarios: ['ver', 'editar', 'eliminar'] }, especiales: [] } });
      const p = await usuarioCon(t, 'personal@roles.es', personal.id);
      const admin = { id: adminId, nombre: 'Administrador', email: ADMIN.email };
      const soloAdmin = { RESULT: '1', message: MESSAGES.reglaUsuarioAdministrador, derecho: 'promocion' };
      const demote = await t.op('editarusuario', { cookie: p.cookie, body: { ...admin, rol_id: rolId.gestion } });
      expect(demote.statusCode).toBe(403);
      expect(expectCleanAnswer(demote)).toEqual(soloAdmin);
      expect(expectCleanAnswer(await t.op('editarusuario', { cookie: p.cookie, body: { ...admin, activo: 0 } }))).toEqual(soloAdmin);
      expect(expectCleanAnswer(await t.op('eliminarusuario', { cookie: p.cookie, body: { id: adminId } }))).toEqual(soloAdmin);
      // Not even by themselves: nobody changes their own role.
      expect(expectCleanAnswer(await t.op('editarusuario', { cookie: t.cookie, body: { ...admin, rol_id: rolId.consulta } }))).toEqual({
        RESULT: '1',
        message: MESSAGES.reglaRolPropio,
        derecho: 'promocion',
      });
      const me = (await list(t, t.cookie, 'listadousuarios', { id: adminId })).rows[0];
      expect(me).toMatchObject({ rol_id: rolId.administrador, activo: 1 });
      // The same administrador again (its role unchanged) is no change.
      expect((await t.op('editarusuario', { cookie: t.cookie, body: { ...admin, rol_id: rolId.administrador } })).json().RESULT).toBe('0');

      // A second one: the user manager still can't touch it; an Administrador can.
      const otro = await usuarioCon(t, 'admin2@roles.es', rolId.administrador);
      expect(expectCleanAnswer(await t.op('editarusuario', { cookie: p.cookie, body: { id: otro.id, nombre: 'admin2', email: 'admin2@roles.es', activo: 0 } }))).toEqual(soloAdmin);
      expect((await t.op('editarusuario', { cookie: t.cookie, body: { id: otro.id, nombre: 'admin2', email: 'admin2@roles.es', activo: 0 } })).json().RESULT).toBe('0');
      await save(t, t.cookie, 'editarusuario', { id: otro.id, nombre: 'admin2', email: 'admin2@roles.es', activo: 1 });
      // An Administrador deletes another; the user manager could not.
      expect(expectCleanAnswer(await t.op('eliminarusuario', { cookie: p.cookie, body: { id: otro.id } }))).toEqual(soloAdmin);
      expect((await t.op('eliminarusuario', { cookie: t.cookie, body: { id: otro.id } })).json().RESULT).toBe('0');
    });
  });

  describe('named rights, where the data passes', () => {
    let vendedor: { id: number; cookie: string };
    let cliente: Row;
    let clienteDto: Row;
    let art: Row;
    let almacen: number;

    beforeAll(async () => {
      const rol = await save(t, t.cookie, 'editarrol', {
        nombre: 'Mostrador',
        derechos: {
          areas: { ventas: ['ver', 'editar', 'acciones', 'eliminar'], facturas: ['ver', 'editar', 'acciones'], catalogo: ['ver', 'editar'], almacenes: ['ver'] },
          especiales: [],
          descuento_maximo: 1000,
        },
      });
      vendedor = await usuarioCon(t, 'mostrador@roles.es', rol.id);
      cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B46728192', razon_social: 'Construcciones Levante, S.L.', tarifa: 2 });
      clienteDto = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', descuento: 2000 });
      art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ROL-A', { precio_compra: 60_000, precio_venta: 100_000, tarifa_2: 80_000 }));
      almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows[0].id;
    });

    const pedido = (extra: Record<string, unknown>, lineas: Record<string, unknown>[]) => ({ fecha: HOY, cliente_id: cliente.id, almacen_id: almacen, ...extra, lineas });
    const contar = async () => (await list(t, t.cookie, 'listadopedidosventa', { porPagina: 100 })).total;

    it("a line's price other than the customer's tarifa needs «cambiar precio»; nothing is saved", async () => {
      const antes = await contar();
      const res = await t.op('editarpedidoventa', { cookie: vendedor.cookie, body: pedido({}, [{ articulo_id: art.id, cantidad: 1_000 }, { articulo_id: art.id, cantidad: 1_000, precio: 90_000 }]) });
      expect(res.statusCode).toBe(403);
      expect(expectCleanAnswer(res)).toEqual({
        RESULT: '1',
        message: 'Su rol no permite cambiar el precio de un artículo en un documento. (línea 2)',
        derecho: 'cambiar_precio',
      });
      expect(await contar()).toBe(antes);
      // The tarifa's own price, sent or not, is no change.
      const ok = await save(t, vendedor.cookie, 'editarpedidoventa', pedido({}, [{ articulo_id: art.id, cantidad: 1_000 }, { articulo_id: art.id, cantidad: 1_000, precio: 80_000 }]));
      expect((ok.lineas as Row[]).map((l) => l.precio)).toEqual([80_000, 80_000]);
      // The administrator may.
      expect((await t.op('editarpedidoventa', { cookie: t.cookie, body: pedido({}, [{ articulo_id: art.id, cantidad: 1_000, precio: 90_000 }]) })).json().RESULT).toBe('0');
    });

    it('a line saved before at another price (by someone allowed) may be sent back unchanged, not changed', async () => {
      const doc = await save(t, t.cookie, 'editarpedidoventa', pedido({}, [{ articulo_id: art.id, cantidad: 1_000, precio: 70_000 }]));
      const linea = (doc.lineas as Row[])[0];
      const mismo = { id: linea.id, articulo_id: art.id, cantidad: 2_000, precio: 70_000 };
      const ok = await save(t, vendedor.cookie, 'editarpedidoventa', pedido({ id: doc.id }, [mismo, { articulo_id: art.id, cantidad: 1_000 }]));
      expect((ok.lineas as Row[]).map((l) => [l.cantidad, l.precio])).toEqual([[2_000, 70_000], [1_000, 80_000]]);
      const nueva = (ok.lineas as Row[])[0];
      const res = await t.op('editarpedidoventa', { cookie: vendedor.cookie, body: pedido({ id: doc.id }, [{ ...mismo, id: nueva.id, precio: 60_000 }]) });
      expect(res.json()).toMatchObject({ derecho: 'cambiar_precio' });
    });

    it("a discount above the role's maximum needs «descuento»; the customer's own discount is not the role's", async () => {
      const res = await t.op('editarpedidoventa', { cookie: vendedor.cookie, body: pedido({}, [{ articulo_id: art.id, cantidad: 1_000, descuento: 1500 }]) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ RESULT: '1', message: 'Su rol no permite un descuento superior al 10 %. (línea 1)', derecho: 'descuento' });
      expect((await t.op('editarpedidoventa', { cookie: vendedor.cookie, body: pedido({}, [{ articulo_id: art.id, cantidad: 1_000, descuento: 1000 }]) })).json().RESULT).toBe('0');
      // A customer with 20 %: their default, sent or not, passes; another discount above 10 % doesn't.
      const conDto = { cliente_id: clienteDto.id };
      const ok = await save(t, vendedor.cookie, 'editarpedidoventa', pedido(conDto, [{ articulo_id: art.id, cantidad: 1_000 }, { articulo_id: art.id, cantidad: 1_000, descuento: 2000 }]));
      expect((ok.lineas as Row[]).map((l) => l.descuento)).toEqual([2000, 2000]);
      expect((await t.op('editarpedidoventa', { cookie: vendedor.cookie, body: pedido(conDto, [{ articulo_id: art.id, cantidad: 1_000, descuento: 2500 }]) })).statusCode).toBe(403);
    });

    it('annulling an invoice needs «anular facturas»', async () => {
      const res = await t.op('anularfactura', { cookie: vendedor.cookie, body: { id: 1 } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ RESULT: '1', message: 'Su rol no permite anular facturas.', derecho: 'anular_facturas' });
      expect((await t.op('emitirfactura', { cookie: vendedor.cookie, body: { id: 999_999 } })).json().RESULT).toBe('3');
    });

    it('an undo on a document dated before today needs «deshacer anterior a hoy»; today\'s is the role\'s', async () => {
      const viejo = await save(t, t.cookie, 'editarpedidoventa', pedido({ fecha: AYER }, [{ articulo_id: art.id, cantidad: 1_000 }]));
      const nuevo = await save(t, t.cookie, 'editarpedidoventa', pedido({}, [{ articulo_id: art.id, cantidad: 1_000 }]));
      for (const d of [viejo, nuevo]) expect((await t.op('confirmarpedidoventa', { cookie: vendedor.cookie, body: { id: d.id } })).json().RESULT).toBe('0');
      const res = await t.op('deshacerconfirmacionpedidoventa', { cookie: vendedor.cookie, body: { id: viejo.id } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        RESULT: '1',
        message: 'Su rol no permite deshacer acciones en un documento de un día anterior a hoy.',
        derecho: 'deshacer_anterior',
      });
      expect((await list(t, t.cookie, 'listadopedidosventa', { id: viejo.id })).rows[0].estado).toBe('confirmado');
      expect((await t.op('deshacerconfirmacionpedidoventa', { cookie: vendedor.cookie, body: { id: nuevo.id } })).json().RESULT).toBe('0');
      expect((await t.op('deshacerconfirmacionpedidoventa', { cookie: t.cookie, body: { id: viejo.id } })).json().RESULT).toBe('0');
    });

    it('without «ver precios de compra y márgenes» the articles come without purchase price or average cost', async () => {
      const list1 = (await list(t, vendedor.cookie, 'listadoarticulos', { q: 'ROL-A' })).rows[0];
      const one = (await list(t, vendedor.cookie, 'listadoarticulos', { id: art.id })).rows[0];
      const barras = (await list(t, vendedor.cookie, 'listadoarticulos', { barras: 'ROL-A' })).rows[0];
      for (const r of [list1, one, barras]) {
        expect(r).toMatchObject({ codigo: 'ROL-A', precio_venta: 100_000 });
        expect(r).not.toHaveProperty('precio_compra');
        expect(r).not.toHaveProperty('precio_medio_compra');
      }
      // Saving the article (its form has no purchase price) keeps it and answers without it.
      const saved = await save(t, vendedor.cookie, 'editararticulo', { id: art.id, ...nuevoArticulo('ROL-A', { precio_venta: 110_000 }) });
      expect(saved).not.toHaveProperty('precio_compra');
      expect((await list(t, t.cookie, 'listadoarticulos', { id: art.id })).rows[0]).toMatchObject({ precio_compra: 60_000, precio_venta: 110_000 });
      expect((await list(t, t.cookie, 'listadoarticulos', { id: art.id })).rows[0]).toHaveProperty('precio_medio_compra');
      // Nor a price change's preview of purchase prices.
      const cambio = { ids: [art.id], campo: 'precio_compra', modo: 'porcentaje', valor: 1000, redondeo: 'ninguno', aplicar: 0 };
      const res = await t.op('cambiarprecios', { cookie: vendedor.cookie, body: cambio });
      expect(res.json()).toEqual({ RESULT: '1', message: 'Su rol no permite ver precios de compra, costes ni márgenes.', derecho: 'ver_costes' });
      expect((await t.op('cambiarprecios', { cookie: vendedor.cookie, body: { ...cambio, campo: 'precio_venta' } })).json().RESULT).toBe('0');
    });

    it('switching modules is Configuración\'s «acciones»: Gestión changes the company data, not the flags', async () => {
      const g = await usuarioCon(t, 'gestion-conf@roles.es', rolId.gestion);
      const conf = (await t.op('listadoconfiguraciones', { cookie: g.cookie })).json().data[0];
      expect((await t.op('editarconfiguracion', { cookie: g.cookie, body: { ...conf, telefono: '911 222 333' } })).json().RESULT).toBe('0');
      const res = await t.op('editarconfiguracion', { cookie: g.cookie, body: { ...conf, conf_hfa: 0 } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ RESULT: '1', message: 'Su rol no permite activar ni desactivar módulos.', derecho: 'configuracion.acciones' });
      expect((await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0]).toMatchObject({ telefono: '911 222 333', conf_hfa: 1 });
    });
  });

  it('a backup from before roles restores everyone as Administrador; one without an active Administrador is refused', async () => {
    const backup = (await t.op('copiaseguridad', { cookie: t.cookie })).json();
    const viejo = structuredClone(backup);
    delete viejo.tablas.roles;
    for (const u of viejo.tablas.usuarios) delete u.rol_id;
    const restore = (doc: unknown) => {
      const mp = multipart('archivo', 'copia.json', 'application/json', Buffer.from(JSON.stringify(doc)));
      return t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', headers: { cookie: t.cookie, ...mp.headers }, payload: mp.payload });
    };
    const sinAdmin = structuredClone(backup);
    const consulta = sinAdmin.tablas.roles.find((r: { clave: string }) => r.clave === 'consulta').id;
    for (const u of sinAdmin.tablas.usuarios) u.rol_id = consulta;
    const refused = await restore(sinAdmin);
    expect(refused.json()).toEqual({ RESULT: '1', message: MESSAGES.copiaSinAdministrador });

    expect((await restore(viejo)).json().RESULT).toBe('0');
    const { rows } = await list(t, t.cookie, 'listadousuarios', { porPagina: 100 });
    expect(new Set(rows.map((r) => r.rol_nombre))).toEqual(new Set(['Administrador']));
    expect((await list(t, t.cookie, 'listadoroles')).rows.map((r) => r.clave)).toEqual([...ROLES_PREDEFINIDOS]);
  });
});
