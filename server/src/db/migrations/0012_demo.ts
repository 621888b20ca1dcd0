import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * The demo company's generated past (db/demo/): per table, the id range of the rows the first start generated, so
 * «Eliminar datos de demostración» removes exactly them. No rows: there is no generated past (MANAGER_DEMO=0, or removed).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('demo_datos')
    .addColumn('tabla', 'text', (c) => c.primaryKey())
    .addColumn('desde', 'integer', (c) => c.notNull())
    .addColumn('hasta', 'integer', (c) => c.notNull())
    .execute();
}
