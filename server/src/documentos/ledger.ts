import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { Database, NewStockMovimiento } from '../db/schema.ts';

/**
 * The stock ledger (`stock_movimientos`) as the document engine writes it. Append-only: rows are
 * inserted, never updated or deleted; an undo writes the opposite rows. Every row carries the
 * document, its line and the action (`documento_acciones`) that wrote it.
 */

export type LedgerRow = {
  articulo_id: number;
  almacen_id: number;
  ubicacion_id: number | null;
  /** Signed thousandths. */
  cantidad: number;
  causa: string;
  documento_tipo: string;
  documento_id: number;
  documento_linea_id: number | null;
  accion_id: number;
  fecha: string;
  /** Unit cost, ten-thousandths. */
  precio: number;
};

/** Rows per INSERT: 12 parameters each stays far below SQLite's bound-parameter limit. */
const CHUNK = 500;

/** Inserts the rows in batches (zero quantities are skipped: they move nothing). */
export async function writeLedger(trx: Transaction<Database>, rows: readonly LedgerRow[]): Promise<void> {
  const moving = rows.filter((r) => r.cantidad !== 0);
  for (let i = 0; i < moving.length; i += CHUNK) {
    const values: NewStockMovimiento[] = moving.slice(i, i + CHUNK).map((r) => ({ ...r, ubicacion: null }));
    await trx.insertInto('stock_movimientos').values(values).execute();
  }
}

/**
 * Undo: for every row the action `accionId` wrote, the opposite row, written by `nuevaAccionId`
 * (one set-based statement).
 */
export async function reverseLedger(trx: Transaction<Database>, accionId: number, nuevaAccionId: number, fecha: string): Promise<void> {
  await sql`insert into stock_movimientos
      (articulo_id, almacen_id, ubicacion, ubicacion_id, cantidad, causa, documento_tipo, documento_id, documento_linea_id, accion_id, fecha, precio)
    select articulo_id, almacen_id, ubicacion, ubicacion_id, -cantidad, causa, documento_tipo, documento_id, documento_linea_id,
      ${nuevaAccionId}, ${fecha}, precio
    from stock_movimientos where accion_id = ${accionId} order by id`.execute(trx);
}

/**
 * Adds `delta` to an integer column of many document lines, in batches of one UPDATE with a CASE
 * (no per-line round trip).
 */
export async function addToLines(trx: Transaction<Database>, column: 'pendiente', deltas: readonly (readonly [number, number])[]): Promise<void> {
  const moving = deltas.filter(([, d]) => d !== 0);
  for (let i = 0; i < moving.length; i += CHUNK) {
    const chunk = moving.slice(i, i + CHUNK);
    // Parameters, not literals: the statement's text depends only on the chunk's size, so it is prepared once.
    const cases = sql.join(chunk.map(([id, d]) => sql`when ${id} then ${d}`), sql` `);
    const ids = sql.join(chunk.map(([id]) => sql`${id}`));
    await sql`update documento_lineas set ${sql.ref(column)} = ${sql.ref(column)} + (case id ${cases} else 0 end) where id in (${ids})`.execute(trx);
  }
}
