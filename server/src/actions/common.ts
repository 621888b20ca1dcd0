import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { CONSTANTS } from 'shared/domain';
import type { Schema } from 'shared/domain';

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

/** Case-insensitive "contains" on both SQLite and PostgreSQL, with % and _ taken literally. */
export function contains(column: string, q: string): RawBuilder<boolean> {
  const pattern = '%' + q.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Keys of `input` that the request actually carried: absent keys are left unchanged on update. */
export function present<T extends Record<string, unknown>>(input: T, raw: Record<string, unknown>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(input) as (keyof T)[]) {
    if (key in raw) out[key] = input[key];
  }
  return out;
}

/** Whether a database error is a foreign-key violation: something still refers to the row. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
