import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { MESSAGES, familiaSchema, marcaSchema, materialSchema, procesoSchema, subfamiliaSchema } from 'shared/domain';
import type { FlagName, Schema } from 'shared/domain';
import { contains, deleteUnreferenced, listSchema, listado, taken, uniqueOr } from '../comun.ts';
import type { Reference } from '../comun.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';
import type { Action } from '../registry.ts';

type MaestroTableName = 'familias' | 'subfamilias' | 'marcas' | 'materiales' | 'procesos';
// biome-ignore lint/suspicious/noExplicitAny: the master table is chosen at run time, from a closed list
type AnyDb = Kysely<any>;

type MaestroDef = {
  table: MaestroTableName;
  /** familia → listadofamilias, editarfamilia, eliminarfamilia. */
  singular: string;
  plural: string;
  flags?: FlagName[];
  schema: typeof familiaSchema & Schema;
  /** Columns beyond id, codigo, nombre, activo. */
  extra: string[];
  referencedBy: Reference[];
};

const BASE = ['id', 'codigo', 'nombre', 'activo'] as const;
const deleteInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

/** listado / editar / eliminar of one master table of the catalogue. */
function maestroActions(def: MaestroDef): Action<Schema>[] {
  const isSub = def.table === 'subfamilias';
  const orderColumns = [...BASE, ...def.extra.filter((c) => c !== 'familia_id'), ...(isSub ? ['familia'] : [])];
  const listInput = {
    ...listSchema(orderColumns),
    activo: { type: 'enum', values: ['0', '1'] },
    ...(isSub ? { familia_id: { type: 'int', min: 1 } } : {}),
  } as const satisfies Schema;
  const editInput = { id: { type: 'int', min: 1 }, ...def.schema } satisfies Schema;
  const columns = [...BASE, ...def.extra].map((c) => `m.${c}`);

  const select = (db: AnyDb) =>
    isSub
      ? db
          .selectFrom('subfamilias as m')
          .innerJoin('familias as f', 'f.id', 'm.familia_id')
          .select([...columns, 'f.nombre as familia_nombre'])
      : db.selectFrom(`${def.table} as m`).select(columns);

  return [
    defineAction({
      name: `listado${def.plural}`,
      method: 'GET',
      flags: def.flags,
      input: listInput,
      async handler({ input, app }) {
        const db = app.db as AnyDb;
        const familiaId = (input as { familia_id?: number | null }).familia_id ?? null;
        const filters: RawBuilder<boolean>[] = [];
        if (input.q) filters.push(sql<boolean>`(${contains('m.codigo', input.q)} or ${contains('m.nombre', input.q)})`);
        if (input.activo !== null) filters.push(sql<boolean>`m.activo = ${Number(input.activo)}`);
        if (familiaId !== null) filters.push(sql<boolean>`m.familia_id = ${familiaId}`);
        let count = db.selectFrom(`${def.table} as m`).select((eb) => eb.fn.countAll<number>().as('total'));
        let page = select(db);
        for (const f of filters) {
          count = count.where(f);
          page = page.where(f);
        }
        const orden = input.orden === 'familia' ? 'f.nombre' : `m.${input.orden ?? 'codigo'}`;
        return listado(input, {
          one: (id) => select(db).where('m.id', '=', id).executeTakeFirst(),
          total: async () => (await count.executeTakeFirstOrThrow()).total,
          page: ({ limit, offset, dir }) => page.orderBy(orden, dir).orderBy('m.id', dir).limit(limit).offset(offset).execute(),
        });
      },
    }),

    defineAction({
      name: `editar${def.singular}`,
      method: 'POST',
      flags: def.flags,
      input: editInput,
      async handler({ input, raw, app }) {
        const values: Record<string, unknown> = { codigo: input.codigo, nombre: input.nombre };
        for (const c of def.extra) if (c in raw || input.id === null) values[c] = (input as Record<string, unknown>)[c] ?? 0;
        if ('activo' in raw) values.activo = input.activo ?? 0;
        else if (input.id === null) values.activo = 1;
        const duplicated = () => invalidFields({ codigo: MESSAGES.duplicated });
        const id = await uniqueOr(duplicated, () =>
          (app.db as AnyDb).transaction().execute(async (trx) => {
            if (await taken(trx, def.table, 'codigo', input.codigo, input.id)) throw duplicated();
            if (isSub) {
              const familia = await trx.selectFrom('familias').select('id').where('id', '=', values.familia_id).executeTakeFirst();
              if (!familia) throw invalidFields({ familia_id: MESSAGES.unknownElement });
            }
            if (input.id === null) {
              const created = await trx.insertInto(def.table).values(values).returning('id').executeTakeFirstOrThrow();
              return created.id as number;
            }
            const updated = await trx.updateTable(def.table).set(values).where('id', '=', input.id).executeTakeFirst();
            if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
            // A subfamilia moved to another familia takes its articles along: an article's subfamilia is always of its familia.
            if (isSub && 'familia_id' in values) {
              await trx.updateTable('articulos').set({ familia_id: values.familia_id }).where('subfamilia_id', '=', input.id).execute();
            }
            return input.id;
          }),
        );
        const saved = await select(app.db as AnyDb).where('m.id', '=', id).executeTakeFirstOrThrow();
        return { RESULT: '0', data: [saved] };
      },
    }),

    defineAction({
      name: `eliminar${def.singular}`,
      method: 'POST',
      flags: def.flags,
      input: deleteInput,
      async handler({ input, app }) {
        return deleteUnreferenced(app.db as AnyDb, def.table, input.id, def.referencedBy);
      },
    }),
  ];
}

export const maestroActionList = [
  ...maestroActions({
    table: 'familias',
    singular: 'familia',
    plural: 'familias',
    schema: familiaSchema,
    extra: [],
    referencedBy: [
      { table: 'subfamilias', column: 'familia_id' },
      { table: 'articulos', column: 'familia_id' },
    ],
  }),
  ...maestroActions({
    table: 'subfamilias',
    singular: 'subfamilia',
    plural: 'subfamilias',
    schema: subfamiliaSchema,
    extra: ['familia_id'],
    referencedBy: [{ table: 'articulos', column: 'subfamilia_id' }],
  }),
  ...maestroActions({
    table: 'marcas',
    singular: 'marca',
    plural: 'marcas',
    schema: marcaSchema,
    extra: [],
    referencedBy: [{ table: 'articulos', column: 'marca_id' }],
  }),
  ...maestroActions({
    table: 'materiales',
    singular: 'material',
    plural: 'materiales',
    flags: ['materiales'],
    schema: materialSchema,
    extra: [],
    referencedBy: [
      { table: 'articulo_materiales', column: 'material_id' },
      { table: 'articulo_proporciones', column: 'material_id' },
    ],
  }),
  ...maestroActions({
    table: 'procesos',
    singular: 'proceso',
    plural: 'procesos',
    flags: ['procesos'],
    schema: procesoSchema,
    extra: ['tiempo', 'coste'],
    referencedBy: [{ table: 'articulo_procesos', column: 'proceso_id' }],
  }),
];
