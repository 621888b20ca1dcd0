import type { Kysely } from 'kysely';
import { MESSAGES, formatMoney, plazosCubiertos, plazosEn } from 'shared/domain';
import type { Cobro, Plazo } from 'shared/domain';
import { fail } from '../errors.ts';

/**
 * Payments of supplier invoices (issue 26; docs/cobros-pagos.md «Pagos a proveedores»): the customers' cobros turned around, on the
 * same primitives (shared/domain/cobros.ts: instalments by due date, paid in order). A supplier invoice and the abonos
 * that rectify it (`rectifica_id`) are one account: what the shop owes is the invoice's total plus each abono's
 * (negative), less the payments of all of them (a refund received from the supplier is a negative payment, on the
 * abono). What is left is kept on the invoices (`por_pagar`): on the invoice when the shop owes, on its latest abono
 * (negative) when the supplier owes a refund; `plazos_cubiertos` says which instalment is due next and `pago_fecha`
 * the last payment once settled. Every change of the account recomputes it in the caller's transaction.
 */

// biome-ignore lint/suspicious/noExplicitAny: raw queries over the purchases' tables
type AnyDb = Kysely<any>;

type FacturaCuenta = { id: number; fecha: string; total: number; vencimientos: string | null; rectifica_id: number | null };

export type CuentaProveedor = {
  factura_id: number;
  /** What is owed: the invoice netting its abonos (cents). */
  importe: number;
  /** Σ payments less refunds received. */
  pagado: number;
  /** importe − pagado: > 0 the shop owes, < 0 the supplier owes a refund. */
  saldo: number;
  plazos: Plazo[];
  pagos: Cobro[];
  abonos: { id: number; total: number }[];
};

/** The due dates stored on an invoice (JSON), or its own date. */
export const fechasDe = (f: { fecha: string; vencimientos: string | null }): string[] => {
  const v = f.vencimientos ? (JSON.parse(f.vencimientos) as string[]) : [];
  return v.length ? v : [f.fecha];
};

const COLS = ['id', 'fecha', 'total', 'vencimientos', 'rectifica_id'] as const;

/** The account of a supplier invoice (of an abono: of the invoice it rectifies). */
export async function cuentaProveedorDe(db: AnyDb, id: number): Promise<(CuentaProveedor & { docs: FacturaCuenta[] }) | null> {
  const f = (await db.selectFrom('facturas_proveedor').select([...COLS]).where('id', '=', id).executeTakeFirst()) as FacturaCuenta | undefined;
  if (!f) return null;
  const raiz = f.rectifica_id
    ? ((await db.selectFrom('facturas_proveedor').select([...COLS]).where('id', '=', f.rectifica_id).executeTakeFirst()) as FacturaCuenta)
    : f;
  const abonos = (await db.selectFrom('facturas_proveedor').select([...COLS]).where('rectifica_id', '=', raiz.id).orderBy('fecha').orderBy('id').execute()) as FacturaCuenta[];
  const docs = [raiz, ...abonos];
  const pagos = (
    await db
      .selectFrom('pagos_proveedor')
      .select(['id', 'factura_id as documento_id', 'fecha', 'importe', 'forma', 'creado'])
      .where('factura_id', 'in', docs.map((d) => d.id))
      .orderBy('fecha')
      .orderBy('id')
      .execute()
  ).map((r) => ({ ...r, importe: Number(r.importe) })) as Cobro[];
  const importe = docs.reduce((s, d) => s + Number(d.total), 0);
  const pagado = pagos.reduce((s, p) => s + p.importe, 0);
  return {
    factura_id: raiz.id,
    importe,
    pagado,
    saldo: importe - pagado,
    plazos: plazosEn(fechasDe(raiz), Math.max(0, importe), pagado),
    pagos,
    abonos: abonos.map((a) => ({ id: a.id, total: Number(a.total) })),
    docs,
  };
}

/** Recomputes and stores what is left on every invoice of the account of `id`. */
export async function recalcularCuentaProveedor(db: AnyDb, id: number): Promise<CuentaProveedor | null> {
  const c = await cuentaProveedorDe(db, id);
  if (!c) return null;
  const ultimoAbono = c.docs.at(-1);
  const ultimo = c.pagos.at(-1);
  const saldada = c.saldo === 0 && (ultimo !== undefined || c.importe === 0);
  for (const d of c.docs) {
    let porPagar = 0;
    if (d.id === c.factura_id && c.saldo > 0) porPagar = c.saldo;
    if (c.saldo < 0 && d.id === ultimoAbono?.id && d.id !== c.factura_id) porPagar = c.saldo;
    // An invoice whose own total is negative (an abono without its invoice) is what the supplier owes.
    if (c.saldo < 0 && c.docs.length === 1) porPagar = c.saldo;
    await db
      .updateTable('facturas_proveedor')
      .set({
        por_pagar: porPagar,
        plazos_cubiertos: d.id === c.factura_id ? plazosCubiertos(c.plazos) : 0,
        pago_fecha: saldada ? (ultimo?.fecha ?? d.fecha) : null,
      })
      .where('id', '=', d.id)
      .execute();
  }
  return c;
}

/**
 * Records a payment of a supplier invoice (money out, while the shop owes) or, on an abono, a refund received (stored
 * negative, while the supplier owes): `importe` (cents, > 0) or, absent, everything left; never more than that.
 */
export async function registrarPago(
  db: AnyDb,
  facturaId: number,
  p: { fecha: string; forma: string | null; importe: number | null; usuarioId: number | null; creado: string },
): Promise<Cobro> {
  const c = await cuentaProveedorDe(db, facturaId);
  const abono = c !== null && facturaId !== c.factura_id;
  // What the shop owes is paid on the invoice; what the supplier owes back, on the abono (or the lone negative invoice).
  if (!c || c.saldo === 0 || (c.saldo > 0 ? abono : !abono && c.docs.length > 1)) throw fail(MESSAGES.facturaProveedorSinPendiente, '1', 400);
  const queda = Math.abs(c.saldo);
  const importe = p.importe ?? queda;
  if (importe > queda) throw fail(MESSAGES.cobroSuperaPendiente.replace('{importe}', formatMoney(queda)), '1', 400);
  const valor = c.saldo > 0 ? importe : -importe;
  const row = await db
    .insertInto('pagos_proveedor')
    .values({ factura_id: facturaId, fecha: p.fecha, importe: valor, forma: p.forma, creado: p.creado, creado_por: p.usuarioId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recalcularCuentaProveedor(db, facturaId);
  return { id: row.id, documento_id: facturaId, fecha: p.fecha, importe: valor, forma: p.forma };
}

/** Every supplier invoice's account (a restored backup, made before payments existed or not). */
export async function recalcularCuentasProveedor(db: AnyDb): Promise<void> {
  const raices = await db.selectFrom('facturas_proveedor').select('id').where('rectifica_id', 'is', null).orderBy('id').execute();
  for (const f of raices) await recalcularCuentaProveedor(db, f.id);
}
