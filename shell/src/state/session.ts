import { create } from 'zustand';
import { emptyFlags, flagsFromConfig, type Configuracion, type ModuleFlags, type UsuarioSesion } from 'shared/arranque';

/** Who is logged in, with the role and its rights (the menu and the buttons follow them). */
export type SessionUser = UsuarioSesion;

/** Spec §9: session storage holds the logged flag and the user; local storage holds the flags. */
const KEY_LOGGED = 'logueado';
const KEY_USER = 'usuario';
const KEY_FLAGS = 'modulos';
const KEY_REDIRECT = 'mtpv:redireccion';
/** What each op.asp action needs (identificar / sesion): the buttons hide what the role would be refused. */
const KEY_ACCIONES = 'mtpv:acciones';
/** Issue 22: the company is the demo (identificar / sesion say so): the header's band. */
const KEY_DEMO = 'mtpv:demo';

const ADMIN_FALLBACK: SessionUser = { id: 0, nombre: 'admin', email: '' };

function read<T>(storage: Storage, key: string): T | null {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

type SessionState = {
  logged: boolean;
  user: SessionUser | null;
  flags: ModuleFlags;
  config: Configuracion | null;
  acciones: Record<string, string> | undefined;
  /** The company is the demo (a sandbox) until «Empezar con mis datos»: every screen says so. */
  demo: boolean;
  /** Address the user wanted before being sent to /login. */
  redirect: string | null;
  login(user: SessionUser | null | undefined, config: Configuracion | null | undefined, acciones?: Record<string, string>, demo?: 0 | 1): void;
  setConfig(config: Configuracion | null): void;
  /** The session read again (`sesion`): the user's role as it is now, the configuration and the table of needs. */
  refresh(user: SessionUser | null | undefined, config: Configuracion | null | undefined, acciones?: Record<string, string>, demo?: 0 | 1): void;
  clear(): void;
  rememberRedirect(path: string | null): void;
};

export const useSession = create<SessionState>((set) => ({
  logged: sessionStorage.getItem(KEY_LOGGED) === '1',
  user: read<SessionUser>(sessionStorage, KEY_USER),
  flags: read<ModuleFlags>(localStorage, KEY_FLAGS) ?? emptyFlags(),
  config: null,
  acciones: read<Record<string, string>>(sessionStorage, KEY_ACCIONES) ?? undefined,
  demo: sessionStorage.getItem(KEY_DEMO) === '1',
  redirect: sessionStorage.getItem(KEY_REDIRECT),
  login(user, config, acciones, demo) {
    const u = user && typeof user === 'object' && 'nombre' in user ? user : ADMIN_FALLBACK;
    const flags = flagsFromConfig(config);
    sessionStorage.setItem(KEY_LOGGED, '1');
    sessionStorage.setItem(KEY_USER, JSON.stringify(u));
    if (acciones) sessionStorage.setItem(KEY_ACCIONES, JSON.stringify(acciones));
    else sessionStorage.removeItem(KEY_ACCIONES);
    localStorage.setItem(KEY_FLAGS, JSON.stringify(flags));
    sessionStorage.setItem(KEY_DEMO, demo === 1 ? '1' : '0');
    set({ logged: true, user: u, flags, config: config ?? null, acciones, demo: demo === 1 });
  },
  refresh(user, config, acciones, demo) {
    if (!user || typeof user !== 'object' || !('nombre' in user)) return;
    const flags = flagsFromConfig(config);
    sessionStorage.setItem(KEY_USER, JSON.stringify(user));
    if (acciones) sessionStorage.setItem(KEY_ACCIONES, JSON.stringify(acciones));
    localStorage.setItem(KEY_FLAGS, JSON.stringify(flags));
    if (demo !== undefined) sessionStorage.setItem(KEY_DEMO, demo === 1 ? '1' : '0');
    set({ user, flags, config: config ?? null, ...(acciones ? { acciones } : {}), ...(demo !== undefined ? { demo: demo === 1 } : {}) });
  },
  setConfig(config) {
    const flags = flagsFromConfig(config);
    localStorage.setItem(KEY_FLAGS, JSON.stringify(flags));
    set({ config, flags });
  },
  clear() {
    sessionStorage.removeItem(KEY_LOGGED);
    sessionStorage.removeItem(KEY_USER);
    sessionStorage.removeItem(KEY_ACCIONES);
    sessionStorage.removeItem(KEY_DEMO);
    localStorage.removeItem(KEY_FLAGS);
    set({ logged: false, user: null, flags: emptyFlags(), config: null, acciones: undefined, demo: false });
  },
  rememberRedirect(path) {
    if (path) sessionStorage.setItem(KEY_REDIRECT, path);
    else sessionStorage.removeItem(KEY_REDIRECT);
    set({ redirect: path });
  },
}));
