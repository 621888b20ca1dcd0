import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { MESSAGES } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { SERIAL_TABLES, TABLES, TABLES_IN_EVERY_BACKUP, TABLE_NAMES } from '../db/tablas.ts';
import type { BaseKind, ColumnKind, TableName } from '../db/tablas.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db/consulta.ts';
import { derivedColumns } from '../catalogo/derivados.ts';
import type { Searchable } from '../catalogo/derivados.ts';
import { DEFAULT_ALMACEN } from '../db/migrations/index.ts';
import { completarRolesRestaurados } from '../auth/roles.ts';
import { protegerRegistrosFiscales, verificarCopia } from '../fiscal/restaurar.ts';
import { cobrosDesdeFechas } from '../documentos/cobros.ts';
import { revalorarPendientes } from '../documentos/coste.ts';
import { recalcularCuentasProveedor } from '../documentos/pagos.ts';
import { fail } from '../errors.ts';
import type { SessionUser } from '../session.ts';

export const BACKUP_FORMAT = 'manager-tpv-backup';
export const BACKUP_VERSION = 1;
/** The largest backup file restaurarcopia reads. */
export const MAX_BACKUP_BYTES = 100 * 1024 * 1024;

/** Columns computed from the others on restore. */
const DERIVED: Partial<Record<TableName, (row: Row) => Row>> = {
  articulos: (row) => ({ ...row, ...derivedColumns(row as Searchable) }),
};

type Row = Record<string, unknown>;

class InvalidBackup extends Error {}

/** A column's value from the backup's JSON, typed for this database; a column the backup lacks takes its default. */
function convert(column: ColumnKind, value: unknown, row: Row): unknown {
  const isNull = value === null || value === undefined;
  if (typeof column === 'object' && 'tipo' in column) {
    if (value === undefined) return typeof column.defecto === 'function' ? column.defecto(row) : column.defecto;
    return convert(column.tipo, value, row);
  }
  const kind: BaseKind = column;
  if (typeof kind === 'object') {
    if (typeof value === 'string' && kind.enum.includes(value)) return value;
    throw new InvalidBackup();
  }
  // A nullable column takes null, or whatever its non-null kind takes.
  const nullable = kind === 'int?' || kind === 'text?';
  if (nullable && isNull) return null;
  if ((kind === 'int0' || kind === 'flag0') && isNull) return 0;
  if (kind === 'flag1' && isNull) return 1;
  switch (kind) {
    case 'int0':
    case 'int?':
    case 'int':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
      throw new InvalidBackup();
    case 'text?':
    case 'text':
      if (typeof value === 'string') return value;
      throw new InvalidBackup();
    case 'flag0':
    case 'flag1':
    case 'flag':
      if (value === 1 || value === true || value === '1') return 1;
      if (value === 0 || value === false || value === '0') return 0;
      throw new InvalidBackup();
    case 'base64':
      if (typeof value === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(value)) return Buffer.from(value, 'base64');
      throw new InvalidBackup();
  }
}

/** Checks the whole file before anything is touched; rows come out typed for this database. */
export function parseBackup(json: unknown): Record<TableName, Row[]> {
  const doc = json as { formato?: unknown; version?: unknown; tablas?: Record<string, unknown> };
  if (!doc || doc.formato !== BACKUP_FORMAT || doc.version !== BACKUP_VERSION || typeof doc.tablas !== 'object' || !doc.tablas) {
    throw new InvalidBackup();
  }
  const out = {} as Record<TableName, Row[]>;
  for (const table of TABLE_NAMES) {
    const rows = doc.tablas[table] ?? (TABLES_IN_EVERY_BACKUP.has(table) ? undefined : []);
    if (!Array.isArray(rows)) throw new InvalidBackup();
    const columns = Object.entries(TABLES[table]) as [string, ColumnKind][];
    const derive = DERIVED[table];
    out[table] = rows.map((row) => {
      if (!row || typeof row !== 'object' || Array.isArray(row)) throw new InvalidBackup();
      const typed = Object.fromEntries(columns.map(([col, kind]) => [col, convert(kind, (row as Row)[col], row as Row)]));
      return derive ? derive(typed) : typed;
    });
  }
  // A backup that would lock everybody out, or leave the company without its record, is refused.
  if (!out.configuracion.length || !out.usuarios.some((u) => u.activo === 1)) throw new InvalidBackup();
  return out;
}

async function dumpTables(db: Kysely<Database>): Promise<Record<TableName, Row[]>> {
  const out = {} as Record<TableName, Row[]>;
  for (const table of TABLE_NAMES) {
    const columns = Object.keys(TABLES[table]);
    // Link tables have no id: by their key, the first two columns.
    const order = 'id' in TABLES[table] ? ['id'] : columns.slice(0, 2);
    const rows = (await db
      .selectFrom(table)
      .select(columns as never[])
      .orderBy(order as never[])
      .execute()) as Row[];
    out[table] = table === 'archivos' ? rows.map((r) => ({ ...r, datos: Buffer.from(r.datos as Uint8Array).toString('base64') })) : rows;
  }
  return out;
}

async function resetSequences(trx: Transaction<Database>): Promise<void> {
  for (const table of SERIAL_TABLES) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(trx);
  }
}

async function restore(
  app: AppContext,
  tables: Record<TableName, Row[]>,
  keepSession: { id: number; email: string; tokenHash: string } | null,
  sinCobros = false,
) {
  await app.db.transaction().execute(async (trx) => {
    // Before anything is deleted: refused if it would lose an issued invoice or a fiscal record.
    await protegerRegistrosFiscales(trx, tables, app.dialect);
    // Nor bring back an issued document or a record other than its records say (fiscal/verificacion.ts).
    await verificarCopia(tables);
    for (const table of [...TABLE_NAMES].reverse()) await trx.deleteFrom(table).execute();
    for (const table of TABLE_NAMES) {
      const rows = tables[table];
      // Small chunks stay below SQLite's bound-parameter limit even for the wide configuracion row.
      for (let i = 0; i < rows.length; i += 100) {
        await trx.insertInto(table).values(rows.slice(i, i + 100) as never).execute();
      }
    }
    if (app.dialect === 'postgres') await resetSequences(trx);
    // The ledger inserted in id order marks the articles with rows dated before others: their costs in date order.
    await revalorarPendientes(trx);
    // A backup from before cobros in parts: each paid document's cobro becomes its row; every account is computed.
    if (sinCobros) await cobrosDesdeFechas(trx);
    // Issue 26: what is owed to suppliers, from their invoices and payments (a backup from before it has none).
    await recalcularCuentasProveedor(trx);
    await completarRolesRestaurados(trx);
    // A backup from before the catalogue has no warehouse: the default one, as a fresh install has.
    if (!tables.almacenes.length) await trx.insertInto('almacenes').values(DEFAULT_ALMACEN).execute();
    await trx.deleteFrom('recuperaciones').execute();
    await trx.deleteFrom('intentos_login').execute();
    // Only the restoring session survives, and only if its user is restored as the same active person.
    const same = keepSession
      ? await trx
          .selectFrom('usuarios')
          .select('id')
          .where('id', '=', keepSession.id)
          .where('email', '=', keepSession.email)
          .where('activo', '=', 1)
          .executeTakeFirst()
      : undefined;
    await trx
      .deleteFrom('sesiones')
      .$if(!!same, (q) => q.where('token_hash', '<>', keepSession!.tokenHash))
      .execute();
  });
  app.config.invalidate();
}

/**
 * The backup file's text (what `copiaseguridad` downloads and the scheduled backups write, copias/programadas.ts): one
 * snapshot, every table as of the same moment; and each table's row count, to check the file read back against.
 */
export async function volcarCopia(app: Pick<AppContext, 'db' | 'dialect'>): Promise<{ body: string; filas: Record<string, number> }> {
  const tx = app.dialect === 'postgres' ? app.db.transaction().setIsolationLevel('repeatable read') : app.db.transaction();
  const tablas = await tx.execute((trx) => dumpTables(trx));
  const body = JSON.stringify({ formato: BACKUP_FORMAT, version: BACKUP_VERSION, creado: nowIso(), tablas });
  return { body, filas: Object.fromEntries(TABLE_NAMES.map((t) => [t, tablas[t].length])) };
}

/**
 * Reads a backup file's text as `restaurarcopia` would, checking every row of every table (parseBackup): the rows per
 * table it would restore. Throws when the file is not a whole, valid backup.
 */
export function leerCopia(texto: string): Record<string, number> {
  const tablas = parseBackup(JSON.parse(texto));
  return Object.fromEntries(TABLE_NAMES.map((t) => [t, tablas[t].length]));
}

/**
 * restaurarcopia: the backup file's rows replace every table's, in one transaction (restore), checked row by row first;
 * a file that is not a whole, valid backup, or whose rows the database refuses, changes nothing. The rows per table.
 */
export async function restaurarCopia(app: AppContext, buffer: Buffer, user: SessionUser | null): Promise<Record<string, number>> {
  let tables: Record<TableName, Row[]>;
  // A backup made before cobros in parts (issue 17) has no `cobros`: they are made from each document's cobro.
  let sinCobros = false;
  try {
    const parsed = JSON.parse(buffer.toString('utf8'));
    sinCobros = !Array.isArray(parsed?.tablas?.cobros);
    tables = parseBackup(parsed);
  } catch {
    throw fail(MESSAGES.invalidBackup, '1', 400);
  }
  try {
    await restore(app, tables, user, sinCobros);
  } catch (err) {
    if (isUniqueViolation(err) || isForeignKeyViolation(err) || isConstraintViolation(err)) throw fail(MESSAGES.invalidBackup, '1', 400);
    throw err;
  }
  return Object.fromEntries(TABLE_NAMES.map((t) => [t, tables[t].length]));
}

function isConstraintViolation(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return code.startsWith('SQLITE_CONSTRAINT') || code.startsWith('23');
}
