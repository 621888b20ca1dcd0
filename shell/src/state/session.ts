import { create } from 'zustand';
import { emptyFlags, flagsFromConfig, type Configuracion, type ModuleFlags } from 'shared/arranque';

export type SessionUser = { id: number; nombre: string; email: string };

/** Spec §9: session storage holds the logged flag and the user; local storage holds the flags. */
const KEY_LOGGED = 'logueado';
const KEY_USER = 'usuario';
const KEY_FLAGS = 'modulos';
const KEY_REDIRECT = 'mtpv:redireccion';

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
  /** Address the user wanted before being sent to /login. */
  redirect: string | null;
  login(user: SessionUser | null | undefined, config: Configuracion | null | undefined): void;
  setConfig(config: Configuracion | null): void;
  clear(): void;
  rememberRedirect(path: string | null): void;
};

export const useSession = create<SessionState>((set) => ({
  logged: sessionStorage.getItem(KEY_LOGGED) === '1',
  user: read<SessionUser>(sessionStorage, KEY_USER),
  flags: read<ModuleFlags>(localStorage, KEY_FLAGS) ?? emptyFlags(),
  config: null,
  redirect: sessionStorage.getItem(KEY_REDIRECT),
  login(user, config) {
    const u = user && typeof user === 'object' && 'nombre' in user ? user : ADMIN_FALLBACK;
    const flags = flagsFromConfig(config);
    sessionStorage.setItem(KEY_LOGGED, '1');
    sessionStorage.setItem(KEY_USER, JSON.stringify(u));
    localStorage.setItem(KEY_FLAGS, JSON.stringify(flags));
    set({ logged: true, user: u, flags, config: config ?? null });
  },
  setConfig(config) {
    const flags = flagsFromConfig(config);
    localStorage.setItem(KEY_FLAGS, JSON.stringify(flags));
    set({ config, flags });
  },
  clear() {
    sessionStorage.removeItem(KEY_LOGGED);
    sessionStorage.removeItem(KEY_USER);
    localStorage.removeItem(KEY_FLAGS);
    set({ logged: false, user: null, flags: emptyFlags(), config: null });
  },
  rememberRedirect(path) {
    if (path) sessionStorage.setItem(KEY_REDIRECT, path);
    else sessionStorage.removeItem(KEY_REDIRECT);
    set({ redirect: path });
  },
}));
