import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { Schema } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { todayIn } from '../context.ts';
import type { DialectName } from '../db/index.ts';
import { fail } from '../errors.ts';

/**
 * What every report shares (docs/informes.md): the period, paging and sorting of the aggregated rows, the answer's
 * shape (`data` the page, `totales` the whole selection, `total` the number of rows).
 */

export const PAGINA_MAX = 10_000;

/** Period, paging and sorting: every report takes them. */
export const baseSchema = {
  desde: { type: 'date' },
  hasta: { type: 'date' },
  pagina: { type: 'int', min: 1, max: 1_000_000 },
  /** Any size up to 10.000 (the CSV and PDF ask for the whole selection at once). */
  porPagina: { type: 'int', min: 1, max: PAGINA_MAX },
  orden: { type: 'string', max: 40 },
  dir: { type: 'enum', values: ['asc', 'desc'] },
} as const satisfies Schema;

export const idFiltro = { type: 'int', min: 1 } as const;

export type Fila = Record<string, string | number | null>;

export type Respuesta = { RESULT: '0'; data: Fila[]; total: number; totales: Record<string, number | string | null>; message?: string };

/** The period asked, or this month up to today; 400 when it ends before it starts. */
export function periodo(app: AppContext, input: { desde: string | null; hasta: string | null }): { desde: string; hasta: string } {
  const hoy = todayIn(app.timeZone);
  const desde = input.desde ?? `${hoy.slice(0, 7)}-01`;
  const hasta = input.hasta ?? hoy;
  if (hasta < desde) throw fail('La fecha «hasta» no puede ser anterior a «desde»', '1', 400);
  return { desde, hasta };
}

/** The day after a 'YYYY-MM-DD' (the ledger's `fecha` may be a timestamp: `fecha < siguiente` takes the whole day). */
export function diaSiguiente(fecha: string): string {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Days between two 'YYYY-MM-DD' (b − a). */
export function diasEntre(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** The collators the sort uses, made once (`localeCompare` with a locale builds one per call: thousands per sort). */
const ES = new Intl.Collator('es');
const DEFECTO = new Intl.Collator();

/** Sorts the rows by a column they have (else `porDefecto`), then the page; ties by `clave` so pages are stable. */
export function paginar(
  filas: Fila[],
  input: { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null },
  porDefecto: { orden: string; dir: 'asc' | 'desc' },
): { data: Fila[]; total: number } {
  // Own properties only: `orden=__proto__` or `constructor` is not a column (issue 24: a prototype key reached sql.raw).
  const orden = input.orden && filas.length && Object.hasOwn(filas[0]!, input.orden) ? input.orden : porDefecto.orden;
  const dir = (input.dir ?? (input.orden ? 'asc' : porDefecto.dir)) === 'desc' ? -1 : 1;
  const cmp = (a: Fila, b: Fila) => {
    const x = a[orden] ?? null;
    const y = b[orden] ?? null;
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
    return ES.compare(String(x), String(y)) * dir;
  };
  const ordenadas = [...filas].sort((a, b) => cmp(a, b) || DEFECTO.compare(String(a.clave ?? ''), String(b.clave ?? '')));
  const porPagina = input.porPagina ?? 50;
  const desde = ((input.pagina ?? 1) - 1) * porPagina;
  return { data: ordenadas.slice(desde, desde + porPagina), total: filas.length };
}

/** Σ of these numeric columns over the rows (the whole selection). */
export function sumar(filas: Fila[], columnas: readonly string[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(columnas.map((c) => [c, 0]));
  for (const f of filas) for (const c of columnas) out[c]! += Number(f[c] ?? 0);
  return out;
}

/* The costs a role without «ver costes» doesn't get are taken out of every answer by the dispatcher (auth/costes.ts). */

/** Numbers of a query's row (PostgreSQL answers sums as numeric text): every value that looks like an integer. */
export function numeros<T extends Record<string, unknown>>(row: T, texto: readonly string[] = []): Fila {
  const out: Fila = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined) out[k] = null;
    else if (texto.includes(k)) out[k] = String(v);
    else if (typeof v === 'number') out[k] = v;
    else if (typeof v === 'bigint') out[k] = Number(v);
    else if (typeof v === 'string' && /^-?\d+(\.0+)?$/.test(v)) out[k] = Number(v.replace(/\.0+$/, ''));
    else out[k] = v as string;
  }
  return out;
}

/** a ÷ b rounded half away from zero, b > 0, both integer SQL expressions (any sign for a). */
/**
 * A line's tax rate as SQL (hundredths of a percent) from its type column, for every type the catalogue has —
 * IGIC's, IPSI's and tobacco's too (`IVA_RATE`, `RECARGO_RATE`) —; 0 for an exempt or unknown one.
 */
export function tasaSql(columna: string, tasas: Readonly<Record<string, bigint>>): RawBuilder<number> {
  const ramas = Object.entries(tasas)
    .filter(([, v]) => v !== 0n)
    .map(([k, v]) => `when '${k.replace(/'/g, "''")}' then ${v}`);
  return sql.raw(`(case ${columna} ${ramas.join(' ')} else 0 end)`);
}

export function divR(dialect: DialectName, a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<number> {
  const q = (x: RawBuilder<unknown>) => (dialect === 'postgres' ? sql`div(${x}, 2 * (${b}))` : sql`((${x}) / (2 * (${b})))`);
  return sql<number>`(case when (${a}) >= 0 then ${q(sql`2 * (${a}) + (${b})`)} else -${q(sql`-2 * (${a}) + (${b})`)} end)`;
}

/** Percentage in hundredths (margin over sales), null when the base is 0. */
export const porcentaje = (parte: number, todo: number): number | null => (todo === 0 ? null : Math.round((parte * 10000) / todo));

/** 'YYYY-MM' of a date column, both engines. */
export const mesSql = (col: string) => sql<string>`substr(${sql.ref(col)}, 1, 7)`;

/** SQL IN list of literals. */
export const lista = (xs: readonly string[]) => sql.join(xs.map((x) => sql`${x}`));

/**
 * Runs a report's query: on PostgreSQL in a read transaction with JIT off (the reports' correlated subqueries pass
 * the JIT's cost threshold, and compiling them costs seconds, far more than running them).
 */
export async function consultar<R>(app: AppContext, q: RawBuilder<R>): Promise<R[]> {
  if (app.dialect !== 'postgres') return (await q.execute(app.db)).rows;
  return app.db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return (await q.execute(trx)).rows;
  });
}

/**
 * The ORDER BY of a report paged in SQL, as `paginar` sorts in memory: the asked column when the report has it (else
 * the default), nulls last in both directions, ties by the key as text ascending (stable pages). `columnas` maps each
 * sortable column to its SQL expression over the grouped rows. Text sorts by the database's collation (binary), not
 * Spanish (`paginar`): accents sort after the plain letters.
 */
export function ordenSql(
  columnas: Record<string, string>,
  input: { orden: string | null; dir: string | null },
  porDefecto: { orden: string; dir: 'asc' | 'desc' },
  clave: string,
): RawBuilder<unknown> {
  const orden = input.orden && Object.hasOwn(columnas, input.orden) ? input.orden : porDefecto.orden;
  const dir = (input.dir ?? (input.orden ? 'asc' : porDefecto.dir)) === 'desc' ? 'desc' : 'asc';
  const expr = columnas[orden]!;
  return sql.raw(`(${expr}) is null, ${expr} ${dir}, cast(${clave} as text) asc`);
}

/** LIMIT / OFFSET of a page (`porPagina` 50 by default). */
export function paginaSql(input: { pagina: number | null; porPagina: number | null }): RawBuilder<unknown> {
  const porPagina = input.porPagina ?? 50;
  return sql`limit ${porPagina} offset ${((input.pagina ?? 1) - 1) * porPagina}`;
}

/** `valorar` in SQL: value in cents of `u` (thousandths) at `c` (ten-thousandths), half away from zero. */
export function valorarSql(dialect: DialectName, u: string, c: string): string {
  const v = `(${u}) * (${c})`;
  return dialect === 'postgres'
    ? `(case when ${v} >= 0 then div(2 * ${v} + 100000, 200000) else -div(-2 * ${v} + 100000, 200000) end)`
    : `(case when ${v} >= 0 then (2 * ${v} + 100000) / 200000 else -((-2 * ${v} + 100000) / 200000) end)`;
}
