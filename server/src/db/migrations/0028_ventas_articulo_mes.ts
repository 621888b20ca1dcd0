import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { disparadoresStock, reconstruirComprasMes, reconstruirMeses } from './congelado/agregados.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 14, speed (informes/agregados.ts): `informe_ventas_articulo_mes`, the per document × article rows (0019) summed
 * per month × article × warehouse (0: none), with each type's base apart and the lines sold below cost; the reports by
 * article and informearticulos read it for the whole months of a period. Keyed and clustered (SQLite: without rowid) on
 * (articulo_id, mes, almacen_id): grouped by article in key order, without a sort. Backfilled from the per-document rows.
 * And `informe_compras_mes`, the ledger's purchase entries per month × article × warehouse (units bought, for
 * informearticulos' rotation): kept by the stock per warehouse's triggers (0019's, recreated here with it), backfilled.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  let t = db.schema
    .createTable('informe_ventas_articulo_mes')
    .addColumn('mes', 'text', (c) => c.notNull())
    .addColumn('articulo_id', 'integer', (c) => c.notNull())
    .addColumn('almacen_id', 'integer', (c) => c.notNull());
  for (const c of ['documentos', 'lineas', 'unidades', 'base', 'iva', 'recargo', 'coste', 'bajo_coste', 'base_factura', 'base_rectificativa', 'base_ticket', 'base_albaran', 'base_parte', 'base_devolucion']) {
    t = t.addColumn(c, big, (col) => col.notNull());
  }
  // By article first: a period's months grouped by article stream in key order (SQLite sorts no rows); the months out
  // of the period are skipped in the same pass.
  t = t.addPrimaryKeyConstraint('informe_ventas_articulo_mes_pk', ['articulo_id', 'mes', 'almacen_id']);
  await (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t).execute();
  await reconstruirMeses(db);

  let c = db.schema
    .createTable('informe_compras_mes')
    .addColumn('mes', 'text', (col) => col.notNull())
    .addColumn('articulo_id', 'integer', (col) => col.notNull())
    .addColumn('almacen_id', 'integer', (col) => col.notNull())
    .addColumn('movimientos', big, (col) => col.notNull())
    .addColumn('cantidad', big, (col) => col.notNull())
    .addPrimaryKeyConstraint('informe_compras_mes_pk', ['mes', 'articulo_id', 'almacen_id']);
  if (dialect === 'sqlite') c = c.modifyEnd(sql`without rowid`);
  await c.execute();
  if (dialect === 'sqlite') for (const t of ['stock_almacen_ai', 'stock_almacen_au', 'stock_almacen_ad']) await sql`drop trigger ${sql.raw(t)}`.execute(db);
  else await sql`drop trigger stock_almacen on stock_movimientos`.execute(db);
  for (const s of disparadoresStock(dialect, true)) await sql.raw(s).execute(db);
  await reconstruirComprasMes(db);
}
