import { Migrator, sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { DialectName } from '../index.ts';
import * as m0001 from './0001_base.ts';
import * as m0002 from './0002_catalogo.ts';
import * as m0003 from './0003_documentos.ts';
import * as m0004 from './0004_busqueda.ts';
import * as m0005 from './0005_compras.ts';
import * as m0006 from './0006_ventas.ts';
import * as m0007 from './0007_verifactu.ts';
import * as m0008 from './0008_stock_negativo.ts';
import * as m0009 from './0009_roles.ts';
import * as m0010 from './0010_actividad.ts';
import * as m0012 from './0012_demo.ts';
import * as m0013 from './0013_coste_medio.ts';
import * as m0014 from './0014_tpv.ts';
import * as m0015 from './0015_informes.ts';
import * as m0016 from './0016_cobros.ts';
import * as m0017 from './0017_papeles_verifactu.ts';
import * as m0018 from './0018_facturas_fijas.ts';
import * as m0019 from './0019_agregados_informes.ts';
import * as m0022 from './0022_facturae.ts';
import * as m0023 from './0023_correcciones.ts';
import * as m0024 from './0024_impuesto_empresa.ts';
import * as m0025 from './0025_fiscal_fin.ts';
import * as m0026 from './0026_stock_minimo.ts';
import * as m0027 from './0027_informes_tipos.ts';
import * as m0028 from './0028_ventas_articulo_mes.ts';
import * as m0029 from './0029_libro_por_fecha.ts';
import * as m0030 from './0030_tarifas_indice.ts';
import * as m0031 from './0031_en_vivo.ts';
import * as m0032 from './0032_empezar.ts';
import * as m0034 from './0034_registro.ts';
import * as m0035 from './0035_obligacion_por_nif.ts';
import * as m0036 from './0036_incidencias_tpv.ts';
import * as m0037 from './0037_copias.ts';
import * as m0038 from './0038_series_tpv.ts';
import * as m0039 from './0039_sesion_tpv.ts';
import * as m0040 from './0040_arqueo_ciego.ts';
import * as m0041 from './0041_tpv_factura_vales.ts';
import * as m0042 from './0042_tpv_bloqueo_impresora.ts';
import * as m0043 from './0043_tpv_vale_saldo.ts';
import * as m0046 from './0046_cifras_documentos.ts';
import * as m0047 from './0047_coste_por_fecha.ts';
import * as m0048 from './0048_pagos_remesas.ts';

export { DEFAULT_ALMACEN } from './0002_catalogo.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;
export type Step = { up(db: AnyDb, dialect: DialectName): Promise<void> };

/**
 * Every step, in order, by the name the database records it under. One file per step, never edited
 * once released: a change to the schema is a new file and a new line here.
 */
export const STEPS: [string, Step][] = [
  ['0001_base', m0001],
  ['0002_catalogo', m0002],
  ['0003_documentos', m0003],
  ['0004_busqueda', m0004],
  ['0005_compras', m0005],
  ['0006_ventas', m0006],
  ['0007_verifactu', m0007],
  ['0008_stock_negativo', m0008],
  ['0009_roles', m0009],
  ['0010_actividad', m0010],
  ['0012_demo', m0012],
  ['0013_coste_medio', m0013],
  ['0014_tpv', m0014],
  ['0015_informes', m0015],
  ['0016_cobros', m0016],
  ['0017_papeles_verifactu', m0017],
  ['0018_facturas_fijas', m0018],
  ['0019_agregados_informes', m0019],
  ['0022_facturae', m0022],
  ['0023_correcciones', m0023],
  ['0024_impuesto_empresa', m0024],
  ['0025_fiscal_fin', m0025],
  ['0026_stock_minimo', m0026],
  ['0027_informes_tipos', m0027],
  ['0028_ventas_articulo_mes', m0028],
  ['0029_libro_por_fecha', m0029],
  ['0030_tarifas_indice', m0030],
  ['0031_en_vivo', m0031],
  ['0032_empezar', m0032],
  ['0034_registro', m0034],
  ['0035_obligacion_por_nif', m0035],
  ['0036_incidencias_tpv', m0036],
  ['0037_copias', m0037],
  ['0038_series_tpv', m0038],
  ['0039_sesion_tpv', m0039],
  ['0040_arqueo_ciego', m0040],
  ['0041_tpv_factura_vales', m0041],
  ['0042_tpv_bloqueo_impresora', m0042],
  ['0043_tpv_vale_saldo', m0043],
  ['0046_cifras_documentos', m0046],
  ['0047_coste_por_fecha', m0047],
  ['0048_pagos_remesas', m0048],
];

function migrations(dialect: DialectName, steps: readonly [string, Step][]): Record<string, Migration> {
  // SQLite: the steps run inside the one transaction migrate() opens; a step's own transaction becomes a savepoint.
  const wrap = dialect === 'sqlite' ? conSavepoints : (db: AnyDb) => db;
  return Object.fromEntries(steps.map(([name, step]) => [name, { up: (db: AnyDb) => step.up(wrap(db), dialect) }]));
}

/** `db` whose `transaction().execute(cb)` runs `cb` in a savepoint of the transaction already open on its connection. */
function conSavepoints(db: AnyDb): AnyDb {
  const transaction = () => ({
    async execute<T>(cb: (trx: AnyDb) => Promise<T>): Promise<T> {
      await sql`savepoint paso`.execute(db);
      try {
        const r = await cb(db);
        await sql`release paso`.execute(db);
        return r;
      } catch (err) {
        await sql`rollback to paso`.execute(db);
        await sql`release paso`.execute(db);
        throw err;
      }
    },
  });
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** A step failed: every pending step was undone (migrate runs them in one transaction). */
export class MigracionFallida extends Error {
  constructor(
    readonly paso: string,
    cause: unknown,
  ) {
    super(`Migration ${paso} failed`, { cause });
  }
}

export type MigrateOptions = {
  /** The steps to run (default STEPS); the tests add a failing one. */
  steps?: readonly [string, Step][];
  /**
   * Called before the first pending step runs on a database that already has data (at least one step done): the
   * upgrade's backup (copias/antes-de-migrar.ts). If it throws, nothing is migrated.
   */
  antes?: (info: { pendientes: string[]; hechas: number }) => Promise<void>;
};

/**
 * Runs every pending migration, all of them or none: on PostgreSQL in one transaction (Kysely's, DDL included), on
 * SQLite in one `begin immediate … commit` with the foreign keys off until the end, checked before the commit. A step
 * that fails leaves the database exactly as the previous version left it. Several instances starting at once are
 * serialised by Kysely's lock (an advisory lock on PostgreSQL). Returns the steps it ran.
 */
export async function migrate(db: AnyDb, dialect: DialectName, opts: MigrateOptions = {}): Promise<string[]> {
  const steps = opts.steps ?? STEPS;
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect, steps) };
  // PostgreSQL: Kysely looks for its tables in every schema unless told which; another installation's (or a test
  // app's) schema in the same database would make it skip creating its own.
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  // Steps whose numbers were reserved land after later ones (0009_roles after 0010, 0012 and 0013 on a database that
  // ran those first): a pending step earlier than the last one run still runs, in name order.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const estado = await migrator.getMigrations();
  const pendientes = estado.filter((m) => !m.executedAt).map((m) => m.name);
  if (!pendientes.length) return [];
  const hechas = estado.length - pendientes.length;
  if (hechas > 0 && opts.antes) await opts.antes({ pendientes, hechas });

  const correr = async () => {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) throw new MigracionFallida(failed?.migrationName ?? '', error);
    return (results ?? []).map((r) => r.migrationName);
  };
  if (dialect === 'postgres') return correr();
  // SQLite: `pragma foreign_keys` is a no-op inside a transaction, so it goes off before it (a table rebuild drops
  // the old table while others still point at it) and every key is checked before the commit.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const hechos = await correr();
      const rotas = await sql`pragma foreign_key_check`.execute(db);
      if (rotas.rows.length) throw new Error(`Migration left ${rotas.rows.length} broken foreign keys`);
      await sql`commit`.execute(db);
      return hechos;
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
