import { CAUSA_LABEL, estadoEnvioLabel, formatDate, formatDecimal, formatMonth } from 'shared';
import type { Columna, Fila, Formato } from './tipos';

const SCALE: Partial<Record<Formato, number>> = { dinero: 2, cantidad: 3, precio: 4, porcentaje: 2, entero: 0, razon: 2 };
/**
 * Fraction digits always shown (issue 25: one rule for screens and exports alike): amounts and percentages with their
 * two decimals (44,00 %), quantities as few as they need, prices as many as the column's most precise one needs
 * (`decimalesColumna`: 2 to 4, the same on every row of the column).
 */
const MIN: Partial<Record<Formato, number>> = { dinero: 2, cantidad: 0, precio: 2, porcentaje: 2, entero: 0, razon: 2 };

/** A scaled integer as the server sends it (number, or its text when it may exceed 2^53); null when absent. */
export function entero(v: unknown): bigint | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.round(v)) : null;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  return null;
}

export const esNumerico = (f: Formato) => f in SCALE || f === 'anio';

/**
 * The fraction digits a column shows on every row: a price column as many as its most precise value needs (a column of
 * 6,50 and 6,6965 reads 6,5000 and 6,6965), every other format its own minimum.
 */
export function decimalesColumna(col: Columna, filas: readonly Fila[]): number | undefined {
  if (col.formato !== 'precio') return undefined;
  let d = MIN.precio!;
  for (const f of filas) {
    const n = entero(valor(col, f));
    if (n === null) continue;
    const resto = (n < 0n ? -n : n) % 10_000n;
    const necesita = resto === 0n ? 0 : resto % 1_000n === 0n ? 1 : resto % 100n === 0n ? 2 : resto % 10n === 0n ? 3 : 4;
    if (necesita > d) d = necesita;
    if (d === 4) break;
  }
  return d;
}

/** The value of a column in a row (its own field, or worked out). */
export function valor(col: Columna, row: Fila): unknown {
  return col.calcular ? col.calcular(row) : row[col.id];
}

/**
 * A cell as es-ES text, without units: '1.234,56' (euros), '12,5' (units), '21' (percent). What the table, the
 * CSV and the PDF show; the table adds ' €' / ' %'.
 */
export function texto(formato: Formato, v: unknown, decimales?: number): string {
  if (v === null || v === undefined || v === '') return '';
  const scale = SCALE[formato];
  if (scale !== undefined) {
    const n = entero(v);
    return n === null ? String(v) : formatDecimal(n, scale, decimales ?? MIN[formato]);
  }
  // A year is a number without a thousands separator (2026, never 2.026).
  if (formato === 'anio') return String(v);
  if (formato === 'fecha') return formatDate(String(v));
  if (formato === 'mes') return /^\d{4}-\d{2}/.test(String(v)) ? formatMonth(String(v).slice(0, 7)) : String(v);
  if (formato === 'verifactu') return estadoEnvioLabel(String(v));
  if (formato === 'causa') return CAUSA_LABEL[String(v)] ?? String(v);
  return String(v);
}

/** Text with its unit, for the screen. */
export function textoConUnidad(formato: Formato, v: unknown, decimales?: number): string {
  const t = texto(formato, v, decimales);
  if (!t) return t;
  if (formato === 'dinero' || formato === 'precio') return `${t} €`;
  if (formato === 'porcentaje') return `${t} %`;
  return t;
}

/**
 * What a totals or subtotal row shows in a column: the row's value whenever the answer carries one (the server's
 * totals of the whole selection: every column it totals, the 347's quarters as its year), nothing where it has none.
 */
export const enFilaTotal = (col: Columna, f: Fila): boolean => !!col.calcular || (f[col.id] !== undefined && f[col.id] !== null);

/** Whether a value is below zero (drawn red: a negative stock, a loss, a cash difference). */
export function negativo(v: unknown): boolean {
  const n = entero(v);
  return n !== null && n < 0n;
}
