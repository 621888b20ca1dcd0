import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiHttpError, MESSAGES, ROLES_PREDEFINIDOS, ROL_PREDEFINIDO, type Derechos, type Rol } from 'shared';
import { bodiesOf, createFakeApi, currentPath, renderSection, type FakeCall } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

const BUILTIN: Rol[] = ROLES_PREDEFINIDOS.map((clave, i) => ({
  id: i + 1,
  nombre: ROL_PREDEFINIDO[clave].nombre,
  clave,
  predefinido: 1,
  derechos: ROL_PREDEFINIDO[clave].derechos,
  usuarios: clave === 'administrador' ? 1 : 0,
}));
const VENDEDOR: Rol = {
  id: 6,
  nombre: 'Vendedor',
  clave: null,
  predefinido: 0,
  derechos: { areas: { ventas: ['ver', 'editar'] }, especiales: ['cambiar_precio'], descuento_maximo: 1000 },
  usuarios: 2,
};
const LIBRE: Rol = { id: 7, nombre: 'Sin usar', clave: null, predefinido: 0, derechos: { areas: {}, especiales: [], descuento_maximo: 0 }, usuarios: 0 };

/** What the session tells the screens each action needs (the server's table). */
const ACCIONES = { listadoroles: 'usuarios.ver', editarrol: 'usuarios.editar', eliminarrol: 'usuarios.eliminar', listadousuarios: 'usuarios|ventas|almacenes.ver' };
const usuarioCon = (clave: 'administrador' | 'consulta', derechos: Derechos = ROL_PREDEFINIDO[clave].derechos) => ({
  id: 1,
  nombre: 'Ana',
  email: 'ana@demo.es',
  rol: { id: 1, nombre: ROL_PREDEFINIDO[clave].nombre, clave, derechos },
});

function rolesApi() {
  const all = [...BUILTIN, VENDEDOR, LIBRE];
  return createFakeApi({
    listadoroles: ({ params = {} }: FakeCall) => {
      if (params.id !== undefined) {
        const r = all.find((x) => x.id === Number(params.id));
        return r ? { RESULT: '0', data: [r], total: 1 } : { RESULT: '3', message: MESSAGES.notFound };
      }
      return { RESULT: '0', data: all, total: all.length };
    },
    editarrol: ({ body }) => {
      const b = body as { id?: number; nombre: string; derechos: Derechos };
      return { RESULT: '0', data: [{ id: b.id ?? 42, nombre: b.nombre, clave: null, predefinido: 0, derechos: b.derechos, usuarios: 0 }] };
    },
    eliminarrol: () => ({ RESULT: '0', data: [] }),
  });
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('Roles: listado', () => {
  it('shows the built-in roles as «Predefinido» and the shop’s as «Propio», with their users', async () => {
    const fake = rolesApi();
    renderSection(Section, menu.prefix, '/config/roles', { api: fake.api, user: usuarioCon('administrador'), acciones: ACCIONES });
    await screen.findByRole('link', { name: 'Vendedor' });
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(1 + 7);
    expect(within(rows[1]).getByRole('link', { name: 'Administrador' }).getAttribute('href')).toBe('/config/rol/1');
    expect(within(rows[1]).getByText('Predefinido')).toBeTruthy();
    expect(within(rows[6]).getByText('Propio')).toBeTruthy();
    expect(within(rows[6]).getByText('2')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Nuevo rol' }));
    expect(await screen.findByRole('heading', { name: 'Nuevo rol' })).toBeTruthy();
    expect(currentPath()).toBe('/config/rol/nuevo-rol');
  });

  it('a role that only sees users and roles gets no «Nuevo rol»', async () => {
    const fake = rolesApi();
    renderSection(Section, menu.prefix, '/config/roles', { api: fake.api, user: usuarioCon('consulta'), acciones: ACCIONES });
    await screen.findByRole('link', { name: 'Vendedor' });
    expect(screen.queryByRole('button', { name: 'Nuevo rol' })).toBeNull();
  });
});

describe('Roles: ficha', () => {
  it('a built-in role is read-only: its table shows, disabled, with «Copiar» and neither «Guardar» nor «Eliminar»', async () => {
    const fake = rolesApi();
    renderSection(Section, menu.prefix, '/config/rol/2', { api: fake.api, user: usuarioCon('administrador'), acciones: ACCIONES });
    expect(await screen.findByRole('heading', { name: /Gestión/ })).toBeTruthy();
    expect(screen.getByText(/Es un rol predefinido: no se puede modificar ni eliminar/)).toBeTruthy();
    expect(checkbox('Eliminar en Catálogo').checked).toBe(true);
    expect(checkbox('Eliminar en Catálogo').disabled).toBe(true);
    expect(checkbox('Ver en Usuarios y roles').checked).toBe(false);
    expect(checkbox('Crear y modificar en Configuración').checked).toBe(true);
    expect(checkbox('Acciones en Configuración').checked).toBe(false);
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Copiar' }).getAttribute('href')).toBe('/config/rol/nuevo-rol?copia=2');
  });

  it('«Copiar» starts a new role with the other one’s rights; saving creates it and opens it', async () => {
    const fake = rolesApi();
    const { toasts } = renderSection(Section, menu.prefix, '/config/rol/nuevo-rol?copia=2', { api: fake.api, user: usuarioCon('administrador'), acciones: ACCIONES });
    expect(await screen.findByDisplayValue('Gestión (copia)')).toBeTruthy();
    expect(checkbox('Eliminar en Catálogo').disabled).toBe(false);
    // Change the copy: no deleting in the catalogue, and a 5 % maximum discount without the right to give more.
    await userEvent.click(checkbox('Eliminar en Catálogo'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Dar un descuento superior al máximo del rol' }));
    const dto = screen.getByLabelText(/^Descuento máximo/);
    await userEvent.clear(dto);
    await userEvent.type(dto, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(currentPath()).toBe('/config/rol/42'));
    const [body] = bodiesOf(fake.calls, 'editarrol');
    expect(body).not.toHaveProperty('id');
    expect(body.nombre).toBe('Gestión (copia)');
    const d = body.derechos as Derechos;
    expect(d.areas.catalogo).toEqual(['ver', 'editar', 'acciones']);
    expect(d.areas.ventas).toEqual(['ver', 'editar', 'acciones', 'eliminar']);
    expect(d.areas.usuarios).toBeUndefined();
    expect(d.especiales).not.toContain('descuento');
    expect(d.descuento_maximo).toBe(500);
    expect(toasts).toContain('success:');
  });

  it('a level brings «Ver» with it, and «Ver» unchecked takes the rest of the row', async () => {
    const fake = rolesApi();
    renderSection(Section, menu.prefix, '/config/rol/nuevo-rol', { api: fake.api, user: usuarioCon('administrador'), acciones: ACCIONES });
    await userEvent.type(await screen.findByLabelText(/^Nombre/), 'Compras');
    await userEvent.click(checkbox('Acciones en Compras'));
    expect(checkbox('Ver en Compras').checked).toBe(true);
    await userEvent.click(checkbox('Eliminar en Almacenes'));
    await userEvent.click(checkbox('Ver en Almacenes'));
    expect(checkbox('Eliminar en Almacenes').checked).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarrol')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarrol')[0]).toEqual({
      nombre: 'Compras',
      derechos: { areas: { compras: ['ver', 'acciones'] }, especiales: [], descuento_maximo: 0 },
    });
  });

  it('a role of the shop: saved with its id; with users it has no «Eliminar», without them it is deleted after asking', async () => {
    const fake = rolesApi();
    const view = renderSection(Section, menu.prefix, '/config/rol/6', { api: fake.api, user: usuarioCon('administrador'), acciones: ACCIONES });
    expect(await screen.findByDisplayValue('Vendedor')).toBeTruthy();
    expect(screen.getByText('2 usuarios tienen este rol.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    await userEvent.click(checkbox('Ver en Informes'));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarrol')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarrol')[0]).toMatchObject({
      id: 6,
      nombre: 'Vendedor',
      derechos: { areas: { ventas: ['ver', 'editar'], informes: ['ver'] }, especiales: ['cambiar_precio'], descuento_maximo: 1000 },
    });
    view.unmount();

    renderSection(Section, menu.prefix, '/config/rol/7', { api: fake.api, user: usuarioCon('administrador'), acciones: ACCIONES });
    await screen.findByDisplayValue('Sin usar');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Eliminar rol' })).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(currentPath()).toBe('/config/roles'));
    expect(bodiesOf(fake.calls, 'eliminarrol')).toEqual([{ id: 7 }]);
  });

  it('a role that only sees roles reads them: fields disabled, no «Guardar», «Eliminar» or «Copiar»', async () => {
    const fake = rolesApi();
    renderSection(Section, menu.prefix, '/config/rol/7', { api: fake.api, user: usuarioCon('consulta'), acciones: ACCIONES });
    await screen.findByDisplayValue('Sin usar');
    expect(screen.getByText(MESSAGES.soloConsulta)).toBeTruthy();
    expect(checkbox('Ver en Catálogo').disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Copiar' })).toBeNull();
  });

  it('without «ver» in Usuarios the screens say so instead', async () => {
    const fake = rolesApi();
    const gestion = usuarioCon('administrador', ROL_PREDEFINIDO.gestion.derechos);
    renderSection(Section, menu.prefix, '/config/rol/6', { api: fake.api, user: gestion, acciones: ACCIONES });
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.seccionSinDerecho);
    expect(fake.calls.filter((c) => c.ac === 'listadoroles')).toHaveLength(0);
  });
});

describe('Roles: no self-promotion (issue 24)', () => {
  // «Usuarios › crear y modificar» and Ventas, not Administrador; its own role is #8.
  const PERSONAL: Derechos = { areas: { usuarios: ['ver', 'editar'], ventas: ['ver'] }, especiales: [], descuento_maximo: 0 };
  const personal = { id: 3, nombre: 'Pepa', email: 'pepa@demo.es', rol: { id: 8, nombre: 'Personal', clave: null, derechos: PERSONAL } };

  it('a right its own role lacks is not offered; one the role already had can be kept or cleared', async () => {
    const fake = rolesApi();
    renderSection(Section, menu.prefix, '/config/rol/6', { api: fake.api, user: personal, acciones: ACCIONES });
    await screen.findByDisplayValue('Vendedor');
    expect(checkbox('Ver en Informes').disabled).toBe(true);
    expect(checkbox('Ver en Copias de seguridad').disabled).toBe(true);
    // Vendedor already has Ventas › crear y modificar and «cambiar precio»: Pepa may clear them.
    expect(checkbox('Crear y modificar en Ventas').disabled).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Cambiar el precio en un documento o en el TPV' }) as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Anular facturas' }) as HTMLInputElement).disabled).toBe(true);
    expect(checkbox('Crear y modificar en Usuarios y roles').disabled).toBe(false);
  });

  it('its own role is read-only, saying why', async () => {
    const fake = rolesApi();
    const own: Rol = { id: 8, nombre: 'Personal', clave: null, predefinido: 0, derechos: PERSONAL, usuarios: 1 };
    const api = createFakeApi({ listadoroles: () => ({ RESULT: '0', data: [own], total: 1 }) });
    renderSection(Section, menu.prefix, '/config/rol/8', { api: api.api, user: personal, acciones: ACCIONES });
    await screen.findByDisplayValue('Personal');
    expect(screen.getAllByText(MESSAGES.reglaRolPropio).length).toBeGreaterThan(0);
    expect(checkbox('Ver en Catálogo').disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(fake.calls).toHaveLength(0);
  });

  it("the server's refusal is shown as it says it, and the form stays", async () => {
    const msg = MESSAGES.reglaDerechoAjeno.replace('{derecho}', '«Copias de seguridad › Descargar»');
    const fake = createFakeApi({
      listadoroles: ({ params = {} }: FakeCall) => ({ RESULT: '0', data: params.id ? [VENDEDOR] : [VENDEDOR], total: 1 }),
      editarrol: () => {
        throw new ApiHttpError(403, { RESULT: '1', message: msg, derecho: 'promocion' });
      },
    });
    const { toasts } = renderSection(Section, menu.prefix, '/config/rol/6', { api: fake.api, user: personal, acciones: ACCIONES });
    await screen.findByDisplayValue('Vendedor');
    await userEvent.click(checkbox('Crear y modificar en Ventas'));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(toasts.join('\n')).toContain(msg));
    expect(currentPath()).toBe('/config/rol/6');
  });
});
