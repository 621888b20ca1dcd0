import { formatDecimal, formatMoney } from 'shared';

/** A quantity in thousandths, es-ES, trailing zeros trimmed: '12', '1,5', '-0,25'. */
export function formatCantidad(value: bigint | number | null | undefined): string {
  return formatDecimal(BigInt(value ?? 0), 3, 0);
}

/** A unit cost in ten-thousandths: '8,2562 €', '10,00 €'. */
export function formatPrecio(value: bigint | number | null | undefined): string {
  return `${formatDecimal(BigInt(value ?? 0), 4, 2)} €`;
}

/** An amount in cents: '1.234,56 €'. */
export function formatImporte(value: bigint | number | null | undefined): string {
  return formatMoney(BigInt(value ?? 0));
}
