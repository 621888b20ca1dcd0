import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { DIR3_CAMPOS, MANDATO_CAMPOS, MESSAGES, clienteSchema, plazosDe, validarDir3, vencidoDe } from 'shared/domain';
import { toBig } from '../../documentos/sql.ts';
import { invalidFields } from '../registry.ts';
import { terceroActions } from '../terceros.ts';

// biome-ignore lint/suspicious/noExplicitAny: raw SQL over the documents
type AnyDb = Kysely<any>;

export const FLAGS_VENTAS = ['ventas' as const];

/**
 * Sales per year from real documents, cents: albaranes − devoluciones, plus the emitted invoices that were not made
 * from albaranes or devoluciones (direct sales, partes de trabajo) — those are counted through their albaranes — and
 * (issue 17) the emitted rectificativas that do not come from devoluciones: by differences, their total (a credit is
 * negative); by substitution, their total less that of the invoice they replace.
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
    group by d.ejercicio, d.tipo
    union all
    select d.ejercicio, 'rectificativa' as tipo,
      cast(sum(d.base - case when d.modo_rectificacion = 'sustitucion' then coalesce(f.base, 0) else 0 end) as text) as base,
      cast(sum(d.total - case when d.modo_rectificacion = 'sustitucion' then coalesce(f.total, 0) else 0 end) as text) as total
    from documentos d
    left join documentos f on f.id = d.factura_id
    where d.cliente_id = ${id} and d.tipo = 'rectificativa' and d.estado = 'emitida' and not exists (
      select 1 from documento_lineas l
      join documento_enlaces e on e.linea_id = l.id
      join documento_lineas pl on pl.id = e.padre_linea_id
      join documentos pd on pd.id = pl.documento_id
      where l.documento_id = d.id and pd.tipo = 'devolucionventa')
    group by d.ejercicio`.execute(db);
  const by = new Map<number, { base: bigint; total: bigint }>();
  for (const r of rows) {
    const s = r.tipo === 'devolucionventa' ? -1n : 1n;
    const e = by.get(r.ejercicio) ?? { base: 0n, total: 0n };
    by.set(r.ejercicio, { base: e.base + s * toBig(r.base), total: e.total + s * toBig(r.total) });
  }
  return [...by.entries()].sort(([a], [b]) => b - a).map(([ejercicio, v]) => ({ ejercicio, base: Number(v.base), total: Number(v.total) }));
}

/**
 * What the customer owes (issue 17): what is left of its emitted invoices, their rectificativas netted and their
 * cobros taken (cents, IVA included; a refund the shop owes counts against it), and of that what is overdue — the
 * unpaid part of the instalments due before today.
 */
async function deuda(db: AnyDb, id: number, hoy: string) {
  const rows = (await db
    .selectFrom('documentos')
    .select(['fecha', 'forma_pago', 'total', 'por_cobrar', 'tipo', 'factura_id', 'modo_rectificacion'])
    .where('cliente_id', '=', id)
    .where('tipo', 'in', ['factura', 'rectificativa'])
    .where('estado', '=', 'emitida')
    .where('por_cobrar', '<>', 0)
    .execute()) as { fecha: string; forma_pago: string | null; total: number | string; por_cobrar: number | string; tipo: string }[];
  let pendiente = 0;
  let vencido = 0;
  for (const r of rows) {
    const queda = Number(r.por_cobrar);
    pendiente += queda;
    if (queda <= 0) continue;
    // The instalments of what is owed, paid in order by what was collected: what is left is the last part of them.
    const total = Number(r.total);
    const importe = Math.max(total, queda);
    vencido += vencidoDe(plazosDe(r.fecha, r.forma_pago, importe, importe - queda), hoy);
  }
  return { pendiente_cobro: pendiente, vencido };
}

/** Clientes (issue 8): list, record with sales per year and debt, edit, delete (the master's machinery is terceros.ts). */
export const clienteActions = terceroActions({
  entidad: 'cliente',
  plural: 'clientes',
  tabla: 'clientes',
  flags: FLAGS_VENTAS,
  schema: clienteSchema,
  prefijo: 'C',
  enteros: { recargo: 0, tarifa: 1, descuento: 0, administracion_publica: 0 },
  // Issue 16: the operation its lines take unless the article has one (E5 only with a NIF-IVA, checked on save).
  textos: [...DIR3_CAMPOS.map((d) => d.campo), 'operacion', ...MANDATO_CAMPOS],
  async validar(input, app, raw) {
    // Issue 16: DIR3 codes kept in capitals; a public administration needs its three units (those the request
    // leaves out are checked as stored).
    for (const d of DIR3_CAMPOS) if (typeof input[d.campo] === 'string') input[d.campo] = (input[d.campo] as string).toUpperCase();
    const campos = ['administracion_publica', ...DIR3_CAMPOS.map((d) => d.campo)];
    const guardado =
      typeof input.id === 'number' && campos.some((c) => !(c in raw))
        ? ((await (app.db as AnyDb).selectFrom('clientes').select(campos).where('id', '=', input.id).executeTakeFirst()) as Record<string, unknown> | undefined)
        : undefined;
    const dir3 = validarDir3(Object.fromEntries(campos.map((c) => [c, c in raw ? input[c] : guardado?.[c]])));
    if (Object.keys(dir3).length) throw invalidFields(dir3);
    // Tarifas 2 and 3 only while their flags are on.
    if (input.tarifa !== 2 && input.tarifa !== 3) return;
    const flags = await app.config.flags();
    if (!flags[input.tarifa === 2 ? 'tarifa_2' : 'tarifa_3']) throw invalidFields({ tarifa: MESSAGES.selectOption });
  },
  figuras: async (db, id, hoy) => ({ ventas_por_ejercicio: await ventasPorEjercicio(db, id), ...(await deuda(db, id, hoy)) }),
  referencias: [{ table: 'documentos', column: 'cliente_id' }],
});
