import { CompiledQuery, SqliteAdapter } from 'kysely';
import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { nombrar } from './nombradas.ts';
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

/**
 * preparedQuery for the statements of the hot write paths, which run inside transactions too: the SQL depends only
 * on the engine, so it is built and compiled once per engine (not per database object: each transaction is a new
 * one) and run on whatever database or transaction is given. Building and compiling a Kysely statement costs
 * 50-150 µs of JavaScript, more than SQLite takes to run most of them. On PostgreSQL they run as named statements
 * (db/nombradas.ts): parsed and planned once per connection instead of on every call.
 */
export function compiledQuery<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
): (db: Kysely<Database>, params: P) => Promise<R[]> {
  const cache = new Map<unknown, Compiled>();
  return async (db, params) => {
    const engine = db.getExecutor().adapter.constructor;
    let compiled = cache.get(engine);
    if (!compiled) {
      const markers = Object.fromEntries(Object.keys(params).map((k) => [k, marker(k)])) as P;
      const query = build(db, markers).compile();
      const byMarker = new Map(Object.keys(params).map((k) => [marker(k), k]));
      const slots = query.parameters.map((v) => (typeof v === 'string' ? (byMarker.get(v) ?? null) : null));
      for (const k of Object.keys(params)) if (!slots.includes(k)) throw new Error(`compiledQuery: ${k} is not a parameter of ${query.sql}`);
      if (!(db.getExecutor().adapter instanceof SqliteAdapter)) nombrar(query.sql);
      compiled = { query, slots };
      cache.set(engine, compiled);
    }
    const { query, slots } = compiled;
    const parameters = slots.map((key, i) => (key === null ? query.parameters[i] : params[key]));
    return (await db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>)).rows;
  };
}

/**
 * A multi-row INSERT written by hand (no query builder): `filas` of values in `columnas`' order, bound as parameters
 * (`?` on SQLite, `$n` on PostgreSQL). The text depends only on the table, the columns and the number of rows, so
 * the engine's statement cache (SQLite) finds it again. The caller keeps the batches within the engine's limit of
 * bound parameters.
 */
export async function insertarFilas(db: Kysely<Database>, tabla: string, columnas: readonly string[], filas: readonly (readonly unknown[])[]): Promise<void> {
  if (!filas.length) return;
  const pg = !(db.getExecutor().adapter instanceof SqliteAdapter);
  let n = 0;
  const tupla = () => `(${columnas.map(() => (pg ? `$${++n}` : '?')).join(', ')})`;
  const valores = filas.map(tupla).join(', ');
  const texto = `insert into "${tabla}" (${columnas.map((c) => `"${c}"`).join(', ')}) values ${valores}`;
  await db.executeQuery(CompiledQuery.raw(texto, filas.flat()));
}
