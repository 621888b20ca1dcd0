import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { DialectName } from '../../index.ts';

/**
 * FROZEN — history, never edited (server/README.md, «Migrations»). The reports' aggregates and their triggers as
 * migrations 0019_agregados_informes, 0028_ventas_articulo_mes and 0046_cifras_documentos built and backfilled them:
 * copied on 2026-11-29 at commit 9ad9f41 from
 * - server/src/informes/agregados.ts: the triggers (`disparadoresAgregados`, `disparadoresStock`) and the rebuilds
 *   (`reconstruirAgregados`, `reconstruirMeses`, `reconstruirStockAlmacen`, `reconstruirComprasMes`) with what they call;
 * - server/src/informes/lineas-venta.ts: `lineasVenta`, what a sale was;
 * - server/src/informes/reparto.ts: `repartoSql`, the documents' desglose shared out to the lines;
 * - server/src/informes/comun.ts: `divR`, `lista`, `tasaSql`;
 * - shared/src/domain/catalogo.ts `IVA_RATE` and shared/src/domain/documentos.ts `RECARGO_RATE`;
 * unchanged but for the imports and what the migrations do not call (the live refresh after an action, Recalcular's
 * comparison). The live reports may change what a sale is; these migrations keep what they did.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

// ── shared/src/domain: the rates (hundredths of a percent) ──

/** Rate in hundredths of a percent: 21 % → 2100. Exempt operations are not a 0 % rate, but carry no IVA. */
const IVA_RATE: Record<string, bigint> = {
  '21': 2100n, '10': 1000n, '4': 400n, exento: 0n, tabaco: 2100n,
  igic_0: 0n, igic_3: 300n, igic_7: 700n, igic_9_5: 950n, igic_15: 1500n, igic_20: 2000n,
  ipsi_0_5: 50n, ipsi_1: 100n, ipsi_2: 200n, ipsi_4: 400n, ipsi_8: 800n, ipsi_10: 1000n,
};

/** Recargo de equivalencia per IVA rate, hundredths of a percent: 5,2 / 1,4 / 0,5 %, and 1,75 % for tobacco. */
const RECARGO_RATE: Record<string, bigint> = {
  '21': 520n, '10': 140n, '4': 50n, exento: 0n, tabaco: 175n,
  igic_0: 0n, igic_3: 0n, igic_7: 0n, igic_9_5: 0n, igic_15: 0n, igic_20: 0n,
  ipsi_0_5: 0n, ipsi_1: 0n, ipsi_2: 0n, ipsi_4: 0n, ipsi_8: 0n, ipsi_10: 0n,
};

// ── server/src/informes/comun.ts ──

function tasaSql(columna: string, tasas: Readonly<Record<string, bigint>>): RawBuilder<number> {
  const ramas = Object.entries(tasas)
    .filter(([, v]) => v !== 0n)
    .map(([k, v]) => `when '${k.replace(/'/g, "''")}' then ${v}`);
  return sql.raw(`(case ${columna} ${ramas.join(' ')} else 0 end)`);
}

function divR(dialect: DialectName, a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<number> {
  const q = (x: RawBuilder<unknown>) => (dialect === 'postgres' ? sql`div(${x}, 2 * (${b}))` : sql`((${x}) / (2 * (${b})))`);
  return sql<number>`(case when (${a}) >= 0 then ${q(sql`2 * (${a}) + (${b})`)} else -${q(sql`-2 * (${a}) + (${b})`)} end)`;
}

/** SQL IN list of literals. */
const lista = (xs: readonly string[]) => sql.join(xs.map((x) => sql`${x}`));

// ── server/src/informes/reparto.ts ──

/**
 * Issue 25, «one set of figures»: every amount a report shows is the documents' own — their desglose as stored (base,
 * IVA and recargo per rate or operation, rounded once per group by calcularTotales, or from the IVA-inclusive total of
 * a ticket by totalesTicket) — shared out to the lines only where a report needs lines (by article, family, brand).
 * The share is a largest-remainder allocation in integer cents, so that the lines of each group of a document add up
 * to the group, and the document's lines to the document, exactly:
 *
 * - base: each line's exact net (scale 11: cantidad × precio × (10000 − descuento)) floored to cents; the cents the
 *   group's stored base has beyond their sum go one each to the lines with the largest remainders (ties: the lower
 *   line id), as many rounds as needed (a stored base that differs by more cents than there are lines: a ticket's base
 *   taken out of its IVA-inclusive total);
 * - IVA and recargo: the same over each line's allocated base × its rate (ten-thousandths), to the group's stored IVA
 *   and recargo.
 *
 * A line whose group the desglose does not have (never from a stored document) keeps its own rounding: its net
 * half-up, its IVA and recargo from that. The one place this is written; informeventas (lineasVenta, and so the
 * aggregates) and informecompras use it.
 */

/** ⌊a ÷ b⌋ for b > 0, any sign of a, both integer SQL expressions. */
function floorDiv(dialect: DialectName, a: RawBuilder<unknown> | string, b: RawBuilder<unknown> | string): RawBuilder<number> {
  const x = typeof a === 'string' ? sql.raw(a) : a;
  const y = typeof b === 'string' ? sql.raw(b) : b;
  return dialect === 'postgres'
    ? sql<number>`(case when (${x}) >= 0 then div(${x}, ${y}) else -div(-(${x}) + (${y}) - 1, ${y}) end)`
    : sql<number>`(case when (${x}) >= 0 then (${x}) / (${y}) else -((-(${x}) + (${y}) - 1) / (${y})) end)`;
}

/**
 * The group key of a document line as calcularTotales makes it: its rate without an operation, 'S1:' + rate for S1,
 * else its operation; a ticket's lines (totalesTicket) by rate alone. `l` the line's alias, `d` the document's.
 */
const claveLinea = (l: string, d: string) =>
  sql.raw(`(case when ${d}.tipo = 'ticket' or ${l}.operacion is null then ${l}.tipo_iva when ${l}.operacion = 'S1' then 'S1:' || ${l}.tipo_iva else ${l}.operacion end)`);

/** The groups of the stored desgloses of the documents whose id `ids` (an SQL subquery) lists: fuente_id, clave, g_base, g_iva, g_recargo. */
function gruposDesglose(dialect: DialectName, ids: RawBuilder<unknown>): RawBuilder<unknown> {
  const campo = (k: string) => sql.raw(`cast(j.value ->> '${k}' as bigint)`);
  const clave = sql.raw(
    "(case when j.value ->> 'operacion' is null then j.value ->> 'tipo_iva' when j.value ->> 'operacion' = 'S1' then 'S1:' || (j.value ->> 'tipo_iva') else j.value ->> 'operacion' end)",
  );
  const desde =
    dialect === 'postgres'
      ? sql`documentos dg cross join lateral json_array_elements(cast(dg.desglose as json)) as j(value)`
      : sql`documentos dg, json_each(dg.desglose) j`;
  return sql`select dg.id as fuente_id, ${clave} as clave, ${campo('base')} as g_base, ${campo('iva')} as g_iva, coalesce(${campo('recargo')}, 0) as g_recargo
    from ${desde} where dg.id in (${ids}) and dg.desglose is not null and dg.desglose <> ''`;
}

/**
 * The rows `filas` (an SQL subquery) with `base`, `iva` and `recargo` (cents) added: the stored desglose of each row's
 * `fuente_id` shared out as the header says. `filas` has the columns `grupo` (the document the rows are summed for: a
 * rectificativa by substitution shares out its own desglose and, negated by the caller, the one of the invoice it
 * replaces), `fuente_id` (the document whose desglose is shared), `linea_id` (unique within a grupo × fuente), `clave`
 * (claveLinea), `peso` (the exact net, scale 11, signed as the document stores it), `tasa_iva` and `tasa_recargo`
 * (ten-thousandths: 0 where the line carries none), and the `pasan` columns, which the answer keeps.
 */
function repartoSql(dialect: DialectName, filas: RawBuilder<unknown>, pasan: readonly string[]): RawBuilder<unknown> {
  const cols = (p: string) => sql.raw(pasan.map((c) => `${p}.${c}`).join(', '));
  const particion = 'partition by grupo, fuente_id, clave';
  const fd = (a: string, b: string) => floorDiv(dialect, a, b);
  const E9 = '1000000000';
  // Cents given to the k-th line (by remainder) of n when the group lacks `falta` after flooring: ⌊falta/n⌋, plus one
  // for the first (falta mod n).
  const extra = (falta: string, n: string, k: string) =>
    sql`(${fd(falta, n)} + (case when ${sql.raw(k)} <= (${sql.raw(falta)}) - ${fd(falta, n)} * (${sql.raw(n)}) then 1 else 0 end))`;
  return sql`with f as (${filas}),
    g as (${gruposDesglose(dialect, sql`select fuente_id from f`)}),
    b1 as (select f.*, g.g_base, g.g_iva, g.g_recargo,
        ${fd('f.peso', E9)} as fl
      from f left join g on g.fuente_id = f.fuente_id and g.clave = f.clave),
    b2 as (select b1.*, sum(fl) over (${sql.raw(particion)}) as s_fl, count(*) over (${sql.raw(particion)}) as n,
        row_number() over (${sql.raw(particion)} order by peso - fl * ${sql.raw(E9)} desc, linea_id) as k
      from b1),
    b3 as (select b2.*, cast(case when g_base is null then ${divR(dialect, sql`peso`, sql.raw(E9))}
          else fl + ${extra('g_base - s_fl', 'n', 'k')} end as bigint) as base
      from b2),
    i1 as (select b3.*, base * tasa_iva as pi, base * tasa_recargo as pr, ${fd('base * tasa_iva', '10000')} as fi, ${fd('base * tasa_recargo', '10000')} as fr from b3),
    i2 as (select i1.*, sum(fi) over (${sql.raw(particion)}) as s_fi, sum(fr) over (${sql.raw(particion)}) as s_fr,
        row_number() over (${sql.raw(particion)} order by pi - fi * 10000 desc, linea_id) as ki,
        row_number() over (${sql.raw(particion)} order by pr - fr * 10000 desc, linea_id) as kr
      from i1)
    select ${cols('i2')}, base,
      cast(case when g_iva is null then ${divR(dialect, sql`pi`, sql`10000`)} else fi + ${extra('g_iva - s_fi', 'n', 'ki')} end as bigint) as iva,
      cast(case when g_recargo is null then ${divR(dialect, sql`pr`, sql`10000`)} else fr + ${extra('g_recargo - s_fr', 'n', 'kr')} end as bigint) as recargo
    from i2`;
}

// ── server/src/informes/lineas-venta.ts ──

/**
 * THE sales of a period, one row per line, each counted once (README, "Informes · what a sale is"):
 * - facturas and rectificativas once emitted (drafts are not sales yet, anuladas never were), tickets unless anulados
 *   or Facturados: a ticket replaced by a full invoice (F3, facturarticket) leaves the books and its F3 carries the sale
 *   (its lines' cost is the ticket's, line by line: the ticket moved the goods);
 *   a rectificativa by substitution also takes back the lines of the invoice it replaces (negated, at its own date);
 * - albaranes de venta and devoluciones de venta (negative) still Pendiente and partes de trabajo Finalizados (not
 *   Facturados) for what no emitted invoice has billed yet (their quantity less the links from emitted invoice lines), so
 *   an invoiced albarán counts once, as its invoice. (One whose every line a draft invoice takes is Finalizado: it
 *   counts again once that invoice is emitted.)
 * Per line: `unidades` (thousandths, signed), `base` (cents, the line's net rounded half-up), `iva` and `recargo` (the
 * base × the rate, rounded), `coste` (cents: the average cost the ledger had when the goods left — the line's own
 * ledger rows, or those of the albarán / parte / devolución line it bills, in proportion — `stock_movimientos.coste`,
 * else the article's precio_compra for rows before any valued entry; services move no stock and cost 0).
 */

const FACTURAS = ['factura', 'rectificativa'];
const TIPOS_VENTA = ['factura', 'rectificativa', 'ticket', 'albaranventa', 'devolucionventa', 'parte'] as const;

type FiltroVentas = {
  desde: string;
  hasta: string;
  cliente_id?: number | null;
  serie_id?: number | null;
  almacen_id?: number | null;
  usuario_id?: number | null;
  tipo?: string | null;
  terminal_id?: number | null;
  /** Only these documents (the aggregates' refresh after an action). */
  documentos?: readonly number[];
  /** Whether the till's `tpv_tickets` exists (the TPV's migration): then each line carries its document's terminal. */
  conTerminal?: boolean;
};

// Only a line subject and not exempt (S1, or no operation: before issue 16) carries IVA and recargo; S2, E1–E6, N1–N2 none.
// Every type's rate: IGIC's and IPSI's (a Canary or Ceuta/Melilla company), tobacco's 21 % + 1,75 % (migration 0027).
const IVA = sql`(case when coalesce(l.operacion, 'S1') <> 'S1' then 0 else ${tasaSql('l.tipo_iva', IVA_RATE)} end)`;
const RECARGO = sql`(case when d.con_recargo = 1 and coalesce(l.operacion, 'S1') = 'S1' then ${tasaSql('l.tipo_iva', RECARGO_RATE)} else 0 end)`;

/**
 * The terminal of a till's document (a ticket, or its return), from the till's side of it; an F3 (a factura naming
 * the ticket it replaces) is its ticket's terminal's sale (issue 23: the sale moves from the ticket to the F3, not
 * out of the terminal).
 */
const terminalDe = (d: string) => sql`coalesce((select tt.terminal_id from tpv_tickets tt where tt.documento_id = ${sql.ref(`${d}.id`)}),
  (case when ${sql.ref(`${d}.tipo`)} = 'factura' and ${sql.ref(`${d}.factura_id`)} is not null
    then (select tt.terminal_id from tpv_tickets tt where tt.documento_id = ${sql.ref(`${d}.factura_id`)} and tt.tipo = 'ticket') end))`;

/** Cents of a line's own ledger rows (`coste_libro`, ten-millionths, kept by the ledger's trigger), null when it moved nothing. */
const costePropio = (dialect: DialectName, l: string) => divR(dialect, sql.ref(`${l}.coste_libro`), sql`100000`);

/** Cents of a line: its own rows, else the billed parents' rows in proportion to the units it takes of each. */
const costeLinea = (dialect: DialectName) => {
  const padre = divR(dialect, sql`coalesce(${costePropio(dialect, 'p')}, 0) * e.cantidad`, sql`(case when p.cantidad = 0 then 1 else abs(p.cantidad) end)`);
  const heredado = sql`(select sum(${padre}) from documento_enlaces e join documento_lineas p on p.id = e.padre_linea_id where e.linea_id = l.id)`;
  return sql`coalesce(${costePropio(dialect, 'l')}, ${heredado}, 0)`;
};

/** Units of a delivery line already billed by emitted invoices (links from their lines). */
const facturado = sql`coalesce((select sum(e.cantidad) from documento_enlaces e join documento_lineas c on c.id = e.linea_id
  join documentos cd on cd.id = c.documento_id where e.padre_linea_id = l.id and cd.tipo in (${lista(FACTURAS)}) and cd.estado = 'emitida'), 0)`;

/** The ticket states that are not a sale: never issued, cancelled, or replaced by a full invoice (F3) that carries it. */
const TICKET_FUERA_DE_LIBROS = ['anulada', 'anulado', 'borrador', 'facturado'] as const;

/**
 * Cents of an F3's line (a factura naming the ticket it replaces, `d.factura_id`): the replaced ticket's line in the same
 * place (facturarticket copies them in order), whose ledger rows hold the goods' cost. Null for any other document.
 */
const costeSustituido = (dialect: DialectName) => sql`(case when d.tipo = 'factura' and d.factura_id is not null then
  (select ${costePropio(dialect, 'tl')} from documento_lineas tl join documentos td on td.id = tl.documento_id
    where tl.documento_id = d.factura_id and td.tipo = 'ticket' and tl.orden = l.orden) end)`;

/**
 * The sales lines (subquery text) with: documento_id, tipo, fecha, cliente_id, serie_id, almacen_id, usuario_id,
 * articulo_id, linea_id, unidades, base, iva, recargo, coste (cost in cents ×1e5 precision is already rounded).
 */
function lineasVenta(dialect: DialectName, f: FiltroVentas): RawBuilder<unknown> {
  const docFiltros = (d: string) => {
    const c: RawBuilder<unknown>[] = [sql`${sql.ref(`${d}.fecha`)} >= ${f.desde}`, sql`${sql.ref(`${d}.fecha`)} <= ${f.hasta}`];
    if (f.documentos) c.push(f.documentos.length ? sql`${sql.ref(`${d}.id`)} in (${sql.join(f.documentos.map((id) => sql`${id}`))})` : sql`1 = 0`);
    if (f.cliente_id) c.push(sql`${sql.ref(`${d}.cliente_id`)} = ${f.cliente_id}`);
    if (f.serie_id) c.push(sql`${sql.ref(`${d}.serie_id`)} = ${f.serie_id}`);
    if (f.almacen_id) c.push(sql`${sql.ref(`${d}.almacen_id`)} = ${f.almacen_id}`);
    if (f.terminal_id) c.push(f.conTerminal ? sql`${terminalDe(d)} = ${f.terminal_id}` : sql`1 = 0`);
    if (f.usuario_id) c.push(sql`coalesce(${sql.ref(`${d}.usuario_id`)}, ${sql.ref(`${d}.creado_por`)}) = ${f.usuario_id}`);
    return sql.join(c, sql` and `);
  };
  const tipos = (ts: readonly string[]) => (f.tipo ? ts.filter((t) => t === f.tipo) : ts);
  const columnas = (d: string) =>
    sql`${sql.ref(`${d}.id`)} as documento_id, ${sql.ref(`${d}.tipo`)} as tipo, ${sql.ref(`${d}.fecha`)} as fecha, ${sql.ref(`${d}.cliente_id`)} as cliente_id,
      ${sql.ref(`${d}.serie_id`)} as serie_id, ${sql.ref(`${d}.almacen_id`)} as almacen_id,
      coalesce(${sql.ref(`${d}.usuario_id`)}, ${sql.ref(`${d}.creado_por`)}) as usuario_id, ${f.conTerminal ? terminalDe(d) : sql`null`} as terminal_id,
      l.articulo_id, l.id as linea_id`;
  const partes: RawBuilder<unknown>[] = [];
  // Each part's rows: the columns above, `unidades`, `coste`, and what the desglose's share-out needs (reparto.ts):
  // `grupo` (the document), `fuente_id` (whose desglose), `clave`, `peso` (the whole line's exact net), the rates, and
  // `signo` × `parte_num` / `parte_den`: the part of the line's share the row counts (negated, or an albarán's unbilled rest).
  const peso = sql`l.cantidad * l.precio * (10000 - l.descuento)`;

  // Facturas, rectificativas (emitted) and tickets: whole lines.
  const fiscales = tipos(['factura', 'rectificativa', 'ticket']);
  if (fiscales.length) {
    partes.push(sql`select ${columnas('d')}, l.cantidad as unidades, coalesce(${costeSustituido(dialect)}, ${costeLinea(dialect)}) as coste,
        d.id as grupo, d.id as fuente_id, ${claveLinea('l', 'd')} as clave, ${peso} as peso, ${IVA} as tasa_iva, ${RECARGO} as tasa_recargo,
        1 as signo, 1 as parte_num, 1 as parte_den
      from documentos d join documento_lineas l on l.documento_id = d.id
      where d.tipo in (${lista(fiscales)}) and ${docFiltros('d')}
        and ((d.tipo <> 'ticket' and d.estado = 'emitida') or (d.tipo = 'ticket' and d.estado not in (${lista(TICKET_FUERA_DE_LIBROS)})))`);
  }
  // A rectificativa by substitution replaces the invoice it corrects: that invoice's lines, negated, at its date (their
  // cost stays: the rectificativa's own ledger rows hold only the difference), with that invoice's desglose.
  if (tipos(['rectificativa']).length) {
    partes.push(sql`select ${columnas('d')}, -l.cantidad as unidades, 0 as coste,
        d.id as grupo, d.factura_id as fuente_id, ${claveLinea('l', 'o')} as clave, ${peso} as peso, ${IVA} as tasa_iva, ${RECARGO} as tasa_recargo,
        -1 as signo, 1 as parte_num, 1 as parte_den
      from documentos d join documentos o on o.id = d.factura_id join documento_lineas l on l.documento_id = o.id
      where d.tipo = 'rectificativa' and d.estado = 'emitida' and d.modo_rectificacion = 'sustitucion' and ${docFiltros('d')}`);
  }
  // Delivered, not yet billed by an emitted invoice: the line's share of its document's desglose, in proportion to the
  // units not billed (every line shares the desglose out; those wholly billed are left out after).
  const entregas = tipos(['albaranventa', 'parte', 'devolucionventa']);
  if (entregas.length) {
    const resto = sql`(abs(l.cantidad) - ${facturado})`;
    const signo = sql`(case when d.tipo = 'devolucionventa' then -1 else 1 end)`;
    partes.push(sql`select documento_id, tipo, fecha, cliente_id, serie_id, almacen_id, usuario_id, terminal_id, articulo_id, linea_id,
        signo * resto as unidades, ${divR(dialect, sql`coste_linea * resto`, sql`(case when cantidad = 0 then 1 else abs(cantidad) end)`)} as coste,
        documento_id as grupo, documento_id as fuente_id, clave, peso, tasa_iva, tasa_recargo,
        signo, resto as parte_num, (case when cantidad = 0 then 1 else abs(cantidad) end) as parte_den
      from (select ${columnas('d')}, ${signo} as signo, ${resto} as resto, l.cantidad, ${claveLinea('l', 'd')} as clave, ${peso} as peso,
          ${IVA} as tasa_iva, ${RECARGO} as tasa_recargo, coalesce(${costePropio(dialect, 'l')}, 0) as coste_linea
        from documentos d join documento_lineas l on l.documento_id = d.id
        where d.tipo in (${lista(entregas)}) and ${docFiltros('d')}
          and d.estado = (case when d.tipo = 'parte' then 'finalizado' else 'pendiente' end)) x`);
  }
  if (!partes.length) return sql`select null as documento_id, null as tipo, null as fecha, null as cliente_id, null as serie_id, null as almacen_id,
    null as usuario_id, null as terminal_id, null as articulo_id, null as linea_id, 0 as unidades, 0 as base, 0 as iva, 0 as recargo, 0 as coste where 1 = 0`;
  const union = sql.join(partes, sql` union all `);
  const COLS = ['documento_id', 'tipo', 'fecha', 'cliente_id', 'serie_id', 'almacen_id', 'usuario_id', 'terminal_id', 'articulo_id', 'linea_id', 'unidades', 'coste'];
  const parte = (c: string) =>
    sql`(case when parte_num = parte_den then signo * ${sql.raw(c)} else signo * ${divR(dialect, sql`${sql.raw(c)} * parte_num`, sql`parte_den`)} end)`;
  return sql`select documento_id, tipo, fecha, cliente_id, serie_id, almacen_id, usuario_id, terminal_id, articulo_id, linea_id, unidades,
      ${parte('base')} as base, ${parte('iva')} as iva, ${parte('recargo')} as recargo, coste
    from (${repartoSql(dialect, union, [...COLS, 'signo', 'parte_num', 'parte_den'])}) r
    where parte_num > 0`;
}

// ── server/src/informes/agregados.ts ──

/**
 * `informe_ventas_articulo_mes` (migration 0028): the per-document × article rows summed per month × article ×
 * warehouse (0: none), each type's base in a column of its own, `documentos` the per-document rows it sums (an article's
 * documents: a document is in one month and one warehouse). The reports by article and informearticulos read it for the
 * whole months of their period (the per-document rows only for the partial months at either edge: `ventasArticuloMeses`
 * in ventas.ts). Kept from the per-document rows in the same transaction: an action's documents by deltas (their old
 * sums per month key out, their new in: one upsert of the differences, `aplicarMeses`), a bulk recompute by re-summing
 * its months whole.
 */
const MES_TIPOS: Record<string, string> = {
  factura: 'base_factura',
  rectificativa: 'base_rectificativa',
  ticket: 'base_ticket',
  albaranventa: 'base_albaran',
  parte: 'base_parte',
  devolucionventa: 'base_devolucion',
};
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

/** The whole month table rebuilt from the per-document rows (the migration's backfill, Recalcular). */
export async function reconstruirMeses(db: AnyDb): Promise<void> {
  await sql`delete from informe_ventas_articulo_mes`.execute(db);
  await sql`insert into informe_ventas_articulo_mes (${sql.raw(CLAVE_MES)}, ${sql.raw(SUMAS_MES.join(', '))})
    select ${selectMes()} from informe_ventas_articulo v where 1 = 1
    group by substr(v.fecha, 1, 7), v.articulo_id, coalesce(v.almacen_id, 0)`.execute(db);
}

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
