import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Articulo } from 'shared/domain';
import type { DialectName } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { MIN_FRAGMENT, foldText, indexOnlyCount, queryWords, searchCondition } from '../../catalogo/busqueda.ts';

/**
 * The article list's SQL, shared by `listadoarticulos`, `cambiarprecios` (its filter) and the
 * bench. Built for 100.000 articles:
 * - the page's ids come from an index-only walk (`select a.id … order by … limit … offset …`) and
 *   only those 25 rows are joined to their familia, subfamilia and marca: a deep page skips index
 *   entries, never joined rows;
 * - every sort has an index ending in a unique tie-breaker, every filter leads an index by código;
 * - the search words go through the trigram and word indexes (see busqueda.ts).
 */

export const ORDEN_ARTICULOS = [
  'codigo',
  'descripcion',
  'referencia',
  'familia',
  'marca',
  'precio_venta',
  'pvp_1',
  'stock_total',
  'activo',
  // The search's best matches first (the lines editor's suggestions): see sortRelevancia.
  'relevancia',
] as const;
export type OrdenArticulos = (typeof ORDEN_ARTICULOS)[number];

export type FiltroArticulos = {
  q?: string | null;
  familia_id?: number | null;
  subfamilia_id?: number | null;
  marca_id?: number | null;
  activo?: 0 | 1 | null;
  ids?: number[] | null;
};

/** A row of the list (and of the barcode lookup). */
export type ArticuloFila = Pick<
  Articulo,
  | 'id'
  | 'codigo'
  | 'referencia'
  | 'descripcion'
  | 'familia_nombre'
  | 'subfamilia_nombre'
  | 'marca_nombre'
  | 'precio_compra'
  | 'precio_venta'
  | 'tarifa_2'
  | 'tarifa_3'
  | 'pvp_1'
  | 'tipo_iva'
  | 'codigo_barras'
  | 'stock_total'
  | 'activo'
>;

export const LIST_SELECT = sql`a.id, a.codigo, a.referencia, a.descripcion, f.nombre as familia_nombre, s.nombre as subfamilia_nombre,
  m.nombre as marca_nombre, a.precio_compra, a.precio_venta, a.tarifa_2, a.tarifa_3, a.pvp_1, a.tipo_iva, a.operacion, a.codigo_barras, a.stock_total, a.activo`;
export const LIST_JOINS = sql`left join familias f on f.id = a.familia_id left join subfamilias s on s.id = a.subfamilia_id
  left join marcas m on m.id = a.marca_id`;

/**
 * The filter's conditions on the articulos row aliased `a` (empty: every article). `search` says how
 * the words are tested (see searchCondition).
 */
export function whereArticulos(dialect: DialectName, f: FiltroArticulos, search: 'index' | 'scan' = 'index'): RawBuilder<unknown> {
  const conds: RawBuilder<unknown>[] = [];
  const words = queryWords(f.q);
  if (words.length) conds.push(searchCondition(dialect, words, search));
  conds.push(...otherConditions(dialect, f));
  return conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
}

function otherConditions(dialect: DialectName, f: FiltroArticulos): RawBuilder<unknown>[] {
  const conds: RawBuilder<unknown>[] = [];
  if (f.familia_id != null) conds.push(sql`a.familia_id = ${f.familia_id}`);
  if (f.subfamilia_id != null) conds.push(sql`a.subfamilia_id = ${f.subfamilia_id}`);
  if (f.marca_id != null) conds.push(sql`a.marca_id = ${f.marca_id}`);
  if (f.activo != null) conds.push(sql`a.activo = ${f.activo}`);
  if (f.ids) {
    // One parameter however many ids: a JSON array (SQLite) or an int[] (PostgreSQL).
    conds.push(
      dialect === 'postgres'
        ? sql`a.id = any(${f.ids}::int[])`
        : sql`a.id in (select value from json_each(${JSON.stringify(f.ids)}))`,
    );
  }
  return conds;
}

/** The SQL of the number of articles the filter selects, by the cheapest exact way (exported for the bench). */
export function countQuery(dialect: DialectName, f: FiltroArticulos): RawBuilder<{ total: number | string }> {
  const words = queryWords(f.q);
  const onlyWords = otherConditions(dialect, f).length === 0;
  // The index alone: every row of the FTS5 tables is an article (kept by triggers).
  const fromIndex = onlyWords && words.length && dialect === 'sqlite' ? indexOnlyCount(words) : null;
  if (onlyWords && !words.length && dialect === 'postgres') return sql<{ total: number }>`select n as total from articulos_cuenta where id = 1`;
  if (fromIndex) return fromIndex;
  // SQLite, the active articles only (the lines editor's search): the index's count less the inactive matches,
  // found along the activo index (a few in a catalogue) instead of reading every match's row.
  const soloActivos = dialect === 'sqlite' && words.length > 0 && f.activo === 1 && otherConditions(dialect, { activo: 1 }).length === otherConditions(dialect, f).length;
  const delIndice = soloActivos ? indexOnlyCount(words) : null;
  if (delIndice) {
    return sql<{ total: number }>`select (${delIndice}) - (select count(*) from articulos a where a.activo = 0 and ${searchCondition(dialect, words, 'scan')}) as total`;
  }
  return sql<{ total: number }>`select count(*) as total from articulos a ${whereArticulos(dialect, f)}`;
}

/** The number of articles the filter selects. */
export async function countArticulos(db: Kysely<Database>, dialect: DialectName, f: FiltroArticulos): Promise<number> {
  const res = await countQuery(dialect, f).execute(db);
  return Number(res.rows[0]?.total ?? 0);
}

type Sort = { keys: RawBuilder<unknown>; join: RawBuilder<unknown> };

/**
 * ORDER BY of a list sort. Nullable keys sort first ascending on both engines (SQLite's way);
 * the tie-breaker makes pages stable.
 */
export function sortArticulos(dialect: DialectName, orden: OrdenArticulos, dir: 'asc' | 'desc'): Sort {
  const d = sql.raw(dir);
  const nulls = dialect === 'postgres' ? sql.raw(dir === 'asc' ? ' nulls first' : ' nulls last') : sql``;
  const noJoin = sql``;
  switch (orden) {
    case 'codigo':
      return { keys: sql`a.codigo ${d}`, join: noJoin };
    case 'descripcion':
      return { keys: sql`a.orden_descripcion ${d}, a.id ${d}`, join: noJoin };
    case 'referencia':
      return { keys: sql`a.referencia ${d}${nulls}, a.id ${d}`, join: noJoin };
    case 'familia':
      return { keys: sql`f.nombre ${d}${nulls}, a.codigo ${d}`, join: sql`left join familias f on f.id = a.familia_id` };
    case 'marca':
      return { keys: sql`m.nombre ${d}${nulls}, a.codigo ${d}`, join: sql`left join marcas m on m.id = a.marca_id` };
    case 'activo':
      return { keys: sql`a.activo ${d}, a.codigo ${d}`, join: noJoin };
    default:
      return { keys: sql`${sql.ref(`a.${orden}`)} ${d}, a.id ${d}`, join: noJoin };
  }
}

/**
 * The ranks of the search's relevance for the first word typed, as conditions, best first: a code that starts
 * with the text, a description that starts with the word, any word of the article that starts with it (the rest:
 * the word inside another, «torn» → Tornillo… before Destornillador). Null without words.
 */
function rangosRelevancia(q: string | null | undefined): { w: string; rangos: RawBuilder<boolean>[] } | null {
  const w = queryWords(q)[0];
  if (!w) return null;
  // The typed text as the code starts (case and accents ignored; LIKE wildcards escaped), and the folded first word.
  const raw = foldText(q ?? '').trim().replace(/[\\%_]/g, (c) => `\\${c}`);
  return {
    w,
    rangos: [
      sql<boolean>`lower(a.codigo) like ${`${raw}%`} escape '\\'`,
      sql<boolean>`a.orden_descripcion like ${`${w}%`}`,
      sql<boolean>`(' ' || a.busqueda) like ${`% ${w}%`}`,
    ],
  };
}

/**
 * ORDER BY of the search's relevance (see rangosRelevancia); within a rank, by description. Without words, by code.
 */
export function sortRelevancia(q: string | null | undefined): Sort {
  const r = rangosRelevancia(q);
  if (!r) return { keys: sql`a.codigo asc`, join: sql`` };
  const [c0, c1, c2] = r.rangos;
  const rank = sql`case when ${c0} then 0 when ${c1} then 1 when ${c2} then 2 else 3 end`;
  return { keys: sql`${rank} asc, a.orden_descripcion asc, a.id asc`, join: sql`` };
}

/**
 * SQLite, the first `end` ids by relevance when most articles match («t», «de» at 100.000 articles: ranking all
 * 24.000 or 58.000 matches took 150–300 ms). Rank by rank, best first, until the page is full:
 * - a code that starts with the text: the código index's ranges of the text's first two characters in either
 *   case (SQLite's lower() folds ASCII only: no other code can start with it), then sorted by description
 *   («t»: a tenth of the codes, the slowest case);
 * - a description that starts with the word: a range of the description index, in its order;
 * - any word (or, for a fragment, the rest): a walk along the description index testing each row, which stops
 *   as soon as the page is full. A short first word starts a word of every match: no fourth rank.
 */
async function idsRelevanciaDensa(db: Kysely<Database>, filtro: FiltroArticulos, end: number): Promise<number[]> {
  const r = rangosRelevancia(filtro.q);
  if (!r) return [];
  const where = whereArticulos('sqlite', filtro, 'scan');
  const [c0, c1, c2] = r.rangos;
  const siguiente = (t: string) => t.slice(0, -1) + String.fromCharCode(t.charCodeAt(t.length - 1) + 1);
  const inicio = foldText(filtro.q ?? '').trim().slice(0, 2);
  const variantes = [...inicio].reduce<string[]>((vs, c) => vs.flatMap((v) => [...new Set([v + c, v + c.toUpperCase()])]), ['']);
  const enCodigo = sql.join(
    variantes.map((v) => sql`(a.codigo >= ${v} and a.codigo < ${siguiente(v)})`),
    sql` or `,
  );
  const porDescripcion = sql`articulos a indexed by articulos_orden_descripcion`;
  // The codes' ranges first (CROSS JOIN keeps that order), then their rows tested and sorted by description. Not a
  // walk along the description index: codes and descriptions start alike (TOR… «Tornillo»), the first ones lie
  // far along it (measured: 370–740 ms for «to», «t»).
  const rangos: { from: RawBuilder<unknown>; cond: RawBuilder<unknown> }[] = [
    { from: sql`(select a.id from articulos a where ${enCodigo}) c cross join articulos a`, cond: sql`a.id = c.id and ${c0}` },
    { from: porDescripcion, cond: sql`a.orden_descripcion >= ${r.w} and a.orden_descripcion < ${siguiente(r.w)} and not (${c0}) and ${c1}` },
    { from: porDescripcion, cond: sql`not (${c0}) and not (${c1}) and ${c2}` },
    ...(r.w.length >= MIN_FRAGMENT ? [{ from: porDescripcion, cond: sql`not (${c0}) and not (${c1}) and not (${c2})` }] : []),
  ];
  const ids: number[] = [];
  for (const rango of rangos) {
    const falta = end - ids.length;
    if (falta <= 0) break;
    const res = await sql<{ id: number }>`select a.id from ${rango.from} ${where} and ${rango.cond} order by a.orden_descripcion asc, a.id asc limit ${falta}`.execute(db);
    ids.push(...res.rows.map((x) => Number(x.id)));
  }
  return ids;
}

export type ListPage = { rows: ArticuloFila[]; total: number };

/**
 * How to find one page of a search: through the indexes (`index`: every match, then sorted) or
 * walking the sort index testing each row (`scan`). PostgreSQL too: its planner assumes the matches
 * are spread evenly along the sort index, and for a fragment whose articles share a code prefix
 * («nillo»: the screws) it walks 114.000 rows to fill the page (63 ms instead of 5).
 */
export async function searchMode(db: Kysely<Database>, dialect: DialectName, total: number, end: number): Promise<'index' | 'scan'> {
  const res =
    dialect === 'postgres'
      ? await sql<{ n: number }>`select n from articulos_cuenta where id = 1`.execute(db)
      : await sql<{ n: number }>`select count(*) as n from articulos`.execute(db);
  const n = Number(res.rows[0]?.n ?? 0);
  // Through the index, the cost grows with the matches (all fetched, then sorted); walking the sort
  // order and testing each row, with the rows walked, about end × n / total. Walk when that is well
  // under the matches: common words ("de", "tornillo") on page 1.
  return total * total > 4 * end * n ? 'scan' : 'index';
}

type ListOpts = { filtro: FiltroArticulos; orden: OrdenArticulos; dir: 'asc' | 'desc'; limit: number; offset: number };

/**
 * The SQL of one page of the list, its matches found as `mode` says. The page's ids come first, from an index
 * walk, and only they are joined (CROSS JOIN keeps that order on SQLite: with a bound LIMIT its planner would
 * otherwise walk the whole sort index probing the 25 ids). Exported for the bench (bench/sugerencias.ts).
 */
export function pageQuery(dialect: DialectName, opts: ListOpts, mode: 'index' | 'scan'): RawBuilder<ArticuloFila> {
  const words = queryWords(opts.filtro.q);
  // PostgreSQL, few matches: they are fetched first (OFFSET 0 keeps the planner from pulling the
  // subquery up into a walk of the sort index), then sorted.
  const fenced = dialect === 'postgres' && mode === 'index' && words.length > 0;
  const source = fenced ? sql`(select * from articulos a where ${searchCondition(dialect, words)} offset 0) a` : sql`articulos a`;
  const where = whereArticulos(dialect, fenced ? { ...opts.filtro, q: null } : opts.filtro, mode);
  const { keys, join } = opts.orden === 'relevancia' ? sortRelevancia(opts.filtro.q) : sortArticulos(dialect, opts.orden, opts.dir);
  return sql<ArticuloFila>`select ${LIST_SELECT}
    from (select a.id from ${source} ${join} ${where} order by ${keys} limit ${opts.limit} offset ${opts.offset}) p
    cross join articulos a ${LIST_JOINS}
    where a.id = p.id
    order by ${keys}`;
}

/** One page of the list and the count of the filter. */
export async function listArticulos(db: Kysely<Database>, dialect: DialectName, opts: ListOpts): Promise<ListPage> {
  const total = await countArticulos(db, dialect, opts.filtro);
  if (total === 0 || opts.offset >= total) return { rows: [], total };
  const words = queryWords(opts.filtro.q);
  const end = opts.offset + opts.limit;
  const mode = words.length ? await searchMode(db, dialect, total, end) : 'index';
  if (opts.orden === 'relevancia' && dialect === 'sqlite' && words.length && mode === 'scan') {
    // Most articles match: rank by rank along the description index (idsRelevanciaDensa), then only the page joined.
    const ids = (await idsRelevanciaDensa(db, opts.filtro, end)).slice(opts.offset);
    if (!ids.length) return { rows: [], total };
    const filas = await sql<ArticuloFila>`select ${LIST_SELECT} from articulos a ${LIST_JOINS} ${whereArticulos(dialect, { ids })}`.execute(db);
    const porId = new Map(filas.rows.map((f) => [Number(f.id), f]));
    return { rows: ids.map((id) => porId.get(id)!).filter(Boolean), total };
  }
  // By relevance with few matches, every match is ranked: through the indexes.
  const page = await pageQuery(dialect, opts, opts.orden === 'relevancia' ? 'index' : mode).execute(db);
  return { rows: page.rows, total };
}

/** An exact barcode, or else an exact código: at most one article. */
export async function findByBarras(db: Kysely<Database>, barras: string): Promise<ArticuloFila[]> {
  const res = await sql<ArticuloFila>`select ${LIST_SELECT} from articulos a ${LIST_JOINS}
    where a.id = coalesce((select id from articulos where codigo_barras = ${barras}), (select id from articulos where codigo = ${barras}))`.execute(db);
  return res.rows;
}

/** Columns of the article record as stored (without the derived search columns). */
export const ARTICULO_COLUMNS = [
  'id',
  'codigo',
  'referencia',
  'descripcion',
  'descripcion_larga',
  'unidad_medida',
  'familia_id',
  'subfamilia_id',
  'marca_id',
  'precio_compra',
  'precio_venta',
  'tarifa_2',
  'tarifa_3',
  'pvp_1',
  'pvp_2',
  'pvp_3',
  'tipo_iva',
  'operacion',
  'palabras_clave',
  'nombre_tpv',
  'codigo_barras',
  'tiempo',
  'stock_minimo',
  'activo',
  'foto',
  'seo_slug',
  'seo_titulo',
  'seo_descripcion',
  'stock_total',
] as const;

