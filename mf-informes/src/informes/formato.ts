import { CAUSA_LABEL, estadoEnvioLabel, formatDate, formatDecimal, formatMonth } from 'shared';
import type { Columna, Fila, Formato } from './tipos';

const SCALE: Partial<Record<Formato, number>> = { dinero: 2, cantidad: 3, precio: 4, porcentaje: 2, entero: 0, razon: 2 };
/** Fraction digits always shown. */
const MIN: Partial<Record<Formato, number>> = { dinero: 2, cantidad: 0, precio: 2, porcentaje: 0, entero: 0, razon: 2 };

/** A scaled integer as the server sends it (number, or its text when it may exceed 2^53); null when absent. */
export function entero(v: unknown): bigint | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.round(v)) : null;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  return null;
}

export const esNumerico = (f: Formato) => f in SCALE;

/** The value of a column in a row (its own field, or worked out). */
export function valor(col: Columna, row: Fila): unknown {
  return col.calcular ? col.calcular(row) : row[col.id];
}

/**
 * A cell as es-ES text, without units: '1.234,56' (euros), '12,5' (units), '21' (percent). What the table, the
 * CSV and the PDF show; the table adds ' €' / ' %'.
 */
export function texto(formato: Formato, v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const scale = SCALE[formato];
  if (scale !== undefined) {
    const n = entero(v);
    return n === null ? String(v) : formatDecimal(n, scale, MIN[formato]);
  }
  if (formato === 'fecha') return formatDate(String(v));
  if (formato === 'mes') return /^\d{4}-\d{2}/.test(String(v)) ? formatMonth(String(v).slice(0, 7)) : String(v);
  if (formato === 'verifactu') return estadoEnvioLabel(String(v));
  if (formato === 'causa') return CAUSA_LABEL[String(v)] ?? String(v);
  return String(v);
}

/** Text with its unit, for the screen. */
export function textoConUnidad(formato: Formato, v: unknown): string {
  const t = texto(formato, v);
  if (!t) return t;
  if (formato === 'dinero' || formato === 'precio') return `${t} €`;
  if (formato === 'porcentaje') return `${t} %`;
  return t;
}

/** Whether a value is below zero (drawn red: a negative stock, a loss, a cash difference). */
export function negativo(v: unknown): boolean {
  const n = entero(v);
  return n !== null && n < 0n;
}
