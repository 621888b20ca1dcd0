import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { MESSAGES, clienteSchema, vencimientos } from 'shared/domain';
import { toBig } from '../../documentos/sql.ts';
import { invalidFields } from '../registry.ts';
import { terceroActions } from '../terceros.ts';

// biome-ignore lint/suspicious/noExplicitAny: raw SQL over the documents
type AnyDb = Kysely<any>;

export const FLAGS_VENTAS = ['ventas' as const];

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

/** Clientes (issue 8): list, record with sales per year and debt, edit, delete (the master's machinery is terceros.ts). */
export const clienteActions = terceroActions({
  entidad: 'cliente',
  plural: 'clientes',
  tabla: 'clientes',
  flags: FLAGS_VENTAS,
  schema: clienteSchema,
  prefijo: 'C',
  enteros: { recargo: 0, tarifa: 1, descuento: 0 },
  // Tarifas 2 and 3 only while their flags are on.
  async validar(input, app) {
    if (input.tarifa !== 2 && input.tarifa !== 3) return;
    const flags = await app.config.flags();
    if (!flags[input.tarifa === 2 ? 'tarifa_2' : 'tarifa_3']) throw invalidFields({ tarifa: MESSAGES.selectOption });
  },
  figuras: async (db, id, hoy) => ({ ventas_por_ejercicio: await ventasPorEjercicio(db, id), ...(await deuda(db, id, hoy)) }),
  referencias: [{ table: 'documentos', column: 'cliente_id' }],
});
