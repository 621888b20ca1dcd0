import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROL_PREDEFINIDO, type RolPredefinido } from 'shared';
import { renderWithShell } from 'shared/testing';
import { useSession } from '../state/session';
import { BandaDemo } from './AppLayout';

// The layout's session heartbeat asks the server: not here.
vi.mock('./Heartbeat', () => ({ Heartbeat: () => null }));

afterEach(() => {
  cleanup();
  useSession.setState({ demo: false });
});

const con = (clave: RolPredefinido) => ({ id: 2, nombre: 'Ana', email: 'ana@demo.es', rol: { id: 4, nombre: ROL_PREDEFINIDO[clave].nombre, clave, derechos: ROL_PREDEFINIDO[clave].derechos } });
/** What `eliminardemo` needs, as `identificar` and `sesion` answer it. */
const acciones = { eliminardemo: 'configuracion.eliminar' };

describe('the demo band', () => {
  it('while the company is the demo: «Empresa de demostración · Empezar con mis datos», a link to Utilidades for whoever may run it', () => {
    useSession.setState({ demo: true });
    renderWithShell(<BandaDemo />, { user: con('administrador'), acciones });
    const banda = screen.getByRole('note', { name: 'Empresa de demostración' });
    expect(banda.textContent?.replace(/\s+/g, ' ')).toBe('Empresa de demostración · Empezar con mis datos');
    expect(screen.getByRole('link', { name: 'Empezar con mis datos' }).getAttribute('href')).toBe('/config/utilidades');
  });

  it('plain text for a role that may not', () => {
    useSession.setState({ demo: true });
    renderWithShell(<BandaDemo />, { user: con('gestion'), acciones });
    expect(screen.getByRole('note', { name: 'Empresa de demostración' }).textContent).toContain('Empezar con mis datos');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('a live company: no band', () => {
    useSession.setState({ demo: false });
    renderWithShell(<BandaDemo />, { user: con('administrador'), acciones });
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('the session remembers it: login and a fresh read set it, a logout clears it', () => {
    const user = con('administrador');
    useSession.getState().login(user, null, acciones, 1);
    expect(useSession.getState().demo).toBe(true);
    expect(sessionStorage.getItem('mtpv:demo')).toBe('1');
    useSession.getState().refresh(user, null, acciones, 0);
    expect(useSession.getState().demo).toBe(false);
    useSession.getState().login(user, null, acciones, 1);
    useSession.getState().clear();
    expect(useSession.getState().demo).toBe(false);
    expect(sessionStorage.getItem('mtpv:demo')).toBeNull();
  });
});

describe('the skip link (issue 26)', () => {
  it('the first Tab reaches «Saltar al contenido», and it moves the focus to the page’s content, past the menu', async () => {
    const { AppLayout } = await import('./AppLayout');
    renderWithShell(<AppLayout deploy={{ remotes: [] } as never} deployError={false} />, { user: con('administrador') });
    // The first thing a Tab reaches: the first focusable element of the page.
    const primero = document.querySelector<HTMLElement>('a[href], button:not([disabled]), input, select, textarea, [tabindex="0"]');
    const salto = screen.getByRole('link', { name: 'Saltar al contenido' });
    expect(primero).toBe(salto);
    fireEvent.click(salto);
    expect(document.activeElement?.id).toBe('contenido');
    expect(document.activeElement?.tagName).toBe('MAIN');
  });
});
