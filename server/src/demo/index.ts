// The demo company's living past (first start, unless MANAGER_DEMO=0): a year of purchases, sales with their
// VERI*FACTU records, transfers, counts and losses, written set-based by the same generators as the benches, in the
// first start's transaction. The company is then a sandbox (verifactu.demo 1) until «Empezar con mis datos»
// (Utilidades, `eliminardemo`) removes the whole trial — the generated year and whatever was typed — and makes it live.
//
// What was generated: per table, the id range the generation wrote, in demo_datos (migration 0012_demo); its
// VERI*FACTU records also carry estado_envio 'demo', which the sender never picks (they never reach the AEAT).
import { TABLAS_AGREGADOS, reconstruirAgregados, reconstruirStockAlmacen } from '../informes/agregados.ts';
import { nowIso } from '../context.ts';
import { auditar } from '../actividad/registro.ts';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { FORMA_PAGO_IDS, MESSAGES } from 'shared/domain';
import type { EstadoDemo, MaestrosDemo } from 'shared/domain';
import type { TipoIva } from 'shared/domain';
import { fail } from '../errors.ts';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { escribirAlmacen, generarAlmacen } from './almacen.ts';
import { escribirCompras, escribirFacturasProveedor, generarCompras } from './compras.ts';
import type { ArticuloCompra, ProveedorGenerado } from './compras.ts';
import { guardarCostesPorFecha } from '../documentos/coste.ts';
import { cobrosDesdeFechas } from '../documentos/cobros.ts';
import { addDays, bulk, cif, escritorDe, int, rand, seguirSecuencias, semilla, siguienteId } from './datos.ts';
import type { Escritor } from './datos.ts';
import { escribirTickets } from './tpv.ts';
import { empresaEmisora } from '../tpv/comun.ts';
import { instalacionDeTerminal, numeroInstalacion } from '../fiscal/registro.ts';
import { Lote, encadenar, escribir, escribirContadores, eventosDeVentas, generarVentas, numerar } from './ventas.ts';
import type { ArticuloVenta, ClienteGenerado } from './ventas.ts';

/** The tables whose generated rows the demo records by id range, children first (the order removal deletes them in). */
export const TABLAS_DEMO = [
  'tpv_cierres', 'tpv_cajas', 'registros_facturacion', 'facturas_proveedor', 'stock_movimientos', 'documento_enlaces', 'documento_acciones', 'documento_lineas', 'documentos', 'clientes', 'proveedores',
] as const;
export type TablaDemo = (typeof TABLAS_DEMO)[number];

/** How big the demo's year is: a small hardware and household shop. */
const TAMANO = { proveedores: 17, clientes: 35, compras: 500, facturas: 700, tickets: 1_800 } as const;

/** VERI*FACTU records of the demo: never sent (the sender only picks 'pendiente'). */
export const ESTADO_ENVIO_DEMO = 'demo';

const PROVEEDORES: [string, string][] = [
  ['Tornillería Industrial del Vallés, S.L.', 'FER'],
  ['Pinturas y Barnices del Henares, S.L.', 'PIN'],
  ['Iluminación Técnica Ibérica, S.A.', 'ELE'],
  ['Droguería Mayorista de Levante, S.L.', 'DRO'],
  ['Viveros y Jardín del Tajo, S.L.', 'JAR'],
  ['Herramientas Profesionales del Norte, S.L.', 'FER'],
  ['Material Eléctrico Guadarrama, S.L.', 'ELE'],
  ['Celulosas del Cantábrico, S.A.', 'DRO'],
  ['Abonos y Sustratos Manchegos, S.L.', 'JAR'],
  ['Suministros Ferreteros de la Alcarria, S.L.', 'FER'],
  ['Distribuciones Químicas del Jarama, S.L.', 'DRO'],
  ['Cables y Conductores del Ebro, S.L.', 'ELE'],
  ['Brochas Artesanas de Segovia, S.L.', 'PIN'],
  ['Riego Eficiente Mediterráneo, S.L.', 'JAR'],
  ['Fijaciones Técnicas de Bilbao, S.L.', 'FER'],
  ['Recubrimientos y Esmaltes Castilla, S.A.', 'PIN'],
  ['Importaciones Hogar del Sur, S.L.', 'DRO'],
];
const ACTIVIDADES = ['Reformas', 'Construcciones', 'Instalaciones', 'Mantenimientos', 'Fontanería', 'Pinturas', 'Electricidad', 'Jardines', 'Limpiezas', 'Carpintería'];
const APELLIDOS = ['García', 'Martín', 'Sánchez', 'Navarro', 'Ortega', 'Delgado', 'Castro', 'Serrano', 'Molina', 'Blanco', 'Rubio', 'Vega', 'Ramos', 'Gil'];
const NOMBRES = ['Lucía', 'Javier', 'Carmen', 'Antonio', 'Elena', 'Pablo', 'Isabel', 'Miguel'];
const LUGARES: [string, string, string][] = [
  ['28001', 'Madrid', 'Madrid'], ['28100', 'Alcobendas', 'Madrid'], ['28220', 'Majadahonda', 'Madrid'], ['28801', 'Alcalá de Henares', 'Madrid'],
  ['28901', 'Getafe', 'Madrid'], ['28911', 'Leganés', 'Madrid'], ['28300', 'Aranjuez', 'Madrid'], ['45001', 'Toledo', 'Toledo'],
  ['19001', 'Guadalajara', 'Guadalajara'], ['40001', 'Segovia', 'Segovia'],
];
const LETRAS_DNI = 'TRWAGMYFPDXBNJZSQVHLCKE';

type Rango = { tabla: string; desde: number; hasta: number };

const maximo = async (trx: Kysely<Database>, tabla: TablaDemo) =>
  Number((await sql<{ m: number | null }>`select max(id) as m from ${sql.table(tabla)}`.execute(trx)).rows[0]?.m ?? 0);

/**
 * Runs `escribir` (thousands of ledger rows in or out, or a bench's million) with PostgreSQL's per-row stock_total
 * trigger off, then sets every article's stock_total from the ledger in one statement (and, on both engines, its
 * average cost): thousands of updates of the same few article rows in one transaction each walk the row's growing
 * version chain (seconds, not milliseconds). SQLite updates in place. The reports' per-row triggers are off too on
 * PostgreSQL (the stock per warehouse, the days pending for the aggregates; on SQLite the latter): rebuilt whole afterwards — the
 * aggregates unless `agregados` is false (the caller runs «Recalcular informes», which rebuilds them all).
 * `db` may be a transaction (the demo) or the app's pool (a bench writing on its own connection: the triggers'
 * switch commits at once, so that connection's inserts see it).
 */
export async function sinDisparadores<T>(db: Kysely<Database>, dialect: DialectName, escribir: () => Promise<T>, o: { agregados?: boolean } = {}): Promise<T> {
  const pg = dialect === 'postgres';
  const TRIGGERS: [string, string][] = [
    ['stock_movimientos', 'stock_movimientos_total'], ['stock_movimientos', 'stock_almacen'], ['documentos', 'informe_documentos'],
    ['documento_lineas', 'informe_lineas'], ['documento_enlaces', 'informe_enlaces'], ['tpv_tickets', 'informe_tickets'],
    ['stock_movimientos', 'costes_pendientes'],
  ];
  if (pg) for (const [tabla, trigger] of TRIGGERS) await sql`alter table ${sql.table(tabla)} disable trigger ${sql.raw(trigger)}`.execute(db);
  // SQLite can't switch a trigger off: the days-pending ones (informe_…, informes/agregados.ts) dropped and created again
  // from their own stored SQL; what they would have marked is rebuilt whole below (or by «Recalcular»).
  const pendientes = pg
    ? []
    : (await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'trigger' and name like 'informe%'`.execute(db)).rows;
  for (const t of pendientes) await sql`drop trigger ${sql.raw(t.name)}`.execute(db);
  const hecho = await escribir();
  if (pg) {
    await reconstruirStockAlmacen(db, dialect);
    await sql`update articulos set stock_total = coalesce(s.total, 0) from (select a.id, sum(sm.cantidad) as total from articulos a
      left join stock_movimientos sm on sm.articulo_id = a.id group by a.id) s where s.id = articulos.id and articulos.stock_total is distinct from coalesce(s.total, 0)`.execute(db);
  }
  // The average cost (documentos/coste.ts), which the trigger keeps on insert only, replayed from the ledger as it is now.
  // In date order (docs/costes.md): the demo's year is written purchases first; the whole replay leaves nothing marked.
  await guardarCostesPorFecha(db);
  // The triggers back only now: the costs' update of every sale line (coste_libro) would mark its days pending row by
  // row (minutes for a million lines), and the aggregates are rebuilt whole anyway.
  if (pg) for (const [tabla, trigger] of TRIGGERS) await sql`alter table ${sql.table(tabla)} enable trigger ${sql.raw(trigger)}`.execute(db);
  for (const t of pendientes) await sql.raw(t.sql).execute(db);
  // The reports' aggregates of the whole year at once, rather than day by day at the first report (informes/agregados.ts).
  // PostgreSQL plans the sales query badly on tables without statistics (minutes instead of a second): analyze first.
  if (pg) await sql`analyze`.execute(db);
  if (o.agregados !== false) await reconstruirAgregados(db, dialect);
  return hecho;
}

export type ResumenDemo = { documentos: number; facturas: number; registros: number };

/**
 * The demo's year, ending today (`hoy`, the business's date): written inside `trx` (the first start's transaction)
 * on a freshly seeded company (catalogue, the seed's suppliers and customers, PRINCIPAL and TIENDA).
 */
export async function generarDemo(trx: Transaction<Database>, dialect: DialectName, hoy: string, timeZone: string): Promise<ResumenDemo> {
  return sinDisparadores(trx, dialect, () => generar(trx, dialect, hoy, timeZone));
}

async function generar(trx: Transaction<Database>, dialect: DialectName, hoy: string, timeZone: string): Promise<ResumenDemo> {
  const r = escritorDe(trx, dialect);
  semilla(20261125);
  const antes = new Map<TablaDemo, number>();
  for (const t of TABLAS_DEMO) antes.set(t, await maximo(trx, t));
  const dias = Array.from({ length: 365 }, (_, k) => addDays(hoy, k - 364));
  const admin = (await trx.selectFrom('usuarios').select('id').orderBy('id').executeTakeFirst())?.id ?? null;
  const almacenes = await trx.selectFrom('almacenes').select(['id', 'codigo']).execute();
  const principal = almacenes.find((a) => a.codigo === 'PRINCIPAL')!.id;
  const tienda = (almacenes.find((a) => a.codigo === 'TIENDA') ?? almacenes.find((a) => a.id !== principal) ?? { id: principal }).id;
  const series = await trx.selectFrom('series').select(['id', 'codigo', 'tipo']).execute();
  const serieA = series.find((s) => s.tipo === 'normal')!;
  // The back office's rectificativas: never the till's returns serie (TR, below).
  const serieR = series.find((s) => s.tipo === 'rectificativa' && s.codigo !== SERIE_DEVOLUCIONES_TPV)!;
  const filas = await trx
    .selectFrom('articulos as a')
    .leftJoin('familias as f', 'f.id', 'a.familia_id')
    .select(['a.id', 'a.codigo', 'a.descripcion', 'a.tipo_iva', 'a.precio_compra', 'a.precio_venta', 'a.tarifa_2', 'a.pvp_1', 'f.codigo as familia'])
    .orderBy('a.id')
    .execute();
  const compra: ArticuloCompra[] = filas.map((a) => ({ id: a.id, codigo: a.codigo, descripcion: a.descripcion, tipo_iva: a.tipo_iva as TipoIva, precio_compra: Number(a.precio_compra) }));
  const venta: ArticuloVenta[] = filas.map((a, i) => ({ ...compra[i], precios: [Number(a.precio_venta), Number(a.tarifa_2) || Number(a.precio_venta)] }));

  // Suppliers: the seed's three and the generated ones, each selling one familia (the seed's sell everything).
  const primerProv = await siguienteId(r, 'proveedores');
  const familiaDe = new Map<number, string | null>();
  const seedProvs = await trx.selectFrom('proveedores').select(['id', 'forma_pago', 'retencion']).execute();
  const provs: ProveedorGenerado[] = seedProvs.map((p) => ({ id: p.id, forma_pago: p.forma_pago ?? 'contado', retencion: Number(p.retencion) }));
  for (const p of provs) familiaDe.set(p.id, null);
  const nuevosProv = PROVEEDORES.slice(0, TAMANO.proveedores).map(([razon, familia], i) => {
    const p = { id: primerProv + i, forma_pago: FORMA_PAGO_IDS[int(FORMA_PAGO_IDS.length)] as string, retencion: 0 };
    familiaDe.set(p.id, familia);
    provs.push(p);
    const [cp, poblacion, provincia] = LUGARES[i % LUGARES.length];
    return [p.id, `P${String(p.id).padStart(4, '0')}`, cif(3_100_000 + i * 7919), razon, cp, poblacion, provincia, `pedidos@proveedor${i + 4}.es`, p.forma_pago, 0, 1];
  });
  await bulk(r, 'proveedores', ['id', 'codigo', 'nif', 'razon_social', 'codigo_postal', 'poblacion', 'provincia', 'email', 'forma_pago', 'retencion', 'activo'], nuevosProv);

  // Customers: the seed's five and the generated ones (trades on tarifa 2, shops under recargo, a few private customers).
  const primerCli = await siguienteId(r, 'clientes');
  const seedClis = await trx.selectFrom('clientes').select(['id', 'nif', 'razon_social', 'forma_pago', 'retencion', 'recargo', 'tarifa', 'descuento']).execute();
  const clientes: ClienteGenerado[] = seedClis.map((c) => ({
    id: c.id, nif: c.nif, nombre: c.razon_social, forma_pago: c.forma_pago ?? 'contado', retencion: Number(c.retencion), recargo: Number(c.recargo),
    tarifa: Math.min(2, Number(c.tarifa)), descuento: Number(c.descuento),
  }));
  const nuevosCli = Array.from({ length: TAMANO.clientes }, (_, i) => {
    const particular = i % 7 === 6;
    const apellido = APELLIDOS[i % APELLIDOS.length];
    const dni = 10_000_000 + i * 1_234_567;
    const c: ClienteGenerado = {
      id: primerCli + i,
      nif: particular ? `${dni}${LETRAS_DNI[dni % 23]}` : cif(4_200_000 + i * 6151),
      nombre: particular
        ? `${NOMBRES[i % NOMBRES.length]} ${apellido} ${APELLIDOS[(i + 5) % APELLIDOS.length]}`
        : `${ACTIVIDADES[i % ACTIVIDADES.length]} ${apellido}${i >= ACTIVIDADES.length ? ` ${LUGARES[i % LUGARES.length][1]}` : ''}, S.L.`,
      forma_pago: particular ? 'contado' : (FORMA_PAGO_IDS[int(FORMA_PAGO_IDS.length)] as string),
      retencion: 0,
      recargo: !particular && i % 5 === 1 ? 1 : 0,
      tarifa: !particular && i % 3 === 0 ? 2 : 1,
      descuento: !particular && i % 4 === 2 ? 500 : 0,
    };
    clientes.push(c);
    const [cp, poblacion, provincia] = LUGARES[(i * 3) % LUGARES.length];
    return [
      c.id, `C${String(c.id).padStart(4, '0')}`, c.nif, c.nombre, cp, poblacion, provincia, particular ? null : `administracion@cliente${i + 6}.es`, c.forma_pago, 0,
      c.recargo, c.tarifa, c.descuento, 1,
    ];
  });
  await bulk(
    r,
    'clientes',
    ['id', 'codigo', 'nif', 'razon_social', 'codigo_postal', 'poblacion', 'provincia', 'email', 'forma_pago', 'retencion', 'recargo', 'tarifa', 'descuento', 'activo'],
    nuevosCli,
  );
  await seguirSecuencias(r, ['proveedores', 'clientes']);

  const ids = { doc: await siguienteId(r, 'documentos'), linea: await siguienteId(r, 'documento_lineas'), accion: await siguienteId(r, 'documento_acciones') };
  // Purchases: a few suppliers carry most of them.
  const compras = generarCompras({
    hoy,
    dias,
    admin: admin ?? 0,
    almacenes: [principal, tienda],
    articulos: compra,
    docs: TAMANO.compras,
    lineas: 5,
    ids,
    pickProv: () => provs[rand() < 0.5 ? int(6) : int(provs.length)],
    pickLines: (p, n) => {
      const familia = familiaDe.get(p);
      const propios = filas.map((a, i) => (familia && a.familia !== familia ? -1 : i)).filter((i) => i >= 0);
      return [...new Set(Array.from({ length: n }, () => propios[int(propios.length)]))];
    },
    cantidad: () => (3 + int(14)) * 1000,
  });
  // Sales: the principal serves the trades (the invoices), the shop the counter (the till's tickets, below).
  const lote = new Lote(ids, admin ?? 0);
  const ventas = generarVentas(lote, {
    hoy,
    dias,
    facturas: TAMANO.facturas,
    lineas: 4,
    articulos: venta,
    pickCli: () => clientes[rand() < 0.4 ? int(8) : int(clientes.length)],
    almacenDe: () => (rand() < 0.9 ? principal : tienda),
    serie: serieA.id,
    anuladas: 0.3,
    rectificativas: { serie: serieR.id, proporcion: 0.02 },
    cantidad: () => (1 + int(5)) * 1000,
  });
  const inicial = await trx.selectFrom('stock_movimientos').select(['articulo_id', 'almacen_id', 'cantidad', 'fecha']).execute();
  const almacen = generarAlmacen({
    hoy,
    dias,
    admin: admin ?? 0,
    ids,
    principal,
    tienda,
    articulos: compra,
    ledger: [
      ...inicial.map((m) => [m.articulo_id, m.almacen_id, null, null, Number(m.cantidad), null, null, null, null, null, m.fecha]),
      ...compras.ledger,
      ...lote.ledger,
    ],
  });
  // Numbers per (tipo, serie, ejercicio) in date order (the purchases numbered themselves).
  await escribirContadores(r, numerar([...lote.docs, ...almacen.docs]));
  await escribirCompras(r, compras, compra, admin ?? 0);
  await escribirFacturasProveedor(trx, hoy, admin, antes.get('documentos')! + 1);
  await escribir(r, lote, venta);
  await escribirAlmacen(r, almacen, compra, admin ?? 0);
  const codigos = new Map(series.map((s) => [s.id, s.codigo]));
  const registros = await encadenar(r, eventosDeVentas(ventas, venta, codigos), timeZone, ESTADO_ENVIO_DEMO);
  // Issue 17: each paid invoice's cobro, and what every demo invoice has left.
  await cobrosDesdeFechas(trx, antes.get('documentos')!);
  // The counter: the shop's till (the seed's series T and TR: its own, issue 23), a caja a day from Monday to Saturday with its tickets,
  // closed at night by its Z report (cierres de TPV, the sales by terminal and by cashier).
  await ventasMostrador(trx, r, { dias, tienda, admin: admin ?? 0, timeZone, series, articulos: filas });

  const rangos: Rango[] = [];
  for (const t of TABLAS_DEMO) {
    const hasta = await maximo(trx, t);
    if (hasta > antes.get(t)!) rangos.push({ tabla: t, desde: antes.get(t)! + 1, hasta });
  }
  await trx.insertInto('demo_datos').values(rangos).execute();
  // Issue 22: the company is the demo (a sandbox) until «Empezar con mis datos»; its records are demo, made for «Pruebas».
  await trx.updateTable('verifactu').set({ demo: 1 }).where('id', '=', 1).execute();
  await trx.updateTable('registros_facturacion').set({ demo: 1, entorno: 'pruebas', verifactu: 0 }).where('estado_envio', '=', ESTADO_ENVIO_DEMO).execute();
  const docs = rangos.find((x) => x.tabla === 'documentos');
  return { documentos: docs ? docs.hasta - docs.desde + 1 : 0, facturas: ventas.facturas.length, registros };
}

/** The code of the demo till's returns serie (the seed's). */
const SERIE_DEVOLUCIONES_TPV = 'TR';

/**
 * The demo's till «Mostrador» in the shop and its year of counter sales (demo/tpv.ts): the terminal stays as
 * configuration when the demo is removed; its cajas, closings, tickets and records go with it. Not paired: a browser
 * becomes this till with the code Configuración › TPV gives.
 */
async function ventasMostrador(
  trx: Transaction<Database>,
  r: Escritor,
  o: { dias: string[]; tienda: number; admin: number; timeZone: string; series: { id: number; codigo: string; tipo: string }[]; articulos: { id: number; codigo: string; descripcion: string; tipo_iva: string; pvp_1: number | string }[] },
): Promise<void> {
  const serieT = o.series.find((s) => s.tipo === 'simplificada');
  if (!serieT) return;
  // Its returns in a serie of its own (issue 23: a terminal's series are its own), the seed's TR, made if missing.
  const serieR =
    o.series.find((s) => s.tipo === 'rectificativa' && s.codigo === SERIE_DEVOLUCIONES_TPV) ??
    (await trx
      .insertInto('series')
      .values({ codigo: SERIE_DEVOLUCIONES_TPV, descripcion: 'Devoluciones del TPV (rectificativas de tickets)', tipo: 'rectificativa', activo: 1 })
      .returning(['id', 'codigo', 'tipo'])
      .executeTakeFirstOrThrow());
  const emisor = await empresaEmisora(trx);
  const creado = `${o.dias[0]}T07:00:00.000Z`;
  const { id } = await trx
    .insertInto('tpv_terminales')
    .values({
      nombre: 'Mostrador', almacen_id: o.tienda, serie_id: serieT.id, serie_rectificativa_id: serieR.id, cliente_id: null, numero_instalacion: `demo-${Date.now()}`,
      formas_pago: JSON.stringify(['efectivo', 'tarjeta', 'bizum']), fondo: 10_000, activo: 1, creado,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Its installation number as editarterminal gives it: the installation's unique number and the terminal's id.
  const instalacion = instalacionDeTerminal(await numeroInstalacion(trx), id);
  await trx.updateTable('tpv_terminales').set({ numero_instalacion: instalacion }).where('id', '=', id).execute();
  // Its pages of buttons (issue 23): one per family with articles, in the family's name order, showing its active
  // articles (a family page); the shared set, unless one exists. Configuration, like the terminal.
  const compartidas = await trx.selectFrom('tpv_paginas').select('id').where('terminal_id', 'is', null).limit(1).execute();
  if (!compartidas.length) {
    const familias = await trx
      .selectFrom('familias as f')
      .select(['f.id', 'f.nombre'])
      .where('f.activo', '=', 1)
      .where((eb) => eb.exists(eb.selectFrom('articulos as a').select('a.id').whereRef('a.familia_id', '=', 'f.id').where('a.activo', '=', 1)))
      .orderBy('f.nombre')
      .execute();
    const colores = ['#fde68a', '#bfdbfe', '#bbf7d0', '#fecaca', '#ddd6fe', '#fed7aa'];
    if (familias.length) {
      await trx
        .insertInto('tpv_paginas')
        .values(familias.map((f, i) => ({ terminal_id: null, orden: i, nombre: f.nombre, familia_id: f.id, color: colores[i % colores.length] })))
        .execute();
    }
  }
  // What the shop holds of each article once the rest of the year is written: the counter never sells more.
  const enTienda = await trx
    .selectFrom('stock_movimientos')
    .select(['articulo_id', (eb) => eb.fn.sum<number>('cantidad').as('q')])
    .where('almacen_id', '=', o.tienda)
    .groupBy('articulo_id')
    .execute();
  const disponible = new Map(enTienda.map((x) => [x.articulo_id, Number(x.q)]));
  await escribirTickets(r, trx, {
    disponible,
    dias: o.dias.filter((d) => new Date(`${d}T12:00:00Z`).getUTCDay() !== 0),
    tickets: TAMANO.tickets,
    terminales: [{ id, serie_id: serieT.id, serie_codigo: serieT.codigo, almacen_id: o.tienda, cliente_id: null, numero_instalacion: instalacion, fondo: 10_000 }],
    // The till's price: PVP 1 (cents) in ten-thousandths.
    articulos: o.articulos.map((a) => ({ id: a.id, codigo: a.codigo, descripcion: a.descripcion, tipo_iva: a.tipo_iva as TipoIva, pvp: Number(a.pvp_1) * 100 })),
    admin: o.admin,
    emisor: { nif: emisor.nif, nombre: emisor.nombre, impuesto: emisor.impuesto },
    timeZone: o.timeZone,
    ids: { doc: await siguienteId(r, 'documentos'), linea: await siguienteId(r, 'documento_lineas'), accion: await siguienteId(r, 'documento_acciones'), caja: await siguienteId(r, 'tpv_cajas') },
    lineas: () => 1 + int(2),
    cantidad: () => (rand() < 0.85 ? 1 : 2) * 1000,
    estadoEnvio: ESTADO_ENVIO_DEMO,
  });
  await seguirSecuencias(r, ['documentos', 'documento_lineas', 'documento_acciones', 'tpv_cajas', 'tpv_cierres', 'tpv_terminales']);
}

/** The demo's id ranges (none: no demo data). */
export async function rangosDemo(db: Kysely<Database>): Promise<Map<string, Rango>> {
  const rows = await db.selectFrom('demo_datos').select(['tabla', 'desde', 'hasta']).execute();
  return new Map(rows.map((x) => [x.tabla, { tabla: x.tabla, desde: Number(x.desde), hasta: Number(x.hasta) }]));
}

/**
 * Every table «Empezar con mis datos» empties whole, children first (the order it deletes them in): what the trial
 * wrote — the generated year and whatever the user typed — with the reports' aggregates and every VERI*FACTU record,
 * its chain heads and envíos. A table with transactional rows missing here is a bug (demo.test.ts checks each is empty).
 */
export const TABLAS_PRUEBA = [
  // Issue 26: remesas (their receipts name cobros and invoices) and supplier payments.
  'remesa_recibos', 'remesas', 'pagos_proveedor',
  'tpv_incidencias', 'tpv_vales', 'documento_enlaces', 'tpv_pagos', 'tpv_tickets', 'tpv_movimientos', 'tpv_cierres', 'tpv_cajas', 'cobros', 'facturas_proveedor_documentos',
  'facturas_proveedor', 'parte_horas', 'stock_movimientos', 'stock_almacen', 'costes_pendientes', 'documento_acciones', 'registros_facturacion', 'verifactu_envios',
  'registros_cadena', 'documento_lineas', 'documentos', 'contadores', 'demo_datos', ...TABLAS_AGREGADOS,
] as const;

/** The masters the owner may keep or not (`maestros`: 'ninguno' removes them, with what hangs from an article). */
export const TABLAS_MAESTROS = [
  'tpv_botones', 'articulo_ubicaciones', 'articulo_materiales', 'articulo_procesos', 'articulo_componentes', 'articulo_proporciones', 'articulos',
  'clientes', 'proveedores',
] as const;

const contarTabla = async (db: Kysely<Database>, tabla: string, where = sql`1 = 1`) =>
  Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(tabla)} where ${where}`.execute(db)).rows[0]?.n ?? 0);

/**
 * Why «Empezar con mis datos» can't run, or null: the company is live already (its documents are real), or the AEAT
 * accepted in production one of its own records (not the demo's): inalterable, kept for the years the law asks.
 * The environment is the envío's when the record left, else the one it was made for.
 */
async function bloqueo(db: Kysely<Database>): Promise<string | null> {
  const v = await db.selectFrom('verifactu').select('demo').where('id', '=', 1).executeTakeFirst();
  if (Number(v?.demo ?? 0) !== 1) return MESSAGES.demoEnVivo;
  const aceptado = await sql<{ x: number }>`select 1 as x from registros_facturacion r left join verifactu_envios e on e.id = r.envio_id
    where r.demo = 0 and r.estado_envio in ('correcto', 'aceptado_con_errores') and coalesce(e.entorno, r.entorno) = 'produccion'`.execute(db);
  return aceptado.rows.length ? MESSAGES.demoAceptadoProduccion : null;
}

/** `listadodemo`: whether the company is the demo, what «Empezar con mis datos» would remove and keep, and why not. */
export async function estadoDemo(db: Kysely<Database>): Promise<EstadoDemo> {
  const v = await db.selectFrom('verifactu').select('demo').where('id', '=', 1).executeTakeFirst();
  const c = (tabla: string, where?: ReturnType<typeof sql>) => contarTabla(db, tabla, where);
  return {
    demo: Number(v?.demo ?? 0) === 1,
    bloqueo: await bloqueo(db),
    borra: {
      documentos: await c('documentos'),
      facturas: await c('documentos', sql`tipo in ('factura', 'rectificativa')`),
      tickets: await c('documentos', sql`tipo = 'ticket'`),
      registros: await c('registros_facturacion'),
      cobros: await c('cobros'),
      movimientos: await c('stock_movimientos'),
      cajas: await c('tpv_cajas'),
      cierres: await c('tpv_cierres'),
      facturas_proveedor: await c('facturas_proveedor'),
      envios: await c('verifactu_envios'),
    },
    conserva: {
      articulos: await c('articulos'),
      clientes: await c('clientes'),
      proveedores: await c('proveedores'),
      almacenes: await c('almacenes'),
      series: await c('series'),
      usuarios: await c('usuarios'),
      terminales: await c('tpv_terminales'),
      familias: await c('familias'),
    },
  };
}

export type ResultadoEmpezar = EstadoDemo['borra'] & { maestros: MaestrosDemo };

/**
 * «Empezar con mis datos» (issue 22), in the caller's transaction: every document of the trial (the demo's generated
 * year and whatever the user typed while trying), its lines, links, actions, ledger rows and the stock and costs they
 * made, tickets, cajas, closings, cash movements, cobros, supplier invoices, partes, the reports' aggregates, every
 * VERI*FACTU record with its chain heads and envíos, and every serie's counter (TABLAS_PRUEBA); the configuration stays
 * (company, series, users, roles, terminals, warehouses, familias, tarifas…) and the articles, customers and suppliers
 * unless `maestros` is 'ninguno'. The company is then live: verifactu.demo 0, made for «Producción» (its sending stays
 * as it was), `inicio` now (a paired till starts its chain and numbering again: tpv/terminales.ts). Refused, with
 * nothing changed, while `bloqueo` says why.
 */
export async function eliminarDemo(trx: Transaction<Database>, dialect: DialectName, maestros: MaestrosDemo): Promise<ResultadoEmpezar> {
  // One at a time (PostgreSQL; SQLite's writers are serialised anyway): a second one waits, then finds the company live.
  if (dialect === 'postgres') await trx.selectFrom('verifactu').select('id').where('id', '=', 1).forUpdate().execute();
  const motivo = await bloqueo(trx);
  if (motivo) throw fail(motivo, '2');
  const { borra } = await estadoDemo(trx);
  await sinDisparadores(trx, dialect, () => eliminar(trx, maestros));
  // The audit trail's line (actividad/registro.ts): what went, and which masters stayed.
  auditar({ entidad: 'demo', despues: { ...borra, maestros } });
  await trx
    .updateTable('verifactu')
    .set({ demo: 0, entorno: 'produccion', inicio: nowIso(), fallos: 0, proximo_envio: null, ultimo_envio: null, ultimo_error: null })
    .where('id', '=', 1)
    .execute();
  return { ...borra, maestros };
}

async function eliminar(trx: Transaction<Database>, maestros: MaestrosDemo): Promise<void> {
  // A caja names its closing and a closing its caja: the link goes first.
  await sql`update tpv_cajas set cierre_id = null`.execute(trx);
  for (const tabla of TABLAS_PRUEBA) await sql`delete from ${sql.table(tabla)}`.execute(trx);
  if (maestros === 'ninguno') {
    // A terminal's default customer is configuration that names a master: it goes back to none.
    await sql`update tpv_terminales set cliente_id = null`.execute(trx);
    for (const tabla of TABLAS_MAESTROS) await sql`delete from ${sql.table(tabla)}`.execute(trx);
  }
}
