import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 16, Facturae for public administrations: a customer marked `administracion_publica` carries its DIR3 units
 * (oficina contable, órgano gestor, unidad tramitadora, órgano proponente), the AdministrativeCentres of its
 * Facturae (roles 01-04).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('clientes').addColumn('administracion_publica', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  for (const c of ['dir3_oficina_contable', 'dir3_organo_gestor', 'dir3_unidad_tramitadora', 'dir3_organo_proponente']) {
    await db.schema.alterTable('clientes').addColumn(c, 'text').execute();
  }
}
