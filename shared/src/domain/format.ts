import { toPlain } from './decimal';

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** es-ES text of a scaled integer: 123456n, 2 → '1.234,56'. */
export function formatDecimal(value: bigint | number, scale: number, minFraction = scale): string {
  const plain = toPlain(BigInt(value), scale);
  const neg = plain.startsWith('-');
  const [int, frac = ''] = (neg ? plain.slice(1) : plain).split('.');
  let f = frac;
  while (f.length > minFraction && f.endsWith('0')) f = f.slice(0, -1);
  const intText = groupThousands(int);
  return `${neg ? '-' : ''}${intText}${f ? ',' + f : ''}`;
}

/** Cents to '1.234,56 €'. */
/**
 * Decimals a unit price (ten-thousandths) shows: two, like the amounts beside it ('12,50'), or all four when it has
 * more precision ('0,1250'), never three.
 */
export function decimalesPrecio(value: bigint | number): 2 | 4 {
  return BigInt(value) % 100n === 0n ? 2 : 4;
}

/** A unit price in ten-thousandths, es-ES: '12,50', '0,1250' (see decimalesPrecio). */
export function formatPrecio(value: bigint | number): string {
  return formatDecimal(value, 4, decimalesPrecio(value));
}

export function formatMoney(cents: bigint | number): string {
  return `${formatDecimal(cents, 2)} €`;
}

/** ISO date ('2026-11-21' or a full timestamp) to 'dd/mm/aaaa'. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];
/** '2026-03' → 'mar 2026'. */
export function formatMonth(ym: string): string {
  const [y, m] = ym.split('-');
  return `${MONTHS[Number(m) - 1]} ${y}`;
}
