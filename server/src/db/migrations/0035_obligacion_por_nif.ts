import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 22: the VERI*FACTU obligation date follows the company's NIF (a legal entity: 1 January 2027; a natural person:
 * 1 July 2027) unless the owner chose it. `verifactu.fecha_obligacion_manual` is 1 when the owner set it by hand; the
 * date stored is then the owner's. A date other than the old fixed default (1 July 2027) was the owner's choice, so it
 * stays; the old default is taken as not chosen and from now on follows the NIF.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('verifactu').addColumn('fecha_obligacion_manual', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update verifactu set fecha_obligacion_manual = 1 where fecha_obligacion <> '2027-07-01'`.execute(db);
}
