import { useEffect } from 'react';
import { guardarClave, leer } from '../datos/almacen';

/**
 * Who sells (issue 23): the till locks after its terminal's idle time (`bloqueo_minutos`, 0 = never) and asks for a
 * PIN; the lock survives a reload (`estado.bloqueada`). Unlocking goes to the server (`identificartpv`); without it,
 * only the cashier whose session is open may unlock, against a verifier of their PIN kept on this browser when they
 * last typed it with the server's answer (PBKDF2-SHA-256, a random salt; never the PIN). A handful of wrong PINs offline
 * and the till needs the server.
 */

/** What a PIN typed offline is checked against: PBKDF2-SHA-256 of the PIN with a random salt. */
type Verificador = { sal: string; hash: string; iteraciones: number };

const ITERACIONES = 100_000;
/** Wrong PINs typed offline before the till asks for the server. */
export const MAX_FALLOS_SIN_CONEXION = 5;
let fallosSinConexion = 0;

const b64 = (b: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(b)));
const deB64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

async function derivar(pin: string, sal: Uint8Array, iteraciones: number): Promise<string> {
  const clave = await crypto.subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: sal as BufferSource, iterations: iteraciones }, clave, 256);
  return b64(bits);
}

/** Keeps the verifier of a PIN the server just accepted (the login, a PIN changed). */
export async function recordarPin(usuarioId: number, pin: string): Promise<void> {
  const sal = crypto.getRandomValues(new Uint8Array(16));
  const v: Verificador = { sal: b64(sal), hash: await derivar(pin, sal, ITERACIONES), iteraciones: ITERACIONES };
  await guardarClave('estado', `pin:${usuarioId}`, v).catch(() => undefined);
  fallosSinConexion = 0;
}

/** Checks a PIN without the server: true / false, or null when this browser keeps no verifier for that user. */
export async function comprobarPinLocal(usuarioId: number, pin: string): Promise<boolean | null> {
  const v = await leer<Verificador>('estado', `pin:${usuarioId}`).catch(() => undefined);
  if (!v) return null;
  if (fallosSinConexion >= MAX_FALLOS_SIN_CONEXION) return null;
  const ok = (await derivar(pin, deB64(v.sal), v.iteraciones)) === v.hash;
  if (ok) fallosSinConexion = 0;
  else fallosSinConexion++;
  return ok;
}

/** For tests: forget the wrong PINs counted. */
export function reiniciarFallosPin() {
  fallosSinConexion = 0;
}

/** The lock kept across a reload: a locked till stays locked. */
export const guardarBloqueo = (bloqueada: boolean) => guardarClave('estado', 'bloqueada', bloqueada).catch(() => undefined);
export const leerBloqueo = async () => (await leer<boolean>('estado', 'bloqueada').catch(() => undefined)) === true;

/** What counts as the cashier using the till. */
const ACTIVIDAD = ['pointerdown', 'keydown', 'input', 'touchstart', 'wheel'] as const;

/**
 * Calls `bloquear` once the till has not been used for `minutos` (0 or null: never). The listeners only note the time
 * (a scan's keys cost nothing more); a timer looks at it.
 */
export function useInactividad(minutos: number | null | undefined, activo: boolean, bloquear: () => void) {
  useEffect(() => {
    if (!activo || !minutos || minutos <= 0) return;
    const ms = minutos * 60_000;
    let ultima = Date.now();
    const uso = () => {
      ultima = Date.now();
    };
    for (const ev of ACTIVIDAD) document.addEventListener(ev, uso, { capture: true, passive: true });
    const reloj = setInterval(() => {
      if (Date.now() - ultima >= ms) bloquear();
    }, Math.min(5_000, ms));
    return () => {
      for (const ev of ACTIVIDAD) document.removeEventListener(ev, uso, { capture: true });
      clearInterval(reloj);
    };
  }, [minutos, activo, bloquear]);
}
