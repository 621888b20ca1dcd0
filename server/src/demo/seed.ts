import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { CONF_FIELD, FLAG_NAMES } from 'shared/domain';
import type { FlagName } from 'shared/domain';
import { nowIso, todayIn } from '../context.ts';
import { hashPassword } from '../security.ts';
import { idRolPredefinido, sincronizarRolesPredefinidos } from '../auth/roles.ts';
import { generarDemo } from './index.ts';
import type { ResumenDemo } from './index.ts';
import { seedCatalogo } from './seed-catalogo.ts';
import { seedCompras } from './seed-compras.ts';
import { seedVentas } from './seed-ventas.ts';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';

/** Flags the demo company starts with off; every other one is on. */
const DEMO_FLAGS_OFF: FlagName[] = ['furgonetas', 'proporciones', 'seo', 'tarifa_3', 'pvp_3'];

export const DEMO_COMPANY = {
  razon_social: 'Comercial Demo, S.L.',
  nombre_comercial: 'Comercial Demo',
  nif: 'B86420973',
  direccion: 'Calle de Alcalá, 120',
  codigo_postal: '28009',
  poblacion: 'Madrid',
  provincia: 'Madrid',
  telefono: '910 000 000',
  email: 'info@comercialdemo.es',
  logo: null,
  favicon: null,
};

const DEMO_SERIES = [
  { codigo: 'A', descripcion: 'Facturas', tipo: 'normal', activo: 1 },
  { codigo: 'R', descripcion: 'Facturas rectificativas', tipo: 'rectificativa', activo: 1 },
  { codigo: 'T', descripcion: 'Tickets (facturas simplificadas)', tipo: 'simplificada', activo: 1 },
  // Issue 23: the till's returns (R5) in a serie of its own, never the back office's R.
  { codigo: 'TR', descripcion: 'Devoluciones del TPV (rectificativas de tickets)', tipo: 'rectificativa', activo: 1 },
] as const;

export type SeedResult = {
  adminCreated: { email: string; generatedPassword: string | null } | null;
  /** What the demo's generated year holds, when this start generated it. */
  demo: (ResumenDemo & { ms: number }) | null;
};

/**
 * First start only: the demo company with its series and catalogue, and an administrator. Idempotent, and safe
 * when several instances start together (conflicts are ignored).
 */
export async function seed(
  db: Kysely<Database>,
  dialect: DialectName,
  admin: { email: string; password?: string },
  options: { demoStock?: boolean; demo?: { timeZone: string } } = {},
): Promise<SeedResult> {
  const result: SeedResult = { adminCreated: null, demo: null };
  let seeded = false;
  // Every start: the built-in roles as this version defines them.
  await sincronizarRolesPredefinidos(db);

  const hasConfig = await db.selectFrom('configuracion').select('id').limit(1).executeTakeFirst();
  if (!hasConfig) {
    const flags = Object.fromEntries(FLAG_NAMES.map((f) => [CONF_FIELD[f], DEMO_FLAGS_OFF.includes(f) ? 0 : 1]));
    const inserted = await db
      .insertInto('configuracion')
      .values({ id: 1, ...DEMO_COMPANY, ...flags } as never)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (dialect === 'postgres') {
      await sql`select setval(pg_get_serial_sequence('configuracion', 'id'), (select max(id) from configuracion))`.execute(db);
    }
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
      seeded = true;
      await db
        .insertInto('series')
        .values(DEMO_SERIES.map((s) => ({ ...s })))
        .onConflict((oc) => oc.column('codigo').doNothing())
        .execute();
      await seedCatalogo(db, options.demoStock ?? true);
      // Suppliers and customers with the rest of the demo's data (the test fixture, without it, starts with none).
      if (options.demoStock ?? true) {
        await seedCompras(db);
        await seedVentas(db);
      }
    }
  }

  const hasUser = await db.selectFrom('usuarios').select('id').limit(1).executeTakeFirst();
  if (!hasUser) {
    const generated = admin.password ? null : crypto.randomBytes(12).toString('base64url');
    const password = admin.password ?? generated!;
    const inserted = await db
      .insertInto('usuarios')
      .values({
        nombre: 'Administrador',
        email: admin.email.trim().toLowerCase(),
        password_hash: await hashPassword(password),
        activo: 1,
        ultimo_acceso: null,
        creado: nowIso(),
        rol_id: await idRolPredefinido(db, 'administrador'),
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) result.adminCreated = { email: admin.email, generatedPassword: generated };
  }

  // MANAGER_DEMO=0 (issue 22): a live, empty company from the first start — not the demo (verifactu.demo stays 0), its
  // records made for «Producción» (sending stays off until the owner turns it on). The bare test fixture (no demo
  // stock) keeps the table's defaults.
  if (seeded && !options.demo && (options.demoStock ?? true)) {
    await db.updateTable('verifactu').set({ demo: 0, entorno: 'produccion' }).where('id', '=', 1).execute();
  }
  // The demo's past (demo/): only on the start that seeded the company, with its parties and warehouses, in one transaction.
  const demo = options.demo;
  if (seeded && demo && (options.demoStock ?? true)) {
    const t0 = Date.now();
    const resumen = await db.transaction().execute((trx) => generarDemo(trx, dialect, todayIn(demo.timeZone), demo.timeZone));
    // A year written in bulk leaves the planner without statistics: PostgreSQL would plan the reports' first queries
    // for empty tables (a minute instead of 0,2 s) until autovacuum runs; SQLite's planner likes them too.
    await sql`analyze`.execute(db);
    result.demo = { ...resumen, ms: Date.now() - t0 };
  }
  return result;
}
