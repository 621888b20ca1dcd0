import { CONSTANTS, createApiClient, MESSAGES } from 'shared/arranque';
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
});

export async function logout(): Promise<void> {
  await api.post('cerrarsesion').catch(() => undefined);
  await new Promise((r) => setTimeout(r, CONSTANTS.logoutDelayMs));
  useSession.getState().rememberRedirect(null);
  useSession.getState().clear();
}
