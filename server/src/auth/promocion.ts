import type { Kysely, Transaction } from 'kysely';
import { reglaEditarRol, reglaEditarUsuario } from 'shared/domain';
import type { CambioUsuario, Derechos, RolRegla } from 'shared/domain';
import type { Database } from '../db/schema.ts';
import { ActionError } from '../errors.ts';
import type { SessionUser } from '../session.ts';
import { rolDesdeFila } from './roles.ts';

/**
 * No self-promotion (issue 24, shared/domain/promocion.ts): the server's side. Each check reads the roles and users
 * it needs in the caller's transaction, and refuses with 403 and the Spanish message naming the rule.
 */

type Db = Kysely<Database> | Transaction<Database>;

const rechazo = (message: string) => new ActionError(403, { RESULT: '1', message, derecho: 'promocion' });

/** A role by id as the rules see it; undefined when it doesn't exist. */
export async function rolRegla(db: Db, id: number | null): Promise<(RolRegla & { id: number }) | undefined> {
  if (id === null) return undefined;
  const r = await db.selectFrom('roles').select(['id', 'nombre', 'clave', 'predefinido', 'derechos']).where('id', '=', id).executeTakeFirst();
  if (!r) return undefined;
  const { clave, derechos } = rolDesdeFila(r);
  return { id: r.id, clave, derechos };
}

/** A user's current role as the rules see it (undefined: no such user). */
export async function usuarioRegla(db: Db, id: number): Promise<{ id: number; rol: RolRegla | null } | undefined> {
  const u = await db.selectFrom('usuarios').select(['id', 'rol_id']).where('id', '=', id).executeTakeFirst();
  if (!u) return undefined;
  return { id: u.id, rol: (await rolRegla(db, u.rol_id)) ?? null };
}

/** Saving a role (`editarrol`): refused when it grants what the caller lacks, is the caller's own or an administrator's. */
export async function comprobarEditarRol(db: Db, me: SessionUser, rolId: number | null, nuevos: Derechos): Promise<void> {
  const rol = rolId === null ? null : ((await rolRegla(db, rolId)) ?? null);
  const msg = reglaEditarRol({ id: me.rol.id, clave: me.rol.clave, derechos: me.rol.derechos }, rol, nuevos);
  if (msg) throw rechazo(msg);
}

/** Changing a user (`editarusuario`, `editarpintpv`, `eliminarusuario`): `usuarioId` null for a new user. */
export async function comprobarEditarUsuario(
  db: Db,
  me: SessionUser,
  usuarioId: number | null,
  cambio: Omit<CambioUsuario, 'rol'> & { rolId?: number | null },
): Promise<void> {
  const usuario = usuarioId === null ? null : ((await usuarioRegla(db, usuarioId)) ?? null);
  // An existing user keeps their role unless another one is sent.
  const otroRol = cambio.rolId != null && (usuario === null || usuario.rol?.id !== cambio.rolId);
  const rol = otroRol ? ((await rolRegla(db, cambio.rolId!)) ?? null) : null;
  const msg = reglaEditarUsuario(me.id, { clave: me.rol.clave, derechos: me.rol.derechos }, usuario, { ...cambio, rol });
  if (msg) throw rechazo(msg);
}
