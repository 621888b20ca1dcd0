import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/** docs/documentos.md: negative stock allowed (1, the default: shops sell what has not been received yet) or refused (0). */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('configuracion').addColumn('stock_negativo', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}
