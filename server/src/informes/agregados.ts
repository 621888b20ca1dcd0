import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { DialectName } from '../db/index.ts';
import { TIPOS_VENTA, lineasVenta } from './lineas-venta.ts';

// biome-ignore lint/suspicious/noExplicitAny: the aggregate tables are written in raw SQL, outside the typed schema.
type AnyDb = Kysely<any>;

/**
 * The sales reports' aggregates (docs/informes.md, "Informes · aggregates"; migration 0019): `lineasVenta` — THE definition of a
 * sale — materialised, so a report sums a few thousand rows instead of re-deriving every line (its correlated
 * subqueries: what emitted invoices billed of an albarán, a billed line's inherited cost, a ticket's terminal).
 *
 * - `informe_ventas_articulo`: per document × article (with the document's date, type, serie, warehouse, customer,
 *   user and terminal): units, base, IVA, recargo, cost and the lines sold below cost. The reports by article, family,
 *   brand or document, and any filter on them, read it (a document is counted once per group: `count(distinct)`).
 * - `informe_ventas_dia`: per day × type × serie × warehouse × customer × user × terminal: documents, lines, units,
 *   base, IVA, recargo, cost. Every other grouping reads it (a document is in exactly one of its rows, so its
 *   `documentos` add up).
 * - `informe_ventas_articulo_mes` (migration 0028): the per-document rows per month × article × warehouse (below); and
 *   `informe_compras_mes`, the ledger's purchase entries per month × article × warehouse, kept by the ledger's triggers
 *   (`disparadoresStock(dialect, true)`): informearticulos' units bought.
 *
 * Exact, and kept in the transaction that changes the sales: triggers on documentos, documento_lineas,
 * documento_enlaces and tpv_tickets write the (day, type) each change touches — the document's own and, through the
 * line links, the albaranes an invoice bills and the invoices that bill a line — into `informe_pendientes`; before the
 * transaction commits (the audited transaction's hook, actividad/registro.ts) those days are recomputed from
 * `lineasVenta`. A transaction outside an action (a script, a bulk load) leaves them pending: every report brings them
 * up to date before it reads (`agregadosAlDia`). «Recalcular informes» rebuilds everything and says whether it differed.
 */

export const TABLAS_AGREGADOS = ['informe_ventas_dia', 'informe_ventas_articulo', 'informe_ventas_articulo_mes', 'informe_compras_mes', 'informe_pendientes'] as const;

/**
 * `informe_ventas_articulo_mes` (migration 0028): the per-document × article rows summed per month × article ×
 * warehouse (0: none), each type's base in a column of its own, `documentos` the per-document rows it sums (an article's
 * documents: a document is in one month and one warehouse). The reports by article and informearticulos read it for the
 * whole months of their period (the per-document rows only for the partial months at either edge: `ventasArticuloMeses`
 * in ventas.ts). Kept from the per-document rows in the same transaction: an action's documents by deltas (their old
 * sums per month key out, their new in: one upsert of the differences, `aplicarMeses`), a bulk recompute by re-summing
 * its months whole.
 */
export const MES_TIPOS: Record<string, string> = {
  factura: 'base_factura',
  rectificativa: 'base_rectificativa',
  ticket: 'base_ticket',
  albaranventa: 'base_albaran',
  parte: 'base_parte',
  devolucionventa: 'base_devolucion',
};
const TIPO_DE_COLUMNA: Record<string, string> = Object.fromEntries(Object.entries(MES_TIPOS).map(([t, c]) => [c, t]));
const SUMAS_MES = ['documentos', 'lineas', 'unidades', 'base', 'iva', 'recargo', 'coste', 'bajo_coste', ...Object.values(MES_TIPOS)] as const;
const CLAVE_MES = 'mes, articulo_id, almacen_id';
/** A month row's key and sums from per-document rows `v`, named as the table's columns. */
const selectMes = () =>
  sql.raw(`substr(v.fecha, 1, 7) as mes, v.articulo_id, coalesce(v.almacen_id, 0) as almacen_id, count(*) as documentos, ${['lineas', 'unidades', 'base', 'iva', 'recargo', 'coste', 'bajo_coste']
    .map((c) => `sum(v.${c}) as ${c}`)
    .join(', ')}, ${Object.entries(MES_TIPOS)
    .map(([t, c]) => `sum(case when v.tipo = '${t}' then v.base else 0 end) as ${c}`)
    .join(', ')}`);

/** Whether migration 0028's month table exists (0019's backfill runs this code before it does). */
const conMeses = (db: AnyDb, dialect: DialectName) => existeTabla(db, dialect, 'informe_ventas_articulo_mes');

/** The months `meses` ('YYYY-MM') of the month table summed again from the per-document rows. */
async function sumarMeses(db: AnyDb, meses: readonly string[]): Promise<void> {
  if (!meses.length) return;
  const lista = sql.join(meses.map((m) => sql`${m}`));
  await sql`delete from informe_ventas_articulo_mes where mes in (${lista})`.execute(db);
  const rangos = sql.join(meses.map((m) => sql`(v.fecha >= ${`${m}-01`} and v.fecha <= ${`${m}-31`})`), sql` or `);
  await sql`insert into informe_ventas_articulo_mes (${sql.raw(CLAVE_MES)}, ${sql.raw(SUMAS_MES.join(', '))})
    select ${selectMes()} from informe_ventas_articulo v where ${rangos}
    group by substr(v.fecha, 1, 7), v.articulo_id, coalesce(v.almacen_id, 0)`.execute(db);
}

/** The whole month table rebuilt from the per-document rows (the migration's backfill, Recalcular). */
export async function reconstruirMeses(db: AnyDb): Promise<void> {
  await sql`delete from informe_ventas_articulo_mes`.execute(db);
  await sql`insert into informe_ventas_articulo_mes (${sql.raw(CLAVE_MES)}, ${sql.raw(SUMAS_MES.join(', '))})
    select ${selectMes()} from informe_ventas_articulo v where 1 = 1
    group by substr(v.fecha, 1, 7), v.articulo_id, coalesce(v.almacen_id, 0)`.execute(db);
}

type SumaMes = { clave: [string, number, number]; sumas: number[] };

/** These documents' per-document rows (`filasDe`) summed per month key (mes, articulo_id, almacen_id): what they add to each month row. */
function sumasPorMes(filas: Record<string, string | number | null>[]): Map<string, SumaMes> {
  const out = new Map<string, SumaMes>();
  for (const r of filas) {
    const clave: [string, number, number] = [String(r.fecha).slice(0, 7), Number(r.articulo_id), r.almacen_id === null ? 0 : Number(r.almacen_id)];
    const k = clave.join('|');
    let m = out.get(k);
    if (!m) {
      m = { clave, sumas: SUMAS_MES.map(() => 0) };
      out.set(k, m);
    }
    SUMAS_MES.forEach((c, i) => {
      const tipo = TIPO_DE_COLUMNA[c];
      m.sumas[i]! += c === 'documentos' ? 1 : tipo ? (r.tipo === tipo ? Number(r.base) : 0) : Number(r[c] ?? 0);
    });
  }
  return out;
}

/**
 * The month rows moved by (después − antes) per key, in one upsert per 500 keys sorted as the table's key (two
 * transactions on PostgreSQL lock shared rows in the same order: no deadlock between them), then the rows these
 * documents left without any per-document row deleted.
 */
async function aplicarMeses(db: AnyDb, antes: Map<string, SumaMes>, despues: Map<string, SumaMes>): Promise<void> {
  const filas: { clave: [string, number, number]; delta: number[] }[] = [];
  for (const k of new Set([...antes.keys(), ...despues.keys()])) {
    const a = antes.get(k);
    const d = despues.get(k);
    const delta = SUMAS_MES.map((_, i) => (d?.sumas[i] ?? 0) - (a?.sumas[i] ?? 0));
    if (delta.some((x) => x !== 0)) filas.push({ clave: (a ?? d)!.clave, delta });
  }
  if (!filas.length) return;
  filas.sort((x, y) => x.clave[1] - y.clave[1] || x.clave[0].localeCompare(y.clave[0]) || x.clave[2] - y.clave[2]);
  const suma = sql.raw(SUMAS_MES.map((c) => `${c} = informe_ventas_articulo_mes.${c} + excluded.${c}`).join(', '));
  for (let i = 0; i < filas.length; i += 500) {
    const valores = filas.slice(i, i + 500).map((f) => sql`(${sql.join([...f.clave, ...f.delta].map((x) => sql`${x}`))})`);
    await sql`insert into informe_ventas_articulo_mes (${sql.raw(CLAVE_MES)}, ${sql.raw(SUMAS_MES.join(', '))})
      values ${sql.join(valores)}
      on conflict (articulo_id, mes, almacen_id) do update set ${suma}`.execute(db);
  }
  const menos = filas.filter((f) => f.delta[0]! < 0);
  for (let i = 0; i < menos.length; i += 300) {
    const claves = menos.slice(i, i + 300).map((f) => sql`(articulo_id = ${f.clave[1]} and mes = ${f.clave[0]} and almacen_id = ${f.clave[2]})`);
    await sql`delete from informe_ventas_articulo_mes where documentos = 0 and (${sql.join(claves, sql` or `)})`.execute(db);
  }
}

/** The months ('YYYY-MM') from `desde`'s to `hasta`'s, both included. */
export function mesesEntre(desde: string, hasta: string): string[] {
  const out: string[] = [];
  let [y, m] = [Number(desde.slice(0, 4)), Number(desde.slice(5, 7))];
  const fin = hasta.slice(0, 7);
  for (;;) {
    const k = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    if (k > fin) break;
    out.push(k);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

/** Above this many pending (day, type) pairs, one rebuild of the whole is cheaper than each day apart. */
const MAX_DIAS = 40;

const COLS_DIA = ['fecha', 'tipo', 'serie_id', 'almacen_id', 'cliente_id', 'usuario_id', 'terminal_id'] as const;
const CLAVE_DIA = COLS_DIA.join(', ');

/** Whether the till's `tpv_tickets` exists (the TPV's migration 0014; always, past it). */
async function conTerminal(db: AnyDb): Promise<boolean> {
  try {
    await sql`select terminal_id from tpv_tickets where 1 = 0`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** The per-document × article rows of the sales lines `v` (a `lineasVenta` subquery). */
async function insertarArticulos(db: AnyDb, v: ReturnType<typeof lineasVenta>): Promise<void> {
  await sql`insert into informe_ventas_articulo (documento_id, articulo_id, ${sql.raw(CLAVE_DIA)}, lineas, unidades, base, iva, recargo, coste, bajo_coste)
    select v.documento_id, v.articulo_id, v.fecha, v.tipo, v.serie_id, v.almacen_id, v.cliente_id, v.usuario_id, v.terminal_id,
      count(*), sum(v.unidades), sum(v.base), sum(v.iva), sum(v.recargo), sum(v.coste),
      sum(case when v.unidades > 0 and v.base < v.coste then 1 else 0 end)
    from (${v}) v join articulos a on a.id = v.articulo_id
    group by v.documento_id, v.articulo_id, v.fecha, v.tipo, v.serie_id, v.almacen_id, v.cliente_id, v.usuario_id, v.terminal_id`.execute(db);
}

/** Recomputes the aggregates of the sales dated in [desde, hasta] of type `tipo` (every type when null). */
async function recomputar(db: AnyDb, dialect: DialectName, desde: string, hasta: string, tipo: string | null, terminal: boolean): Promise<void> {
  const donde = tipo ? sql`fecha >= ${desde} and fecha <= ${hasta} and tipo = ${tipo}` : sql`fecha >= ${desde} and fecha <= ${hasta}`;
  await sql`delete from informe_ventas_articulo where ${donde}`.execute(db);
  await insertarArticulos(db, lineasVenta(dialect, { desde, hasta, tipo, conTerminal: terminal }));
  await sumarDias(db, donde);
}

/** Above this many pending documents, recomputing their days whole is cheaper than each document apart. */
const MAX_DOCUMENTOS = 200;

const SUMAS_DIA = ['documentos', 'lineas', 'unidades', 'base', 'iva', 'recargo', 'coste'] as const;
/** A day row's sums from per-document rows, in SUMAS_DIA's order: a document counts once in its day. */
const SUMAS_SQL = sql.raw(
  'count(distinct documento_id) as documentos, sum(lineas) as lineas, sum(unidades) as unidades, sum(base) as base, sum(iva) as iva, sum(recargo) as recargo, sum(coste) as coste',
);

/** The day rows matching `donde` summed again from the per-document rows (one day's sales: a few thousand rows at most). */
async function sumarDias(db: AnyDb, donde: ReturnType<typeof sql>): Promise<void> {
  await sql`delete from informe_ventas_dia where ${donde}`.execute(db);
  await sql`insert into informe_ventas_dia (${sql.raw(CLAVE_DIA)}, ${sql.raw(SUMAS_DIA.join(', '))})
    select ${sql.raw(CLAVE_DIA)}, ${SUMAS_SQL}
    from informe_ventas_articulo where ${donde}
    group by ${sql.raw(CLAVE_DIA)}`.execute(db);
}

type SumaDia = { clave: (string | number | null)[]; sumas: number[] };

/** These documents' per-document rows (a few per document: read once, summed per day and per month key in JavaScript). */
async function filasDe(db: AnyDb, ids: RawBuilder<unknown>): Promise<Record<string, string | number | null>[]> {
  const { rows } = await sql<Record<string, string | number | null>>`
    select documento_id, articulo_id, ${sql.raw(CLAVE_DIA)}, lineas, unidades, base, iva, recargo, coste, bajo_coste
    from informe_ventas_articulo where documento_id in (${ids})`.execute(db);
  return rows;
}

/**
 * The day-row sums of these documents' per-document rows, by day key. A document's rows all share its key, and the
 * number of these documents in a key is what they add to its `documentos`.
 */
function sumasPorDia(filas: Record<string, string | number | null>[]): Map<string, SumaDia> {
  const out = new Map<string, SumaDia & { docs: Set<string> }>();
  for (const r of filas) {
    const clave = COLS_DIA.map((c) => (r[c] === null || r[c] === undefined ? null : c === 'fecha' || c === 'tipo' ? String(r[c]) : Number(r[c])));
    const k = JSON.stringify(clave);
    let d = out.get(k);
    if (!d) {
      d = { clave, sumas: SUMAS_DIA.map(() => 0), docs: new Set() };
      out.set(k, d);
    }
    d.docs.add(String(r.documento_id));
    SUMAS_DIA.forEach((c, i) => {
      if (c !== 'documentos') d.sumas[i]! += Number(r[c] ?? 0);
    });
    d.sumas[0] = d.docs.size;
  }
  return new Map([...out].map(([k, v]) => [k, { clave: v.clave, sumas: v.sumas }]));
}

/**
 * The day rows moved by (después − antes) per key: an existing row updated (and deleted when no document is left in
 * it), a missing one inserted. Exact as long as `antes` were what these documents had added (what Recalcular checks).
 */
async function aplicarDeltas(db: AnyDb, dialect: DialectName, antes: Map<string, SumaDia>, despues: Map<string, SumaDia>): Promise<void> {
  const igual = dialect === 'postgres' ? sql`is not distinct from` : sql`is`;
  for (const k of new Set([...antes.keys(), ...despues.keys()])) {
    const a = antes.get(k);
    const d = despues.get(k);
    const clave = (a ?? d)!.clave;
    const delta = SUMAS_DIA.map((_, i) => (d?.sumas[i] ?? 0) - (a?.sumas[i] ?? 0));
    if (delta.every((x) => x === 0)) continue;
    const donde = sql.join(
      COLS_DIA.map((c, i) => (i < 2 ? sql`${sql.ref(c)} = ${clave[i]}` : sql`${sql.ref(c)} ${igual} ${clave[i] === null ? sql`null` : sql`${clave[i]}`}`)),
      sql` and `,
    );
    const r = await sql`update informe_ventas_dia set ${sql.join(SUMAS_DIA.map((c, i) => sql`${sql.ref(c)} = ${sql.ref(c)} + ${delta[i]}`))} where ${donde}`.execute(db);
    if (Number(r.numAffectedRows ?? 0) === 0) {
      await sql`insert into informe_ventas_dia (${sql.raw(CLAVE_DIA)}, ${sql.raw(SUMAS_DIA.join(', '))})
        values (${sql.join([...clave, ...delta].map((x) => sql`${x}`))})`.execute(db);
    } else if (delta[0]! < 0) {
      await sql`delete from informe_ventas_dia where ${donde} and documentos = 0`.execute(db);
    }
  }
}

/**
 * Recomputes what `informe_pendientes` holds (the documents changed since, and the days they were and are on), inside
 * the caller's transaction. An action touches a few documents: those are recomputed from `lineasVenta` and their days
 * moved by deltas (their old per-document sums out, the new in: `aplicarDeltas`), so a sale costs the same on a quiet day
 * and on the busiest one. A bulk change
 * (more than MAX_DOCUMENTOS) recomputes its days whole. On PostgreSQL an advisory lock per day serialises two
 * transactions summing the same day (both would insert it); sales of different days don't wait for each other.
 */
export async function refrescarAgregados(db: AnyDb, dialect: DialectName): Promise<number> {
  const hay = await sql<{ id: number }>`select id from informe_pendientes limit 1`.execute(db);
  if (!hay.rows.length) return 0;
  const { rows } = await sql<{ fecha: string; tipo: string; documento_id: number | string | null; m: number | string }>`
    select fecha, tipo, documento_id, max(id) as m from informe_pendientes group by fecha, tipo, documento_id`.execute(db);
  if (!rows.length) return 0;
  const hasta = Math.max(...rows.map((r) => Number(r.m)));
  const terminal = await conTerminal(db);
  const ventas = rows.filter((r) => (TIPOS_VENTA as readonly string[]).includes(r.tipo));
  const dias = [...new Map(ventas.map((r) => [`${r.fecha}|${r.tipo}`, { fecha: String(r.fecha), tipo: r.tipo }])).values()].sort((a, b) =>
    a.fecha === b.fecha ? a.tipo.localeCompare(b.tipo) : a.fecha.localeCompare(b.fecha),
  );
  if (dialect === 'postgres') {
    // «Recalcular» takes 140019 exclusively; an action shares it.
    await sql`select pg_advisory_xact_lock_shared(140019)`.execute(db);
    // One lock per day (in a fixed order: no deadlock between two transactions touching the same days).
    for (const d of dias) await sql`select pg_advisory_xact_lock(140019, hashtext(${`${d.fecha}|${d.tipo}`}))`.execute(db);
  }
  const documentos = [...new Set(ventas.filter((r) => r.documento_id !== null).map((r) => Number(r.documento_id)))];
  const sinDocumento = ventas.some((r) => r.documento_id === null);
  const meses = await conMeses(db, dialect);
  if (sinDocumento || documentos.length > MAX_DOCUMENTOS) {
    if (dias.length > MAX_DIAS) {
      await recomputar(db, dialect, dias[0]!.fecha, dias.at(-1)!.fecha, null, terminal);
      if (meses) await sumarMeses(db, mesesEntre(dias[0]!.fecha, dias.at(-1)!.fecha));
    } else {
      for (const d of dias) await recomputar(db, dialect, d.fecha, d.fecha, d.tipo, terminal);
      if (meses) await sumarMeses(db, [...new Set(dias.map((d) => d.fecha.slice(0, 7)))]);
    }
  } else if (documentos.length) {
    const ids = sql.join(documentos.map((id) => sql`${id}`));
    // The day rows by deltas: these documents' old sums out, their new sums in (a day's other tickets untouched);
    // the month rows the same way.
    const antes = await filasDe(db, ids);
    await sql`delete from informe_ventas_articulo where documento_id in (${ids})`.execute(db);
    const v = lineasVenta(dialect, { desde: '0000-01-01', hasta: '9999-12-31', documentos, conTerminal: terminal });
    await insertarArticulos(db, v);
    const despues = await filasDe(db, ids);
    await aplicarDeltas(db, dialect, sumasPorDia(antes), sumasPorDia(despues));
    if (meses) await aplicarMeses(db, sumasPorMes(antes), sumasPorMes(despues));
  }
  await sql`delete from informe_pendientes where id <= ${hasta}`.execute(db);
  return ventas.length;
}

/** Before a report reads: what a transaction outside an action left pending, recomputed (in its own transaction). */
export async function agregadosAlDia(db: AnyDb, dialect: DialectName): Promise<void> {
  const hay = await sql<{ id: number }>`select id from informe_pendientes limit 1`.execute(db);
  if (!hay.rows.length) return;
  await db.transaction().execute((trx) => refrescarAgregados(trx, dialect));
}

/** Every aggregate row, in a fixed order, as text (what «Recalcular» compares before and after). */
async function instantanea(db: AnyDb, meses: boolean): Promise<string[]> {
  const dia = await sql<Record<string, unknown>>`select ${sql.raw(CLAVE_DIA)}, documentos, lineas, unidades, base, iva, recargo, coste from informe_ventas_dia`.execute(db);
  const art = await sql<Record<string, unknown>>`select documento_id, articulo_id, ${sql.raw(CLAVE_DIA)}, lineas, unidades, base, iva, recargo, coste, bajo_coste from informe_ventas_articulo`.execute(db);
  const mes = meses ? await sql<Record<string, unknown>>`select ${sql.raw(CLAVE_MES)}, ${sql.raw(SUMAS_MES.join(', '))} from informe_ventas_articulo_mes`.execute(db) : { rows: [] };
  const texto = (prefijo: string, r: Record<string, unknown>) => `${prefijo}|${Object.values(r).map((x) => (x === null || x === undefined ? '' : String(x).replace(/\.0+$/, ''))).join('|')}`;
  return [...dia.rows.map((r) => texto('d', r)), ...art.rows.map((r) => texto('a', r)), ...mes.rows.map((r) => texto('m', r))].sort();
}

/**
 * «Recalcular informes»: the aggregates rebuilt from the documents, and the stock per warehouse from the ledger, in one
 * transaction; answers how many rows there are and how many differed from what was stored (0: they were exact).
 */
export async function recalcularAgregados(db: AnyDb, dialect: DialectName): Promise<{ filas: number; diferencias: number }> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(140019)`.execute(trx);
    const meses = await conMeses(trx, dialect);
    const compras = await existeTabla(trx, dialect, 'informe_compras_mes');
    const antes = [...(await instantanea(trx, meses)), ...(await stockActual(trx, compras))];
    await reconstruirAgregados(trx, dialect);
    await reconstruirStockAlmacen(trx, dialect);
    const despues = [...(await instantanea(trx, meses)), ...(await stockActual(trx, compras))];
    const a = new Map<string, number>();
    for (const x of antes) a.set(x, (a.get(x) ?? 0) + 1);
    let diferencias = 0;
    for (const x of despues) {
      const n = a.get(x) ?? 0;
      if (n > 0) a.set(x, n - 1);
      else diferencias++;
    }
    for (const n of a.values()) diferencias += n;
    return { filas: despues.length, diferencias };
  });
}

/** Every aggregate rebuilt from the documents, in the caller's transaction (the migration's backfill, Recalcular). */
export async function reconstruirAgregados(db: AnyDb, dialect: DialectName): Promise<void> {
  await sql`delete from informe_pendientes`.execute(db);
  await recomputar(db, dialect, '0000-01-01', '9999-12-31', null, await conTerminal(db));
  if (await conMeses(db, dialect)) await reconstruirMeses(db);
}

/** The SQL that marks (day, type) pending for each change (migration 0019). */
export function disparadoresAgregados(dialect: DialectName): string[] {
  const enVenta = (t: string) => `${t} in (${TIPOS_VENTA.map((x) => `'${x}'`).join(', ')})`;
  // (day, type) of the documents of a line, of the lines it bills, and of the lines that bill it.
  const deLinea = (l: string) => `
    insert into informe_pendientes (fecha, tipo, documento_id) select d.fecha, d.tipo, d.id from documentos d where d.id = ${l}.documento_id and ${enVenta('d.tipo')};
    insert into informe_pendientes (fecha, tipo, documento_id) select pd.fecha, pd.tipo, pd.id from documento_enlaces e join documento_lineas p on p.id = e.padre_linea_id
      join documentos pd on pd.id = p.documento_id where e.linea_id = ${l}.id and ${enVenta('pd.tipo')};
    insert into informe_pendientes (fecha, tipo, documento_id) select cd.fecha, cd.tipo, cd.id from documento_enlaces e join documento_lineas c on c.id = e.linea_id
      join documentos cd on cd.id = c.documento_id where e.padre_linea_id = ${l}.id and ${enVenta('cd.tipo')};`;
  const deEnlace = (e: string) => `
    insert into informe_pendientes (fecha, tipo, documento_id) select d.fecha, d.tipo, d.id from documento_lineas l join documentos d on d.id = l.documento_id
      where l.id in (${e}.linea_id, ${e}.padre_linea_id) and ${enVenta('d.tipo')};`;
  const deDocumento = (d: string) => `
    insert into informe_pendientes (fecha, tipo, documento_id) select ${d}.fecha, ${d}.tipo, ${d}.id where ${enVenta(`${d}.tipo`)};`;
  // A document whose state changes (an invoice emitted or cancelled): the albaranes its lines bill.
  const padres = `
    insert into informe_pendientes (fecha, tipo, documento_id) select pd.fecha, pd.tipo, pd.id from documento_lineas c join documento_enlaces e on e.linea_id = c.id
      join documento_lineas p on p.id = e.padre_linea_id join documentos pd on pd.id = p.documento_id
      where c.documento_id = new.id and ${enVenta('pd.tipo')};`;
  const ticket = (t: string) => `
    insert into informe_pendientes (fecha, tipo, documento_id) select d.fecha, d.tipo, d.id from documentos d where d.id = ${t}.documento_id and ${enVenta('d.tipo')};`;
  const colsDoc = 'estado, fecha, tipo, serie_id, almacen_id, cliente_id, usuario_id, creado_por, con_recargo, factura_id, modo_rectificacion';
  const colsLinea = 'documento_id, articulo_id, cantidad, precio, descuento, tipo_iva, coste_libro';
  if (dialect === 'sqlite') {
    return [
      `create trigger informe_documentos_ai after insert on documentos begin ${deDocumento('new')} end`,
      `create trigger informe_documentos_au after update of ${colsDoc} on documentos begin ${deDocumento('old')} ${deDocumento('new')}
        ${padres.replace(/;\s*$/, ' and old.estado is not new.estado;')} end`,
      `create trigger informe_documentos_ad after delete on documentos begin ${deDocumento('old')} end`,
      `create trigger informe_lineas_ai after insert on documento_lineas begin ${deLinea('new')} end`,
      `create trigger informe_lineas_au after update of ${colsLinea} on documento_lineas begin ${deLinea('old')} ${deLinea('new')} end`,
      `create trigger informe_lineas_ad after delete on documento_lineas begin ${deLinea('old')} end`,
      `create trigger informe_enlaces_ai after insert on documento_enlaces begin ${deEnlace('new')} end`,
      `create trigger informe_enlaces_au after update on documento_enlaces begin ${deEnlace('old')} ${deEnlace('new')} end`,
      `create trigger informe_enlaces_ad after delete on documento_enlaces begin ${deEnlace('old')} end`,
      `create trigger informe_tickets_ai after insert on tpv_tickets begin ${ticket('new')} end`,
      `create trigger informe_tickets_au after update of terminal_id, documento_id on tpv_tickets begin ${ticket('old')} ${ticket('new')} end`,
      `create trigger informe_tickets_ad after delete on tpv_tickets begin ${ticket('old')} end`,
    ];
  }
  const funcion = (nombre: string, cuerpo: string) => `create or replace function ${nombre}() returns trigger language plpgsql as $$
    begin ${cuerpo} return null; end $$`;
  const segun = (ins: string, upd: string, del: string) => `
    if tg_op = 'INSERT' then ${ins}
    elsif tg_op = 'UPDATE' then ${upd}
    else ${del}
    end if;`;
  return [
    funcion('informe_documentos', segun(deDocumento('new'), `${deDocumento('old')} ${deDocumento('new')}
      if old.estado is distinct from new.estado then ${padres} end if;`, deDocumento('old'))),
    `create trigger informe_documentos after insert or update of ${colsDoc} or delete on documentos for each row execute function informe_documentos()`,
    funcion('informe_lineas', segun(deLinea('new'), `${deLinea('old')} ${deLinea('new')}`, deLinea('old'))),
    `create trigger informe_lineas after insert or update of ${colsLinea} or delete on documento_lineas for each row execute function informe_lineas()`,
    funcion('informe_enlaces', segun(deEnlace('new'), `${deEnlace('old')} ${deEnlace('new')}`, deEnlace('old'))),
    `create trigger informe_enlaces after insert or update or delete on documento_enlaces for each row execute function informe_enlaces()`,
    funcion('informe_tickets', segun(ticket('new'), `${ticket('old')} ${ticket('new')}`, ticket('old'))),
    `create trigger informe_tickets after insert or update of terminal_id, documento_id or delete on tpv_tickets for each row execute function informe_tickets()`,
  ];
}

/**
 * The stock of each article in each warehouse as it stands (`stock_almacen`, migration 0019): the ledger's sum and its
 * last row's date, kept by triggers on stock_movimientos in the statement that writes the row. «Stock hoy» reads it
 * instead of summing the ledger.
 */
export function disparadoresStock(dialect: DialectName, compras = false): string[] {
  const mayor = dialect === 'postgres' ? 'greatest' : 'max';
  // With `compras` (migration 0028): the units bought per month × article × warehouse too (`informe_compras_mes`:
  // the ledger's purchase entries, `movimientos` how many; a row left with none deleted).
  const sumarCompra = (r: string) =>
    compras
      ? `
    insert into informe_compras_mes (mes, articulo_id, almacen_id, movimientos, cantidad)
      select substr(${r}.fecha, 1, 7), ${r}.articulo_id, ${r}.almacen_id, 1, ${r}.cantidad where ${r}.causa = 'compra'
      on conflict (mes, articulo_id, almacen_id) do update set movimientos = informe_compras_mes.movimientos + 1,
        cantidad = informe_compras_mes.cantidad + excluded.cantidad;`
      : '';
  const restarCompra = (r: string) =>
    compras
      ? `
    update informe_compras_mes set movimientos = movimientos - 1, cantidad = cantidad - ${r}.cantidad
      where ${r}.causa = 'compra' and mes = substr(${r}.fecha, 1, 7) and articulo_id = ${r}.articulo_id and almacen_id = ${r}.almacen_id;
    delete from informe_compras_mes
      where ${r}.causa = 'compra' and mes = substr(${r}.fecha, 1, 7) and articulo_id = ${r}.articulo_id and almacen_id = ${r}.almacen_id and movimientos = 0;`
      : '';
  const sumar = (r: string) => `
    insert into stock_almacen (articulo_id, almacen_id, cantidad, ultimo) values (${r}.articulo_id, ${r}.almacen_id, ${r}.cantidad, ${r}.fecha)
      on conflict (articulo_id, almacen_id) do update set cantidad = stock_almacen.cantidad + excluded.cantidad,
        ultimo = ${mayor}(coalesce(stock_almacen.ultimo, excluded.ultimo), excluded.ultimo);${sumarCompra(r)}`;
  // The last date is looked up again only when the row that goes was the last one (a whole ledger deleted in id order,
  // a restore, stays linear).
  const restar = (r: string) => `
    update stock_almacen set cantidad = cantidad - ${r}.cantidad,
        ultimo = case when ultimo is null or ${r}.fecha >= ultimo
          then (select max(m.fecha) from stock_movimientos m where m.articulo_id = ${r}.articulo_id and m.almacen_id = ${r}.almacen_id)
          else ultimo end
      where articulo_id = ${r}.articulo_id and almacen_id = ${r}.almacen_id;${restarCompra(r)}`;
  const cols = `articulo_id, almacen_id, cantidad, fecha${compras ? ', causa' : ''}`;
  if (dialect === 'sqlite') {
    return [
      `create trigger stock_almacen_ai after insert on stock_movimientos begin ${sumar('new')} end`,
      `create trigger stock_almacen_au after update of ${cols} on stock_movimientos begin ${restar('old')} ${sumar('new')} end`,
      `create trigger stock_almacen_ad after delete on stock_movimientos begin ${restar('old')} end`,
    ];
  }
  return [
    `create or replace function stock_almacen() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${sumar('new')}
        elsif tg_op = 'UPDATE' then ${restar('old')} ${sumar('new')}
        else ${restar('old')}
        end if;
        return null;
      end $$`,
    `create trigger stock_almacen after insert or update of ${cols} or delete on stock_movimientos for each row execute function stock_almacen()`,
  ];
}

/** Whether a table exists (a later migration's, which an earlier one's backfill runs this code before). */
export async function existeTabla(db: AnyDb, dialect: DialectName, tabla: string): Promise<boolean> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ n: number | string }>`select count(*) as n from pg_catalog.pg_tables where tablename = ${tabla} and schemaname = current_schema()`.execute(db)
      : await sql<{ n: number | string }>`select count(*) as n from sqlite_master where type = 'table' and name = ${tabla}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

/** The stock per article and warehouse as `stock_almacen` holds it (its positions other than 0), as text. */
async function stockActual(db: AnyDb, compras: boolean): Promise<string[]> {
  const { rows } = await sql<{ articulo_id: number; almacen_id: number; cantidad: string; ultimo: string | null }>`
    select articulo_id, almacen_id, cast(cantidad as text) as cantidad, ultimo from stock_almacen where cantidad <> 0`.execute(db);
  const out = rows.map((r) => `s|${r.articulo_id}|${r.almacen_id}|${r.cantidad}|${r.ultimo ?? ''}`);
  if (compras) {
    const c = await sql<{ mes: string; articulo_id: number; almacen_id: number; movimientos: string; cantidad: string }>`
      select mes, articulo_id, almacen_id, cast(movimientos as text) as movimientos, cast(cantidad as text) as cantidad from informe_compras_mes`.execute(db);
    for (const r of c.rows) out.push(`c|${r.mes}|${r.articulo_id}|${r.almacen_id}|${r.movimientos}|${r.cantidad}`);
  }
  return out;
}

/**
 * `stock_almacen` rebuilt from the ledger (the migration's backfill; Recalcular; the demo's bulk load), and with
 * `dialect` the units bought per month (`informe_compras_mes`, migration 0028) when it exists.
 */
export async function reconstruirStockAlmacen(db: AnyDb, dialect?: DialectName): Promise<void> {
  await sql`delete from stock_almacen`.execute(db);
  await sql`insert into stock_almacen (articulo_id, almacen_id, cantidad, ultimo)
    select articulo_id, almacen_id, sum(cantidad), max(fecha) from stock_movimientos group by articulo_id, almacen_id`.execute(db);
  if (dialect && (await existeTabla(db, dialect, 'informe_compras_mes'))) await reconstruirComprasMes(db);
}

/** `informe_compras_mes` rebuilt from the ledger's purchase entries. */
export async function reconstruirComprasMes(db: AnyDb): Promise<void> {
  await sql`delete from informe_compras_mes`.execute(db);
  await sql`insert into informe_compras_mes (mes, articulo_id, almacen_id, movimientos, cantidad)
    select substr(fecha, 1, 7), articulo_id, almacen_id, count(*), sum(cantidad) from stock_movimientos where causa = 'compra'
    group by substr(fecha, 1, 7), articulo_id, almacen_id`.execute(db);
}

export { CLAVE_DIA };
