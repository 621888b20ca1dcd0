import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 22, going live — what a record was made for, frozen at its creation, so every print and reprint says the same:
 * - `verifactu.demo`: 1 while the company is the demo (a sandbox: its records are marked demo, never leave for the
 *   AEAT's production endpoint, and print «DEMOSTRACIÓN — sin validez fiscal»); 0 once «Empezar con mis datos» ran, or
 *   from the first start with MANAGER_DEMO=0 (a live company). Set here to 1 where the generated year is still present.
 * - `registros_facturacion.entorno`: the AEAT environment the record was made for ('produccion' | 'pruebas'): its QR's
 *   host and its legend, whatever the setting of the day.
 * - `registros_facturacion.demo`: 1 when made by the demo company.
 * - `registros_facturacion.verifactu`: 1 when made while sending to the AEAT was on (a VERI*FACTU record: «Factura
 *   verificable»); 0 when made by a live company that has not turned sending on yet (QR without that legend).
 * The records already there are given what they most likely were: the demo's by estado_envio 'demo'; a sent one by its
 * envío's environment; the rest by today's setting.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('verifactu').addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update verifactu set demo = 1 where exists (select 1 from demo_datos)`.execute(db);
  await db.schema.alterTable('registros_facturacion').addColumn('entorno', 'text', (c) => c.notNull().defaultTo('produccion')).execute();
  await db.schema.alterTable('registros_facturacion').addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('registros_facturacion').addColumn('verifactu', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update registros_facturacion set demo = 1, entorno = 'pruebas', verifactu = 0 where estado_envio = 'demo'`.execute(db);
  await sql`update registros_facturacion set verifactu = 1,
      entorno = coalesce((select e.entorno from verifactu_envios e where e.id = registros_facturacion.envio_id), 'produccion')
    where estado_envio <> 'demo' and envio_id is not null`.execute(db);
  await sql`update registros_facturacion set
      entorno = coalesce((select v.entorno from verifactu v where v.id = 1), 'produccion'),
      verifactu = coalesce((select v.activo from verifactu v where v.id = 1), 0)
    where estado_envio <> 'demo' and envio_id is null`.execute(db);
}
