import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { MESSAGES, clienteSchema, provinciaDeCodigoPostal, vencimientos } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { todayIn } from '../../context.ts';
import { toBig } from '../../documentos/sql.ts';
import { contains, deleteUnreferenced, listSchema, listado, present, taken, uniqueOr } from '../common.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';

// biome-ignore lint/suspicious/noExplicitAny: filters are raw SQL over aliased tables
type AnyDb = Kysely<any>;

export const FLAGS_VENTAS = ['ventas' as const];

const COLUMNS = [
  'id', 'codigo', 'nif', 'razon_social', 'nombre_comercial', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email', 'iban',
  'forma_pago', 'retencion', 'recargo', 'tarifa', 'descuento', 'observaciones', 'activo',
] as const;

const listInput = {
  ...listSchema(['codigo', 'razon_social', 'nif', 'poblacion'] as const),
  activo: { type: 'enum', values: ['0', '1'] },
} as const satisfies Schema;

const selectCliente = (db: AnyDb) => db.selectFrom('clientes as c').select(COLUMNS.map((c) => `c.${c}`));

// biome-ignore lint/suspicious/noExplicitAny: any select query of the AnyDb above
function whereAll(q: any, filters: RawBuilder<boolean>[]): any {
  let out = q;
  for (const f of filters) out = out.where(f);
  return out;
}

/**
 * Sales per year from real documents, cents: albaranes − devoluciones, plus the emitted invoices that were not made
 * from albaranes or devoluciones (direct sales, partes de trabajo) — those are counted through their albaranes.
 */
async function ventasPorEjercicio(db: AnyDb, id: number) {
  const { rows } = await sql<{ ejercicio: number; tipo: string; base: string; total: string }>`
    select d.ejercicio, d.tipo, cast(sum(d.base) as text) as base, cast(sum(d.total) as text) as total
    from documentos d
    where d.cliente_id = ${id}
      and (d.tipo in ('albaranventa', 'devolucionventa')
        or (d.tipo = 'factura' and d.estado = 'emitida' and not exists (
          select 1 from documento_lineas l
          join documento_enlaces e on e.linea_id = l.id
          join documento_lineas pl on pl.id = e.padre_linea_id
          join documentos pd on pd.id = pl.documento_id
          where l.documento_id = d.id and pd.tipo in ('albaranventa', 'devolucionventa'))))
    group by d.ejercicio, d.tipo`.execute(db);
  const by = new Map<number, { base: bigint; total: bigint }>();
  for (const r of rows) {
    const s = r.tipo === 'devolucionventa' ? -1n : 1n;
    const e = by.get(r.ejercicio) ?? { base: 0n, total: 0n };
    by.set(r.ejercicio, { base: e.base + s * toBig(r.base), total: e.total + s * toBig(r.total) });
  }
  return [...by.entries()].sort(([a], [b]) => b - a).map(([ejercicio, v]) => ({ ejercicio, base: Number(v.base), total: Number(v.total) }));
}

/**
 * What the customer owes: its emitted invoices not yet paid (cents, IVA included), and of that what is overdue —
 * an invoice whose first due date (from its forma de pago; its date without one) is before today.
 */
async function deuda(db: AnyDb, id: number, hoy: string) {
  const rows = (await db
    .selectFrom('documentos')
    .select(['fecha', 'forma_pago', 'total'])
    .where('cliente_id', '=', id)
    .where('tipo', '=', 'factura')
    .where('estado', '=', 'emitida')
    .where('cobro_fecha', 'is', null)
    .execute()) as { fecha: string; forma_pago: string | null; total: number | string }[];
  let pendiente = 0n;
  let vencido = 0n;
  for (const r of rows) {
    const total = toBig(r.total);
    pendiente += total;
    const vence = vencimientos(r.fecha, r.forma_pago)[0] ?? r.fecha;
    if (vence < hoy) vencido += total;
  }
  return { pendiente_cobro: Number(pendiente), vencido: Number(vencido) };
}

/** The next free 'C0001'-style code. */
async function siguienteCodigo(db: AnyDb): Promise<string> {
  const rows = await db.selectFrom('clientes').select('codigo').where('codigo', 'like', 'C%').execute();
  const max = rows.reduce((m: number, r: { codigo: string }) => (/^C\d{1,9}$/.test(r.codigo) ? Math.max(m, Number(r.codigo.slice(1))) : m), 0);
  return `C${String(max + 1).padStart(4, '0')}`;
}

/** The full record: the row, sales per year and what it owes. */
async function registro(db: AnyDb, id: number, hoy: string) {
  const row = await selectCliente(db).where('c.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { ...row, ventas_por_ejercicio: await ventasPorEjercicio(db, id), ...(await deuda(db, id, hoy)) };
}

/** Clientes (issue 8): list, record with sales per year and debt, edit, delete. */
export const clienteActions = [
  defineAction({
    name: 'listadoclientes',
    method: 'GET',
    flags: FLAGS_VENTAS,
    input: listInput,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      const filters: RawBuilder<boolean>[] = [];
      if (input.q) {
        filters.push(
          sql<boolean>`(${contains('c.codigo', input.q)} or ${contains('c.nif', input.q)} or ${contains('c.razon_social', input.q)} or ${contains('c.nombre_comercial', input.q)})`,
        );
      }
      if (input.activo !== null) filters.push(sql<boolean>`c.activo = ${Number(input.activo)}`);
      const orden = `c.${input.orden ?? 'codigo'}`;
      return listado(input, {
        one: (id) => registro(db, id, todayIn(app.timeZone)),
        total: async () =>
          (await whereAll(db.selectFrom('clientes as c').select(sql<number>`count(*)`.as('n')), filters).executeTakeFirstOrThrow()).n,
        page: ({ limit, offset, dir }) => whereAll(selectCliente(db), filters).orderBy(orden, dir).orderBy('c.id', dir).limit(limit).offset(offset).execute(),
      });
    },
  }),

  defineAction({
    name: 'editarcliente',
    method: 'POST',
    flags: FLAGS_VENTAS,
    input: { id: { type: 'int', min: 1 }, ...clienteSchema } satisfies Schema,
    async handler({ input, raw, app }) {
      const duplicated = (field: string) => () => invalidFields({ [field]: MESSAGES.duplicated });
      // Tarifas 2 and 3 only while their flags are on.
      if (input.tarifa === 2 || input.tarifa === 3) {
        const flags = await app.config.flags();
        if (!flags[input.tarifa === 2 ? 'tarifa_2' : 'tarifa_3']) throw invalidFields({ tarifa: MESSAGES.selectOption });
      }
      const id = await uniqueOr(duplicated('nif'), () =>
        app.db.transaction().execute(async (trx) => {
          const db = trx as unknown as AnyDb;
          const { id: _id, ...fields } = input;
          // A new customer takes every field; a change only those the request carried.
          const values: Record<string, unknown> = input.id === null ? { ...fields } : present(fields, raw);
          // A new customer is active unless the request says otherwise.
          if ('activo' in raw) values.activo = input.activo ?? 0;
          else if (input.id === null) values.activo = 1;
          if ('retencion' in values || input.id === null) values.retencion = input.retencion ?? 0;
          if ('descuento' in values || input.id === null) values.descuento = input.descuento ?? 0;
          if ('tarifa' in values || input.id === null) values.tarifa = input.tarifa ?? 1;
          if ('recargo' in raw || input.id === null) values.recargo = input.recargo ?? 0;
          if (input.id === null || 'codigo' in raw) values.codigo = input.codigo?.trim() || (await siguienteCodigo(db));
          if ((input.id === null || 'codigo_postal' in raw) && !input.provincia && input.codigo_postal) {
            values.provincia = provinciaDeCodigoPostal(input.codigo_postal);
          }
          if (await taken(db, 'clientes', 'nif', input.nif, input.id)) throw duplicated('nif')();
          if (values.codigo !== undefined && (await taken(db, 'clientes', 'codigo', values.codigo, input.id))) throw duplicated('codigo')();
          if (input.id === null) {
            const created = await db.insertInto('clientes').values(values).returning('id').executeTakeFirstOrThrow();
            return created.id as number;
          }
          const updated = await db.updateTable('clientes').set(values).where('id', '=', input.id).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
          return input.id;
        }),
      );
      return { RESULT: '0', data: [(await registro(app.db as AnyDb, id, todayIn(app.timeZone)))!] };
    },
  }),

  defineAction({
    name: 'eliminarcliente',
    method: 'POST',
    flags: FLAGS_VENTAS,
    input: { id: { type: 'int', required: true, min: 1 } } satisfies Schema,
    handler: async ({ input, app }) => deleteUnreferenced(app.db as AnyDb, 'clientes', input.id, [{ table: 'documentos', column: 'cliente_id' }]),
  }),
];
