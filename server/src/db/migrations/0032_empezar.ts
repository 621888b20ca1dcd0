import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 22, «Empezar con mis datos» (`eliminardemo`): `verifactu.inicio`, when the company last started afresh (the
 * demo's trial removed, counters and chains reset). A paired till keeps its chain's end and its numbering in its own
 * storage; the terminal it reads says this instant, and what the till kept from before it is no longer its chain.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('verifactu').addColumn('inicio', 'text').execute();
}
