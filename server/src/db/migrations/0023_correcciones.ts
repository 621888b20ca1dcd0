import crypto from 'node:crypto';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 16, every correction the AEAT accepts:
 * - `verifactu.numero_instalacion`: the installation's NumeroInstalacion, generated once (FAQ 4 of the AEAT's FAQs for
 *   developers: never repeated across installations or reinstalls; the timestamp of the installation plus a random
 *   suffix). A database that already wrote records keeps the number they carry (`NIF-001`): the same SIF.
 * - `verifactu.sello` (1: the certificate is an electronic seal's; the records go to the seal endpoints www10 /
 *   prewww10) and `verifactu.representante` (1: the certificate is of a representative or advisor with its own NIF,
 *   named in the Cabecera as Representante).
 * - `registros_facturacion.incidencia` (1: generated while the submission was failing; sent with Incidencia = S).
 * - `documentos.facturas_rectificadas`: JSON array of the invoice ids a rectificativa corrects beyond `factura_id`
 *   (a rappel over several invoices of one customer).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('verifactu').addColumn('numero_instalacion', 'text').execute();
  await db.schema.alterTable('verifactu').addColumn('sello', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('verifactu').addColumn('representante', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('registros_facturacion').addColumn('incidencia', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('documentos').addColumn('facturas_rectificadas', 'text').execute();
  const conRegistros = await db.selectFrom('registros_facturacion').select('id').where('emisor', 'not like', '%:%').limit(1).executeTakeFirst();
  const conf = await db.selectFrom('configuracion').select(['id', 'nif']).orderBy('id').limit(1).executeTakeFirst();
  const nif = String(conf?.nif ?? '').trim().toUpperCase();
  const numero =
    conRegistros && nif
      ? `${nif}-${String(conf?.id ?? 1).padStart(3, '0')}`
      : `MT-${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  await db.updateTable('verifactu').set({ numero_instalacion: numero }).where('id', '=', 1).execute();
}
