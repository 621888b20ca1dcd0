import { render, type RenderResult } from '@testing-library/react';
import type { ComponentType, ReactElement } from 'react';
import { createMemoryRouter, Route, RouterProvider, Routes, useLocation } from 'react-router';
import { ThemeProvider } from 'styled-components';
import type { ApiClient } from '../api/client';
import type { ApiResponse, ListParams } from '../domain/api';
import { FLAG_NAMES, type ModuleFlags } from '../domain/flags';
import { ShellContext, type ShellServices } from '../context';
import { makeTheme } from '../ui/theme';

export type FakeCall = {
  method: 'GET' | 'POST' | 'UPLOAD';
  ac: string;
  params?: ListParams;
  body?: unknown;
  /** UPLOAD: the file's name and the text fields sent beside it. */
  fileName?: string;
  fields?: Record<string, string | number>;
};
export type FakeHandler = (call: FakeCall) => ApiResponse | Promise<ApiResponse>;

/** An ApiClient answering from handlers keyed by action; records every call. */
export function createFakeApi(handlers: Record<string, FakeHandler>) {
  const calls: FakeCall[] = [];
  const answer = async (call: FakeCall): Promise<ApiResponse> => {
    calls.push(call);
    const h = handlers[call.ac];
    if (!h) return { RESULT: '1', message: `sin respuesta de prueba para ${call.ac}` };
    return h(call);
  };
  const api: ApiClient = {
    get: (ac, params) => answer({ method: 'GET', ac, params }) as never,
    post: (ac, body, params) => answer({ method: 'POST', ac, body, params }) as never,
    upload: (ac, file, fileName, fields) => answer({ method: 'UPLOAD', ac, body: file, fileName, fields }) as never,
  };
  return { api, calls };
}

export const allFlags = (on: 0 | 1 = 1): ModuleFlags => Object.fromEntries(FLAG_NAMES.map((f) => [f, on])) as ModuleFlags;

export type RenderWithShellOptions = Partial<ShellServices> & { route?: string };

/** Renders a remote's screen as the shell would: theme, a data router (as the shell's) and shell services. */
export function renderWithShell(ui: ReactElement, options: RenderWithShellOptions = {}): RenderResult & { services: ShellServices; toasts: string[] } {
  const toasts: string[] = [];
  const services: ShellServices = {
    api: options.api ?? createFakeApi({}).api,
    flags: options.flags ?? allFlags(1),
    user: options.user ?? { id: 1, nombre: 'Administrador', email: 'admin@demo.es' },
    config: options.config ?? null,
    toast: options.toast ?? {
      success: (t) => toasts.push(`success:${t ?? ''}`),
      error: (t) => toasts.push(`error:${t ?? ''}`),
      associated: (t) => toasts.push(`associated:${t ?? ''}`),
      info: (t) => toasts.push(`info:${t}`),
    },
    reloadConfig: options.reloadConfig ?? (async () => {}),
    ...(options.acciones ? { acciones: options.acciones } : {}),
  };
  // One splat route rendering `ui`, whose own <Routes> match the rest, like the shell's router.
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [options.route ?? '/'] });
  const result = render(
    <ThemeProvider theme={makeTheme('slate')}>
      <ShellContext.Provider value={services}>
        <RouterProvider router={router} />
      </ShellContext.Provider>
    </ThemeProvider>,
  );
  return Object.assign(result, { services, toasts });
}

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Where the router is now (after a save, a delete, a click on a row), in a screen mounted by `renderSection`. */
export const currentPath = () => document.querySelector('[data-testid="location"]')?.textContent;

/**
 * Mounts a remote's whole section (its `./Section`) under its prefix (`menu.prefix`, e.g. '/config'),
 * as the shell does, at `route` (e.g. '/config/usuarios'); an address outside it shows 'fuera de la sección'.
 */
export function renderSection(Section: ComponentType, prefix: string, route: string, options: RenderWithShellOptions = {}) {
  return renderWithShell(
    <>
      <Routes>
        <Route path={`${prefix}/*`} element={<Section />} />
        <Route path="*" element={<p>fuera de la sección</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { ...options, route },
  );
}

/** The POST bodies sent to one action. */
export function bodiesOf(calls: { method: string; ac: string; body?: unknown }[], ac: string) {
  return calls.filter((c) => c.ac === ac && c.method !== 'GET').map((c) => c.body as Record<string, unknown>);
}
export * from './fakes';
