import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { readerOf } from './index.ts';

type Compiled = { query: CompiledQuery; slots: (string | null)[] };

const marker = (key: string) => `\u0000param:${key}\u0000`;

/**
 * A query built and compiled once per database, then run with fresh parameters: building and
 * compiling a Kysely query costs several times more than running it, which matters on the paths
 * every request takes (the session check). Parameters stay bound parameters.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
  opts: { read?: boolean } = {},
): (db: Kysely<Database>, params: P) => Promise<R[]> {
  const cache = new WeakMap<Kysely<Database>, Compiled>();
  return async (db, params) => {
    let compiled = cache.get(db);
    if (!compiled) {
      const markers = Object.fromEntries(Object.keys(params).map((k) => [k, marker(k)])) as P;
      const query = build(db, markers).compile();
      const byMarker = new Map(Object.keys(params).map((k) => [marker(k), k]));
      const slots = query.parameters.map((v) => (typeof v === 'string' ? (byMarker.get(v) ?? null) : null));
      compiled = { query, slots };
      cache.set(db, compiled);
    }
    const { query, slots } = compiled;
    const parameters = slots.map((key, i) => (key === null ? query.parameters[i] : params[key]));
    // Reads of committed data may take SQLite's synchronous reader connection.
    const reader = opts.read ? readerOf(db) : undefined;
    if (reader) return reader.all<R>(query.sql, parameters);
    const result = await db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    return result.rows;
  };
}
