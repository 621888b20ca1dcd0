import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ThemeProvider } from 'styled-components';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTheme } from 'shared';
import { useSession } from '../state/session';
import { LoginPage } from './LoginPage';

const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function renderLogin() {
  render(
    <ThemeProvider theme={makeTheme()}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/config/usuarios" element={<p>pantalla de usuarios</p>} />
          <Route path="/" element={<p>inicio</p>} />
          <Route path="/tpv" element={<p>la caja</p>} />
        </Routes>
      </MemoryRouter>
    </ThemeProvider>,
  );
}

function fill(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
}

describe('LoginPage', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
    useSession.getState().clear();
    useSession.getState().rememberRedirect(null);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('validates before sending, with the specification messages', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    fill('', '');
    expect(await screen.findByText('Debe introducir una dirección de correo electrónico')).toBeTruthy();
    expect(screen.getByText('La contraseña no puede estar vacia')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a till-only role (Caja) goes straight to the till, whatever address was remembered; another role does not', async () => {
    const caja = { id: 5, nombre: 'Caja', clave: 'caja', derechos: { areas: { tpv: ['ver', 'editar', 'acciones'] }, especiales: [], descuento_maximo: 0 } };
    vi.stubGlobal('fetch', vi.fn(async () => reply({ RESULT: '0', user: { id: 2, nombre: 'Luis', email: 'luis@demo.es', rol: caja }, data: [{ id: 1 }] })));
    useSession.getState().rememberRedirect('/config/usuarios');
    renderLogin();
    fill('luis@demo.es', 'secreta-123');
    expect(await screen.findByText('la caja')).toBeTruthy();
    cleanup();
    useSession.getState().clear();
    useSession.getState().rememberRedirect(null);
    const gestion = { ...caja, nombre: 'Gestión', clave: 'gestion', derechos: { ...caja.derechos, areas: { tpv: ['ver'], ventas: ['ver'] } } };
    vi.stubGlobal('fetch', vi.fn(async () => reply({ RESULT: '0', user: { id: 3, nombre: 'Eva', email: 'eva@demo.es', rol: gestion }, data: [{ id: 1 }] })));
    renderLogin();
    fill('eva@demo.es', 'secreta-123');
    expect(await screen.findByText('inicio')).toBeTruthy();
  });

  it('logs in, stores the session and flags, and goes to the remembered address', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => reply({ RESULT: '0', user: { id: 1, nombre: 'Ana', email: 'ana@demo.es' }, data: [{ id: 1, conf_compras: 1, conf_partes: 1 }] })));
    useSession.getState().rememberRedirect('/config/usuarios');
    renderLogin();
    fill('ana@demo.es', 'secreta-123');
    expect(await screen.findByText('pantalla de usuarios')).toBeTruthy();
    expect(sessionStorage.getItem('logueado')).toBe('1');
    expect(JSON.parse(sessionStorage.getItem('usuario')!).nombre).toBe('Ana');
    const flags = JSON.parse(localStorage.getItem('modulos')!);
    expect(flags.compras).toBe(1);
    expect(flags.partes_trabajo).toBe(1);
    expect(flags.ventas).toBe(0);
  });

  it('falls back to the admin user when the server names none', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => reply({ RESULT: '0', data: [{ id: 1 }] })));
    renderLogin();
    fill('ana@demo.es', 'secreta-123');
    expect(await screen.findByText('inicio')).toBeTruthy();
    expect(useSession.getState().user?.nombre).toBe('admin');
  });

  it('does nothing on RESULT 2 and shows the message on RESULT 1', async () => {
    const fetchMock = vi.fn(async () => reply({ RESULT: '2' }));
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    fill('ana@demo.es', 'secreta-123');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    expect(useSession.getState().logged).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();

    fetchMock.mockImplementation(async () => reply({ RESULT: '1', message: 'Usuario o contraseña incorrectos' }));
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Usuario o contraseña incorrectos')).toBeTruthy();
  });
});
