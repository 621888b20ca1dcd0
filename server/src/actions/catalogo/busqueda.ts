import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DialectName } from '../../db/index.ts';

/**
 * Article search: every word typed must be the start of a word of the article's código, referencia,
 * descripción, palabras clave or código de barras, ignoring case and accents ("limpiador baño" finds
 * "Limpiador BAÑO 750 ml"). The words are normalised here, once, for both engines: the `busqueda`
 * column holds them as plain [a-z0-9] words separated by one space, indexed by FTS5 on SQLite and by
 * a GIN index over `array_to_tsvector(string_to_array(busqueda, ' '))` on PostgreSQL (no extension,
 * no text-search parser in between: the same words on both).
 */

/** Lower case, accents and compatibility forms folded ("Ñandú ½" → "nandu 1⁄2"). */
export function foldText(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

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

/**
 * "Every word starts a word of the article", on the articulos row aliased `a`:
 * - `index`: through the full-text index (FTS5 on SQLite, GIN on PostgreSQL): the rows that match;
 * - `scan`: the same test on the row itself (`' ' || busqueda like '% word%'`), for a walk along a
 *   sort index that stops after one page, when most rows match (SQLite, see consulta.ts).
 */
export function searchCondition(dialect: DialectName, words: string[], mode: 'index' | 'scan' = 'index'): RawBuilder<boolean> {
  if (mode === 'scan') {
    // Words are [a-z0-9]+: no LIKE wildcards in them.
    return sql<boolean>`${sql.join(words.map((w) => sql`(' ' || a.busqueda) like ${`% ${w}%`}`), sql` and `)}`;
  }
  if (dialect === 'postgres') {
    // Safe inside tsquery quotes; a cast, not to_tsquery: no parser, the exact lexemes.
    return sql<boolean>`array_to_tsvector(string_to_array(a.busqueda, ' ')) @@ ${ftsQuery(dialect, words)}::tsquery`;
  }
  return sql<boolean>`a.id in (select rowid from articulos_fts where articulos_fts match ${ftsQuery(dialect, words)})`;
}

/** The words as the engine's full-text query: prefixes, all required. */
export function ftsQuery(dialect: DialectName, words: string[]): string {
  return dialect === 'postgres' ? words.map((w) => `'${w}':*`).join(' & ') : words.map((w) => `"${w}"*`).join(' ');
}
