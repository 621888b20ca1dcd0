import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import {
  DOCUMENTO_TIPOS,
  FORMAS_PAGO,
  FORMA_PAGO_IDS,
  LIMITE_SIMPLIFICADA,
  LIMITE_SIMPLIFICADA_MINORISTA,
  MESSAGES,
  MODOS_RECTIFICACION,
  TIPOS_FACTURA,
  TOASTS,
  bloqueEmpresa,
  bloqueTercero,
  datosParte,
  idRegistro,
  impuestoDe,
  isValidNif,
  normalizeNif,
  numeroDe,
} from 'shared/domain';
import type { BloqueParte, DatosParte, DesgloseIva, Documento, EmisionDocumento, FieldErrors, Impuesto, Schema, TipoFactura } from 'shared/domain';
import { DESCRIPCION_DEVOLUCION_SIN_TICKET } from 'shared/fiscal';
import { fail } from '../errors.ts';
import { compiledQuery } from '../db/prepared.ts';
import type { Database, SerieRow } from '../db/schema.ts';
import { altaEnAeat, nifDeCadena, numeroInstalacion, registrarAlta, registrarAnulacion } from '../fiscal/registro.ts';
import type { DatosAlta } from '../fiscal/registro.ts';
import { ultimaSinDeshacer } from './acciones.ts';
import { cobrarAlEmitir, cuentaParaLeer, recalcularCuenta } from './cobros.ts';
import { nowIso } from '../context.ts';
import { almacenActivo } from './almacen.ts';
import { numeroEnSerie } from './numeracion.ts';
import { serieDeTerminal } from './validacion.ts';
import { registrarTipo } from './tipos.ts';
import type { EffectContext, EffectResult, LineaValida, TipoEffects } from './tipos.ts';
import { actualizarEstadoPadres, borrarEnlaces } from './enlaces.ts';
import { DIRECTAS, filasStockVenta, moverStockVenta, reverseMovimientos, writeMovimientos } from './movimientos.ts';
import type { FilaMovimiento } from './movimientos.ts';

/**
 * Facturas and rectificativas (issue 8; docs/fiscal.md) on the engine. A draft (Borrador) has no number; `emitir`
 * checks it can be issued (serie of the right kind, a date not before the serie's last nor after today, lines, the
 * simplified invoice's limit, the company's NIF, the customer's NIF for a full invoice), takes the next number of
 * its serie and year, moves the stock of its direct-sale lines and writes its registro de alta (fiscal/registro.ts),
 * all in the action's one transaction. An issued invoice is immutable (the engine refuses editing and deleting it);
 * `anular` writes the registro de anulación and brings its direct-sale stock back; its number stays used.
 */

const FACTURA = DOCUMENTO_TIPOS.factura;
const RECTIFICATIVA = DOCUMENTO_TIPOS.rectificativa;

/** Header fields of editarfactura (lines travel apart, as `lineas`; negative quantities allowed: returned units). */
export const facturaSchema = {
  id: { type: 'int', min: 1 },
  fecha: { type: 'date', required: true },
  cliente_id: { type: 'int', required: true, min: 1 },
  almacen_id: { type: 'int', required: true, min: 1 },
  serie_id: { type: 'int', min: 1 },
  forma_pago: { type: 'enum', values: FORMA_PAGO_IDS },
  retencion: { type: 'int', min: 0, max: 5000 },
  observaciones: { type: 'string', max: 2000 },
  observaciones_cliente: { type: 'string', max: 2000 },
  clave: { type: 'string', max: 64 },
} satisfies Schema;

/** editarrectificativa: + the invoice it corrects, its kind (R1-R5) and how (by differences or by substitution). */
export const rectificativaSchema = {
  ...facturaSchema,
  // Absent: the corrected invoice's (rectificativaEffects.completar).
  cliente_id: { type: 'int', min: 1 },
  almacen_id: { type: 'int', min: 1 },
  factura_id: { type: 'int', min: 1 },
  tipo: { type: 'enum', values: TIPOS_FACTURA.filter((t) => t.startsWith('R')) },
  modo: { type: 'enum', values: MODOS_RECTIFICACION },
  // Issue 16: further invoices of the customer it corrects (a rappel over a period): their ids, comma-separated.
  facturas_rectificadas: { type: 'string', max: 2000 },
} satisfies Schema;

/** The further invoices a rectificativa corrects (documentos.facturas_rectificadas: a JSON array of ids). */
export function idsRectificadas(json: string | null | undefined): number[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x) && x > 0) : [];
  } catch {
    return [];
  }
}

/** Columns of both; `con_recargo` is the customer's (the engine sets it with the party). */
const COLUMNAS = ['cliente_id', 'almacen_id', 'serie_id', 'forma_pago', 'retencion', 'observaciones', 'observaciones_cliente', 'con_recargo'] as const;

type Origen = { linea_id: number; tipo: string; documento_id: number };

/** The document type and id of each origin line the lines name (one query per 500). */
async function origenesDe(trx: Transaction<Database>, lineas: readonly LineaValida[]): Promise<Map<number, Origen>> {
  const ids = [...new Set(lineas.map((l) => l.origen_linea_id).filter((id): id is number => id !== null))];
  const out = new Map<number, Origen>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom('documento_lineas as l')
      .innerJoin('documentos as d', 'd.id', 'l.documento_id')
      .select(['l.id as linea_id', 'd.tipo', 'd.id as documento_id'])
      .where('l.id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.linea_id, r);
  }
  return out;
}

/** Units a devolución gave back travel as negative lines; those of an albarán or a parte as positive ones. */
function signos(lineas: readonly LineaValida[], origenes: Map<number, Origen>, errors: FieldErrors): void {
  lineas.forEach((l, i) => {
    const o = l.origen_linea_id !== null ? origenes.get(l.origen_linea_id) : undefined;
    if (o?.tipo === 'devolucionventa' && l.cantidad > 0) errors[`lineas.${i}.cantidad`] ??= MESSAGES.devueltoEnNegativo;
    if ((o?.tipo === 'albaranventa' || o?.tipo === 'parte') && l.cantidad < 0) errors[`lineas.${i}.cantidad`] ??= MESSAGES.cantidadMayorQueCero;
  });
}

/** A factura or rectificativa by id (a rectificativa's `factura_id`), whatever its state or customer. */
async function facturaDe(db: Kysely<Database>, id: unknown) {
  if (typeof id !== 'number') return undefined;
  return db
    .selectFrom('documentos')
    .select(['id', 'tipo', 'estado', 'cliente_id', 'tipo_factura', 'fecha', 'ejercicio', 'numero', 'serie_id', 'base', 'iva', 'recargo', 'total', 'almacen_id'])
    .where('id', '=', id)
    .where('tipo', 'in', [FACTURA.tipo, RECTIFICATIVA.tipo, DOCUMENTO_TIPOS.ticket.tipo])
    .executeTakeFirst();
}

/** Issued: an invoice 'emitida'; a TPV ticket once issued (Emitido, or partly / wholly returned by R5s). */
const TICKET_EMITIDO = ['emitido', 'devuelto_parcial', 'devuelto'];
const emitida = (f: { tipo: string; estado: string }) => (f.tipo === DOCUMENTO_TIPOS.ticket.tipo ? TICKET_EMITIDO.includes(f.estado) : f.estado === 'emitida');

/** The invoice a rectificativa may correct: an issued factura, rectificativa or TPV ticket (R5) of the same customer. */
async function facturaRectificable(db: Kysely<Database>, id: unknown, clienteId: unknown) {
  const f = await facturaDe(db, id);
  return f && emitida(f) && f.cliente_id === clienteId ? f : undefined;
}

/** R5 corrects a simplified invoice (F2, or an R5); R1-R4 a full one (F1, R1-R4). */
const tipoCasa = (tipo: TipoFactura, corregida: string | null | undefined) => (tipo === 'R5') === (corregida === 'F2' || corregida === 'R5');

const base = (schema: typeof facturaSchema | typeof rectificativaSchema, columns: readonly string[]): TipoEffects<typeof facturaSchema> => ({
  // The rectificativa's own fields travel in the request as well (its effects are cast to its schema).
  schema: schema as typeof facturaSchema,
  headerColumns: columns,
  precioPorDefecto: 'venta',
  almacenLineas: (h) => h.almacen_id,
  acciones: {},
});

// Emission ------------------------------------------------------------------------------------------------------

type Cabecera = {
  id: number;
  fecha: string;
  ejercicio: number;
  serie_id: number | null;
  cliente_id: number | null;
  almacen_id: number | null;
  base: number;
  iva: number;
  recargo: number;
  total: number;
  desglose: string | null;
  con_recargo: number;
  observaciones: string | null;
  tipo_factura: string | null;
  factura_id: number | null;
  modo_rectificacion: string | null;
};

/** The invoice's header, with its customer's NIF and name and whether it has lines (one compiled statement). */
const leerCabecera = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('documentos as d')
    .select([
      'd.id', 'd.fecha', 'd.ejercicio', 'd.serie_id', 'd.cliente_id', 'd.almacen_id', 'd.base', 'd.iva', 'd.recargo', 'd.total', 'd.desglose', 'd.con_recargo',
      'd.observaciones', 'd.tipo_factura', 'd.factura_id', 'd.modo_rectificacion',
      sql<string | null>`(select c.nif from clientes c where c.id = d.cliente_id)`.as('cliente_nif'),
      sql<string | null>`(select c.razon_social from clientes c where c.id = d.cliente_id)`.as('cliente_razon_social'),
      sql<string | null>`(select c.pais from clientes c where c.id = d.cliente_id)`.as('cliente_pais'),
      sql<string | null>`(select c.tipo_id from clientes c where c.id = d.cliente_id)`.as('cliente_tipo_id'),
      sql<string | null>`(select c.direccion from clientes c where c.id = d.cliente_id)`.as('cliente_direccion'),
      sql<number>`case when exists (select 1 from documento_lineas l where l.documento_id = d.id) then 1 else 0 end`.as('con_lineas'),
    ])
    .where('d.id', '=', p.id),
);

const cabecera = async (trx: Transaction<Database>, id: number) => {
  const [d] = await leerCabecera(trx, { id });
  // The engine locked it just before.
  if (!d) throw fail(MESSAGES.notFound, '3');
  return d as Cabecera & { cliente_nif: string | null; cliente_razon_social: string | null; cliente_pais: string | null; cliente_tipo_id: string | null; cliente_direccion: string | null; con_lineas: number };
};

type Emisor = { nif: string; nombre: string; minorista: boolean; instalacion: string; bloque: BloqueParte; datos: DatosParte; impuesto: Impuesto };
type Serie = Pick<SerieRow, 'codigo' | 'tipo' | 'activo'>;

/**
 * What every emission of one transaction reads alike (hfa issues hundreds in one): the company and the series,
 * read once per transaction.
 */
const LEIDO = new WeakMap<Transaction<Database>, { emisor?: Emisor; series: Map<number, Serie | undefined> }>();
const leido = (trx: Transaction<Database>) => {
  let l = LEIDO.get(trx);
  if (!l) {
    l = { series: new Map() };
    LEIDO.set(trx, l);
  }
  return l;
};

/** The company (the issuer): its first configuration record. */
async function empresa(trx: Transaction<Database>): Promise<Emisor> {
  const cache = leido(trx);
  if (cache.emisor) return cache.emisor;
  const [c] = await leerEmpresa(trx, {});
  const nif = normalizeNif(c?.nif ?? '');
  if (!c || !isValidNif(nif) || nif.length !== 9) throw fail(MESSAGES.empresaSinNif, '1', 400);
  cache.emisor = {
    // NumeroInstalacion: the installation's, generated once and kept (issue 16; FAQ 4).
    nif, nombre: c.razon_social.trim() || nif, minorista: Number(c.minorista ?? 0) === 1, instalacion: await numeroInstalacion(trx), impuesto: c.impuesto ?? 'iva',
    bloque: bloqueEmpresa({ ...c, nif }),
    datos: datosParte({
      razon_social: c.razon_social, nombre_comercial: c.nombre_comercial, nif, pais: 'ES', tipo_id: null, direccion: c.direccion, codigo_postal: c.codigo_postal,
      poblacion: c.poblacion, provincia: c.provincia, telefono: c.telefono, email: c.email,
    }),
  };
  return cache.emisor;
}

const leerEmpresa = compiledQuery((db, _p: Record<string, never>) =>
  db
    .selectFrom('configuracion')
    .select(['id', 'razon_social', 'nombre_comercial', 'nif', 'minorista', 'impuesto', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email'])
    .orderBy('id')
    .limit(1),
);

const leerSerie = compiledQuery((db, p: { id: number }) => db.selectFrom('series').select(['codigo', 'tipo', 'activo']).where('id', '=', p.id));

async function serieDe(trx: Transaction<Database>, id: number): Promise<Serie | undefined> {
  const cache = leido(trx).series;
  if (!cache.has(id)) cache.set(id, (await leerSerie(trx, { id }))[0]);
  return cache.get(id);
}

/**
 * Issue 23: the TPV terminal whose serie `serieId` is, unless this document is that terminal's (a return the till
 * made: its tpv_tickets row names the terminal). A back-office invoice there is refused: a till's numbers are its own.
 */
const terminalAjeno = compiledQuery((db, p: { serie: number; doc: number }) =>
  db
    .selectFrom('tpv_terminales as t')
    .select('t.nombre')
    .where((eb) => eb.or([eb('t.serie_id', '=', p.serie), eb('t.serie_rectificativa_id', '=', p.serie)]))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('tpv_tickets as tt').select('tt.documento_id').where('tt.documento_id', '=', p.doc).whereRef('tt.terminal_id', '=', 't.id'))))
    .limit(1),
);

/**
 * A marker an internal caller sets in an emission's `raw` (never in a request's JSON): every line of the invoice
 * comes from a document (hfa), so none is a direct sale whose stock the emission moves — no need to look.
 */
export const TODAS_CON_ORIGEN = Symbol('todas las líneas con origen');

/** The registro de alta an invoice named (the latest one of its own): issuer, NumSerieFactura and date. */
async function altaDe(trx: Transaction<Database>, documentoId: number) {
  return trx
    .selectFrom('registros_facturacion')
    .select(['emisor', 'num_serie', 'fecha_expedicion'])
    .where('documento_id', '=', documentoId)
    .where('tipo', '=', 'alta')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Lines of a document not tied to devolución lines (a rectificativa's that move stock). */
async function lineasSegunOrigen(trx: Transaction<Database>, docId: number) {
  const rows = await trx
    .selectFrom('documento_lineas as l')
    .leftJoin('documento_enlaces as e', 'e.linea_id', 'l.id')
    .leftJoin('documento_lineas as pl', 'pl.id', 'e.padre_linea_id')
    .leftJoin('documentos as pd', 'pd.id', 'pl.documento_id')
    .select(['l.id', 'pd.tipo as padre_tipo'])
    .where('l.documento_id', '=', docId)
    .execute();
  return { noDevueltas: rows.filter((r) => r.padre_tipo !== 'devolucionventa').map((r) => r.id) };
}

/**
 * A rectificativa's goods: by differences, each line not from a devolución moves −cantidad (a negative line
 * brings the units back; a devolución's already did); by substitution, per article and price, what the corrected lines
 * ask less what the replaced invoice's lines asked (kits as their components, services not at all).
 */
async function stockRectificativa(ctx: EffectContext, d: Cabecera): Promise<void> {
  const { trx } = ctx;
  const { noDevueltas } = await lineasSegunOrigen(trx, d.id);
  const almacenId = d.almacen_id!;
  if (d.modo_rectificacion !== 'sustitucion') {
    if (noDevueltas.length) await moverStockVenta(trx, { tipo: RECTIFICATIVA.tipo, id: d.id, almacenId }, { signo: -1, causa: 'rectificativa' }, ctx.accionId, ctx.hoy, noDevueltas);
    return;
  }
  const nuevas = noDevueltas.length ? await filasStockVenta(trx, d.id, -1, noDevueltas) : [];
  const antes = await filasStockVenta(trx, d.factura_id!, 1);
  // Per (article, location, price): the difference — units at an unchanged price net out; a price correction leaves
  // the replaced units in at their old price and the new ones out at theirs, so the average sale price follows it.
  const grupos = new Map<string, FilaMovimiento>();
  for (const [filas, propias] of [[nuevas, true], [antes, false]] as const) {
    for (const f of filas) {
      const k = `${f.articulo_id}|${f.ubicacion_id ?? ''}|${f.precio}`;
      const g = grupos.get(k) ?? {
        articulo_id: f.articulo_id, almacen_id: almacenId, ubicacion_id: f.ubicacion_id, cantidad: 0, causa: 'rectificativa', documento_tipo: RECTIFICATIVA.tipo,
        documento_id: d.id, documento_linea_id: propias ? f.linea_id : null, accion_id: ctx.accionId, fecha: ctx.hoy, precio: f.precio,
      };
      g.cantidad += f.cantidad;
      grupos.set(k, g);
    }
  }
  await writeMovimientos(trx, [...grupos.values()]);
}

async function emitir(ctx: EffectContext): Promise<EffectResult> {
  const { trx, def } = ctx;
  const d = await cabecera(trx, ctx.doc.id);
  const rectificativa = def.tipo === RECTIFICATIVA.tipo;
  if (d.serie_id === null) throw fail(MESSAGES.serieRequerida, '1', 400);
  const serie = await serieDe(trx, d.serie_id);
  if (serie?.activo !== 1 || !def.series!.includes(serie.tipo)) {
    throw fail(rectificativa && serie ? MESSAGES.serieRectificativaRequerida : MESSAGES.serieNoValida, '1', 400);
  }
  // NumSerieFactura: printable ASCII only (the AEAT's validation of IDFactura).
  if (!/^[\x20-\x7e]+$/.test(serie.codigo)) throw fail(MESSAGES.serieCodigoNoAscii, '1', 400);
  const ajeno = (await terminalAjeno(trx, { serie: d.serie_id, doc: d.id }))[0];
  if (ajeno) throw fail(serieDeTerminal(serie.codigo, ajeno.nombre), '1', 400);
  if (!Number(d.con_lineas)) throw fail(MESSAGES.facturaSinLineas, '1', 400);
  if (d.fecha > ctx.hoy) throw fail(MESSAGES.fechaFacturaFutura, '1', 400);
  // Validaciones 3.1.3.1: the AEAT refuses a FechaExpedicionFactura before the order came into force.
  if (d.fecha < FECHA_MINIMA_FACTURA) throw fail(MESSAGES.fechaFacturaAnteriorVerifactu, '1', 400);

  const emisor = await empresa(trx);
  const cliente = { nif: d.cliente_nif, razon_social: d.cliente_razon_social ?? '' };
  let tipoFactura: TipoFactura = serie.tipo === 'simplificada' ? 'F2' : 'F1';
  // A full invoice replacing a TPV ticket (facturarticket): F3, naming the ticket it replaces.
  const sustituida = !rectificativa && d.factura_id !== null ? await facturaDe(trx, d.factura_id) : undefined;
  if (sustituida?.tipo === DOCUMENTO_TIPOS.ticket.tipo) {
    if (serie.tipo !== 'normal') throw fail(MESSAGES.serieNoValida, '1', 400);
    tipoFactura = 'F3';
  }
  let corregida: Awaited<ReturnType<typeof facturaRectificable>>;
  // An R5 the TPV till makes without a ticket (issue 23, tpv/devoluciones.ts): it corrects no invoice of ours.
  const sinFactura = rectificativa && d.factura_id === null && d.tipo_factura === 'R5' && !!(ctx.raw as Record<symbol, unknown>)[SIN_FACTURA];
  if (sinFactura) tipoFactura = 'R5';
  else if (rectificativa) {
    corregida = await facturaRectificable(trx, d.factura_id, d.cliente_id);
    if (!corregida) throw fail(MESSAGES.facturaARectificarNoValida, '1', 400);
    tipoFactura = d.tipo_factura as TipoFactura;
    if (!tipoCasa(tipoFactura, corregida.tipo_factura)) throw fail(MESSAGES.tipoRectificativaNoValido, '1', 400);
  }
  const cuotaTotal = Number(d.iva) + Number(d.recargo);
  const importeTotal = Number(d.base) + cuotaTotal;
  if (tipoFactura === 'F2') {
    const limite = emisor.minorista ? LIMITE_SIMPLIFICADA_MINORISTA : LIMITE_SIMPLIFICADA;
    if (importeTotal > limite) throw fail(emisor.minorista ? MESSAGES.simplificadaSuperaLimiteMinorista : MESSAGES.simplificadaSuperaLimite, '1', 400);
  }
  if (!rectificativa && importeTotal < 0) throw fail(MESSAGES.facturaTotalNegativo, '1', 400);
  const desglose = (d.desglose ? JSON.parse(d.desglose) : []) as DesgloseIva[];
  // Validaciones 15.4: the reverse charge (S2) only on a full invoice (F1, F3, R1-R4).
  if ((tipoFactura === 'F2' || tipoFactura === 'R5') && desglose.some((g) => g.operacion === 'S2')) throw fail(MESSAGES.operacionS2Simplificada, '1', 400);
  // The recipient as the record names it: a Spanish NIF, or IDOtro (country, IDType, identifier) for anyone else.
  const idCliente = idRegistro({ nif: cliente.nif ?? '', pais: d.cliente_pais, tipo_id: d.cliente_tipo_id });
  const nifCliente = 'nif' in idCliente ? idCliente.nif : '';
  const identificado = 'nif' in idCliente ? isValidNif(nifCliente) && nifCliente.length === 9 : !!idCliente.idOtro.id;
  // A «cualificada» simplified invoice (RD 1619/2012 art. 7.2; Validaciones 8 and 13): an F2 that carries the
  // recipient's identifier and address is recorded as F1 with FacturaSimplificadaArt7273 = S and its Destinatarios.
  const cualificada = tipoFactura === 'F2' && identificado && !!d.cliente_direccion?.trim();
  if (cualificada) tipoFactura = 'F1';
  const conDestinatario = tipoFactura !== 'F2' && tipoFactura !== 'R5';
  if (conDestinatario && !identificado) throw fail(MESSAGES.clienteSinNif, '1', 400);

  // Issue 22: the record says what the invoice prints — a text longer than the record admits is refused, never cut.
  const largo = (v: string | null | undefined) => [...(v ?? '').trim()].length;
  if (largo(d.observaciones) > 500) throw fail(MESSAGES.descripcionOperacionLarga.replace('{largo}', String(largo(d.observaciones))), '1', 400);
  if (largo(emisor.nombre) > 120) throw fail(MESSAGES.nombreRegistroLargo.replace('{quien}', 'de la empresa').replace('{largo}', String(largo(emisor.nombre))), '1', 400);
  if (conDestinatario && largo(cliente.razon_social) > 120) {
    throw fail(MESSAGES.nombreRegistroLargo.replace('{quien}', 'del cliente').replace('{largo}', String(largo(cliente.razon_social))), '1', 400);
  }

  const numero = await numeroEnSerie(trx, def.tipo, d.serie_id, d.fecha);
  const numSerie = numeroDe(def, { ejercicio: Number(d.fecha.slice(0, 4)), numero, serie_codigo: serie.codigo });

  // Goods: an invoice's direct-sale lines leave now (those from albaranes or partes already did); a rectificativa's as above.
  if (rectificativa) await stockRectificativa(ctx, d);
  else {
    if (!(ctx.raw as Record<symbol, unknown>)[TODAS_CON_ORIGEN]) {
      await moverStockVenta(trx, { tipo: def.tipo, id: d.id, almacenId: d.almacen_id! }, { signo: -1, causa: 'venta' }, ctx.accionId, ctx.hoy, DIRECTAS);
    }
  }

  const datos: DatosAlta = {
    emisor,
    numSerie,
    fecha: d.fecha,
    tipoFactura,
    descripcion: d.observaciones?.trim() || (rectificativa ? 'Rectificación de factura' : 'Venta de bienes y prestación de servicios'),
    destinatario: conDestinatario ? { nif: nifCliente, nombre: cliente.razon_social, ...('idOtro' in idCliente ? { idOtro: idCliente.idOtro } : {}) } : null,
    desglose,
    conRecargo: d.con_recargo === 1,
    // Issue 16: the lines' types name the tax (IGIC, IPSI); an all-exempt invoice takes the company's.
    impuesto: impuestoDe(desglose, emisor.impuesto),
    ...(cualificada ? { simplificadaCualificada: true } : {}),
    cuotaTotal,
    importeTotal,
  };
  if (tipoFactura === 'F3' && sustituida) {
    const alta = await altaDe(trx, sustituida.id);
    if (!alta) throw fail(TOASTS.error.text, '2');
    const [dia, mes, anio] = alta.fecha_expedicion.split('-');
    datos.sustituidas = [{ nif: nifDeCadena(alta.emisor), numSerie: alta.num_serie, fecha: `${anio}-${mes}-${dia}` }];
    if (!d.observaciones?.trim()) datos.descripcion = `Factura en sustitución del ticket ${alta.num_serie}`;
  }
  if (rectificativa && corregida) {
    const alta = await altaDe(trx, corregida.id);
    const numCorregida = numeroDe(DOCUMENTO_TIPOS[corregida.tipo as 'factura'], { ...corregida, serie_codigo: await codigoSerie(trx, corregida.serie_id) });
    if (!d.observaciones?.trim()) datos.descripcion = `Rectificación de la factura ${alta?.num_serie ?? numCorregida}`;
    datos.rectificativa = {
      tipo: d.modo_rectificacion === 'sustitucion' ? 'S' : 'I',
      facturas: [{ nif: alta ? nifDeCadena(alta.emisor) : emisor.nif, numSerie: alta?.num_serie ?? numCorregida, fecha: corregida.fecha }],
      importe: { base: Number(corregida.base), cuota: Number(corregida.iva), recargo: Number(corregida.recargo) },
    };
    // Issue 16: the further invoices it corrects (a rappel), each as its registro de alta named it.
    const extra = await trx.selectFrom('documentos').select('facturas_rectificadas').where('id', '=', d.id).executeTakeFirst();
    const otras = idsRectificadas(extra?.facturas_rectificadas);
    if (otras.length && d.modo_rectificacion === 'sustitucion') throw fail(MESSAGES.variasFacturasSoloDiferencias, '1', 400);
    for (const x of otras) {
      const f = await facturaRectificable(trx, x, d.cliente_id);
      if (!f || !tipoCasa(tipoFactura, f.tipo_factura)) throw fail(MESSAGES.facturasRectificadasNoValidas, '1', 400);
      const a = await altaDe(trx, f.id);
      const num = a?.num_serie ?? numeroDe(DOCUMENTO_TIPOS[f.tipo as 'factura'], { ...f, serie_codigo: await codigoSerie(trx, f.serie_id) });
      datos.rectificativa.facturas.push({ nif: a ? nifDeCadena(a.emisor) : emisor.nif, numSerie: num, fecha: f.fecha });
    }
    if (otras.length && !d.observaciones?.trim()) datos.descripcion = `Rectificación de las facturas ${datos.rectificativa.facturas.map((x) => x.numSerie).join(', ')}`.slice(0, 500);
  }
  if (sinFactura) {
    datos.rectificativa = { tipo: 'I', facturas: [] };
    if (!d.observaciones?.trim()) datos.descripcion = DESCRIPCION_DEVOLUCION_SIN_TICKET;
  }
  // Issued means fixed: the serie's code, both parties as printed and the operation's date stay with the invoice.
  // An F3 of a ticket sold on an earlier day: the operation is the ticket's (issue 23).
  const fechaOperacion =
    tipoFactura === 'F3' && sustituida && sustituida.fecha < d.fecha ? sustituida.fecha : await fechaOperacionDe(trx, d.id, d.fecha);
  if (fechaOperacion) datos.fechaOperacion = fechaOperacion;
  const receptor = d.cliente_id === null ? null : await parteCliente(trx, d.cliente_id);
  // Issue 22: what the invoice prints is what its record says. An F2 or R5 record carries no recipient (Validaciones
  // §13), so the printed invoice does not name the customer's NIF either (its name and address may stay); an F2 with the
  // customer's NIF and address is recorded as F1 «cualificada» with its Destinatarios and prints it.
  const sinDestinatario = tipoFactura === 'F2' || tipoFactura === 'R5';
  const emision: EmisionDocumento = {
    emisor: emisor.bloque,
    destinatario: receptor
      ? sinDestinatario
        ? bloqueTercero({ ...receptor.datos, razon_social: receptor.datos.nombre, nif: null, tipo_id: null })
        : receptor.bloque
      : null,
    partes: { emisor: emisor.datos, destinatario: receptor?.datos ?? null },
  };
  await trx
    .updateTable('documentos')
    .set({ serie_codigo: serie.codigo, emision: JSON.stringify(emision), fecha_operacion: fechaOperacion })
    .where('id', '=', d.id)
    .execute();
  // A return the TPV till made offline (devolverticket with its record): verified on the terminal's chain, not made here.
  const offline = (ctx.raw as Record<symbol, unknown>)[REGISTRO_OFFLINE] as ((datos: DatosAlta) => Promise<void>) | undefined;
  if (offline) await offline(datos);
  else await registrarAlta({ trx, timeZone: ctx.timeZone, documentoId: d.id, instalacion: emisor.instalacion }, datos);
  // Its number, year and kind are written with its new state.
  return { numero: { numero, ejercicio: Number(d.fecha.slice(0, 4)), tipo_factura: tipoFactura } };
}

/** raw's key (a symbol, never in a request's JSON) of the hook that records an R5 the TPV till made offline (tpv/tickets.ts). */
export const REGISTRO_OFFLINE = Symbol('registroOffline');

/** raw's key (a symbol) that lets a TPV return without a ticket (R5, no factura_id) be issued: tpv/devoluciones.ts only. */
export const SIN_FACTURA = Symbol('sinFactura');

/** The first FechaExpedicionFactura the AEAT admits (Validaciones 3.1.3.1: the order's entry into force). */
export const FECHA_MINIMA_FACTURA = '2024-10-28';

/** The customer's block as the invoice prints it, and its data (Facturae: address, DIR3 units), read at emission. */
async function parteCliente(trx: Transaction<Database>, id: number): Promise<{ bloque: BloqueParte; datos: DatosParte } | null> {
  const c = await trx
    .selectFrom('clientes')
    .select([
      'razon_social', 'nombre_comercial', 'nif', 'pais', 'tipo_id', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email',
      'administracion_publica', 'dir3_oficina_contable', 'dir3_organo_gestor', 'dir3_unidad_tramitadora', 'dir3_organo_proponente',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!c) return null;
  const { administracion_publica, ...resto } = c;
  return { bloque: bloqueTercero(c), datos: datosParte({ ...resto, administracion_publica: Number(administracion_publica ?? 0) === 1 ? 1 : 0 }) };
}

/**
 * The operation's date of an invoice of earlier deliveries (RD 1619/2012 art. 6.1.i; the record's FechaOperacion):
 * the latest date of the albaranes and partes its lines come from, when earlier than the invoice's; else null.
 */
async function fechaOperacionDe(trx: Transaction<Database>, id: number, fecha: string): Promise<string | null> {
  const { rows } = await sql<{ fecha: string | null }>`select max(pd.fecha) as fecha from documento_lineas l
    join documento_enlaces e on e.linea_id = l.id join documento_lineas pl on pl.id = e.padre_linea_id
    join documentos pd on pd.id = pl.documento_id
    where l.documento_id = ${id} and pd.tipo in ('albaranventa', 'parte')`.execute(trx);
  const f = rows[0]?.fecha ?? null;
  return f && f < fecha ? f : null;
}

const codigoSerie = async (trx: Transaction<Database>, id: number | null) =>
  id === null ? null : ((await trx.selectFrom('series').select('codigo').where('id', '=', id).executeTakeFirst())?.codigo ?? null);

/**
 * An invoice that should never have existed: its registro de anulación (in the chain of the issuer its registro de
 * alta named), the stock its emission moved back, and the documents it invoiced free again (invoiceable by a correct
 * one). Refused while a rectificativa or a devolución refers to it.
 */
async function anular(ctx: EffectContext): Promise<EffectResult> {
  const { trx } = ctx;
  const d = await cabecera(trx, ctx.doc.id);
  const rect = await trx
    .selectFrom('documentos')
    .select('id')
    .where('factura_id', '=', d.id)
    .where('tipo', '=', RECTIFICATIVA.tipo)
    .where('estado', '<>', 'anulada')
    .limit(1)
    .executeTakeFirst();
  const hijos = await sql<{ x: number }>`select 1 as x from documento_enlaces e join documento_lineas l on l.id = e.padre_linea_id
    join documento_lineas c on c.id = e.linea_id join documentos cd on cd.id = c.documento_id
    where l.documento_id = ${d.id} and cd.estado <> 'anulada' limit 1`.execute(trx);
  // Issue 16: or a rectificativa of several invoices names it among its others.
  const varias = rect
    ? []
    : await trx
        .selectFrom('documentos')
        .select('facturas_rectificadas')
        .where('tipo', '=', RECTIFICATIVA.tipo)
        .where('cliente_id', '=', d.cliente_id)
        .where('estado', '<>', 'anulada')
        .where('facturas_rectificadas', 'is not', null)
        .execute();
  const enOtra = varias.some((v) => idsRectificadas(v.facturas_rectificadas).includes(d.id));
  if (rect || enOtra || hijos.rows.length) throw fail(MESSAGES.facturaConRectificativas, '2');
  const alta = await altaDe(trx, d.id);
  if (!alta) throw fail(TOASTS.error.text, '2');
  const conf = await trx.selectFrom('configuracion').select(['id', 'razon_social', 'nif']).orderBy('id').limit(1).executeTakeFirst();
  const [dia, mes, anio] = alta.fecha_expedicion.split('-');
  // Validaciones §5.2: SinRegistroPrevio = S when the AEAT has no alta of it (every one sent was refused and none is
  // on its way); an alta still pending leaves before this anulación, in chain order.
  const aeat = await altaEnAeat(trx, alta);
  await registrarAnulacion(
    { trx, timeZone: ctx.timeZone, documentoId: d.id, instalacion: await numeroInstalacion(trx) },
    { nif: alta.emisor, nombre: normalizeNif(conf?.nif ?? '') === alta.emisor ? conf!.razon_social : alta.emisor },
    { nif: alta.emisor, numSerie: alta.num_serie, fecha: `${anio}-${mes}-${dia}` },
    { sinRegistroPrevio: !aeat.registrada && !aeat.pendiente },
  );
  // The stock its emission wrote comes back (the opposite rows, by this action).
  const emision = await ultimaSinDeshacer(trx, d.id, 'emitir');
  if (emision) await reverseMovimientos(trx, emision.id, ctx.accionId);
  await actualizarEstadoPadres(trx, await borrarEnlaces(trx, d.id));
  // An annulled F3 (issue 23): the ticket it replaced is the sale again — Emitido, in the books, returnable and
  // replaceable by a correct F3 (facturarticket only replaces an Emitido ticket, so that is what it was).
  if (ctx.def.tipo === FACTURA.tipo && d.factura_id !== null) {
    await trx
      .updateTable('documentos')
      .set({ estado: 'emitido', modificado: nowIso(), modificado_por: ctx.user.id })
      .where('id', '=', d.factura_id)
      .where('tipo', '=', DOCUMENTO_TIPOS.ticket.tipo)
      .where('estado', '=', 'facturado')
      .execute();
  }
  return {};
}

/** Issued: its account (with the rectificativas before it) counts it; at the counter, it is paid at once. */
const alEmitir: NonNullable<TipoEffects['despuesDe']>['emitir'] = async ({ trx, doc, user }) => {
  await cobrarAlEmitir(trx, doc, user.id, nowIso());
};

/** Annulled: its account no longer counts it. */
const alAnular: NonNullable<TipoEffects['despuesDe']>['anular'] = async ({ trx, doc }) => {
  await recalcularCuenta(trx, doc.id);
};

// Reading -------------------------------------------------------------------------------------------------------

const ultimoRegistro = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('registros_facturacion')
    .select([
      'id', 'tipo', 'huella', 'fecha_hora_huso', 'emisor', 'num_serie', 'fecha_expedicion', 'importe_total', 'estado_envio', 'codigo_error', 'descripcion_error',
      'entorno', 'demo', 'verifactu',
    ])
    .where('documento_id', '=', p.id)
    .orderBy('id', 'desc')
    .limit(1),
);

/** The record adds its latest registro de facturación (with what the fiscal QR prints). */
async function alLeer({ db, doc }: { db: Kysely<Database>; doc: Documento }): Promise<void> {
  const [r] = await ultimoRegistro(db, { id: doc.id });
  // An annulled invoice's QR still names what its registro de alta recorded (its ImporteTotal) and where it was made for.
  if (r?.tipo === 'anulacion') {
    const alta = await db
      .selectFrom('registros_facturacion')
      .select(['importe_total', 'entorno', 'demo', 'verifactu'])
      .where('documento_id', '=', doc.id)
      .where('tipo', '=', 'alta')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    r.importe_total = alta?.importe_total ?? null;
    if (alta) Object.assign(r, { entorno: alta.entorno, demo: alta.demo, verifactu: alta.verifactu });
  }
  doc.registro = r
    ? {
        id: r.id, tipo: r.tipo, huella: r.huella, fecha_hora_huso: r.fecha_hora_huso, id_emisor: nifDeCadena(r.emisor), num_serie: r.num_serie,
        fecha_expedicion: r.fecha_expedicion, importe_total: r.importe_total,
        // Issue 9: how the AEAT answered it (the invoice screen warns when refused).
        estado_envio: r.estado_envio, codigo_error: r.codigo_error ?? null, descripcion_error: r.descripcion_error ?? null,
        // Issue 22: the QR's host and the PDF's legend are what the record was made for (stored on it at creation),
        // never the setting of the day: a reprint after «Pruebas» → «Producción» still says it was a test.
        entorno: r.entorno === 'produccion' ? 'produccion' : 'pruebas',
        demo: Number(r.demo ?? 0),
        verifactu: Number(r.verifactu ?? 0),
      }
    : null;
  // Issue 17: its account — what is owed netting the rectificativas, the instalments, the cobros and refunds.
  doc.cuenta = doc.estado === 'emitida' || doc.estado === 'anulada' ? await cuentaParaLeer(db, doc.id) : null;
}

/**
 * `cobro` of listadofacturas and listadorectificativas: 'cobrada' (a cobro date), 'pendiente' (issued and unpaid) and 'vencida' (unpaid and past
 * its first due date: the date plus the forma de pago's first term; no forma de pago: due on its date).
 */
export const filtroCobro = { cobro: { type: 'enum', values: ['pendiente', 'vencida', 'cobrada'] } } as const satisfies Schema;

export function condicionesCobro(cobro: unknown, hoy: string) {
  if (cobro === 'cobrada') return [sql<boolean>`d.cobro_fecha is not null`];
  if (cobro !== 'pendiente' && cobro !== 'vencida') return [];
  // What is left (issue 17): an invoice's to collect, a rectificativa's refund owed (negative).
  const out = [sql<boolean>`d.estado = 'emitida'`, sql<boolean>`d.por_cobrar <> 0`];
  if (cobro === 'vencida') {
    // Due when the next unpaid instalment's date (date + its days) < today ⇔ date < today − days: one cut-off per
    // forma de pago and instalment.
    const corte = (dias: number) => {
      const t = new Date(`${hoy}T00:00:00Z`);
      t.setUTCDate(t.getUTCDate() - dias);
      return t.toISOString().slice(0, 10);
    };
    const casos = sql.join(
      FORMAS_PAGO.map((f) =>
        f.dias.length === 1
          ? sql`when ${f.id} then ${corte(f.dias[0])}`
          : sql`when ${f.id} then (case d.plazos_cubiertos ${sql.join(f.dias.map((dd, i) => sql`when ${i} then ${corte(dd)}`), sql` `)} else ${corte(f.dias.at(-1)!)} end)`,
      ),
      sql` `,
    );
    out.push(sql<boolean>`d.fecha < (case d.forma_pago ${casos} else ${hoy} end)`);
  }
  return out;
}

export const facturaEffects: TipoEffects<typeof facturaSchema> = {
  ...base(facturaSchema, COLUMNAS),
  // Albarán and parte lines come by the engine (their `hijo`); devolución lines as negative ones.
  origenes: ['devolucionventa'],
  async validate({ trx, header, lineas, errors }) {
    await almacenActivo(trx, header.almacen_id, 'almacen_id', errors);
    if (header.serie_id === null || header.serie_id === undefined) errors.serie_id = MESSAGES.serieRequerida;
    signos(lineas, await origenesDe(trx, lineas), errors);
  },
  acciones: { emitir, anular },
  despuesDe: { emitir: alEmitir, anular: alAnular },
  alLeer,
  filtros: filtroCobro,
  filtrar: (input, hoy) => condicionesCobro(input.cobro, hoy),
};

export const rectificativaEffects: TipoEffects<typeof rectificativaSchema> = {
  ...(base(rectificativaSchema, [...COLUMNAS, 'factura_id', 'tipo_factura', 'modo_rectificacion', 'facturas_rectificadas']) as unknown as TipoEffects<typeof rectificativaSchema>),
  // The corrected invoice's lines (what changes) and devolución lines (the units that came back).
  origenes: ['factura', 'rectificativa', 'devolucionventa'],
  /** Customer and warehouse not given: those of the invoice it corrects (the party is then checked as always). */
  async completar({ trx, header }) {
    if (header.cliente_id !== null && header.almacen_id !== null) return;
    const f = await facturaDe(trx, header.factura_id);
    header.cliente_id ??= f?.cliente_id ?? null;
    header.almacen_id ??= f?.almacen_id ?? null;
  },
  async validate({ trx, header, lineas, errors }) {
    if (header.almacen_id === null) errors.almacen_id = MESSAGES.required;
    await almacenActivo(trx, header.almacen_id, 'almacen_id', errors);
    if (header.serie_id === null || header.serie_id === undefined) errors.serie_id = MESSAGES.serieRequerida;
    else {
      const s = await trx.selectFrom('series').select('tipo').where('id', '=', header.serie_id).executeTakeFirst();
      if (s && s.tipo !== 'rectificativa') errors.serie_id = MESSAGES.serieRectificativaRequerida;
    }
    const corregida = await facturaRectificable(trx, header.factura_id, header.cliente_id);
    if (!corregida) errors.factura_id = MESSAGES.facturaARectificarNoValida;
    if (!header.tipo) errors.tipo = MESSAGES.selectOption;
    else if (corregida && !tipoCasa(header.tipo as TipoFactura, corregida.tipo_factura)) errors.tipo = MESSAGES.tipoRectificativaNoValido;
    // Stored as the record will say them.
    const h = header as Record<string, unknown>;
    h.tipo_factura = header.tipo ?? null;
    h.modo_rectificacion = header.modo ?? 'diferencias';
    // Issue 16: a rectificativa of several invoices of the customer (a rappel): by differences, every one issued, of
    // the customer and of the same class as the first (FacturasRectificadas names them all).
    const texto = typeof h.facturas_rectificadas === 'string' ? h.facturas_rectificadas : '';
    const otras = [...new Set(texto.replace(/[[\]]/g, '').split(/[\s,;]+/).filter(Boolean).map(Number))].filter((x) => x !== header.factura_id);
    if (otras.some((x) => !Number.isInteger(x) || x < 1)) errors.facturas_rectificadas = MESSAGES.facturasRectificadasNoValidas;
    else if (otras.length) {
      if (h.modo_rectificacion === 'sustitucion') errors.facturas_rectificadas = MESSAGES.variasFacturasSoloDiferencias;
      for (const x of otras) {
        const f = await facturaRectificable(trx, x, header.cliente_id);
        if (!f || (header.tipo && !tipoCasa(header.tipo as TipoFactura, f.tipo_factura))) errors.facturas_rectificadas ??= MESSAGES.facturasRectificadasNoValidas;
      }
    }
    h.facturas_rectificadas = otras.length ? JSON.stringify(otras) : null;
    const origenes = await origenesDe(trx, lineas);
    signos(lineas, origenes, errors);
    const sustitucion = h.modo_rectificacion === 'sustitucion';
    lineas.forEach((l, i) => {
      const o = l.origen_linea_id !== null ? origenes.get(l.origen_linea_id) : undefined;
      if (!o || (o.tipo !== FACTURA.tipo && o.tipo !== RECTIFICATIVA.tipo)) return;
      // An invoice line only of the invoice it corrects; by substitution the lines are the corrected invoice whole,
      // tied to it by factura_id (and to devoluciones), not line by line.
      if (o.documento_id !== corregida?.id) errors[`lineas.${i}.origen_linea_id`] ??= MESSAGES.lineaOrigenClienteNoValida;
      else if (sustitucion) l.origen_linea_id = null;
    });
  },
  acciones: { emitir, anular },
  despuesDe: { emitir: alEmitir, anular: alAnular },
  alLeer,
  // A rectificativa's cobro is the refund paid out (or, by substitution, what is still collected): the same filters.
  filtros: filtroCobro,
  filtrar: (input, hoy) => condicionesCobro(input.cobro, hoy),
};

/** Facturas and rectificativas, registered with the engine (actions/ventas makes their op.asp actions: listado, editar, eliminar, emitir, anular). */
export const tiposFactura = [
  registrarTipo(FACTURA, facturaEffects),
  registrarTipo(RECTIFICATIVA, rectificativaEffects),
];
