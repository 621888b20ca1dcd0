import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, Route, RouterProvider, Routes } from 'react-router';
import { ThemeProvider } from 'styled-components';
import { createApiClient } from './api/client';
import { ShellContext, type ShellServices } from './context';
import type { Configuracion } from './domain/entities';
import { flagsFromConfig } from './domain/flags';
import type { SectionMenu } from './domain/menu';
import { visibleEntries } from './domain/menu';
import { loginSchema } from './domain/schemas';
import { validate } from './domain/validation';
import { Button, Card, ErrorText } from './ui/primitives';
import { TextField } from './ui/fields';
import { SectionGrid, SideList } from './ui/layout';
import { makeTheme } from './ui/theme';

/**
 * Runs one remote on its own (`pnpm --filter mf-x dev`) against a running server (proxied /api):
 * a bare login, the section's side list and its routes. Toasts go to the console.
 */
export function mountHarness(Section: ComponentType, menu: SectionMenu, el: HTMLElement): void {
  createRoot(el).render(<Harness Section={Section} menu={menu} />);
}

const HARNESS_USER_KEY = 'mtpv:arnes:usuario';
const HARNESS_ACCIONES_KEY = 'mtpv:arnes:acciones';

function readHarnessAcciones(): Record<string, string> | undefined {
  try {
    return (JSON.parse(sessionStorage.getItem(HARNESS_ACCIONES_KEY) ?? 'null') as Record<string, string> | null) ?? undefined;
  } catch {
    return undefined;
  }
}

function readHarnessUser(): ShellServices['user'] {
  try {
    const u = JSON.parse(sessionStorage.getItem(HARNESS_USER_KEY) ?? 'null') as ShellServices['user'];
    return u && typeof u.id === 'number' ? u : { id: 0, nombre: 'arnés', email: '' };
  } catch {
    return { id: 0, nombre: 'arnés', email: '' };
  }
}

const HarnessRoutesContext = createContext<ReactNode>(null);

/**
 * A data router, as in the shell (forms ask before leaving with unsaved changes: `useBlocker`), with
 * one splat route rendering the harness' own <Routes>, which follow its state through context.
 */
function HarnessRouter({ children }: { children: ReactNode }) {
  const [router] = useState(() => createBrowserRouter([{ path: '*', element: <HarnessOutlet /> }]));
  return (
    <HarnessRoutesContext.Provider value={children}>
      <RouterProvider router={router} />
    </HarnessRoutesContext.Provider>
  );
}

function HarnessOutlet() {
  return <>{useContext(HarnessRoutesContext)}</>;
}

function Harness({ Section, menu }: { Section: ComponentType; menu: SectionMenu }) {
  const api = useMemo(() => createApiClient(), []);
  const [config, setConfig] = useState<Configuracion | null>(null);
  const [state, setState] = useState<'loading' | 'login' | 'ready'>('loading');
  const [form, setForm] = useState({ email: '', password: '' });
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    try {
      const res = await api.get<Configuracion>('listadoconfiguraciones');
      setConfig(res.data?.[0] ?? null);
      setState('ready');
    } catch {
      setState('login');
    }
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  const services: ShellServices = {
    api,
    flags: flagsFromConfig(config),
    user: readHarnessUser(),
    acciones: readHarnessAcciones(),
    config,
    toast: { success: (t) => console.info('Exito!', t ?? ''), error: (t) => console.error('Error!', t ?? ''), associated: () => console.warn('Acción no posible'), info: console.info },
    reloadConfig: load,
  };

  if (state === 'loading') return null;
  if (state === 'login')
    return (
      <ThemeProvider theme={makeTheme()}>
        <Card style={{ maxWidth: 360, margin: '40px auto' }}>
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              const v = validate(loginSchema, form);
              if (!v.ok) return setError(Object.values(v.errors)[0]);
              const res = await api.post('identificar', form).catch(() => ({ RESULT: '1' as const, user: undefined }));
              if (res.RESULT === '0') {
                // Like the shell: the user in session storage, so screens know who is logged in after a reload.
                sessionStorage.setItem(HARNESS_USER_KEY, JSON.stringify(res.user ?? null));
                sessionStorage.setItem(HARNESS_ACCIONES_KEY, JSON.stringify(res.acciones ?? null));
                void load();
              }
              else setError('Usuario o contraseña incorrectos');
            }}
          >
            <TextField label="Email" value={form.email} onChange={(email) => setForm({ ...form, email })} />
            <TextField label="Contraseña" type="password" value={form.password} onChange={(password) => setForm({ ...form, password })} />
            {error && <ErrorText>{error}</ErrorText>}
            <Button type="submit">Entrar</Button>
          </form>
        </Card>
      </ThemeProvider>
    );
  return (
    <ThemeProvider theme={makeTheme()}>
      <ShellContext.Provider value={services}>
        <HarnessRouter>
          <div style={{ padding: 24 }}>
            <Routes>
              <Route path="/" element={<Navigate to={menu.prefix} replace />} />
              <Route
                path={`${menu.prefix}/*`}
                element={
                  <SectionGrid>
                    <SideList prefix={menu.prefix} entries={visibleEntries(menu, services.flags, services.user?.rol?.derechos)} />
                    {/* One grid cell, whatever the section renders. */}
                    <div style={{ minWidth: 0 }}>
                      <Section />
                    </div>
                  </SectionGrid>
                }
              />
            </Routes>
          </div>
        </HarnessRouter>
      </ShellContext.Provider>
    </ThemeProvider>
  );
}
