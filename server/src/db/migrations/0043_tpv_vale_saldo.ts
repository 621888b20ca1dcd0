import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 23, a vale with a remaining balance:
 * - `tpv_vales.saldo`: what is left on the store credit (cents). A payment takes part of it and the rest stays, usable
 *   later; the vale is used up (`documento_usado`, `usado`) when it reaches 0. Existing vales: their whole amount if
 *   unused, else 0 (they were spent whole).
 * - `tpv_pagos.vale`, `tpv_pagos.vale_saldo`: a payment by vale names its code and the balance it left — printed on the
 *   ticket and on every reprint as it was then.
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('tpv_vales').addColumn('saldo', 'bigint').execute();
  await sql`update tpv_vales set saldo = case when documento_usado is null then importe else 0 end`.execute(db);
  await db.schema.alterTable('tpv_pagos').addColumn('vale', 'text').execute();
  await db.schema.alterTable('tpv_pagos').addColumn('vale_saldo', 'bigint').execute();
}
