import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { DOCUMENTO_TIPOS, numeroDocumento } from 'shared/domain';
import type { DocumentoTipo, ModuleFlags } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { consultar, diaSiguiente, diasEntre, numeros, paginar, porcentaje, sumar } from './comun.ts';
import type { Fila, Respuesta } from './comun.ts';

type Paging = { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null };

/** Value in cents of `unidades` (thousandths) at `coste` (ten-thousandths), half-up. */
export const valorar = (unidades: bigint, coste: bigint): bigint => {
  const v = unidades * coste;
  const q = (2n * (v < 0n ? -v : v) + 100_000n) / 200_000n;
  return v < 0n ? -q : q;
};

const CAUSAS_VENTA = ['venta', 'factura', 'parte', 'ticket', 'rectificativa', 'devolucion_venta'];

/**
 * Stock and its value at the end of `fecha` (README, "Informes · stock at a date"): the ledger's rows up to that day
 * summed per article and warehouse; each article valued at the average cost of its last ledger row up to that day
 * (`stock_movimientos.coste`, the average the ledger had after it; its precio_compra before any valued entry) and at
 * its last purchase price then (the last `compra` entry's price, else precio_compra).
 */
export async function informeInventario(
  app: AppContext,
  f: { fecha: string; almacen_id?: number | null; familia_id?: number | null; marca_id?: number | null; agrupar: 'articulo' | 'almacen' | 'familia'; vista: 'todos' | 'negativo' | 'sin_movimiento'; dias: number },
  paging: Paging,
  fuente: 'agregado' | 'detalle' = 'agregado',
): Promise<Respuesta> {
  const hasta = diaSiguiente(f.fecha);
  const desdeVentas = (() => {
    const d = new Date(`${hasta}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - f.dias);
    return d.toISOString().slice(0, 10);
  })();
  const filtroAlmacen = f.almacen_id ? sql`and m.almacen_id = ${f.almacen_id}` : sql``;
  const filtroArticulo: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (f.familia_id) filtroArticulo.push(sql`a.familia_id = ${f.familia_id}`);
  if (f.marca_id) filtroArticulo.push(sql`a.marca_id = ${f.marca_id}`);
  // Four single scans joined here: the positions, each article's last row's cost, its last purchase price, its data.
  // When no ledger row is dated after `fecha` (stock today), the positions are the stock as it stands (`stock_almacen`,
  // kept by the ledger's triggers: migration 0019) and the last rows need no date: the same answer without summing the
  // ledger (`fuente: 'detalle'` always sums it).
  const ultimaFecha = (await sql<{ f: string | null }>`select max(fecha) as f from stock_movimientos`.execute(app.db)).rows[0]?.f ?? null;
  const actual = fuente === 'agregado' && (ultimaFecha === null || String(ultimaFecha) < hasta);
  const posiciones = actual
    ? await posicionesActuales(app, f.almacen_id ?? null, desdeVentas, hasta)
    : await consultar(app, sql<{ articulo_id: number; almacen_id: number; unidades: string; ultimo: string; vendidas: string }>`
    select m.articulo_id, m.almacen_id, cast(sum(m.cantidad) as text) as unidades, max(m.fecha) as ultimo,
      cast(sum(case when m.fecha >= ${desdeVentas} and m.causa in (${sql.join(CAUSAS_VENTA.map((c) => sql`${c}`))}) then -m.cantidad else 0 end) as text) as vendidas
    from stock_movimientos m where m.fecha < ${hasta} ${filtroAlmacen}
    group by m.articulo_id, m.almacen_id`);
  const costes = new Map(
    (await consultar(app, actual
      ? sql<{ articulo_id: number; coste: string | null }>`select m.articulo_id, cast(m.coste as text) as coste from stock_movimientos m
      where m.id in (select max(id) from stock_movimientos group by articulo_id)`
      : sql<{ articulo_id: number; coste: string | null }>`select m.articulo_id, cast(m.coste as text) as coste from stock_movimientos m
      where m.id in (select max(id) from stock_movimientos where fecha < ${hasta} group by articulo_id)`)).map((r) => [r.articulo_id, r.coste]),
  );
  const ultimos = new Map(
    (await consultar(app, actual
      ? sql<{ articulo_id: number; precio: string }>`select m.articulo_id, cast(m.precio as text) as precio from stock_movimientos m
      where m.id in (select max(id) from stock_movimientos where causa = 'compra' and cantidad > 0 and precio > 0 group by articulo_id)`
      : sql<{ articulo_id: number; precio: string }>`select m.articulo_id, cast(m.precio as text) as precio from stock_movimientos m
      where m.id in (select max(id) from stock_movimientos where fecha < ${hasta} and causa = 'compra' and cantidad > 0 and precio > 0 group by articulo_id)`)).map((r) => [r.articulo_id, r.precio]),
  );
  const articulos = new Map<number, { codigo: string; descripcion: string; familia_id: number | null; familia: string | null; precio_compra: string }>();
  const ids = [...new Set(posiciones.map((p) => Number(p.articulo_id)))];
  for (let i = 0; i < ids.length; i += 5000) {
    const rs = await consultar(app, sql<{ id: number; codigo: string; descripcion: string; familia_id: number | null; familia: string | null; precio_compra: string }>`
      select a.id, a.codigo, a.descripcion, a.familia_id, (select nombre from familias fa where fa.id = a.familia_id) as familia, cast(a.precio_compra as text) as precio_compra
      from articulos a where a.id in (${sql.join(ids.slice(i, i + 5000))}) and ${sql.join(filtroArticulo, sql` and `)}`);
    for (const a of rs) articulos.set(a.id, a);
  }
  const rows = posiciones.flatMap((p) => {
    const a = articulos.get(Number(p.articulo_id));
    if (!a) return [];
    return [{ ...p, codigo: a.codigo, descripcion: a.descripcion, familia_id: a.familia_id, familia: a.familia, coste: costes.get(Number(p.articulo_id)) ?? a.precio_compra, ultimo_precio: ultimos.get(Number(p.articulo_id)) ?? a.precio_compra }];
  });
  const limite = (() => {
    const d = new Date(`${hasta}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - f.dias);
    return d.toISOString().slice(0, 10);
  })();
  // Per article and warehouse, then the rows the view keeps.
  type Pos = { articulo_id: number; almacen_id: number; codigo: string; descripcion: string; familia_id: number | null; familia: string | null; unidades: bigint; vendidas: bigint; ultimo: string; coste: bigint; ultimo_precio: bigint };
  let pos: Pos[] = rows.map((r) => ({
    articulo_id: Number(r.articulo_id),
    almacen_id: Number(r.almacen_id),
    codigo: String(r.codigo),
    descripcion: String(r.descripcion),
    familia_id: r.familia_id === null ? null : Number(r.familia_id),
    familia: (r.familia as string | null) ?? null,
    unidades: BigInt(String(r.unidades).replace(/\.0*$/, '')),
    vendidas: BigInt(String(r.vendidas ?? 0).replace(/\.0*$/, '')),
    ultimo: String(r.ultimo).slice(0, 10),
    coste: BigInt(String(r.coste ?? 0).replace(/\.0*$/, '')),
    ultimo_precio: BigInt(String(r.ultimo_precio ?? 0).replace(/\.0*$/, '')),
  }));
  pos = pos.filter((p) => p.unidades !== 0n);
  if (f.vista === 'negativo') pos = pos.filter((p) => p.unidades < 0n);
  if (f.vista === 'sin_movimiento') pos = pos.filter((p) => p.ultimo < limite);
  const grupos = new Map<string, Fila & { _u: bigint; _v: bigint; _vu: bigint; _vend: bigint }>();
  const nombresAlmacen = new Map((await app.db.selectFrom('almacenes').select(['id', 'nombre']).execute()).map((a) => [a.id, a.nombre]));
  for (const p of pos) {
    const k = f.agrupar === 'almacen' ? String(p.almacen_id) : f.agrupar === 'familia' ? String(p.familia_id ?? 0) : String(p.articulo_id);
    let g = grupos.get(k);
    if (!g) {
      const base: Fila =
        f.agrupar === 'almacen'
          ? { clave: k, almacen_id: p.almacen_id, nombre: nombresAlmacen.get(p.almacen_id) ?? null, articulos: 0 }
          : f.agrupar === 'familia'
            ? { clave: k, familia_id: p.familia_id, nombre: p.familia ?? 'Sin familia', articulos: 0 }
            : { clave: k, articulo_id: p.articulo_id, codigo: p.codigo, descripcion: p.descripcion, nombre: `${p.codigo} · ${p.descripcion}`, familia_id: p.familia_id, familia: p.familia, almacen_id: f.almacen_id ?? null, coste_unitario: Number(p.coste), ultimo_precio: Number(p.ultimo_precio), ultimo_movimiento: p.ultimo };
      g = Object.assign(base, { _u: 0n, _v: 0n, _vu: 0n, _vend: 0n });
      grupos.set(k, g);
    }
    g._u += p.unidades;
    g._v += valorar(p.unidades, p.coste);
    g._vu += valorar(p.unidades, p.ultimo_precio);
    g._vend += p.vendidas;
    if (f.agrupar !== 'articulo') g.articulos = Number(g.articulos) + 1;
    else if (String(g.ultimo_movimiento) < p.ultimo) g.ultimo_movimiento = p.ultimo;
  }
  const filas: Fila[] = [...grupos.values()].map(({ _u, _v, _vu, _vend, ...g }) => {
    const fila: Fila = { ...g, unidades: Number(_u), valor: Number(_v), valor_ultimo: Number(_vu), vendidas: Number(_vend) };
    if (f.agrupar === 'articulo') {
      fila.dias_sin_movimiento = diasEntre(String(g.ultimo_movimiento), f.fecha);
      fila.dias_cobertura = _vend > 0n && _u > 0n ? Number((_u * BigInt(f.dias)) / _vend) : null;
    }
    return fila;
  });
  const { data, total } = paginar(filas, paging, { orden: f.agrupar === 'articulo' ? 'valor' : 'nombre', dir: f.agrupar === 'articulo' ? 'desc' : 'asc' });
  return { RESULT: '0', data, total, totales: sumar(filas, ['unidades', 'valor', 'valor_ultimo', 'vendidas']) };
}

/**
 * The positions from `stock_almacen` (the ledger's sum and last date per article and warehouse, as they stand) and
 * the units sold since `desdeVentas` from the ledger's recent rows (its date index).
 */
async function posicionesActuales(app: AppContext, almacen: number | null, desdeVentas: string, hasta: string) {
  const filtro = almacen ? sql`and s.almacen_id = ${almacen}` : sql``;
  const stock = await consultar(app, sql<{ articulo_id: number; almacen_id: number; unidades: string; ultimo: string }>`
    select s.articulo_id, s.almacen_id, cast(s.cantidad as text) as unidades, s.ultimo from stock_almacen s where s.cantidad <> 0 ${filtro}`);
  const vendidas = await consultar(app, sql<{ articulo_id: number; almacen_id: number; vendidas: string }>`
    select m.articulo_id, m.almacen_id, cast(sum(-m.cantidad) as text) as vendidas from stock_movimientos m
    where m.fecha >= ${desdeVentas} and m.fecha < ${hasta} and m.causa in (${sql.join(CAUSAS_VENTA.map((c) => sql`${c}`))}) ${almacen ? sql`and m.almacen_id = ${almacen}` : sql``}
    group by m.articulo_id, m.almacen_id`);
  const porClave = new Map(vendidas.map((v) => [`${v.articulo_id}|${v.almacen_id}`, v.vendidas]));
  return stock.map((s) => ({ ...s, vendidas: porClave.get(`${s.articulo_id}|${s.almacen_id}`) ?? '0' }));
}

/** The ledger: its rows in the period, newest first, each with the balance of its article in its warehouse after it. */
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
      (select sum(s.cantidad) from stock_movimientos s where s.articulo_id = m.articulo_id and s.almacen_id = m.almacen_id and s.id <= m.id) as saldo,
      d.numero, d.ejercicio, (select codigo from series se where se.id = d.serie_id) as serie
    from stock_movimientos m join articulos a on a.id = m.articulo_id join almacenes w on w.id = m.almacen_id
    left join documentos d on d.id = m.documento_id
    where ${where}
    order by m.id ${dir} limit ${porPagina} offset ${offset}`.execute(app.db);
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
 * each tariff over the average cost and over the last purchase price (hundredths of a percent of the price), and whether
 * any price is below cost.
 */
export async function informeTarifas(
  app: AppContext,
  flags: ModuleFlags,
  f: { familia_id?: number | null; marca_id?: number | null; bajo_coste?: number | null },
  paging: Paging,
): Promise<Respuesta> {
  const rows = await app.db
    .selectFrom('articulos as a')
    .leftJoin('familias as fa', 'fa.id', 'a.familia_id')
    .select(['a.id', 'a.codigo', 'a.descripcion', 'a.familia_id', 'fa.nombre as familia', 'a.precio_compra', 'a.coste_medio', 'a.precio_venta', 'a.tarifa_2', 'a.tarifa_3', 'a.pvp_1', 'a.pvp_2', 'a.pvp_3'])
    .where('a.activo', '=', 1)
    .$if(!!f.familia_id, (q) => q.where('a.familia_id', '=', f.familia_id!))
    .$if(!!f.marca_id, (q) => q.where('a.marca_id', '=', f.marca_id!))
    .execute();
  const tarifas: [string, string][] = [['precio_venta', 'margen_1']];
  if (flags.tarifa_2) tarifas.push(['tarifa_2', 'margen_2']);
  if (flags.tarifa_3) tarifas.push(['tarifa_3', 'margen_3']);
  let filas: Fila[] = rows.map((a) => {
    const coste = Number(a.coste_medio ?? a.precio_compra);
    const ultimo = Number(a.precio_compra);
    const fila: Fila = { clave: String(a.id), articulo_id: a.id, codigo: a.codigo, descripcion: a.descripcion, nombre: `${a.codigo} · ${a.descripcion}`, familia_id: a.familia_id, familia: a.familia, coste, ultimo_precio: ultimo };
    let bajo = 0;
    for (const [col, margen] of tarifas) {
      const p = Number((a as Record<string, unknown>)[col] ?? 0);
      fila[col] = p;
      fila[margen] = porcentaje(p - coste, p);
      fila[`${margen}_ultimo`] = porcentaje(p - ultimo, p);
      if (p > 0 && p < coste) bajo = 1;
    }
    if (flags.pvp) {
      fila.pvp_1 = a.pvp_1;
      if (flags.pvp_2) fila.pvp_2 = a.pvp_2;
      if (flags.pvp_3) fila.pvp_3 = a.pvp_3;
    }
    fila.bajo_coste = bajo;
    return fila;
  });
  if (f.bajo_coste) filas = filas.filter((r) => r.bajo_coste === 1);
  const { data, total } = paginar(filas, paging, { orden: 'codigo', dir: 'asc' });
  return { RESULT: '0', data, total, totales: { articulos: filas.length, bajo_coste: filas.filter((r) => r.bajo_coste === 1).length } };
}
