import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { CAUSAS_COSTE_VENTA, CAUSAS_VALORADAS, guardarCostesDeFilas } from './congelado/coste.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * The reports (issue 14): each sale line keeps the cost of the goods it moved (`documento_lineas.coste_libro`,
 * ten-millionths of a euro: Σ −cantidad × the average cost, over its ledger rows of a sale's cause), and each ledger row remembers the article's average cost right after it (`stock_movimientos.coste`,
 * ten-thousandths, null before any valued entry), written by the ledger's insert trigger in the statement that keeps
 * `coste_medio` — so a sale's margin is the sale less the average cost the ledger had when it left, and a past date's
 * stock value is the stock then at the cost of the article's last row up to that date. Indexes for the reports: the
 * ledger by date and by document line (a sale line's cost), documents by date.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  await db.schema.alterTable('stock_movimientos').addColumn('coste', pg ? 'bigint' : 'integer').execute();
  await db.schema.alterTable('documento_lineas').addColumn('coste_libro', pg ? 'bigint' : 'integer').execute();

  // The same arithmetic as 0013 (documentos/coste.ts siguienteCoste).
  const num = (x: string) => (pg ? `cast(${x} as numeric)` : x);
  const valor = `(${num('stock_total')} * coste_medio + ${num('new.cantidad')} * new.precio)`;
  const quedan = '(stock_total + new.cantidad)';
  const media = pg ? `cast(round(${valor} / ${quedan}) as bigint)` : `((2 * ${valor} + ${quedan}) / (2 * ${quedan}))`;
  const valorada = `new.precio > 0 and new.causa in (${CAUSAS_VALORADAS.map((c) => `'${c}'`).join(', ')})`;
  const coste = `case
      when new.cantidad > 0 and ${valorada} then (case when stock_total <= 0 or coste_medio is null then new.precio else ${media} end)
      when new.cantidad < 0 and new.causa = 'compra' and new.precio > 0 and coste_medio is not null and ${quedan} > 0 and ${valor} >= 0 then ${media}
      else coste_medio end`;
  const venta = CAUSAS_COSTE_VENTA.map((c) => `'${c}'`).join(', ');
  if (pg) {
    // A BEFORE row trigger under the same name (the demo turns it off by name): the insert's article update returns the
    // new average straight into the row, no second write of the row.
    await sql`create or replace function stock_movimientos_total() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update articulos set coste_medio = ${sql.raw(coste)}, stock_total = stock_total + new.cantidad
            where id = new.articulo_id returning coste_medio into new.coste;
          if new.documento_linea_id is not null and new.causa in (${sql.raw(venta)}) then
            update documento_lineas set coste_libro = coalesce(coste_libro, 0)
                - new.cantidad * coalesce(new.coste, (select precio_compra from articulos where id = new.articulo_id), 0)
              where id = new.documento_linea_id;
          end if;
          return new;
        end if;
        update articulos set stock_total = stock_total - old.cantidad where id = old.articulo_id;
        if tg_op = 'UPDATE' then
          update articulos set stock_total = stock_total + new.cantidad where id = new.articulo_id;
          return new;
        end if;
        return old;
      end $$`.execute(db);
    await sql`drop trigger stock_movimientos_total on stock_movimientos`.execute(db);
    await sql`create trigger stock_movimientos_total before insert or update of cantidad, articulo_id or delete on stock_movimientos
      for each row execute function stock_movimientos_total()`.execute(db);
  } else {
    await sql`drop trigger stock_movimientos_ai`.execute(db);
    await sql`create trigger stock_movimientos_ai after insert on stock_movimientos begin
      update articulos set coste_medio = ${sql.raw(coste)}, stock_total = stock_total + new.cantidad where id = new.articulo_id;
      update stock_movimientos set coste = (select coste_medio from articulos where id = new.articulo_id) where id = new.id;
      update documento_lineas set coste_libro = coalesce(coste_libro, 0)
          - new.cantidad * coalesce((select coalesce(coste_medio, precio_compra) from articulos where id = new.articulo_id), 0)
        where id = new.documento_linea_id and new.causa in (${sql.raw(venta)});
      end`.execute(db);
  }

  await db.schema.createIndex('stock_movimientos_linea').on('stock_movimientos').columns(['documento_linea_id']).execute();
  await db.schema.createIndex('stock_movimientos_fecha').on('stock_movimientos').columns(['fecha', 'articulo_id', 'almacen_id']).execute();
  await db.schema.createIndex('documentos_fecha').on('documentos').columns(['fecha', 'tipo']).execute();
  await db.schema.createIndex('registros_facturacion_creado').on('registros_facturacion').columns(['creado']).execute();

  await guardarCostesDeFilas(db);
}
