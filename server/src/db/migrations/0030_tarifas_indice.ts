import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 14, info-tarifas at a hundred thousand articles: the report reads every active article's prices and cost (its
 * totals count those below cost) in code order, and only the page's descriptions. An index covering exactly that is read
 * instead of the articles' wide rows (their search words and descriptions): 1 s → tens of milliseconds.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index articulos_tarifas on articulos (activo, codigo, familia_id, marca_id, precio_compra, coste_medio, precio_venta, tarifa_2, tarifa_3)`.execute(db);
}
