import { PostgresAdapter, sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { DialectName } from '../db/index.ts';

/**
 * SQL fragments both engines need written apart (exact integer division), and the cost an article is valued at.
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
 * The cost an article is valued at (ten-thousandths): its average cost (`coste_medio`, documentos/coste.ts) once it has
 * a valued entry, else its precio_compra. `articulo` is the SQL alias of an `articulos` row in the outer query.
 */
export function costeMedioSql(articulo: string): RawBuilder<number> {
  return sql<number>`coalesce(${sql.ref(`${articulo}.coste_medio`)}, ${sql.ref(`${articulo}.precio_compra`)})`;
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
