import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 14, speed of the stock at a past date (README, "Informes · stock at a date"): the ledger by position and date
 * (`articulo_id, almacen_id, fecha, cantidad`): a position's rows before or after a date are one range of it, its last
 * day before the date one seek. And the index by article (0003: `articulo_id, id, cantidad`) also covers `fecha, coste`:
 * each article's average cost at a date (its last row by id dated before it) is read from the index alone. Same leading
 * columns, so every earlier reader of that one keeps its plan.
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema.createIndex('stock_movimientos_posicion_fecha').on('stock_movimientos').columns(['articulo_id', 'almacen_id', 'fecha', 'cantidad']).execute();
  await db.schema.dropIndex('stock_movimientos_articulo_id').execute();
  await db.schema.createIndex('stock_movimientos_articulo_id').on('stock_movimientos').columns(['articulo_id', 'id', 'cantidad', 'fecha', 'coste']).execute();
}
