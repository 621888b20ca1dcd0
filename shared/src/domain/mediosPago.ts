/**
 * Ways of paying (medios de pago): the one list every place that records how money changed hands takes its values
 * from — the till's `pagos` (FORMAS_PAGO_TPV, tpv.ts), the cobros of invoices and the payments of supplier invoices
 * (MEDIOS_COBRO, terceros.ts). Each offers its own subset; the ids are what is stored (`tickets_pagos.forma`,
 * `cobros.forma`, `pagos_proveedor.forma`, a terminal's `formas_pago`), so an id here never changes.
 *
 * Not to be confused with a document's forma de pago (FORMAS_PAGO, terceros.ts: «Recibo domiciliado a 30 y 60 días»),
 * which is payment terms: each of those names the medio it is paid by (`medio`).
 *
 * No imports: the till bundles this file before its first paint (shared/caja).
 */
export const MEDIOS_PAGO = [
  { id: 'efectivo', label: 'Efectivo' },
  { id: 'tarjeta', label: 'Tarjeta' },
  { id: 'bizum', label: 'Bizum' },
  { id: 'vale', label: 'Vale' },
  { id: 'transferencia', label: 'Transferencia bancaria' },
  { id: 'recibo', label: 'Recibo domiciliado' },
  { id: 'cheque', label: 'Cheque o pagaré' },
  { id: 'confirming', label: 'Confirming' },
] as const;

export type MedioPago = (typeof MEDIOS_PAGO)[number]['id'];
export type MedioPagoDef<M extends MedioPago = MedioPago> = Extract<(typeof MEDIOS_PAGO)[number], { id: M }>;

/** The entries of `ids`, in the order given: a place's own subset of the list. */
export function mediosDePago<const M extends MedioPago>(ids: readonly M[]): readonly MedioPagoDef<M>[] {
  return ids.map((id) => MEDIOS_PAGO.find((m) => m.id === id)!) as MedioPagoDef<M>[];
}

/** Whether a stored value is one of the list's ids. */
export const esMedioPago = (v: unknown): v is MedioPago => MEDIOS_PAGO.some((m) => m.id === v);

/** «Tarjeta» for 'tarjeta'; '' for a value that is not a medio de pago. */
export const medioPagoLabel = (id: string | null | undefined): string => MEDIOS_PAGO.find((m) => m.id === id)?.label ?? '';
