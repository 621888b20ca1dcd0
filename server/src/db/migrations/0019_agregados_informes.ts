import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { disparadoresAgregados, disparadoresStock, reconstruirAgregados, reconstruirStockAlmacen } from './congelado/agregados.ts';
import { withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * The reports' aggregates (issue 14, speed; informes/agregados.ts): the sales per day and per document × article, the
 * (day, type) pairs pending recomputation and their triggers, and the stock per article × warehouse kept by the
 * ledger's triggers; all backfilled here. A partial index finds each article's last purchase entry (stock value at the
 * last purchase price); the ledger's date index also covers cause and quantity.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const clave = (t: ReturnType<AnyDb['schema']['createTable']>) =>
    t.addColumn('fecha', 'text', (c) => c.notNull())
      .addColumn('tipo', 'text', (c) => c.notNull())
      .addColumn('serie_id', 'integer')
      .addColumn('almacen_id', 'integer')
      .addColumn('cliente_id', 'integer')
      .addColumn('usuario_id', 'integer')
      .addColumn('terminal_id', 'integer');
  const sumas = (t: ReturnType<AnyDb['schema']['createTable']>) =>
    t.addColumn('lineas', big, (c) => c.notNull())
      .addColumn('unidades', big, (c) => c.notNull())
      .addColumn('base', big, (c) => c.notNull())
      .addColumn('iva', big, (c) => c.notNull())
      .addColumn('recargo', big, (c) => c.notNull())
      .addColumn('coste', big, (c) => c.notNull());
  await sumas(clave(db.schema.createTable('informe_ventas_dia')).addColumn('documentos', big, (c) => c.notNull())).execute();
  await sumas(clave(db.schema.createTable('informe_ventas_articulo').addColumn('documento_id', 'integer', (c) => c.notNull()).addColumn('articulo_id', 'integer', (c) => c.notNull())))
    .addColumn('bajo_coste', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('informe_ventas_dia_fecha').on('informe_ventas_dia').columns(['fecha', 'tipo']).execute();
  // Covering what the reports by article sum (a year of rows read from the index alone).
  await db.schema
    .createIndex('informe_ventas_articulo_fecha')
    .on('informe_ventas_articulo')
    .columns(['fecha', 'tipo', 'articulo_id', 'unidades', 'base', 'iva', 'recargo', 'coste'])
    .execute();
  await db.schema.createIndex('informe_ventas_articulo_articulo').on('informe_ventas_articulo').columns(['articulo_id', 'fecha']).execute();
  await db.schema.createIndex('informe_ventas_articulo_documento').on('informe_ventas_articulo').column('documento_id').execute();
  await withId(db.schema.createTable('informe_pendientes'), dialect)
    .addColumn('fecha', 'text', (c) => c.notNull())
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('documento_id', 'integer')
    .execute();
  await db.schema
    .createTable('stock_almacen')
    .addColumn('articulo_id', 'integer', (c) => c.notNull())
    .addColumn('almacen_id', 'integer', (c) => c.notNull())
    .addColumn('cantidad', big, (c) => c.notNull())
    .addColumn('ultimo', 'text')
    .addPrimaryKeyConstraint('stock_almacen_pk', ['articulo_id', 'almacen_id'])
    .execute();
  // The ledger by date (0015's index) now also covering the cause and the quantity: the units sold in the last N days
  // and bought in a period are read from the index alone.
  await db.schema.dropIndex('stock_movimientos_fecha').execute();
  await db.schema.createIndex('stock_movimientos_fecha').on('stock_movimientos').columns(['fecha', 'articulo_id', 'almacen_id', 'causa', 'cantidad']).execute();
  await sql`create index stock_movimientos_ultima_compra on stock_movimientos (articulo_id, id) where causa = 'compra' and cantidad > 0 and precio > 0`.execute(db);

  for (const s of [...disparadoresAgregados(dialect), ...disparadoresStock(dialect)]) await sql.raw(s).execute(db);
  await reconstruirStockAlmacen(db);
  await reconstruirAgregados(db, dialect);
}
