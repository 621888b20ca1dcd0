import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import {
  DOCUMENTO_TIPOS,
  FORMAS_PAGO_TPV,
  LIMITE_SIMPLIFICADA,
  LIMITE_SIMPLIFICADA_MINORISTA,
  MAX_TICKETS_SUBIDA,
  MESSAGES_TPV,
  MESSAGES,
  precioSinIva,
  recargoTicket,
  reembolsoComoSePago,
  totalesTicket,
} from 'shared/domain';
import { cantidadNoEntera, descuentoPermitido, isValidNif, normalizeNif, tiene } from 'shared/domain';
import type { DesgloseIva, Documento, EmisionTpv, FormaPagoTpv, Impuesto, RegistroTpv, Schema, TicketSubido, TipoIncidenciaTpv, TipoIva } from 'shared/domain';
import { generarAlta, qrDeAlta, registroTicket } from 'shared/fiscal';
import type { AltaGenerada, Anterior, DatosAlta } from 'shared/fiscal';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import { isUniqueViolation } from '../db/consulta.ts';
import { insertarFilas } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { ActionError, fail } from '../errors.ts';
import { claveCadena, emisionActual, nifDeCadena, registrarAltaGenerada, sistemaInformatico } from '../fiscal/registro.ts';
import { ejecutarAccionEn } from '../documentos/acciones.ts';
import { numeroEnSerie } from '../documentos/numeracion.ts';
import { conStockNegativo, moverStockVenta } from '../documentos/movimientos.ts';
import { readDocumento } from '../documentos/lectura.ts';
import { registrarTipo } from '../documentos/tipos.ts';
import type { EffectContext, EffectResult, TipoEffects } from '../documentos/tipos.ts';
import { REGISTRO_OFFLINE, SIN_FACTURA, TODAS_CON_ORIGEN, facturaEffects, rectificativaEffects } from '../documentos/facturas.ts';
import type { SessionUser } from '../session.ts';
import { cajaAbierta, emisionDeFila, empresaEmisora, entero, euros, formasDe, t, terminalActivo } from './comun.ts';
import { anotarIncidencia, apartarRegistro, leerIncidencias } from './incidencias.ts';

/**
 * Tickets (issue 13; docs/tpv.md): a document type of the engine. `subirtickets` writes each ticket as a document
 * with its lines and runs the engine's `emitir` on it (ejecutarAccionEn) in the same transaction: the next number of
 * the terminal's serie, the stock out of its warehouse through the ledger (kits by components), and its registro de
 * alta F2 in the terminal's own chain — generated here (online) or received from the till and verified unaltered
 * (offline). `devolverticket` makes the R5: a rectificativa of the engine, issued by the engine's `emitir`.
 */

const TICKET = DOCUMENTO_TIPOS.ticket;
const RECTIFICATIVA = DOCUMENTO_TIPOS.rectificativa;
const FACTURA = DOCUMENTO_TIPOS.factura;
const EMITIR_FACTURA = FACTURA.acciones.find((a) => a.verbo === 'emitir')!;
const EMITIR_TICKET = TICKET.acciones.find((a) => a.verbo === 'emitir')!;
const EMITIR_RECTIFICATIVA = RECTIFICATIVA.acciones.find((a) => a.verbo === 'emitir')!;

/** What `subirtickets` hands the engine's `emitir` of one ticket (never in a request's JSON: a symbol key). */
const DATOS = Symbol('ticket');
type DatosEmision = {
  terminal: { id: number; serie_id: number; almacen_id: number; numero_instalacion: string; serie_codigo: string };
  emisor: { nif: string; nombre: string; impuesto: Impuesto };
  totales: ReturnType<typeof totalesTicket>;
  registro: RegistroTpv | null;
  /** What the record's instant broke (the till's clock): flagged once the ticket is stored. */
  avisos: Aviso[];
  /** Filled by emitir: what the answer says of the record. */
  hecho?: { numero: string; huella: string; xml: string; qr_url: string; fecha_hora_huso: string; fecha_expedicion: string; emision: EmisionTpv };
};

/** dd-mm-aaaa → aaaa-mm-dd. */
export const isoDe = (aeat: string) => `${aeat.slice(6, 10)}-${aeat.slice(3, 5)}-${aeat.slice(0, 2)}`;
const TS = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/**
 * A record the till made offline (a ticket's F2, a return's R5) against what the shared code makes of the same
 * document on the terminal's chain: its number, amounts, the previous huella, its instant (not before the chain's
 * last, not in the future, on the document's date), its huella and XML; each refusal says why. Answers the record to
 * store exactly as received (it is, byte for byte, what the shared code makes of it).
 */
export function verificarRegistro(r: RegistroTpv, esperado: AltaGenerada, numSerie: string, anterior: Anterior | null, fecha: string, avisos: Aviso[]): AltaGenerada {
  if (r.num_serie !== numSerie) throw fail(t(MESSAGES_TPV.registroNumero, { recibido: r.num_serie, esperado: numSerie }), '1', 400);
  if (r.cuota_total !== esperado.campos.CuotaTotal || r.importe_total !== esperado.campos.ImporteTotal) {
    throw fail(
      t(MESSAGES_TPV.registroImportes, {
        cuota: r.cuota_total, importe: r.importe_total, cuotaLineas: esperado.campos.CuotaTotal, importeLineas: esperado.campos.ImporteTotal,
      }),
      '1',
      400,
    );
  }
  const previa = anterior?.huella ?? '';
  if (r.huella_anterior !== previa) throw fail(t(MESSAGES_TPV.registroCadena, { recibida: r.huella_anterior || '(ninguna)', esperada: previa || '(ninguna: primer registro)' }), '1', 400);
  const m = TS.exec(r.fecha_hora_huso);
  const instante = Date.parse(r.fecha_hora_huso);
  const previo = anterior ? Date.parse(anterior.fecha_hora_huso) : Number.NEGATIVE_INFINITY;
  if (!m || !Number.isFinite(instante) || `${m[1]}-${m[2]}-${m[3]}` !== fecha) throw fail(MESSAGES_TPV.registroFechaFormato, '1', 400);
  if (r.huella !== esperado.huella) throw fail(MESSAGES_TPV.registroHuella, '1', 400);
  if (r.xml !== esperado.xml) throw fail(MESSAGES_TPV.registroXml, '1', 400);
  // The till's clock (issue 23): a record stamped before the chain's previous one, or ahead of the server's, is a
  // fiscal fact all the same (printed, chained, its huella sound): stored as it is, flagged for the manager.
  if (instante < previo) avisos.push({ tipo: 'reloj', detalle: t(MESSAGES_TPV.incidenciaRelojAtras, { numero: r.num_serie, hora: r.fecha_hora_huso, anterior: anterior!.fecha_hora_huso }) });
  else if (instante > Date.now() + 5 * 60_000) {
    avisos.push({ tipo: 'reloj', detalle: t(MESSAGES_TPV.incidenciaRelojAdelantado, { numero: r.num_serie, hora: r.fecha_hora_huso, ahora: new Date().toISOString() }) });
  }
  return { campos: esperado.campos, huella: r.huella, xml: r.xml };
}

/** A business rule an upload broke: stored as issued, flagged (tpv_incidencias). */
export type Aviso = { tipo: TipoIncidenciaTpv; detalle: string };

/** The record fields as the request carries them (subirtickets' and devolverticket's `registro`), else null. */
export function leerRegistro(v: unknown): RegistroTpv | null {
  const r = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  const campos = ['num_serie', 'fecha_expedicion', 'tipo_factura', 'cuota_total', 'importe_total', 'huella_anterior', 'fecha_hora_huso', 'huella', 'xml'];
  if (campos.some((c) => typeof r[c] !== 'string') || !/^\d{2}-\d{2}-\d{4}$/.test(r.fecha_expedicion as string)) return null;
  // Issue 22: what the till made it for, only when it says it plainly (anything else: the company's state stands).
  const bit = (x: unknown) => (x === 0 || x === 1 ? x : undefined);
  return {
    ...(r as unknown as RegistroTpv),
    entorno: r.entorno === 'produccion' || r.entorno === 'pruebas' ? r.entorno : undefined,
    demo: bit(r.demo),
    verifactu: bit(r.verifactu),
  };
}

/**
 * What a till's record was made for, as stored (issue 22). The record was stored with the company's state now
 * (emisionActual: demo, environment, sending); a record the till made offline says what it was made for (its
 * terminal's `entorno`, `demo`, `verifactu` then) and was printed with that: when it agrees with the company's demo
 * and environment, the till's `verifactu` is kept (its paper's legend); when not, the company's stays — a demo
 * company never stores a production record — and the answer's `emision` tells the till, which reprints from it.
 */
export async function emisionGuardada(trx: Transaction<Database>, registroId: number, delTpv: RegistroTpv | null): Promise<EmisionTpv> {
  // What `guardar` stored on it: the company's state in this transaction (emisionActual, read once per transaction).
  const guardada = emisionDeFila(await emisionActual(trx));
  const v = delTpv?.verifactu;
  if (!delTpv || (v !== 0 && v !== 1) || v === guardada.verifactu) return guardada;
  if (delTpv.entorno !== guardada.entorno || Number(delTpv.demo ?? -1) !== guardada.demo) return guardada;
  await trx.updateTable('registros_facturacion').set({ verifactu: v }).where('id', '=', registroId).execute();
  return { ...guardada, verifactu: v };
}

/** The engine's `emitir` of a ticket: number, stock, record. */
async function emitirTicket(ctx: EffectContext): Promise<EffectResult> {
  const datos = (ctx.raw as Record<symbol, DatosEmision | undefined>)[DATOS];
  // Only subirtickets issues tickets (there is no emitirticket action).
  if (!datos) throw fail(MESSAGES.accionNoPermitida, '1');
  const { trx, doc } = ctx;
  const { terminal, emisor, totales, registro } = datos;
  const fecha = doc.fecha;
  const ejercicio = Number(fecha.slice(0, 4));
  const numero = await numeroEnSerie(trx, TICKET.tipo, terminal.serie_id, fecha);
  await moverStockVenta(trx, { tipo: TICKET.tipo, id: doc.id, almacenId: terminal.almacen_id }, { signo: -1, causa: 'venta' }, ctx.accionId, ctx.hoy);
  const base = {
    emisor: { nif: emisor.nif, nombre: emisor.nombre },
    impuesto: emisor.impuesto,
    instalacion: terminal.numero_instalacion,
    sistema: sistemaInformatico(),
    serieCodigo: terminal.serie_codigo,
    ejercicio,
    numero,
    fecha,
    totales,
  };
  const hecho = await registrarAltaGenerada(
    { trx, timeZone: ctx.timeZone, documentoId: doc.id, instalacion: terminal.numero_instalacion },
    claveCadena(emisor.nif, terminal.numero_instalacion),
    (anterior, ahora) => {
      if (!registro) {
        const hecho = registroTicket({ ...base, anterior, ts: ahora });
        // The server's clock behind the chain's last record (an offline one, stamped by a till running ahead): the
        // true time all the same, flagged.
        if (anterior && Date.parse(ahora) < Date.parse(anterior.fecha_hora_huso)) {
          datos.avisos.push({ tipo: 'reloj', detalle: t(MESSAGES_TPV.incidenciaRelojAtras, { numero: hecho.numSerie, hora: ahora, anterior: anterior.fecha_hora_huso }) });
        }
        return hecho;
      }
      // Offline: the till's record, checked against what the same code makes of the ticket and the chain.
      if (registro.tipo_factura !== 'F2') throw fail(MESSAGES_TPV.registroTipo, '1', 400);
      const esperado = registroTicket({ ...base, anterior, ts: registro.fecha_hora_huso });
      return verificarRegistro(registro, esperado, esperado.numSerie, anterior, fecha, datos.avisos);
    },
  );
  const emision = await emisionGuardada(trx, hecho.id, registro);
  datos.hecho = {
    numero: hecho.campos.NumSerieFactura,
    huella: hecho.huella,
    xml: hecho.xml,
    // Issue 22: the QR's host is the one its record was made for (stored on it), never the setting of the day.
    qr_url: qrDeAlta(hecho.campos, emision.entorno),
    emision,
    fecha_hora_huso: hecho.campos.FechaHoraHusoGenRegistro,
    fecha_expedicion: hecho.campos.FechaExpedicionFactura,
  };
  return { numero: { numero, ejercicio, tipo_factura: 'F2' } };
}

/**
 * A ticket's state from what its returns' links take of its lines: Emitido (nothing returned), Devuelto parcial or
 * Devuelto. Run by devolverticket and when an R5's links go (the R5 annulled: `alQuitarEnlaces`); Facturado stays.
 */
async function estadoDevuelto(trx: Transaction<Database>, ticketId: number, usuarioId: number | null): Promise<void> {
  const r = await trx
    .selectFrom('documento_lineas as l')
    .select([
      sql<string>`cast(coalesce(sum(l.cantidad), 0) as text)`.as('vendido'),
      sql<string>`cast(coalesce(sum(l.cantidad - (select coalesce(sum(e.cantidad), 0) from documento_enlaces e where e.padre_linea_id = l.id)), 0) as text)`.as('queda'),
    ])
    .where('l.documento_id', '=', ticketId)
    .executeTakeFirstOrThrow();
  const doc = await trx.selectFrom('documentos').select('estado').where('id', '=', ticketId).executeTakeFirst();
  if (!doc || doc.estado === 'facturado') return;
  const queda = Number(r.queda);
  const estado = queda >= Number(r.vendido) ? 'emitido' : queda > 0 ? 'devuelto_parcial' : 'devuelto';
  if (estado === doc.estado) return;
  await trx.updateTable('documentos').set({ estado, modificado: nowIso(), modificado_por: usuarioId }).where('id', '=', ticketId).execute();
}

/** A ticket read by id adds the till's data: payments, terminal, uuid, each line's price with IVA and what was returned, its record whole. */
async function alLeerTicket({ db, doc }: { db: Kysely<Database>; doc: Documento }): Promise<void> {
  await alLeerTpv(db, doc);
}

/** The till's side of a ticket or of a return's R5 (also used by devolverticket's answer). */
export async function alLeerTpv(db: Kysely<Database>, doc: Documento): Promise<void> {
  const d = doc as Documento & Record<string, unknown>;
  const tpv = await db.selectFrom('tpv_tickets').selectAll().where('documento_id', '=', doc.id).executeTakeFirst();
  if (tpv) Object.assign(d, { terminal_id: tpv.terminal_id, uuid: tpv.uuid, fecha_hora: tpv.fecha_hora, cambio: Number(tpv.cambio), offline: tpv.offline, caja_id: tpv.caja_id, ticket_id: tpv.ticket_id });
  if (tpv) d.incidencias = await leerIncidencias(db, { documentos: [doc.id] });
  d.pagos = (await db.selectFrom('tpv_pagos').select(['forma', 'importe', 'entregado', 'vale', 'vale_saldo']).where('documento_id', '=', doc.id).orderBy('orden').execute()).map((p) => ({
    forma: p.forma,
    importe: Number(p.importe),
    entregado: Number(p.entregado),
    // Issue 23: a payment by vale names it and the balance it left.
    ...(p.vale ? { vale: p.vale, vale_saldo: Number(p.vale_saldo ?? 0) } : {}),
  }));
  if (doc.lineas) {
    const iva = new Map(
      (await db.selectFrom('documento_lineas').select(['id', 'precio_iva']).where('documento_id', '=', doc.id).execute()).map((l) => [l.id, l.precio_iva]),
    );
    for (const l of doc.lineas as (Documento['lineas'] & object)[number][]) {
      const x = l as typeof l & { precio_iva?: number | null; enlazado?: number };
      x.precio_iva = iva.get(l.id) === null || iva.get(l.id) === undefined ? null : Number(iva.get(l.id));
      x.devuelto = Number(x.enlazado ?? 0);
    }
  }
  const r = await db
    .selectFrom('registros_facturacion')
    .select([
      'id', 'tipo', 'huella', 'fecha_hora_huso', 'emisor', 'num_serie', 'fecha_expedicion', 'importe_total', 'estado_envio', 'codigo_error', 'descripcion_error', 'xml',
      'tipo_factura', 'cuota_total', 'entorno', 'demo', 'verifactu',
    ])
    .where('documento_id', '=', doc.id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  // Issue 22: a reprint (the back office's, the till's) shows the QR's host and legend its record was made for.
  const emision = r ? emisionDeFila(r) : null;
  d.registro = r && emision
    ? {
        id: r.id, tipo: r.tipo as 'alta', huella: r.huella, fecha_hora_huso: r.fecha_hora_huso, id_emisor: nifDeCadena(r.emisor), num_serie: r.num_serie,
        fecha_expedicion: r.fecha_expedicion, importe_total: r.importe_total, estado_envio: r.estado_envio, codigo_error: r.codigo_error ?? null,
        descripcion_error: r.descripcion_error ?? null, xml: r.xml, ...emision,
        qr_url: qrDeAlta({ IDEmisorFactura: nifDeCadena(r.emisor), NumSerieFactura: r.num_serie, FechaExpedicionFactura: r.fecha_expedicion, ImporteTotal: r.importe_total ?? '0.00' }, emision.entorno),
      }
    : null;
  if (doc.tipo === TICKET.tipo) {
    const devs = await db
      .selectFrom('documentos as d')
      .innerJoin('tpv_tickets as tt', 'tt.documento_id', 'd.id')
      .leftJoin('series as s', 's.id', 'd.serie_id')
      .select(['d.id', 'd.ejercicio', 'd.numero', 'd.total', 's.codigo'])
      .where('tt.ticket_id', '=', doc.id)
      .orderBy('d.id')
      .execute();
    d.devoluciones = devs.map((x) => ({ id: x.id, numero: `${x.codigo ?? 'R'} ${x.ejercicio}/${String(x.numero).padStart(6, '0')}`, total: Number(x.total) }));
  }
}

/**
 * `numero_fin` (issue 23): the last digits of a ticket's number as printed (`1470` → …/001470, …/011470; `01470` →
 * …/001470, …/101470), never its database id: the till's return and F3 search by what the cashier reads on the paper.
 */
const filtrosTicket = {
  terminal_id: { type: 'int', min: 1 },
  caja_id: { type: 'int', min: 1 },
  numero_fin: { type: 'string', max: 9, pattern: /^\d{1,9}$/, patternMessage: 'Escriba las últimas cifras del número del ticket.' },
} as const satisfies Schema;

export const ticketEffects: TipoEffects<Schema> = {
  schema: {},
  headerColumns: [],
  precioPorDefecto: 'venta',
  acciones: { emitir: emitirTicket },
  alLeer: alLeerTicket,
  // An R5 annulled: its links to the ticket's lines are gone, so are those units' return; the state follows.
  alQuitarEnlaces: ({ trx, docId }) => estadoDevuelto(trx, docId, null),
  // The list's rows: when it was sold (date and time, the till's instant), at which terminal and caja, its uuid, made offline or not.
  alListar: async ({ db, docs }) => {
    if (!docs.length) return;
    const filas = await db
      .selectFrom('tpv_tickets')
      .select(['documento_id', 'fecha_hora', 'terminal_id', 'caja_id', 'uuid', 'offline'])
      .where('documento_id', 'in', docs.map((d) => d.id))
      .execute();
    const por = new Map(filas.map((f) => [f.documento_id, f]));
    // Issue 23: what its upload broke, for the manager (the list marks the row; the ticket's page says what to do).
    const incidencias = new Map<number, { tipo: string; etiqueta: string; resuelta: 0 | 1 }[]>();
    for (const i of await leerIncidencias(db, { documentos: docs.map((d) => d.id) })) {
      const de = i.ticket_id ?? i.documento_id;
      if (de === null) continue;
      incidencias.set(de, [...(incidencias.get(de) ?? []), { tipo: i.tipo, etiqueta: i.etiqueta, resuelta: i.resuelta }]);
    }
    for (const d of docs) {
      const f = por.get(d.id);
      Object.assign(d, {
        fecha_hora: f?.fecha_hora ?? null, terminal_id: f?.terminal_id ?? null, caja_id: f?.caja_id ?? null, uuid: f?.uuid ?? null, offline: Number(f?.offline ?? 0),
        incidencias: incidencias.get(d.id) ?? [],
      });
    }
  },
  filtros: filtrosTicket,
  filtrar: (input) => {
    const out = [];
    if (typeof input.terminal_id === 'number') out.push(sql<boolean>`d.id in (select tt.documento_id from tpv_tickets tt where tt.terminal_id = ${input.terminal_id})`);
    if (typeof input.caja_id === 'number') out.push(sql<boolean>`d.id in (select tt.documento_id from tpv_tickets tt where tt.caja_id = ${input.caja_id})`);
    if (typeof input.numero_fin === 'string' && /^\d{1,9}$/.test(input.numero_fin)) {
      // The number's last k digits (zero-padded as printed) are these: numero mod 10^k.
      out.push(sql<boolean>`(d.numero is not null and d.numero % ${10 ** input.numero_fin.length} = ${Number(input.numero_fin)})`);
    }
    return out;
  },
};

export const tipoTicket = registrarTipo(TICKET, ticketEffects);

// Upload -------------------------------------------------------------------------------------------------------

type LineaIn = { articulo_id: number; cantidad: number; precio: number; descuento: number };
type PagoIn = { forma: FormaPagoTpv; importe: number; vale?: string };
/**
 * `cajero_id` (issue 23): who sold an offline ticket, as the till says (the cashier signed in when it was issued).
 * `en_linea` (docs/tpv.md «The doubtful ticket»): the till made the record and waits for this answer before printing
 * it — nothing is printed yet, so a business rule refuses it as an online ticket; a refusal keeps nothing aside.
 */
type TicketIn = { uuid: string; fecha_hora: string; lineas: LineaIn[]; pagos: PagoIn[]; registro: RegistroTpv | null; cajero_id: number | null; en_linea: boolean };

/** A record the till has printed already (issued offline, or sent online and its answer lost): kept, flagged, never refused for a rule. */
const impreso = (tk: TicketIn) => !!tk.registro && !tk.en_linea;

/** The error of one ticket of an upload: names it (`uuidRechazado`), so a record the till made can be kept aside. */
const rechazo = (uuid: string, motivo: string) => Object.assign(fail(t(MESSAGES_TPV.ticketRechazado, { uuid, motivo }), '1', 400), { uuidRechazado: uuid });

/** The request's tickets, shaped and range-checked (no database yet). */
function leerTickets(raw: unknown): TicketIn[] {
  if (!Array.isArray(raw) || !raw.length) throw fail(MESSAGES_TPV.ticketSinLineas, '1', 400);
  if (raw.length > MAX_TICKETS_SUBIDA) throw fail(`Como mucho ${MAX_TICKETS_SUBIDA} tickets por envío.`, '1', 400);
  const vistos = new Set<string>();
  return raw.map((item) => {
    const x = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const uuid = typeof x.uuid === 'string' ? x.uuid.trim() : '';
    if (!uuid || uuid.length > 64) throw fail(MESSAGES_TPV.ticketUuid, '1', 400);
    if (vistos.has(uuid)) throw fail(t(MESSAGES_TPV.ticketUuidRepetido, { uuid }), '1', 400);
    vistos.add(uuid);
    const fechaHora = typeof x.fecha_hora === 'string' ? x.fecha_hora : '';
    if (!fechaHora || !Number.isFinite(Date.parse(fechaHora))) throw rechazo(uuid, MESSAGES_TPV.fechaHoraNoValida);
    if (!Array.isArray(x.lineas) || !x.lineas.length) throw rechazo(uuid, MESSAGES_TPV.ticketSinLineas);
    const lineas = x.lineas.map((li, i) => {
      const l = (li && typeof li === 'object' ? li : {}) as Record<string, unknown>;
      const linea = (motivo: string) => rechazo(uuid, t(MESSAGES_TPV.ticketLinea, { n: i + 1, motivo }));
      const articulo = entero(l.articulo_id);
      const cantidad = entero(l.cantidad);
      const precio = entero(l.precio);
      const descuento = l.descuento === undefined || l.descuento === null ? 0 : entero(l.descuento);
      if (articulo === null || articulo < 1) throw linea(MESSAGES_TPV.articuloNoExiste);
      if (cantidad === null || cantidad <= 0 || cantidad > 1_000_000_000) throw linea(MESSAGES_TPV.cantidadNoValida);
      if (precio === null || precio < 0 || precio > 1_000_000_000_000) throw linea(MESSAGES_TPV.precioNoValido);
      if (descuento === null || descuento < 0 || descuento > 10000) throw linea(MESSAGES_TPV.descuentoNoValido);
      return { articulo_id: articulo, cantidad, precio, descuento };
    });
    if (!Array.isArray(x.pagos) || !x.pagos.length) throw rechazo(uuid, t(MESSAGES_TPV.pagosNoCubren, { pagado: euros(0), total: '—' }));
    const pagos = x.pagos.map((pi) => {
      const p = (pi && typeof pi === 'object' ? pi : {}) as Record<string, unknown>;
      const forma = String(p.forma ?? '');
      if (!(FORMAS_PAGO_TPV as readonly string[]).includes(forma)) throw rechazo(uuid, t(MESSAGES_TPV.formaPagoNoValida, { forma }));
      const importe = entero(p.importe);
      if (importe === null || importe <= 0) throw rechazo(uuid, MESSAGES_TPV.pagoNoValido);
      // Issue 23: a store credit names its code (spent once, whole, checked when the ticket is stored).
      if (forma === 'vale') {
        const vale = typeof p.vale === 'string' ? p.vale.trim().toUpperCase() : '';
        if (!vale || vale.length > 40) throw rechazo(uuid, MESSAGES_TPV.valeCodigo);
        return { forma: 'vale' as FormaPagoTpv, importe, vale };
      }
      return { forma: forma as FormaPagoTpv, importe };
    });
    let registro: RegistroTpv | null = null;
    if (x.registro !== undefined && x.registro !== null) {
      registro = leerRegistro(x.registro);
      if (!registro) throw rechazo(uuid, MESSAGES_TPV.registroCampos);
    }
    const cajero = x.cajero_id === undefined || x.cajero_id === null ? null : entero(x.cajero_id);
    return { uuid, fecha_hora: fechaHora, lineas, pagos, registro, cajero_id: cajero !== null && cajero > 0 ? cajero : null, en_linea: !!registro && x.en_linea === 1 };
  });
}

/**
 * The ticket's cashier (issue 23: the Z names every cashier of the caja): online, the session's user; offline, the
 * cashier the till says was signed in when it issued it (another may have taken over before the upload), if that user
 * exists — else the uploading session's.
 */
async function cajeroDe(trx: Transaction<Database>, tk: TicketIn, user: SessionUser): Promise<number> {
  if (!tk.registro || tk.cajero_id === null || tk.cajero_id === user.id) return user.id;
  const u = await trx.selectFrom('usuarios').select('id').where('id', '=', tk.cajero_id).executeTakeFirst();
  return u?.id ?? user.id;
}

/** The vales that paid a document and the balance each left then (issue 23, migration 0043). */
async function valesDelPago(db: Kysely<Database> | Transaction<Database>, documentoId: number) {
  const filas = await db.selectFrom('tpv_pagos').select(['vale', 'importe', 'vale_saldo']).where('documento_id', '=', documentoId).where('vale', 'is not', null).orderBy('orden').execute();
  return filas.map((p) => ({ codigo: p.vale ?? '', importe: Number(p.importe), saldo: Number(p.vale_saldo ?? 0) }));
}

/** A stored ticket's answer row (a repeated uuid answers the same). */
async function filaSubida(db: Kysely<Database> | Transaction<Database>, documentoId: number, repetido: boolean): Promise<TicketSubido> {
  const d = await db
    .selectFrom('documentos as d')
    .innerJoin('tpv_tickets as tt', 'tt.documento_id', 'd.id')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select(['d.id', 'd.ejercicio', 'd.numero', 'd.total', 's.codigo', 'tt.uuid', 'tt.cambio', 'tt.offline'])
    .where('d.id', '=', documentoId)
    .executeTakeFirstOrThrow();
  const r = await db
    .selectFrom('registros_facturacion')
    .select(['emisor', 'num_serie', 'fecha_expedicion', 'importe_total', 'huella', 'xml', 'fecha_hora_huso', 'entorno', 'demo', 'verifactu'])
    .where('documento_id', '=', documentoId)
    .where('tipo', '=', 'alta')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  return {
    uuid: d.uuid ?? '',
    id: d.id,
    numero: r.num_serie,
    total: Number(d.total),
    cambio: Number(d.cambio),
    huella: r.huella,
    xml: r.xml,
    qr_url: qrDeAlta({ IDEmisorFactura: nifDeCadena(r.emisor), NumSerieFactura: r.num_serie, FechaExpedicionFactura: r.fecha_expedicion, ImporteTotal: r.importe_total ?? '0.00' }, emisionDeFila(r).entorno),
    fecha_hora_huso: r.fecha_hora_huso,
    fecha_expedicion: r.fecha_expedicion,
    offline: Number(d.offline) as 0 | 1,
    repetido: repetido ? 1 : 0,
    emision: emisionDeFila(r),
    vales: await valesDelPago(db, documentoId),
  };
}

/**
 * The payments of a ticket: each method offered by the terminal, together covering the total; only cash beyond it
 * (the change). Answers each method's share of the total (cash: what it handed over less the change) and the change.
 */
function repartirPagos(uuid: string, total: number, pagos: PagoIn[], ofrecidas: FormaPagoTpv[]) {
  for (const p of pagos) if (!ofrecidas.includes(p.forma)) throw rechazo(uuid, t(MESSAGES_TPV.formaPagoNoOfrecida, { forma: p.forma }));
  const pagado = pagos.reduce((s, p) => s + p.importe, 0);
  if (pagado < total) throw rechazo(uuid, t(MESSAGES_TPV.pagosNoCubren, { pagado: euros(pagado), total: euros(total) }));
  const cambio = pagado - total;
  const efectivo = pagos.filter((p) => p.forma === 'efectivo').reduce((s, p) => s + p.importe, 0);
  if (cambio > efectivo) throw rechazo(uuid, MESSAGES_TPV.soloEfectivoExcede);
  let queda = cambio;
  const filas = pagos.map((p) => {
    let importe = p.importe;
    if (p.forma === 'efectivo' && queda > 0) {
      const menos = Math.min(queda, importe);
      importe -= menos;
      queda -= menos;
    }
    return { forma: p.forma, importe, entregado: p.importe };
  });
  return { filas, cambio };
}

export const COLUMNAS_LINEA = [
  'documento_id', 'orden', 'articulo_id', 'codigo', 'descripcion', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'pendiente', 'almacen_id', 'ubicacion_id',
  'motivo', 'teorico', 'precio_iva',
] as const;

type Terminal = Awaited<ReturnType<typeof terminalActivo>>;

/** One ticket inside the upload's transaction: the document, its lines, the engine's emitir, its till row and payments. */
async function guardarTicket(
  trx: Transaction<Database>,
  app: AppContext,
  user: SessionUser,
  ctx: { terminal: Terminal; serieCodigo: string; emisor: { nif: string; nombre: string; minorista: boolean; impuesto: Impuesto }; cajaId: number | null },
  tk: TicketIn,
): Promise<TicketSubido> {
  const { terminal } = ctx;
  const ids = [...new Set(tk.lineas.map((l) => l.articulo_id))];
  const arts = new Map(
    (
      await trx.selectFrom('articulos').select(['id', 'codigo', 'descripcion', 'nombre_tpv', 'tipo_iva', 'activo', 'pvp_1', 'unidad_medida']).where('id', 'in', ids).execute()
    ).map((a) => [a.id, a]),
  );
  // A ticket issued offline (its record exists, printed): what it breaks of the rules is stored and flagged, never
  // refused (issue 23). Online (nothing printed yet: no record, or the till's record with `en_linea`) it is refused.
  const offline = impreso(tk);
  const avisos: Aviso[] = [];
  const lineas = tk.lineas.map((l, i) => {
    const a = arts.get(l.articulo_id);
    if (!a || (a.activo !== 1 && !offline)) throw rechazo(tk.uuid, t(MESSAGES_TPV.ticketLinea, { n: i + 1, motivo: MESSAGES_TPV.articuloNoExiste }));
    if (a.activo !== 1) avisos.push({ tipo: 'articulo', detalle: t(MESSAGES_TPV.incidenciaArticulo, { numero: '{numero}', n: i + 1, articulo: a.codigo }) });
    // Issue 23: an article sold by the unit takes whole quantities (the till refuses a fraction before printing; a
    // record it already made offline is kept as issued).
    const fraccion = cantidadNoEntera(a.unidad_medida, l.cantidad, a.codigo);
    if (fraccion && !offline) throw rechazo(tk.uuid, t(MESSAGES_TPV.ticketLinea, { n: i + 1, motivo: fraccion }));
    const tipo = a.tipo_iva as TipoIva;
    return { ...l, tipo_iva: tipo, codigo: a.codigo, descripcion: a.nombre_tpv?.trim() || a.descripcion, precioNeto: precioSinIva(l.precio, tipo) };
  });
  const totales = totalesTicket(lineas);
  const limite = ctx.emisor.minorista ? LIMITE_SIMPLIFICADA_MINORISTA : LIMITE_SIMPLIFICADA;
  if (totales.total > limite) {
    if (!offline) throw rechazo(tk.uuid, ctx.emisor.minorista ? MESSAGES.simplificadaSuperaLimiteMinorista : MESSAGES.simplificadaSuperaLimite);
    avisos.push({ tipo: 'limite', detalle: t(MESSAGES_TPV.incidenciaLimite, { numero: '{numero}', total: euros(totales.total), limite: euros(limite) }) });
  }
  // The cashier's rights (online: comprobarLineasTpv refused the upload before this).
  if (offline) avisos.push(...fueraDeDerechos(user, tk.lineas, arts));
  // The caja closed on the server while the till sold offline: stored outside any caja, flagged.
  if (ctx.cajaId === null) avisos.push({ tipo: 'caja', detalle: t(MESSAGES_TPV.incidenciaCaja, { que: 'Ticket {numero}', total: euros(totales.total) }) });
  const pagosTk = pagosConVales(totales.total, tk.pagos);
  const { filas: pagos, cambio } = repartirPagos(tk.uuid, totales.total, pagosTk, formasDe(terminal.formas_pago));
  // Online the ticket is issued today (the record is made now); offline on the date its record says.
  const fecha = tk.registro ? isoDe(tk.registro.fecha_expedicion) : todayIn(app.timeZone);
  const now = nowIso();
  const { id: docId } = await trx
    .insertInto('documentos')
    .values({
      tipo: TICKET.tipo, serie_id: terminal.serie_id, numero: null, ejercicio: Number(fecha.slice(0, 4)), fecha, estado: TICKET.inicial, creado: now, creado_por: user.id,
      almacen_id: terminal.almacen_id, almacen_destino_id: null, familia_id: null, ubicacion_id: null, proveedor_id: null, cliente_id: terminal.cliente_id,
      forma_pago: null, fecha_entrega: null, retencion: 0, con_recargo: 0, observaciones: null, base: totales.base, iva: totales.iva, recargo: 0,
      retencion_importe: 0, total: totales.total, desglose: JSON.stringify(totales.desglose), clave: null, modificado: null, modificado_por: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The uuid first: a duplicate sent at the same time stops here (unique), before any number is taken.
  await trx
    .insertInto('tpv_tickets')
    .values({
      documento_id: docId, uuid: tk.uuid, tipo: 'ticket', terminal_id: terminal.id, caja_id: ctx.cajaId, ticket_id: null, fecha_hora: tk.fecha_hora,
      usuario_id: await cajeroDe(trx, tk, user), cambio, offline: offline ? 1 : 0,
    })
    .execute();
  await insertarFilas(
    trx,
    'documento_lineas',
    COLUMNAS_LINEA,
    lineas.map((l, i) => [docId, i + 1, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precioNeto, l.descuento, 0, null, null, null, null, l.precio]),
  );
  const datos: DatosEmision = {
    terminal: { id: terminal.id, serie_id: terminal.serie_id, almacen_id: terminal.almacen_id, numero_instalacion: terminal.numero_instalacion, serie_codigo: ctx.serieCodigo },
    emisor: { nif: ctx.emisor.nif, nombre: ctx.emisor.nombre, impuesto: ctx.emisor.impuesto },
    totales,
    registro: tk.registro,
    avisos,
  };
  try {
    const emitir = () => ejecutarAccionEn(trx, app, TICKET, ticketEffects, EMITIR_TICKET, docId, null, user, { [DATOS]: datos } as unknown as Record<string, unknown>);
    // Offline the goods already left and the record exists: negative stock never refuses it (online it may, per the setting).
    await (offline ? conStockNegativo(trx, emitir) : emitir());
  } catch (err) {
    if (err instanceof ActionError) throw rechazo(tk.uuid, String((err.body as { message?: string }).message ?? ''));
    throw err;
  }
  // Store credits: each spent here, in part or whole (the till takes them online only); the row keeps the balance left.
  const saldos = new Map<number, { vale: string; saldo: number }>();
  for (const [i, p] of pagosTk.entries()) if (p.vale) saldos.set(i, { vale: p.vale, saldo: await gastarVale(trx, tk.uuid, p.vale, p.importe, docId, offline) });
  await insertarFilas(
    trx,
    'tpv_pagos',
    ['documento_id', 'orden', 'forma', 'importe', 'entregado', 'vale', 'vale_saldo'],
    pagos.map((p, i) => [docId, i + 1, p.forma, p.importe, p.entregado, saldos.get(i)?.vale ?? null, saldos.get(i)?.saldo ?? null]),
  );
  const h = datos.hecho!;
  for (const a of avisos) {
    await anotarIncidencia(trx, {
      terminal_id: terminal.id, caja_id: ctx.cajaId, documento_id: docId, uuid: tk.uuid, tipo: a.tipo, detalle: a.detalle.replace('{numero}', h.numero), usuario_id: user.id,
    });
  }
  return {
    uuid: tk.uuid, id: docId, numero: h.numero, total: totales.total, cambio, huella: h.huella, xml: h.xml, qr_url: h.qr_url, fecha_hora_huso: h.fecha_hora_huso,
    fecha_expedicion: h.fecha_expedicion, offline: offline ? 1 : 0, repetido: 0, emision: h.emision, vales: await valesDelPago(trx, docId),
  };
}

/**
 * The lines of a ticket issued offline beyond the cashier's rights (the rule comprobarLineasTpv applies online): a
 * unit price with IVA other than the article's PVP without «cambiar precio», a discount above the role's maximum
 * without «descuento». Answers the incidences (the ticket's number filled in later).
 */
function fueraDeDerechos(user: SessionUser, lineas: LineaIn[], arts: Map<number, { codigo: string; pvp_1: number | null }>): Aviso[] {
  const derechos = user.rol.derechos;
  const out: Aviso[] = [];
  const pct = (h: number) => `${(h / 100).toLocaleString('es-ES', { maximumFractionDigits: 2 })} %`;
  lineas.forEach((l, i) => {
    const a = arts.get(l.articulo_id);
    if (!a) return;
    const pvp = Number(a.pvp_1 ?? 0) * 100;
    if (!tiene(derechos, 'cambiar_precio') && l.precio !== pvp) {
      out.push({
        tipo: 'precio',
        detalle: t(MESSAGES_TPV.incidenciaPrecio, { numero: '{numero}', n: i + 1, articulo: a.codigo, precio: euros(Math.round(l.precio / 100)), pvp: euros(pvp / 100), cajero: user.nombre }),
      });
    }
    const maximo = descuentoPermitido(derechos);
    if (!tiene(derechos, 'descuento') && l.descuento > maximo) {
      out.push({ tipo: 'descuento', detalle: t(MESSAGES_TPV.incidenciaDescuento, { numero: '{numero}', n: i + 1, articulo: a.codigo, descuento: pct(l.descuento), maximo: pct(maximo), cajero: user.nombre }) });
    }
  });
  return out;
}

/**
 * A store credit («vale», issue 23) spent as a ticket's payment: it exists, has a balance, and the payment takes at
 * most that; what is left stays on it, usable later (migration 0043), and it is used up (`documento_usado`) at 0 — in
 * the ticket's transaction, the balance guarded against a concurrent spend. Answers the balance left. The till takes
 * vales online only: an offline ticket paying with one is refused (kept aside), never half-stored.
 */
async function gastarVale(trx: Transaction<Database>, uuid: string, codigo: string, importe: number, docId: number, offline: boolean): Promise<number> {
  if (offline) throw rechazo(uuid, MESSAGES_TPV.valeSinConexion);
  const v = await trx.selectFrom('tpv_vales').select(['id', 'saldo']).where('codigo', '=', codigo).executeTakeFirst();
  if (!v) throw rechazo(uuid, t(MESSAGES_TPV.valeNoExiste, { codigo }));
  const saldo = Number(v.saldo ?? 0);
  if (saldo <= 0) throw rechazo(uuid, t(MESSAGES_TPV.valeUsado, { codigo }));
  if (importe > saldo) throw rechazo(uuid, t(MESSAGES_TPV.valeSaldo, { codigo, saldo: euros(saldo), importe: euros(importe) }));
  const queda = saldo - importe;
  const r = await trx
    .updateTable('tpv_vales')
    .set({ saldo: queda, usado: nowIso(), documento_usado: queda === 0 ? docId : null })
    .where('id', '=', v.id)
    .where('saldo', '=', saldo)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw rechazo(uuid, t(MESSAGES_TPV.valeUsado, { codigo }));
  return queda;
}

/**
 * A ticket's payments by vale take at most what the ticket costs (issue 23: a vale worth more than the sale is no
 * error — the rest stays on it): each vale payment is cut to what the vales before it left of the total.
 */
function pagosConVales(total: number, pagos: PagoIn[]): PagoIn[] {
  let porCubrir = total;
  return pagos
    .map((p) => {
      if (!p.vale) return p;
      const importe = Math.min(p.importe, Math.max(porCubrir, 0));
      porCubrir -= importe;
      return { ...p, importe };
    })
    .filter((p) => p.importe > 0);
}

/** A new store credit's code: «V» and twelve random digits (printed as a barcode; unique). */
export const codigoVale = () => `V${String(randomInt(0, 1_000_000)).padStart(6, '0')}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

/** valetpv: a store credit by its code, to take it as a payment (online). */
export async function leerVale(app: AppContext, codigo: string) {
  const c = codigo.trim().toUpperCase();
  const v = await app.db.selectFrom('tpv_vales').select(['codigo', 'importe', 'saldo', 'creado', 'usado', 'documento_usado']).where('codigo', '=', c).executeTakeFirst();
  if (!v) throw fail(t(MESSAGES_TPV.valeNoExiste, { codigo: c }), '3', 404);
  // Issue 23: `saldo` is what is left; `usado` the last time it paid (a vale with a balance left is still good), `agotado` 1 at 0.
  const saldo = Number(v.saldo ?? 0);
  return { codigo: v.codigo, importe: Number(v.importe), saldo, creado: v.creado, usado: v.usado, agotado: saldo <= 0 ? 1 : 0 };
}

/** subirtickets: every ticket of the request in one transaction, in order; a repeated uuid answers its stored row. */
export async function subirTickets(app: AppContext, user: SessionUser, terminalId: number, raw: unknown): Promise<TicketSubido[]> {
  const tickets = leerTickets(raw);
  const una = () =>
    app.db.transaction().execute(async (trx) => {
      // One upload per terminal at a time (PostgreSQL: the row lock; SQLite runs one writer at a time).
      if (app.dialect === 'postgres') await sql`select id from tpv_terminales where id = ${terminalId} for update`.execute(trx);
      const terminal = await terminalActivo(trx, terminalId);
      const previos = new Map(
        (await trx.selectFrom('tpv_tickets').select(['uuid', 'documento_id']).where('uuid', 'in', tickets.map((x) => x.uuid)).execute()).map((r) => [r.uuid, r.documento_id]),
      );
      const nuevos = tickets.filter((x) => !previos.has(x.uuid));
      let ctx: Parameters<typeof guardarTicket>[3] | null = null;
      if (nuevos.length) {
        const caja = await cajaAbierta(trx, terminal.id);
        // Issue 23: tickets the till issued offline are stored even with no caja open (the back office closed it
        // meanwhile): outside any caja, each flagged. An online one still needs the caja open.
        if (!caja && nuevos.some((x) => !impreso(x))) throw fail(MESSAGES_TPV.cajaNoAbierta, '1', 400);
        const serie = await trx.selectFrom('series').select(['codigo', 'tipo', 'activo']).where('id', '=', terminal.serie_id).executeTakeFirst();
        if (serie?.tipo !== 'simplificada' || serie.activo !== 1) throw fail(MESSAGES_TPV.serieTicketsNoValida, '1', 400);
        if (!/^[\x20-\x7e]+$/.test(serie.codigo)) throw fail(MESSAGES.serieCodigoNoAscii, '1', 400);
        ctx = { terminal, serieCodigo: serie.codigo, emisor: await empresaEmisora(trx), cajaId: caja?.id ?? null };
      }
      const out: TicketSubido[] = [];
      for (const tk of tickets) {
        const previo = previos.get(tk.uuid);
        if (previo === undefined) {
          out.push(await guardarTicket(trx, app, user, ctx!, tk));
          continue;
        }
        const fila = await filaSubida(trx, previo, true);
        if (tk.registro && tk.registro.huella !== fila.huella) await registroDuplicado(trx, terminal.id, tk, fila, user);
        out.push(fila);
      }
      return out;
    });
  try {
    return await una();
  } catch (err) {
    // The same uuid stored meanwhile by a concurrent upload: nothing of this one stayed; again, it now finds it.
    if (!(err instanceof ActionError) && isUniqueViolation(err)) return una();
    // A ticket the till issued offline that cannot be stored (its record corrupt, its data unusable): kept aside
    // whole and reported (issue 23); the refusal tells the till, which keeps it as an incidence and goes on.
    const uuid = (err as { uuidRechazado?: string }).uuidRechazado;
    const tk = uuid ? tickets.find((x) => x.uuid === uuid) : undefined;
    if (err instanceof ActionError && tk?.registro && !tk.en_linea) {
      const motivo = String((err.body as { message?: string }).message ?? '').replace(`Ticket ${tk.uuid}: `, '');
      await apartarRegistro(app, { terminal_id: terminalId, uuid: tk.uuid, detalle: t(MESSAGES_TPV.incidenciaApartado, { que: 'Ticket', uuid: tk.registro.num_serie, motivo }), datos: JSON.stringify(tk), usuario_id: user.id });
    }
    throw err;
  }
}

/**
 * docs/tpv.md «The doubtful ticket»: a till uploads its own record of a ticket the server already registered with
 * another (a till before that rule: sent online, its answer lost, then recorded by the till). The ticket stays in the
 * books once, with the server's record; the till's record is not stored (it would register the same invoice twice)
 * and is not rewritten either: kept whole in an incidence `registro` for the manager (once per uuid). What the till
 * chained after it does not follow the server's chain: refused when it arrives and kept aside the same way, to be
 * corrected with new records — never re-chained nor renumbered.
 */
async function registroDuplicado(trx: Transaction<Database>, terminalId: number, tk: TicketIn, fila: TicketSubido, user: SessionUser): Promise<void> {
  const ya = await trx.selectFrom('tpv_incidencias').select('id').where('uuid', '=', tk.uuid).where('tipo', '=', 'registro').executeTakeFirst();
  if (ya) return;
  const caja = await cajaAbierta(trx, terminalId);
  await anotarIncidencia(trx, {
    terminal_id: terminalId, caja_id: caja?.id ?? null, documento_id: fila.id, uuid: tk.uuid, tipo: 'registro', datos: JSON.stringify(tk), usuario_id: user.id,
    detalle: t(MESSAGES_TPV.incidenciaRegistroDuplicado, { numero: fila.numero, recibida: tk.registro!.huella.slice(0, 16), guardada: fila.huella.slice(0, 16) }),
  });
}

// Returns ------------------------------------------------------------------------------------------------------

export type Devolucion = Documento & { ticket_id: number; huella: string; xml: string; qr_url: string; vales: { codigo: string; importe: number }[] };

/**
 * devolverticket: the R5 of some of a ticket's lines, by the engine's rectificativa and its emitir. A return the till
 * made offline (issue 13) names its ticket by `ticket_uuid` and its lines by `orden` when the till had no server ids,
 * and carries its `registro` (R5, the terminal's rectificativa serie and own chain) and `fecha_hora`: the limits are
 * checked again, the record verified unaltered; its `uuid` makes a repeated upload answer the same R5.
 */
export async function devolverTicket(app: AppContext, user: SessionUser, ticketIdIn: number | null, raw: Record<string, unknown>): Promise<Devolucion> {
  const uuid = typeof raw.uuid === 'string' && raw.uuid.trim() ? raw.uuid.trim().slice(0, 64) : null;
  const ticketUuid = typeof raw.ticket_uuid === 'string' && raw.ticket_uuid.trim() ? raw.ticket_uuid.trim().slice(0, 64) : null;
  if (ticketIdIn === null && !ticketUuid) throw fail(MESSAGES_TPV.devolucionTicket, '1', 400);
  const pedidasRaw: { id: number | null; orden: number | null; q: number }[] = [];
  if (!Array.isArray(raw.lineas) || !raw.lineas.length) throw fail(MESSAGES_TPV.devolucionSinLineas, '1', 400);
  for (const item of raw.lineas) {
    const x = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const id = x.id === undefined || x.id === null ? null : entero(x.id);
    const orden = x.orden === undefined || x.orden === null ? null : entero(x.orden);
    const q = entero(x.cantidad);
    if ((id === null) === (orden === null) || q === null || q < 0) throw fail(MESSAGES_TPV.devolucionSinLineas, '1', 400);
    if (q > 0) pedidasRaw.push({ id, orden, q });
  }
  if (!pedidasRaw.length) throw fail(MESSAGES_TPV.devolucionSinLineas, '1', 400);
  const { registro, fechaHora } = registroDeDevolucion(raw, uuid);
  const pagosRaw = raw.pagos;
  let ticketId = ticketIdIn ?? 0;
  // A return the till made offline (its R5 record exists, its slip printed): what it breaks is stored and flagged.
  let avisos: Aviso[] = [];

  const una = () =>
    app.db.transaction().execute(async (trx) => {
      avisos = [];
      if (uuid) {
        const previo = await trx.selectFrom('tpv_tickets').select(['documento_id', 'ticket_id']).where('uuid', '=', uuid).executeTakeFirst();
        if (previo) {
          ticketId = previo.ticket_id ?? ticketId;
          return previo.documento_id;
        }
      }
      const ticket = await trx
        .selectFrom('documentos as d')
        .innerJoin('tpv_tickets as tt', 'tt.documento_id', 'd.id')
        .select(['d.id', 'd.tipo', 'd.estado', 'd.fecha', 'd.almacen_id', 'd.cliente_id', 'tt.terminal_id'])
        .$if(ticketIdIn !== null, (q) => q.where('d.id', '=', ticketIdIn!))
        .$if(ticketIdIn === null, (q) => q.where('tt.uuid', '=', ticketUuid!))
        .$if(app.dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!ticket) throw fail(MESSAGES.notFound, '3');
      ticketId = ticket.id;
      if (ticket.tipo !== TICKET.tipo) throw fail(MESSAGES_TPV.noEsTicket, '1', 400);
      const numeroTicket = async () =>
        (await trx.selectFrom('registros_facturacion').select('num_serie').where('documento_id', '=', ticket.id).where('tipo', '=', 'alta').orderBy('id').limit(1).executeTakeFirst())
          ?.num_serie ?? String(ticket.id);
      // Issue 23: an earlier day's ticket is returned only with the right «devolver tickets de días anteriores» (Caja
      // returns the day's). Online refused; a return the till already made offline is stored and flagged.
      const diaDevolucion = registro ? isoDe(registro.fecha_expedicion) : todayIn(app.timeZone);
      if (ticket.fecha < diaDevolucion && !tiene(user.rol.derechos, 'devolver_anteriores')) {
        if (!registro) throw fail(MESSAGES_TPV.devolucionDiaAnterior, '1', 403);
        avisos.push({
          tipo: 'devolucion',
          detalle: t(MESSAGES_TPV.incidenciaDevolucionAnterior, { numero: registro.num_serie, ticket: await numeroTicket(), fecha: ticket.fecha, cajero: user.nombre }),
        });
      }
      if (ticket.estado === 'facturado') {
        if (!registro) throw fail(MESSAGES_TPV.ticketYaFacturado, '1', 400);
        avisos.push({ tipo: 'facturado', detalle: t(MESSAGES_TPV.incidenciaFacturado, { numero: registro.num_serie, ticket: await numeroTicket() }) });
      }
      const terminal = await terminalActivo(trx, ticket.terminal_id);
      const caja = await cajaAbierta(trx, terminal.id);
      if (!caja) {
        if (!registro) throw fail(MESSAGES_TPV.cajaNoAbierta, '1', 400);
        avisos.push({ tipo: 'caja', detalle: t(MESSAGES_TPV.incidenciaCaja, { que: `Devolución ${registro.num_serie}`, total: '{total}' }) });
      }
      const lineas = await trx
        .selectFrom('documento_lineas as l')
        .select([
          'l.id', 'l.orden', 'l.articulo_id', 'l.codigo', 'l.descripcion', 'l.tipo_iva', 'l.cantidad', 'l.precio', 'l.precio_iva', 'l.descuento', 'l.ubicacion_id',
          sql<string>`(select cast(coalesce(sum(e.cantidad), 0) as text) from documento_enlaces e where e.padre_linea_id = l.id)`.as('devuelto'),
          sql<string | null>`(select a.unidad_medida from articulos a where a.id = l.articulo_id)`.as('unidad'),
        ])
        .where('l.documento_id', '=', ticket.id)
        .orderBy('l.orden')
        .execute();
      // Lines named by their number on the ticket (a return made offline) are the same lines.
      const pedidas = new Map<number, number>();
      for (const p of pedidasRaw) {
        const id = p.id ?? lineas.find((l) => l.orden === p.orden)?.id;
        if (id === undefined) throw fail(t(MESSAGES_TPV.devolucionLineaAjena, { id: p.orden ?? '' }), '1', 400);
        pedidas.set(id, (pedidas.get(id) ?? 0) + p.q);
      }
      const porId = new Map(lineas.map((l) => [l.id, l]));
      for (const [id, q] of pedidas) {
        const l = porId.get(id);
        if (!l) throw fail(t(MESSAGES_TPV.devolucionLineaAjena, { id }), '1', 400);
        // Issue 23: an article sold by the unit is returned in whole units (an offline return already made is kept).
        const fraccion = cantidadNoEntera(l.unidad, q, l.codigo);
        if (fraccion && !registro) throw fail(fraccion, '1', 400);
        const queda = Number(l.cantidad) - Number(l.devuelto);
        if (q > queda) {
          const fmt = (n: number) => (n / 1000).toLocaleString('es-ES', { maximumFractionDigits: 3 });
          if (!registro) throw fail(t(MESSAGES_TPV.devolucionExcede, { n: l.orden, cantidad: fmt(q), queda: fmt(queda) }), '1', 400);
          avisos.push({
            tipo: 'devolucion',
            detalle: t(MESSAGES_TPV.incidenciaDevolucion, { numero: registro.num_serie, ticket: await numeroTicket(), n: l.orden, cantidad: fmt(q), queda: fmt(Math.max(queda, 0)) }),
          });
        }
      }
      const devueltas = lineas.filter((l) => pedidas.has(l.id));
      const nuevas = devueltas.map((l) => ({
        origen: l.id, articulo_id: l.articulo_id, codigo: l.codigo, descripcion: l.descripcion, tipo_iva: l.tipo_iva as TipoIva, cantidad: -pedidas.get(l.id)!,
        precio: Number(l.precio), precio_iva: Number(l.precio_iva ?? 0), descuento: Number(l.descuento), ubicacion_id: l.ubicacion_id,
      }));
      const totales = totalesTicket(nuevas.map((l) => ({ ...l, precio: l.precio_iva })));
      const reembolso = -totales.total;
      // Refunds: as the customer chooses (positive cents by method, summing to the return), else «como se pagó»: split
      // over the ticket's methods in the proportion each took (issue 23: a cash + card ticket is not refunded all in cash).
      let pagos: { forma: FormaPagoTpv; importe: number }[];
      if (Array.isArray(pagosRaw) && pagosRaw.length) {
        pagos = pagosRaw.map((pi) => {
          const p = (pi && typeof pi === 'object' ? pi : {}) as Record<string, unknown>;
          const forma = String(p.forma ?? '');
          const importe = entero(p.importe);
          if (!(FORMAS_PAGO_TPV as readonly string[]).includes(forma)) throw fail(t(MESSAGES_TPV.formaPagoNoValida, { forma }), '1', 400);
          // Issue 23: a store credit as the refund, with the right «reembolso_vale», online (it is issued here).
          if (forma === 'vale') {
            if (registro) throw fail(MESSAGES_TPV.valeSinConexion, '1', 400);
            if (!tiene(user.rol.derechos, 'reembolso_vale')) throw fail(MESSAGES_TPV.valeSinDerecho, '1', 403);
          } else if (!formasDe(terminal.formas_pago).includes(forma as FormaPagoTpv)) throw fail(t(MESSAGES_TPV.formaPagoNoOfrecida, { forma }), '1', 400);
          if (importe === null || importe <= 0) throw fail(MESSAGES_TPV.pagoNoValido, '1', 400);
          return { forma: forma as FormaPagoTpv, importe };
        });
        const suma = pagos.reduce((s, p) => s + p.importe, 0);
        if (suma !== reembolso) throw fail(t(MESSAGES_TPV.devolucionPagos, { pagado: euros(suma), total: euros(reembolso) }), '1', 400);
      } else {
        const pagados = await trx.selectFrom('tpv_pagos').select(['forma', 'importe']).where('documento_id', '=', ticket.id).orderBy('orden').execute();
        pagos = reembolsoComoSePago(pagados.map((p) => ({ forma: p.forma as FormaPagoTpv, importe: Number(p.importe) })), reembolso);
      }
      // Online the R5 is issued today; offline on the date its record says.
      const hoy = registro ? isoDe(registro.fecha_expedicion) : todayIn(app.timeZone);
      const now = nowIso();
      const { id: docId } = await trx
        .insertInto('documentos')
        .values({
          tipo: RECTIFICATIVA.tipo, serie_id: terminal.serie_rectificativa_id, numero: null, ejercicio: Number(hoy.slice(0, 4)), fecha: hoy, estado: RECTIFICATIVA.inicial,
          creado: now, creado_por: user.id, almacen_id: ticket.almacen_id, almacen_destino_id: null, familia_id: null, ubicacion_id: null, proveedor_id: null,
          cliente_id: ticket.cliente_id, forma_pago: null, fecha_entrega: null, retencion: 0, con_recargo: 0, observaciones: null, base: totales.base, iva: totales.iva,
          recargo: 0, retencion_importe: 0, total: totales.total, desglose: JSON.stringify(totales.desglose), clave: null, modificado: null, modificado_por: null,
          tipo_factura: 'R5', factura_id: ticket.id, modo_rectificacion: 'diferencias',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('tpv_tickets')
        .values({
          documento_id: docId, uuid, tipo: 'devolucion', terminal_id: terminal.id, caja_id: caja?.id ?? null, ticket_id: ticket.id, fecha_hora: fechaHora ?? now, usuario_id: user.id,
          cambio: 0, offline: registro ? 1 : 0,
        })
        .execute();
      await insertarFilas(
        trx,
        'documento_lineas',
        COLUMNAS_LINEA,
        nuevas.map((l, i) => [docId, i + 1, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precio, l.descuento, 0, null, l.ubicacion_id, null, null, l.precio_iva]),
      );
      // Each R5 line linked to the ticket's line with the units it returns: what is left to return reads the links.
      const ids = await trx.selectFrom('documento_lineas').select('id').where('documento_id', '=', docId).orderBy('orden').execute();
      await insertarFilas(
        trx,
        'documento_enlaces',
        ['linea_id', 'padre_linea_id', 'cantidad'],
        nuevas.map((l, i) => [ids[i].id, l.origen, -l.cantidad]),
      );
      // The engine's emission of a rectificativa: its number, the goods back into the warehouse, the R5 record.
      await emitirDevolucionTpv(trx, app, user, { docId, terminal, cajaId: caja?.id ?? null, uuid, registro, hoy, avisos, pagos, total: totales.total });
      // The ticket's state: wholly or partly returned.
      await estadoDevuelto(trx, ticket.id, user.id);
      return docId;
    });
  const id = await guardarDevolucionTpv(app, user, raw, uuid, registro, una, () => terminalDeDevolucion(app, ticketIdIn, ticketUuid, entero(raw.terminal_id)));
  return leerDevolucionTpv(app, id, ticketId, uuid);
}

/** The record a return made offline brings (`registro`, an R5), with its time and uuid; none for one made online. */
export function registroDeDevolucion(raw: Record<string, unknown>, uuid: string | null): { registro: RegistroTpv | null; fechaHora: string | null } {
  if (raw.registro === undefined || raw.registro === null) return { registro: null, fechaHora: null };
  const registro = leerRegistro(raw.registro);
  if (!registro) throw fail(t(MESSAGES_TPV.devolucionRechazada, { uuid: uuid ?? '', motivo: MESSAGES_TPV.registroCampos }), '1', 400);
  if (registro.tipo_factura !== 'R5') throw fail(t(MESSAGES_TPV.devolucionRechazada, { uuid: uuid ?? '', motivo: MESSAGES_TPV.registroTipoDevolucion }), '1', 400);
  const fechaHora = typeof raw.fecha_hora === 'string' && Number.isFinite(Date.parse(raw.fecha_hora)) ? raw.fecha_hora : null;
  if (!uuid || !fechaHora) throw fail(MESSAGES_TPV.devolucionOfflineDatos, '1', 400);
  return { registro, fechaHora };
}

/**
 * A till return's R5 once its header, its tpv_tickets row and its lines are written (devolverTicket, and
 * devolverSinTicket with `sinFactura`): the engine's emission — its number, the goods back, the R5 record; offline, the
 * till's record verified on the terminal's own chain against what the shared code makes of it —, the refunds, the vale
 * the customer takes instead of money, and the incidences found on the way.
 */
export async function emitirDevolucionTpv(
  trx: Transaction<Database>,
  app: AppContext,
  user: SessionUser,
  d: {
    docId: number;
    terminal: { id: number; numero_instalacion: string };
    cajaId: number | null;
    uuid: string | null;
    registro: RegistroTpv | null;
    hoy: string;
    avisos: Aviso[];
    pagos: { forma: FormaPagoTpv; importe: number }[];
    total: number;
    sinFactura?: boolean;
  },
): Promise<void> {
  const { docId, terminal, registro: r, avisos } = d;
  const extra: Record<symbol, unknown> = {};
  if (d.sinFactura) extra[SIN_FACTURA] = true;
  if (r) {
    extra[REGISTRO_OFFLINE] = async (datos: DatosAlta) => {
      const hecho = await registrarAltaGenerada(
        { trx, timeZone: app.timeZone, documentoId: docId, instalacion: terminal.numero_instalacion },
        claveCadena(datos.emisor.nif, terminal.numero_instalacion),
        (anterior) => verificarRegistro(r, generarAlta(datos, anterior, r.fecha_hora_huso, terminal.numero_instalacion, sistemaInformatico()), datos.numSerie, anterior, d.hoy, avisos),
      );
      await emisionGuardada(trx, hecho.id, r);
    };
  }
  await ejecutarAccionEn(trx, app, RECTIFICATIVA, rectificativaEffects as unknown as TipoEffects, EMITIR_RECTIFICATIVA, docId, null, user, extra as unknown as Record<string, unknown>);
  await insertarFilas(trx, 'tpv_pagos', ['documento_id', 'orden', 'forma', 'importe', 'entregado'], d.pagos.map((p, i) => [docId, i + 1, p.forma, -p.importe, -p.importe]));
  const aVale = d.pagos.filter((p) => p.forma === 'vale').reduce((a, p) => a + p.importe, 0);
  if (aVale > 0) {
    await trx.insertInto('tpv_vales').values({ codigo: codigoVale(), importe: aVale, saldo: aVale, terminal_id: terminal.id, documento_id: docId, creado: nowIso(), documento_usado: null, usado: null }).execute();
  }
  for (const a of avisos) {
    await anotarIncidencia(trx, { terminal_id: terminal.id, caja_id: d.cajaId, documento_id: docId, uuid: d.uuid, tipo: a.tipo, detalle: a.detalle.replace('{total}', euros(d.total)), usuario_id: user.id });
  }
}

/**
 * Runs a till return's transaction `una`, once more when a duplicate sent at the same time took its uuid first (the
 * second run answers the stored one). A return the till made offline that cannot be stored (its record corrupt, its
 * ticket unknown, no caja) is kept aside whole and reported on the terminal `terminal()` finds (issue 23); the refusal
 * tells the till, which keeps it as an incidence and goes on.
 */
export async function guardarDevolucionTpv(
  app: AppContext,
  user: SessionUser,
  raw: Record<string, unknown>,
  uuid: string | null,
  registro: RegistroTpv | null,
  una: () => Promise<number>,
  terminal: () => Promise<number | null>,
): Promise<number> {
  try {
    try {
      return await una();
    } catch (err) {
      if (!(err instanceof ActionError) && isUniqueViolation(err) && uuid) return await una();
      throw err;
    }
  } catch (err) {
    if (err instanceof ActionError && registro && uuid) {
      const motivo = String((err.body as { message?: string }).message ?? '').replace(`Devolución ${uuid}: `, '');
      const terminalId = await terminal();
      if (terminalId) {
        await apartarRegistro(app, {
          terminal_id: terminalId, uuid, detalle: t(MESSAGES_TPV.incidenciaApartado, { que: 'Devolución', uuid: registro.num_serie, motivo }), datos: JSON.stringify(raw), usuario_id: user.id,
        });
      }
    }
    throw err;
  }
}

/** A till return as its action answers it: the R5 with its record, its QR and the vales it issued. */
export async function leerDevolucionTpv<T extends number | null>(
  app: AppContext,
  id: number,
  ticketId: T,
  uuid: string | null,
): Promise<Omit<Devolucion, 'ticket_id'> & { ticket_id: T }> {
  const doc = (await readDocumento(app.db, RECTIFICATIVA, id))!;
  await alLeerTpv(app.db, doc);
  const r = (doc as unknown as { registro: { huella: string; xml: string; qr_url: string } & EmisionTpv }).registro;
  const vales = (await app.db.selectFrom('tpv_vales').select(['codigo', 'importe']).where('documento_id', '=', id).orderBy('id').execute()).map((v) => ({ codigo: v.codigo, importe: Number(v.importe) }));
  return Object.assign(doc, { ticket_id: ticketId, uuid, huella: r.huella, xml: r.xml, qr_url: r.qr_url, emision: emisionDeFila(r), vales });
}

/** The ticket's IVA groups with the recargo de equivalencia of each (shared: the till shows the same total). */
const recargoDe = recargoTicket;

/** The terminal a return belongs to: its ticket's, else the one the request names (a ticket the server never stored). */
async function terminalDeDevolucion(app: AppContext, ticketId: number | null, ticketUuid: string | null, pedido: number | null): Promise<number | null> {
  const tk = await app.db
    .selectFrom('tpv_tickets')
    .select('terminal_id')
    .$if(ticketId !== null, (q) => q.where('documento_id', '=', ticketId!))
    .$if(ticketId === null, (q) => q.where('uuid', '=', ticketUuid ?? ''))
    .executeTakeFirst();
  if (tk) return tk.terminal_id;
  if (pedido === null) return null;
  return (await app.db.selectFrom('tpv_terminales').select('id').where('id', '=', pedido).executeTakeFirst())?.id ?? null;
}

/**
 * The header of an invoice issued from the till — the F3 replacing a ticket (`sustituye`: the ticket) and the F1 issued
 * instead of one: in the serie asked for, else the first active normal serie (none: refused); dated today, by the
 * user, for the customer with its recargo de equivalencia, paid at the counter (forma «Contado»), not yet numbered.
 * Its lines and the engine's emitir follow, in the same transaction.
 */
async function facturaDelTpv(
  trx: Transaction<Database>,
  app: AppContext,
  user: SessionUser,
  f: {
    serieId: number | null;
    almacenId: number | null;
    clienteId: number;
    conRecargo: boolean;
    base: number;
    iva: number;
    recargo: number;
    total: number;
    desglose: DesgloseIva[];
    sustituye: number | null;
  },
): Promise<number> {
  const serie =
    f.serieId ??
    (await trx.selectFrom('series').select('id').where('tipo', '=', 'normal').where('activo', '=', 1).orderBy('codigo').limit(1).executeTakeFirst())?.id;
  if (!serie) throw fail(MESSAGES_TPV.serieNormalRequerida, '1', 400);
  const hoy = todayIn(app.timeZone);
  const { id } = await trx
    .insertInto('documentos')
    .values({
      tipo: FACTURA.tipo, serie_id: serie, numero: null, ejercicio: Number(hoy.slice(0, 4)), fecha: hoy, estado: FACTURA.inicial, creado: nowIso(), creado_por: user.id,
      almacen_id: f.almacenId, almacen_destino_id: null, familia_id: null, ubicacion_id: null, proveedor_id: null, cliente_id: f.clienteId, forma_pago: 'contado',
      fecha_entrega: null, retencion: 0, con_recargo: f.conRecargo ? 1 : 0, observaciones: null, base: f.base, iva: f.iva, recargo: f.recargo, retencion_importe: 0,
      total: f.total, desglose: JSON.stringify(f.desglose), clave: null, modificado: null, modificado_por: null, factura_id: f.sustituye,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * facturarticket: a full invoice (F3) replacing a ticket, for a customer who asks for one — the factura engine's
 * emitir with the ticket as the invoice it replaces (FacturasSustituidas), its lines and totals as the ticket's, no
 * stock moved again (the ticket did), paid at the counter (forma «Contado»: the engine records its cobro on issue).
 * The ticket stays issued, marked Facturado.
 */
export async function facturarTicket(app: AppContext, user: SessionUser, ticketId: number, clienteId: number, serieId: number | null): Promise<Documento> {
  const id = await app.db.transaction().execute(async (trx) => {
    const ticket = await trx
      .selectFrom('documentos')
      .select(['id', 'tipo', 'estado', 'almacen_id', 'base', 'iva', 'total', 'desglose'])
      .where('id', '=', ticketId)
      .$if(app.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!ticket) throw fail(MESSAGES.notFound, '3');
    if (ticket.tipo !== TICKET.tipo) throw fail(MESSAGES_TPV.noEsTicket, '1', 400);
    if (ticket.estado === 'facturado') throw fail(MESSAGES_TPV.ticketYaFacturado, '1', 400);
    if (ticket.estado !== 'emitido') throw fail(MESSAGES_TPV.ticketNoFacturable, '1', 400);
    const cliente = await trx.selectFrom('clientes').select(['id', 'recargo']).where('id', '=', clienteId).executeTakeFirst();
    if (!cliente) throw fail(MESSAGES.notFound, '3');
    // A customer in recargo de equivalencia (a retailer): the full invoice charges it on the ticket's bases, by rate
    // (art. 154-163 LIVA; the ticket, a simplified invoice, could not) — the customer pays it with the invoice.
    const conRecargo = Number(cliente.recargo) === 1;
    const desglose = recargoDe(JSON.parse(ticket.desglose ?? '[]') as DesgloseIva[], conRecargo);
    const recargo = desglose.reduce((a, p) => a + p.recargo, 0);
    const docId = await facturaDelTpv(trx, app, user, {
      serieId, almacenId: ticket.almacen_id, clienteId, conRecargo, base: ticket.base, iva: ticket.iva, recargo, total: Number(ticket.total) + recargo, desglose,
      sustituye: ticket.id,
    });
    const now = nowIso();
    // The ticket's lines, each with its article's description (the till printed its short TPV name).
    const lineas = await trx
      .selectFrom('documento_lineas as l')
      .leftJoin('articulos as a', 'a.id', 'l.articulo_id')
      .select(['l.articulo_id', 'l.codigo', 'l.tipo_iva', 'l.cantidad', 'l.precio', 'l.descuento', 'l.ubicacion_id', 'l.precio_iva'])
      .select(sql<string>`coalesce(nullif(trim(a.descripcion), ''), l.descripcion)`.as('descripcion'))
      .where('l.documento_id', '=', ticket.id)
      .orderBy('l.orden')
      .execute();
    await insertarFilas(
      trx,
      'documento_lineas',
      COLUMNAS_LINEA,
      lineas.map((l, i) => [docId, i + 1, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precio, l.descuento, 0, null, l.ubicacion_id, null, null, l.precio_iva]),
    );
    // The engine's emission of a factura: number, the F3 record naming the ticket; no stock (TODAS_CON_ORIGEN: the ticket moved it).
    await ejecutarAccionEn(trx, app, FACTURA, facturaEffects as unknown as TipoEffects, EMITIR_FACTURA, docId, null, user, {
      [TODAS_CON_ORIGEN]: true,
    } as unknown as Record<string, unknown>);
    await trx.updateTable('documentos').set({ estado: 'facturado', modificado: now, modificado_por: user.id }).where('id', '=', ticket.id).execute();
    return docId;
  });
  const doc = (await readDocumento(app.db, FACTURA, id))!;
  await alLeerTpv(app.db, doc);
  return doc;
}

/**
 * facturarventatpv (issue 23): a sale over the simplified invoice's limit, issued at the till as a full invoice (F1)
 * instead of a ticket — online only (the record is the back office's, in its chain). In one transaction: the lines
 * priced as at the till (prices with IVA, the articles' descriptions), the customer's recargo de equivalencia, the
 * payments covering the total (only cash beyond it: the change), the factura engine's emitir in the first active
 * normal serie (number, the stock out of the terminal's warehouse, the F1 record naming the customer, its cobro:
 * «Contado»), and the till's row (`tpv_tickets.tipo` 'factura') with its payments in the open caja, so the Z counts
 * it. Its `uuid` makes a repeated request answer the same invoice.
 */
export async function facturarVentaTpv(app: AppContext, user: SessionUser, terminalId: number, clienteId: number, raw: Record<string, unknown>): Promise<Documento & { uuid: string; cambio: number }> {
  const fechaHora = typeof raw.fecha_hora === 'string' && Number.isFinite(Date.parse(raw.fecha_hora)) ? raw.fecha_hora : nowIso();
  const [tk] = leerTickets([{ uuid: raw.uuid, fecha_hora: fechaHora, lineas: raw.lineas, pagos: raw.pagos }]);
  let cambio = 0;
  const una = () =>
    app.db.transaction().execute(async (trx) => {
      if (app.dialect === 'postgres') await sql`select id from tpv_terminales where id = ${terminalId} for update`.execute(trx);
      const terminal = await terminalActivo(trx, terminalId);
      const previo = await trx.selectFrom('tpv_tickets').select(['documento_id', 'cambio', 'tipo']).where('uuid', '=', tk.uuid).executeTakeFirst();
      if (previo) {
        if (previo.tipo !== 'factura') throw fail(t(MESSAGES_TPV.ticketUuidRepetido, { uuid: tk.uuid }), '1', 400);
        cambio = Number(previo.cambio);
        return previo.documento_id;
      }
      const caja = await cajaAbierta(trx, terminal.id);
      if (!caja) throw fail(MESSAGES_TPV.cajaNoAbierta, '1', 400);
      const cliente = await trx.selectFrom('clientes').select(['id', 'recargo', 'nif', 'activo']).where('id', '=', clienteId).executeTakeFirst();
      if (cliente?.activo !== 1) throw fail(MESSAGES_TPV.facturaVentaSinCliente, '1', 400);
      if (!isValidNif(normalizeNif(cliente.nif ?? ''))) throw fail(MESSAGES_TPV.facturaVentaClienteSinNif, '1', 400);
      const ids = [...new Set(tk.lineas.map((l) => l.articulo_id))];
      const arts = new Map(
        (await trx.selectFrom('articulos').select(['id', 'codigo', 'descripcion', 'tipo_iva', 'activo', 'unidad_medida']).where('id', 'in', ids).execute()).map((a) => [a.id, a]),
      );
      const lineas = tk.lineas.map((l, i) => {
        const a = arts.get(l.articulo_id);
        if (a?.activo !== 1) throw fail(t(MESSAGES_TPV.ticketLinea, { n: i + 1, motivo: MESSAGES_TPV.articuloNoExiste }), '1', 400);
        const fraccion = cantidadNoEntera(a.unidad_medida, l.cantidad, a.codigo);
        if (fraccion) throw fail(t(MESSAGES_TPV.ticketLinea, { n: i + 1, motivo: fraccion }), '1', 400);
        const tipo = a.tipo_iva as TipoIva;
        return { ...l, tipo_iva: tipo, codigo: a.codigo, descripcion: a.descripcion, precioNeto: precioSinIva(l.precio, tipo) };
      });
      const totales = totalesTicket(lineas);
      // A customer in recargo de equivalencia is charged it on the bases, rate by rate (as the F3).
      const conRecargo = Number(cliente.recargo) === 1;
      const desglose = recargoDe(totales.desglose, conRecargo);
      const recargo = desglose.reduce((s, p) => s + p.recargo, 0);
      const total = totales.total + recargo;
      // Issue 23: a vale pays at most what is owed and is spent here, in the invoice's transaction (as a ticket's).
      const pagosF1 = pagosConVales(total, tk.pagos);
      const reparto = repartirPagos(tk.uuid, total, pagosF1, formasDe(terminal.formas_pago));
      cambio = reparto.cambio;
      const docId = await facturaDelTpv(trx, app, user, {
        serieId: null, almacenId: terminal.almacen_id, clienteId: cliente.id, conRecargo, base: totales.base, iva: totales.iva, recargo, total, desglose, sustituye: null,
      });
      // The uuid first: the same request sent twice at once stops here (unique), before any number is taken.
      await trx
        .insertInto('tpv_tickets')
        .values({ documento_id: docId, uuid: tk.uuid, tipo: 'factura', terminal_id: terminal.id, caja_id: caja.id, ticket_id: null, fecha_hora: tk.fecha_hora, usuario_id: user.id, cambio, offline: 0 })
        .execute();
      await insertarFilas(
        trx,
        'documento_lineas',
        COLUMNAS_LINEA,
        lineas.map((l, i) => [docId, i + 1, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precioNeto, l.descuento, 0, null, null, null, null, l.precio]),
      );
      // The engine's emission of a factura: its number, the goods out of the terminal's warehouse, the F1 record.
      await ejecutarAccionEn(trx, app, FACTURA, facturaEffects as unknown as TipoEffects, EMITIR_FACTURA, docId, null, user);
      const saldos = new Map<number, { vale: string; saldo: number }>();
      for (const [i, p] of pagosF1.entries()) if (p.vale) saldos.set(i, { vale: p.vale, saldo: await gastarVale(trx, tk.uuid, p.vale, p.importe, docId, false) });
      await insertarFilas(
        trx,
        'tpv_pagos',
        ['documento_id', 'orden', 'forma', 'importe', 'entregado', 'vale', 'vale_saldo'],
        reparto.filas.map((p, i) => [docId, i + 1, p.forma, p.importe, p.entregado, saldos.get(i)?.vale ?? null, saldos.get(i)?.saldo ?? null]),
      );
      return docId;
    });
  let id: number;
  try {
    id = await una();
  } catch (err) {
    if (!(err instanceof ActionError) && isUniqueViolation(err)) id = await una();
    else if (err instanceof ActionError && (err as { uuidRechazado?: string }).uuidRechazado) {
      // repartirPagos names the sale by its uuid: the cashier reads the reason alone.
      const m = String((err.body as { message?: string }).message ?? '').replace(`Ticket ${tk.uuid}: `, '');
      throw fail(m, '1', 400);
    } else throw err;
  }
  const doc = (await readDocumento(app.db, FACTURA, id))!;
  await alLeerTpv(app.db, doc);
  return Object.assign(doc, { uuid: tk.uuid, cambio });
}
