import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/**
 * Search inside words (issue 6): "nillo" finds "tornillo" (see catalogo/busqueda.ts). A
 * trigram index over `busqueda` answers `like '%fragment%'` for fragments of 3+ characters; the word
 * index of 0002 stays for words of one or two characters (they start a word).
 * - SQLite: an FTS5 external-content table with the trigram tokenizer, kept by triggers like
 *   articulos_fts, and filled from the existing articles.
 * - PostgreSQL: pg_trgm (a contrib extension, "trusted" since 13: the database owner may create it;
 *   otherwise a superuser runs `create extension pg_trgm` once) and a GIN index with its operator
 *   class, named through the schema the extension lives in, whatever the search_path.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    const ext = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db);
    const schema = ext.rows[0]?.schema ?? 'public';
    await sql`create index articulos_busqueda_trgm on articulos using gin (busqueda ${sql.id(schema, 'gin_trgm_ops')})`.execute(db);
    return;
  }
  await sql`create virtual table articulos_tri using fts5(busqueda, content='articulos', content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`create trigger articulos_tri_ai after insert on articulos begin
    insert into articulos_tri(rowid, busqueda) values (new.id, new.busqueda); end`.execute(db);
  await sql`create trigger articulos_tri_ad after delete on articulos begin
    insert into articulos_tri(articulos_tri, rowid, busqueda) values ('delete', old.id, old.busqueda); end`.execute(db);
  await sql`create trigger articulos_tri_au after update of busqueda on articulos begin
    insert into articulos_tri(articulos_tri, rowid, busqueda) values ('delete', old.id, old.busqueda);
    insert into articulos_tri(rowid, busqueda) values (new.id, new.busqueda); end`.execute(db);
  await sql`insert into articulos_tri(articulos_tri) values ('rebuild')`.execute(db);
}
