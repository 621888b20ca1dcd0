import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 23 — a PIN opens the till, not the back office. A session opened by the till's PIN login (`identificartpv`)
 * records the terminal it was opened at (`terminal_id`); such a session runs the till's actions only, whatever the
 * user's role (auth/derechos.ts `ACCIONES_TPV`), and its caja is that terminal's. Password sessions keep null.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sesiones').addColumn('terminal_id', 'integer').execute();
}

