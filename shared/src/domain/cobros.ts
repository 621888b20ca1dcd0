import { FORMAS_PAGO } from './terceros';

/**
 * Cobros of invoices (issue 17): what is owed, instalment by instalment, and how rectificativas net into it. The server
 * keeps what is left on every document (`por_cobrar`) with these functions; the screens show the same instalments.
 *
 * An invoice and the rectificativas that correct it (directly or through another rectificativa) are one account:
 * what the customer owes is the invoice's total plus each rectificativa by differences (negative for a credit); a
 * rectificativa by substitution replaces what was owed by its own total. Cobros of the invoice (money in) and refunds
 * of its rectificativas (money out) settle that account. Paying the invoice net of its rectificativa (52,42 − 5,11 =
 * 47,31 €) settles both: the rectificativa's credit was taken from what was paid, so nothing is left to refund.
 */

/** Formas de pago paid at the counter: an invoice with one of them is paid on emission. */
export const FORMAS_AL_CONTADO: readonly string[] = ['contado', 'efectivo', 'tarjeta'];

export const esAlContado = (forma: string | null | undefined) => FORMAS_AL_CONTADO.includes(forma ?? '');

/** One cobro (or, negative, a refund paid out): cents. */
export type Cobro = {
  id: number;
  documento_id: number;
  /** The document's displayed number (an invoice's history lists its rectificativas' refunds too). */
  documento_numero?: string;
  fecha: string;
  importe: number;
  forma: string | null;
  creado?: string;
};

/** One instalment: its due date, its amount and what of it is still unpaid (cents). */
export type Plazo = { fecha: string; importe: number; pendiente: number };

/**
 * The instalments of `importe` (cents, ≥ 0) for a document dated `fecha` with this forma de pago: one per due date,
 * equal parts with the remaining cents on the first; without a forma de pago, one due on its date. `cobrado` (cents)
 * pays them in order.
 */
export function plazosDe(fecha: string, forma: string | null | undefined, importe: number, cobrado = 0): Plazo[] {
  return plazosEn(fechasDePlazos(fecha, forma), importe, cobrado);
}

/** The due dates of a document dated `fecha` with this forma de pago (without one, its own date). */
export function fechasDePlazos(fecha: string, forma: string | null | undefined): string[] {
  const dias = FORMAS_PAGO.find((f) => f.id === forma)?.dias ?? [0];
  return dias.map((d) => {
    const t = new Date(`${fecha}T00:00:00Z`);
    t.setUTCDate(t.getUTCDate() + d);
    return t.toISOString().slice(0, 10);
  });
}

/**
 * The instalments of `importe` (cents, ≥ 0) due on these dates (issue 26: a supplier invoice's, from its forma de pago
 * or typed): equal parts with the remaining cents on the first; `cobrado` (cents) pays them in order.
 */
export function plazosEn(fechas: readonly string[], importe: number, cobrado = 0): Plazo[] {
  const n = Math.max(1, fechas.length);
  const parte = Math.floor(importe / n);
  let queda = Math.max(0, cobrado);
  return fechas.map((fecha, i) => {
    const cuota = i === 0 ? importe - parte * (n - 1) : parte;
    const pagado = Math.min(queda, cuota);
    queda -= pagado;
    return { fecha, importe: cuota, pendiente: cuota - pagado };
  });
}

/** What of the instalments is overdue on `hoy` (cents): the unpaid part of those due before it. */
export const vencidoDe = (plazos: readonly Plazo[], hoy: string) => plazos.reduce((s, p) => s + (p.fecha < hoy ? p.pendiente : 0), 0);

/** How many instalments are fully paid (the next one due is `plazos[n]`). */
export const plazosCubiertos = (plazos: readonly Plazo[]) => {
  const i = plazos.findIndex((p) => p.pendiente > 0);
  return i < 0 ? plazos.length : i;
};
