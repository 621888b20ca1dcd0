import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId, notNull } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/**
 * Purchases (issue 7): proveedores (code and NIF unique; indexes for the list's sort keys), the
 * supplier invoices hcp records and the documents each covers (a document in one invoice at most),
 * and the documents' supplier filter (documentos.proveedor_id has existed since 0003, without a
 * foreign key: its table comes now; the list page sorted by date for one supplier reads this index).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const binaryText = pg ? sql`text collate "C"` : sql`text`;
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await withId(db.schema.createTable('proveedores'), dialect)
    .addColumn('codigo', binaryText, (c) => c.notNull().unique())
    .addColumn('nif', binaryText, (c) => c.notNull().unique())
    .addColumn('razon_social', 'text', notNull)
    .addColumn('nombre_comercial', 'text')
    .addColumn('direccion', 'text')
    .addColumn('codigo_postal', 'text')
    .addColumn('poblacion', 'text')
    .addColumn('provincia', 'text')
    .addColumn('telefono', 'text')
    .addColumn('email', 'text')
    .addColumn('iban', 'text')
    .addColumn('forma_pago', 'text')
    .addColumn('retencion', 'integer', zero)
    .addColumn('observaciones', 'text')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('proveedores_razon_social').on('proveedores').columns(['razon_social', 'id']).execute();
  await db.schema.createIndex('proveedores_poblacion').on('proveedores').columns(['poblacion', 'id']).execute();

  await db.schema.createIndex('documentos_tipo_proveedor').on('documentos').columns(['tipo', 'proveedor_id', 'fecha', 'id']).execute();
  await db.schema.createIndex('documentos_proveedor').on('documentos').column('proveedor_id').execute();

  await withId(db.schema.createTable('facturas_proveedor'), dialect)
    .addColumn('proveedor_id', 'integer', (c) => c.notNull().references('proveedores.id'))
    .addColumn('numero_proveedor', 'text', notNull)
    .addColumn('fecha', 'text', notNull)
    // Cents: the invoice's total as typed, and what its documents add up to (devoluciones negative).
    .addColumn('total', bigint, zero)
    .addColumn('base', bigint, zero)
    .addColumn('iva', bigint, zero)
    .addColumn('total_documentos', bigint, zero)
    .addColumn('creado', 'text', notNull)
    .addColumn('creado_por', 'integer')
    .execute();
  await db.schema.createIndex('facturas_proveedor_proveedor').on('facturas_proveedor').columns(['proveedor_id', 'fecha', 'id']).execute();
  await db.schema.createIndex('facturas_proveedor_fecha').on('facturas_proveedor').columns(['fecha', 'id']).execute();
  await db.schema
    .createTable('facturas_proveedor_documentos')
    .addColumn('factura_id', 'integer', (c) => c.notNull().references('facturas_proveedor.id'))
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id').unique())
    .addPrimaryKeyConstraint('facturas_proveedor_documentos_pk', ['factura_id', 'documento_id'])
    .execute();
}
