import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 17: «Observaciones para el cliente» (`documentos.observaciones_cliente`), the ones the customer's or the
 * supplier's PDF prints, apart from the internal `observaciones`; and the date from which the company must send
 * every invoicing record to the AEAT (`verifactu.fecha_obligacion`: 1 January 2027 for companies paying Impuesto
 * sobre Sociedades, 1 July 2027 for the rest, the default), and whether the certificate uploaded is self-signed.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('documentos').addColumn('observaciones_cliente', 'text').execute();
  await db.schema.alterTable('verifactu').addColumn('fecha_obligacion', 'text', (c) => c.notNull().defaultTo('2027-07-01')).execute();
  // 1: the certificate uploaded signs itself (no recognised authority issued it: the AEAT will not accept it).
  await db.schema.alterTable('verifactu').addColumn('autofirmado', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
