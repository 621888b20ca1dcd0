import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId, notNull } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/**
 * The document engine and the warehouses (issue 6): the documents' header columns, their lines,
 * links, action log and numbering counters; ubicaciones; van fields on almacenes; and the ledger's
 * location, line and action. See server/src/documentos/ and docs/documentos.md.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const binaryText = pg ? sql`text collate "C"` : sql`text`;
  // SQLite adds one column per ALTER TABLE.
  const addColumns = async (table: string, columns: [string, 'text' | 'integer' | 'bigint', ((c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder)?][]) => {
    for (const [name, type, build] of columns) await db.schema.alterTable(table).addColumn(name, type, build ?? ((c) => c)).execute();
  };
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

  await addColumns('almacenes', [
    ['direccion', 'text'],
    ['es_furgoneta', 'integer', zero],
    ['matricula', 'text'],
    // No foreign key: a restore replaces usuarios, and deleting a driver must not be refused by a van.
    ['conductor_id', 'integer'],
  ]);

  await withId(db.schema.createTable('ubicaciones'), dialect)
    .addColumn('almacen_id', 'integer', (c) => c.notNull().references('almacenes.id'))
    .addColumn('codigo', binaryText, notNull)
    .addColumn('descripcion', 'text')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('ubicaciones_almacen_codigo', ['almacen_id', 'codigo'])
    .execute();

  await db.schema
    .createTable('articulo_ubicaciones')
    .addColumn('articulo_id', 'integer', (c) => c.notNull().references('articulos.id'))
    .addColumn('almacen_id', 'integer', (c) => c.notNull().references('almacenes.id'))
    .addColumn('ubicacion_id', 'integer', (c) => c.notNull().references('ubicaciones.id'))
    .addPrimaryKeyConstraint('articulo_ubicaciones_pk', ['articulo_id', 'almacen_id'])
    .execute();
  await db.schema.createIndex('articulo_ubicaciones_ubicacion').on('articulo_ubicaciones').column('ubicacion_id').execute();
  await db.schema.createIndex('articulo_ubicaciones_almacen').on('articulo_ubicaciones').column('almacen_id').execute();

  await addColumns('documentos', [
    ['ejercicio', 'integer', zero],
    ['almacen_id', 'integer', (c) => c.references('almacenes.id')],
    ['almacen_destino_id', 'integer', (c) => c.references('almacenes.id')],
    ['familia_id', 'integer', (c) => c.references('familias.id')],
    ['ubicacion_id', 'integer', (c) => c.references('ubicaciones.id')],
    // Their tables come with compras and ventas.
    ['cliente_id', 'integer'],
    ['proveedor_id', 'integer'],
    ['forma_pago', 'text'],
    ['fecha_entrega', 'text'],
    ['retencion', 'integer', zero],
    ['con_recargo', 'integer', zero],
    ['observaciones', 'text'],
    ['base', bigint, zero],
    ['iva', bigint, zero],
    ['recargo', bigint, zero],
    ['retencion_importe', bigint, zero],
    ['desglose', 'text'],
    ['clave', 'text'],
    ['creado_por', 'integer'],
    ['modificado', 'text'],
    ['modificado_por', 'integer'],
  ]);
  await db.schema.createIndex('documentos_clave').on('documentos').column('clave').unique().execute();
  await db.schema.dropIndex('documentos_tipo_fecha').execute();
  await db.schema.createIndex('documentos_tipo_fecha').on('documentos').columns(['tipo', 'fecha', 'id']).execute();
  await db.schema.createIndex('documentos_tipo_numero').on('documentos').columns(['tipo', 'ejercicio', 'numero']).execute();
  await db.schema.createIndex('documentos_tipo_estado').on('documentos').columns(['tipo', 'estado']).execute();
  await db.schema.createIndex('documentos_almacen').on('documentos').column('almacen_id').execute();
  await db.schema.createIndex('documentos_almacen_destino').on('documentos').column('almacen_destino_id').execute();
  await db.schema.createIndex('documentos_familia').on('documentos').column('familia_id').execute();
  await db.schema.createIndex('documentos_ubicacion').on('documentos').column('ubicacion_id').execute();

  await withId(db.schema.createTable('documento_lineas'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('orden', 'integer', notNull)
    .addColumn('articulo_id', 'integer', (c) => c.notNull().references('articulos.id'))
    .addColumn('codigo', 'text', notNull)
    .addColumn('descripcion', 'text', notNull)
    .addColumn('tipo_iva', 'text', notNull)
    .addColumn('cantidad', bigint, zero)
    .addColumn('precio', bigint, zero)
    .addColumn('descuento', 'integer', zero)
    .addColumn('recargo', 'integer', zero)
    .addColumn('pendiente', bigint, zero)
    .addColumn('almacen_id', 'integer', (c) => c.references('almacenes.id'))
    .addColumn('ubicacion_id', 'integer', (c) => c.references('ubicaciones.id'))
    .addColumn('motivo', 'text')
    .addColumn('teorico', bigint)
    .execute();
  await db.schema.createIndex('documento_lineas_documento').on('documento_lineas').columns(['documento_id', 'orden']).execute();
  await db.schema.createIndex('documento_lineas_articulo').on('documento_lineas').columns(['articulo_id', 'pendiente']).execute();
  await db.schema.createIndex('documento_lineas_almacen').on('documento_lineas').column('almacen_id').execute();
  await db.schema.createIndex('documento_lineas_ubicacion').on('documento_lineas').column('ubicacion_id').execute();

  await withId(db.schema.createTable('documento_enlaces'), dialect)
    .addColumn('linea_id', 'integer', (c) => c.notNull().references('documento_lineas.id'))
    .addColumn('padre_linea_id', 'integer', (c) => c.notNull().references('documento_lineas.id'))
    .addColumn('cantidad', bigint, zero)
    .execute();
  await db.schema.createIndex('documento_enlaces_linea').on('documento_enlaces').column('linea_id').execute();
  await db.schema.createIndex('documento_enlaces_padre').on('documento_enlaces').column('padre_linea_id').execute();

  await withId(db.schema.createTable('documento_acciones'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('accion', 'text', notNull)
    .addColumn('fecha', 'text', notNull)
    .addColumn('usuario_id', 'integer')
    .addColumn('estado_antes', 'text', notNull)
    .addColumn('detalle', 'text')
    // No foreign key: it points forward (a restore inserts rows in id order).
    .addColumn('deshecha_por', 'integer')
    .execute();
  await db.schema.createIndex('documento_acciones_documento').on('documento_acciones').columns(['documento_id', 'accion', 'id']).execute();

  await db.schema
    .createTable('contadores')
    .addColumn('tipo', 'text', notNull)
    .addColumn('serie_id', 'integer', zero)
    .addColumn('ejercicio', 'integer', notNull)
    .addColumn('ultimo', 'integer', zero)
    .addColumn('ultima_fecha', 'text')
    .addPrimaryKeyConstraint('contadores_pk', ['tipo', 'serie_id', 'ejercicio'])
    .execute();

  await addColumns('stock_movimientos', [
    ['ubicacion_id', 'integer', (c) => c.references('ubicaciones.id')],
    // No foreign key: a document's lines are rewritten while it is editable; the ledger keeps the id it had.
    ['documento_linea_id', 'integer'],
    ['accion_id', 'integer', (c) => c.references('documento_acciones.id')],
  ]);
  // Covering indexes: stock of an article per warehouse, and its movements with the running balance, read only the index.
  await db.schema.dropIndex('stock_movimientos_articulo').execute();
  await db.schema.createIndex('stock_movimientos_articulo').on('stock_movimientos').columns(['articulo_id', 'almacen_id', 'id', 'cantidad']).execute();
  await db.schema.createIndex('stock_movimientos_articulo_id').on('stock_movimientos').columns(['articulo_id', 'id', 'cantidad']).execute();
  await db.schema.createIndex('stock_movimientos_accion').on('stock_movimientos').column('accion_id').execute();
  await db.schema.createIndex('stock_movimientos_ubicacion').on('stock_movimientos').columns(['ubicacion_id', 'articulo_id']).execute();
}
