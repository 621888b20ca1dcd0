import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 23, who sells and the counter's printer — two settings of a terminal:
 * - `bloqueo_minutos`: minutes without use after which the till locks and asks for a PIN (0 = never); 5 by default;
 * - `impresora`: how the till prints its tickets and Z: `navegador` (the browser's print dialog, the default), `usb`
 *   (an ESC/POS printer through WebUSB) or `serie` (an ESC/POS printer through WebSerial).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('tpv_terminales').addColumn('bloqueo_minutos', 'integer', (c) => c.notNull().defaultTo(5)).execute();
  await db.schema.alterTable('tpv_terminales').addColumn('impresora', 'text', (c) => c.notNull().defaultTo('navegador')).execute();
}
