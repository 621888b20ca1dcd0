import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { guardarCostesPorFecha } from './congelado/coste.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 25, costs in date order (docs/costes.md): the average cost follows the ledger's dates (`fecha`, then `id`), not
 * the order rows were written. A row dated before the last one of its article (a back-dated document, the demo's year
 * written purchases first) marks the article in `costes_pendientes` with the earliest such date — the trigger reads the
 * article's positions in `stock_almacen` (0019: each one's last date), so the probe is a few index rows — and the code
 * that wrote it replays the article from that date in the same transaction (`revalorarPendientes`). Indexes: the
 * ledger by article and date (the replay from a date, the average at a date) and by date and id (the movements report
 * in date order). Then every article's average and every row's cost replayed in date order.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  await db.schema
    .createTable('costes_pendientes')
    .addColumn('articulo_id', pg ? 'bigint' : 'integer', (c) => c.primaryKey())
    .addColumn('desde', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_movimientos_articulo_fecha').on('stock_movimientos').columns(['articulo_id', 'fecha', 'id', 'coste']).execute();
  await db.schema.createIndex('stock_movimientos_fecha_id').on('stock_movimientos').columns(['fecha', 'id']).execute();
  const marcar = (r: string) => `insert into costes_pendientes (articulo_id, desde) values (${r}.articulo_id, ${r}.fecha)
      on conflict (articulo_id) do update set desde = case when excluded.desde < costes_pendientes.desde then excluded.desde else costes_pendientes.desde end;`;
  const atrasada = (r: string) => `exists (select 1 from stock_almacen s where s.articulo_id = ${r}.articulo_id and s.ultimo > ${r}.fecha)`;
  if (pg) {
    await sql`create or replace function costes_pendientes() returns trigger language plpgsql as $$
      begin
        if ${sql.raw(atrasada('new'))} then ${sql.raw(marcar('new'))} end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger costes_pendientes after insert on stock_movimientos for each row execute function costes_pendientes()`.execute(db);
  } else {
    await sql`create trigger costes_pendientes_ai after insert on stock_movimientos when ${sql.raw(atrasada('new'))} begin ${sql.raw(marcar('new'))} end`.execute(db);
  }
  await guardarCostesPorFecha(db);
}
