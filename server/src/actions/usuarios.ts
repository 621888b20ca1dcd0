import { MESSAGES, usuarioSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { nowIso } from '../context.ts';
import type { UsuarioRow } from '../db/schema.ts';
import { hashPassword } from '../security.ts';
import { contains, listSchema, listado, taken, uniqueOr } from './common.ts';
import { defineAction, fail, invalidFields } from './registry.ts';

/** Every column but password_hash. */
const PUBLIC_COLUMNS = ['id', 'nombre', 'email', 'activo', 'ultimo_acceso', 'creado'] as const;

const listInput = {
  ...listSchema(PUBLIC_COLUMNS),
  activo: { type: 'enum', values: ['0', '1'] },
} as const satisfies Schema;

const editInput = { id: { type: 'int', min: 1 }, ...usuarioSchema } as const satisfies Schema;
const deleteInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

const duplicatedEmail = () => invalidFields({ email: MESSAGES.duplicated });

export const usuarioActions = [
  defineAction({
    name: 'listadousuarios',
    method: 'GET',
    input: listInput,
    async handler({ input, app }) {
      const base = app.db
        .selectFrom('usuarios')
        .$if(!!input.q, (q) => q.where((eb) => eb.or([contains('nombre', input.q!), contains('email', input.q!)])))
        .$if(input.activo !== null, (q) => q.where('activo', '=', Number(input.activo) as 0 | 1));
      return listado(input, {
        one: (id) => app.db.selectFrom('usuarios').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst(),
        total: async () => (await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total,
        page: ({ limit, offset, dir }) =>
          base
            .select(PUBLIC_COLUMNS)
            .orderBy(input.orden ?? 'nombre', dir)
            .orderBy('id')
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
      if (await taken(app.db, 'usuarios', 'email', input.email, input.id)) throw duplicatedEmail();

      const id = await uniqueOr(duplicatedEmail, async () => {
        if (input.id === null) {
          if (!input.password) throw invalidFields({ password: MESSAGES.passwordRequired });
          const passwordHash = await hashPassword(input.password);
          const created = await app.db.transaction().execute((trx) =>
            trx
            .insertInto('usuarios')
            .values({
              nombre: input.nombre,
              email: input.email,
              password_hash: passwordHash,
              activo: 'activo' in raw ? (input.activo ?? 0) : 1,
              ultimo_acceso: null,
              creado: nowIso(),
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
          );
          return created.id;
        }
        const id = input.id;
        const deactivating = 'activo' in raw && input.activo === 0;
        if (deactivating && id === me.id) throw invalidFields({ activo: MESSAGES.cannotDeactivateSelf });
        const values: Partial<UsuarioRow> = { nombre: input.nombre, email: input.email };
        if ('activo' in raw) values.activo = input.activo ?? 0;
        if (input.password) values.password_hash = await hashPassword(input.password);
        await app.db.transaction().execute(async (trx) => {
          const updated = await trx.updateTable('usuarios').set(values).where('id', '=', id).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
          // A deactivated user, or one whose password changed, is logged out everywhere but here.
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
      const saved = await app.db.selectFrom('usuarios').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
      return { RESULT: '0', data: [saved] };
    },
  }),

  defineAction({
    name: 'eliminarusuario',
    method: 'POST',
    input: deleteInput,
    async handler({ input, user, app }) {
      if (input.id === user!.id) throw fail(MESSAGES.cannotDeleteSelf);
      const deleted = await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sesiones').where('usuario_id', '=', input.id).execute();
        await trx.deleteFrom('recuperaciones').where('usuario_id', '=', input.id).execute();
        return trx.deleteFrom('usuarios').where('id', '=', input.id).executeTakeFirst();
      });
      if (Number(deleted.numDeletedRows) === 0) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: [{ id: input.id }] };
    },
  }),
];
