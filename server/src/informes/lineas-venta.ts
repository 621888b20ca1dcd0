import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DialectName } from '../db/index.ts';
import { IVA_RATE, RECARGO_RATE } from 'shared/domain';
import { divR, lista, tasaSql } from './comun.ts';
import { claveLinea, repartoSql } from './reparto.ts';

/**
 * THE sales of a period, one row per line, each counted once (docs/informes.md, "Informes · what a sale is"):
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
export const TIPOS_VENTA = ['factura', 'rectificativa', 'ticket', 'albaranventa', 'devolucionventa', 'parte'] as const;

export type FiltroVentas = {
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
export const TICKET_FUERA_DE_LIBROS = ['anulada', 'anulado', 'borrador', 'facturado'] as const;

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
export function lineasVenta(dialect: DialectName, f: FiltroVentas): RawBuilder<unknown> {
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
