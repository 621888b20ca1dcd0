import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { reconstruirAgregados } from './congelado/agregados.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 25, «one set of figures»: the sales aggregates (0019, 0028) rebuilt, now that a sale's base, IVA and recargo are
 * its document's stored desglose shared out to the lines (informes/reparto.ts) instead of each line rounded on its own:
 * the per document × article rows, the day rows and the month rows carry the documents' own amounts.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await reconstruirAgregados(db, dialect);
}
