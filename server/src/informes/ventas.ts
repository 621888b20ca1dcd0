import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { DOCUMENTO_TIPOS, numeroDocumento, vencimientos } from 'shared/domain';
import type { DocumentoTipo } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { todayIn } from '../context.ts';
import { consultar, diasEntre, lista, mesSql, numeros, ordenSql, paginaSql, paginar, porcentaje, sumar } from './comun.ts';
import type { Fila, PaginaInforme, Respuesta } from './comun.ts';
import { lineasVenta } from './lineas-venta.ts';
import { MES_TIPOS, agregadosAlDia } from './agregados.ts';
import { existe } from './tpv.ts';
import type { FiltroVentas } from './lineas-venta.ts';

export const AGRUPAR_VENTAS = ['mes', 'dia', 'cliente', 'articulo', 'familia', 'marca', 'serie', 'terminal', 'usuario', 'almacen', 'tipo', 'documento'] as const;
export type AgruparVentas = (typeof AGRUPAR_VENTAS)[number];

/** Sums of a sales group: the amounts, and each kind of document's base apart (netted, each visible). */
export const COLUMNAS_VENTAS = ['documentos', 'unidades', 'base', 'iva', 'recargo', 'total', 'coste', 'margen', 'facturas', 'rectificativas', 'tickets', 'albaranes', 'partes', 'devoluciones'] as const;
const POR_TIPO: Record<string, string> = {
  factura: 'facturas',
  rectificativa: 'rectificativas',
  ticket: 'tickets',
  albaranventa: 'albaranes',
  parte: 'partes',
  devolucionventa: 'devoluciones',
};

/** The group's key, its id column in the row (what a drill-down filters by) and how it is named. */
const GRUPOS: Record<AgruparVentas, { clave: string; campo: string | null; nombre: string }> = {
  mes: { clave: 'substr(v.fecha, 1, 7)', campo: null, nombre: 'substr(v.fecha, 1, 7)' },
  dia: { clave: 'v.fecha', campo: null, nombre: 'v.fecha' },
  cliente: { clave: 'v.cliente_id', campo: 'cliente_id', nombre: "(select razon_social from clientes c where c.id = v.cliente_id)" },
  articulo: { clave: 'v.articulo_id', campo: 'articulo_id', nombre: "(a.codigo || ' · ' || a.descripcion)" },
  familia: { clave: 'a.familia_id', campo: 'familia_id', nombre: '(select nombre from familias f where f.id = a.familia_id)' },
  marca: { clave: 'a.marca_id', campo: 'marca_id', nombre: '(select nombre from marcas m where m.id = a.marca_id)' },
  serie: { clave: 'v.serie_id', campo: 'serie_id', nombre: '(select codigo from series s where s.id = v.serie_id)' },
  // Tickets and the till's returns carry their terminal (tpv_tickets, the TPV's migration); other documents none.
  terminal: { clave: 'v.terminal_id', campo: 'terminal_id', nombre: 'null' },
  usuario: { clave: 'v.usuario_id', campo: 'usuario_id', nombre: '(select nombre from usuarios u where u.id = v.usuario_id)' },
  almacen: { clave: 'v.almacen_id', campo: 'almacen_id', nombre: '(select nombre from almacenes w where w.id = v.almacen_id)' },
  tipo: { clave: 'v.tipo', campo: 'tipo', nombre: 'v.tipo' },
  documento: { clave: 'v.documento_id', campo: 'documento_id', nombre: 'null' },
};

export type FiltroVentasInforme = FiltroVentas & { articulo_id?: number | null; familia_id?: number | null; marca_id?: number | null };

/**
 * Where a sales report reads: `agregado` (the default) the aggregates kept with the documents (informes/agregados.ts),
 * the per-day table when neither the grouping nor a filter needs the article, else the per document × article one;
 * `detalle` the sales lines derived from the documents (`lineasVenta`) — the same answer, slower («Recalcular» and the
 * tests compare them).
 */
export type Fuente = 'agregado' | 'detalle';

const POR_ARTICULO: readonly AgruparVentas[] = ['articulo', 'familia', 'marca', 'documento'];

/** The document filters on an aggregate table (its columns are the sales lines' own). */
function filtrosAgregado(f: FiltroVentasInforme): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [sql`v.fecha >= ${f.desde}`, sql`v.fecha <= ${f.hasta}`];
  if (f.cliente_id) c.push(sql`v.cliente_id = ${f.cliente_id}`);
  if (f.serie_id) c.push(sql`v.serie_id = ${f.serie_id}`);
  if (f.almacen_id) c.push(sql`v.almacen_id = ${f.almacen_id}`);
  if (f.terminal_id) c.push(sql`v.terminal_id = ${f.terminal_id}`);
  if (f.usuario_id) c.push(sql`v.usuario_id = ${f.usuario_id}`);
  if (f.tipo) c.push(sql`v.tipo = ${f.tipo}`);
  return c;
}

/** The sales lines with the article's filters, aggregated by `agrupar` (one row per group, every group). */
export async function ventasAgrupadas(app: AppContext, f: FiltroVentasInforme, agrupar: AgruparVentas, fuente: Fuente = 'agregado'): Promise<Fila[]> {
  const dialect = app.dialect;
  const g = GRUPOS[agrupar];
  const filtros: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (f.articulo_id) filtros.push(sql`v.articulo_id = ${f.articulo_id}`);
  if (f.familia_id) filtros.push(sql`a.familia_id = ${f.familia_id}`);
  if (f.marca_id) filtros.push(sql`a.marca_id = ${f.marca_id}`);
  const conTerminal = await existe(app, 'tpv_tickets', 'terminal_id');
  const nombreTerminal = conTerminal ? '(select t.nombre from tpv_terminales t where t.id = v.terminal_id)' : 'null';
  const porTipo = Object.entries(POR_TIPO).map(([t, col]) => sql`sum(case when v.tipo = ${t} then v.base else 0 end) as ${sql.ref(col)}`);
  const porArticulo = POR_ARTICULO.includes(agrupar) || !!f.articulo_id || !!f.familia_id || !!f.marca_id;
  if (fuente === 'agregado') await agregadosAlDia(app.db, dialect);
  const origen =
    fuente === 'detalle'
      ? sql`(${lineasVenta(dialect, { ...f, conTerminal })}) v join articulos a on a.id = v.articulo_id`
      : porArticulo
        ? sql`informe_ventas_articulo v join articulos a on a.id = v.articulo_id`
        : sql`informe_ventas_dia v`;
  if (fuente === 'agregado') filtros.push(...filtrosAgregado(f));
  const documentos = fuente === 'agregado' && !porArticulo ? sql`sum(v.documentos)` : sql`count(distinct v.documento_id)`;
  // By article from the aggregate: a row per document × article, so each is one document; grouped first, named after.
  const rows = fuente === 'agregado' && agrupar === 'articulo' && !f.familia_id && !f.marca_id
    ? await consultar(app, sql<Record<string, unknown>>`
    select x.*, (a.codigo || ' · ' || a.descripcion) as nombre from (
      select v.articulo_id as clave, count(*) as documentos,
        sum(v.unidades) as unidades, sum(v.base) as base, sum(v.iva) as iva, sum(v.recargo) as recargo, sum(v.coste) as coste,
        ${sql.join(porTipo)}
      from informe_ventas_articulo v
      where ${sql.join(filtros, sql` and `)}
      group by v.articulo_id) x join articulos a on a.id = x.clave`)
    : await consultar(app, sql<Record<string, unknown>>`
    select ${sql.raw(g.clave)} as clave, max(${sql.raw(agrupar === 'terminal' ? nombreTerminal : g.nombre)}) as nombre, ${documentos} as documentos,
      sum(v.unidades) as unidades, sum(v.base) as base, sum(v.iva) as iva, sum(v.recargo) as recargo, sum(v.coste) as coste,
      ${sql.join(porTipo)}
    from ${origen}
    where ${sql.join(filtros, sql` and `)}
    group by ${sql.raw(g.clave)}`);
  const filas = rows.map((r) => {
    const n = numeros(r, ['clave', 'nombre']);
    const fila: Fila = { clave: n.clave === null ? null : String(n.clave), nombre: n.nombre ?? null };
    if (g.campo) fila[g.campo] = g.campo === 'tipo' ? (n.clave as string) : n.clave === null ? null : Number(n.clave);
    for (const c of COLUMNAS_VENTAS) if (c in n) fila[c] = Number(n[c] ?? 0);
    fila.total = Number(fila.base) + Number(fila.iva) + Number(fila.recargo);
    fila.margen = Number(fila.base) - Number(fila.coste);
    fila.margen_pct = porcentaje(Number(fila.margen), Number(fila.base));
    return fila;
  });
  if (agrupar === 'tipo') for (const f2 of filas) f2.nombre = DOCUMENTO_TIPOS[f2.clave as DocumentoTipo]?.pluralLabel ?? (f2.clave === 'ticket' ? 'Tickets' : String(f2.clave));
  if (agrupar === 'documento') await nombrarDocumentos(app, filas);
  return filas;
}

/** A document row's displayed number, type, date and customer (the drill-down opens it). */
async function nombrarDocumentos(app: AppContext, filas: Fila[]): Promise<void> {
  const ids = filas.map((f) => Number(f.clave)).filter((x) => x > 0);
  const docs = new Map<number, { tipo: string; fecha: string; numero: number | null; ejercicio: number; serie: string | null; cliente: string | null }>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await app.db
      .selectFrom('documentos as d')
      .select(['d.id', 'd.tipo', 'd.fecha', 'd.numero', 'd.ejercicio'])
      .select((eb) => [
        eb.selectFrom('series as s').select('s.codigo').whereRef('s.id', '=', 'd.serie_id').as('serie'),
        eb.selectFrom('clientes as c').select('c.razon_social').whereRef('c.id', '=', 'd.cliente_id').as('cliente'),
      ])
      .where('d.id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) docs.set(r.id, { tipo: r.tipo, fecha: r.fecha, numero: r.numero, ejercicio: Number(r.ejercicio), serie: r.serie, cliente: r.cliente });
  }
  for (const f of filas) {
    const d = docs.get(Number(f.clave));
    if (!d) continue;
    const def = DOCUMENTO_TIPOS[d.tipo as DocumentoTipo];
    f.tipo = d.tipo;
    f.fecha = d.fecha;
    f.numero = numeroDocumento(d.serie ?? def?.prefijo ?? 'T', d.ejercicio, d.numero);
    f.nombre = `${f.numero}${d.cliente ? ` · ${d.cliente}` : ''}`;
  }
}

/** The columns summed per article (and over the whole selection), with each kind of document's base apart. */
const SUMAS_ARTICULO = ['unidades', 'base', 'iva', 'recargo', 'coste', ...Object.values(POR_TIPO)] as const;

/**
 * The sales grouped by article, in SQL (one row per article: `clave` = its id): from the per document × article
 * aggregate (`count(*)` is its documents) or, `detalle`, from the sales lines. The article is joined only when a family
 * or brand filter needs it; the name after paging.
 */
async function ventasPorArticuloSql(app: AppContext, f: FiltroVentasInforme, fuente: Fuente, bajoCoste: boolean): Promise<RawBuilder<unknown>> {
  const filtros: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (f.articulo_id) filtros.push(sql`v.articulo_id = ${f.articulo_id}`);
  if (f.familia_id) filtros.push(sql`a.familia_id = ${f.familia_id}`);
  if (f.marca_id) filtros.push(sql`a.marca_id = ${f.marca_id}`);
  const conArticulo = !!f.familia_id || !!f.marca_id;
  const porTipo = Object.entries(POR_TIPO).map(([t, col]) => sql`sum(case when v.tipo = ${t} then v.base else 0 end) as ${sql.ref(col)}`);
  const sumas = sql`sum(v.unidades) as unidades, sum(v.base) as base, sum(v.iva) as iva, sum(v.recargo) as recargo, sum(v.coste) as coste, ${sql.join(porTipo)}`;
  if (fuente === 'detalle') {
    const conTerminal = await existe(app, 'tpv_tickets', 'terminal_id');
    return sql`select v.articulo_id as clave, count(distinct v.documento_id) as documentos, ${sumas},
        sum(case when v.unidades > 0 and v.base < v.coste then 1 else 0 end) as lineas_bajo_coste
      from (${lineasVenta(app.dialect, { ...f, conTerminal })}) v join articulos a on a.id = v.articulo_id
      where ${sql.join(filtros, sql` and `)} group by v.articulo_id`;
  }
  await agregadosAlDia(app.db, app.dialect);
  const bajo = bajoCoste ? sql`, sum(v.bajo_coste) as lineas_bajo_coste` : sql``;
  const join = conArticulo ? sql`join articulos a on a.id = v.articulo_id` : sql``;
  // Without a filter on the document (customer, serie, user, terminal, type): the whole months from the month table.
  if (!f.cliente_id && !f.serie_id && !f.usuario_id && !f.terminal_id && !f.tipo) {
    const sumasMes = sql.raw(`sum(v.documentos) as documentos, sum(v.unidades) as unidades, sum(v.base) as base, sum(v.iva) as iva, sum(v.recargo) as recargo, sum(v.coste) as coste, ${Object.values(POR_TIPO).map((c) => `sum(v.${c}) as ${c}`).join(', ')}`);
    return sql`select v.articulo_id as clave, ${sumasMes}${bajo}
      from (${ventasArticuloMeses(f)}) v ${join}
      where ${sql.join(filtros, sql` and `)} group by v.articulo_id`;
  }
  filtros.push(...filtrosAgregado(f));
  // Only informearticulos reads the lines below cost (the by-article index covers it too: migration 0026).
  return sql`select v.articulo_id as clave, count(*) as documentos, ${sumas}${bajo}
    from informe_ventas_articulo v ${join}
    where ${sql.join(filtros, sql` and `)} group by v.articulo_id`;
}

/** Whole months of [desde, hasta] (`primero` > `ultimo`: none). */
function mesesEnteros(desde: string, hasta: string): { primero: string; ultimo: string } {
  return {
    primero: desde.slice(8) === '01' ? desde.slice(0, 7) : mesSiguiente(desde.slice(0, 7)),
    ultimo: hasta === finDeMes(hasta) ? hasta.slice(0, 7) : mesAnterior(hasta.slice(0, 7)),
  };
}

/** The units bought in [desde, hasta] as rows (articulo_id, n) to sum: `informe_compras_mes` and the ledger at the edges. */
function comprasMeses(desde: string, hasta: string): RawBuilder<unknown> {
  const { primero, ultimo } = mesesEnteros(desde, hasta);
  const libro = (d: string, antesDe: string) =>
    sql`select articulo_id, cantidad as n from stock_movimientos where fecha >= ${d} and fecha < ${antesDe} and causa = 'compra'`;
  if (primero > ultimo) return libro(desde, `${hasta}~`);
  const partes: RawBuilder<unknown>[] = [sql`select articulo_id, cantidad as n from informe_compras_mes where mes >= ${primero} and mes <= ${ultimo}`];
  if (desde < `${primero}-01`) partes.push(libro(desde, `${primero}-01`));
  const tras = `${mesSiguiente(ultimo)}-01`;
  if (hasta >= tras) partes.push(libro(tras, `${hasta}~`));
  return sql.join(partes, sql` union all `);
}

/** The month after `mes` ('YYYY-MM'). */
function mesSiguiente(mes: string): string {
  const [y, m] = [Number(mes.slice(0, 4)), Number(mes.slice(5, 7))];
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${mes.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`;
}

/** The month before `mes` ('YYYY-MM'). */
function mesAnterior(mes: string): string {
  const [y, m] = [Number(mes.slice(0, 4)), Number(mes.slice(5, 7))];
  return m === 1 ? `${String(y - 1).padStart(4, '0')}-12` : `${mes.slice(0, 4)}-${String(m - 1).padStart(2, '0')}`;
}

/** The last day of `fecha`'s month. */
function finDeMes(fecha: string): string {
  const dias = new Date(Date.UTC(Number(fecha.slice(0, 4)), Number(fecha.slice(5, 7)), 0)).getUTCDate();
  return `${fecha.slice(0, 7)}-${String(dias).padStart(2, '0')}`;
}

/**
 * The sales of [desde, hasta] per article as rows to sum (articulo_id, documentos, the sums, lineas bajo coste and each
 * type's base): the month table (migration 0028) for the whole months of the period, the per document × article rows
 * for the days of a partial month at either edge; the warehouse and article filters inside each part.
 */
export function ventasArticuloMeses(f: FiltroVentasInforme): RawBuilder<unknown> {
  const { primero, ultimo } = mesesEnteros(f.desde, f.hasta);
  const tipos = Object.entries(POR_TIPO).map(([t, col]) => sql`case when tipo = ${t} then base else 0 end as ${sql.ref(col)}`);
  const deDocumentos = (desde: string, antesDe: string | null, hasta: string | null) => {
    const c: RawBuilder<unknown>[] = [sql`fecha >= ${desde}`];
    if (antesDe) c.push(sql`fecha < ${antesDe}`);
    if (hasta) c.push(sql`fecha <= ${hasta}`);
    if (f.almacen_id) c.push(sql`almacen_id = ${f.almacen_id}`);
    if (f.articulo_id) c.push(sql`articulo_id = ${f.articulo_id}`);
    return sql`select articulo_id, 1 as documentos, unidades, base, iva, recargo, coste, bajo_coste, ${sql.join(tipos)}
      from informe_ventas_articulo where ${sql.join(c, sql` and `)}`;
  };
  if (primero > ultimo) return deDocumentos(f.desde, null, f.hasta);
  const c: RawBuilder<unknown>[] = [sql`mes >= ${primero}`, sql`mes <= ${ultimo}`];
  if (f.almacen_id) c.push(sql`almacen_id = ${f.almacen_id}`);
  if (f.articulo_id) c.push(sql`articulo_id = ${f.articulo_id}`);
  // The months grouped by article apart (in the table's key order: no sort on SQLite), so the outer grouping sorts one
  // row per article and month part plus the edges' rows, not every month row.
  const partes: RawBuilder<unknown>[] = [
    sql`select articulo_id, sum(documentos) as documentos, sum(unidades) as unidades, sum(base) as base, sum(iva) as iva, sum(recargo) as recargo,
        sum(coste) as coste, sum(bajo_coste) as bajo_coste,
        ${sql.raw(Object.entries(POR_TIPO).map(([t, col]) => `sum(${MES_TIPOS[t]}) as ${col}`).join(', '))}
      from informe_ventas_articulo_mes where ${sql.join(c, sql` and `)} group by articulo_id`,
  ];
  if (f.desde < `${primero}-01`) partes.push(deDocumentos(f.desde, `${primero}-01`, null));
  const tras = `${mesSiguiente(ultimo)}-01`;
  if (f.hasta >= tras) partes.push(deDocumentos(tras, null, f.hasta));
  return sql.join(partes, sql` union all `);
}

/** What a sales row by article sorts by, over the grouped rows (`paginar`'s columns). */
const ORDEN_ARTICULO: Record<string, string> = {
  clave: 'clave', articulo_id: 'clave', documentos: 'documentos', unidades: 'unidades', base: 'base', iva: 'iva', recargo: 'recargo', coste: 'coste',
  total: '(base + iva + recargo)', margen: '(base - coste)', margen_pct: 'case when base = 0 then null else (base - coste) * 1.0 / base end',
  nombre: "(select a.codigo || ' · ' || a.descripcion from articulos a where a.id = clave)",
  ...Object.fromEntries(Object.values(POR_TIPO).map((c) => [c, c])),
};

/** Σ over the whole selection as window sums of the page's query (`t_<column>`, and `t_n` the rows). */
const totalesVentana = (cols: readonly string[]) => sql.raw(['count(*) over () as t_n', ...cols.map((c) => `sum(${c}) over () as t_${c}`)].join(', '));
const totalesAgregados = (cols: readonly string[]) => sql.raw(['count(*) as t_n', ...cols.map((c) => `sum(${c}) as t_${c}`)].join(', '));

/** informeventas by article: grouped, sorted and paged in the database; the totals in the same pass. */
async function informeVentasPorArticulo(
  app: AppContext,
  f: FiltroVentasInforme,
  paging: PaginaInforme,
  fuente: Fuente,
): Promise<Respuesta> {
  const g = await ventasPorArticuloSql(app, f, fuente, false);
  const orden = ordenSql(ORDEN_ARTICULO, paging, { orden: 'base', dir: 'desc' }, 'clave');
  const rows = await consultar(app, sql<Record<string, unknown>>`
    with g as (${g}), p as (select g.*, ${totalesVentana(SUMAS_ARTICULO)} from g order by ${orden} ${paginaSql(paging)})
    select p.*, (a.codigo || ' · ' || a.descripcion) as nombre from p join articulos a on a.id = p.clave order by ${orden}`);
  const t = numeros(rows[0] ?? (await consultar(app, sql<Record<string, unknown>>`with g as (${g}) select ${totalesAgregados(SUMAS_ARTICULO)} from g`))[0]!);
  const data = rows.map((r) => {
    const n = numeros(r, ['nombre']);
    const fila: Fila = { clave: String(n.clave), nombre: n.nombre ?? null, articulo_id: Number(n.clave), documentos: Number(n.documentos ?? 0) };
    for (const c of COLUMNAS_VENTAS) if (c in n && c !== 'documentos') fila[c] = Number(n[c] ?? 0);
    fila.total = Number(fila.base) + Number(fila.iva) + Number(fila.recargo);
    fila.margen = Number(fila.base) - Number(fila.coste);
    fila.margen_pct = porcentaje(Number(fila.margen), Number(fila.base));
    return fila;
  });
  const totales: Record<string, number | null> = {};
  for (const c of COLUMNAS_VENTAS) if (c !== 'documentos' && c !== 'total' && c !== 'margen') totales[c] = Number(t[`t_${c}`] ?? 0);
  totales.total = totales.base! + totales.iva! + totales.recargo!;
  totales.margen = totales.base! - totales.coste!;
  totales.documentos = null;
  totales.margen_pct = porcentaje(totales.margen, totales.base!);
  return { RESULT: '0', data, total: Number(t.t_n ?? 0), totales };
}

export async function informeVentas(
  app: AppContext,
  f: FiltroVentasInforme,
  agrupar: AgruparVentas,
  paging: PaginaInforme,
  fuente: Fuente = 'agregado',
): Promise<Respuesta> {
  if (agrupar === 'articulo') return informeVentasPorArticulo(app, f, paging, fuente);
  const filas = await ventasAgrupadas(app, f, agrupar, fuente);
  const totales: Record<string, number | null> = sumar(filas, COLUMNAS_VENTAS.filter((c) => c !== 'documentos'));
  // Documents counted once over the whole selection (a document is in several article groups).
  totales.documentos = agrupar === 'mes' || agrupar === 'dia' || agrupar === 'cliente' || agrupar === 'serie' || agrupar === 'usuario' || agrupar === 'almacen' || agrupar === 'tipo' || agrupar === 'documento' || agrupar === 'terminal'
    ? sumar(filas, ['documentos']).documentos!
    : null;
  totales.margen_pct = porcentaje(totales.margen!, totales.base!);
  const porDefecto = agrupar === 'mes' || agrupar === 'dia' ? { orden: 'clave', dir: 'asc' as const } : { orden: 'base', dir: 'desc' as const };
  const { data, total } = paginar(filas, paging, porDefecto);
  return { RESULT: '0', data, total, totales };
}

/** Customers: sales (as informeventas), what is pending to serve and to collect, with ageing at `hasta`. */
export async function informeClientes(
  app: AppContext,
  f: FiltroVentas & { agrupar: 'cliente' | 'mes' | 'anio' },
  paging: PaginaInforme,
  fuente: Fuente = 'agregado',
): Promise<Respuesta> {
  if (f.agrupar !== 'cliente') {
    const filas = await ventasAgrupadas(app, f, 'mes', fuente);
    const porAnio = new Map<string, Fila>();
    for (const r of filas) {
      const k = f.agrupar === 'anio' ? String(r.clave).slice(0, 4) : String(r.clave);
      const acc = porAnio.get(k) ?? { clave: k, nombre: k };
      for (const c of COLUMNAS_VENTAS) acc[c] = Number(acc[c] ?? 0) + Number(r[c] ?? 0);
      porAnio.set(k, acc);
    }
    const agregadas = [...porAnio.values()];
    const { data, total } = paginar(agregadas, paging, { orden: 'clave', dir: 'asc' });
    return { RESULT: '0', data, total, totales: sumar(agregadas, COLUMNAS_VENTAS) };
  }
  const ventas = await ventasAgrupadas(app, f, 'cliente', fuente);
  const hoy = todayIn(app.timeZone);
  const corte = [f.hasta, hoy].sort()[0]!;
  const porCliente = new Map<number, Fila>();
  const fila = (id: number): Fila => {
    let r = porCliente.get(id);
    if (!r) {
      r = { clave: String(id), cliente_id: id, nombre: null, documentos: 0, base: 0, total: 0, coste: 0, margen: 0, devoluciones: 0, pendiente_servir: 0, pendiente_cobro: 0, vencido: 0, facturas_vencidas: 0, tramo_0_30: 0, tramo_31_60: 0, tramo_61_90: 0, tramo_90: 0 };
      porCliente.set(id, r);
    }
    return r;
  };
  for (const v of ventas) {
    if (v.cliente_id === null) continue;
    const r = fila(Number(v.cliente_id));
    for (const c of ['documentos', 'base', 'total', 'coste', 'margen'] as const) r[c] = Number(v[c] ?? 0);
    r.devoluciones = Number(v.devoluciones ?? 0) + Math.min(0, Number(v.rectificativas ?? 0));
  }
  // What is ordered and not yet served (pedidos de venta still open), cents without IVA.
  const filtroCliente = f.cliente_id ? sql`and d.cliente_id = ${f.cliente_id}` : sql``;
  const pendientes = await sql<{ cliente_id: number; importe: string | number }>`
    select d.cliente_id, sum(${sql.raw(app.dialect === 'postgres' ? 'div(2 * l.pendiente * l.precio * (10000 - l.descuento) + 1000000000, 2000000000)' : '(2 * l.pendiente * l.precio * (10000 - l.descuento) + 1000000000) / 2000000000')}) as importe
    from documentos d join documento_lineas l on l.documento_id = d.id
    where d.tipo = 'pedidoventa' and d.estado in ('pendiente', 'confirmado', 'enviado_parcial') and l.pendiente > 0 and d.fecha <= ${f.hasta} ${filtroCliente}
    group by d.cliente_id`.execute(app.db);
  for (const p of pendientes.rows) if (p.cliente_id !== null) fila(p.cliente_id).pendiente_servir = Number(p.importe);
  // Receivables at the period's end: emitted invoices (and rectificativas: refunds owed) unpaid, by age.
  // What is left to collect of each (`por_cobrar`, cobros in parts: migration 0016), as it stands today.
  const deudas = await sql<{ cliente_id: number; fecha: string; forma_pago: string | null; total: string | number }>`
    select d.cliente_id, d.fecha, d.forma_pago, d.por_cobrar as total from documentos d
    where d.tipo in ('factura', 'rectificativa') and d.estado = 'emitida' and d.por_cobrar <> 0 and d.fecha <= ${corte} ${filtroCliente}`.execute(app.db);
  for (const d of deudas.rows) {
    if (d.cliente_id === null) continue;
    const r = fila(d.cliente_id);
    const total = Number(d.total);
    r.pendiente_cobro = Number(r.pendiente_cobro) + total;
    const dias = diasEntre(d.fecha, corte);
    const tramo = dias <= 30 ? 'tramo_0_30' : dias <= 60 ? 'tramo_31_60' : dias <= 90 ? 'tramo_61_90' : 'tramo_90';
    r[tramo] = Number(r[tramo]) + total;
    const vence = vencimientos(d.fecha, d.forma_pago)[0] ?? d.fecha;
    if (vence < corte && total > 0) {
      r.vencido = Number(r.vencido) + total;
      r.facturas_vencidas = Number(r.facturas_vencidas) + 1;
    }
  }
  const ids = [...porCliente.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await app.db.selectFrom('clientes').select(['id', 'razon_social', 'nif', 'provincia']).where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const c of rows) Object.assign(porCliente.get(c.id)!, { nombre: c.razon_social, nif: c.nif, provincia: c.provincia });
  }
  const filas = [...porCliente.values()];
  const cols = ['documentos', 'base', 'total', 'coste', 'margen', 'devoluciones', 'pendiente_servir', 'pendiente_cobro', 'vencido', 'facturas_vencidas', 'tramo_0_30', 'tramo_31_60', 'tramo_61_90', 'tramo_90'];
  const { data, total } = paginar(filas, paging, { orden: 'base', dir: 'desc' });
  return { RESULT: '0', data, total, totales: sumar(filas, cols) };
}

/**
 * Articles: sold (as informeventas by article), bought in the period, stock today, rotation (units sold per unit of
 * stock, hundredths), ABC classes by turnover and by margin (A: the first 80 % of the total, B: up to 95 %, C: the
 * rest) and the lines sold below cost.
 */
export async function informeArticulos(
  app: AppContext,
  f: FiltroVentasInforme & { vista: 'todos' | 'bajo_coste' },
  paging: PaginaInforme,
  fuente: Fuente = 'agregado',
): Promise<Respuesta> {
  const g = await ventasPorArticuloSql(app, f, fuente, true);
  // Units bought in the period: from the documents, one pass over the ledger's date index (it covers the cause and the
  // quantity); from the aggregates, the month table of the ledger's purchases (migration 0028) for the whole months and
  // the ledger for the days of a partial month at either edge (rows ungrouped, so the date index is the one used).
  const compradas =
    fuente === 'detalle'
      ? sql`select m.articulo_id, sum(m.cantidad) as n from stock_movimientos m
    where m.fecha >= ${f.desde} and m.fecha < ${f.hasta + '~'} and m.causa = 'compra' group by m.articulo_id`
      : sql`select u.articulo_id, sum(u.n) as n from (${comprasMeses(f.desde, f.hasta)}) u group by u.articulo_id`;
  // ABC by turnover and by margin: the running sum of the positive values before each row, in descending order (ties
  // by the article's id), against the positive total: A until 80 %, B until 95 %, C the rest (and any row ≤ 0).
  const clase = (col: string, nombre: string) =>
    sql.raw(`case when t_${nombre} = 0 or ${col} <= 0 then 'C' when a_${nombre} * 100 < t_${nombre} * 80 then 'A' when a_${nombre} * 100 < t_${nombre} * 95 then 'B' else 'C' end`);
  const acumulado = (col: string, nombre: string) =>
    sql.raw(`coalesce(sum(case when ${col} > 0 then ${col} else 0 end) over (order by ${col} desc, clave rows between unbounded preceding and 1 preceding), 0) as a_${nombre},
      coalesce(sum(case when ${col} > 0 then ${col} else 0 end) over (), 0) as t_${nombre}`);
  const columnas: Record<string, string> = {
    clave: 'clave', articulo_id: 'clave', codigo: 'codigo', descripcion: 'descripcion', nombre: "(codigo || ' · ' || descripcion)", unidades: 'unidades', base: 'base', coste: 'coste',
    margen: 'margen', margen_pct: 'case when base = 0 then null else margen * 1.0 / base end', unidades_compradas: 'unidades_compradas', stock: 'stock',
    rotacion: 'case when stock > 0 then unidades * 100.0 / stock end', lineas_bajo_coste: 'lineas_bajo_coste', clase_abc: 'clase_abc', clase_margen: 'clase_margen',
  };
  const orden = ordenSql(columnas, paging, { orden: 'base', dir: 'desc' }, 'clave');
  const TOTALES = ['unidades', 'base', 'coste', 'margen', 'unidades_compradas', 'lineas_bajo_coste'] as const;
  const seleccion = sql`
    with g as (${g}),
    c as (select g.clave, g.unidades, g.base, g.coste, g.base - g.coste as margen, g.lineas_bajo_coste, a.codigo, a.descripcion, a.stock_total as stock,
        coalesce(cp.n, 0) as unidades_compradas
      from g join articulos a on a.id = g.clave left join (${compradas}) cp on cp.articulo_id = g.clave),
    w as (select c.*, ${acumulado('base', 'abc')}, ${acumulado('margen', 'margen')} from c),
    s as (select w.*, ${clase('base', 'abc')} as clase_abc, ${clase('margen', 'margen')} as clase_margen from w
      ${f.vista === 'bajo_coste' ? sql`where lineas_bajo_coste > 0` : sql``})`;
  const rows = await consultar(app, sql<Record<string, unknown>>`${seleccion}
    select s.*, ${totalesVentana(TOTALES)} from s order by ${orden} ${paginaSql(paging)}`);
  const t = numeros(rows[0] ?? (await consultar(app, sql<Record<string, unknown>>`${seleccion} select ${totalesAgregados(TOTALES)} from s`))[0]!);
  const data = rows.map((r) => {
    const n = numeros(r, ['codigo', 'descripcion', 'clase_abc', 'clase_margen']);
    const stock = Number(n.stock ?? 0);
    const unidades = Number(n.unidades ?? 0);
    return {
      clave: String(n.clave),
      articulo_id: Number(n.clave),
      codigo: n.codigo ?? null,
      descripcion: n.descripcion ?? null,
      nombre: `${n.codigo} · ${n.descripcion}`,
      unidades,
      base: Number(n.base ?? 0),
      coste: Number(n.coste ?? 0),
      margen: Number(n.margen ?? 0),
      margen_pct: porcentaje(Number(n.margen ?? 0), Number(n.base ?? 0)),
      unidades_compradas: Number(n.unidades_compradas ?? 0),
      stock,
      rotacion: stock > 0 ? Math.round((unidades * 100) / stock) : null,
      lineas_bajo_coste: Number(n.lineas_bajo_coste ?? 0),
      clase_abc: (n.clase_abc as string | null) ?? null,
      clase_margen: (n.clase_margen as string | null) ?? null,
    } satisfies Fila;
  });
  return { RESULT: '0', data, total: Number(t.t_n ?? 0), totales: Object.fromEntries(TOTALES.map((c) => [c, Number(t[`t_${c}`] ?? 0)])) };
}

/** Vans (warehouses marked furgoneta): loads, sales, returns, stock on board and its value at `hasta`, by van, day or driver. */
export async function informeFurgonetas(
  app: AppContext,
  f: { desde: string; hasta: string; almacen_id?: number | null; agrupar: 'furgoneta' | 'dia' | 'conductor' },
  paging: PaginaInforme,
): Promise<Respuesta> {
  const vans = await app.db
    .selectFrom('almacenes as w')
    .leftJoin('usuarios as u', 'u.id', 'w.conductor_id')
    .select(['w.id', 'w.nombre', 'w.matricula', 'w.conductor_id', 'u.nombre as conductor'])
    .where('w.es_furgoneta', '=', 1)
    .$if(!!f.almacen_id, (q) => q.where('w.id', '=', f.almacen_id!))
    .execute();
  if (!vans.length) return { RESULT: '0', data: [], total: 0, totales: { cargas: 0, unidades_vendidas: 0, devoluciones: 0, base: 0, unidades: 0, valor: 0 } };
  const ids = vans.map((v) => v.id);
  const dia = f.agrupar === 'dia';
  const clave = dia ? sql`substr(m.fecha, 1, 10)` : sql`m.almacen_id`;
  const mov = await sql<Record<string, unknown>>`
    select ${clave} as clave, m.almacen_id,
      sum(case when m.causa in ('traspaso', 'movimiento') and m.cantidad > 0 then m.cantidad else 0 end) as cargas,
      sum(case when m.causa in ('traspaso', 'movimiento') and m.cantidad < 0 then -m.cantidad else 0 end) as descargas,
      sum(case when m.causa in ('venta', 'factura', 'parte', 'ticket', 'rectificativa') then -m.cantidad else 0 end) as unidades_vendidas,
      sum(case when m.causa = 'devolucion_venta' then m.cantidad else 0 end) as devoluciones
    from stock_movimientos m
    where m.almacen_id in (${sql.join(ids)}) and m.fecha >= ${f.desde} and m.fecha < ${f.hasta + '~'}
    group by ${clave}, m.almacen_id`.execute(app.db);
  const ventas = await consultar(app, sql<Record<string, unknown>>`
    select ${dia ? sql`v.fecha` : sql`v.almacen_id`} as clave, v.almacen_id, sum(v.base) as base, sum(v.iva + v.recargo) as impuestos, count(distinct v.documento_id) as documentos
    from (${lineasVenta(app.dialect, { desde: f.desde, hasta: f.hasta })}) v where v.almacen_id in (${sql.join(ids)})
    group by ${dia ? sql`v.fecha` : sql`v.almacen_id`}, v.almacen_id`);
  // Stock on board at the period's end, valued at each article's average then.
  const stock = await sql<{ almacen_id: number; unidades: string | number; valor: string | number }>`
    select s.almacen_id, sum(s.unidades) as unidades,
      sum(${sql.raw(app.dialect === 'postgres' ? 'div(2 * s.unidades * coalesce(s.coste, 0) + 100000, 200000)' : '(2 * s.unidades * coalesce(s.coste, 0) + 100000) / 200000')}) as valor
    from (select x.almacen_id, x.articulo_id, x.unidades,
        -- The article's average after its last row by date up to the day (docs/costes.md).
        (select m.coste from stock_movimientos m where m.articulo_id = x.articulo_id and m.fecha < ${f.hasta + '~'} order by m.fecha desc, m.id desc limit 1) as coste
      from (select almacen_id, articulo_id, sum(cantidad) as unidades from stock_movimientos
          where almacen_id in (${sql.join(ids)}) and fecha < ${f.hasta + '~'} group by almacen_id, articulo_id) x) s
    where s.unidades <> 0
    group by s.almacen_id`.execute(app.db);
  const porVan = new Map(vans.map((v) => [v.id, v]));
  const grupos = new Map<string, Fila>();
  const grupo = (k: string, almacen: number): Fila => {
    const van = porVan.get(almacen)!;
    const key = f.agrupar === 'conductor' ? String(van.conductor_id ?? 0) : f.agrupar === 'dia' ? k : String(almacen);
    let r = grupos.get(key);
    if (!r) {
      r = f.agrupar === 'dia'
        ? { clave: key, nombre: key }
        : f.agrupar === 'conductor'
          ? { clave: key, conductor_id: van.conductor_id, nombre: van.conductor ?? 'Sin conductor' }
          : { clave: key, almacen_id: almacen, nombre: van.nombre, matricula: van.matricula, conductor_id: van.conductor_id, conductor: van.conductor };
      Object.assign(r, { cargas: 0, descargas: 0, unidades_vendidas: 0, devoluciones: 0, documentos: 0, base: 0, total: 0, unidades: 0, valor: 0 });
      grupos.set(key, r);
    }
    return r;
  };
  const add = (r: Fila, c: string, v: unknown) => {
    r[c] = Number(r[c] ?? 0) + Number(v ?? 0);
  };
  for (const m of mov.rows) {
    const r = grupo(String(m.clave), Number(m.almacen_id));
    for (const c of ['cargas', 'descargas', 'unidades_vendidas', 'devoluciones']) add(r, c, m[c]);
  }
  for (const v of ventas) {
    const r = grupo(String(v.clave), Number(v.almacen_id));
    add(r, 'documentos', v.documentos);
    add(r, 'base', v.base);
    add(r, 'total', Number(v.base) + Number(v.impuestos));
  }
  if (f.agrupar !== 'dia') {
    for (const van of vans) grupo('', van.id);
    for (const s of stock.rows) {
      const r = grupo('', s.almacen_id);
      add(r, 'unidades', s.unidades);
      add(r, 'valor', s.valor);
    }
  }
  const filas = [...grupos.values()];
  const { data, total } = paginar(filas, paging, { orden: f.agrupar === 'dia' ? 'clave' : 'nombre', dir: 'asc' });
  return { RESULT: '0', data, total, totales: sumar(filas, ['cargas', 'descargas', 'unidades_vendidas', 'devoluciones', 'documentos', 'base', 'total', 'unidades', 'valor']) };
}

export { lista, mesSql };
