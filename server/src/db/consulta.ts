import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { CONSTANTS } from 'shared/domain';
import type { Schema } from 'shared/domain';

/**
 * What queries share, whoever runs them (the op.asp actions, the document engine): the paging of a
 * `listado<entidades>`, an accent-free "contains", and the engines' constraint-violation codes.
 */

/** Paging and filters every `listado<entidades>` accepts (ListParams), ordered by a whitelist. */
export function listSchema<const C extends readonly string[]>(orderColumns: C) {
  return {
    id: { type: 'int', min: 1 },
    pagina: { type: 'int', min: 1, max: 1_000_000 },
    porPagina: { type: 'enum', values: CONSTANTS.pageSizes.map(String) },
    orden: { type: 'enum', values: orderColumns },
    dir: { type: 'enum', values: ['asc', 'desc'] },
    q: { type: 'string', max: 100 },
  } as const satisfies Schema;
}

export type Paging = { limit: number; offset: number; dir: 'asc' | 'desc' };

export function paging(input: { pagina: number | null; porPagina: string | null; dir: string | null }): Paging {
  const limit = Number(input.porPagina ?? CONSTANTS.defaultPageSize);
  const pagina = input.pagina ?? 1;
  return { limit, offset: (pagina - 1) * limit, dir: input.dir === 'desc' ? 'desc' : 'asc' };
}

/** Lower case, accents and compatibility forms folded ("Ñandú ½" → "nandu 1⁄2"): the text side of `contains` and of the articles' search words. */
export function foldText(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Accented letters (both cases: SQLite's lower() and PostgreSQL's under the C locale only fold
 * ASCII) and their plain lower-case letters, for `translate()`: PostgreSQL's built-in, and on SQLite
 * the same function registered on the connection (db/index.ts).
 */
export const FOLD_FROM = 'ÁÀÂÄÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇÝáàâäãåéèêëíìîïóòôöõúùûüñçýÿ';
export const FOLD_TO = 'aaaaaaeeeeiiiiooooouuuuncyaaaaaaeeeeiiiiooooouuuuncyy';

/**
 * "Contains", ignoring case and accents, on both SQLite and PostgreSQL, with % and _ taken literally:
 * the column lower-cased and its accents translated, the text folded the same way ('CAÑERÍA' finds
 * 'Cañería' and 'caneria'). A scan: for the small tables (masters, users, series); the articles use
 * their indexed search (catalogo/busqueda.ts).
 */
export function contains(column: string, q: string): RawBuilder<boolean> {
  const pattern = '%' + foldText(q).replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  return sql<boolean>`translate(lower(${sql.ref(column)}), ${FOLD_FROM}, ${FOLD_TO}) like ${pattern} escape '\\'`;
}

/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Whether a database error is a foreign-key violation: something still refers to the row. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

