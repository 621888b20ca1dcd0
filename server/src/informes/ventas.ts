import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { DOCUMENTO_TIPOS, numeroDocumento, vencimientos } from 'shared/domain';
import type { DocumentoTipo } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { todayIn } from '../context.ts';
import { consultar, diasEntre, lista, mesSql, numeros, paginar, porcentaje, sumar } from './comun.ts';
import type { Fila, Respuesta } from './comun.ts';
import { lineasVenta } from './lineas-venta.ts';
import { agregadosAlDia } from './agregados.ts';
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

export async function informeVentas(
  app: AppContext,
  f: FiltroVentasInforme,
  agrupar: AgruparVentas,
  paging: { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null },
  fuente: Fuente = 'agregado',
): Promise<Respuesta> {
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
  paging: { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null },
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
  paging: { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null },
  fuente: Fuente = 'agregado',
): Promise<Respuesta> {
  const ventas = await ventasAgrupadas(app, f, 'articulo', fuente);
  const dialect = app.dialect;
  const ids = ventas.map((v) => Number(v.articulo_id));
  const extra = new Map<number, { codigo: string; descripcion: string; stock: number; compradas: number; bajo: number }>();
  // Units bought in the period: one pass over the ledger's date index (it covers the cause and the quantity).
  const compradas = new Map<number, number>();
  if (ids.length) {
    const rows = await consultar(app, sql<{ articulo_id: number; n: string | number }>`
      select m.articulo_id, sum(m.cantidad) as n from stock_movimientos m
      where m.fecha >= ${f.desde} and m.fecha < ${f.hasta + '~'} and m.causa = 'compra' group by m.articulo_id`);
    for (const r of rows) compradas.set(Number(r.articulo_id), Number(r.n));
  }
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const { rows } = await sql<{ id: number; codigo: string; descripcion: string; stock_total: number }>`
      select a.id, a.codigo, a.descripcion, a.stock_total from articulos a where a.id in (${sql.join(chunk)})`.execute(app.db);
    for (const r of rows) extra.set(r.id, { codigo: r.codigo, descripcion: r.descripcion, stock: Number(r.stock_total), compradas: compradas.get(r.id) ?? 0, bajo: 0 });
  }
  // Lines sold below their cost (base < coste on a positive line).
  if (ids.length) {
    const rows =
      fuente === 'detalle'
        ? await consultar(app, sql<{ articulo_id: number; n: number | string }>`
      select v.articulo_id, count(*) as n from (${lineasVenta(dialect, f)}) v where v.unidades > 0 and v.base < v.coste group by v.articulo_id`)
        : await consultar(app, sql<{ articulo_id: number; n: number | string }>`
      select v.articulo_id, sum(v.bajo_coste) as n from informe_ventas_articulo v where ${sql.join(filtrosAgregado(f), sql` and `)} and v.bajo_coste > 0 group by v.articulo_id`);
    for (const r of rows) {
      const e = extra.get(r.articulo_id);
      if (e) e.bajo = Number(r.n);
    }
  }
  const filas = ventas.map((v) => {
    const e = extra.get(Number(v.articulo_id));
    const stock = e?.stock ?? 0;
    return {
      clave: v.clave,
      articulo_id: v.articulo_id,
      codigo: e?.codigo ?? null,
      descripcion: e?.descripcion ?? null,
      nombre: v.nombre,
      unidades: v.unidades,
      base: v.base,
      coste: v.coste,
      margen: v.margen,
      margen_pct: v.margen_pct,
      unidades_compradas: e?.compradas ?? 0,
      stock,
      rotacion: stock > 0 ? Math.round((Number(v.unidades) * 100) / stock) : null,
      lineas_bajo_coste: e?.bajo ?? 0,
      clase_abc: null as string | null,
      clase_margen: null as string | null,
    } satisfies Fila;
  });
  clasificar(filas, 'base', 'clase_abc');
  clasificar(filas, 'margen', 'clase_margen');
  const seleccion = f.vista === 'bajo_coste' ? filas.filter((r) => r.lineas_bajo_coste > 0) : filas;
  const { data, total } = paginar(seleccion, paging, { orden: 'base', dir: 'desc' });
  return { RESULT: '0', data, total, totales: sumar(seleccion, ['unidades', 'base', 'coste', 'margen', 'unidades_compradas', 'lineas_bajo_coste']) };
}

/** ABC by a column: rows by it descending, A until 80 % of the positive total, B until 95 %, C the rest. */
function clasificar(filas: Fila[], col: string, destino: string): void {
  const orden = [...filas].sort((a, b) => Number(b[col]) - Number(a[col]));
  const todo = orden.reduce((s, r) => s + Math.max(0, Number(r[col])), 0);
  let acumulado = 0;
  for (const r of orden) {
    const v = Math.max(0, Number(r[col]));
    const antes = acumulado;
    acumulado += v;
    r[destino] = todo === 0 || v === 0 ? 'C' : antes < todo * 0.8 ? 'A' : antes < todo * 0.95 ? 'B' : 'C';
  }
}

/** Vans (warehouses marked furgoneta): loads, sales, returns, stock on board and its value at `hasta`, by van, day or driver. */
export async function informeFurgonetas(
  app: AppContext,
  f: { desde: string; hasta: string; almacen_id?: number | null; agrupar: 'furgoneta' | 'dia' | 'conductor' },
  paging: { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null },
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
      sum(${sql.raw(app.dialect === 'postgres' ? 'div(2 * s.unidades * coalesce(c.coste, 0) + 100000, 200000)' : '(2 * s.unidades * coalesce(c.coste, 0) + 100000) / 200000')}) as valor
    from (select almacen_id, articulo_id, sum(cantidad) as unidades from stock_movimientos
          where almacen_id in (${sql.join(ids)}) and fecha < ${f.hasta + '~'} group by almacen_id, articulo_id) s
    left join (select m.articulo_id, m.coste from stock_movimientos m
          where m.id in (select max(id) from stock_movimientos where fecha < ${f.hasta + '~'} group by articulo_id)) c on c.articulo_id = s.articulo_id
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
