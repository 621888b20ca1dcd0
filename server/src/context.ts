import type { Kysely } from 'kysely';
import type { ModuleFlags } from 'shared/domain';
import { flagsFromConfig } from 'shared/domain';
import type { ConfiguracionRow, Database } from './db/schema.ts';
import { readerOf } from './db/index.ts';
import { preparedQuery } from './db/prepared.ts';
import type { DialectName } from './db/index.ts';
import type { Mailer } from './mail.ts';

/** Everything an action needs besides its request: one per app instance. */
export type AppContext = {
  db: Kysely<Database>;
  dialect: DialectName;
  dataDir: string;
  publicUrl?: string;
  /**
   * The origins a mail's link may point at, never empty: PUBLIC_URL's alone when set; otherwise MANAGER_ORIGENES and
   * then this machine's own address (http://localhost:PORT). Never the request's Host or X-Forwarded-Host.
   */
  linkOrigins: readonly string[];
  mailer: Mailer;
  config: ConfigCache;
  /** Time zone of the business, for "this month" and "today". */
  timeZone: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    manager: AppContext;
  }
}

const allConfiguraciones = preparedQuery(
  (db, _p: Record<string, never>) => db.selectFrom('configuracion').selectAll().orderBy('id'),
  { read: true },
);

/**
 * The configuration records (one per installation) and the module flags they carry, which every
 * request may need. On SQLite the copy is checked against the database's data_version on each use,
 * so it is always current; on PostgreSQL (several instances) a copy younger than `maxAgeMs` is
 * used, and this instance's own saves invalidate it at once.
 */
export class ConfigCache {
  private value: readonly ConfiguracionRow[] | null = null;
  private flagsValue: ModuleFlags | null = null;
  private version = -1;
  private readAt = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlMs = 1000,
  ) {}

  async rows(maxAgeMs = this.ttlMs): Promise<readonly ConfiguracionRow[]> {
    const reader = readerOf(this.db);
    if (reader) {
      const version = reader.version();
      if (this.value && version === this.version) return this.value;
      this.version = version;
    } else if (this.value && Date.now() - this.readAt < maxAgeMs) {
      return this.value;
    }
    const rows = (await allConfiguraciones(this.db, {})).map((r) => Object.freeze(r));
    this.value = Object.freeze(rows);
    this.flagsValue = null;
    this.readAt = Date.now();
    return this.value;
  }

  async flags(): Promise<ModuleFlags> {
    const rows = await this.rows();
    this.flagsValue ??= flagsFromConfig(rows[0] as Record<string, unknown> | undefined);
    return this.flagsValue;
  }

  invalidate(): void {
    this.value = null;
    this.flagsValue = null;
  }
}

/** ISO timestamp of now (UTC); every stored instant uses this format so text comparison orders them. */
export const nowIso = (offsetMs = 0): string => new Date(Date.now() + offsetMs).toISOString();

/** One formatter per time zone: building an Intl.DateTimeFormat costs ≈ 0,1 ms, formatting with it ≈ 2 µs. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** 'YYYY-MM-DD' of today in the given time zone. */
export function todayIn(timeZone: string, date = new Date()): string {
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  return f.format(date);
}
