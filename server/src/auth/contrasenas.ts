import fs from 'node:fs';
import { MESSAGES } from 'shared/domain';

/**
 * What a password may not be (issue 24), besides its length (shared/domain/schemas.ts): one of the 10.000 most common
 * passwords (contrasenas-comunes.txt, see contrasenas-comunes.md for its source and licence), a few Spanish ones
 * the list lacks, or the user's own e-mail (containing the whole address, or being its part before the @). The same rule for a password set in Usuarios and one set with a recovery link.
 */

/** Common in Spain, missing from the English list. */
const ESPANOLAS = [
  'contraseña', 'contrasena', 'contraseña1', 'contrasena1', 'micontraseña', 'micontrasena', 'tequiero', 'teamo', 'teamo123',
  'barcelona', 'realmadrid', 'madrid123', 'españa', 'espana', 'qwerty123', '123456789', '1234567890', 'administrador', 'managertpv',
];

let comunes: Set<string> | null = null;

/** The list, read once. */
function lista(): Set<string> {
  if (!comunes) {
    const texto = fs.readFileSync(new URL('./contrasenas-comunes.txt', import.meta.url), 'utf8');
    comunes = new Set([...texto.split('\n').map((l) => l.trim()).filter(Boolean), ...ESPANOLAS]);
  }
  return comunes;
}

/** How many passwords the list refuses (the tests check it has at least 10.000). */
export const totalComunes = (): number => lista().size;

/** The Spanish message refusing `password` for the user of `email`, or null when it may be used. */
export function contrasenaRechazada(password: string, email: string | null | undefined): string | null {
  const p = password.normalize('NFC').toLowerCase();
  if (lista().has(p)) return MESSAGES.passwordComun;
  const correo = (email ?? '').trim().toLowerCase();
  if (correo) {
    const local = correo.split('@')[0] ?? '';
    if (p.includes(correo) || p === local) return MESSAGES.passwordEmail;
  }
  return null;
}
