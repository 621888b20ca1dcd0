import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../src/db/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: a database of any version, read without today's types.
type AnyDb = Kysely<any>;

/**
 * What a database is, as text a snapshot can hold (migraciones-historia.test.ts): its schema — every table, column
 * (type, nullability, default), index, constraint, trigger and trigger function, as the engine itself prints them —
 * and every row of every table. The PostgreSQL test schema's random name is written `<esquema>`; the values a
 * migration takes from the clock or from chance (0023's installation number) are masked.
 */
export async function esquema(db: AnyDb, dialect: DialectName): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
      select type, name, tbl_name, sql from sqlite_master where name not like 'kysely_migration%' order by type, name`.execute(db);
    const out = rows.map((r) => `${r.type} ${r.name} on ${r.tbl_name}: ${r.sql ?? ''}`);
    for (const t of rows.filter((r) => r.type === 'table')) {
      const cols = await sql<Record<string, unknown>>`select name, type, "notnull", dflt_value, pk, hidden from pragma_table_xinfo(${t.name}) order by cid`.execute(db);
      for (const c of cols.rows) out.push(`column ${t.name}.${c.name} ${c.type} notnull=${c.notnull} default=${c.dflt_value ?? ''} pk=${c.pk} hidden=${c.hidden}`);
    }
    return out;
  }
  const s = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s;
  const limpio = (x: string) => x.split(`${s}.`).join('<esquema>.').split(s).join('<esquema>');
  const out: string[] = [];
  const cols = await sql<Record<string, unknown>>`select table_name, column_name, ordinal_position, data_type, is_nullable, column_default
    from information_schema.columns where table_schema = current_schema() and table_name not like 'kysely_migration%'
    order by table_name, ordinal_position`.execute(db);
  for (const c of cols.rows) {
    out.push(`column ${c.table_name}.${c.column_name} #${c.ordinal_position} ${c.data_type} nullable=${c.is_nullable} default=${c.column_default ?? ''}`);
  }
  const idx = await sql<{ n: string; d: string }>`select indexname as n, indexdef as d from pg_indexes
    where schemaname = current_schema() and tablename not like 'kysely_migration%' order by indexname`.execute(db);
  for (const i of idx.rows) out.push(`index ${i.n}: ${i.d}`);
  const con = await sql<{ n: string; t: string; d: string }>`select c.conname as n, cast(c.conrelid::regclass as text) as t, pg_get_constraintdef(c.oid) as d
    from pg_constraint c join pg_namespace ns on ns.oid = c.connamespace
    where ns.nspname = current_schema() and cast(c.conrelid::regclass as text) not like '%kysely_migration%' order by 2, 1`.execute(db);
  for (const c of con.rows) out.push(`constraint ${c.t}.${c.n}: ${c.d}`);
  const trg = await sql<{ n: string; d: string }>`select t.tgname as n, pg_get_triggerdef(t.oid) as d from pg_trigger t
    join pg_class r on r.oid = t.tgrelid join pg_namespace ns on ns.oid = r.relnamespace
    where ns.nspname = current_schema() and not t.tgisinternal order by 1`.execute(db);
  for (const t of trg.rows) out.push(`trigger ${t.n}: ${t.d}`);
  const fun = await sql<{ n: string; d: string }>`select p.proname as n, pg_get_functiondef(p.oid) as d from pg_proc p
    join pg_namespace ns on ns.oid = p.pronamespace where ns.nspname = current_schema() order by 1`.execute(db);
  for (const f of fun.rows) out.push(`function ${f.n}: ${f.d}`);
  const seq = await sql<{ n: string }>`select sequencename as n from pg_sequences where schemaname = current_schema() order by 1`.execute(db);
  for (const q of seq.rows) out.push(`sequence ${q.n}`);
  return out.map(limpio);
}

/** The tables a database has (the migrator's own and SQLite's full-text shadow tables aside). */
async function tablas(db: AnyDb, dialect: DialectName): Promise<string[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ n: string }>`select name as n from sqlite_master where type = 'table' and name not like 'kysely_migration%'
          and name not like 'sqlite_%' and name not like '%_fts%' and name not like '%_tri%' order by name`.execute(db)
      : await sql<{ n: string }>`select tablename as n from pg_tables where schemaname = current_schema()
          and tablename not like 'kysely_migration%' order by tablename`.execute(db);
  return rows.map((r) => r.n);
}

const texto = (v: unknown): string =>
  v === null || v === undefined
    ? '∅'
    : Buffer.isBuffer(v) || v instanceof Uint8Array
      ? `0x${Buffer.from(v).toString('hex')}`
      : String(v)
          .replace(/\.0+$/, '')
          .replace(/^MT-\d{14}-[0-9A-F]{8}$/, 'MT-<número de instalación>');

/** Every row of every table, each as `tabla|col=valor|…` in column-name order, sorted (integers and numerics alike). */
export async function datos(db: AnyDb, dialect: DialectName): Promise<string[]> {
  const out: string[] = [];
  for (const t of await tablas(db, dialect)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db);
    for (const r of rows) {
      out.push(`${t}|${Object.keys(r).sort().map((k) => `${k}=${texto(r[k])}`).join('|')}`);
    }
  }
  return out.sort();
}
