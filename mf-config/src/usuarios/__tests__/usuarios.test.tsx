import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiHttpError, MESSAGES, type Derechos, type Usuario } from 'shared';
import { bodiesOf, createFakeApi, currentPath, type FakeCall, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

const ME = { id: 1, nombre: 'Administrador', email: 'admin@demo.es' };
const ROLES = [
  { id: 1, nombre: 'Administrador', clave: 'administrador', predefinido: 1 },
  { id: 5, nombre: 'Consulta', clave: 'consulta', predefinido: 1 },
  { id: 6, nombre: 'Vendedor', clave: null, predefinido: 0 },
];

function usuario(id: number, overrides: Partial<Usuario> = {}): Usuario {
  return { id, nombre: `Usuario ${id}`, email: `u${id}@demo.es`, activo: 1, ultimo_acceso: null, creado: '2026-01-05T10:00:00Z', rol_id: 1, rol_nombre: 'Administrador', ...overrides };
}

/** A server of 60 users: paged, filtered by activo, one by id. */
function usersApi(extra: Record<string, (call: FakeCall) => ReturnType<Parameters<typeof createFakeApi>[0][string]>> = {}) {
  const all = [usuario(1, { nombre: 'Administrador', email: 'admin@demo.es', ultimo_acceso: '2026-11-20T08:30:00Z' })];
  for (let i = 2; i <= 60; i++) all.push(usuario(i, { activo: i % 10 === 0 ? 0 : 1 }));
  return createFakeApi({
    listadousuarios: ({ params = {} }) => {
      if (params.id !== undefined) {
        const u = all.find((x) => x.id === Number(params.id));
        return u ? { RESULT: '0', data: [u], total: 1 } : { RESULT: '3', message: MESSAGES.notFound };
      }
      const rows = params.activo !== undefined ? all.filter((u) => String(u.activo) === params.activo) : all;
      const por = Number(params.porPagina);
      const pagina = Number(params.pagina);
      return { RESULT: '0', data: rows.slice((pagina - 1) * por, pagina * por), total: rows.length };
    },
    editarusuario: ({ body }) => {
      const b = body as Partial<Usuario>;
      return { RESULT: '0', data: [{ ...usuario(b.id ?? 99), ...b }] };
    },
    eliminarusuario: () => ({ RESULT: '0', data: [] }),
    listadoroles: () => ({ RESULT: '0', data: ROLES, total: ROLES.length }),
    ...extra,
  });
}

const gets = (calls: FakeCall[]) => calls.filter((c) => c.ac === 'listadousuarios' && c.params?.id === undefined);

describe('Usuarios: listado', () => {
  it('shows the rows of the first page with their state, and pages through the rest', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuarios', { api: fake.api, user: ME });
    expect(await screen.findByRole('link', { name: 'Administrador' })).toBeTruthy();
    expect(screen.getByText('admin@demo.es')).toBeTruthy();
    // Each user's role.
    expect(within(screen.getAllByRole('row')[1]).getAllByText('Administrador')).toHaveLength(2);
    expect(screen.getByText('Usted')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(1 + 25);
    expect(screen.getByText('1–25 de 60 resultados')).toBeTruthy();
    expect(screen.getByText('Página 1 de 3')).toBeTruthy();
    expect(screen.getAllByText('Activo').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Inactivo').length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: 'Página siguiente' }));
    expect(await screen.findByText('Usuario 26')).toBeTruthy();
    expect(screen.getByText('Página 2 de 3')).toBeTruthy();
    expect(gets(fake.calls).at(-1)?.params).toMatchObject({ pagina: 2, porPagina: 25, orden: 'nombre', dir: 'asc' });
  });

  it('filters by state', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuarios', { api: fake.api, user: ME });
    await screen.findByRole('link', { name: 'Administrador' });
    await userEvent.selectOptions(screen.getByLabelText('Estado'), '0');
    expect(await screen.findByText('1–6 de 6 resultados')).toBeTruthy();
    expect(gets(fake.calls).at(-1)?.params).toMatchObject({ activo: '0', pagina: 1 });
  });

  it('"Nuevo usuario" and a row open the form', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuarios', { api: fake.api, user: ME });
    await userEvent.click(await screen.findByText('Usuario 2'));
    expect(await screen.findByRole('heading', { name: 'Usuario 2' })).toBeTruthy();
    expect(currentPath()).toBe('/config/usuario/2');
    await userEvent.click(screen.getByRole('link', { name: /Usuarios/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Nuevo usuario' }));
    expect(await screen.findByRole('heading', { name: 'Nuevo usuario' })).toBeTruthy();
    expect(currentPath()).toBe('/config/usuario/nuevo-usuario');
  });
});

describe('Usuarios: ficha', () => {
  it('creating a user without a password shows the message and sends nothing', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/nuevo-usuario', { api: fake.api, user: ME });
    await userEvent.type(await screen.findByLabelText(/^Nombre/), 'Lucía');
    await userEvent.type(screen.getByLabelText(/^Email/), 'lucia@demo.es');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('La contraseña no puede estar vacia')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarusuario')).toHaveLength(0);
  });

  it('an empty form shows the name and email messages', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/nuevo-usuario', { api: fake.api, user: ME });
    await userEvent.click(await screen.findByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    expect(screen.getByText(MESSAGES.emailRequired)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarusuario')).toHaveLength(0);
  });

  it('two different passwords are refused', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/nuevo-usuario', { api: fake.api, user: ME });
    await userEvent.type(await screen.findByLabelText(/^Nombre/), 'Lucía');
    await userEvent.type(screen.getByLabelText(/^Email/), 'lucia@demo.es');
    await userEvent.type(screen.getByLabelText(/^Contraseña/), 'secreta-123');
    await userEvent.type(screen.getByLabelText(/^Repetir contraseña/), 'secreta-124');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(MESSAGES.passwordsDiffer)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarusuario')).toHaveLength(0);
  });

  it('creates a user without id, with the password, and opens the new record', async () => {
    const fake = usersApi();
    const { toasts } = renderSection(Section, menu.prefix, '/config/usuario/nuevo-usuario', { api: fake.api, user: ME });
    await userEvent.type(await screen.findByLabelText(/^Nombre/), '  Lucía Pérez ');
    await userEvent.type(screen.getByLabelText(/^Email/), 'Lucia@Demo.es');
    await userEvent.type(screen.getByLabelText(/^Contraseña/), 'secreta-123');
    await userEvent.type(screen.getByLabelText(/^Repetir contraseña/), 'secreta-123');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(currentPath()).toBe('/config/usuario/99'));
    // Consulta, the role that changes nothing, unless another is chosen.
    expect(bodiesOf(fake.calls, 'editarusuario')).toEqual([{ nombre: 'Lucía Pérez', email: 'lucia@demo.es', password: 'secreta-123', activo: 1, rol_id: 5 }]);
    expect(toasts).toContain('success:');
  });

  it('editing without a new password keeps it: no password is sent', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/5', { api: fake.api, user: ME });
    const nombre = await screen.findByDisplayValue('Usuario 5');
    await userEvent.clear(nombre);
    await userEvent.type(nombre, 'Marta');
    await userEvent.click(screen.getByRole('switch', { name: /^Activo/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarusuario')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarusuario')[0]).toEqual({ id: 5, nombre: 'Marta', email: 'u5@demo.es', activo: 0, rol_id: 1 });
  });

  it("shows the server's field error (a duplicated email) on the field", async () => {
    const fake = usersApi({
      editarusuario: () => {
        throw new ApiHttpError(400, { RESULT: '1', message: MESSAGES.invalidFields, errors: { email: MESSAGES.duplicated } });
      },
    });
    renderSection(Section, menu.prefix, '/config/usuario/5', { api: fake.api, user: ME });
    await screen.findByDisplayValue('Usuario 5');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(MESSAGES.duplicated)).toBeTruthy();
    expect(currentPath()).toBe('/config/usuario/5');
  });

  it("you can't delete or deactivate yourself: no Eliminar, the switch is locked", async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/1', { api: fake.api, user: ME });
    await screen.findByRole('heading', { name: /Administrador/ });
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    const activo = screen.getByRole('switch', { name: /^Activo/ }) as HTMLInputElement;
    expect(activo.disabled).toBe(true);
    expect(activo.checked).toBe(true);
    expect(screen.getByText(MESSAGES.cannotDeactivateSelf)).toBeTruthy();
  });

  it('deletes another user after confirming, and goes back to the list', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/7', { api: fake.api, user: ME });
    await screen.findByDisplayValue('Usuario 7');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminar usuario' });
    expect(within(dialog).getByText(/«Usuario 7»/)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'eliminarusuario')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(currentPath()).toBe('/config/usuarios'));
    expect(bodiesOf(fake.calls, 'eliminarusuario')).toEqual([{ id: 7 }]);
  });

  it('cancelling the dialog deletes nothing', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/7', { api: fake.api, user: ME });
    await screen.findByDisplayValue('Usuario 7');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bodiesOf(fake.calls, 'eliminarusuario')).toHaveLength(0);
  });

  it('an unknown user shows "Usuario no encontrado" with a way back', async () => {
    const fake = usersApi();
    renderSection(Section, menu.prefix, '/config/usuario/999', { api: fake.api, user: ME });
    expect(await screen.findByText('Usuario no encontrado')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Usuarios/ }).getAttribute('href')).toBe('/config/usuarios');
  });
});

describe('Usuarios: no self-promotion (issue 24)', () => {
  const PERSONAL: Derechos = { areas: { usuarios: ['ver', 'editar'] }, especiales: [], descuento_maximo: 0 };
  const CONSULTA_RIGHTS: Derechos = { areas: { ventas: ['ver'] }, especiales: [], descuento_maximo: 0 };
  const roles = [
    { id: 1, nombre: 'Administrador', clave: 'administrador', predefinido: 1, derechos: { areas: { usuarios: ['ver', 'editar'], copias: ['ver'] }, especiales: [], descuento_maximo: 0 } },
    { id: 5, nombre: 'Consulta', clave: 'consulta', predefinido: 1, derechos: CONSULTA_RIGHTS },
    { id: 8, nombre: 'Personal', clave: null, predefinido: 0, derechos: PERSONAL },
  ];
  // Pepa manages users without being an Administrador.
  const PEPA = { id: 3, nombre: 'Pepa', email: 'pepa@demo.es', rol: { id: 8, nombre: 'Personal', clave: null, derechos: PERSONAL } };
  const api = () =>
    usersApi({
      listadoroles: () => ({ RESULT: '0', data: roles, total: roles.length }),
      listadousuarios: ({ params = {} }) => {
        const all = [usuario(1), usuario(3, { nombre: 'Pepa', rol_id: 8 }), usuario(4, { nombre: 'Luis', rol_id: 5 }), usuario(7, { nombre: 'Marta', rol_id: 8 })];
        const u = all.find((x) => x.id === Number(params.id));
        return { RESULT: '0', data: u ? [u] : all, total: u ? 1 : all.length };
      },
    });

  it("an administrator's record: said why, and its e-mail, password, role, state and deletion are not offered", async () => {
    renderSection(Section, menu.prefix, '/config/usuario/1', { api: api().api, user: PEPA });
    await screen.findByDisplayValue('u1@demo.es');
    expect(screen.getAllByText(MESSAGES.reglaUsuarioAdministrador).length).toBeGreaterThan(0);
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText(/^Nueva contraseña/) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText(/^Rol/) as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByRole('switch', { name: /^Activo/ }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
  });

  it('its own role cannot be changed; Administrador and roles beyond its rights are not offered to others', async () => {
    const view = renderSection(Section, menu.prefix, '/config/usuario/3', { api: api().api, user: PEPA });
    await screen.findByDisplayValue('u3@demo.es');
    expect((screen.getByLabelText(/^Rol/) as HTMLSelectElement).disabled).toBe(true);
    expect(screen.getByText(MESSAGES.reglaRolPropio)).toBeTruthy();
    view.unmount();

    renderSection(Section, menu.prefix, '/config/usuario/7', { api: api().api, user: PEPA });
    await screen.findByDisplayValue('u7@demo.es');
    const rol = screen.getByLabelText(/^Rol/) as HTMLSelectElement;
    expect(rol.disabled).toBe(false);
    const opcion = (label: string) => [...rol.options].find((o) => o.text === label)!;
    expect(opcion('Administrador').disabled).toBe(true);
    expect(opcion('Consulta').disabled).toBe(true);
    expect(opcion('Personal').disabled).toBe(false);
    // Marta's rights are within Pepa's: her password may be set.
    expect((screen.getByLabelText(/^Nueva contraseña/) as HTMLInputElement).disabled).toBe(false);
  });

  it("a user with rights beyond its own: the e-mail and password are locked, naming the right", async () => {
    renderSection(Section, menu.prefix, '/config/usuario/4', { api: api().api, user: PEPA });
    await screen.findByDisplayValue('u4@demo.es');
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText(/^Nueva contraseña/) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getAllByText(MESSAGES.reglaCredencialesAjenas.replace('{derecho}', '«Ventas › Ver»')).length).toBeGreaterThan(0);
  });
});
