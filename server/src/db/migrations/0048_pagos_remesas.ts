import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 26, what the shop owes and pays, and direct debits that collect (README «Pagos a proveedores», «Remesas SEPA»):
 * - `facturas_proveedor`: its forma de pago, its due dates (`vencimientos`, JSON of dates), what is left to pay
 *   (`por_pagar`, cents; negative on an abono when the supplier owes a refund), how many instalments are paid, the
 *   last payment once settled, and `rectifica_id` (an abono of the supplier nets into the invoice it corrects).
 *   Existing invoices get one due date, their own date, and all of it owed.
 * - `pagos_proveedor`: one row per payment (cents; a refund received negative).
 * - `configuracion.bic`, `configuracion.acreedor_sepa` (the company's SEPA creditor identifier).
 * - clientes: the SEPA mandate (reference, date of signature, FRST/RCUR, CORE/B2B) beside their IBAN.
 * - `remesas` and their `remesa_recibos` (one instalment of an invoice each; its cobro once paid; its return).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema.alterTable('facturas_proveedor').addColumn('forma_pago', 'text').execute();
  await db.schema.alterTable('facturas_proveedor').addColumn('vencimientos', 'text').execute();
  await db.schema.alterTable('facturas_proveedor').addColumn('por_pagar', big, (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('facturas_proveedor').addColumn('plazos_cubiertos', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('facturas_proveedor').addColumn('pago_fecha', 'text').execute();
  await db.schema.alterTable('facturas_proveedor').addColumn('rectifica_id', 'integer', (c) => c.references('facturas_proveedor.id')).execute();
  const filas = await db.selectFrom('facturas_proveedor').select(['id', 'fecha', 'total']).execute();
  for (const f of filas) {
    await db
      .updateTable('facturas_proveedor')
      .set({ vencimientos: JSON.stringify([f.fecha]), por_pagar: Math.max(0, Number(f.total)) })
      .where('id', '=', f.id)
      .execute();
  }
  await withId(db.schema.createTable('pagos_proveedor'), dialect)
    .addColumn('factura_id', 'integer', (c) => c.notNull().references('facturas_proveedor.id'))
    .addColumn('fecha', 'text', (c) => c.notNull())
    .addColumn('importe', big, (c) => c.notNull())
    .addColumn('forma', 'text')
    .addColumn('creado', 'text', (c) => c.notNull())
    .addColumn('creado_por', 'integer')
    .execute();
  await db.schema.createIndex('pagos_proveedor_factura').on('pagos_proveedor').column('factura_id').execute();

  await db.schema.alterTable('configuracion').addColumn('bic', 'text').execute();
  await db.schema.alterTable('configuracion').addColumn('acreedor_sepa', 'text').execute();
  await db.schema.alterTable('clientes').addColumn('bic', 'text').execute();
  await db.schema.alterTable('clientes').addColumn('mandato_referencia', 'text').execute();
  await db.schema.alterTable('clientes').addColumn('mandato_fecha', 'text').execute();
  await db.schema.alterTable('clientes').addColumn('mandato_secuencia', 'text').execute();
  await db.schema.alterTable('clientes').addColumn('mandato_esquema', 'text').execute();

  await withId(db.schema.createTable('remesas'), dialect)
    .addColumn('fecha_cargo', 'text', (c) => c.notNull())
    .addColumn('hasta', 'text', (c) => c.notNull())
    .addColumn('estado', 'text', (c) => c.notNull())
    .addColumn('pagada_fecha', 'text')
    .addColumn('creado', 'text', (c) => c.notNull())
    .addColumn('creado_por', 'integer')
    .execute();
  await withId(db.schema.createTable('remesa_recibos'), dialect)
    .addColumn('remesa_id', 'integer', (c) => c.notNull().references('remesas.id'))
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('cliente_id', 'integer', (c) => c.notNull().references('clientes.id'))
    .addColumn('plazo', 'integer', (c) => c.notNull())
    .addColumn('vencimiento', 'text', (c) => c.notNull())
    .addColumn('importe', big, (c) => c.notNull())
    .addColumn('secuencia', 'text', (c) => c.notNull())
    .addColumn('esquema', 'text', (c) => c.notNull())
    .addColumn('mandato_referencia', 'text', (c) => c.notNull())
    .addColumn('mandato_fecha', 'text', (c) => c.notNull())
    .addColumn('iban', 'text', (c) => c.notNull())
    .addColumn('cobro_id', 'integer', (c) => c.references('cobros.id'))
    .addColumn('devuelto_fecha', 'text')
    .addColumn('devuelto_motivo', 'text')
    .execute();
  await db.schema.createIndex('remesa_recibos_remesa').on('remesa_recibos').column('remesa_id').execute();
  await db.schema.createIndex('remesa_recibos_documento').on('remesa_recibos').column('documento_id').execute();
}
