import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 22, backups without a person (copias/programadas.ts): one row, the daily backup's state shared by every
 * instance on the database — the lease (`lease_id`, `lease_hasta`: only its holder takes the day's backup, as the
 * VERI*FACTU sender's), the business day of the last one taken (`dia`), its file, when, and the last error.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('copias_programadas')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('lease_id', 'text')
    .addColumn('lease_hasta', 'text')
    .addColumn('dia', 'text')
    .addColumn('archivo', 'text')
    .addColumn('creada', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.insertInto('copias_programadas').values({ id: 1 }).execute();
}
