/**
 * What the shell needs before its first paint (the login and the password recovery, the theme, the
 * op.asp client, the session's flags), from the files that hold it and nothing else. The shell imports
 * these from `shared/arranque`, which is bundled into the shell and tree-shaken, not from `shared`: the
 * federated `shared` is the whole library (it cannot be tree-shaken: any remote may use any export),
 * and it now loads after the login, with the first screen that needs it. What must be one per page
 * (`ShellContext`, `ApiHttpError`) lives in `globalThis`, so both copies agree. Every export here is
 * also exported by `shared`.
 */
export { ApiHttpError, createApiClient, type ApiClient } from './api/client';
export { ShellContext, type ShellServices, type Toasts } from './context';
export { API_BASE, DEPLOY_PATH } from './domain/api';
export type { Configuracion, UsuarioSesion } from './domain/entities';
export { emptyFlags, flagsFromConfig, type ModuleFlags } from './domain/flags';
export type { DeployInfo, DeployedRemote } from './domain/menu';
export { CONSTANTS, MESSAGES, TOASTS } from './domain/messages';
export { loginSchema, recordarSchema, restablecerSchema } from './domain/schemas';
export { TextField } from './ui/fields';
export { Button, Card, ErrorText, Spinner } from './ui/primitives';
export { makeTheme, PALETTES, type ColorName, type Theme } from './ui/theme';
export { useForm } from './ui/useForm';
