// Sales on the document engine at scale, on SQLite and on PostgreSQL: `pnpm bench:ventas`.
// Generates a year of sales — 5.000 customers, 100.000 articles, 20.000 emitted invoices of 10 lines: most made from
// albaranes (one, by `facturar`, or two, by hfa) that were served from confirmed pedidos, the rest direct sales that
// moved stock when emitted; a few cancelled; the older ones paid — plus the pending work of the last weeks (albaranes
// not invoiced yet, confirmed orders not served), written set-based straight into the tables as the engine would have
// left them: line links and pending units, the action log with the `detalle` the undos use, the stock ledger, the
// counters, and the VERI*FACTU chain of 20.000 records (altas and anulaciones, huellas and XML made by the server's
// own functions). Then measures, each against the raw SQL of the same answer in the same run:
// - saving a 20-line invoice and emitting it (editarfactura + emitirfactura: stock, number, huella, XML);
// - hfa of 1.000 albaranes of 200 customers into 200 invoices, emitted in one transaction (facturarhfa);
// - a customer's invoice list page for a quarter (listadofacturas cliente_id, desde, hasta);
// - the chain check over every record (comprobarregistrosfacturacion).
// A write's answer is the document after it, so its raw counterpart also reads the document back.
// BENCH_CUSTOMERS (5000), BENCH_ARTICLES (100000), BENCH_DOCS (20000 invoices), BENCH_RUNS (300; the emissions at most 100),
// BENCH_HFA_RUNS (4), BENCH_CHECK_RUNS (6), BENCH_ONLY (sqlite|postgres), DATABASE_URL, BENCH_KEEP=1.
import crypto from 'node:crypto';
import os from 'node:os';
import { FORMA_PAGO_IDS, calcularTotales, fechaAeat, importeAeat, numeroDocumento } from 'shared/domain';
import type { ComprobacionCadena, DesgloseIva, Documento, HuellaAlta, HuellaAnulacion, TipoIva } from 'shared/domain';
import { startServer } from '../server/scripts/spawn-server.mjs';
import { fechaHoraHuso, huellaDe, xmlAlta } from '../server/src/fiscal/registro.ts';
import type { DatosAlta } from '../server/src/fiscal/registro.ts';
import {
  Lote, albaranDirecto, elegir, encadenar, escribir, escribirContadores, eventosDeVentas, generarVentas, numerar,
} from '../server/src/demo/ventas.ts';
import type { ArticuloVenta as Articulo, ClienteGenerado } from '../server/src/demo/ventas.ts';
import {
  EMPRESAS, LUGARES, POBLACIONES, addDays, articulosGenerados, bulk, bulkArticulos, cif, int, LINEAS, N, RUNS, WRITE_RUNS, rand, semilla, siguienteId,
  ultimoAno,
} from './datos.ts';
import {
  ADMIN, activarFlags, callHandler, generarDatos, headerSql, login, medirLectura, ms, onBothEngines, param, rawEnlaces, rawInsertarLineas, rawReadBack, rawSiguienteNumero, rawStockDeLineas, row, tuples,
  type Row, type Runner,
} from './runners.ts';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 5_000);
const DOCS = Number(process.env.BENCH_DOCS ?? 20_000);
/** Even: each side goes first as often as second. */
const HFA_RUNS = Number(process.env.BENCH_HFA_RUNS ?? 4);
const CHECK_RUNS = Number(process.env.BENCH_CHECK_RUNS ?? 6);
/** hfa: 1.000 albaranes of 5 lines, 5 for each of 200 customers, all on one day. */
const HFA_CLIENTES = 200;
const HFA_POR_CLIENTE = 5;
const HFA_LINEAS = 5;

type Gen = {
  admin: { id: number; nombre: string; email: string };
  almacen: number;
  serie: number;
  emisor: string;
  clientes: ClienteGenerado[];
  articulos: Articulo[];
  counts: Record<string, number>;
  /** The customer with most invoices. */
  busiest: number;
  /** An albarán invoiced by `facturar`, and its invoice. */
  muestra: { albaran: number; factura: number };
};

async function generate(r: Runner, hoy: string): Promise<Gen> {
  semilla(20261208);
  const db = r.app.manager.db;
  const admin = await db.selectFrom('usuarios').select(['id', 'nombre', 'email']).orderBy('id').executeTakeFirstOrThrow();
  const almacen = (await db.selectFrom('almacenes').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  // A serie of its own: its numbers start with the generated year whatever the demo holds.
  const serie = (await db.insertInto('series').values({ codigo: 'G', descripcion: 'Facturas del año generado', tipo: 'normal', activo: 1 }).returning('id').executeTakeFirstOrThrow()).id;

  // Customers: a few of them much busier than the rest; some with recargo, retención, another tarifa, a discount.
  const firstCli = await siguienteId(r, 'clientes');
  const clientes: ClienteGenerado[] = Array.from({ length: CUSTOMERS }, (_, i) => ({
    id: firstCli + i,
    nif: cif(6_000_000 + i * 37),
    nombre: `${EMPRESAS[i % EMPRESAS.length]} ${LUGARES[int(LUGARES.length)]} ${i + 1}, S.L.`,
    forma_pago: FORMA_PAGO_IDS[int(FORMA_PAGO_IDS.length)] as string,
    retencion: rand() < 0.03 ? 1500 : 0,
    recargo: rand() < 0.1 ? 1 : 0,
    tarifa: 1 + int(3),
    descuento: rand() < 0.2 ? [500, 1000][int(2)] : 0,
  }));
  await bulk(
    r,
    'clientes',
    ['id', 'codigo', 'nif', 'razon_social', 'codigo_postal', 'poblacion', 'provincia', 'email', 'forma_pago', 'retencion', 'recargo', 'tarifa', 'descuento', 'activo'],
    clientes.map((c, i) => {
      const pob = POBLACIONES[i % POBLACIONES.length];
      return [
        c.id, `C${10_000 + i}`, c.nif, c.nombre, `${String(1 + (i % 50)).padStart(2, '0')}00${i % 10}`, pob, pob, `compras${i + 1}@cliente.es`, c.forma_pago,
        c.retencion, c.recargo, c.tarifa, c.descuento, 1,
      ];
    }),
  );
  const arts = articulosGenerados(await siguienteId(r, 'articulos'), N, 'VEN');
  await bulkArticulos(r, arts);
  const articulos: Articulo[] = arts.map((a) => ({ id: a.id, codigo: a.codigo, descripcion: a.descripcion, tipo_iva: a.tipo_iva, precios: [a.precio_venta, a.tarifa_2, a.tarifa_3] }));

  const lote = new Lote(
    { doc: await siguienteId(r, 'documentos'), linea: await siguienteId(r, 'documento_lineas'), accion: await siguienteId(r, 'documento_acciones') },
    admin.id,
  );
  const year = ultimoAno(hoy);
  const pickCli = () => clientes[rand() < 0.3 ? int(Math.min(20, CUSTOMERS)) : int(CUSTOMERS)];
  const v = generarVentas(lote, { hoy, dias: year, facturas: DOCS, lineas: LINEAS, articulos, pickCli, almacenDe: () => almacen, serie });
  const { facturas, anuladas, muestra } = v;
  await escribirContadores(r, numerar(lote.docs));
  const lineas = await escribir(r, lote, articulos);
  const registros = await encadenar(r, eventosDeVentas(v, articulos, new Map([[serie, 'G']])), r.app.manager.timeZone);

  const counts: Record<string, number> = { lineas, enlaces: lote.enlaces.length, ledger: lote.ledger.length, registros, anuladas: anuladas.length };
  for (const d of lote.docs) counts[d.tipo] = (counts[d.tipo] ?? 0) + 1;
  const porCli = new Map<number, number>();
  for (const { f } of facturas) porCli.set(f.cli.id, (porCli.get(f.cli.id) ?? 0) + 1);
  const busiest = [...porCli].sort((a, b) => b[1] - a[1])[0][0];
  const [emisor] = (await r.rawQuery('select nif from configuracion order by id limit 1', [])) as { nif: string }[];
  return { admin, almacen, serie, emisor: emisor.nif, clientes, articulos, counts, busiest, muestra };
}

/** 1.000 pending albaranes of 5 lines, 5 for each of 200 customers, all dated `fecha` (untimed: hfa's input), numbered after the counter. */
async function albaranesHfa(r: Runner, gen: Gen, fecha: string): Promise<void> {
  const d = r.name;
  const lote = new Lote(
    { doc: await siguienteId(r, 'documentos'), linea: await siguienteId(r, 'documento_lineas'), accion: await siguienteId(r, 'documento_acciones') },
    gen.admin.id,
  );
  for (const c of elegir(gen.clientes.length, HFA_CLIENTES)) {
    for (let k = 0; k < HFA_POR_CLIENTE; k++) albaranDirecto(lote, gen.articulos, gen.almacen, gen.clientes[c], fecha, HFA_LINEAS);
  }
  const ejercicio = Number(fecha.slice(0, 4));
  const where = `tipo = 'albaranventa' and serie_id = 0 and ejercicio = ${param(d, 1)}`;
  const [c] = (await r.rawQuery(`select ultimo from contadores where ${where}`, [ejercicio])) as { ultimo: number }[];
  const key = `albaranventa|0|${ejercicio}`;
  const contadores = numerar(lote.docs, new Map([[key, Number(c?.ultimo ?? 0)]]));
  await escribir(r, lote, gen.articulos);
  const ultimo = contadores.get(key)!.ultimo;
  if (c) await r.rawQuery(`update contadores set ultimo = ${param(d, 2)} where ${where}`, [ejercicio, ultimo]);
  else await bulk(r, 'contadores', ['tipo', 'serie_id', 'ejercicio', 'ultimo', 'ultima_fecha'], [['albaranventa', 0, ejercicio, ultimo, fecha]]);
}

type Huella = { orden: number; anterior: Eslabon | null };

/**
 * The chain's next place (registrarAlta's siguienteEnCadena): the head advanced and locked, and the record it follows —
 * the one this transaction wrote just before (`previo`: hfa's), else read.
 */
async function rawSiguienteEnCadena(r: Runner, emisor: string, previo?: Huella): Promise<Huella> {
  const d = r.name;
  const [c] = (await r.rawQuery(`update registros_cadena set ultimo_orden = ultimo_orden + 1 where emisor = ${param(d, 1)} returning ultimo_orden`, [emisor])) as {
    ultimo_orden: number;
  }[];
  const orden = Number(c.ultimo_orden);
  if (previo && previo.orden === orden - 1) return { orden, anterior: previo.anterior };
  const [anterior] = (await r.rawQuery(
    `select emisor as id_emisor, num_serie, fecha_expedicion, huella, fecha_hora_huso from registros_facturacion where emisor = ${param(d, 1)} and orden = ${param(d, 2)}`,
    [emisor, orden - 1],
  )) as Eslabon[];
  return { orden, anterior: anterior ?? null };
}

type Emision = {
  id: number;
  fecha: string;
  almacen_id: number;
  serie: string;
  emisor: { nif: string; nombre: string; instalacion: string };
  cliente: { nif: string; razon_social: string };
  base: number;
  iva: number;
  recargo: number;
  desglose: string;
  con_recargo: number;
  accion: number;
  usuario: number;
};

/**
 * The raw side of emitir once the document is locked and its action logged: the number (one `update … returning` that
 * also refuses a date before the serie's last), the direct-sale stock (`insert … select` of the lines no link ties to a
 * parent), the registro de alta (huella and XML by the server's functions), and number and state in one update.
 * Answers the chain's place it took (hfa chains the next record to it without reading it back).
 */
async function rawEmitir(r: Runner, e: Emision, serieId: number, conStock: boolean, previo?: Huella): Promise<Huella> {
  const d = r.name;
  const numero = await rawSiguienteNumero(r, 'factura', serieId, e.fecha, true);
  const numSerie = numeroDocumento(e.serie, Number(e.fecha.slice(0, 4)), numero);
  if (conStock) {
    // Kits and services move no stock of their own (none here: one probe, as the engine's).
    await r.rawQuery(
      `select 1 as x from documento_lineas l join articulos a on a.id = l.articulo_id where l.documento_id = ${param(d, 1)}
       and (a.unidad_medida = 'h' or exists (select 1 from articulo_componentes c where c.articulo_id = l.articulo_id)) limit 1`,
      [e.id],
    );
    await rawStockDeLineas(r, { tipo: 'factura', docId: e.id, almacen: e.almacen_id, signo: -1, causa: 'venta', accionId: e.accion, fecha: e.fecha, soloDirectas: true });
  }
  const { orden, anterior } = await rawSiguienteEnCadena(r, e.emisor.nif, previo);
  const ts = fechaHoraHuso(new Date(Math.floor(Date.now() / 1000) * 1000), r.app.manager.timeZone);
  const cuota = Number(e.iva) + Number(e.recargo);
  const importe = Number(e.base) + cuota;
  const campos: HuellaAlta = {
    IDEmisorFactura: e.emisor.nif, NumSerieFactura: numSerie, FechaExpedicionFactura: fechaAeat(e.fecha), TipoFactura: 'F1', CuotaTotal: importeAeat(cuota),
    ImporteTotal: importeAeat(importe), Huella: anterior?.huella ?? '', FechaHoraHusoGenRegistro: ts,
  };
  const huella = huellaDe(campos);
  const datos: DatosAlta = {
    emisor: e.emisor, numSerie, fecha: e.fecha, tipoFactura: 'F1', descripcion: 'Venta de bienes y prestación de servicios',
    destinatario: { nif: e.cliente.nif, nombre: e.cliente.razon_social }, desglose: JSON.parse(e.desglose) as DesgloseIva[], conRecargo: e.con_recargo === 1,
    cuotaTotal: cuota, importeTotal: importe,
  };
  const xml = xmlAlta(datos, anterior, ts, huella, e.emisor.instalacion);
  await r.rawQuery(
    `insert into registros_facturacion (emisor, orden, tipo, documento_id, num_serie, fecha_expedicion, tipo_factura, cuota_total, importe_total,
       huella_anterior, huella, fecha_hora_huso, xml, creado) values ${tuples(d, 1, 14)}`,
    [e.emisor.nif, orden, 'alta', e.id, numSerie, campos.FechaExpedicionFactura, 'F1', campos.CuotaTotal, campos.ImporteTotal, anterior?.huella ?? '', huella, ts, xml, new Date().toISOString()],
  );
  await r.rawQuery(`update registros_cadena set ultima_huella = ${param(d, 1)} where emisor = ${param(d, 2)}`, [huella, e.emisor.nif]);
  await r.rawQuery(
    `update documentos set numero = ${param(d, 1)}, ejercicio = ${param(d, 2)}, tipo_factura = 'F1', estado = 'emitida', modificado = ${param(d, 3)},
       modificado_por = ${param(d, 4)} where id = ${param(d, 5)}`,
    [numero, Number(e.fecha.slice(0, 4)), new Date().toISOString(), e.usuario, e.id],
  );
  return { orden, anterior: { id_emisor: e.emisor.nif, num_serie: numSerie, fecha_expedicion: campos.FechaExpedicionFactura, huella, fecha_hora_huso: ts } };
}

/** What the raw emission reads first: the locked draft, the logged action, the serie, the issuer and the customer. */
async function rawAbrirEmision(r: Runner, id: number, usuario: number): Promise<Emision> {
  const d = r.name;
  const [doc] = (await r.rawQuery(
    `select id, estado, fecha, serie_id, cliente_id, almacen_id, base, iva, recargo, desglose, con_recargo from documentos
     where id = ${param(d, 1)} and tipo = 'factura'${d === 'postgres' ? ' for update' : ''}`,
    [id],
  )) as (Omit<Emision, 'serie' | 'emisor' | 'cliente' | 'accion' | 'usuario'> & { estado: string; serie_id: number; cliente_id: number })[];
  if (doc.estado !== 'borrador') throw new Error(doc.estado);
  const [acc] = (await r.rawQuery(
    `insert into documento_acciones (documento_id, accion, fecha, usuario_id, estado_antes) values (${param(d, 1)}, 'emitir', ${param(d, 2)}, ${param(d, 3)}, 'borrador') returning id`,
    [id, new Date().toISOString(), usuario],
  )) as { id: number }[];
  const [serie] = (await r.rawQuery(`select codigo, tipo, activo from series where id = ${param(d, 1)}`, [doc.serie_id])) as { codigo: string }[];
  const [conf] = (await r.rawQuery('select id, razon_social, nif, minorista from configuracion order by id limit 1', [])) as { id: number; razon_social: string; nif: string }[];
  const [cliente] = (await r.rawQuery(`select nif, razon_social from clientes where id = ${param(d, 1)}`, [doc.cliente_id])) as Emision['cliente'][];
  return {
    ...doc, serie: serie.codigo, emisor: { nif: conf.nif, nombre: conf.razon_social, instalacion: `${conf.nif}-${String(conf.id).padStart(3, '0')}` }, cliente,
    accion: Number(acc.id), usuario,
  };
}

/** Saving a 20-line draft invoice by hand, as editarfactura does, in one transaction (the caller reads it back): its id. */
async function rawGuardarFactura(r: Runner, gen: Gen, hoy: string, cli: Cliente, lineas: { articulo_id: number; cantidad: number }[], clave: string): Promise<number> {
  const d = r.name;
  let id = 0;
  await r.rawTransaction(async () => {
    await r.rawQuery(`select id, tipo from documentos where clave = ${param(d, 1)}`, [clave]);
    const [c] = (await r.rawQuery(`select activo, forma_pago, retencion, recargo, tarifa, descuento from clientes where id = ${param(d, 1)}`, [cli.id])) as {
      forma_pago: string | null;
      retencion: number;
      recargo: number;
      tarifa: number;
      descuento: number;
    }[];
    // The tarifa's price, or tarifa 1's where that one has none (as the engine's default).
    const tarifa = ['precio_venta', 'coalesce(nullif(tarifa_2, 0), precio_venta)', 'coalesce(nullif(tarifa_3, 0), precio_venta)'][Number(c.tarifa) - 1];
    const ids = lineas.map((l) => l.articulo_id);
    const arts = (await r.rawQuery(
      `select id, codigo, descripcion, tipo_iva, familia_id, precio_compra, ${tarifa} as precio from articulos where id in (${ids.map((_, k) => param(d, k + 1)).join(', ')})`,
      ids,
    )) as { id: number; codigo: string; descripcion: string; tipo_iva: TipoIva; precio: number }[];
    const byId = new Map(arts.map((a) => [Number(a.id), a]));
    await r.rawQuery(`select tipo, activo from series where id = ${param(d, 1)}`, [gen.serie]);
    await r.rawQuery(`select activo from almacenes where id = ${param(d, 1)}`, [gen.almacen]);
    const ls = lineas.map((l) => ({ ...byId.get(l.articulo_id)!, ...l, precio: Number(byId.get(l.articulo_id)!.precio), descuento: Number(c.descuento), pendiente: 0 }));
    const t = calcularTotales(ls, { retencion: c.retencion, recargo: Number(c.recargo) === 1 });
    const [doc] = (await r.rawQuery(
      `insert into documentos (tipo, serie_id, numero, ejercicio, fecha, estado, cliente_id, almacen_id, forma_pago, retencion, observaciones, con_recargo,
         base, iva, recargo, retencion_importe, total, desglose, clave, creado, creado_por)
       values ('factura', ${param(d, 1)}, null, ${[...Array(18)].map((_, k) => param(d, k + 2)).join(', ')}) returning id`,
      [gen.serie, Number(hoy.slice(0, 4)), hoy, 'borrador', cli.id, gen.almacen, c.forma_pago, c.retencion, null, Number(c.recargo) === 1 ? 1 : 0, t.base, t.iva, t.recargo,
        t.retencion_importe, t.total, JSON.stringify(t.desglose), clave, new Date().toISOString(), gen.admin.id],
    )) as { id: number }[];
    id = Number(doc.id);
    await rawInsertarLineas(r, id, ls);
  });
  return id;
}

/** Saving and emitting a 20-line direct-sale invoice, a new one each run (its lines at the customer's tarifa and discount). */
async function emisiones(r: Runner, gen: Gen, hoy: string): Promise<Row[]> {
  const lados = () => ({ guardar: [] as number[], emitir: [] as number[], total: [] as number[] });
  const times = { raw: lados(), handler: lados() };
  for (let i = -5; i < WRITE_RUNS; i++) {
    for (const which of i % 2 ? [0, 1] : [1, 0]) {
      const cli = gen.clientes[int(gen.clientes.length)];
      const lineas = elegir(gen.articulos.length, 20).map((a, k) => ({ articulo_id: gen.articulos[a].id, cantidad: (1 + (k % 7)) * 1000 }));
      const clave = crypto.randomUUID();
      const t0 = process.hrtime.bigint();
      let t1: bigint;
      if (which === 1) {
        const saved = await callHandler<Documento>(
          r,
          'editarfactura',
          { fecha: hoy, cliente_id: cli.id, almacen_id: gen.almacen, serie_id: gen.serie, lineas, clave },
          gen.admin,
        );
        if (saved.RESULT !== '0') throw new Error(`editarfactura: ${saved.message}`);
        t1 = process.hrtime.bigint();
        const res = await callHandler<Documento>(r, 'emitirfactura', { id: saved.data![0].id }, gen.admin);
        if (res.RESULT !== '0') throw new Error(`emitirfactura: ${res.message}`);
      } else {
        const id = await rawGuardarFactura(r, gen, hoy, cli, lineas, clave);
        await rawReadBack(r, 'factura', id);
        t1 = process.hrtime.bigint();
        await r.rawTransaction(async () => {
          const e = await rawAbrirEmision(r, id, gen.admin.id);
          await rawEmitir(r, e, gen.serie, true);
        });
        await rawReadBack(r, 'factura', id);
      }
      if (i >= 0) {
        const side = times[which === 0 ? 'raw' : 'handler'];
        side.guardar.push(Number(t1 - t0) / 1e6);
        side.emitir.push(ms(t1));
        side.total.push(ms(t0));
      }
    }
  }
  return [
    row('save a 20-line invoice (draft)', `${WRITE_RUNS} runs, new each`, times.raw.guardar, times.handler.guardar),
    row('emit it: number, stock, huella, XML', 'direct sale: 20 ledger rows', times.raw.emitir, times.handler.emitir),
    row('save + emit', 'the aim: p95 ≤ 10 ms on SQLite', times.raw.total, times.handler.total),
  ];
}

/** What Chromium sends with the shell's op.asp POSTs (shared/src/api/client.ts) from the page of an invoice. */
const cabecerasNavegador = (baseUrl: string, cookie: string) => ({
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'es-ES,es;q=0.9,en;q=0.8',
  'content-type': 'application/json',
  cookie,
  origin: baseUrl,
  referer: `${baseUrl}/ventas/facturas/nueva`,
  'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'sec-fetch-dest': 'empty',
  'sec-fetch-mode': 'cors',
  'sec-fetch-site': 'same-origin',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
});

/**
 * Saving a 20-line draft over HTTP: the whole op.asp request as a browser sends it (its headers, the session cookie, the
 * JSON body, the answer read and parsed), to the real server started as `pnpm start` runs it (spawn-server.mjs: its own
 * process, info logging to its stdout) on this same database; interleaved with the raw save + read-back and the handler
 * in-process. Keep-alive, one request in flight.
 */
async function guardarPorHttp(r: Runner, gen: Gen, hoy: string): Promise<Row[]> {
  const s = await startServer({
    quiet: true,
    dataDir: r.servidor.dataDir,
    env: { ...r.servidor.env, MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password },
  });
  try {
    const entrar = await fetch(`${s.baseUrl}/api/op.asp?ac=identificar`, { method: 'POST', headers: cabecerasNavegador(s.baseUrl, ''), body: JSON.stringify(ADMIN) });
    const cookie = entrar.headers.getSetCookie().find((c) => c.startsWith('mtpv_sesion='))?.split(';')[0];
    if (!cookie) throw new Error(`login over HTTP failed: ${await entrar.text()}`);
    const headers = cabecerasNavegador(s.baseUrl, cookie);
    const times = { raw: [] as number[], handler: [] as number[], http: [] as number[] };
    for (let i = -10; i < WRITE_RUNS; i++) {
      for (const which of [0, 1, 2].map((k) => (k + i + 30) % 3)) {
        const cli = gen.clientes[int(gen.clientes.length)];
        const lineas = elegir(gen.articulos.length, 20).map((a, k) => ({ articulo_id: gen.articulos[a].id, cantidad: (1 + (k % 7)) * 1000 }));
        const input = { fecha: hoy, cliente_id: cli.id, almacen_id: gen.almacen, serie_id: gen.serie, lineas, clave: crypto.randomUUID() };
        const t0 = process.hrtime.bigint();
        if (which === 0) await rawReadBack(r, 'factura', await rawGuardarFactura(r, gen, hoy, cli, lineas, input.clave));
        else if (which === 1) {
          const res = await callHandler(r, 'editarfactura', input, gen.admin);
          if (res.RESULT !== '0') throw new Error(`editarfactura: ${res.message}`);
        } else {
          const res = await fetch(`${s.baseUrl}/api/op.asp?ac=editarfactura`, { method: 'POST', headers, body: JSON.stringify(input) });
          const body = JSON.parse(await res.text()) as { RESULT: string; message?: string };
          if (res.status !== 200 || body.RESULT !== '0') throw new Error(`editarfactura over HTTP: ${res.status} ${body.message}`);
        }
        if (i >= 0) times[(['raw', 'handler', 'http'] as const)[which]].push(ms(t0));
      }
    }
    return [row('save a 20-line draft over HTTP', `${WRITE_RUNS} runs; aim: http ≤ 2× raw`, times.raw, times.handler, times.http, 'http')];
  } finally {
    await s.stop();
  }
}

/**
 * hfa by hand: the period's pending albaranes and their lines, one invoice per customer (its lines linked to the
 * albaranes' lines, emitted as above), the albaranes' pending units taken and their state, all in one transaction.
 */
async function rawHfa(r: Runner, gen: Gen, fecha: string, hoy: string): Promise<number> {
  const d = r.name;
  const hechas: number[] = [];
  await r.rawTransaction(async () => {
    const periodo = `d.tipo = 'albaranventa' and d.estado = 'pendiente' and d.fecha >= ${param(d, 1)} and d.fecha <= ${param(d, 2)}`;
    // The engine's setting for this transaction (facturarhfa: no JIT compilation of its statements).
    if (d === 'postgres') await r.rawQuery('set local jit = off', []);
    if (d === 'postgres') await r.rawQuery(`select d.id from documentos d where ${periodo} order by d.id for update`, [fecha, fecha]);
    const lineas = (await r.rawQuery(
      `select l.id, l.documento_id, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.precio, l.descuento, l.pendiente, d.cliente_id, d.almacen_id
       from documentos d join documento_lineas l on l.documento_id = d.id where ${periodo} and l.pendiente > 0 order by d.cliente_id, d.fecha, d.id, l.orden`,
      [fecha, fecha],
    )) as (LineaRawHfa & { documento_id: number; cliente_id: number; almacen_id: number })[];
    const clientes = (await r.rawQuery(
      `select c.id, c.nif, c.razon_social, c.recargo, c.retencion, c.forma_pago from clientes c where c.id in (select d.cliente_id from documentos d where ${periodo})`,
      [fecha, fecha],
    )) as { id: number; nif: string; razon_social: string; recargo: number; retencion: number; forma_pago: string | null }[];
    const [serie] = (await r.rawQuery(`select codigo from series where id = ${param(d, 1)}`, [gen.serie])) as { codigo: string }[];
    const [conf] = (await r.rawQuery('select id, razon_social, nif from configuracion order by id limit 1', [])) as { id: number; razon_social: string; nif: string }[];
    const emisor = { nif: conf.nif, nombre: conf.razon_social, instalacion: `${conf.nif}-${String(conf.id).padStart(3, '0')}` };
    const grupos = new Map<number, typeof lineas>();
    for (const l of lineas) grupos.set(Number(l.cliente_id), [...(grupos.get(Number(l.cliente_id)) ?? []), l]);
    // As the engine: the invoices, then all their lines and links in batches of 500 rows, then each one emitted.
    const facturas: { id: number; c: (typeof clientes)[number]; ls: (LineaRawHfa & { almacen_id: number; cantidad: number })[]; t: ReturnType<typeof calcularTotales> }[] = [];
    for (const c of clientes.sort((a, b) => a.razon_social.localeCompare(b.razon_social, 'es') || a.id - b.id)) {
      const ls = grupos.get(Number(c.id))!.map((l) => ({ ...l, cantidad: Number(l.pendiente), pendiente: 0 }));
      const t = calcularTotales(ls, { retencion: c.retencion, recargo: Number(c.recargo) === 1 });
      const [f] = (await r.rawQuery(
        `insert into documentos (tipo, serie_id, numero, ejercicio, fecha, estado, cliente_id, almacen_id, forma_pago, retencion, con_recargo,
           base, iva, recargo, retencion_importe, total, desglose, creado, creado_por)
         values ('factura', ${[...Array(18)].map((_, k) => param(d, k + 1)).join(', ')}) returning id`,
        [gen.serie, null, Number(hoy.slice(0, 4)), hoy, 'borrador', c.id, ls[0].almacen_id, c.forma_pago, c.retencion, Number(c.recargo) === 1 ? 1 : 0, t.base, t.iva,
          t.recargo, t.retencion_importe, t.total, JSON.stringify(t.desglose), new Date().toISOString(), gen.admin.id],
      )) as { id: number }[];
      facturas.push({ id: Number(f.id), c, ls, t });
    }
    const filas = facturas.flatMap((f) => f.ls.map((l, k) => [f.id, k + 1, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precio, l.descuento, 0]));
    for (let i = 0; i < filas.length; i += 500) {
      const lote = filas.slice(i, i + 500);
      await r.rawQuery(
        `insert into documento_lineas (documento_id, orden, articulo_id, codigo, descripcion, tipo_iva, cantidad, precio, descuento, pendiente) values ${tuples(d, lote.length, 10)}`,
        lote.flat(),
      );
    }
    const nuevas = (await r.rawQuery(
      `select id from documento_lineas where documento_id in (${facturas.map((_, k) => param(d, k + 1)).join(', ')}) order by documento_id, orden`,
      facturas.map((f) => f.id),
    )) as { id: number }[];
    const origenes = facturas.flatMap((f) => f.ls.map((l) => [Number(l.id), l.cantidad]));
    const enlaces = nuevas.map((n, k) => [Number(n.id), origenes[k][0], origenes[k][1]] as [number, number, number]);
    for (let i = 0; i < enlaces.length; i += 500) await rawEnlaces(r, enlaces.slice(i, i + 500));
    let previo: Huella | undefined;
    for (const { id, c, t } of facturas) {
      const [acc] = (await r.rawQuery(
        `insert into documento_acciones (documento_id, accion, fecha, usuario_id, estado_antes) values (${param(d, 1)}, 'emitir', ${param(d, 2)}, ${param(d, 3)}, 'borrador') returning id`,
        [id, new Date().toISOString(), gen.admin.id],
      )) as { id: number }[];
      previo = await rawEmitir(
        r,
        {
          id, fecha: hoy, almacen_id: 0, serie: serie.codigo, emisor, cliente: c, base: t.base, iva: t.iva, recargo: t.recargo, desglose: JSON.stringify(t.desglose),
          con_recargo: Number(c.recargo), accion: Number(acc.id), usuario: gen.admin.id,
        },
        gen.serie,
        false,
        previo,
      );
      hechas.push(id);
    }
    // The albaranes: nothing left to invoice, invoiced.
    await r.rawQuery(
      `update documento_lineas set pendiente = 0 where pendiente > 0 and documento_id in (select d.id from documentos d where ${periodo})`,
      [fecha, fecha],
    );
    await r.rawQuery(`update documentos set estado = 'finalizado' where id in (select d.id from documentos d where ${periodo})`, [fecha, fecha]);
  });
  // The answer: each invoice with its number, customer and total.
  await r.rawQuery(
    `select d.id, d.ejercicio, d.numero, s.codigo as serie_codigo, c.razon_social as cliente_nombre, d.total from documentos d
     left join series s on s.id = d.serie_id left join clientes c on c.id = d.cliente_id where d.id in (${hechas.map((_, k) => param(d, k + 1)).join(', ')}) order by d.id`,
    hechas,
  );
  return hechas.length;
}
type LineaRawHfa = { id: number; articulo_id: number; codigo: string; descripcion: string; tipo_iva: TipoIva; precio: number; descuento: number; pendiente: number };

/** hfa of 1.000 albaranes into 200 invoices: each run on a day of its own, its albaranes generated beforehand (untimed). */
async function hfa(r: Runner, gen: Gen, hoy: string): Promise<Row[]> {
  if (!HFA_RUNS) return [];
  const times = { raw: [] as number[], handler: [] as number[] };
  let facturas = 0;
  for (let i = 0; i < HFA_RUNS; i++) {
    for (const which of i % 2 ? [0, 1] : [1, 0]) {
      // Days of the generated year whose albaranes are all invoiced already.
      const fecha = addDays(hoy, -40 - 2 * i - which);
      await albaranesHfa(r, gen, fecha);
      const t0 = process.hrtime.bigint();
      if (which === 1) {
        const res = await callHandler<{ id: number }>(r, 'facturarhfa', { desde: fecha, hasta: fecha, serie_id: gen.serie, fecha: hoy, clave: crypto.randomUUID() }, gen.admin);
        if (res.RESULT !== '0') throw new Error(`facturarhfa: ${res.message}`);
        facturas = res.data!.length;
      } else {
        const n = await rawHfa(r, gen, fecha, hoy);
        if (n !== HFA_CLIENTES) throw new Error(`raw hfa: ${n} invoices`);
      }
      times[which === 0 ? 'raw' : 'handler'].push(ms(t0));
    }
  }
  if (facturas !== HFA_CLIENTES) throw new Error(`facturarhfa: ${facturas} invoices`);
  return [
    row(
      `hfa: ${HFA_CLIENTES * HFA_POR_CLIENTE} albaranes → ${HFA_CLIENTES} invoices`,
      `${HFA_RUNS} runs, ${HFA_CLIENTES * HFA_POR_CLIENTE * HFA_LINEAS} lines; aim ≤ 3 s`,
      times.raw,
      times.handler,
    ),
  ];
}

/** A customer's invoices for a quarter, newest first (page 1 of 25), and the chain check. */
async function lecturas(r: Runner, gen: Gen, cookie: string, hoy: string): Promise<Row[]> {
  const d = r.name;
  const out: Row[] = [];
  const h = headerSql('factura');
  const where = `d.tipo = 'factura' and d.cliente_id = ${param(d, 1)} and d.fecha >= ${param(d, 2)} and d.fecha <= ${param(d, 3)}`;
  const listRaw = async (cli: number, desde: string, hasta: string) => {
    await r.rawQuery(`select count(*) as n, cast(coalesce(sum(d.total), 0) as text) as total from documentos d where ${where}`, [cli, desde, hasta]);
    await r.rawQuery(
      `select ${h.columns}, (select count(*) from documento_lineas l where l.documento_id = d.id) as num_lineas ${h.joins}
       where ${where} order by d.fecha desc, d.id desc limit 25 offset 0`,
      [cli, desde, hasta],
    );
  };
  const trimestre = (k: number) => {
    const desde = addDays(hoy, -90 - ((k * 37) % 270));
    return { desde, hasta: addDays(desde, 90) };
  };
  const cliDe = (k: number) => gen.clientes[(k * 7919) % gen.clientes.length].id;
  for (const [label, cli] of [
    ['invoices of a customer in a quarter, page 1', cliDe],
    ['the same, busiest customer', () => gen.busiest],
  ] as const) {
    out.push(
      await medirLectura(
        r,
        cookie,
        RUNS,
        label,
        (total) => (cli === cliDe ? 'random customer and quarter' : `${total} invoices in the quarter`),
        'listadofacturas',
        (k) => ({ cliente_id: String(cli(k)), ...trimestre(k), orden: 'fecha', dir: 'desc', porPagina: '25' }),
        (k) => listRaw(cli(k), trimestre(k).desde, trimestre(k).hasta),
      ),
    );
  }

  // The chain check: every record read in pages of 2.000 in chain order, its huella recomputed and its link and XML compared.
  const times = { raw: [] as number[], handler: [] as number[] };
  let total = 0;
  for (let i = 0; i < CHECK_RUNS; i++) {
    for (const which of i % 2 ? [0, 1] : [1, 0]) {
      const t0 = process.hrtime.bigint();
      if (which === 1) {
        const res = await callHandler<ComprobacionCadena>(r, 'comprobarregistrosfacturacion', {});
        if (res.RESULT !== '0' || !res.data!.every((c) => c.correcto)) throw new Error(`comprobarregistrosfacturacion: ${res.message} ${JSON.stringify(res.data)}`);
        total = res.data!.reduce((s, c) => s + c.total, 0);
      } else if (!(await rawComprobar(r))) throw new Error('raw chain check: broken');
      times[which === 0 ? 'raw' : 'handler'].push(ms(t0));
    }
  }
  if (CHECK_RUNS) out.push(row(`chain check over ${total.toLocaleString('es-ES')} records`, `${CHECK_RUNS} runs; aim ≤ 2 s`, times.raw, times.handler));
  return out;
}

/** The chain check by hand: the same reads, each huella recomputed by the server's function, the link and the XML's own fields compared. */
async function rawComprobar(r: Runner): Promise<boolean> {
  const d = r.name;
  const emisores = (await r.rawQuery('select emisor from registros_cadena union select distinct emisor from registros_facturacion', [])) as { emisor: string }[];
  let bien = true;
  for (const { emisor } of emisores) {
    await r.rawQuery(`select count(*) as n from registros_facturacion where emisor = ${param(d, 1)}`, [emisor]);
    const [cabeza] = (await r.rawQuery(`select ultimo_orden, ultima_huella from registros_cadena where emisor = ${param(d, 1)}`, [emisor])) as {
      ultimo_orden: number;
      ultima_huella: string;
    }[];
    let previa: { orden: number; huella: string } = { orden: 0, huella: '' };
    for (;;) {
      const filas = (await r.rawQuery(
        `select id, orden, tipo, num_serie, fecha_expedicion, tipo_factura, cuota_total, importe_total, huella_anterior, huella, fecha_hora_huso, xml
         from registros_facturacion where emisor = ${param(d, 1)} and orden > ${param(d, 2)} order by orden limit 2000`,
        [emisor, previa.orden],
      )) as {
        orden: number;
        tipo: string;
        num_serie: string;
        fecha_expedicion: string;
        tipo_factura: string;
        cuota_total: string;
        importe_total: string;
        huella_anterior: string;
        huella: string;
        fecha_hora_huso: string;
        xml: string;
      }[];
      for (const f of filas) {
        const campos: HuellaAlta | HuellaAnulacion =
          f.tipo === 'alta'
            ? {
                IDEmisorFactura: emisor, NumSerieFactura: f.num_serie, FechaExpedicionFactura: f.fecha_expedicion, TipoFactura: f.tipo_factura as HuellaAlta['TipoFactura'],
                CuotaTotal: f.cuota_total, ImporteTotal: f.importe_total, Huella: f.huella_anterior, FechaHoraHusoGenRegistro: f.fecha_hora_huso,
              }
            : {
                IDEmisorFacturaAnulada: emisor, NumSerieFacturaAnulada: f.num_serie, FechaExpedicionFacturaAnulada: f.fecha_expedicion, Huella: f.huella_anterior,
                FechaHoraHusoGenRegistro: f.fecha_hora_huso,
              };
        const ok =
          Number(f.orden) === previa.orden + 1 &&
          f.huella_anterior === previa.huella &&
          huellaDe(campos) === f.huella &&
          f.xml.includes(`<sf:Huella>${f.huella}</sf:Huella>`) &&
          f.xml.includes(`>${f.num_serie}</sf:NumSerieFactura`) &&
          f.xml.includes(`<sf:FechaHoraHusoGenRegistro>${f.fecha_hora_huso}<`) &&
          (f.tipo !== 'alta' || f.xml.includes(`<sf:ImporteTotal>${f.importe_total}<`));
        if (!ok) return false;
        previa = { orden: Number(f.orden), huella: f.huella };
      }
      if (filas.length < 2000) break;
    }
    bien &&= !cabeza || (Number(cabeza.ultimo_orden) === previa.orden && cabeza.ultima_huella === previa.huella);
  }
  return bien;
}

/** The generated year read back by the engine (untimed): stock totals match the ledger, an invoice opens with its links and record, its albarán's undo is refused. */
async function comprobarDatos(r: Runner, gen: Gen): Promise<void> {
  const stock = await callHandler(r, 'recalcularstock', { aplicar: 0 }, gen.admin);
  if (stock.RESULT !== '0' || stock.data!.length) throw new Error(`recalcularstock: ${stock.data?.length} differences`);
  const f = (await callHandler<Documento>(r, 'listadofacturas', { id: gen.muestra.factura })).data![0];
  if (f.estado !== 'emitida' || !f.registro || !f.padres?.some((p) => p.id === gen.muestra.albaran)) throw new Error(`generated invoice ${f.id}: ${JSON.stringify(f)}`);
  const undo = await callHandler(r, 'deshacerfacturacionalbaranventa', { id: gen.muestra.albaran }, gen.admin).catch((e: { body?: { RESULT: string; message?: string } }) => e.body ?? { RESULT: '?' });
  if (undo.RESULT !== '2') throw new Error(`deshacerfacturacion of an albarán whose invoice is emitted: ${JSON.stringify(undo)}`);
}

async function bench(r: Runner) {
  const { hoy, gen, tiempo } = await generarDatos(r, generate);
  const c = gen.counts;
  const es = (n: number | undefined) => (n ?? 0).toLocaleString('es-ES');
  console.log(
    `\n${r.name}: ${es(CUSTOMERS)} customers, ${es(N)} articles, ${es(c.factura)} facturas (${es(c.anuladas)} anuladas) + ${es(c.albaranventa)} albaranes + ` +
      `${es(c.pedidoventa)} pedidos (${es(c.lineas)} lines, ${es(c.enlaces)} links, ${es(c.ledger)} ledger rows, ${es(c.registros)} registros) ` +
      tiempo,
  );
  await comprobarDatos(r, gen);
  console.log(`${r.name}: the generated year read back by the engine: stock totals = ledger, an invoice with its albarán and record, its undo refused`);
  const cookie = await login(r.app);
  await activarFlags(r, cookie, ['ventas', 'ventas_pedidos', 'ventas_albaranes', 'ventas_facturas', 'hfa', 'almacenes']);
  console.log(`${r.name}: reads, milliseconds over ${RUNS} runs (handler = validate + handler in-process; inject = the whole op.asp request; raw = the same SQL on the driver)`);
  console.table(await lecturas(r, gen, cookie, hoy));
  console.log(`${r.name}: writes, milliseconds (each run on a fresh document; raw = the same writes by hand in one transaction + reading the document back)`);
  console.table([...(await emisiones(r, gen, hoy)), ...(await guardarPorHttp(r, gen, hoy)), ...(await hfa(r, gen, hoy))]);
}

console.log(
  `Sales bench: ${CUSTOMERS.toLocaleString('es-ES')} customers, ${N.toLocaleString('es-ES')} articles, ${DOCS.toLocaleString('es-ES')} invoices of ${LINEAS} lines ` +
    `(Node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''})`,
);
await onBothEngines('mtpv-bench-ven-', bench);
