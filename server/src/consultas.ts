import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { MESSAGES, TOASTS } from 'shared/domain';
import type { Database } from './db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation, paging } from './db/consulta.ts';
import type { Paging } from './db/consulta.ts';
import { ActionError, fail } from './errors.ts';

/**
 * The queries that answer with the product's refusals (errors.ts): a `listado<entidades>` page or row, a unique
 * value, a delete refused while something refers to the row. Below the domain and the actions alike: the till
 * (tpv/), the masters (actions/) and any domain folder use them; the plain query helpers without refusals
 * (paging, contains, the constraint codes) are the ground floor's (db/consulta.ts).
 */

// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time, from the caller's closed list
type AnyDb = Kysely<any>;

/**
 * The answer of a `listado<entidades>`: the one row asked for by `id` (RESULT 3 when there is none), or
 * the total of the filtered rows and the page of them that `pagina`, `porPagina` and `dir` ask for.
 */
export async function listado<R>(
  input: { id: number | null; pagina: number | null; porPagina: string | null; dir: string | null },
  query: {
    one: (id: number) => Promise<R | undefined>;
    total: () => Promise<number | string | bigint>;
    page: (p: Paging) => Promise<R[]>;
  },
): Promise<{ RESULT: '0'; data: R[]; total: number }> {
  if (input.id !== null) {
    const row = await query.one(input.id);
    if (!row) throw fail(MESSAGES.notFound, '3');
    return { RESULT: '0', data: [row], total: 1 };
  }
  const p = paging(input);
  const total = await query.total();
  const rows = await query.page(p);
  return { RESULT: '0', data: rows, total: Number(total) };
}

/** Whether another row of `table` than `exceptId` already has `value` in `column`. */
export async function taken(db: AnyDb, table: keyof Database, column: string, value: unknown, exceptId: number | null): Promise<boolean> {
  const clash = await db
    .selectFrom(table)
    .select('id')
    .where(column, '=', value)
    .$if(exceptId !== null, (q) => q.where('id', '<>', exceptId))
    .executeTakeFirst();
  return !!clash;
}

/** Runs a write; a unique-constraint violation (a clash written meanwhile) is answered as `refusal()`. */
export async function uniqueOr<T>(refusal: () => ActionError, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof ActionError) throw err;
    if (isUniqueViolation(err)) throw refusal();
    throw err;
  }
}

/** Who refers to a row: its delete is refused (RESULT 2) while any of these rows exists. */
export type Reference = { table: keyof Database; column: string };

/** eliminar<entidad>: RESULT 3 when the row is not there, 2 while anything in `referencedBy` refers to it. */
export function deleteUnreferenced(db: AnyDb, table: keyof Database, id: number, referencedBy: Reference[]) {
  const run = db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw fail(MESSAGES.notFound, '3');
    for (const ref of referencedBy) {
      const used = await trx.selectFrom(ref.table).select(sql`1`.as('x')).where(ref.column, '=', id).limit(1).executeTakeFirst();
      if (used) throw fail(TOASTS.associated.text, '2');
    }
    await trx.deleteFrom(table).where('id', '=', id).execute();
    return { RESULT: '0' as const, data: [{ id }] };
  });
  // A reference created meanwhile makes the foreign key refuse the delete.
  return run.catch((err: unknown) => {
    throw isForeignKeyViolation(err) ? fail(TOASTS.associated.text, '2') : err;
  });
}
