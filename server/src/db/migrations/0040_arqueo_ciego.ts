import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 23, closing: `tpv_terminales.arqueo_ciego` — 1 when the terminal's cashier counts blind: `cajatpv` answers the
 * open caja without the expected figures (nor what they are made of) until the closing with its count is saved.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('tpv_terminales').addColumn('arqueo_ciego', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
