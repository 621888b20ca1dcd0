import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId } from './util.ts';
import { cobrosDesdeFechas } from './congelado/cobros.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Cobros in parts (issue 17; README, "Cobros"): one row per cobro of an invoice (or, negative, refund of a
 * rectificativa), and on every document what is left to collect (`por_cobrar`, cents: negative when a refund is owed)
 * and how many of its instalments are paid (`plazos_cubiertos`, the next one due is the overdue filter's date). The
 * single cobro each document had becomes its first row; then every invoice's account is computed. Also (issue 17,
 * purchases) `documentos.albaran_proveedor`: the supplier's own number of the delivery note a purchase albarán records.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  await withId(db.schema.createTable('cobros'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('fecha', 'text', (c) => c.notNull())
    .addColumn('importe', big, (c) => c.notNull())
    .addColumn('forma', 'text')
    .addColumn('creado', 'text', (c) => c.notNull())
    .addColumn('creado_por', 'integer')
    .execute();
  await db.schema.createIndex('cobros_documento').on('cobros').column('documento_id').execute();
  await db.schema.alterTable('documentos').addColumn('por_cobrar', big, (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('documentos').addColumn('plazos_cubiertos', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Purchases as suppliers deliver: the supplier's own delivery-note number on a purchase albarán.
  await db.schema.alterTable('documentos').addColumn('albaran_proveedor', 'text').execute();
  await cobrosDesdeFechas(db);
}
