import { createContext, useContext, type Context } from 'react';
import type { ApiClient } from './api/client';
import type { Configuracion, UsuarioSesion } from './domain/entities';
import type { ModuleFlags } from './domain/flags';

export type Toasts = {
  success(text?: string): void;
  error(text?: string): void;
  /** RESULT 2: associated data forbids the action. */
  associated(text?: string): void;
  info(text: string): void;
};

/** What the shell hands every remote. Remotes read it with `useShell()`, never import the shell. */
export type ShellServices = {
  api: ApiClient;
  flags: ModuleFlags;
  /** Who is logged in; `rol` carries the rights the screens follow (without it, a session from before roles: all shown). */
  user: UsuarioSesion | null;
  /** What each op.asp action needs (the server's table, `codificarNecesidad`); absent: every action shown. */
  acciones?: Record<string, string>;
  config: Configuracion | null;
  toast: Toasts;
  /** Re-reads the configuration (flags, company data); the menu follows at once. */
  reloadConfig(): Promise<void>;
};

/**
 * One context object per page, whichever copy of `shared` a remote brings: a remote built against a
 * newer `shared` runs its own copy (see build/federation.mjs) and still sees the shell's services.
 */
const CONTEXT_KEY = Symbol.for('manager-tpv.shell-context');
const registry = globalThis as unknown as Record<symbol, Context<ShellServices | null> | undefined>;
export const ShellContext = registry[CONTEXT_KEY] ?? createContext<ShellServices | null>(null);
registry[CONTEXT_KEY] = ShellContext;

export function useShell(): ShellServices {
  const ctx = useContext(ShellContext);
  if (!ctx) throw new Error('useShell() fuera del ShellContext: monte la sección dentro del shell o del arnés');
  return ctx;
}
