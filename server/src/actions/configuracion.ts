import { MESSAGES, configuracionSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import type { AppContext } from '../context.ts';
import type { ConfiguracionRow } from '../db/schema.ts';
import { present } from './common.ts';
import { defineAction, fail } from './registry.ts';

/** The company's configuration record (the first one: there is one per installation). */
export async function readConfiguracion(app: AppContext): Promise<ConfiguracionRow | undefined> {
  return (await app.config.rows(0))[0];
}

const listInput = { id: { type: 'int', min: 1 } } satisfies Schema;
const editInput = { id: { type: 'int', min: 1 }, ...configuracionSchema } as Schema;

export const configuracionActions = [
  defineAction({
    name: 'listadoconfiguraciones',
    method: 'GET',
    input: listInput,
    async handler({ input, app }) {
      // Read on every page load of every user: served from the (always current) configuration cache.
      const all = await app.config.rows(0);
      const rows = input.id === null ? all : all.filter((r) => r.id === input.id);
      if (!rows.length) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: [...rows], total: rows.length };
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
      app.config.invalidate();
      return { RESULT: '0', data: [saved] };
    },
  }),
];
