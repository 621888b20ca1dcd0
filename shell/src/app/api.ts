import { CONSTANTS, createApiClient, MESSAGES, type Configuracion, type UsuarioSesion } from 'shared/arranque';
import { useSession } from '../state/session';
import { toasts } from './toasts';

let forcedOut = false;

/** Session lost (401, heartbeat, or too many empty answers): drop it; RequireAuth sends to /login. */
export function dropSession(message: string = MESSAGES.sessionExpired): void {
  if (!useSession.getState().logged || forcedOut) return;
  forcedOut = true;
  toasts.info(message);
  useSession.getState().clear();
  setTimeout(() => (forcedOut = false), 1000);
}

/** The one op.asp client of the app; sections get it through the shell context. */
export const api = createApiClient({
  onEmptyResponse: (count) => {
    // Spec §8: more than 5 empty answers in a row log the user out.
    if (count > CONSTANTS.emptyResponseLimit) dropSession('Se ha perdido la conexión con el servidor. Vuelva a identificarse.');
  },
  onUnauthorized: () => dropSession(),
  // A refusal by the role: it may have changed since the menu was drawn (it applies on the next request).
  onForbidden: () => void refreshSession(),
});

let refreshing: Promise<void> | null = null;

/**
 * Reads the session again (`sesion`): the role and its rights as they are now, the configuration, the table of needs.
 * Refusals in a burst share one read; `fresh` (after a save of the configuration) always asks anew.
 */
export function refreshSession(fresh = false): Promise<void> {
  if (refreshing && !fresh) return refreshing;
  const read = api
    .get<Configuracion>('sesion')
    .then((res) => {
      if (res.RESULT === '0') useSession.getState().refresh(res.user as UsuarioSesion, res.data?.[0] ?? null, res.acciones, res.demo);
    })
    // 401 is handled by the client; other failures keep what the app has.
    .catch(() => undefined)
    .finally(() => {
      if (refreshing === read) refreshing = null;
    });
  refreshing = read;
  return read;
}

export async function logout(): Promise<void> {
  await api.post('cerrarsesion').catch(() => undefined);
  await new Promise((r) => setTimeout(r, CONSTANTS.logoutDelayMs));
  useSession.getState().rememberRedirect(null);
  useSession.getState().clear();
}
