import { divRound, IVA_RATE, type TipoIva } from 'shared';

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

/** A line's amount at scale 11 (quantity 3 + price 4 + (100 % − discount) 4). */
function bruto11(l: LineaImporte): bigint {
  return BigInt(l.cantidad) * BigInt(l.precio) * (10000n - BigInt(l.descuento));
}

/** What one line shows, cents. */
export function importeLinea(l: LineaImporte): number {
  return Number(divRound(bruto11(l), 10n ** 9n));
}

export function totalesTicket(lineas: readonly LineaImporte[]): TotalesTicket {
  const grupos = new Map<TipoIva, bigint>();
  for (const l of lineas) grupos.set(l.tipo_iva, (grupos.get(l.tipo_iva) ?? 0n) + bruto11(l));
  const desglose: DesgloseTicket[] = [];
  for (const tipo of (['21', '10', '4', 'exento'] as const).filter((t) => grupos.has(t))) {
    const total = divRound(grupos.get(tipo)!, 10n ** 9n);
    const base = divRound(total * 10000n, 10000n + IVA_RATE[tipo]);
    desglose.push({ tipo_iva: tipo, base: Number(base), cuota: Number(total - base), total: Number(total) });
  }
  const suma = (k: 'total' | 'base' | 'cuota') => desglose.reduce((a, d) => a + d[k], 0);
  return { total: suma('total'), base: suma('base'), cuota: suma('cuota'), desglose };
}

export const FORMAS_PAGO = ['efectivo', 'tarjeta', 'bizum', 'vale'] as const;
export type FormaPago = (typeof FORMAS_PAGO)[number];
export const FORMA_PAGO_LABEL: Record<FormaPago, string> = { efectivo: 'Efectivo', tarjeta: 'Tarjeta', bizum: 'Bizum', vale: 'Vale' };

export type Pago = { forma: FormaPago; importe: number };

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

/** The euro's notes and coins, cents, for counting the drawer. */
export const DENOMINACIONES = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1] as const;

/** Σ count × value of a drawer count. */
export function totalArqueo(conteo: Readonly<Record<number, number>>): number {
  return DENOMINACIONES.reduce((a, d) => a + d * (conteo[d] ?? 0), 0);
}
