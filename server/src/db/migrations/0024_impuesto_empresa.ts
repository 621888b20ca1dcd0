import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/** The types an article may carry from this step on (shared TIPOS_IVA at the time: IVA's, tabaco, IGIC's, IPSI's). */
const TIPOS = [
  '21', '10', '4', 'exento', 'tabaco',
  'igic_0', 'igic_3', 'igic_7', 'igic_9_5', 'igic_15', 'igic_20',
  'ipsi_0_5', 'ipsi_1', 'ipsi_2', 'ipsi_4', 'ipsi_8', 'ipsi_10',
];
const ANTES = "tipo_iva in ('21', '10', '4', 'exento')";
const DESPUES = `tipo_iva in (${TIPOS.map((t) => `'${t}'`).join(', ')})`;

/**
 * Issue 16, companies outside the IVA territory:
 * - `configuracion.impuesto`: 'iva' (default), 'igic' (Canarias) or 'ipsi' (Ceuta, Melilla).
 * - `articulos.tipo_iva` accepts the IGIC and IPSI types and «tabaco» (IVA 21 % with recargo 1,75 %).
 *   PostgreSQL: the column's check constraint is replaced. SQLite cannot alter a constraint: the table is rebuilt
 *   the way SQLite's documentation gives (lang_altertable, «Making Other Kinds Of Table Schema Changes»): foreign keys
 *   off, a new table from the very same definition with the wider check, the rows copied with their ids (the FTS5
 *   external-content indexes articulos_fts and articulos_tri are keyed by them and stay valid), the old table
 *   dropped, the new one renamed, its indexes and triggers (the FTS ones) recreated from their stored definitions,
 *   `foreign_key_check`, foreign keys on again.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('configuracion')
    .addColumn('impuesto', 'text', (c) => c.notNull().defaultTo('iva').check(sql`impuesto in ('iva', 'igic', 'ipsi')`))
    .execute();
  if (dialect === 'postgres') {
    const r = await sql<{ conname: string }>`select c.conname from pg_constraint c join pg_class t on t.oid = c.conrelid
      where t.relname = 'articulos' and t.relnamespace = current_schema()::regnamespace and c.contype = 'c'
      and pg_get_constraintdef(c.oid) like '%tipo_iva%'`.execute(db);
    for (const { conname } of r.rows) await sql`alter table articulos drop constraint ${sql.id(conname)}`.execute(db);
    await sql`alter table articulos add constraint articulos_tipo_iva_check check (${sql.raw(DESPUES)})`.execute(db);
    return;
  }
  const tabla = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'articulos'`.execute(db);
  const definicion = tabla.rows[0]?.sql ?? '';
  if (!definicion.includes(ANTES)) throw new Error('articulos: the tipo_iva check of 0002 was not found');
  const nueva = definicion.replace(ANTES, DESPUES).replace(/^create table\s+("?)articulos\1/i, 'create table "articulos_0024"');
  const dependientes = await sql<{ sql: string }>`select sql from sqlite_master
    where tbl_name = 'articulos' and type in ('index', 'trigger') and sql is not null order by type, name`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(nueva).execute(trx);
      await sql`insert into articulos_0024 select * from articulos`.execute(trx);
      await sql`drop table articulos`.execute(trx);
      // Legacy rename: the other tables' triggers naming «articulos» are left as they are (they name the new table).
      await sql`pragma legacy_alter_table = on`.execute(trx);
      await sql`alter table articulos_0024 rename to articulos`.execute(trx);
      await sql`pragma legacy_alter_table = off`.execute(trx);
      for (const d of dependientes.rows) await sql.raw(d.sql).execute(trx);
      const rotas = await sql`pragma foreign_key_check`.execute(trx);
      if (rotas.rows.length) throw new Error('articulos: foreign keys broken by the rebuild');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
