// The reports (issue 14) at scale, on SQLite and on PostgreSQL: `pnpm bench:informes`.
// Generates, with the server's own generators (server/src/demo/), a year of purchases and a year of sales on one
// catalogue: BENCH_ARTICLES (20.000) articles, BENCH_SUPPLIERS (500) suppliers and BENCH_PURCHASES (10.000) purchase
// documents of 10 lines, BENCH_CUSTOMERS (2.000) customers and BENCH_DOCS (20.000) emitted invoices of 10 lines with the
// albaranes they came from (so about 2-3 sales lines per invoice line in the tables), some cancelled, rectificativas,
// the ledger they make and the VERI*FACTU chain; then each ledger row's cost and each sale line's cost replayed.
// For each report's default view (and its heaviest grouping or filter) over the generated year: p50/p95 of the
// action's handler and of the whole op.asp request (inject), against a raw SQL on the driver that answers the core of
// the same question in the simplest way (the sums without netting, cost or names), in the same run, interleaved.
// The sales reports and «stock hoy» read the aggregates kept with the documents (server/src/informes/agregados.ts):
// for those, also the same report computed from the documents (`detalle`, what they answered before the aggregates),
// BENCH_DETALLE_RUNS (5) times; and, once, the time «Recalcular informes» takes to rebuild the aggregates.
// BENCH_ESCALA (1) multiplies the articles, suppliers, documents and customers (9: about 1.000.000 sales lines).
// BENCH_RUNS (20), BENCH_ONLY (sqlite|postgres), DATABASE_URL, BENCH_KEEP=1.
import { FORMA_PAGO_IDS } from 'shared/domain';
import { sinDisparadores } from '../server/src/demo/index.ts';
import { comprobarCadenas } from '../server/src/fiscal/verificacion.ts';
import { escribirTickets, type TerminalGenerado } from '../server/src/demo/tpv.ts';
import { empresaEmisora } from '../server/src/tpv/comun.ts';
import { escribirCompras, generarCompras } from '../server/src/demo/compras.ts';
import { Lote, encadenar, escribir, escribirContadores, eventosDeVentas, generarVentas, numerar } from '../server/src/demo/ventas.ts';
import type { ArticuloVenta, ClienteGenerado } from '../server/src/demo/ventas.ts';
import { EMPRESAS, LUGARES, POBLACIONES, articulosGenerados, bulk, bulkArticulos, cif, int, rand, seguirSecuencias, cronometro, diasGenerados, semilla, siguienteId, ultimoAno } from './datos.ts';
import { informeInventario } from '../server/src/informes/almacen.ts';
import { recalcularAgregados } from '../server/src/informes/agregados.ts';
import { informeArticulos, informeClientes, informeVentas } from '../server/src/informes/ventas.ts';
import { activarFlags, callHandler, generarDatos, login, ms, onBothEngines, param, row, sinIndices, stats, type Row, type Runner } from './runners.ts';

const ESCALA = Number(process.env.BENCH_ESCALA ?? 1);
const ARTICLES = Math.round(Number(process.env.BENCH_ARTICLES ?? 20_000) * ESCALA);
const SUPPLIERS = Math.round(Number(process.env.BENCH_SUPPLIERS ?? 500) * ESCALA);
const PURCHASES = Math.round(Number(process.env.BENCH_PURCHASES ?? 10_000) * ESCALA);
const CUSTOMERS = Math.round(Number(process.env.BENCH_CUSTOMERS ?? 2_000) * ESCALA);
const DOCS = Math.round(Number(process.env.BENCH_DOCS ?? 20_000) * ESCALA);
/** TPV tickets of 1-5 lines over the generated days, on BENCH_TERMINALES tills (each its serie, chain and a caja a day). */
const TICKETS = Math.round(Number(process.env.BENCH_TICKETS ?? 10_000) * ESCALA);
const TERMINALES = Number(process.env.BENCH_TERMINALES ?? 2);
/** Years of generated documents (1: the last 360 days; n: the last n × 365 days), numbered per ejercicio. */
const ANOS = Number(process.env.BENCH_ANOS ?? 1);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const DETALLE_RUNS = Number(process.env.BENCH_DETALLE_RUNS ?? 5);
const PAGING = (porPagina = 50) => ({ orden: null, dir: null, pagina: 1, porPagina });
const LINEAS = 10;

type Gen = { counts: Record<string, number>; cliente: number; proveedor: number; almacen: number };

async function generate(r: Runner, hoy: string): Promise<Gen> {
  semilla(20261214);
  const fase = cronometro(r.name);
  const db = r.app.manager.db;
  const admin = await db.selectFrom('usuarios').select(['id']).orderBy('id').executeTakeFirstOrThrow();
  const almacenes = (await db.selectFrom('almacenes').select('id').orderBy('id').execute()).map((a) => a.id);
  if (almacenes.length < 2) almacenes.push((await db.insertInto('almacenes').values({ codigo: 'TIENDA', nombre: 'Tienda', activo: 1 } as never).returning('id').executeTakeFirstOrThrow()).id);
  const dias = diasGenerados(hoy, ANOS);

  const firstProv = await siguienteId(r, 'proveedores');
  const provs = Array.from({ length: SUPPLIERS }, (_, i) => ({ id: firstProv + i, forma_pago: FORMA_PAGO_IDS[int(FORMA_PAGO_IDS.length)] as string, retencion: 0 }));
  await bulk(
    r,
    'proveedores',
    ['id', 'codigo', 'nif', 'razon_social', 'codigo_postal', 'poblacion', 'provincia', 'forma_pago', 'retencion', 'activo'],
    provs.map((p, i) => {
      const pob = POBLACIONES[i % POBLACIONES.length];
      return [p.id, `PI${String(i + 1).padStart(5, '0')}`, cif(5_000_000 + i * 37), `${EMPRESAS[i % EMPRESAS.length]} ${LUGARES[int(LUGARES.length)]} ${i + 1}, S.L.`, `${String(1 + (i % 50)).padStart(2, '0')}00${i % 10}`, pob, pob, p.forma_pago, 0, 1];
    }),
  );
  const firstCli = await siguienteId(r, 'clientes');
  const clientes: ClienteGenerado[] = Array.from({ length: CUSTOMERS }, (_, i) => ({
    id: firstCli + i,
    nif: cif(6_000_000 + i * 37),
    nombre: `${EMPRESAS[i % EMPRESAS.length]} ${LUGARES[int(LUGARES.length)]} ${i + 1}, S.L.`,
    forma_pago: FORMA_PAGO_IDS[int(FORMA_PAGO_IDS.length)] as string,
    retencion: 0,
    recargo: rand() < 0.1 ? 1 : 0,
    tarifa: 1,
    descuento: 0,
  }));
  await bulk(
    r,
    'clientes',
    ['id', 'codigo', 'nif', 'razon_social', 'codigo_postal', 'poblacion', 'provincia', 'forma_pago', 'retencion', 'recargo', 'tarifa', 'descuento', 'activo'],
    clientes.map((c, i) => {
      const pob = POBLACIONES[i % POBLACIONES.length];
      return [c.id, `CI${10_000 + i}`, c.nif, c.nombre, `${String(1 + (i % 50)).padStart(2, '0')}00${i % 10}`, pob, pob, c.forma_pago, 0, c.recargo, 1, 0, 1];
    }),
  );
  const firstArt = await siguienteId(r, 'articulos');
  const arts = articulosGenerados(firstArt, ARTICLES, 'INF');
  // Purchases first (their ledger rows value the stock the sales take out).
  const catalogo = (p: number) => {
    const start = Math.floor(((p - firstProv) * ARTICLES) / SUPPLIERS);
    return Array.from({ length: Math.min(200, ARTICLES) }, (_, k) => (start + k) % ARTICLES);
  };
  const compras = generarCompras({
    hoy,
    dias,
    admin: admin.id,
    almacenes: [almacenes[0]!, almacenes[1]!],
    articulos: arts,
    docs: PURCHASES,
    lineas: LINEAS,
    ids: { doc: await siguienteId(r, 'documentos'), linea: await siguienteId(r, 'documento_lineas'), accion: await siguienteId(r, 'documento_acciones') },
    pickProv: () => provs[rand() < 0.3 ? int(Math.min(20, SUPPLIERS)) : int(SUPPLIERS)]!,
    pickLines: (p, n) => {
      const cat = catalogo(p);
      const chosen = new Set<number>();
      while (chosen.size < Math.min(n, cat.length)) chosen.add(cat[int(cat.length)]!);
      return [...chosen];
    },
  });
  for (const [a, p] of compras.ultimoPrecio) arts[a]!.precio_compra = p;
  fase('generated purchases');
  // PostgreSQL: the per-row triggers off around the load (stock per article and warehouse, average cost, the days
  // pending for the aggregates), then what they write rebuilt set-based from the ledger as the demo's first start does
  // (sinDisparadores); the aggregates by «Recalcular informes» in bench(). The ledger's costs (each row's and each sale
  // line's) replayed as the trigger would have written them row by row, on both engines.
  // PostgreSQL: the documents' and the ledger's secondary indexes dropped around the load too, then created again (sinIndices).
  const { lineasCompra, lineasVenta, registros, v, lote, tickets } = await sinDisparadores(
    db,
    r.app.manager.dialect,
    () => sinIndices(r, ['documentos', 'documento_lineas', 'documento_acciones', 'documento_enlaces', 'stock_movimientos'], async () => {
    await bulkArticulos(r, arts);
    fase('articles written');
    const lineasCompra = await escribirCompras(r, compras, arts, admin.id);
    await seguirSecuencias(r, ['proveedores', 'articulos', 'clientes']);
    fase('purchases written');

    const serie = (await db.insertInto('series').values({ codigo: 'G', descripcion: 'Facturas del año generado', tipo: 'normal', activo: 1 }).returning('id').executeTakeFirstOrThrow()).id;
    const serieR = (await db.insertInto('series').values({ codigo: 'GR', descripcion: 'Rectificativas del año generado', tipo: 'rectificativa', activo: 1 }).returning('id').executeTakeFirstOrThrow()).id;
    const articulos: ArticuloVenta[] = arts.map((a) => ({ id: a.id, codigo: a.codigo, descripcion: a.descripcion, tipo_iva: a.tipo_iva, precios: [a.precio_venta, a.tarifa_2, a.tarifa_3] }));
    const lote = new Lote({ doc: await siguienteId(r, 'documentos'), linea: await siguienteId(r, 'documento_lineas'), accion: await siguienteId(r, 'documento_acciones') }, admin.id);
    const v = generarVentas(lote, {
      hoy,
      dias,
      facturas: DOCS,
      lineas: LINEAS,
      articulos,
      pickCli: () => clientes[rand() < 0.3 ? int(Math.min(20, CUSTOMERS)) : int(CUSTOMERS)]!,
      almacenDe: () => almacenes[int(2)]!,
      serie,
      rectificativas: { serie: serieR, proporcion: 0.02 },
    });
    fase('generated sales');
    await escribirContadores(r, numerar(lote.docs));
    const lineasVenta = await escribir(r, lote, articulos);
    fase('sales written');
    const registros = await encadenar(r, eventosDeVentas(v, articulos, new Map([[serie, 'G'], [serieR, 'GR']])), r.app.manager.timeZone);
    fase('VERI*FACTU chain');
    // The counter sales: BENCH_TERMINALES tills, each with its simplificada serie, chain and a caja a day.
    const emisor = await empresaEmisora(db);
    const terminales: TerminalGenerado[] = [];
    for (let t = 1; t <= TERMINALES; t++) {
      const nueva = async (codigo: string, tipo: 'simplificada' | 'rectificativa') =>
        (await db.insertInto('series').values({ codigo, descripcion: `${tipo === 'simplificada' ? 'Tickets' : 'Devoluciones'} del TPV ${t}`, tipo, activo: 1 }).returning('id').executeTakeFirstOrThrow()).id;
      const serieT = await nueva(`GT${t}`, 'simplificada');
      const serieD = await nueva(`GD${t}`, 'rectificativa');
      const fila = {
        nombre: `Mostrador ${t}`, almacen_id: almacenes[(t - 1) % 2]!, serie_id: serieT, serie_rectificativa_id: serieD, cliente_id: null,
        numero_instalacion: `${emisor.nif}-GEN${String(t).padStart(3, '0')}`, formas_pago: JSON.stringify(['efectivo', 'tarjeta']), fondo: 15_000, activo: 1 as const,
        creado: `${dias[0]}T07:00:00.000Z`,
      };
      const { id } = await db.insertInto('tpv_terminales').values(fila).returning('id').executeTakeFirstOrThrow();
      terminales.push({ id, serie_id: serieT, serie_codigo: `GT${t}`, almacen_id: fila.almacen_id, cliente_id: null, numero_instalacion: fila.numero_instalacion, fondo: fila.fondo });
    }
    const tickets = await escribirTickets(r, db, {
      dias,
      tickets: TICKETS,
      terminales,
      articulos: arts.map((a) => ({ id: a.id, codigo: a.codigo, descripcion: a.descripcion, tipo_iva: a.tipo_iva, pvp: a.pvp_1 * 100 })),
      admin: admin.id,
      emisor: { nif: emisor.nif, nombre: emisor.nombre, impuesto: emisor.impuesto },
      timeZone: r.app.manager.timeZone,
      ids: { ...lote.ids, caja: await siguienteId(r, 'tpv_cajas') },
    });
    await seguirSecuencias(r, ['documentos', 'documento_lineas', 'documento_acciones', 'tpv_cajas', 'tpv_cierres', 'series', 'tpv_terminales']);
    fase('TPV tickets, their chains and Z closings');
    return { lineasCompra, lineasVenta, registros, v, lote, tickets };
    }),
    { agregados: false },
  );
  fase("the triggers' rows rebuilt, the ledger's costs (guardarCostesDelLibro), analyze");
  const counts: Record<string, number> = {
    lineas_compra: lineasCompra,
    lineas_venta: lineasVenta + tickets.lineas,
    'de ellas, de tickets': tickets.lineas,
    ledger: compras.ledger.length + lote.ledger.length + tickets.lineas,
    registros: registros + tickets.registros,
    tickets: tickets.tickets,
    cajas_cerradas: tickets.cajas,
  };
  for (const d of lote.docs) counts[d.tipo] = (counts[d.tipo] ?? 0) + 1;
  const porCli = new Map<number, number>();
  for (const { f } of v.facturas) porCli.set(f.cli.id, (porCli.get(f.cli.id) ?? 0) + 1);
  return { counts, cliente: [...porCli].sort((a, b) => b[1] - a[1])[0]![0], proveedor: firstProv, almacen: almacenes[0]! };
}

type Caso = { nombre: string; ac: string; input: Record<string, string>; raw: (r: Runner) => Promise<unknown>; detalle?: () => Promise<unknown> };

function casos(r: Runner, hoy: string, gen: Gen): Caso[] {
  const d = r.name;
  const app = r.app.manager;
  const desde = ultimoAno(hoy)[0]!;
  const mes = `${hoy.slice(0, 7)}-01`;
  const q = (sql: string, params: unknown[]) => () => r.rawQuery(sql, params);
  const ventasRaw = (group: string, extra = '') =>
    q(`select ${group} as k, sum(l.cantidad * l.precio * (10000 - l.descuento) / 1000000000) as base, sum(l.cantidad) as u
      from documentos d join documento_lineas l on l.documento_id = d.id
      where d.fecha >= ${param(d, 1)} and d.fecha <= ${param(d, 2)} and ((d.tipo in ('factura', 'rectificativa') and d.estado = 'emitida') or (d.tipo in ('albaranventa', 'devolucionventa') and d.estado = 'pendiente')) ${extra}
      group by ${group}`, [desde, hoy]);
  return [
    { nombre: 'informeventas (mes, el año)', ac: 'informeventas', input: { desde, hasta: hoy }, raw: ventasRaw('substr(d.fecha, 1, 7)'), detalle: () => informeVentas(app, { desde, hasta: hoy }, 'mes', PAGING(), 'detalle') },
    { nombre: 'informeventas (mes en curso)', ac: 'informeventas', input: {}, detalle: () => informeVentas(app, { desde: mes, hasta: hoy }, 'mes', PAGING(), 'detalle'), raw: q(`select count(*) from documentos d join documento_lineas l on l.documento_id = d.id where d.fecha >= ${param(d, 1)} and d.tipo in ('factura', 'albaranventa')`, [mes]) },
    // By article and informearticulos read the month × article aggregate (migration 0028) for the whole months and the
    // per-document rows for the partial months at the edges (and the units bought per month). Their raw stays the best
    // raw SQL over the documents and lines for the sales by article (the period's lines grouped by article, without the
    // netting, cost, names, units bought or ABC windows the reports add): what the same answer costs with no aggregate.
    { nombre: 'informeventas (artículo, el año)', ac: 'informeventas', input: { desde, hasta: hoy, agrupar: 'articulo', porPagina: '50' }, raw: ventasRaw('l.articulo_id'), detalle: () => informeVentas(app, { desde, hasta: hoy }, 'articulo', PAGING(), 'detalle') },
    { nombre: 'informeventas (cliente, el año)', ac: 'informeventas', input: { desde, hasta: hoy, agrupar: 'cliente' }, raw: ventasRaw('d.cliente_id'), detalle: () => informeVentas(app, { desde, hasta: hoy }, 'cliente', PAGING(), 'detalle') },
    { nombre: 'informeventas (un cliente, el año)', ac: 'informeventas', input: { desde, hasta: hoy, cliente_id: String(gen.cliente) }, raw: ventasRaw('substr(d.fecha, 1, 7)', `and d.cliente_id = ${gen.cliente}`), detalle: () => informeVentas(app, { desde, hasta: hoy, cliente_id: gen.cliente }, 'mes', PAGING(), 'detalle') },
    {
      nombre: 'informecompras (mes, el año)',
      ac: 'informecompras',
      input: { desde, hasta: hoy },
      raw: q(`select substr(d.fecha, 1, 7), sum(l.cantidad * l.precio * (10000 - l.descuento) / 1000000000) from documentos d join documento_lineas l on l.documento_id = d.id
        where d.tipo in ('albarancompra', 'devolucioncompra') and d.fecha >= ${param(d, 1)} and d.fecha <= ${param(d, 2)} group by substr(d.fecha, 1, 7)`, [desde, hoy]),
    },
    // The heaviest grouping: each line on its own (by article), with the latest receipt's price.
    {
      nombre: 'informecompras (artículo, el año)',
      ac: 'informecompras',
      input: { desde, hasta: hoy, agrupar: 'articulo', porPagina: '50' },
      raw: q(`select l.articulo_id, sum(l.cantidad), sum(l.cantidad * l.precio * (10000 - l.descuento) / 1000000000) from documentos d join documento_lineas l on l.documento_id = d.id
        where d.tipo in ('albarancompra', 'devolucioncompra') and d.fecha >= ${param(d, 1)} and d.fecha <= ${param(d, 2)} group by l.articulo_id`, [desde, hoy]),
    },
    {
      nombre: 'informeinventario (hoy)',
      ac: 'informeinventario',
      input: {},
      raw: q('select articulo_id, almacen_id, sum(cantidad) from stock_movimientos group by articulo_id, almacen_id', []),
      detalle: () => informeInventario(app, { fecha: hoy, agrupar: 'articulo', vista: 'todos', dias: 90 }, PAGING(), 'detalle'),
    },
    {
      nombre: 'informeinventario (hace 6 meses)',
      ac: 'informeinventario',
      input: { fecha: ultimoAno(hoy)[180]! },
      raw: q(`select articulo_id, almacen_id, sum(cantidad) from stock_movimientos where fecha < ${param(d, 1)} group by articulo_id, almacen_id`, [ultimoAno(hoy)[181]!]),
    },
    {
      nombre: 'informeinventario (hace 2 meses)',
      ac: 'informeinventario',
      input: { fecha: ultimoAno(hoy)[300]! },
      raw: q(`select articulo_id, almacen_id, sum(cantidad) from stock_movimientos where fecha < ${param(d, 1)} group by articulo_id, almacen_id`, [ultimoAno(hoy)[301]!]),
    },
    {
      nombre: 'informemovimientos (el año, pág. 1)',
      ac: 'informemovimientos',
      input: { desde, hasta: hoy },
      // The same answer: the year's count and sums, and the newest 50 rows (on SQLite in id order: with the dates as
      // parameters and the planner's statistics it would sort the year by the date index).
      raw: async () => {
        await r.rawQuery(`select count(*), sum(case when cantidad > 0 then cantidad else 0 end), sum(case when cantidad < 0 then -cantidad else 0 end), sum(cantidad)
          from stock_movimientos where fecha >= ${param(d, 1)} and fecha < ${param(d, 2)}`, [desde, `${hoy}~`]);
        return r.rawQuery(`select * from stock_movimientos ${d === 'sqlite' ? 'not indexed' : ''} where fecha >= ${param(d, 1)} and fecha < ${param(d, 2)} order by id desc limit 50`, [desde, `${hoy}~`]);
      },
    },
    { nombre: 'informeclientes (el año)', ac: 'informeclientes', input: { desde, hasta: hoy }, raw: ventasRaw('d.cliente_id'), detalle: () => informeClientes(app, { desde, hasta: hoy, agrupar: 'cliente' }, PAGING(), 'detalle') },
    // The purchases per supplier as the report sums them: each line's net (not the documents' headers, rounded per rate).
    {
      nombre: 'informeproveedores (el año)',
      ac: 'informeproveedores',
      input: { desde, hasta: hoy },
      raw: q(`select d.proveedor_id, sum(l.cantidad * l.precio * (10000 - l.descuento) / 1000000000) from documentos d join documento_lineas l on l.documento_id = d.id
        where d.tipo in ('albarancompra', 'devolucioncompra') and d.fecha >= ${param(d, 1)} and d.fecha <= ${param(d, 2)} group by d.proveedor_id`, [desde, hoy]),
    },
    { nombre: 'informearticulos (el año)', ac: 'informearticulos', input: { desde, hasta: hoy, porPagina: '50' }, raw: ventasRaw('l.articulo_id'), detalle: () => informeArticulos(app, { desde, hasta: hoy, vista: 'todos' }, PAGING(), 'detalle') },
    // The raw: what the answer needs, by hand — the selection counted with the articles below cost, and the first page.
    {
      nombre: 'informetarifas',
      ac: 'informetarifas',
      input: { porPagina: '50' },
      raw: async () => {
        await q('select count(*), sum(case when precio_venta > 0 and precio_venta < coalesce(coste_medio, precio_compra) then 1 else 0 end) from articulos where activo = 1', [])();
        return q('select id, codigo, descripcion, precio_venta, coste_medio, precio_compra, pvp_1 from articulos where activo = 1 order by codigo limit 50', [])();
      },
    },
    { nombre: 'librofacturasexpedidas (trimestre)', ac: 'librofacturasexpedidas', input: {}, raw: q(`select d.*, c.nif, c.razon_social, s.codigo from documentos d left join clientes c on c.id = d.cliente_id left join series s on s.id = d.serie_id
      where d.tipo in ('factura', 'rectificativa', 'ticket') and (d.estado = 'emitida' or (d.tipo = 'ticket' and d.estado not in ('anulada', 'anulado', 'borrador'))) and d.fecha >= ${param(d, 1)}
      order by d.fecha, s.codigo, d.numero`, [mes]) },
    { nombre: 'modelo303 (trimestre)', ac: 'modelo303', input: {}, raw: q(`select desglose from documentos where tipo in ('factura', 'rectificativa') and estado = 'emitida' and fecha >= ${param(d, 1)}`, [mes]) },
    {
      nombre: 'modelo347 (el año)',
      ac: 'modelo347',
      input: { ejercicio: hoy.slice(0, 4) },
      // Both sides, by party and month (the quarters): the emitted invoices' headers and the supplier invoices' totals.
      raw: async () => {
        const ano = [`${hoy.slice(0, 4)}-01-01`, `${hoy.slice(0, 4)}-12-31`];
        await r.rawQuery(`select cliente_id, substr(fecha, 6, 2), sum(base + iva + recargo) from documentos where tipo in ('factura', 'rectificativa') and estado = 'emitida'
          and fecha >= ${param(d, 1)} and fecha <= ${param(d, 2)} group by cliente_id, substr(fecha, 6, 2)`, ano);
        return r.rawQuery(`select proveedor_id, substr(fecha, 6, 2), sum(total) from facturas_proveedor where fecha >= ${param(d, 1)} and fecha <= ${param(d, 2)} group by proveedor_id, substr(fecha, 6, 2)`, ano);
      },
    },
    { nombre: 'informeregistros (el año)', ac: 'informeregistros', input: { desde, hasta: hoy }, raw: q(`select estado_envio, tipo, count(*), sum(cast(replace(importe_total, '.', '') as ${d === 'postgres' ? 'bigint' : 'integer'})) from registros_facturacion where creado >= ${param(d, 1)} group by estado_envio, tipo`, [desde]) },
  ];
}

async function medir(r: Runner, cookie: string, c: Caso): Promise<Row> {
  const t = { raw: [] as number[], handler: [] as number[], inject: [] as number[] };
  let total = 0;
  for (let run = -2; run < RUNS; run++) {
    for (const which of [0, 1, 2].map((k) => (k + run + 3) % 3)) {
      const t0 = process.hrtime.bigint();
      if (which === 0) await c.raw(r);
      else if (which === 1) {
        const res = await callHandler(r, c.ac, c.input);
        if (res.RESULT !== '0') throw new Error(`${c.ac}: ${res.message}`);
        total = res.total ?? 0;
      } else {
        const res = await r.app.inject({ method: 'GET', url: '/api/op.asp', query: { ac: c.ac, ...c.input }, headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(res.body);
      }
      if (run >= 0) t[(['raw', 'handler', 'inject'] as const)[which]].push(ms(t0));
    }
  }
  const out = row(c.nombre, `${total} filas`, t.raw, t.handler, t.inject);
  if (c.detalle && DETALLE_RUNS > 0) {
    const det: number[] = [];
    for (let run = -1; run < DETALLE_RUNS; run++) {
      const t0 = process.hrtime.bigint();
      await c.detalle();
      if (run >= 0) det.push(ms(t0));
    }
    const s = stats(det);
    out['detalle p50'] = s.p50.toFixed(1);
    out['detalle p95'] = s.p95.toFixed(1);
  }
  return out;
}

/** BENCH_SQLITE_DIR / BENCH_PG_URL (a kept run's data): what `generate` answers, read back from it. */
async function leerDatos(r: Runner): Promise<{ hoy: string; gen: Gen }> {
  const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: r.app.manager.timeZone }).format(new Date());
  const uno = async (q: string) => Number(Object.values(((await r.rawQuery(q, [])) as Record<string, unknown>[])[0] ?? {})[0] ?? 0);
  const counts: Record<string, number> = {
    lineas_venta: await uno(`select count(*) from documento_lineas l join documentos d on d.id = l.documento_id where d.tipo in ('pedidoventa', 'albaranventa', 'factura', 'rectificativa', 'ticket')`),
    lineas_compra: await uno(`select count(*) from documento_lineas l join documentos d on d.id = l.documento_id where d.tipo in ('pedidocompra', 'albarancompra', 'devolucioncompra')`),
    tickets: await uno(`select count(*) from documentos where tipo = 'ticket'`),
    ledger: await uno('select count(*) from stock_movimientos'),
    articulos: await uno('select count(*) from articulos'),
  };
  const gen = {
    counts,
    cliente: await uno(`select cliente_id from documentos where tipo = 'factura' group by cliente_id order by count(*) desc limit 1`),
    proveedor: await uno('select min(id) from proveedores'),
    almacen: await uno('select min(id) from almacenes'),
  };
  return { hoy, gen };
}

/** The chains the load wrote, checked by the server's own verification (the company's and each terminal's). */
async function comprobar(r: Runner) {
  const t1 = process.hrtime.bigint();
  const cadenas = await comprobarCadenas(r.app.manager.db);
  console.log(
    `${r.name}: VERI*FACTU chains checked in ${ms(t1).toFixed(0)} ms: ${cadenas.map((c) => `${c.emisor} ${c.total} records ${c.correcto ? 'correct' : `BROKEN at ${JSON.stringify(c.rotura)}`}`).join('; ')}`,
  );
}

async function bench(r: Runner) {
  const kept = r.name === 'sqlite' ? process.env.BENCH_SQLITE_DIR : process.env.BENCH_PG_URL;
  if (kept) {
    const { hoy, gen } = await leerDatos(r);
    console.log(`${r.name}: the kept data in ${kept}: ${JSON.stringify(gen.counts)}`);
    await comprobar(r);
    return medirTodo(r, hoy, gen);
  }
  console.log(`\n${r.name}: generating ${ARTICLES} articles, ${SUPPLIERS} suppliers, ${PURCHASES} purchase documents, ${CUSTOMERS} customers, ${DOCS} invoices, ${TICKETS} tickets, ${ANOS} year(s)…`);
  const { hoy, gen, tiempo } = await generarDatos(r, generate);
  console.log(`${r.name}: ${JSON.stringify(gen.counts)}; ${tiempo}`);
  await comprobar(r);
  // The bulk load wrote around the write path (its days are pending): the aggregates rebuilt at once, as «Recalcular».
  const t0 = process.hrtime.bigint();
  const rec = await recalcularAgregados(r.app.manager.db, r.app.manager.dialect);
  console.log(`${r.name}: aggregates rebuilt (Recalcular) in ${ms(t0).toFixed(0)} ms: ${rec.filas} rows`);
  if (r.name === 'postgres') await r.rawQuery('analyze', []);
  return medirTodo(r, hoy, gen);
}

async function medirTodo(r: Runner, hoy: string, gen: Gen) {
  const cookie = await login(r.app);
  await activarFlags(r, cookie, ['almacenes', 'compras', 'ventas', 'ventas_facturas', 'ventas_albaranes', 'ventas_devoluciones', 'hcp', 'furgonetas', 'tpv']);
  const filas: Row[] = [];
  // BENCH_CASOS: only the cases whose name contains one of these (comma-separated).
  const solo = process.env.BENCH_CASOS?.split(',').map((x) => x.trim()).filter(Boolean);
  for (const c of casos(r, hoy, gen).filter((c) => !solo || solo.some((x) => c.nombre.includes(x)))) {
    const f = await medir(r, cookie, c);
    filas.push(f);
    console.log(`  ${f.operation}: handler p50 ${f['handler p50']} ms, p95 ${f['handler p95']} ms (raw p95 ${f['raw p95']} ms${f['detalle p95'] ? `; detalle p95 ${f['detalle p95']} ms` : ''})`);
  }
  console.log(`\n${r.name} (ms, ${RUNS} runs each after 2 warm-ups; raw = the core sums by hand on the driver; detalle = the report from the documents, ${DETALLE_RUNS} runs):`);
  console.table(filas);
}

await onBothEngines('mtpv-informes-', bench);
