import { PostgresAdapter, sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { DialectName } from '../db/index.ts';

/**
 * SQL fragments both engines need written apart: exact integer division and the average cost.
 * Integers only: SQLite divides integers as integers; PostgreSQL's sum() of bigint is numeric, so its
 * quotients go through div() (the integer part) and back to bigint.
 */

/** Integer quotient of two non-negative integer expressions, truncated. */
export function intDiv(dialect: DialectName, a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`cast(div(${a}, ${b}) as bigint)` : sql<number>`((${a}) / (${b}))`;
}

/** a ÷ d rounded half away from zero (d a positive integer constant). */
export function roundDiv(dialect: DialectName, a: RawBuilder<unknown>, d: number): RawBuilder<number> {
  const half = sql.lit(Math.floor(d / 2));
  const dd = sql.lit(d);
  const pos = intDiv(dialect, sql`(${a}) + ${half}`, sql`${dd}`);
  const neg = intDiv(dialect, sql`-(${a}) + ${half}`, sql`${dd}`);
  return sql<number>`(case when (${a}) >= 0 then ${pos} else -${neg} end)`;
}

/**
 * The article's average cost (ten-thousandths): the weighted average of its `compra` ledger rows
 * (Σ cantidad × precio ÷ Σ cantidad, half-up) when it has any, else its precio_compra. `articulo` is
 * the SQL alias of an `articulos` row in the outer query (a correlated subquery: it reads the
 * article's own ledger rows through the (articulo_id, …) index).
 */
export function costeMedioSql(dialect: DialectName, articulo: string): RawBuilder<number> {
  const a = sql.ref(`${articulo}.id`);
  const cantidad = sql`sum(cm.cantidad)`;
  const importe = dialect === 'postgres' ? sql`sum(cast(cm.cantidad as numeric) * cm.precio)` : sql`sum(cm.cantidad * cm.precio)`;
  const media = intDiv(dialect, sql`${importe} * 2 + ${cantidad}`, sql`2 * ${cantidad}`);
  return sql<number>`coalesce((select case when ${cantidad} > 0 then ${media} end
    from stock_movimientos cm where cm.articulo_id = ${a} and cm.causa = 'compra'), ${sql.ref(`${articulo}.precio_compra`)})`;
}

/** A sum as text, so JavaScript reads it exactly as a BigInt whatever its size. */
export const sumText = (expr: RawBuilder<unknown>) => sql<string>`cast(coalesce(sum(${expr}), 0) as text)`;

/** Text of a PostgreSQL numeric or SQLite integer sum, as a BigInt ('12.000' and '12' alike). */
export const toBig = (v: string | number | bigint | null | undefined): bigint =>
  v === null || v === undefined ? 0n : typeof v === 'bigint' ? v : BigInt(String(v).replace(/\.0*$/, ''));

/** A line's net unit price (ten-thousandths): precio × (100 % − descuento), half-up. `l` is the documento_lineas alias. */
export function precioNetoSql(dialect: DialectName, l: string): RawBuilder<number> {
  return roundDiv(dialect, sql`${sql.ref(`${l}.precio`)} * (10000 - ${sql.ref(`${l}.descuento`)})`, 10000);
}

/** The engine a Kysely instance (or transaction) runs on, for helpers that are not told it. */
// biome-ignore lint/suspicious/noExplicitAny: any database type
export const dialectOf = (db: Kysely<any>): DialectName => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');
