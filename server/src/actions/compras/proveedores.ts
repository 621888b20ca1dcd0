import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { MESSAGES, proveedorSchema, provinciaDeCodigoPostal } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { toBig } from '../../documentos/sql.ts';
import { contains, deleteUnreferenced, listSchema, listado, present, taken, uniqueOr } from '../common.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';

// biome-ignore lint/suspicious/noExplicitAny: filters are raw SQL over aliased tables
type AnyDb = Kysely<any>;

export const FLAGS_COMPRAS = ['compras' as const];

const COLUMNS = [
  'id', 'codigo', 'nif', 'razon_social', 'nombre_comercial', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email', 'iban',
  'forma_pago', 'retencion', 'observaciones', 'activo',
] as const;

const listInput = {
  ...listSchema(['codigo', 'razon_social', 'nif', 'poblacion'] as const),
  activo: { type: 'enum', values: ['0', '1'] },
} as const satisfies Schema;

const selectProveedor = (db: AnyDb) => db.selectFrom('proveedores as p').select(COLUMNS.map((c) => `p.${c}`));

// biome-ignore lint/suspicious/noExplicitAny: any select query of the AnyDb above
function whereAll(q: any, filters: RawBuilder<boolean>[]): any {
  let out = q;
  for (const f of filters) out = out.where(f);
  return out;
}

/** Purchases per year from real documents: albaranes − devoluciones, without IVA (base) and with it (total), cents. */
async function comprasPorEjercicio(db: AnyDb, id: number) {
  const rows = await db
    .selectFrom('documentos')
    .select(['ejercicio', 'tipo'])
    .select([sql<string>`cast(sum(base) as text)`.as('base'), sql<string>`cast(sum(total) as text)`.as('total')])
    .where('proveedor_id', '=', id)
    .where('tipo', 'in', ['albarancompra', 'devolucioncompra'])
    .groupBy(['ejercicio', 'tipo'])
    .execute();
  const by = new Map<number, { base: bigint; total: bigint }>();
  for (const r of rows) {
    const s = r.tipo === 'devolucioncompra' ? -1n : 1n;
    const e = by.get(r.ejercicio) ?? { base: 0n, total: 0n };
    by.set(r.ejercicio, { base: e.base + s * toBig(r.base), total: e.total + s * toBig(r.total) });
  }
  return [...by.entries()].sort(([a], [b]) => b - a).map(([ejercicio, v]) => ({ ejercicio, base: Number(v.base), total: Number(v.total) }));
}

/** The next free 'P0001'-style code. */
async function siguienteCodigo(db: AnyDb): Promise<string> {
  const rows = await db.selectFrom('proveedores').select('codigo').where('codigo', 'like', 'P%').execute();
  const max = rows.reduce((m: number, r: { codigo: string }) => (/^P\d{1,9}$/.test(r.codigo) ? Math.max(m, Number(r.codigo.slice(1))) : m), 0);
  return `P${String(max + 1).padStart(4, '0')}`;
}

/** Proveedores (issue 7): list, record with purchases per year, edit, delete. */
export const proveedorActions = [
  defineAction({
    name: 'listadoproveedores',
    method: 'GET',
    flags: FLAGS_COMPRAS,
    input: listInput,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      const filters: RawBuilder<boolean>[] = [];
      if (input.q) {
        filters.push(
          sql<boolean>`(${contains('p.codigo', input.q)} or ${contains('p.nif', input.q)} or ${contains('p.razon_social', input.q)} or ${contains('p.nombre_comercial', input.q)})`,
        );
      }
      if (input.activo !== null) filters.push(sql<boolean>`p.activo = ${Number(input.activo)}`);
      const orden = `p.${input.orden ?? 'codigo'}`;
      return listado(input, {
        one: async (id) => {
          const row = await selectProveedor(db).where('p.id', '=', id).executeTakeFirst();
          return row ? { ...row, compras_por_ejercicio: await comprasPorEjercicio(db, id) } : undefined;
        },
        total: async () =>
          (await whereAll(db.selectFrom('proveedores as p').select(sql<number>`count(*)`.as('n')), filters).executeTakeFirstOrThrow()).n,
        page: ({ limit, offset, dir }) => whereAll(selectProveedor(db), filters).orderBy(orden, dir).orderBy('p.id', dir).limit(limit).offset(offset).execute(),
      });
    },
  }),

  defineAction({
    name: 'editarproveedor',
    method: 'POST',
    flags: FLAGS_COMPRAS,
    input: { id: { type: 'int', min: 1 }, ...proveedorSchema } satisfies Schema,
    async handler({ input, raw, app }) {
      const duplicated = (field: string) => () => invalidFields({ [field]: MESSAGES.duplicated });
      const id = await uniqueOr(duplicated('nif'), () =>
        app.db.transaction().execute(async (trx) => {
          const db = trx as unknown as AnyDb;
          const { id: _id, ...fields } = input;
          // A new supplier takes every field; a change only those the request carried.
          const values: Record<string, unknown> = input.id === null ? { ...fields } : present(fields, raw);
          // A new supplier is active unless the request says otherwise.
          if ('activo' in raw) values.activo = input.activo ?? 0;
          else if (input.id === null) values.activo = 1;
          if ('retencion' in values || input.id === null) values.retencion = input.retencion ?? 0;
          if (input.id === null || 'codigo' in raw) values.codigo = input.codigo?.trim() || (await siguienteCodigo(db));
          if ((input.id === null || 'codigo_postal' in raw) && !input.provincia && input.codigo_postal) {
            values.provincia = provinciaDeCodigoPostal(input.codigo_postal);
          }
          if (await taken(db, 'proveedores', 'nif', input.nif, input.id)) throw duplicated('nif')();
          if (values.codigo !== undefined && (await taken(db, 'proveedores', 'codigo', values.codigo, input.id))) throw duplicated('codigo')();
          if (input.id === null) {
            const created = await db.insertInto('proveedores').values(values).returning('id').executeTakeFirstOrThrow();
            return created.id as number;
          }
          const updated = await db.updateTable('proveedores').set(values).where('id', '=', input.id).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
          return input.id;
        }),
      );
      const db = app.db as AnyDb;
      const row = await selectProveedor(db).where('p.id', '=', id).executeTakeFirstOrThrow();
      return { RESULT: '0', data: [{ ...row, compras_por_ejercicio: await comprasPorEjercicio(db, id) }] };
    },
  }),

  defineAction({
    name: 'eliminarproveedor',
    method: 'POST',
    flags: FLAGS_COMPRAS,
    input: { id: { type: 'int', required: true, min: 1 } } satisfies Schema,
    handler: async ({ input, app }) =>
      deleteUnreferenced(app.db as AnyDb, 'proveedores', input.id, [
        { table: 'documentos', column: 'proveedor_id' },
        { table: 'facturas_proveedor', column: 'proveedor_id' },
      ]),
  }),
];
