import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { DialectName } from '../db/index.ts';
import type { Database, NewStockMovimiento } from '../db/schema.ts';
import { precioNetoSql } from './sql.ts';

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

/**
 * Stock on save (`def.stockAlGuardar`): the ledger gets the DIFFERENCE between what the document's
 * lines ask for now and what its ledger rows already hold, per (article, warehouse, location, net
 * unit price) — one INSERT … SELECT, whatever the number of lines. Editing a line writes its
 * difference, a new warehouse moves the stock (out of the old, into the new), a price change writes
 * the quantity out at the old price and in at the new one (the average cost follows), and a document
 * without lines (deleted) reverses everything. Nothing is ever updated or deleted.
 * `almacenId` null: the document no longer asks for anything (it is being deleted).
 */
export async function sincronizarStock(
  trx: Transaction<Database>,
  dialect: DialectName,
  mov: { signo: 1 | -1; causa: string },
  doc: { tipo: string; id: number; almacenId: number | null },
  accionId: number | null,
  fecha: string,
): Promise<void> {
  const neto = precioNetoSql(dialect, 'l');
  const pedido = doc.almacenId === null
    ? sql``
    : sql`select l.articulo_id, cast(${doc.almacenId} as integer) as almacen_id, l.ubicacion_id, l.cantidad * ${sql.lit(mov.signo)} as cantidad,
          l.id as linea_id, ${neto} as precio
        from documento_lineas l where l.documento_id = ${doc.id}
        union all `;
  await sql`insert into stock_movimientos
      (articulo_id, almacen_id, ubicacion_id, cantidad, causa, documento_tipo, documento_id, documento_linea_id, accion_id, fecha, precio)
    select k.articulo_id, k.almacen_id, k.ubicacion_id, sum(k.cantidad), ${mov.causa}, ${doc.tipo}, ${doc.id}, max(k.linea_id),
      cast(${accionId} as integer), ${fecha}, k.precio
    from (${pedido}select m.articulo_id, m.almacen_id, m.ubicacion_id, -m.cantidad as cantidad, m.documento_linea_id as linea_id, m.precio
        from stock_movimientos m where m.documento_tipo = ${doc.tipo} and m.documento_id = ${doc.id}) k
    group by k.articulo_id, k.almacen_id, k.ubicacion_id, k.precio
    having sum(k.cantidad) <> 0
    order by min(k.linea_id)`.execute(trx);
}
