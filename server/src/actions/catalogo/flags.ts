import type { Kysely } from 'kysely';
import { CONF_FIELDS, flagsFromConfig } from 'shared/domain';
import type { ModuleFlags } from 'shared/domain';
import type { Database } from '../../db/schema.ts';

/**
 * The module flags as the database has them now (inside the caller's transaction when given one):
 * the catalogue's writes decide which fields and links they touch by them.
 */
export async function readFlags(db: Kysely<Database>): Promise<ModuleFlags> {
  const row = await db
    .selectFrom('configuracion')
    .select(CONF_FIELDS as `conf_${string}`[])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return flagsFromConfig(row as Record<string, unknown> | undefined);
}
