import { MESSAGES, configuracionSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import type { AppContext } from '../context.ts';
import type { ConfiguracionRow } from '../db/schema.ts';
import { present } from './common.ts';
import { defineAction, fail } from './registry.ts';

/** The company's configuration record (the first one: there is one per installation). */
export async function readConfiguracion(app: AppContext, id?: number): Promise<ConfiguracionRow | undefined> {
  let q = app.db.selectFrom('configuracion').selectAll();
  q = id === undefined ? q.orderBy('id').limit(1) : q.where('id', '=', id);
  return q.executeTakeFirst();
}

const listInput = { id: { type: 'int', min: 1 } } satisfies Schema;
const editInput = { id: { type: 'int', min: 1 }, ...configuracionSchema } as Schema;

export const configuracionActions = [
  defineAction({
    name: 'listadoconfiguraciones',
    method: 'GET',
    input: listInput,
    async handler({ input, app }) {
      const rows =
        input.id === null
          ? await app.db.selectFrom('configuracion').selectAll().orderBy('id').execute()
          : await app.db.selectFrom('configuracion').selectAll().where('id', '=', input.id).execute();
      if (!rows.length) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: rows, total: rows.length };
    },
  }),

  defineAction({
    name: 'editarconfiguracion',
    method: 'POST',
    input: editInput,
    async handler({ input, raw, app }) {
      const { id: _id, ...fields } = input as Record<string, unknown>;
      // Absent fields stay as they are; the required ones are always present (validated).
      const values = present(fields, raw) as Partial<ConfiguracionRow>;
      const saved = await app.db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('configuracion')
          .select('id')
          .$if(input.id !== null, (q) => q.where('id', '=', input.id as number))
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (!current && input.id !== null) throw fail(MESSAGES.notFound, '3');
        if (current) {
          await trx.updateTable('configuracion').set(values).where('id', '=', current.id).execute();
          return trx.selectFrom('configuracion').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
        }
        return trx
          .insertInto('configuracion')
          .values(values as ConfiguracionRow)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      app.flags.invalidate();
      return { RESULT: '0', data: [saved] };
    },
  }),
];
