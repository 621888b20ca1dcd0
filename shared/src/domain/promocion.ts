import { MESSAGES } from './messages';
import { AREAS, AREA_INFO, DERECHOS_ESPECIALES, ESPECIAL_LABEL, NIVELES, NIVEL_LABEL, descuentoPermitido, puede, tiene } from './roles';
import type { Derechos, Falta, RolPredefinido } from './roles';

/**
 * No self-promotion (issue 24): the rules every change of roles and users obeys, the same on the server (which
 * refuses with 403 and the rule's message) and on the screens (which don't offer what would be refused).
 *
 * 1. Nobody grants a right they do not hold: the rights a role gains (a new role: all of them), and those a user gains
 *    by being given another role, must all be the caller's.
 * 2. Only an Administrador (the built-in role) assigns or edits the Administrador role, edits an administrator user
 *    (password, e-mail, role, PIN, deactivation, deletion) or edits a role an administrator holds.
 * 3. Nobody edits their own role: neither the role they hold nor which role they have.
 * 4. Nobody takes over an account with more rights than theirs: a user's password, e-mail or PIN is changed only by
 *    a caller who holds every right of that user's role.
 */

/** A role as the rules need it: whether it is the built-in Administrador, and its rights. */
export type RolRegla = { id?: number; clave: RolPredefinido | null; derechos: Derechos };

/** Whether a role is the built-in Administrador (an administrator user is one who holds it). */
export const esAdministrador = (rol: { clave: string | null } | null | undefined): boolean => rol?.clave === 'administrador';

/** The rights `nuevos` brings that `previos` did not have and `mios` lacks, the first first (null: none). */
export function derechoAjeno(mios: Derechos, nuevos: Derechos, previos?: Derechos | null): Falta | null {
  for (const area of AREAS) {
    for (const nivel of NIVELES) {
      if (puede(nuevos, area, nivel) && !puede(previos, area, nivel) && !puede(mios, area, nivel)) return { area, nivel };
    }
  }
  for (const e of DERECHOS_ESPECIALES) {
    if (tiene(nuevos, e) && !tiene(previos, e) && !tiene(mios, e)) return { especial: e };
  }
  const antes = previos ? descuentoPermitido(previos) : 0;
  const ahora = descuentoPermitido(nuevos);
  if (ahora > antes && ahora > descuentoPermitido(mios)) return { especial: 'descuento' };
  return null;
}

/** A right as the role's screen names it: «Copias de seguridad › Descargar», «Anular facturas». */
export function nombreDerecho(f: Falta, nuevos?: Derechos): string {
  if ('area' in f) return `«${AREA_INFO[f.area].label} › ${AREA_INFO[f.area].niveles?.[f.nivel] ?? NIVEL_LABEL[f.nivel]}»`;
  if (f.especial === 'descuento' && nuevos && !tiene(nuevos, 'descuento')) {
    return `«un descuento máximo del ${(descuentoPermitido(nuevos) / 100).toLocaleString('es-ES', { maximumFractionDigits: 2 })} %»`;
  }
  return `«${ESPECIAL_LABEL[f.especial]}»`;
}

const conDerecho = (plantilla: string, f: Falta, nuevos?: Derechos) => plantilla.replace('{derecho}', nombreDerecho(f, nuevos));

/**
 * Saving a role (`editarrol`): `rol` is the saved one (null for a new role), `administrado` whether an active user
 * with the Administrador role holds it. The rule's message, or null.
 */
export function reglaEditarRol(
  yo: RolRegla & { id: number },
  rol: (RolRegla & { id: number }) | null,
  nuevos: Derechos,
  administrado = false,
): string | null {
  if (rol && rol.id === yo.id) return MESSAGES.reglaRolPropio;
  if (rol && (esAdministrador(rol) || administrado) && !esAdministrador(yo)) return MESSAGES.reglaRolDeAdministrador;
  const f = derechoAjeno(yo.derechos, nuevos, rol?.derechos);
  return f ? conDerecho(MESSAGES.reglaDerechoAjeno, f, nuevos) : null;
}

/** What a change of a user does (`editarusuario`, `editarpintpv`, `eliminarusuario`). */
export type CambioUsuario = {
  /** The role given (a new user's, or another one than theirs). */
  rol?: RolRegla | null;
  credenciales?: boolean;
  desactivar?: boolean;
  eliminar?: boolean;
  /** Any other field (the name). */
  otros?: boolean;
};

/**
 * Changing a user: `yo` is the caller's role and `yoId` their id; `usuario` the user as saved (null for a new one).
 * The rule's message, or null.
 */
export function reglaEditarUsuario(
  yoId: number,
  yo: RolRegla,
  usuario: { id: number; rol: RolRegla | null } | null,
  cambio: CambioUsuario,
): string | null {
  const admin = esAdministrador(yo);
  const propio = usuario !== null && usuario.id === yoId;
  if (cambio.rol && propio) return MESSAGES.reglaRolPropio;
  if (usuario && esAdministrador(usuario.rol) && !admin && (cambio.rol || cambio.credenciales || cambio.desactivar || cambio.eliminar)) {
    return MESSAGES.reglaUsuarioAdministrador;
  }
  if (cambio.rol && esAdministrador(cambio.rol) && !admin) return MESSAGES.reglaAsignarAdministrador;
  if (cambio.rol) {
    const f = derechoAjeno(yo.derechos, cambio.rol.derechos, usuario?.rol?.derechos);
    if (f) return conDerecho(MESSAGES.reglaDerechoAjeno, f, cambio.rol.derechos);
  }
  if (cambio.credenciales && usuario && !propio && usuario.rol) {
    const f = derechoAjeno(yo.derechos, usuario.rol.derechos);
    if (f) return conDerecho(MESSAGES.reglaCredencialesAjenas, f, usuario.rol.derechos);
  }
  return null;
}

/** The roles a caller may give a user whose role is `actual` (the screens' choice of roles). */
export const rolAsignable = (yo: RolRegla, rol: RolRegla, actual?: RolRegla | null): boolean =>
  (!esAdministrador(rol) || esAdministrador(yo)) && derechoAjeno(yo.derechos, rol.derechos, actual?.derechos) === null;
