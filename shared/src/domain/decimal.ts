/**
 * Exact decimal arithmetic on scaled integers (BigInt): amounts in cents (scale 2), unit prices
 * in ten-thousandths (scale 4), quantities in thousandths (scale 3). No binary floating point.
 */
export const SCALE = { money: 2, price: 4, quantity: 3, percent: 2 } as const;

/** Parses '1.234,56', '1234.56', '-3' into a scaled integer; null if it is not a number. */
export function parseDecimal(input: string | number, scale: number): bigint | null {
  let s = String(input).trim().replace(/\s|€|%/g, '');
  if (s === '') return null;
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const [, sign, int, frac = ''] = m;
  const digits = frac.padEnd(scale + 1, '0');
  let n = BigInt((int || '0') + digits.slice(0, scale));
  // Round half away from zero on the first dropped digit.
  if (Number(digits[scale]) >= 5) n += 1n;
  return sign === '-' ? -n : n;
}

/** Scaled integer to a plain '1234.56' string. */
export function toPlain(value: bigint | number, scale: number): string {
  const v = BigInt(value);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const s = abs.toString().padStart(scale + 1, '0');
  const out = scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s;
  return neg ? `-${out}` : out;
}

/** Rescales with half-up (away from zero) rounding. */
export function rescale(value: bigint, from: number, to: number): bigint {
  if (to >= from) return value * 10n ** BigInt(to - from);
  const div = 10n ** BigInt(from - to);
  return divRound(value, div);
}

/** Integer division rounding half away from zero. */
export function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n !== b < 0n;
  const aa = a < 0n ? -a : a;
  const bb = b < 0n ? -b : b;
  const q = (aa * 2n + bb) / (bb * 2n);
  return neg ? -q : q;
}

/** value (scale s) × percent (scale 2) / 100, result at scale s, half-up. */
export function percentOf(value: bigint, percentScaled: bigint): bigint {
  return divRound(value * percentScaled, 10000n);
}
