import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { CAUSAS_VALORADAS, guardarCostesMedios } from './congelado/coste.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * The average cost kept on the article (README, "The average cost"): `articulos.coste_medio` (ten-thousandths, null
 * until a valued entry), moved by the ledger's insert trigger in the same statement that keeps `stock_total` — the
 * SQL form of `siguienteCoste` (documentos/coste.ts) — and computed once here for the ledger that already exists.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  await db.schema.alterTable('articulos').addColumn('coste_medio', pg ? 'bigint' : 'integer').execute();

  const num = (x: string) => (pg ? `cast(${x} as numeric)` : x);
  const valor = `(${num('stock_total')} * coste_medio + ${num('new.cantidad')} * new.precio)`;
  const quedan = '(stock_total + new.cantidad)';
  // Half-up: numerator ≥ 0 and denominator > 0 wherever it is used.
  const media = pg ? `cast(round(${valor} / ${quedan}) as bigint)` : `((2 * ${valor} + ${quedan}) / (2 * ${quedan}))`;
  const valorada = `new.precio > 0 and new.causa in (${CAUSAS_VALORADAS.map((c) => `'${c}'`).join(', ')})`;
  const coste = `case
      when new.cantidad > 0 and ${valorada} then (case when stock_total <= 0 or coste_medio is null then new.precio else ${media} end)
      when new.cantidad < 0 and new.causa = 'compra' and new.precio > 0 and coste_medio is not null and ${quedan} > 0 and ${valor} >= 0 then ${media}
      else coste_medio end`;
  const alta = `update articulos set coste_medio = ${coste}, stock_total = stock_total + new.cantidad where id = new.articulo_id;`;
  if (pg) {
    await sql`create or replace function stock_movimientos_total() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          update articulos set stock_total = stock_total - old.cantidad where id = old.articulo_id;
        end if;
        if tg_op = 'UPDATE' then
          update articulos set stock_total = stock_total + new.cantidad where id = new.articulo_id;
        elsif tg_op = 'INSERT' then
          ${sql.raw(alta)}
        end if;
        return null;
      end $$`.execute(db);
  } else {
    await sql`drop trigger stock_movimientos_ai`.execute(db);
    await sql`create trigger stock_movimientos_ai after insert on stock_movimientos begin ${sql.raw(alta)} end`.execute(db);
  }

  await guardarCostesMedios(db);
}
