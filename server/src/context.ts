import type { Kysely } from 'kysely';
import type { ModuleFlags } from 'shared/domain';
import { flagsFromConfig, CONF_FIELDS } from 'shared/domain';
import type { Database } from './db/schema.ts';
import type { DialectName } from './db/index.ts';
import type { Mailer } from './mail.ts';

/** Everything an action needs besides its request: one per app instance. */
export type AppContext = {
  db: Kysely<Database>;
  dialect: DialectName;
  dataDir: string;
  publicUrl?: string;
  mailer: Mailer;
  flags: FlagCache;
  /** Time zone of the business, for "this month" and "today". */
  timeZone: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    manager: AppContext;
  }
}

/**
 * Module flags read from the configuration record. Kept for at most `ttlMs` so other instances'
 * changes (PostgreSQL behind a balancer) show within that time; this instance's own saves
 * invalidate it at once.
 */
export class FlagCache {
  private value: ModuleFlags | null = null;
  private readAt = 0;
  private pending: Promise<ModuleFlags> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlMs = 1000,
  ) {}

  async get(): Promise<ModuleFlags> {
    if (this.value && Date.now() - this.readAt < this.ttlMs) return this.value;
    this.pending ??= this.read().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  invalidate(): void {
    this.value = null;
    this.pending = null;
  }

  private async read(): Promise<ModuleFlags> {
    const row = await this.db
      .selectFrom('configuracion')
      .select(CONF_FIELDS as `conf_${string}`[])
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const flags = flagsFromConfig(row as Record<string, unknown> | undefined);
    this.value = flags;
    this.readAt = Date.now();
    return flags;
  }
}

/** ISO timestamp of now (UTC); every stored instant uses this format so text comparison orders them. */
export const nowIso = (offsetMs = 0): string => new Date(Date.now() + offsetMs).toISOString();

/** 'YYYY-MM-DD' of today in the given time zone. */
export function todayIn(timeZone: string, date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}
