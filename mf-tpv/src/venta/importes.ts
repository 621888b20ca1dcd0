import { DENOMINACIONES, FORMA_PAGO_TPV_LABEL, FORMAS_PAGO_TPV, totalesTicket as totalesServidor } from 'shared/caja';
import type { FormaPagoTpv, TipoIva } from 'shared';

/**
 * A ticket's sums (exact: scaled integers, BigInt where it multiplies). Prices at the till carry IVA, as the
 * customer sees them: `precio` in ten-thousandths of a euro per unit, `cantidad` in thousandths, `descuento` in
 * hundredths of a percent; amounts in cents. Each IVA rate's lines are added exactly, rounded to cents once,
 * and split into base and cuota (base = total / (1 + rate), half-up; cuota = total − base), so the breakdown
 * always adds up to the total printed.
 */
export type LineaImporte = { cantidad: number; precio: number; descuento: number; tipo_iva: TipoIva };

export type DesgloseTicket = { tipo_iva: TipoIva; base: number; cuota: number; total: number };
export type TotalesTicket = { total: number; base: number; cuota: number; desglose: DesgloseTicket[] };

/** What one line shows, cents (its own amount rounded: the ticket's total is the shared sum below). */
export function importeLinea(l: LineaImporte): number {
  return totalesServidor([l]).total;
}

/** The server's own function (shared `totalesTicket`), shaped as the ticket prints it: what the till shows is what the server stores. */
export function totalesTicket(lineas: readonly LineaImporte[]): TotalesTicket {
  const t = totalesServidor(lineas);
  return {
    total: t.total,
    base: t.base,
    cuota: t.iva,
    desglose: t.desglose.map((d) => ({ tipo_iva: d.tipo_iva, base: d.base, cuota: d.iva, total: d.base + d.iva })),
  };
}

export const FORMAS_PAGO = FORMAS_PAGO_TPV;
export type FormaPago = FormaPagoTpv;
export const FORMA_PAGO_LABEL = FORMA_PAGO_TPV_LABEL;

/** A payment; a store credit («vale», issue 23) names its code: spent whole, checked online. */
/** A payment; by vale (issue 23), its code and the balance it leaves on it (`saldo`, cents: printed on the ticket). */
export type Pago = { forma: FormaPago; importe: number; vale?: string; saldo?: number };

export type EstadoCobro = {
  /** Σ of what was handed over. */
  entregado: number;
  /** Still to pay (0 when covered). */
  pendiente: number;
  /** Cash to give back. */
  cambio: number;
  /** Whether the ticket may be closed with these payments. */
  completo: boolean;
  /** Why not, when a card/Bizum/vale goes beyond the total (only cash gives change). */
  error: string | null;
};

/**
 * Payments against a total (cents, positive). Only cash gives change: the other methods together may not go
 * beyond the total.
 */
export function estadoCobro(total: number, pagos: readonly Pago[]): EstadoCobro {
  const entregado = pagos.reduce((a, p) => a + p.importe, 0);
  const noEfectivo = pagos.filter((p) => p.forma !== 'efectivo').reduce((a, p) => a + p.importe, 0);
  if (pagos.some((p) => !Number.isInteger(p.importe) || p.importe < 0)) {
    return { entregado, pendiente: Math.max(0, total - entregado), cambio: 0, completo: false, error: 'Los importes deben ser positivos.' };
  }
  if (noEfectivo > total) {
    return { entregado, pendiente: 0, cambio: 0, completo: false, error: 'Solo el efectivo puede superar el total: la tarjeta, Bizum y los vales se cobran exactos.' };
  }
  const pendiente = Math.max(0, total - entregado);
  const cambio = Math.max(0, entregado - total);
  return { entregado, pendiente, cambio, completo: pendiente === 0 && total >= 0, error: null };
}

/** What each method really took (cash net of change): the closing's sums. */
export function cobradoPorForma(total: number, pagos: readonly Pago[]): Pago[] {
  const { cambio } = estadoCobro(total, pagos);
  const out = new Map<FormaPago, number>();
  for (const p of pagos) out.set(p.forma, (out.get(p.forma) ?? 0) + p.importe);
  if (cambio) out.set('efectivo', (out.get('efectivo') ?? 0) - cambio);
  return [...out].filter(([, v]) => v !== 0).map(([forma, importe]) => ({ forma, importe }));
}

/** The euro's notes and coins, cents, for counting the drawer (shared). */
export { DENOMINACIONES };

/** Σ count × value of a drawer count. */
export function totalArqueo(conteo: Readonly<Record<number, number>>): number {
  return DENOMINACIONES.reduce((a, d) => a + d * (conteo[d] ?? 0), 0);
}
