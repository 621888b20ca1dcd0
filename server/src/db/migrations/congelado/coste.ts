import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * FROZEN — history, never edited (server/README.md, «Migrations»). The average cost's replay as migrations 0013_coste_medio,
 * 0015_informes and 0047_coste_por_fecha ran it: copied on 2026-11-29 from server/src/documentos/coste.ts at commit
 * 9ad9f41 (with `divRound` from shared/src/domain/decimal.ts, `toBig` and `dialectOf` from server/src/documentos/sql.ts),
 * unchanged but for the imports. The live code (revalorarPendientes, Recalcular, the demo) may change; these do not. A
 * later migration that needs other arithmetic copies its own.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/** Integer division rounding half away from zero (shared/src/domain/decimal.ts). */
function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n !== b < 0n;
  const aa = a < 0n ? -a : a;
  const bb = b < 0n ? -b : b;
  const q = (aa * 2n + bb) / (bb * 2n);
  return neg ? -q : q;
}

/** Text of a PostgreSQL numeric or SQLite integer sum, as a BigInt ('12.000' and '12' alike) (documentos/sql.ts). */
const toBig = (v: string | number | bigint | null | undefined): bigint =>
  v === null || v === undefined ? 0n : typeof v === 'bigint' ? v : BigInt(String(v).replace(/\.0*$/, ''));

/** The engine a Kysely instance (or transaction) runs on (documentos/sql.ts). */
const dialectOf = (db: AnyDb): 'sqlite' | 'postgres' => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

/** Causes whose rows carry a cost: purchases, opening stock, counts, adjustments and transfers received at cost. */
export const CAUSAS_VALORADAS = ['compra', 'inicial', 'inventario', 'ajuste', 'traspaso'] as const;
const VALORADAS = new Set<string>(CAUSAS_VALORADAS);

/**
 * Causes whose rows are goods sold or returned by a customer (documentos/ledger.ts CAUSAS_VENTA, and the till's): their
 * cost at the average of the moment adds up on their line (`documento_lineas.coste_libro`, migration 0015).
 */
export const CAUSAS_COSTE_VENTA = ['venta', 'devolucion_venta', 'factura', 'rectificativa', 'parte', 'ticket'] as const;

export type FilaCoste = { cantidad: bigint; causa: string; precio: bigint };

/**
 * The average after one ledger row, given the article's stock (all warehouses) and average before it. A valued entry
 * (a positive row of a valued cause with a price) averages in at its price — or, with the stock at or below zero (or no
 * average yet), starts it again at its price. A purchase taken back (a negative `compra` row: its undo, or its price or
 * quantity corrected) takes its units out at their own price while stock remains. Everything else — sales, returns to
 * the supplier, transfers sent, losses, rows without a price — leaves it unchanged.
 */
export function siguienteCoste(stock: bigint, coste: bigint | null, f: FilaCoste): bigint | null {
  if (f.precio <= 0n || !VALORADAS.has(f.causa)) return coste;
  if (f.cantidad > 0n) return stock <= 0n || coste === null ? f.precio : divRound(stock * coste + f.cantidad * f.precio, stock + f.cantidad);
  if (f.causa !== 'compra' || coste === null) return coste;
  const valor = stock * coste + f.cantidad * f.precio;
  const quedan = stock + f.cantidad;
  return quedan > 0n && valor >= 0n ? divRound(valor, quedan) : coste;
}

/** Articles per ledger query: their whole history is read at once. */
const CHUNK = 500;

/**
 * The average cost of these articles replayed from the ledger (rows in id order, the stock before each row by a window
 * sum): null for an article without valued entries. Any database version (the migration calls it too).
 */
// biome-ignore lint/suspicious/noExplicitAny: used by a migration, which is not typed against today's schema.
export async function costesDelLibro(db: Kysely<any>, articuloIds: readonly number[]): Promise<Map<number, bigint | null>> {
  const out = new Map<number, bigint | null>(articuloIds.map((id) => [id, null]));
  for (let i = 0; i < articuloIds.length; i += CHUNK) {
    const ids = sql.join(articuloIds.slice(i, i + CHUNK));
    const { rows } = await sql<{ articulo_id: number; antes: string; cantidad: string; causa: string; precio: string }>`
      select articulo_id, cantidad, causa, precio, antes from (
        select articulo_id, id, fecha, cantidad, causa, precio,
          cast(sum(cantidad) over (partition by articulo_id order by fecha, id rows unbounded preceding) - cantidad as text) as antes
        from stock_movimientos where articulo_id in (${ids})) m
      where causa in (${sql.join([...CAUSAS_VALORADAS])}) and precio > 0
      order by articulo_id, fecha, id`.execute(db);
    for (const r of rows) {
      const fila = { cantidad: BigInt(r.cantidad), causa: r.causa, precio: BigInt(r.precio) };
      out.set(r.articulo_id, siguienteCoste(toBig(r.antes), out.get(r.articulo_id) ?? null, fila));
    }
  }
  return out;
}

/**
 * Sets every article's average cost to the ledger replayed (only those that differ): after writing or deleting ledger
 * rows with the insert trigger off or bypassed (the demo's year, its removal) and in the migration that added it.
 */
// biome-ignore lint/suspicious/noExplicitAny: used by a migration, which is not typed against today's schema.
export async function guardarCostesDelLibro(db: Kysely<any>): Promise<void> {
  const articulos = (await sql<{ id: number; coste_medio: string | null }>`select id, cast(coste_medio as text) as coste_medio from articulos`.execute(db)).rows;
  const costes = await costesDelLibro(db, articulos.map((a) => a.id));
  const cambios: [number, string | null][] = [];
  for (const a of articulos) {
    const c = costes.get(a.id) ?? null;
    if ((a.coste_medio === null ? null : toBig(a.coste_medio)) !== c) cambios.push([a.id, c === null ? null : c.toString()]);
  }
  // In batches (a generated catalogue's 100.000 articles: one update each took minutes on PostgreSQL).
  await fijarPorId(db, 'articulos', 'coste_medio', cambios);
  await guardarCostesDeFilas(db);
}

/**
 * Migration 0013's own step (not in the live code): `guardarCostesDelLibro` without `guardarCostesDeFilas` — only the
 * articles' average, as 0013 computed it when it shipped (commit 61bee52). The live `guardarCostesDelLibro` gained the
 * per-row costs with 0015, whose columns (`stock_movimientos.coste`, `documento_lineas.coste_libro`) do not exist yet
 * when 0013 runs: calling it made a database from before 0013 with any ledger row fail to upgrade ("no such column:
 * coste"). On every database that could upgrade before, the result is the same: a new one has no ledger rows, and 0015
 * and 0047 replay every row's cost afterwards (test/migraciones-historia.test.ts).
 */
export async function guardarCostesMedios(db: AnyDb): Promise<void> {
  const articulos = (await sql<{ id: number; coste_medio: string | null }>`select id, cast(coste_medio as text) as coste_medio from articulos`.execute(db)).rows;
  const costes = await costesDelLibro(db, articulos.map((a) => a.id));
  const cambios: [number, string | null][] = [];
  for (const a of articulos) {
    const c = costes.get(a.id) ?? null;
    if ((a.coste_medio === null ? null : toBig(a.coste_medio)) !== c) cambios.push([a.id, c === null ? null : c.toString()]);
  }
  await fijarPorId(db, 'articulos', 'coste_medio', cambios);
}

/**
 * The whole ledger replayed in date order (`guardarCostesDelLibro`) and the marks for replays cleared — nothing is left
 * to replay: after writing the ledger in bulk out of date order (the demo's year, a bench's million rows) and in
 * migration 0047 (which created the marks).
 */
// biome-ignore lint/suspicious/noExplicitAny: used by a migration, which is not typed against today's schema.
export async function guardarCostesPorFecha(db: Kysely<any>): Promise<void> {
  await guardarCostesDelLibro(db);
  await sql`delete from costes_pendientes`.execute(db);
}

/** Sets `columna` of each row by id to its value (a cost: a scaled integer as text, or null), CHUNK rows a statement. */
// biome-ignore lint/suspicious/noExplicitAny: used by a migration, which is not typed against today's schema.
async function fijarPorId(db: Kysely<any>, tabla: string, columna: string, cambios: [number, string | null][]): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  for (let j = 0; j < cambios.length; j += CHUNK) {
    const lote = cambios.slice(j, j + CHUNK);
    const valores = pg
      ? sql`unnest(${lote.map((c) => c[0])}::bigint[], ${lote.map((c) => c[1])}::bigint[]) as v(id, c)`
      : sql`(select value ->> 0 as id, cast(value ->> 1 as integer) as c from json_each(${JSON.stringify(lote)})) as v`;
    await sql`update ${sql.table(tabla)} set ${sql.ref(columna)} = v.c from ${valores} where ${sql.ref(`${tabla}.id`)} = v.id`.execute(db);
  }
}

/**
 * Sets each ledger row's `coste` (migration 0015: the article's average right after the row, which the insert trigger
 * writes) to the ledger replayed, where it differs: after the ledger was written with the trigger off (the demo's
 * year on PostgreSQL) and in the migration that added the column. Articles in chunks; updates in batches of one
 * statement.
 */
// biome-ignore lint/suspicious/noExplicitAny: used by a migration, which is not typed against today's schema.
export async function guardarCostesDeFilas(db: Kysely<any>): Promise<void> {
  const ids = (await sql<{ id: number }>`select distinct articulo_id as id from stock_movimientos order by articulo_id`.execute(db)).rows.map((r) => r.id);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows } = await sql<{ id: number; articulo_id: number; cantidad: string; causa: string; precio: string; coste: string | null }>`
      select id, articulo_id, cast(cantidad as text) as cantidad, causa, cast(precio as text) as precio, cast(coste as text) as coste
      from stock_movimientos where articulo_id in (${sql.join(ids.slice(i, i + CHUNK))}) order by articulo_id, fecha, id`.execute(db);
    const cambios: [number, string | null][] = [];
    let articulo = -1;
    let stock = 0n;
    let coste: bigint | null = null;
    for (const r of rows) {
      if (r.articulo_id !== articulo) {
        articulo = r.articulo_id;
        stock = 0n;
        coste = null;
      }
      const f = { cantidad: BigInt(r.cantidad), causa: r.causa, precio: BigInt(r.precio) };
      coste = siguienteCoste(stock, coste, f);
      stock += f.cantidad;
      const guardado = r.coste === null ? null : toBig(r.coste);
      if (guardado !== coste) cambios.push([r.id, coste === null ? null : coste.toString()]);
    }
    await fijarPorId(db, 'stock_movimientos', 'coste', cambios);
    // The sale lines of these articles: their cost again from the rows (set-based).
    const causas = sql.join(CAUSAS_COSTE_VENTA.map((c) => sql`${c}`));
    await sql`update documento_lineas set coste_libro = (
        select sum(-m.cantidad * coalesce(m.coste, a.precio_compra, 0)) from stock_movimientos m join articulos a on a.id = m.articulo_id
        where m.documento_linea_id = documento_lineas.id and m.causa in (${causas}))
      where id in (select documento_linea_id from stock_movimientos where articulo_id in (${sql.join(ids.slice(i, i + CHUNK))})
        and causa in (${causas}) and documento_linea_id is not null)`.execute(db);
  }
}
