import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 14, two reports at the million-line bench read wide rows for a few columns:
 * - info-tarifas reads every active article's prices and cost (its totals count those below cost) in code order, and
 *   only the page's descriptions: an index covering exactly that instead of the articles' rows (their search words
 *   and descriptions): 1 s → 30 ms;
 * - the VERI*FACTU records by state count a period's records and sum their amounts: an index by date covering state,
 *   kind and amount instead of the records (their XML).
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index articulos_tarifas on articulos (activo, codigo, familia_id, marca_id, precio_compra, coste_medio, precio_venta, tarifa_2, tarifa_3)`.execute(db);
  await sql`create index registros_facturacion_informe on registros_facturacion (creado, estado_envio, tipo, importe_total)`.execute(db);
}
