import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { proveedorSchema } from 'shared/domain';
import { toBig } from '../../documentos/sql.ts';
import { terceroActions } from '../terceros.ts';
import { vencimientosPendientes } from './pagos.ts';

// biome-ignore lint/suspicious/noExplicitAny: raw SQL over the documents
type AnyDb = Kysely<any>;

export const FLAGS_COMPRAS = ['compras' as const];

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

/** Issue 26: what the shop owes the supplier (cents): its invoices' unpaid instalments, and of it what is overdue. */
async function loQueSeDebe(db: AnyDb, id: number, hoy: string) {
  const v = await vencimientosPendientes(db, { proveedor_id: id });
  return { pendiente_pago: v.reduce((s, x) => s + x.pendiente, 0), vencido_pago: v.reduce((s, x) => s + (x.fecha < hoy ? x.pendiente : 0), 0) };
}

/** Proveedores (issue 7): list, record with purchases per year, edit, delete (the master's machinery is terceros.ts). */
export const proveedorActions = terceroActions({
  entidad: 'proveedor',
  plural: 'proveedores',
  tabla: 'proveedores',
  flags: FLAGS_COMPRAS,
  schema: proveedorSchema,
  prefijo: 'P',
  figuras: async (db, id, hoy) => ({ compras_por_ejercicio: await comprasPorEjercicio(db, id), ...(await loQueSeDebe(db, id, hoy)) }),
  referencias: [
    { table: 'documentos', column: 'proveedor_id' },
    { table: 'facturas_proveedor', column: 'proveedor_id' },
  ],
});
