import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { MESSAGES, puede, usuarioSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { nowIso } from '../context.ts';
import type { Database, UsuarioRow } from '../db/schema.ts';
import { dialectOf } from '../documentos/sql.ts';
import { hashPassword } from '../security.ts';
import { idRolPredefinido, otrosAdministradores } from '../auth/roles.ts';
import { comprobarEditarUsuario } from '../auth/promocion.ts';
import { contrasenaRechazada } from '../auth/contrasenas.ts';
import { contains, listSchema, listado, taken, uniqueOr } from './comun.ts';
import { defineAction, fail, invalidFields } from './registry.ts';

/** Every column but password_hash, and the role's name. */
const PUBLIC_COLUMNS = [
  'u.id', 'u.nombre', 'u.email', 'u.activo', 'u.ultimo_acceso', 'u.creado', 'u.rol_id', 'r.nombre as rol_nombre',
  // Whether the user has a till PIN (issue 23: set or removed from the user's screen), never the PIN.
  sql<number>`case when u.pin_hash is null then 0 else 1 end`.as('con_pin'),
] as const;
const ORDER_COLUMNS = ['id', 'nombre', 'email', 'activo', 'ultimo_acceso', 'creado', 'rol_nombre'] as const;

const listInput = {
  ...listSchema(ORDER_COLUMNS),
  activo: { type: 'enum', values: ['0', '1'] },
  rol_id: { type: 'int', min: 1 },
} as const satisfies Schema;

const editInput = { id: { type: 'int', min: 1 }, ...usuarioSchema } as const satisfies Schema;
const deleteInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

const duplicatedEmail = () => invalidFields({ email: MESSAGES.duplicated });

const usuarios = (db: Kysely<Database>) => db.selectFrom('usuarios as u').leftJoin('roles as r', 'r.id', 'u.rol_id');
const leerUsuario = (db: Kysely<Database>, id: number) => usuarios(db).select(PUBLIC_COLUMNS).where('u.id', '=', id).executeTakeFirst();

/**
 * The last active Administrador stays one: never deleted, deactivated or given another role (RESULT 1). Only when the
 * user is one, the Administrador role's row is locked on PostgreSQL (a lock is a write there: nothing else is), so
 * two administrators demoting each other at once are checked one after the other (SQLite runs one writer at a time).
 */
async function protegerUltimoAdministrador(trx: Transaction<Database>, id: number): Promise<void> {
  const u = await trx
    .selectFrom('usuarios as u')
    .innerJoin('roles as r', 'r.id', 'u.rol_id')
    .select(['u.activo', 'r.clave', 'r.id as rol_id'])
    .where('u.id', '=', id)
    .executeTakeFirst();
  if (u?.clave !== 'administrador' || u.activo !== 1) return;
  await trx
    .selectFrom('roles')
    .select('id')
    .where('id', '=', u.rol_id)
    .$if(dialectOf(trx) === 'postgres', (q) => q.forUpdate())
    .execute();
  if ((await otrosAdministradores(trx, id)) === 0) throw fail(MESSAGES.ultimoAdministrador);
}

/** `rol_id` as sent: an existing role, else a field error. */
async function rolValido(db: Kysely<Database>, rolId: number): Promise<void> {
  const r = await db.selectFrom('roles').select('id').where('id', '=', rolId).executeTakeFirst();
  if (!r) throw invalidFields({ rol_id: MESSAGES.rolNoExiste });
}

export const usuarioActions = [
  defineAction({
    name: 'listadousuarios',
    method: 'GET',
    input: listInput,
    async handler({ input, app, user }) {
      // A role that reads users only to pick one (a parte's worker, a van's driver) gets their names, nothing more.
      const soloNombres = !puede(user!.rol.derechos, 'usuarios', 'ver');
      const base = usuarios(app.db)
        .$if(!!input.q, (q) => q.where((eb) => eb.or([contains('u.nombre', input.q!), ...(soloNombres ? [] : [contains('u.email', input.q!)])])))
        .$if(input.activo !== null, (q) => q.where('u.activo', '=', Number(input.activo) as 0 | 1))
        .$if(input.rol_id !== null, (q) => q.where('u.rol_id', '=', input.rol_id!));
      const orden = input.orden === 'rol_nombre' ? 'r.nombre' : (`u.${input.orden ?? 'nombre'}` as const);
      const columnas = soloNombres ? (['u.id', 'u.nombre', 'u.activo'] as const) : PUBLIC_COLUMNS;
      return listado(input, {
        one: (id) => usuarios(app.db).select(columnas).where('u.id', '=', id).executeTakeFirst(),
        total: async () => (await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total,
        page: ({ limit, offset, dir }) =>
          base
            .select(columnas)
            .orderBy(soloNombres ? 'u.nombre' : orden, dir)
            .orderBy('u.id')
            .limit(limit)
            .offset(offset)
            .execute(),
      });
    },
  }),

  defineAction({
    name: 'editarusuario',
    method: 'POST',
    input: editInput,
    async handler({ input, raw, user, app }) {
      const me = user!;
      // Not a common password, nor the user's e-mail (issue 24): the same rule as the recovery form.
      const rechazada = input.password ? contrasenaRechazada(input.password, input.email) : null;
      if (rechazada) throw invalidFields({ password: rechazada });
      if (await taken(app.db, 'usuarios', 'email', input.email, input.id)) throw duplicatedEmail();
      if (input.rol_id !== null) await rolValido(app.db, input.rol_id);

      const id = await uniqueOr(duplicatedEmail, async () => {
        if (input.id === null) {
          if (!input.password) throw invalidFields({ password: MESSAGES.passwordRequired });
          const passwordHash = await hashPassword(input.password);
          // Without a role, the one that changes nothing.
          const rolId = input.rol_id ?? (await idRolPredefinido(app.db, 'consulta'));
          const created = await app.db.transaction().execute(async (trx) => {
            // No self-promotion (auth/promocion.ts): the role given is within the caller's rights.
            await comprobarEditarUsuario(trx, me, null, { rolId, credenciales: true });
            return trx
            .insertInto('usuarios')
            .values({
              nombre: input.nombre,
              email: input.email,
              password_hash: passwordHash,
              activo: 'activo' in raw ? (input.activo ?? 0) : 1,
              ultimo_acceso: null,
              creado: nowIso(),
              rol_id: rolId,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          });
          return created.id;
        }
        const id = input.id;
        const deactivating = 'activo' in raw && input.activo === 0;
        if (deactivating && id === me.id) throw invalidFields({ activo: MESSAGES.cannotDeactivateSelf });
        const values: Partial<UsuarioRow> = { nombre: input.nombre, email: input.email };
        if ('activo' in raw) values.activo = input.activo ?? 0;
        if (input.rol_id !== null) values.rol_id = input.rol_id;
        if (input.password) values.password_hash = await hashPassword(input.password);
        await app.db.transaction().execute(async (trx) => {
          const antes = await trx.selectFrom('usuarios').select(['email', 'activo']).where('id', '=', id).executeTakeFirst();
          if (!antes) throw fail(MESSAGES.notFound, '3');
          // No self-promotion (auth/promocion.ts): what changes of an administrator, a role given, another's credentials.
          await comprobarEditarUsuario(trx, me, id, {
            rolId: input.rol_id,
            credenciales: !!values.password_hash || antes.email !== input.email,
            desactivar: deactivating && antes.activo === 1,
          });
          if (deactivating || input.rol_id !== null) {
            const u = await trx.selectFrom('usuarios').select('rol_id').where('id', '=', id).executeTakeFirst();
            if (deactivating || (u && u.rol_id !== input.rol_id)) await protegerUltimoAdministrador(trx, id);
          }
          const updated = await trx.updateTable('usuarios').set(values).where('id', '=', id).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
          // A deactivated user, or one whose password changed, is logged out everywhere but here. A new role needs
          // nothing: every request reads the role again.
          // A new password: the reset links mailed before stop working.
          if (values.password_hash) await trx.updateTable('recuperaciones').set({ usada: 1 }).where('usuario_id', '=', id).where('usada', '=', 0).execute();
          if (deactivating || values.password_hash) {
            await trx
              .deleteFrom('sesiones')
              .where('usuario_id', '=', id)
              .$if(id === me.id, (q) => q.where('token_hash', '<>', me.tokenHash))
              .execute();
          }
        });
        return id;
      });
      const saved = await leerUsuario(app.db, id);
      return { RESULT: '0', data: [saved!] };
    },
  }),

  defineAction({
    name: 'eliminarusuario',
    method: 'POST',
    input: deleteInput,
    async handler({ input, user, app }) {
      if (input.id === user!.id) throw fail(MESSAGES.cannotDeleteSelf);
      const deleted = await app.db.transaction().execute(async (trx) => {
        await comprobarEditarUsuario(trx, user!, input.id, { eliminar: true });
        await protegerUltimoAdministrador(trx, input.id);
        await trx.deleteFrom('sesiones').where('usuario_id', '=', input.id).execute();
        await trx.deleteFrom('recuperaciones').where('usuario_id', '=', input.id).execute();
        return trx.deleteFrom('usuarios').where('id', '=', input.id).executeTakeFirst();
      });
      if (Number(deleted.numDeletedRows) === 0) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: [{ id: input.id }] };
    },
  }),
];
