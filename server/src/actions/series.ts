import { MESSAGES, TOASTS, serieSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import type { SerieRow } from '../db/schema.ts';
import { contains, isForeignKeyViolation, isUniqueViolation, listSchema, paging } from './common.ts';
import { ActionError, defineAction, fail, invalidFields } from './registry.ts';

const COLUMNS = ['id', 'codigo', 'descripcion', 'tipo', 'activo'] as const;

const listInput = {
  ...listSchema(COLUMNS),
  tipo: { type: 'enum', values: ['normal', 'rectificativa', 'simplificada'] },
  activo: { type: 'enum', values: ['0', '1'] },
} as const satisfies Schema;
const editInput = { id: { type: 'int', min: 1 }, ...serieSchema } as const satisfies Schema;
const deleteInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

const duplicatedCodigo = () => invalidFields({ codigo: MESSAGES.duplicated });

export const serieActions = [
  defineAction({
    name: 'listadoseries',
    method: 'GET',
    flags: ['ventas'],
    input: listInput,
    async handler({ input, app }) {
      if (input.id !== null) {
        const row = await app.db.selectFrom('series').select(COLUMNS).where('id', '=', input.id).executeTakeFirst();
        if (!row) throw fail(MESSAGES.notFound, '3');
        return { RESULT: '0', data: [row], total: 1 };
      }
      const { limit, offset, dir } = paging(input);
      const base = app.db
        .selectFrom('series')
        .$if(!!input.q, (q) => q.where((eb) => eb.or([contains('codigo', input.q!), contains('descripcion', input.q!)])))
        .$if(input.tipo !== null, (q) => q.where('tipo', '=', input.tipo!))
        .$if(input.activo !== null, (q) => q.where('activo', '=', Number(input.activo) as 0 | 1));
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base
        .select(COLUMNS)
        .orderBy(input.orden ?? 'codigo', dir)
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return { RESULT: '0', data: rows, total: Number(total) };
    },
  }),

  defineAction({
    name: 'editarserie',
    method: 'POST',
    flags: ['ventas'],
    input: editInput,
    async handler({ input, raw, app }) {
      // Codes are compared and kept in capitals: "a" and "A" are the same serie for a shopkeeper.
      const codigo = input.codigo.toUpperCase();
      const clash = await app.db
        .selectFrom('series')
        .select('id')
        .where('codigo', '=', codigo)
        .$if(input.id !== null, (q) => q.where('id', '<>', input.id!))
        .executeTakeFirst();
      if (clash) throw duplicatedCodigo();
      let id: number;
      try {
        if (input.id === null) {
          const created = await app.db
            .insertInto('series')
            .values({ codigo, descripcion: input.descripcion, tipo: input.tipo, activo: 'activo' in raw ? (input.activo ?? 0) : 1 })
            .returning('id')
            .executeTakeFirstOrThrow();
          id = created.id;
        } else {
          id = input.id;
          const values: Partial<SerieRow> = { codigo, descripcion: input.descripcion, tipo: input.tipo };
          if ('activo' in raw) values.activo = input.activo ?? 0;
          const updated = await app.db.updateTable('series').set(values).where('id', '=', id).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
        }
      } catch (err) {
        if (err instanceof ActionError) throw err;
        if (isUniqueViolation(err)) throw duplicatedCodigo();
        throw err;
      }
      const saved = await app.db.selectFrom('series').select(COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
      return { RESULT: '0', data: [saved] };
    },
  }),

  defineAction({
    name: 'eliminarserie',
    method: 'POST',
    flags: ['ventas'],
    input: deleteInput,
    async handler({ input, app }) {
      const run = app.db.transaction().execute(async (trx) => {
        const serie = await trx.selectFrom('series').select('id').where('id', '=', input.id).executeTakeFirst();
        if (!serie) throw fail(MESSAGES.notFound, '3');
        const used = await trx.selectFrom('documentos').select('id').where('serie_id', '=', input.id).limit(1).executeTakeFirst();
        if (used) throw fail(TOASTS.associated.text, '2');
        await trx.deleteFrom('series').where('id', '=', input.id).execute();
        return { RESULT: '0' as const, data: [{ id: input.id }] };
      });
      // A document created meanwhile makes the foreign key refuse the delete.
      return run.catch((err: unknown) => {
        throw isForeignKeyViolation(err) ? fail(TOASTS.associated.text, '2') : err;
      });
    },
  }),
];
