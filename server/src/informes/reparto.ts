import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DialectName } from '../db/index.ts';
import { divR } from './comun.ts';

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
export function floorDiv(dialect: DialectName, a: RawBuilder<unknown> | string, b: RawBuilder<unknown> | string): RawBuilder<number> {
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
export const claveLinea = (l: string, d: string) =>
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
export function repartoSql(dialect: DialectName, filas: RawBuilder<unknown>, pasan: readonly string[]): RawBuilder<unknown> {
  const cols = (p: string) => sql.raw(pasan.map((c) => `${p}.${c}`).join(', '));
  const particion = 'partition by grupo, fuente_id, clave';
  // The whole partition as the frame: its sums and its row numbers in one sort (a window per ORDER BY is a sort of its own).
  const todo = 'rows between unbounded preceding and unbounded following';
  // Each line's base (b3) and its IVA's floor and remainder (i1) computed once (`as materialized`: PostgreSQL 12+,
  // SQLite 3.35+): both engines otherwise inline them into what reads them, and their divisions ran again in every
  // expression that uses them (the sort keys, the remainders, the answer). PostgreSQL's `numeric` divisions: 33 s →
  // 18 s for the bench's year on a loaded machine; SQLite: a tenth less CPU.
  const unaVez = 'as materialized';
  const fd = (a: string, b: string) => floorDiv(dialect, a, b);
  const E9 = '1000000000';
  // Cents given to the k-th line (by remainder) of n when the group lacks `falta` after flooring: ⌊falta/n⌋, plus one
  // for the first (falta mod n).
  const extra = (falta: string, n: string, k: string) =>
    sql`(${fd(falta, n)} + (case when ${sql.raw(k)} <= (${sql.raw(falta)}) - ${fd(falta, n)} * (${sql.raw(n)}) then 1 else 0 end))`;
  // The windows sort narrow rows (the share-out's own columns, `k`): SQLite and PostgreSQL sort every column a window's
  // input carries, and the caller's columns (a dozen, with dates and text) made each of the three sorts several times
  // slower («Recalcular informes», issue 25: bench/README.md). The caller's columns join back once, by the rows' key
  // (grupo, fuente_id, linea_id): unique, as the header says.
  return sql`with f as (${filas}),
    g as (${gruposDesglose(dialect, sql`select fuente_id from f`)}),
    b1 as (select k.grupo, k.fuente_id, k.clave, k.linea_id, k.peso, k.tasa_iva, k.tasa_recargo, g.g_base, g.g_iva, g.g_recargo,
        ${fd('k.peso', E9)} as fl
      from f k left join g on g.fuente_id = k.fuente_id and g.clave = k.clave),
    b2 as (select b1.*, sum(fl) over w as s_fl, count(*) over w as n, row_number() over w as k
      from b1 window w as (${sql.raw(particion)} order by peso - fl * ${sql.raw(E9)} desc, linea_id ${sql.raw(todo)})),
    b3 ${sql.raw(unaVez)} (select grupo, fuente_id, clave, linea_id, tasa_iva, tasa_recargo, g_iva, g_recargo, n, cast(case when g_base is null then ${divR(dialect, sql`peso`, sql.raw(E9))}
          else fl + ${extra('g_base - s_fl', 'n', 'k')} end as bigint) as base
      from b2),
    i1 ${sql.raw(unaVez)} (select b3.*, base * tasa_iva as pi, base * tasa_recargo as pr, ${fd('base * tasa_iva', '10000')} as fi, ${fd('base * tasa_recargo', '10000')} as fr from b3),
    i2 as (select i1.*, sum(fi) over wi as s_fi, sum(fr) over wi as s_fr, row_number() over wi as ki,
        max(case when tasa_recargo <> 0 or coalesce(g_recargo, 0) <> 0 then 1 else 0 end) over wi as con_recargo
      from i1 window wi as (${sql.raw(particion)} order by pi - fi * 10000 desc, linea_id ${sql.raw(todo)})),
    -- The order by recargo's remainder only where a group has recargo (a customer in recargo de equivalencia): elsewhere
    -- every line's recargo is 0 whatever its place, and sorting every line again for it was a third of the share-out.
    kr as (select grupo, fuente_id, linea_id, row_number() over (${sql.raw(particion)} order by pr - fr * 10000 desc, linea_id) as kr
      from i2 where con_recargo = 1),
    r as (select i2.grupo, i2.fuente_id, i2.linea_id, base,
        cast(case when g_iva is null then ${divR(dialect, sql`pi`, sql`10000`)} else fi + ${extra('g_iva - s_fi', 'n', 'ki')} end as bigint) as iva,
        cast(case when con_recargo = 0 then 0 when g_recargo is null then ${divR(dialect, sql`pr`, sql`10000`)}
          else fr + ${extra('g_recargo - s_fr', 'n', 'kr.kr')} end as bigint) as recargo
      from i2 left join kr on kr.grupo = i2.grupo and kr.fuente_id = i2.fuente_id and kr.linea_id = i2.linea_id)
    select ${cols('f')}, r.base, r.iva, r.recargo
    from f join r on r.grupo = f.grupo and r.fuente_id = f.fuente_id and r.linea_id = f.linea_id`;
}
