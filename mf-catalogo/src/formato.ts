import { formatDecimal, formatMoney } from 'shared';

/** A unit price or cost in ten-thousandths: '8,2562 €', '10,00 €'. */
export function formatPrecio(value: bigint | number | null | undefined): string {
  return `${formatDecimal(BigInt(value ?? 0), 4, 2)} €`;
}

/** A PVP in cents: '9,99 €'. */
export function formatPvp(value: bigint | number | null | undefined): string {
  return formatMoney(BigInt(value ?? 0));
}

/** A quantity in thousandths: '12', '1,5'. */
export function formatCantidad(value: bigint | number | null | undefined): string {
  return formatDecimal(BigInt(value ?? 0), 3, 0);
}

/** A percentage in hundredths: '21 %', '33,33 %'. */
export function formatPorcentaje(value: bigint | number | null | undefined): string {
  return `${formatDecimal(BigInt(value ?? 0), 2, 0)} %`;
}

/** A decimal form value (scaled integer, empty, or text that isn't a number) as a BigInt, or null. */
export function asBigInt(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return null;
}
