import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId, notNull } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/**
 * Sales (issue 8): clientes (like proveedores, plus recargo, tarifa and a default discount); the invoice's
 * header columns (tipo de factura, the invoice a rectificativa corrects and how, the payment), the parte's
 * worker and hours; the VERI*FACTU records, append-only, one chain per issuer whose head row
 * (registros_cadena) is locked by the emission that extends it; the retail setting of simplified invoices.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const binaryText = pg ? sql`text collate "C"` : sql`text`;
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await withId(db.schema.createTable('clientes'), dialect)
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
    .addColumn('recargo', 'integer', zero)
    .addColumn('tarifa', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('descuento', 'integer', zero)
    .addColumn('observaciones', 'text')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('clientes_razon_social').on('clientes').columns(['razon_social', 'id']).execute();
  await db.schema.createIndex('clientes_poblacion').on('clientes').columns(['poblacion', 'id']).execute();
  await db.schema.createIndex('documentos_tipo_cliente').on('documentos').columns(['tipo', 'cliente_id', 'fecha', 'id']).execute();
  await db.schema.createIndex('documentos_cliente').on('documentos').column('cliente_id').execute();

  for (const [name, type] of [
    ['tipo_factura', 'text'],
    ['factura_id', 'integer'],
    ['modo_rectificacion', 'text'],
    ['cobro_fecha', 'text'],
    ['cobro_forma', 'text'],
    ['usuario_id', 'integer'],
  ] as const) {
    await db.schema.alterTable('documentos').addColumn(name, type).execute();
  }
  await db.schema.createIndex('documentos_factura').on('documentos').column('factura_id').execute();
  await db.schema.alterTable('configuracion').addColumn('minorista', 'integer', zero).execute();

  await withId(db.schema.createTable('parte_horas'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('orden', 'integer', notNull)
    .addColumn('proceso_id', 'integer', (c) => c.notNull().references('procesos.id'))
    .addColumn('horas', bigint, zero)
    .addColumn('precio', bigint, zero)
    .execute();
  await db.schema.createIndex('parte_horas_documento').on('parte_horas').columns(['documento_id', 'orden']).execute();
  await db.schema.createIndex('parte_horas_proceso').on('parte_horas').column('proceso_id').execute();

  await withId(db.schema.createTable('registros_facturacion'), dialect)
    .addColumn('emisor', 'text', notNull)
    .addColumn('orden', 'integer', notNull)
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('alta', 'anulacion')`))
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('num_serie', 'text', notNull)
    .addColumn('fecha_expedicion', 'text', notNull)
    .addColumn('tipo_factura', 'text')
    .addColumn('cuota_total', 'text')
    .addColumn('importe_total', 'text')
    .addColumn('huella_anterior', 'text', notNull)
    .addColumn('huella', 'text', notNull)
    .addColumn('fecha_hora_huso', 'text', notNull)
    .addColumn('xml', 'text', notNull)
    .addColumn('estado_envio', 'text', (c) => c.notNull().defaultTo('pendiente'))
    .addColumn('creado', 'text', notNull)
    .addUniqueConstraint('registros_facturacion_orden', ['emisor', 'orden'])
    .execute();
  await db.schema.createIndex('registros_facturacion_documento').on('registros_facturacion').columns(['documento_id', 'id']).execute();
  await db.schema
    .createTable('registros_cadena')
    .addColumn('emisor', 'text', (c) => c.primaryKey())
    .addColumn('ultimo_orden', 'integer', zero)
    .addColumn('ultima_huella', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
