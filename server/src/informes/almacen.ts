import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { DOCUMENTO_TIPOS, numeroDocumento } from 'shared/domain';
import type { DocumentoTipo, ModuleFlags } from 'shared/domain';
import type { AppContext } from '../context.ts';
import type { DialectName } from '../db/index.ts';
import { consultar, diaSiguiente, diasEntre, numeros, ordenSql, paginaSql, paginar, porcentaje, valorarSql } from './comun.ts';
import type { Fila, Respuesta } from './comun.ts';

type Paging = { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null };

/** Value in cents of `unidades` (thousandths) at `coste` (ten-thousandths), half-up. */
export const valorar = (unidades: bigint, coste: bigint): bigint => {
  const v = unidades * coste;
  const q = (2n * (v < 0n ? -v : v) + 100_000n) / 200_000n;
  return v < 0n ? -q : q;
};

const CAUSAS_VENTA = ['venta', 'factura', 'parte', 'ticket', 'rectificativa', 'devolucion_venta'];

/** Named on SQLite: the index by article (0029: also `fecha`) would otherwise be taken and every row of the article read. */
const porUltimaCompra = (dialect: DialectName) => (dialect === 'sqlite' ? sql`indexed by stock_movimientos_ultima_compra` : sql``);

/**
 * The last price actually paid for the article `a` (ten-thousandths): its latest purchase entry in the ledger (before
 * `enFecha`'s date when given), null when it was never bought. informeinventario and informetarifas («Último precio»).
 */
export const ultimaCompraSql = (dialect: DialectName, enFecha: RawBuilder<unknown> = sql``) =>
  sql`(select m.precio from stock_movimientos m ${porUltimaCompra(dialect)} where m.articulo_id = a.id and m.causa = 'compra' and m.cantidad > 0 and m.precio > 0 ${enFecha} order by m.id desc limit 1)`;

/**
 * Stock and its value at the end of `fecha` (docs/informes.md, "Informes · stock at a date"): the ledger's rows up to that day
 * summed per article and warehouse; each article valued at the average cost of its last ledger row (by date, then id) up to that day
 * (`stock_movimientos.coste`, the average the ledger had after it; its precio_compra before any valued entry) and at
 * its last purchase price then (the last `compra` entry's price, else precio_compra).
 *
 * All in one statement: the positions (from `stock_almacen` for stock today, else the ledger summed to the date), each
 * article's last cost and purchase price by an index seek, each position valued, grouped, sorted and paged in the
 * database, and the totals of the whole selection as window sums of the same pass.
 */
export async function informeInventario(
  app: AppContext,
  f: { fecha: string; almacen_id?: number | null; familia_id?: number | null; marca_id?: number | null; agrupar: 'articulo' | 'almacen' | 'familia'; vista: 'todos' | 'negativo' | 'sin_movimiento' | 'bajo_minimo'; dias: number },
  paging: Paging,
  fuente: 'agregado' | 'detalle' = 'agregado',
): Promise<Respuesta> {
  const dialect = app.dialect;
  const hasta = diaSiguiente(f.fecha);
  const limite = (() => {
    const d = new Date(`${hasta}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - f.dias);
    return d.toISOString().slice(0, 10);
  })();
  // Stock today (no ledger row dated after `fecha`): the positions as they stand (`stock_almacen`, kept by the
  // ledger's triggers: migration 0019) and the last rows need no date; `fuente: 'detalle'` always sums the ledger.
  // A past date: from whichever side of the ledger is smaller (by its span of days): the rows up to the date summed
  // forward, or the positions today less the rows after it (docs/informes.md, "Informes · stock at a date").
  const extremos = (await sql<{ primera: string | null; ultima: string | null }>`select (select min(fecha) from stock_movimientos) as primera,
    (select max(fecha) from stock_movimientos) as ultima`.execute(app.db)).rows[0];
  const primera = extremos?.primera == null ? null : String(extremos.primera);
  const ultima = extremos?.ultima == null ? null : String(extremos.ultima);
  const modo: Modo = fuente === 'detalle' ? 'libro' : modoInventario(primera, ultima, hasta);
  // Issue 25: goods in transit (a transfer sent and not yet received at the date) are the company's stock, in a position
  // of their own (almacen_id 0: «En tránsito»), unless one warehouse is asked.
  const posiciones = f.almacen_id
    ? posicionesSql(dialect, f.almacen_id, limite, hasta, modo)
    : sql`${posicionesSql(dialect, null, limite, hasta, modo)} union all ${transitoSql(modo === 'hoy' ? null : hasta)}`;
  const actual = modo === 'hoy';
  const enFecha = actual ? sql`` : sql`and m.fecha < ${hasta}`;
  const filtroArticulo: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (f.familia_id) filtroArticulo.push(sql`a.familia_id = ${f.familia_id}`);
  if (f.marca_id) filtroArticulo.push(sql`a.marca_id = ${f.marca_id}`);
  const porCompra = porUltimaCompra(dialect);
  const ultimaCompra = ultimaCompraSql(dialect, enFecha);
  if (f.vista === 'bajo_minimo') {
    const compra = sql`(select m.id from stock_movimientos m ${porCompra} where m.articulo_id = a.id and m.causa = 'compra' and m.cantidad > 0 and m.precio > 0 ${enFecha} order by m.id desc limit 1)`;
    return bajoMinimo(app, f, posiciones, compra, filtroArticulo, paging);
  }
  const vista = f.vista === 'negativo' ? sql`and p.unidades < 0` : f.vista === 'sin_movimiento' ? sql`and p.ultimo < ${limite}` : sql``;
  const valor = (c: string) => sql.raw(valorarSql(dialect, 'p.unidades', c));
  const grupo = {
    articulo: { clave: 'q.articulo_id', por: 'q.articulo_id', nombre: "max(q.codigo) || ' · ' || max(q.descripcion)" },
    almacen: { clave: 'q.almacen_id', por: 'q.almacen_id', nombre: `coalesce((select w.nombre from almacenes w where w.id = q.almacen_id), '${EN_TRANSITO}')` },
    familia: { clave: 'coalesce(q.familia_id, 0)', por: 'q.familia_id', nombre: "coalesce((select fa.nombre from familias fa where fa.id = q.familia_id), 'Sin familia')" },
  }[f.agrupar];
  const porArticulo = f.agrupar === 'articulo';
  const extra = porArticulo
    ? sql`, max(q.codigo) as codigo, max(q.descripcion) as descripcion, max(q.familia_id) as familia_id,
      max(q.coste) as coste_unitario,
      max(q.ultimo_precio) as ultimo_precio, max(q.ultimo) as ultimo_movimiento,
      sum(case when q.almacen_id = 0 then q.unidades else 0 end) as en_transito`
    : sql`, count(*) as articulos`;
  const columnas: Record<string, string> = { clave: 'clave', nombre: 'nombre', unidades: 'unidades', valor: 'valor', valor_ultimo: 'valor_ultimo', vendidas: 'vendidas' };
  if (porArticulo) {
    Object.assign(columnas, {
      articulo_id: 'clave', codigo: 'codigo', descripcion: 'descripcion', familia_id: 'familia_id', familia: 'familia', coste_unitario: 'coste_unitario',
      ultimo_precio: 'ultimo_precio', ultimo_movimiento: 'ultimo_movimiento',
      dias_sin_movimiento: `-julianday(ultimo_movimiento)`,
      dias_cobertura: 'case when vendidas > 0 and unidades > 0 then (unidades * 1.0) / vendidas end',
    });
    if (dialect === 'postgres') columnas.dias_sin_movimiento = `(date '2000-01-01' - cast(ultimo_movimiento as date))`;
  } else {
    columnas.articulos = 'articulos';
    columnas[f.agrupar === 'almacen' ? 'almacen_id' : 'familia_id'] = 'clave';
  }
  const orden = ordenSql(columnas, paging, porArticulo ? { orden: 'valor', dir: 'desc' } : { orden: 'nombre', dir: 'asc' }, 'clave');
  const grupos = sql`
    with p as materialized (${posiciones}),
    k as materialized (select a.id as articulo_id, a.codigo, a.descripcion, a.familia_id,
        coalesce((select m.coste from stock_movimientos m where m.articulo_id = a.id ${enFecha} order by m.fecha desc, m.id desc limit 1), a.precio_compra) as coste,
        coalesce(${ultimaCompra}, a.precio_compra) as ultimo_precio
      from articulos a where a.id in (select articulo_id from p) and ${sql.join(filtroArticulo, sql` and `)}),
    q as (select p.articulo_id, p.almacen_id, p.unidades, p.vendidas, p.ultimo, k.codigo, k.descripcion, k.familia_id, k.coste, k.ultimo_precio,
        ${valor('k.coste')} as valor, ${valor('k.ultimo_precio')} as valor_ultimo
      from p join k on k.articulo_id = p.articulo_id where p.unidades <> 0 ${vista}),
    g0 as (select ${sql.raw(grupo.clave)} as clave, ${sql.raw(grupo.nombre)} as nombre, sum(q.unidades) as unidades, sum(q.valor) as valor,
        sum(q.valor_ultimo) as valor_ultimo, sum(q.vendidas) as vendidas ${extra}
      from q group by ${sql.raw(grupo.por)}),
    g as (select g0.* ${porArticulo ? sql`, (select fa.nombre from familias fa where fa.id = g0.familia_id) as familia` : sql``} from g0)`;
  const rows = await consultar(app, sql<Record<string, unknown>>`${grupos}
    select g.*, count(*) over () as t_n, sum(unidades) over () as t_unidades, sum(valor) over () as t_valor,
      sum(valor_ultimo) over () as t_valor_ultimo, sum(vendidas) over () as t_vendidas
    from g order by ${orden} ${paginaSql(paging)}`);
  const t = rows.length
    ? numeros(rows[0]!)
    : numeros((await consultar(app, sql<Record<string, unknown>>`${grupos}
    select count(*) as t_n, sum(unidades) as t_unidades, sum(valor) as t_valor, sum(valor_ultimo) as t_valor_ultimo, sum(vendidas) as t_vendidas from g`))[0]!);
  const data = rows.map((r) => {
    const n = numeros(r, ['nombre', 'codigo', 'descripcion', 'familia', 'ultimo_movimiento']);
    const fila: Fila = { clave: String(n.clave), nombre: n.nombre ?? null };
    if (porArticulo) {
      const u = BigInt(Number(n.unidades ?? 0));
      const v = BigInt(Number(n.vendidas ?? 0));
      Object.assign(fila, {
        articulo_id: Number(n.clave), codigo: n.codigo, descripcion: n.descripcion, familia_id: n.familia_id ?? null, familia: n.familia ?? null,
        almacen_id: f.almacen_id ?? null, coste_unitario: Number(n.coste_unitario ?? 0), ultimo_precio: Number(n.ultimo_precio ?? 0),
        ultimo_movimiento: String(n.ultimo_movimiento), en_transito: Number(n.en_transito ?? 0),
      });
      Object.assign(fila, { unidades: Number(n.unidades ?? 0), valor: Number(n.valor ?? 0), valor_ultimo: Number(n.valor_ultimo ?? 0), vendidas: Number(n.vendidas ?? 0) });
      fila.dias_sin_movimiento = diasEntre(String(n.ultimo_movimiento), f.fecha);
      fila.dias_cobertura = v > 0n && u > 0n ? Number((u * BigInt(f.dias)) / v) : null;
    } else {
      if (f.agrupar === 'almacen') {
        // The goods in transit: a row of their own, not a warehouse (nothing to open).
        fila.almacen_id = Number(n.clave) || null;
        if (!fila.almacen_id) fila.en_transito = 1;
      }
      else fila.familia_id = Number(n.clave) || null;
      Object.assign(fila, { articulos: Number(n.articulos ?? 0), unidades: Number(n.unidades ?? 0), valor: Number(n.valor ?? 0), valor_ultimo: Number(n.valor_ultimo ?? 0), vendidas: Number(n.vendidas ?? 0) });
    }
    return fila;
  });
  return {
    RESULT: '0',
    data,
    total: Number(t.t_n ?? 0),
    totales: { unidades: Number(t.t_unidades ?? 0), valor: Number(t.t_valor ?? 0), valor_ultimo: Number(t.t_valor_ultimo ?? 0), vendidas: Number(t.t_vendidas ?? 0) },
  };
}

/**
 * Where the positions come from: `hoy` the stock as it stands; `hasta` each position's rows before the date summed;
 * `desde` the stock as it stands less each position's rows from the date on (the smaller side of the ledger); `libro`
 * the ledger's rows before the date grouped (`fuente: 'detalle'`, the plain definition the tests compare with).
 */
export type Modo = 'hoy' | 'hasta' | 'desde' | 'libro';

/** The positions at the end of the day before `hasta`, given the ledger's first and last dates: `hoy` when nothing is
 * dated from `hasta` on; else `desde` when fewer days of the ledger lie after the date than before it, or `hasta`. */
export function modoInventario(primera: string | null, ultima: string | null, hasta: string): Modo {
  if (ultima === null || ultima < hasta) return 'hoy';
  return primera !== null && diasEntre(hasta, ultima.slice(0, 10)) < diasEntre(primera.slice(0, 10), hasta) ? 'desde' : 'hasta';
}

/**
 * The positions (article × warehouse: `unidades`, `ultimo` = the last movement's day, `vendidas` = units sold since
 * `desdeVentas`) at the end of the day before `hasta` (see `Modo`). `hasta` and `desde` go through `stock_almacen`
 * (every position the ledger has: its triggers insert one with the first row and never delete it; Recalcular checks
 * it) and read each position's rows on one side of the date by a range of the index (articulo_id, almacen_id, fecha,
 * cantidad) (migration 0029): no sort, and the last day before the date is one seek. The units sold from the ledger's
 * recent rows (its date index).
 */
function posicionesSql(dialect: DialectName, almacen: number | null, desdeVentas: string, hasta: string, modo: Modo): RawBuilder<unknown> {
  const causas = sql.join(CAUSAS_VENTA.map((c) => sql`${c}`));
  // With the dates as parameters SQLite can't tell the last N days are few rows and scans the whole ledger in the
  // (almacen, articulo) index to skip the GROUP BY's sort (12 s instead of 1 at 550.000 rows): the date index, named.
  const porFecha = dialect === 'sqlite' ? sql`indexed by stock_movimientos_fecha` : sql``;
  const filtroMov = almacen ? sql`and m.almacen_id = ${almacen}` : sql``;
  if (modo === 'libro') {
    return sql`select m.articulo_id, m.almacen_id, sum(m.cantidad) as unidades, substr(max(m.fecha), 1, 10) as ultimo,
      sum(case when m.fecha >= ${desdeVentas} and m.causa in (${causas}) then -m.cantidad else 0 end) as vendidas
    from stock_movimientos m where m.fecha < ${hasta} ${filtroMov}
    group by m.articulo_id, m.almacen_id`;
  }
  const vendidas = sql`left join (select m.articulo_id, m.almacen_id, sum(-m.cantidad) as vendidas from stock_movimientos m ${porFecha}
      where m.fecha >= ${desdeVentas} and m.fecha < ${hasta} and m.causa in (${causas}) ${filtroMov}
      group by m.articulo_id, m.almacen_id) v on v.articulo_id = s.articulo_id and v.almacen_id = s.almacen_id`;
  const filtroS = almacen ? sql`and s.almacen_id = ${almacen}` : sql``;
  if (modo === 'hoy') {
    return sql`select s.articulo_id, s.almacen_id, s.cantidad as unidades, substr(s.ultimo, 1, 10) as ultimo, coalesce(v.vendidas, 0) as vendidas
    from stock_almacen s ${vendidas}
    where s.cantidad <> 0 ${filtroS}`;
  }
  const porPosicion = dialect === 'sqlite' ? sql`indexed by stock_movimientos_posicion_fecha` : sql``;
  const filas = (cond: RawBuilder<unknown>) => sql`from stock_movimientos m ${porPosicion} where m.articulo_id = s.articulo_id and m.almacen_id = s.almacen_id and ${cond}`;
  // A position whose last row (`stock_almacen.ultimo`) is dated before the day is as it stands; only the others are read.
  const quieta = sql`(s.ultimo is null or s.ultimo < ${hasta})`;
  const unidades =
    modo === 'hasta'
      ? sql`coalesce((select sum(m.cantidad) ${filas(sql`m.fecha < ${hasta}`)}), 0)`
      : sql`s.cantidad - coalesce((select sum(m.cantidad) ${filas(sql`m.fecha >= ${hasta}`)}), 0)`;
  // Materialized before the filter: the position's sum is computed once, not again in the WHERE.
  return sql`with x as materialized (select s.articulo_id, s.almacen_id, case when ${quieta} then s.cantidad else ${unidades} end as unidades,
      case when ${quieta} then substr(s.ultimo, 1, 10) else (select substr(max(m.fecha), 1, 10) ${filas(sql`m.fecha < ${hasta}`)}) end as ultimo,
      coalesce(v.vendidas, 0) as vendidas
    from stock_almacen s ${vendidas}
    where 1 = 1 ${filtroS})
    select * from x where x.unidades <> 0`;
}

/** How the inventory names the goods in transit. */
export const EN_TRANSITO = 'En tránsito';

/**
 * The goods in transit as positions of warehouse 0 (issue 25): per article, what the transfers (movimientos) took out
 * of their origin and their destination has not received yet — the ledger's transfer rows of those documents summed
 * and negated (the origin's rows are negative, the destination's positive) —, up to the end of the day before `hasta`
 * (null: as it stands, only the transfers with a line still pending). Valued as any position, at the article's cost.
 */
function transitoSql(hasta: string | null): RawBuilder<unknown> {
  const pendientes = hasta
    ? sql`m.fecha < ${hasta}`
    : sql`m.documento_id in (select l.documento_id from documento_lineas l join documentos d on d.id = l.documento_id where d.tipo = 'movimiento' and l.pendiente > 0)`;
  return sql`select m.articulo_id, 0 as almacen_id, -sum(m.cantidad) as unidades, substr(max(m.fecha), 1, 10) as ultimo, 0 as vendidas
    from stock_movimientos m where m.documento_tipo = 'movimiento' and m.causa = 'traspaso' and ${pendientes}
    group by m.articulo_id having sum(m.cantidad) <> 0`;
}

/**
 * «Bajo mínimo»: the active articles with a minimum stock (`articulos.stock_minimo`, migration 0026) whose stock at the
 * date (in the warehouse asked, else in all) is under it, with what to order to reach it (`a_pedir`, thousandths) and
 * its cost at the last purchase price (`importe_pedir`, cents), and the supplier of that last purchase (articles have
 * no supplier of their own). One row per article
 * whatever `agrupar` says.
 */
async function bajoMinimo(
  app: AppContext,
  f: { almacen_id?: number | null },
  posiciones: RawBuilder<unknown>,
  ultimaCompra: RawBuilder<unknown>,
  filtroArticulo: RawBuilder<unknown>[],
  paging: Paging,
): Promise<Respuesta> {
  const columnas: Record<string, string> = {
    clave: 'clave', articulo_id: 'clave', codigo: 'codigo', descripcion: 'descripcion', nombre: 'nombre', familia: 'familia', proveedor: 'proveedor',
    stock_minimo: 'stock_minimo', unidades: 'unidades', a_pedir: 'a_pedir', ultimo_precio: 'ultimo_precio', importe_pedir: 'importe_pedir',
  };
  const orden = ordenSql(columnas, paging, { orden: 'a_pedir', dir: 'desc' }, 'clave');
  const seleccion = sql`
    with p as materialized (${posiciones}),
    s as (select p.articulo_id, sum(p.unidades) as unidades from p group by p.articulo_id),
    b0 as (select a.id as clave, a.codigo, a.descripcion, a.codigo || ' · ' || a.descripcion as nombre, a.familia_id,
        (select fa.nombre from familias fa where fa.id = a.familia_id) as familia, a.precio_compra,
        a.stock_minimo, coalesce(s.unidades, 0) as unidades, a.stock_minimo - coalesce(s.unidades, 0) as a_pedir, ${ultimaCompra} as compra_id
      from articulos a left join s on s.articulo_id = a.id
      where a.activo = 1 and a.stock_minimo > 0 and coalesce(s.unidades, 0) < a.stock_minimo and ${sql.join(filtroArticulo, sql` and `)}),
    b as (select b0.clave, b0.codigo, b0.descripcion, b0.nombre, b0.familia_id, b0.familia, b0.stock_minimo, b0.unidades, b0.a_pedir,
        coalesce(um.precio, b0.precio_compra) as ultimo_precio, d.proveedor_id, pr.razon_social as proveedor
      from b0 left join stock_movimientos um on um.id = b0.compra_id left join documentos d on d.id = um.documento_id
        left join proveedores pr on pr.id = d.proveedor_id),
    c as (select b.*, ${sql.raw(valorarSql(app.dialect, 'b.a_pedir', 'b.ultimo_precio'))} as importe_pedir from b)`;
  const totales = 'count(*) as t_n, sum(unidades) as t_unidades, sum(a_pedir) as t_a_pedir, sum(importe_pedir) as t_importe';
  const rows = await consultar(app, sql<Record<string, unknown>>`${seleccion}
    select c.*, ${sql.raw(totales.replace(/\) as/g, ') over () as'))} from c order by ${orden} ${paginaSql(paging)}`);
  const data = rows.map((r) => {
    const n = numeros(r, ['codigo', 'descripcion', 'nombre', 'familia', 'proveedor']);
    return {
      clave: String(n.clave), articulo_id: Number(n.clave), codigo: n.codigo, descripcion: n.descripcion, nombre: n.nombre, familia_id: n.familia_id ?? null,
      familia: n.familia ?? null, proveedor_id: n.proveedor_id ?? null, proveedor: n.proveedor ?? null, almacen_id: f.almacen_id ?? null,
      stock_minimo: Number(n.stock_minimo), unidades: Number(n.unidades), a_pedir: Number(n.a_pedir), ultimo_precio: Number(n.ultimo_precio ?? 0),
      importe_pedir: Number(n.importe_pedir ?? 0),
    } satisfies Fila;
  });
  const t = numeros(rows[0] ?? (await consultar(app, sql<Record<string, unknown>>`${seleccion} select ${sql.raw(totales)} from c`))[0]!);
  return {
    RESULT: '0',
    data,
    total: Number(t.t_n ?? 0),
    totales: { articulos: Number(t.t_n ?? 0), unidades: Number(t.t_unidades ?? 0), a_pedir: Number(t.t_a_pedir ?? 0), importe_pedir: Number(t.t_importe ?? 0) },
  };
}

/** The ledger: its rows in the period in date order (then id), newest first, each with the balance of its article in its warehouse after it in that order. */
export async function informeMovimientos(
  app: AppContext,
  f: { desde: string; hasta: string; articulo_id?: number | null; almacen_id?: number | null; ubicacion_id?: number | null; causa?: string | null },
  paging: Paging,
): Promise<Respuesta> {
  const c: RawBuilder<unknown>[] = [sql`m.fecha >= ${f.desde}`, sql`m.fecha < ${diaSiguiente(f.hasta)}`];
  if (f.articulo_id) c.push(sql`m.articulo_id = ${f.articulo_id}`);
  if (f.almacen_id) c.push(sql`m.almacen_id = ${f.almacen_id}`);
  if (f.ubicacion_id) c.push(sql`m.ubicacion_id = ${f.ubicacion_id}`);
  if (f.causa) c.push(sql`m.causa = ${f.causa}`);
  const where = sql.join(c, sql` and `);
  // In date order (docs/costes.md: a document dated in the past writes its rows later), the balance too. The page's
  // plan, which SQLite's estimates get wrong with the dates as parameters (a year of rows sorted for 50): without an
  // article or location, the period's rows walked in (fecha, id) order by the index of migration 0047, stopping at the
  // page. The joins' `+` keep the ledger the outer loop (not warehouses × articles).
  const acceso = app.dialect === 'sqlite' && !f.articulo_id && !f.ubicacion_id ? sql`indexed by stock_movimientos_fecha_id` : sql``;
  const agregado = (
    await sql<Record<string, unknown>>`select count(*) as n, sum(case when m.cantidad > 0 then m.cantidad else 0 end) as entradas,
      sum(case when m.cantidad < 0 then -m.cantidad else 0 end) as salidas, sum(m.cantidad) as unidades
      from stock_movimientos m where ${where}`.execute(app.db)
  ).rows[0]!;
  const t = numeros(agregado);
  const porPagina = paging.porPagina ?? 50;
  const offset = ((paging.pagina ?? 1) - 1) * porPagina;
  const dir = paging.dir === 'asc' ? sql`asc` : sql`desc`;
  const { rows } = await sql<Record<string, unknown>>`
    select m.id, m.fecha, m.articulo_id, a.codigo, a.descripcion, m.almacen_id, w.nombre as almacen, m.ubicacion_id,
      (select u.codigo from ubicaciones u where u.id = m.ubicacion_id) as ubicacion, m.causa, m.documento_tipo, m.documento_id, m.documento_linea_id,
      m.cantidad as unidades, m.precio, m.coste,
      coalesce((select sum(s.cantidad) from stock_movimientos s where s.articulo_id = m.articulo_id and s.almacen_id = m.almacen_id and s.fecha < m.fecha), 0)
        + (select sum(s.cantidad) from stock_movimientos s where s.articulo_id = m.articulo_id and s.almacen_id = m.almacen_id and s.fecha = m.fecha
          and s.id <= m.id) as saldo,
      d.numero, d.ejercicio, (select codigo from series se where se.id = d.serie_id) as serie
    from stock_movimientos m ${acceso} join articulos a on a.id = +m.articulo_id join almacenes w on w.id = +m.almacen_id
    left join documentos d on d.id = m.documento_id
    where ${where}
    order by m.fecha ${dir}, m.id ${dir} limit ${porPagina} offset ${offset}`.execute(app.db);
  const data = rows.map((r) => {
    const n = numeros(r, ['fecha', 'codigo', 'descripcion', 'almacen', 'ubicacion', 'causa', 'documento_tipo', 'serie']);
    const def = DOCUMENTO_TIPOS[n.documento_tipo as DocumentoTipo];
    const documento_numero = n.documento_id ? numeroDocumento((n.serie as string | null) ?? def?.prefijo ?? '', Number(n.ejercicio), n.numero as number | null) : null;
    const { numero: _n, ejercicio: _e, serie: _s, ...resto } = n;
    return { clave: String(n.id), ...resto, documento_numero, valor: n.coste === null ? null : Number(valorar(BigInt(Number(n.unidades)), BigInt(Number(n.coste)))) } as Fila;
  });
  return { RESULT: '0', data, total: Number(t.n ?? 0), totales: { entradas: Number(t.entradas ?? 0), salidas: Number(t.salidas ?? 0), unidades: Number(t.unidades ?? 0) } };
}

/**
 * Each active article's prices (tarifa 1 = precio_venta, tarifas 2-3 and PVP 1-3 as the flags allow) and the margin of
 * each tariff over the average cost (`coste`) and over the last price actually paid (`ultimo_precio`: the latest
 * purchase entry of the ledger, as informeinventario has it; the catalogue's purchase price for an article never
 * bought), hundredths of a percent of the price, and whether any price is below cost.
 */
export async function informeTarifas(
  app: AppContext,
  flags: ModuleFlags,
  f: { familia_id?: number | null; marca_id?: number | null; bajo_coste?: number | null },
  paging: Paging,
): Promise<Respuesta> {
  const tarifas: [string, string][] = [['precio_venta', 'margen_1']];
  if (flags.tarifa_2) tarifas.push(['tarifa_2', 'margen_2']);
  if (flags.tarifa_3) tarifas.push(['tarifa_3', 'margen_3']);
  const coste = sql`coalesce(a.coste_medio, a.precio_compra)`;
  // Any tariff with a price under the average cost (as `fila` below says it).
  const bajo = sql`(case when ${sql.join(
    tarifas.map(([col]) => sql`(${sql.ref(`a.${col}`)} > 0 and ${sql.ref(`a.${col}`)} < ${coste})`),
    sql` or `,
  )} then 1 else 0 end)`;
  const seleccion = app.db
    .selectFrom('articulos as a')
    .where('a.activo', '=', 1)
    .$if(!!f.familia_id, (q) => q.where('a.familia_id', '=', f.familia_id!))
    .$if(!!f.marca_id, (q) => q.where('a.marca_id', '=', f.marca_id!))
    .$if(!!f.bajo_coste, (q) => q.where(sql<boolean>`${bajo} = 1`));
  const fila = (a: Record<string, unknown>): Fila => {
    const c = Number(a.coste_medio ?? a.precio_compra);
    // The last price paid (the latest purchase entry, as informeinventario has it), else the catalogue's.
    const ultimo = Number(a.ultimo_pagado ?? a.precio_compra);
    const r: Fila = { clave: String(a.id), articulo_id: Number(a.id), codigo: a.codigo as string, descripcion: a.descripcion as string, nombre: `${a.codigo} · ${a.descripcion}`, familia_id: a.familia_id as number | null, familia: (a.familia as string | null) ?? null, coste: c, ultimo_precio: ultimo };
    let b = 0;
    for (const [col, margen] of tarifas) {
      const p = Number(a[col] ?? 0);
      r[col] = p;
      r[margen] = porcentaje(p - c, p);
      r[`${margen}_ultimo`] = porcentaje(p - ultimo, p);
      if (p > 0 && p < c) b = 1;
    }
    if (flags.pvp) {
      r.pvp_1 = a.pvp_1 as number;
      if (flags.pvp_2) r.pvp_2 = a.pvp_2 as number;
      if (flags.pvp_3) r.pvp_3 = a.pvp_3 as number;
    }
    r.bajo_coste = b;
    return r;
  };
  const ultimoPagado = ultimaCompraSql(app.dialect).as('ultimo_pagado');
  const columnas = ['a.id', 'a.codigo', 'a.descripcion', 'a.familia_id', 'fa.nombre as familia', 'a.precio_compra', 'a.coste_medio', 'a.precio_venta', 'a.tarifa_2', 'a.tarifa_3', 'a.pvp_1', 'a.pvp_2', 'a.pvp_3'] as const;
  // By code (the default view): counted and paged in the base, from the index of migration 0030 — a hundred thousand
  // articles read whole cost ≈ 0,5-1 s; only the page's rows are read. Codes compare by their bytes there (the
  // catalogue's codes are letters, digits, «-» and «_»); any other order sorts every row here.
  if ((paging.orden ?? 'codigo') === 'codigo') {
    const t = await seleccion.select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(${bajo}), 0)`.as('b')]).executeTakeFirstOrThrow();
    const porPagina = paging.porPagina ?? 50;
    const dir = paging.dir === 'desc' ? 'desc' : 'asc';
    const ids = (await seleccion.select('a.id').orderBy('a.codigo', dir).limit(porPagina).offset(((paging.pagina ?? 1) - 1) * porPagina).execute()).map((r) => r.id);
    const rows = ids.length
      ? await app.db.selectFrom('articulos as a').leftJoin('familias as fa', 'fa.id', 'a.familia_id').select(columnas).select(ultimoPagado).where('a.id', 'in', ids).execute()
      : [];
    const por = new Map(rows.map((r) => [r.id, r]));
    return { RESULT: '0', data: ids.map((id) => fila(por.get(id)!)), total: Number(t.n), totales: { articulos: Number(t.n), bajo_coste: Number(t.b) } };
  }
  const filas = (await seleccion.leftJoin('familias as fa', 'fa.id', 'a.familia_id').select(columnas).select(ultimoPagado).execute()).map(fila);
  const { data, total } = paginar(filas, paging, { orden: 'codigo', dir: 'asc' });
  return { RESULT: '0', data, total, totales: { articulos: filas.length, bajo_coste: filas.filter((r) => r.bajo_coste === 1).length } };
}
