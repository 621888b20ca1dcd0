import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

const ANTES = "tipo in ('ticket', 'devolucion')";
const DESPUES = "tipo in ('ticket', 'devolucion', 'factura')";

/**
 * Issue 23, the till:
 * - `tpv_tickets.tipo` takes 'factura': a full invoice (F1) issued at the till for a sale over the simplified
 *   invoice's limit (`facturarventatpv`) is a sale of the caja (its payments in `tpv_pagos`, counted by the Z).
 *   PostgreSQL: the check constraint is replaced. SQLite cannot alter a constraint: the table is rebuilt from its own
 *   stored definition with the wider check, its rows copied, its indexes recreated (the runner has foreign keys off
 *   and checks them before committing; as 0024 did for articulos).
 * - `tpv_vales`: a store credit («vale») given as the refund of a return at the till (right «reembolso_vale»): its
 *   printed code, its amount (cents), the return that issued it; spent once, whole, as a payment of a later ticket
 *   (`documento_usado`, when), checked online.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('tpv_vales'), dialect)
    .addColumn('codigo', 'text', (c) => c.notNull().unique())
    .addColumn('importe', 'bigint', (c) => c.notNull().check(sql`importe > 0`))
    .addColumn('terminal_id', 'integer', (c) => c.notNull().references('tpv_terminales.id'))
    .addColumn('documento_id', 'integer', (c) => c.references('documentos.id'))
    .addColumn('creado', 'text', (c) => c.notNull())
    .addColumn('documento_usado', 'integer', (c) => c.references('documentos.id'))
    .addColumn('usado', 'text')
    .execute();
  if (dialect === 'postgres') {
    const r = await sql<{ conname: string }>`select c.conname from pg_constraint c join pg_class t on t.oid = c.conrelid
      where t.relname = 'tpv_tickets' and t.relnamespace = current_schema()::regnamespace and c.contype = 'c'
      and pg_get_constraintdef(c.oid) like '%tipo%'`.execute(db);
    for (const { conname } of r.rows) await sql`alter table tpv_tickets drop constraint ${sql.id(conname)}`.execute(db);
    await sql`alter table tpv_tickets add constraint tpv_tickets_tipo_check check (${sql.raw(DESPUES)})`.execute(db);
    return;
  }
  const tabla = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'tpv_tickets'`.execute(db);
  const definicion = tabla.rows[0]?.sql ?? '';
  if (!definicion.includes(ANTES)) throw new Error('tpv_tickets: the tipo check of 0014 was not found');
  const nueva = definicion.replace(ANTES, DESPUES).replace(/^create table\s+("?)tpv_tickets\1/i, 'create table "tpv_tickets_0041"');
  const indices = await sql<{ sql: string }>`select sql from sqlite_master
    where tbl_name = 'tpv_tickets' and type in ('index', 'trigger') and sql is not null order by type, name`.execute(db);
  await sql.raw(nueva).execute(db);
  await sql`insert into tpv_tickets_0041 select * from tpv_tickets`.execute(db);
  await sql`drop table tpv_tickets`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  await sql`alter table tpv_tickets_0041 rename to tpv_tickets`.execute(db);
  await sql`pragma legacy_alter_table = off`.execute(db);
  for (const d of indices.rows) await sql.raw(d.sql).execute(db);
}
