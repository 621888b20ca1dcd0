import type { Kysely, Transaction } from 'kysely';
import { MESSAGES, ROLES_PREDEFINIDOS, ROL_PREDEFINIDO, normalizarDerechos } from 'shared/domain';
import type { Derechos, Rol, RolPredefinido, RolSesion } from 'shared/domain';
import { nowIso } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { fail } from '../errors.ts';

const NINGUNO: Derechos = Object.freeze({ areas: Object.freeze({}), especiales: Object.freeze([]) as readonly never[], descuento_maximo: 0 });

/** Parsed rights by their stored JSON: a handful of roles, read on every request. */
const parsed = new Map<string, Derechos>();

/** A role's stored rights (roles.derechos); nothing for a missing or broken value. */
export function leerDerechos(json: string | null | undefined): Derechos {
  if (!json) return NINGUNO;
  let d = parsed.get(json);
  if (!d) {
    try {
      d = normalizarDerechos(JSON.parse(json)) ?? NINGUNO;
    } catch {
      d = NINGUNO;
    }
    if (parsed.size > 1000) parsed.clear();
    parsed.set(json, d);
  }
  return d;
}

type RolFila = { id: number; nombre: string; clave: string | null; predefinido: number; derechos: string };

/** A roles row as the protocol answers it. */
export function rolDesdeFila(r: RolFila, usuarios?: number): Rol {
  return {
    id: r.id,
    nombre: r.nombre,
    clave: (ROLES_PREDEFINIDOS as readonly string[]).includes(r.clave ?? '') ? (r.clave as RolPredefinido) : null,
    predefinido: r.predefinido === 1 ? 1 : 0,
    derechos: leerDerechos(r.derechos),
    ...(usuarios !== undefined ? { usuarios } : {}),
  };
}

/** A user's role as the session carries it (no role: no rights). */
export async function rolSesion(db: Kysely<Database>, rolId: number | null): Promise<RolSesion> {
  const fila = rolId === null ? undefined : await db.selectFrom('roles').select(['id', 'nombre', 'clave', 'predefinido', 'derechos']).where('id', '=', rolId).executeTakeFirst();
  if (!fila) return { id: 0, nombre: '', clave: null, derechos: NINGUNO };
  const { id, nombre, clave, derechos } = rolDesdeFila(fila);
  return { id, nombre, clave, derechos };
}

/**
 * The five built-in roles as the code defines them (shared/domain/roles.ts): missing ones are created, the rights and
 * names of the rest written again. On every start and after a restore, so a new version's table applies at once.
 * A custom role that took a built-in's name gives it up (renamed «… (propio)»).
 */
export async function sincronizarRolesPredefinidos(db: Kysely<Database> | Transaction<Database>): Promise<void> {
  const filas = await db.selectFrom('roles').select(['id', 'nombre', 'clave', 'derechos']).execute();
  for (const clave of ROLES_PREDEFINIDOS) {
    const def = ROL_PREDEFINIDO[clave];
    const derechos = JSON.stringify(def.derechos);
    const propia = filas.find((f) => f.clave === clave);
    const usurpa = filas.find((f) => f.clave !== clave && f.nombre.toLowerCase() === def.nombre.toLowerCase());
    if (usurpa) await db.updateTable('roles').set({ nombre: `${usurpa.nombre} (propio)` }).where('id', '=', usurpa.id).execute();
    if (!propia) {
      await db
        .insertInto('roles')
        .values({ nombre: def.nombre, clave, predefinido: 1, derechos, creado: nowIso() })
        .onConflict((oc) => oc.column('clave').doNothing())
        .execute();
    } else if (propia.derechos !== derechos || propia.nombre !== def.nombre) {
      await db.updateTable('roles').set({ nombre: def.nombre, derechos, predefinido: 1 }).where('id', '=', propia.id).execute();
    }
  }
}

/** The id of a built-in role. */
export async function idRolPredefinido(db: Kysely<Database> | Transaction<Database>, clave: RolPredefinido): Promise<number> {
  const r = await db.selectFrom('roles').select('id').where('clave', '=', clave).executeTakeFirstOrThrow();
  return r.id;
}

/**
 * After a restore: the built-in roles (a backup from before roles has none), and every user without a role made
 * Administrador — everyone could do everything before roles existed.
 */
export async function completarRolesRestaurados(trx: Transaction<Database>): Promise<void> {
  await sincronizarRolesPredefinidos(trx);
  const admin = await idRolPredefinido(trx, 'administrador');
  await trx.updateTable('usuarios').set({ rol_id: admin }).where('rol_id', 'is', null).execute();
  // Nobody left to manage users and roles: refused, nothing restored.
  if ((await otrosAdministradores(trx, 0)) === 0) throw fail(MESSAGES.copiaSinAdministrador, '1', 400);
}

/** Active users with the built-in Administrador role other than `exceptoId`. */
export async function otrosAdministradores(trx: Transaction<Database>, exceptoId: number): Promise<number> {
  const r = await trx
    .selectFrom('usuarios as u')
    .innerJoin('roles as r', 'r.id', 'u.rol_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.clave', '=', 'administrador')
    .where('u.activo', '=', 1)
    .where('u.id', '<>', exceptoId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
