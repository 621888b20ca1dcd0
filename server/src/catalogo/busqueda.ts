import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DialectName } from '../db/index.ts';
import { foldText } from '../db/consulta.ts';

/**
 * Article search: every word typed must appear inside a word of the article's código, referencia,
 * descripción, palabras clave or código de barras, ignoring case and accents ("nillo baño" finds
 * "Tornillo BAÑO 750 ml"); a word of one or two characters must start one ("m4", "de": inside words
 * they would match nearly everything). The words are normalised here, once, for both engines: the
 * `busqueda` column holds them as plain [a-z0-9] words separated by one space, indexed
 * - for fragments (3+ characters): by an FTS5 trigram table on SQLite, by a pg_trgm GIN index on
 *   PostgreSQL, both answering "contains" (`like '%nillo%'`);
 * - for short words: by an FTS5 unicode61 table with prefix indexes on SQLite, by a GIN index over
 *   `array_to_tsvector(string_to_array(busqueda, ' '))` on PostgreSQL, both answering "a word starts with".
 */

/** Lower case, accents and compatibility forms folded (db/consulta.ts: `contains` folds the same way). */
export { foldText };

/** The search words of a text: [a-z0-9] runs of its folded form. */
export function searchWords(s: string): string[] {
  return foldText(s)
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** At most this many words of a query are used (a pasted paragraph is not a search). */
const MAX_WORDS = 8;

/** The distinct search words of a query, or none when it has no searchable characters. */
export function queryWords(q: string | null | undefined): string[] {
  return q ? [...new Set(searchWords(q))].slice(0, MAX_WORDS) : [];
}

/** Words this long or longer are found inside words (trigram indexes); shorter ones start a word. */
export const MIN_FRAGMENT = 3;

const isFragment = (w: string) => w.length >= MIN_FRAGMENT;

/**
 * "Every word is inside a word of the article (a short one starts one)", on the articulos row aliased `a`:
 * - `index`: through the indexes (trigram and word-prefix; see above): the rows that match;
 * - `scan`: the same test on the row itself (`busqueda like '%word%'`, `' ' || busqueda like '% wo%'`),
 *   for a walk along a sort index that stops after one page, when most rows match (SQLite, see consulta.ts).
 */
export function searchCondition(dialect: DialectName, words: string[], mode: 'index' | 'scan' = 'index'): RawBuilder<boolean> {
  const fragments = words.filter(isFragment);
  const short = words.filter((w) => !isFragment(w));
  // Words are [a-z0-9]+: no LIKE wildcards in them.
  const inside = (w: string) => sql<boolean>`a.busqueda like ${`%${w}%`}`;
  const starts = (w: string) => sql<boolean>`(' ' || a.busqueda) like ${`% ${w}%`}`;
  const conds: RawBuilder<boolean>[] = [];
  if (mode === 'scan') {
    conds.push(...fragments.map(inside), ...short.map(starts));
  } else if (dialect === 'postgres') {
    // pg_trgm's GIN index answers each LIKE; the short words go through the word index, with a
    // cast, not to_tsquery: no parser, the exact lexemes.
    conds.push(...fragments.map(inside));
    if (short.length) conds.push(sql<boolean>`array_to_tsvector(string_to_array(a.busqueda, ' ')) @@ ${prefixQuery(dialect, short)}::tsquery`);
  } else if (fragments.length) {
    // The trigram table finds the rows; short words then test those few rows.
    conds.push(sql<boolean>`a.id in (select rowid from articulos_tri where articulos_tri match ${trigramQuery(fragments)})`, ...short.map(starts));
  } else {
    conds.push(sql<boolean>`a.id in (select rowid from articulos_fts where articulos_fts match ${prefixQuery(dialect, short)})`);
  }
  return sql<boolean>`${sql.join(conds, sql` and `)}`;
}

/**
 * SQLite: the count of articles matching every word from one FTS5 table alone (no article row
 * read), when the words allow it (all fragments, or all short); otherwise null.
 */
export function indexOnlyCount(words: string[]): RawBuilder<{ total: number }> | null {
  if (words.every(isFragment)) return sql`select count(*) as total from articulos_tri where articulos_tri match ${trigramQuery(words)}`;
  if (!words.some(isFragment)) return sql`select count(*) as total from articulos_fts where articulos_fts match ${prefixQuery('sqlite', words)}`;
  return null;
}

/** Fragments as an FTS5 trigram query: each a phrase (its trigrams in a row, i.e. that substring), all required. */
export function trigramQuery(fragments: string[]): string {
  return fragments.map((w) => `"${w}"`).join(' ');
}

/** Short words as the engine's word-prefix query, all required. */
export function prefixQuery(dialect: DialectName, words: string[]): string {
  return dialect === 'postgres' ? words.map((w) => `'${w}':*`).join(' & ') : words.map((w) => `"${w}"*`).join(' ');
}
