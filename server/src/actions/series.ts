import { MESSAGES, serieSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import type { ExpressionBuilder } from 'kysely';
import type { Database, SerieRow } from '../db/schema.ts';
import { contains, deleteUnreferenced, listSchema, listado, taken, uniqueOr } from './comun.ts';
import { defineAction, fail, invalidFields } from './registry.ts';

const COLUMNS = ['id', 'codigo', 'descripcion', 'tipo', 'activo'] as const;

/** Issue 23: the TPV terminal whose serie it is (tickets or returns), if any: the back office's forms do not offer it. */
const terminalDeSerie = (eb: ExpressionBuilder<Database, 'series'>) =>
  eb
    .selectFrom('tpv_terminales as t')
    .select('t.nombre')
    .where((w) => w.or([w('t.serie_id', '=', w.ref('series.id')), w('t.serie_rectificativa_id', '=', w.ref('series.id'))]))
    .limit(1)
    .as('terminal');

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
      const base = app.db
        .selectFrom('series')
        .$if(!!input.q, (q) => q.where((eb) => eb.or([contains('codigo', input.q!), contains('descripcion', input.q!)])))
        .$if(input.tipo !== null, (q) => q.where('tipo', '=', input.tipo!))
        .$if(input.activo !== null, (q) => q.where('activo', '=', Number(input.activo) as 0 | 1));
      return listado(input, {
        one: (id) => app.db.selectFrom('series').select(COLUMNS).select(terminalDeSerie).where('id', '=', id).executeTakeFirst(),
        total: async () => (await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total,
        page: ({ limit, offset, dir }) =>
          base
            .select(COLUMNS)
            .select(terminalDeSerie)
            .orderBy(input.orden ?? 'codigo', dir)
            .orderBy('id')
            .limit(limit)
            .offset(offset)
            .execute(),
      });
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
      if (await taken(app.db, 'series', 'codigo', codigo, input.id)) throw duplicatedCodigo();
      const id = await uniqueOr(duplicatedCodigo, () => app.db.transaction().execute(async (trx) => {
        if (input.id === null) {
          const created = await trx
            .insertInto('series')
            .values({ codigo, descripcion: input.descripcion, tipo: input.tipo, activo: 'activo' in raw ? (input.activo ?? 0) : 1 })
            .returning('id')
            .executeTakeFirstOrThrow();
          return created.id;
        }
        // Issued means fixed (issue 16): a serie with numbered documents keeps its code and its kind — the numbers
        // printed and sent to the AEAT carry them.
        const antes = await trx.selectFrom('series').select(['codigo', 'tipo']).where('id', '=', input.id).$if(app.dialect === 'postgres', (q) => q.forUpdate()).executeTakeFirst();
        if (antes && (antes.codigo !== codigo || antes.tipo !== input.tipo)) {
          const usada = await trx.selectFrom('documentos').select('id').where('serie_id', '=', input.id).where('numero', 'is not', null).limit(1).executeTakeFirst();
          if (usada) throw invalidFields(antes.codigo !== codigo ? { codigo: MESSAGES.serieUsadaNoCambia } : { tipo: MESSAGES.serieUsadaNoCambia });
        }
        // Issue 23: a TPV terminal's serie keeps the kind the till numbers in, and stays active while the terminal uses it.
        const terminal = await trx
          .selectFrom('tpv_terminales')
          .select('nombre')
          .where((eb) => eb.or([eb('serie_id', '=', input.id!), eb('serie_rectificativa_id', '=', input.id!)]))
          .executeTakeFirst();
        if (terminal && antes) {
          const msg = MESSAGES.serieDeTerminalFija.replace('{terminal}', terminal.nombre);
          if (antes.tipo !== input.tipo) throw invalidFields({ tipo: msg });
          if ('activo' in raw && (input.activo ?? 0) !== 1) throw invalidFields({ activo: msg });
        }
        const values: Partial<SerieRow> = { codigo, descripcion: input.descripcion, tipo: input.tipo };
        if ('activo' in raw) values.activo = input.activo ?? 0;
        const updated = await trx.updateTable('series').set(values).where('id', '=', input.id).executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
        return input.id;
      }));
      const saved = await app.db.selectFrom('series').select(COLUMNS).select(terminalDeSerie).where('id', '=', id).executeTakeFirstOrThrow();
      return { RESULT: '0', data: [saved] };
    },
  }),

  defineAction({
    name: 'eliminarserie',
    method: 'POST',
    flags: ['ventas'],
    input: deleteInput,
    async handler({ input, app }) {
      return deleteUnreferenced(app.db, 'series', input.id, [{ table: 'documentos', column: 'serie_id' }]);
    },
  }),
];
