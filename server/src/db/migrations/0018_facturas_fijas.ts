import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 16: invoices that stand.
 * - What an invoice was issued with stays with it: `documentos.serie_codigo` (the serie's code at emission, the
 *   displayed number's prefix), `documentos.emision` (JSON: the issuer's and the recipient's name, NIF and address
 *   as printed) and `documentos.fecha_operacion` (the date of the deliveries it invoices when earlier than its own).
 *   Invoices issued before keep the code their serie has now (the best there is).
 * - Parties from anywhere: `pais` (ISO 3166-1 alpha-2; null is Spain) and `tipo_id` (the AEAT's IDType: 02-06;
 *   null is a Spanish NIF) on clientes and proveedores.
 * - The operation of each line (`documento_lineas.operacion`: S1, S2, E1-E6, N1, N2; null is S1, or E1 for an
 *   exempt article as before) and its defaults (`clientes.operacion`, `articulos.operacion`).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('documentos').addColumn('serie_codigo', 'text').execute();
  await db.schema.alterTable('documentos').addColumn('emision', 'text').execute();
  await db.schema.alterTable('documentos').addColumn('fecha_operacion', 'text').execute();
  await sql`update documentos set serie_codigo = (select s.codigo from series s where s.id = documentos.serie_id)
    where serie_id is not null and numero is not null`.execute(db);
  for (const tabla of ['clientes', 'proveedores']) {
    await db.schema.alterTable(tabla).addColumn('pais', 'text').execute();
    await db.schema.alterTable(tabla).addColumn('tipo_id', 'text').execute();
  }
  await db.schema.alterTable('clientes').addColumn('operacion', 'text').execute();
  await db.schema.alterTable('articulos').addColumn('operacion', 'text').execute();
  await db.schema.alterTable('documento_lineas').addColumn('operacion', 'text').execute();
}
