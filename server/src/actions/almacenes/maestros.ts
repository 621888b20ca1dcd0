import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { MESSAGES, almacenSchema, ubicacionSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { readFlags } from '../catalogo/flags.ts';
import { contains, deleteUnreferenced, listSchema, listado, taken, uniqueOr } from '../comun.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';

// biome-ignore lint/suspicious/noExplicitAny: filters are raw SQL over aliased tables
type AnyDb = Kysely<any>;

const FLAGS = ['almacenes' as const];
const deleteInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

const almacenListInput = {
  ...listSchema(['codigo', 'nombre'] as const),
  activo: { type: 'enum', values: ['0', '1'] },
  es_furgoneta: { type: 'enum', values: ['0', '1'] },
} as const satisfies Schema;

const selectAlmacen = (db: AnyDb) =>
  db
    .selectFrom('almacenes as a')
    .leftJoin('usuarios as u', 'u.id', 'a.conductor_id')
    .select(['a.id', 'a.codigo', 'a.nombre', 'a.direccion', 'a.activo', 'a.es_furgoneta', 'a.matricula', 'a.conductor_id', 'u.nombre as conductor_nombre']);

const ubicacionListInput = {
  ...listSchema(['codigo', 'descripcion', 'almacen'] as const),
  almacen_id: { type: 'int', min: 1 },
  activo: { type: 'enum', values: ['0', '1'] },
} as const satisfies Schema;

const selectUbicacion = (db: AnyDb) =>
  db
    .selectFrom('ubicaciones as u')
    .innerJoin('almacenes as a', 'a.id', 'u.almacen_id')
    .select(['u.id', 'u.almacen_id', 'a.nombre as almacen_nombre', 'u.codigo', 'u.descripcion', 'u.activo']);

// biome-ignore lint/suspicious/noExplicitAny: any select query of the AnyDb above
function whereAll(q: any, filters: RawBuilder<boolean>[]): any {
  let out = q;
  for (const f of filters) out = out.where(f);
  return out;
}

/** Almacenes and their ubicaciones (issue 6). Van fields (es_furgoneta, matricula, conductor) only with the furgonetas flag. */
export const maestroAlmacenActions = [
  defineAction({
    name: 'listadoalmacenes',
    method: 'GET',
    flags: FLAGS,
    input: almacenListInput,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      const filters: RawBuilder<boolean>[] = [];
      if (input.q) filters.push(sql<boolean>`(${contains('a.codigo', input.q)} or ${contains('a.nombre', input.q)})`);
      if (input.activo !== null) filters.push(sql<boolean>`a.activo = ${Number(input.activo)}`);
      if (input.es_furgoneta !== null) filters.push(sql<boolean>`a.es_furgoneta = ${Number(input.es_furgoneta)}`);
      const orden = `a.${input.orden ?? 'codigo'}` as 'a.codigo';
      return listado(input, {
        one: (id) => selectAlmacen(db).where('a.id', '=', id).executeTakeFirst(),
        total: async () =>
          (await whereAll(db.selectFrom('almacenes as a').select(sql<number>`count(*)`.as('n')), filters).executeTakeFirstOrThrow()).n,
        page: ({ limit, offset, dir }) =>
          whereAll(selectAlmacen(db), filters)
            .orderBy(orden, dir)
            .orderBy('a.id', dir)
            .limit(limit)
            .offset(offset)
            .execute(),
      });
    },
  }),

  defineAction({
    name: 'editaralmacen',
    method: 'POST',
    flags: FLAGS,
    input: { id: { type: 'int', min: 1 }, ...almacenSchema } satisfies Schema,
    async handler({ input, raw, app }) {
      const duplicated = () => invalidFields({ codigo: MESSAGES.duplicated });
      const id = await uniqueOr(duplicated, () =>
        app.db.transaction().execute(async (trx) => {
          if (await taken(trx as AnyDb, 'almacenes', 'codigo', input.codigo, input.id)) throw duplicated();
          const values: Record<string, unknown> = { codigo: input.codigo, nombre: input.nombre };
          if ('direccion' in raw || input.id === null) values.direccion = input.direccion;
          if ('activo' in raw) values.activo = input.activo ?? 0;
          else if (input.id === null) values.activo = 1;
          const flags = await readFlags(trx);
          if (flags.furgonetas === 1) {
            if ('es_furgoneta' in raw || input.id === null) values.es_furgoneta = input.es_furgoneta ?? 0;
            if ('matricula' in raw || input.id === null) values.matricula = input.matricula;
            if ('conductor_id' in raw || input.id === null) {
              if (input.conductor_id !== null) {
                const u = await trx.selectFrom('usuarios').select('id').where('id', '=', input.conductor_id).executeTakeFirst();
                if (!u) throw invalidFields({ conductor_id: MESSAGES.unknownElement });
              }
              values.conductor_id = input.conductor_id;
            }
          }
          if (input.id === null) {
            const created = await (trx as AnyDb).insertInto('almacenes').values(values).returning('id').executeTakeFirstOrThrow();
            return created.id as number;
          }
          const updated = await (trx as AnyDb).updateTable('almacenes').set(values).where('id', '=', input.id).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
          return input.id;
        }),
      );
      return { RESULT: '0', data: [await selectAlmacen(app.db as AnyDb).where('a.id', '=', id).executeTakeFirstOrThrow()] };
    },
  }),

  defineAction({
    name: 'eliminaralmacen',
    method: 'POST',
    flags: FLAGS,
    input: deleteInput,
    handler: async ({ input, app }) =>
      deleteUnreferenced(app.db as AnyDb, 'almacenes', input.id, [
        { table: 'stock_movimientos', column: 'almacen_id' },
        { table: 'ubicaciones', column: 'almacen_id' },
        { table: 'documentos', column: 'almacen_id' },
        { table: 'documentos', column: 'almacen_destino_id' },
        { table: 'documento_lineas', column: 'almacen_id' },
        { table: 'articulo_ubicaciones', column: 'almacen_id' },
      ]),
  }),

  defineAction({
    name: 'listadoubicaciones',
    method: 'GET',
    flags: FLAGS,
    input: ubicacionListInput,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      const filters: RawBuilder<boolean>[] = [];
      if (input.q) filters.push(sql<boolean>`(${contains('u.codigo', input.q)} or ${contains('u.descripcion', input.q)})`);
      if (input.activo !== null) filters.push(sql<boolean>`u.activo = ${Number(input.activo)}`);
      if (input.almacen_id !== null) filters.push(sql<boolean>`u.almacen_id = ${input.almacen_id}`);
      const orden = input.orden === 'almacen' ? ['a.nombre', 'u.codigo'] : [`u.${input.orden ?? 'codigo'}`];
      return listado(input, {
        one: (id) => selectUbicacion(db).where('u.id', '=', id).executeTakeFirst(),
        total: async () =>
          (await whereAll(db.selectFrom('ubicaciones as u').select(sql<number>`count(*)`.as('n')), filters).executeTakeFirstOrThrow()).n,
        page: ({ limit, offset, dir }) => {
          let q = whereAll(selectUbicacion(db), filters);
          for (const c of orden) q = q.orderBy(c, dir);
          return q.orderBy('u.id', dir).limit(limit).offset(offset).execute();
        },
      });
    },
  }),

  defineAction({
    name: 'editarubicacion',
    method: 'POST',
    flags: FLAGS,
    input: { id: { type: 'int', min: 1 }, ...ubicacionSchema } satisfies Schema,
    async handler({ input, raw, app }) {
      const duplicated = () => invalidFields({ codigo: MESSAGES.duplicated });
      const id = await uniqueOr(duplicated, () =>
        app.db.transaction().execute(async (trx) => {
          const almacen = await trx.selectFrom('almacenes').select('id').where('id', '=', input.almacen_id).executeTakeFirst();
          if (!almacen) throw invalidFields({ almacen_id: MESSAGES.unknownElement });
          const clash = await trx
            .selectFrom('ubicaciones')
            .select('id')
            .where('almacen_id', '=', input.almacen_id)
            .where('codigo', '=', input.codigo)
            .$if(input.id !== null, (q) => q.where('id', '<>', input.id!))
            .executeTakeFirst();
          if (clash) throw duplicated();
          const values: Record<string, unknown> = { almacen_id: input.almacen_id, codigo: input.codigo };
          if ('descripcion' in raw || input.id === null) values.descripcion = input.descripcion;
          if ('activo' in raw) values.activo = input.activo ?? 0;
          else if (input.id === null) values.activo = 1;
          if (input.id === null) {
            const created = await (trx as AnyDb).insertInto('ubicaciones').values(values).returning('id').executeTakeFirstOrThrow();
            return created.id as number;
          }
          const before = await trx.selectFrom('ubicaciones').select('almacen_id').where('id', '=', input.id).executeTakeFirst();
          if (!before) throw fail(MESSAGES.notFound, '3');
          // A location that holds stock or is used stays in its warehouse.
          if (before.almacen_id !== input.almacen_id) {
            const used = await trx.selectFrom('stock_movimientos').select('id').where('ubicacion_id', '=', input.id).limit(1).executeTakeFirst();
            if (used) throw invalidFields({ almacen_id: MESSAGES.ubicacionOtroAlmacen });
          }
          await (trx as AnyDb).updateTable('ubicaciones').set(values).where('id', '=', input.id).execute();
          return input.id;
        }),
      );
      return { RESULT: '0', data: [await selectUbicacion(app.db as AnyDb).where('u.id', '=', id).executeTakeFirstOrThrow()] };
    },
  }),

  defineAction({
    name: 'eliminarubicacion',
    method: 'POST',
    flags: FLAGS,
    input: deleteInput,
    handler: async ({ input, app }) =>
      deleteUnreferenced(app.db as AnyDb, 'ubicaciones', input.id, [
        { table: 'stock_movimientos', column: 'ubicacion_id' },
        { table: 'documento_lineas', column: 'ubicacion_id' },
        { table: 'documentos', column: 'ubicacion_id' },
        { table: 'articulo_ubicaciones', column: 'ubicacion_id' },
      ]),
  }),

  /** An article's usual location in a warehouse (received transfers put the stock there); no ubicacion_id clears it. */
  defineAction({
    name: 'editarubicacionarticulo',
    method: 'POST',
    flags: FLAGS,
    input: {
      articulo_id: { type: 'int', required: true, min: 1 },
      almacen_id: { type: 'int', required: true, min: 1 },
      ubicacion_id: { type: 'int', min: 1 },
    } satisfies Schema,
    async handler({ input, app }) {
      await app.db.transaction().execute(async (trx) => {
        const articulo = await trx.selectFrom('articulos').select('id').where('id', '=', input.articulo_id).executeTakeFirst();
        if (!articulo) throw invalidFields({ articulo_id: MESSAGES.articuloNoExiste });
        const almacen = await trx.selectFrom('almacenes').select('id').where('id', '=', input.almacen_id).executeTakeFirst();
        if (!almacen) throw invalidFields({ almacen_id: MESSAGES.unknownElement });
        if (input.ubicacion_id !== null) {
          const u = await trx.selectFrom('ubicaciones').select(['almacen_id', 'activo']).where('id', '=', input.ubicacion_id).executeTakeFirst();
          if (!u || u.almacen_id !== input.almacen_id || u.activo !== 1) throw invalidFields({ ubicacion_id: MESSAGES.ubicacionOtroAlmacen });
        }
        await trx.deleteFrom('articulo_ubicaciones').where('articulo_id', '=', input.articulo_id).where('almacen_id', '=', input.almacen_id).execute();
        if (input.ubicacion_id !== null) {
          await trx
            .insertInto('articulo_ubicaciones')
            .values({ articulo_id: input.articulo_id, almacen_id: input.almacen_id, ubicacion_id: input.ubicacion_id })
            .execute();
        }
      });
      return { RESULT: '0', data: [{ articulo_id: input.articulo_id, almacen_id: input.almacen_id, ubicacion_id: input.ubicacion_id }] };
    },
  }),
];
