import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 14, «Bajo mínimo»: `articulos.stock_minimo` (thousandths, all warehouses together; 0: no minimum), set in the
 * article's form; info-inventario lists the active articles whose stock is under it and what to order. Per article
 * only (a minimum per warehouse would need its own table and form). A partial index finds the articles that have one.
 * Also (issue 14, speed) the per document × article aggregate's date index now covers `bajo_coste`.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('articulos').addColumn('stock_minimo', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`create index articulos_stock_minimo on articulos (id) where stock_minimo > 0`.execute(db);
  // informearticulos sums the lines sold below cost with the rest: the covering index of 0019 (by date) covers it too,
  // so a year of per-document rows is read from the index alone (no table lookup per row).
  await db.schema.dropIndex('informe_ventas_articulo_fecha').execute();
  await db.schema
    .createIndex('informe_ventas_articulo_fecha')
    .on('informe_ventas_articulo')
    .columns(['fecha', 'tipo', 'articulo_id', 'unidades', 'base', 'iva', 'recargo', 'coste', 'bajo_coste'])
    .execute();
}
