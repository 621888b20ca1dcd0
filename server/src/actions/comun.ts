import { contains, isForeignKeyViolation, isUniqueViolation, listSchema, paging } from '../db/consulta.ts';
import type { Paging } from '../db/consulta.ts';
import { deleteUnreferenced, listado, taken, uniqueOr } from '../consultas.ts';
import type { Reference } from '../consultas.ts';

// What any listing or write shares lives below the actions (the domain uses it too): the plain query helpers in
// db/consulta.ts, those that answer with a refusal in consultas.ts. Re-exported for the actions.
export { contains, deleteUnreferenced, isForeignKeyViolation, isUniqueViolation, listado, listSchema, paging, taken, uniqueOr };
export type { Paging, Reference };

/** Keys of `input` that the request actually carried: absent keys are left unchanged on update. */
export function present<T extends Record<string, unknown>>(input: T, raw: Record<string, unknown>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(input) as (keyof T)[]) {
    if (key in raw) out[key] = input[key];
  }
  return out;
}

