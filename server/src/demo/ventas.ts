// A generated year of sales (the demo company's past, and `pnpm bench:ventas`): emitted invoices, most made from
// albaranes (one, by `facturar`, or two, by hfa) served from confirmed pedidos, the rest direct sales that moved stock
// when emitted; a few cancelled, some corrected by a rectificativa; the older ones paid — plus the pending work of
// the last weeks (albaranes not invoiced yet, confirmed orders not served). Written set-based straight into the
// tables as the engine would have left them (line links and pending units, the action log with the `detalle` the
// undos use, the stock ledger, the counters) with the VERI*FACTU chain of their records (altas and anulaciones,
// huellas and XML made by the server's own functions, fiscal/registro.ts).
import { calcularTotales, fechaAeat, importeAeat, numeroDocumento } from 'shared/domain';
import type { HuellaAlta, HuellaAnulacion, TipoFactura, TipoIva } from 'shared/domain';
import { fechaHoraHuso, huellaDe, xmlAlta, xmlAnulacion } from '../fiscal/registro.ts';
import type { DatosAlta } from '../fiscal/registro.ts';
import type { IdsDocumentos } from './compras.ts';
import { addDays, bulk, escribirDocumentos, filaDocumento, int, neto, param, rand } from './datos.ts';
import type { Escritor, LineaGenerada } from './datos.ts';

export type ClienteGenerado = { id: number; nif: string; nombre: string; forma_pago: string; retencion: number; recargo: number; tarifa: number; descuento: number };
type Linea = LineaGenerada;
export type DocVenta = {
  id: number;
  tipo: 'pedidoventa' | 'albaranventa' | 'factura' | 'rectificativa';
  fecha: string;
  estado: string;
  cli: ClienteGenerado;
  almacen: number;
  lineas: Linea[];
  numero?: number;
  cobro?: string | null;
  /** Facturas and rectificativas. */
  serie?: number;
  tipo_factura?: TipoFactura;
  /** A rectificativa's corrected invoice. */
  corrige?: DocVenta;
};
/** What a sale line needs of an article: its price per tarifa (ten-thousandths). */
export type ArticuloVenta = { id: number; codigo: string; descripcion: string; tipo_iva: TipoIva; precios: number[] };

/** Everything the generator writes, in memory until the bulk inserts (also the bench's hfa batches made between runs). */
export class Lote {
  docs: DocVenta[] = [];
  acciones: unknown[][] = [];
  enlaces: unknown[][] = [];
  ledger: unknown[][] = [];
  constructor(
    public ids: IdsDocumentos,
    public admin: number,
  ) {}
  accion(documento: number, verbo: string, fecha: string, antes: string, detalle: unknown, hora = '12:00:00') {
    this.acciones.push([this.ids.accion, documento, verbo, `${fecha}T${hora}.000Z`, this.admin, antes, detalle ? JSON.stringify(detalle) : null, null]);
    return this.ids.accion++;
  }
  doc(tipo: DocVenta['tipo'], fecha: string, estado: string, cli: ClienteGenerado, almacen: number): DocVenta {
    const d: DocVenta = { id: this.ids.doc++, tipo, fecha, estado, cli, almacen, lineas: [] };
    this.docs.push(d);
    return d;
  }
  linea(d: DocVenta, l: Omit<Linea, 'id'>): Linea {
    const line = { ...l, id: this.ids.linea++ };
    d.lineas.push(line);
    return line;
  }
}

/** The tarifa price of an article for a customer (ten-thousandths). */
export const precioPara = (cli: ClienteGenerado, a: { precios: number[] }) => a.precios[cli.tarifa - 1];

/** Distinct random articles (indexes). */
export function elegir(total: number, n: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(n, total)) chosen.add(int(total));
  return [...chosen];
}

/** A pending albarán de venta saved directly (no order): its lines still to invoice, its stock out on save. */
export function albaranDirecto(lote: Lote, articulos: ArticuloVenta[], almacen: number, cli: ClienteGenerado, fecha: string, n: number): DocVenta {
  const alb = lote.doc('albaranventa', fecha, 'pendiente', cli, almacen);
  for (const a of elegir(articulos.length, n)) {
    const q = (1 + int(12)) * 1000;
    const precio = precioPara(cli, articulos[a]);
    const l = lote.linea(alb, { articulo: a, cantidad: q, precio, descuento: cli.descuento, pendiente: q });
    lote.ledger.push([articulos[a].id, almacen, null, null, -q, 'venta', 'albaranventa', alb.id, l.id, null, fecha, neto(precio, cli.descuento)]);
  }
  return alb;
}

/** Writes a lote: documents with their totals and numbers (given), lines, actions, links, ledger. */
export async function escribir(r: Escritor, lote: Lote, arts: ArticuloVenta[]): Promise<number> {
  return escribirDocumentos(
    r,
    lote.docs,
    arts,
    (d, ls) =>
      filaDocumento(
        {
          id: d.id, tipo: d.tipo, numero: d.numero ?? null, fecha: d.fecha, estado: d.estado, almacen: d.almacen, tercero: d.cli, admin: lote.admin,
          serie_id: d.serie ?? null, tipo_factura: d.tipo_factura ?? null, factura_id: d.corrige?.id ?? null, cobro_fecha: d.cobro ?? null,
          cobro_forma: d.cobro ? d.cli.forma_pago : null,
        },
        'cliente_id',
        ls,
      ),
    lote,
  );
}

/** What numbering needs of a generated document (drafts have no number). */
export type Numerable = { id: number; tipo: string; fecha: string; estado: string; serie?: number; numero?: number };

/** The counter key of a document: `tipo|serie|ejercicio` (serie 0 when none). */
const claveContador = (d: Numerable) => `${d.tipo}|${d.serie ?? 0}|${d.fecha.slice(0, 4)}`;

/** Numbers per (tipo, serie, ejercicio) in date order after `desde` (the counters' last numbers); answers the counters after them. */
export function numerar(docs: Numerable[], desde: Map<string, number> = new Map()) {
  const contadores = new Map<string, { ultimo: number; fecha: string }>();
  for (const d of [...docs].sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : a.id - b.id))) {
    if (d.estado === 'borrador') continue;
    const key = claveContador(d);
    const c = contadores.get(key) ?? { ultimo: desde.get(key) ?? 0, fecha: d.fecha };
    c.ultimo++;
    c.fecha = d.fecha;
    contadores.set(key, c);
    d.numero = c.ultimo;
  }
  return contadores;
}

/** The counters after `numerar` as new contadores rows. */
export async function escribirContadores(r: Escritor, contadores: Map<string, { ultimo: number; fecha: string }>): Promise<void> {
  await bulk(
    r,
    'contadores',
    ['tipo', 'serie_id', 'ejercicio', 'ultimo', 'ultima_fecha'],
    [...contadores].map(([k, c]) => {
      const [tipo, serie, ejercicio] = k.split('|');
      return [tipo, Number(serie), Number(ejercicio), c.ultimo, c.fecha];
    }),
  );
}

/** The issuer as the records name it (the company), and the installation number emitir gives them. */
async function empresa(r: Escritor) {
  const [c] = (await r.rawQuery('select id, razon_social, nif from configuracion order by id limit 1', [])) as { id: number; razon_social: string; nif: string }[];
  // The installation's NumeroInstalacion (issue 16: generated once by migration 0023), as emitir gives it.
  const [v] = (await r.rawQuery('select numero_instalacion from verifactu where id = 1', [])) as { numero_instalacion: string | null }[];
  return { nif: c.nif, nombre: c.razon_social, instalacion: v?.numero_instalacion || `${c.nif}-${String(c.id).padStart(3, '0')}` };
}

type Eslabon = { id_emisor: string; num_serie: string; fecha_expedicion: string; huella: string; fecha_hora_huso: string };

/** One record to chain: an invoice's or rectificativa's alta on its date, or an anulación. */
export type Evento = { tipo: 'alta' | 'anulacion'; f: DocVenta; fecha: string; numSerie: string; t: ReturnType<typeof calcularTotales>; corregida?: { numSerie: string; fecha: string; t: ReturnType<typeof calcularTotales> } };

/**
 * The VERI*FACTU records of generated invoices, in chain order after the issuer's head (created when missing): altas
 * and anulaciones as registrarAlta / registrarAnulacion write them, by the server's own functions (huella, XML,
 * timestamp), in `estadoEnvio` ('pendiente': the sender's queue; 'demo': never sent).
 */
export async function encadenar(r: Escritor, eventos: Evento[], timeZone: string, estadoEnvio = 'pendiente'): Promise<number> {
  const emisor = await empresa(r);
  const [cabeza] = (await r.rawQuery(`select ultimo_orden, ultima_huella from registros_cadena where emisor = ${param(r.name, 1)}`, [emisor.nif])) as {
    ultimo_orden: number;
  }[];
  let orden = Number(cabeza?.ultimo_orden ?? 0);
  let anterior = (
    orden
      ? ((await r.rawQuery(
          `select emisor as id_emisor, num_serie, fecha_expedicion, huella, fecha_hora_huso from registros_facturacion where emisor = ${param(r.name, 1)} and orden = ${param(r.name, 2)}`,
          [emisor.nif, orden],
        )) as Eslabon[])[0]
      : null
  ) as Eslabon | null;
  const filas: unknown[][] = [];
  let dia = '';
  let segundo = 0;
  for (const e of eventos) {
    // Each day's records from 09:00, a second apart: never before the previous one.
    segundo = e.fecha === dia ? segundo + 1 : 0;
    dia = e.fecha;
    const ts = fechaHoraHuso(new Date(Date.parse(`${e.fecha}T08:00:00Z`) + segundo * 1000), timeZone);
    const fechaExp = fechaAeat(e.f.fecha);
    let huella: string;
    let xml: string;
    let campos: { tipo_factura: string | null; cuota_total: string | null; importe_total: string | null };
    if (e.tipo === 'alta') {
      const tipoFactura = e.f.tipo_factura ?? 'F1';
      const cuota = e.t.iva + e.t.recargo;
      const c: HuellaAlta = {
        IDEmisorFactura: emisor.nif, NumSerieFactura: e.numSerie, FechaExpedicionFactura: fechaExp, TipoFactura: tipoFactura, CuotaTotal: importeAeat(cuota),
        ImporteTotal: importeAeat(e.t.base + cuota), Huella: anterior?.huella ?? '', FechaHoraHusoGenRegistro: ts,
      };
      huella = huellaDe(c);
      const datos: DatosAlta = {
        emisor, numSerie: e.numSerie, fecha: e.f.fecha, tipoFactura,
        descripcion: e.corregida ? `Rectificación de la factura ${e.corregida.numSerie}` : 'Venta de bienes y prestación de servicios',
        destinatario: { nif: e.f.cli.nif, nombre: e.f.cli.nombre }, desglose: e.t.desglose, conRecargo: e.f.cli.recargo === 1, cuotaTotal: cuota,
        importeTotal: e.t.base + cuota,
      };
      if (e.corregida) {
        datos.rectificativa = {
          tipo: 'I',
          facturas: [{ nif: emisor.nif, numSerie: e.corregida.numSerie, fecha: e.corregida.fecha }],
          importe: { base: e.corregida.t.base, cuota: e.corregida.t.iva, recargo: e.corregida.t.recargo },
        };
      }
      xml = xmlAlta(datos, anterior, ts, huella, emisor.instalacion);
      campos = { tipo_factura: tipoFactura, cuota_total: c.CuotaTotal, importe_total: c.ImporteTotal };
    } else {
      const c: HuellaAnulacion = {
        IDEmisorFacturaAnulada: emisor.nif, NumSerieFacturaAnulada: e.numSerie, FechaExpedicionFacturaAnulada: fechaExp, Huella: anterior?.huella ?? '',
        FechaHoraHusoGenRegistro: ts,
      };
      huella = huellaDe(c);
      xml = xmlAnulacion(emisor, { nif: emisor.nif, numSerie: e.numSerie, fecha: e.f.fecha }, anterior, ts, huella, emisor.instalacion);
      campos = { tipo_factura: null, cuota_total: null, importe_total: null };
    }
    orden++;
    filas.push([
      emisor.nif, orden, e.tipo, e.f.id, e.numSerie, fechaExp, campos.tipo_factura, campos.cuota_total, campos.importe_total, anterior?.huella ?? '', huella, ts, xml,
      estadoEnvio, `${e.fecha}T08:00:00.000Z`,
    ]);
    anterior = { id_emisor: emisor.nif, num_serie: e.numSerie, fecha_expedicion: fechaExp, huella, fecha_hora_huso: ts };
  }
  await bulk(
    r,
    'registros_facturacion',
    ['emisor', 'orden', 'tipo', 'documento_id', 'num_serie', 'fecha_expedicion', 'tipo_factura', 'cuota_total', 'importe_total', 'huella_anterior', 'huella',
      'fecha_hora_huso', 'xml', 'estado_envio', 'creado'],
    filas,
  );
  if (cabeza) await r.rawQuery(`update registros_cadena set ultimo_orden = ${param(r.name, 1)}, ultima_huella = ${param(r.name, 2)} where emisor = ${param(r.name, 3)}`, [orden, anterior?.huella ?? '', emisor.nif]);
  else await bulk(r, 'registros_cadena', ['emisor', 'ultimo_orden', 'ultima_huella'], [[emisor.nif, orden, anterior?.huella ?? '']]);
  return filas.length;
}

export type OpcionesVentas = {
  hoy: string;
  /** The generated year's days, oldest first. */
  dias: string[];
  /** Invoices in all (15 % direct sales, 55 % from one albarán by `facturar`, the rest from two by hfa). */
  facturas: number;
  /** Lines of a direct sale or a served order (half of them for hfa's two albaranes). */
  lineas: number;
  articulos: ArticuloVenta[];
  pickCli: () => ClienteGenerado;
  /** The warehouse a sale (its order, albaranes and invoice) leaves from. */
  almacenDe: () => number;
  serie: number;
  /** Share of the direct sales not paid yet cancelled days later (default 5 %). */
  anuladas?: number;
  /** Rectificativas by differences (one unit of a line back) of this share of the paid-or-not invoices, in `serie` (R4). */
  rectificativas?: { serie: number; proporcion: number };
  /** A line's quantity (thousandths); default 1 to 24 units. */
  cantidad?: () => number;
};

export type VentasGeneradas = {
  facturas: { f: DocVenta; emitir: number; directa: boolean }[];
  anuladas: { f: DocVenta; fecha: string }[];
  rectificativas: DocVenta[];
  /** An albarán invoiced by `facturar`, and its invoice. */
  muestra: { albaran: number; factura: number };
};

/** The year's sales into `lote` (the PRNG, datos.ts, seeded by the caller); numbered by `numerar` afterwards. */
export function generarVentas(lote: Lote, o: OpcionesVentas): VentasGeneradas {
  const { hoy, articulos } = o;
  const cantidad = o.cantidad ?? (() => (1 + int(24)) * 1000);
  /** A confirmed order served whole by one albarán (the albarán's stock carries the servir action). */
  const servido = (cli: ClienteGenerado, almacen: number, fecha: string, n: number): DocVenta => {
    const ped = lote.doc('pedidoventa', addDays(fecha, -(1 + int(5))), 'enviado', cli, almacen);
    for (const a of elegir(articulos.length, n)) {
      lote.linea(ped, { articulo: a, cantidad: cantidad(), precio: precioPara(cli, articulos[a]), descuento: cli.descuento, pendiente: 0 });
    }
    lote.accion(ped.id, 'confirmar', ped.fecha, 'pendiente', null);
    const alb = lote.doc('albaranventa', fecha, 'pendiente', cli, almacen);
    const servir = lote.accion(ped.id, 'servir', fecha, 'confirmado', { hijo: alb.id });
    for (const pl of ped.lineas) {
      const l = lote.linea(alb, { ...pl, pendiente: pl.cantidad });
      lote.enlaces.push([l.id, pl.id, pl.cantidad]);
      lote.ledger.push([articulos[pl.articulo].id, almacen, null, null, -pl.cantidad, 'venta', 'albaranventa', alb.id, l.id, servir, fecha, neto(pl.precio, pl.descuento)]);
    }
    return alb;
  };
  const facturas: VentasGeneradas['facturas'] = [];
  let muestra = { albaran: 0, factura: 0 };
  /** An invoice emitted on `fecha`: from albaranes (their lines linked, nothing left to invoice) or a direct sale (stock out when emitted). */
  const emitida = (cli: ClienteGenerado, almacen: number, fecha: string, albs: DocVenta[], via: 'facturar' | 'hfa' | null) => {
    const f = lote.doc('factura', fecha, 'emitida', cli, almacen);
    f.serie = o.serie;
    f.tipo_factura = 'F1';
    for (const alb of albs) {
      for (const al of alb.lineas) {
        const l = lote.linea(f, { ...al, pendiente: 0 });
        lote.enlaces.push([l.id, al.id, al.cantidad]);
        al.pendiente = 0;
      }
      alb.estado = 'finalizado';
      // `facturar` made the draft (its undo removes it); hfa logs nothing on the albaranes.
      if (via === 'facturar') lote.accion(alb.id, 'facturar', fecha, 'pendiente', { hijo: f.id }, '10:00:00');
      if (via === 'facturar' && !muestra.albaran) muestra = { albaran: alb.id, factura: f.id };
    }
    if (!via) {
      for (const a of elegir(articulos.length, o.lineas)) {
        lote.linea(f, { articulo: a, cantidad: cantidad(), precio: precioPara(cli, articulos[a]), descuento: cli.descuento, pendiente: 0 });
      }
    }
    const emitir = lote.accion(f.id, 'emitir', fecha, 'borrador', null);
    if (!via) {
      for (const l of f.lineas) {
        lote.ledger.push([articulos[l.articulo].id, almacen, null, null, -l.cantidad, 'venta', 'factura', f.id, l.id, emitir, fecha, neto(l.precio, l.descuento)]);
      }
    }
    // Cash sales paid at once; of the rest, most of those older than two months.
    f.cobro = cli.forma_pago === 'contado' ? fecha : fecha < addDays(hoy, -60) && rand() < 0.9 ? addDays(fecha, 30) : null;
    facturas.push({ f, emitir, directa: !via });
  };
  const antesDeAyer = addDays(hoy, -2);
  const hasta = (fecha: string) => (fecha < antesDeAyer ? fecha : antesDeAyer);
  const year = o.dias;
  for (let k = 0; k < o.facturas; k++) {
    const cli = o.pickCli();
    const almacen = o.almacenDe();
    // Spread over the year: every month has its sales.
    const fecha = year[Math.floor(((k + rand()) * year.length) / o.facturas)];
    const u = rand();
    if (u < 0.15) emitida(cli, almacen, hasta(fecha), [], null);
    else if (u < 0.7) emitida(cli, almacen, hasta(addDays(fecha, int(4))), [servido(cli, almacen, fecha, o.lineas)], 'facturar');
    else {
      const mitad = Math.max(1, Math.round(o.lineas / 2));
      const albs = [servido(cli, almacen, fecha, mitad), servido(cli, almacen, hasta(addDays(fecha, 2)), mitad)];
      emitida(cli, almacen, hasta(addDays(fecha, 3 + int(10))), albs, 'hfa');
    }
  }
  // A few direct sales that should never have existed: cancelled days later (registro de anulación), their stock back.
  const anuladas: VentasGeneradas['anuladas'] = [];
  for (const { f, emitir, directa } of facturas) {
    if (!directa || f.cobro || rand() >= (o.anuladas ?? 0.05)) continue;
    const fecha = hasta(addDays(f.fecha, 1 + int(3)));
    const anular = lote.accion(f.id, 'anular', fecha, 'emitida', null, '16:00:00');
    f.estado = 'anulada';
    for (const row of lote.ledger.filter((m) => m[9] === emitir)) lote.ledger.push([...row.slice(0, 4), -(row[4] as number), ...row.slice(5, 9), anular, fecha, row[11]]);
    anuladas.push({ f, fecha });
  }
  // Rectificativas by differences: one unit of an invoice's first line back (negative line, its stock back in), emitted days later.
  const rectificativas: DocVenta[] = [];
  for (const { f } of o.rectificativas ? facturas : []) {
    if (f.estado !== 'emitida' || rand() >= o.rectificativas!.proporcion) continue;
    const fecha = hasta(addDays(f.fecha, 2 + int(10)));
    const r = lote.doc('rectificativa', fecha, 'emitida', f.cli, f.almacen);
    Object.assign(r, { serie: o.rectificativas!.serie, tipo_factura: 'R4' as const, corrige: f, cobro: f.cobro ? fecha : null });
    const l0 = f.lineas[0];
    const l = lote.linea(r, { articulo: l0.articulo, cantidad: -1000, precio: l0.precio, descuento: l0.descuento, pendiente: 0 });
    const emitir = lote.accion(r.id, 'emitir', fecha, 'borrador', null, '11:00:00');
    lote.ledger.push([articulos[l0.articulo].id, f.almacen, null, null, 1000, 'rectificativa', 'rectificativa', r.id, l.id, emitir, fecha, neto(l0.precio, l0.descuento)]);
    rectificativas.push(r);
  }
  // The last weeks' pending work: albaranes not invoiced yet, confirmed orders not served (the first of them today's).
  for (let k = 0; k < Math.max(1, Math.round(o.facturas * 0.03)); k++) {
    const cli = o.pickCli();
    const almacen = o.almacenDe();
    const fecha = k === 0 ? hoy : addDays(hoy, -1 - int(20));
    servido(cli, almacen, addDays(fecha, -1), o.lineas);
    const ped = lote.doc('pedidoventa', fecha, 'confirmado', cli, almacen);
    for (const a of elegir(articulos.length, o.lineas)) {
      const q = cantidad();
      lote.linea(ped, { articulo: a, cantidad: q, precio: precioPara(cli, articulos[a]), descuento: cli.descuento, pendiente: q });
    }
    lote.accion(ped.id, 'confirmar', fecha, 'pendiente', null);
  }
  return { facturas, anuladas, rectificativas, muestra };
}

/** The chain of generated sales: each invoice's and rectificativa's alta on its date, each anulación on its own, in the order they happened. */
export function eventosDeVentas(v: VentasGeneradas, articulos: ArticuloVenta[], codigos: Map<number, string>): Evento[] {
  const numSerie = (f: DocVenta) => numeroDocumento(codigos.get(f.serie!)!, Number(f.fecha.slice(0, 4)), f.numero!);
  const tot = (f: DocVenta) =>
    calcularTotales(f.lineas.map((l) => ({ ...l, tipo_iva: articulos[l.articulo].tipo_iva })), { retencion: f.cli.retencion, recargo: f.cli.recargo === 1 });
  const evento = (tipo: Evento['tipo'], f: DocVenta, fecha: string, clave: number) => ({
    tipo, f, fecha, clave, numSerie: numSerie(f), t: tot(f), corregida: f.corrige ? { numSerie: numSerie(f.corrige), fecha: f.corrige.fecha, t: tot(f.corrige) } : undefined,
  });
  return [
    ...v.facturas.map(({ f }) => evento('alta', f, f.fecha, f.numero!)),
    ...v.rectificativas.map((f) => evento('alta', f, f.fecha, 5e8 + f.numero!)),
    ...v.anuladas.map(({ f, fecha }) => evento('anulacion', f, fecha, 1e9 + f.numero!)),
  ].sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : a.clave - b.clave));
}
