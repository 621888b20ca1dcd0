import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { MAX_LINEAS, MESSAGES, esOperacion, operacionDelCliente, operacionPorDefecto } from 'shared/domain';
import type { DocumentoTipoDef, FieldErrors, Impuesto, Operacion, TipoIva } from 'shared/domain';
import { compiledQuery } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { invalidFields } from '../errors.ts';
import type { EnlaceAnterior } from './enlaces.ts';
import { costeMedioSql } from './sql.ts';
import { CHUNK } from './tipos.ts';
import type { AnyDb, LineaValida, TipoEffects } from './tipos.ts';

/** What a document's input must be before anything is written: its lines, its party, its serie; a verb's `lineas`. */

/**
 * The longest line description (characters): the article's own (articuloSchema), well within Facturae's ItemDescription
 * (TextMax2500Type); a longer one is refused, not cut (issue 22).
 */
export const MAX_DESCRIPCION_LINEA = 200;

export const toInt = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
};

/** Validates `lineas` of editar<entidad> and completes them from the articles (one query per 500 ids). */
export async function validarLineas(
  trx: Transaction<Database>,
  effects: TipoEffects,
  raw: unknown,
  almacenLineas: number | null,
  errors: FieldErrors,
  anteriores: Map<number, EnlaceAnterior>,
  /** The type allows negative quantities (def.negativas: invoices), never 0. */
  negativas = false,
  /** Sales: the customer's tarifa and discount (the defaults of a line's precio and descuento). */
  venta: TerceroLeido | undefined = undefined,
): Promise<LineaValida[]> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.lineas = MESSAGES.invalidList;
    return [];
  }
  if (raw.length > MAX_LINEAS) {
    errors.lineas = MESSAGES.demasiadasLineas;
    return [];
  }
  type Parsed = {
    articulo_id: number | null;
    cantidad: number | null;
    precio: number | null;
    descuento: number;
    ubicacion_id: number | null;
    motivo: string | null;
    descripcion: string | null;
    /** undefined: absent (an existing line keeps its link). */
    origen_linea_id: number | null | undefined;
    id: number | null;
    /** Sales (issue 16): what the request says, or null (the default). */
    operacion: Operacion | null;
  };
  const parsed: Parsed[] = raw.map((item, i) => {
    const l = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const key = (f: string) => `lineas.${i}.${f}`;
    const articulo_id = toInt(l.articulo_id);
    if (articulo_id === null || articulo_id < 1) errors[key('articulo_id')] = MESSAGES.articuloNoExiste;
    const cantidad = toInt(l.cantidad);
    const min = effects.cantidadCero ? 0 : 1;
    if (negativas) {
      if (cantidad === null || cantidad === 0 || Math.abs(cantidad) > 1e12) errors[key('cantidad')] = MESSAGES.cantidadDistintaDeCero;
    } else if (cantidad === null || cantidad < min || cantidad > 1e12) {
      errors[key('cantidad')] = effects.cantidadCero ? MESSAGES.cantidadNoNegativa : MESSAGES.cantidadMayorQueCero;
    }
    let precio: number | null = null;
    if (l.precio !== undefined && l.precio !== null && l.precio !== '') {
      precio = toInt(l.precio);
      if (precio === null || precio < 0 || precio > 1e13) errors[key('precio')] = MESSAGES.invalidNumber;
    }
    let descuento = effects.precioPorDefecto === 'venta' ? (venta?.descuento ?? 0) : 0;
    if (l.descuento !== undefined && l.descuento !== null && l.descuento !== '') {
      const d = toInt(l.descuento);
      if (d === null || d < 0 || d > 10000) errors[key('descuento')] = MESSAGES.invalidNumber;
      else descuento = d;
    }
    let ubicacion_id: number | null = null;
    if (l.ubicacion_id !== undefined && l.ubicacion_id !== null && l.ubicacion_id !== '') {
      ubicacion_id = toInt(l.ubicacion_id);
      if (ubicacion_id === null || ubicacion_id < 1) errors[key('ubicacion_id')] = MESSAGES.ubicacionOtroAlmacen;
    }
    const motivo = typeof l.motivo === 'string' && l.motivo !== '' ? l.motivo : null;
    const descripcion = typeof l.descripcion === 'string' && l.descripcion.trim() !== '' ? l.descripcion.trim() : null;
    // Issue 22: a description the document would print and its Facturae or PDF would cut is refused, never cut.
    if (descripcion !== null && [...descripcion].length > MAX_DESCRIPCION_LINEA) {
      errors[key('descripcion')] = MESSAGES.lineaDescripcionLarga.replace('{largo}', String([...descripcion].length)).replace('{max}', String(MAX_DESCRIPCION_LINEA));
    }
    let origen_linea_id: number | null | undefined;
    if (l.origen_linea_id === null || l.origen_linea_id === '') origen_linea_id = null;
    else if (l.origen_linea_id !== undefined) {
      origen_linea_id = toInt(l.origen_linea_id);
      if (origen_linea_id === null || origen_linea_id < 1) errors[key('origen_linea_id')] = MESSAGES.lineaOrigenNoValida;
    }
    let operacion: Operacion | null = null;
    if (venta && l.operacion !== undefined && l.operacion !== null && l.operacion !== '') {
      if (esOperacion(l.operacion)) operacion = l.operacion;
      else errors[key('operacion')] = MESSAGES.operacionNoValida;
    }
    return { articulo_id, cantidad, precio, descuento, ubicacion_id, motivo, descripcion, origen_linea_id, id: toInt(l.id), operacion };
  });

  // The articles, with their average cost (the default unit cost of warehouse lines).
  const ids = [...new Set(parsed.map((p) => p.articulo_id).filter((id): id is number => id !== null && id > 0))];
  const articulos = new Map<
    number,
    { codigo: string; descripcion: string; tipo_iva: TipoIva; familia_id: number | null; coste: number; precio_compra: number; operacion: string | null }
  >();
  // Sales: the price of the customer's tarifa (1 = precio_venta; an article without a tarifa 2 or 3 price, tarifa 1's).
  const tarifa = effects.precioPorDefecto === 'venta' ? ({ 2: 'tarifa_2', 3: 'tarifa_3' } as Record<number, string>)[venta?.tarifa ?? 1] : null;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await (trx as AnyDb)
      .selectFrom('articulos as a')
      .select(['a.id', 'a.codigo', 'a.descripcion', 'a.tipo_iva', 'a.familia_id', 'a.precio_compra', 'a.operacion'])
      .$if(effects.precioPorDefecto === 'venta', (q) =>
        q.select((tarifa ? sql<number>`coalesce(nullif(${sql.ref(`a.${tarifa}`)}, 0), a.precio_venta)` : sql<number>`a.precio_venta`).as('coste')),
      )
      .$if(effects.precioPorDefecto === undefined || effects.precioPorDefecto === 'coste', (q) => q.select(costeMedioSql('a').as('coste')))
      .where('a.id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) articulos.set(r.id, { ...r, coste: Number(r.coste ?? 0), precio_compra: Number(r.precio_compra) });
  }
  // Sales (issue 16): a line made from another (a rectificativa's from the invoice line it corrects, a devolución's
  // from its albarán line) keeps that line's operation unless it says another.
  const operacionOrigen = new Map<number, string | null>();
  if (venta) {
    const origenes = [...new Set(parsed.filter((p) => p.operacion === null && p.origen_linea_id).map((p) => p.origen_linea_id as number))];
    for (let i = 0; i < origenes.length; i += CHUNK) {
      const rows = await trx.selectFrom('documento_lineas').select(['id', 'operacion']).where('id', 'in', origenes.slice(i, i + CHUNK)).execute();
      for (const r of rows) operacionOrigen.set(r.id, r.operacion ?? null);
    }
  }
  const ubIds = [...new Set(parsed.map((p) => p.ubicacion_id).filter((id): id is number => id !== null && id > 0))];
  const ubicaciones = new Map<number, number>();
  for (let i = 0; i < ubIds.length; i += CHUNK) {
    const rows = await trx.selectFrom('ubicaciones').select(['id', 'almacen_id']).where('id', 'in', ubIds.slice(i, i + CHUNK)).execute();
    for (const r of rows) ubicaciones.set(r.id, r.almacen_id);
  }
  return parsed.map((p, i) => {
    const a = p.articulo_id !== null ? articulos.get(p.articulo_id) : undefined;
    if (!a && !errors[`lineas.${i}.articulo_id`]) errors[`lineas.${i}.articulo_id`] = MESSAGES.articuloNoExiste;
    if (p.ubicacion_id !== null && ubicaciones.get(p.ubicacion_id) !== almacenLineas) errors[`lineas.${i}.ubicacion_id`] = MESSAGES.ubicacionOtroAlmacen;
    // Sales (issue 16): the line's operation, else the article's, else the customer's, else S1 (E1 for «exento»).
    let operacion: Operacion | null = null;
    if (venta) {
      const heredada = p.origen_linea_id ? operacionOrigen.get(p.origen_linea_id) : undefined;
      operacion = p.operacion ?? (esOperacion(heredada) ? heredada : operacionPorDefecto(a?.operacion, venta.operacion, a?.tipo_iva ?? '21'));
      if (operacion === 'E5' && !venta.nifIva) errors[`lineas.${i}.operacion`] ??= MESSAGES.operacionE5SinNifIva;
      if (operacion === 'S1' && a?.tipo_iva === 'exento') errors[`lineas.${i}.operacion`] ??= MESSAGES.operacionS1Exento;
    }
    return {
      articulo_id: p.articulo_id ?? 0,
      codigo: a?.codigo ?? '',
      descripcion: p.descripcion ?? a?.descripcion ?? '',
      tipo_iva: a?.tipo_iva ?? '21',
      familia_id: a?.familia_id ?? null,
      cantidad: p.cantidad ?? 0,
      precio: p.precio ?? (effects.precioPorDefecto === 'compra' ? a?.precio_compra : a?.coste) ?? 0,
      descuento: p.descuento,
      ubicacion_id: p.ubicacion_id,
      motivo: p.motivo,
      // An existing line sent back without origen_linea_id keeps its link.
      origen_linea_id: p.origen_linea_id === undefined ? (p.id !== null ? (anteriores.get(p.id)?.padre_linea_id ?? null) : null) : p.origen_linea_id,
      operacion,
    };
  });
}

const tipoDeSerie = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('series')
    .select(['tipo', 'activo', 'codigo'])
    // Issue 23: the TPV terminal whose serie (tickets or returns) it is, if any.
    .select((eb) =>
      eb
        .selectFrom('tpv_terminales as t')
        .select('t.nombre')
        .where((w) => w.or([w('t.serie_id', '=', w.ref('series.id')), w('t.serie_rectificativa_id', '=', w.ref('series.id'))]))
        .limit(1)
        .as('terminal'),
    )
    .where('id', '=', p.id),
);

/** The message refusing a back-office document in a TPV terminal's serie (issue 23: a terminal's series are its own). */
export const serieDeTerminal = (codigo: string, terminal: string) => MESSAGES.serieDeTerminal.replace('{codigo}', codigo).replace('{terminal}', terminal);

/**
 * A serie a document of `def` may use: existing, active, of one of the type's kinds and no TPV terminal's (the
 * back office never numbers in a till's serie: the till knows its next number, online or offline); else the field's message.
 * Only the back office's documents come here (the till's tickets and returns are made by tpv/tickets.ts).
 */
export async function validarSerie(trx: Transaction<Database>, def: DocumentoTipoDef, serieId: unknown, errors: FieldErrors, field = 'serie_id'): Promise<void> {
  if (!def.series || serieId === null || serieId === undefined) return;
  const s = typeof serieId === 'number' ? (await tipoDeSerie(trx, { id: serieId }))[0] : undefined;
  if (s?.activo !== 1 || !def.series.includes(s.tipo)) errors[field] = MESSAGES.serieNoValida;
  else if (s.terminal) errors[field] = serieDeTerminal(s.codigo, s.terminal);
}

/**
 * What the party's row gives a sales document's lines: the customer's tarifa and default discount, its default
 * operation and whether it is identified by a NIF-IVA (the one an E5 line needs).
 */
export type TerceroLeido = { tarifa: number; descuento: number; operacion: string | null; nifIva: boolean };

const leerCliente = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('clientes')
    .select(['activo', 'forma_pago', 'retencion', 'recargo', 'tarifa', 'descuento', 'operacion', 'tipo_id', 'pais', 'codigo_postal'])
    // The company's tax decides whether Canarias, Ceuta and Melilla are outside its territory (operacionDelCliente).
    .select((eb) => eb.selectFrom('configuracion').select('impuesto').limit(1).as('impuesto_empresa'))
    .where('id', '=', p.id),
);
const leerProveedor = compiledQuery((db, p: { id: number }) => db.selectFrom('proveedores').select(['activo', 'forma_pago', 'retencion']).where('id', '=', p.id));

/**
 * The party of a document with `def.tercero`: required, existing and active. Read once, it also gives the
 * document its payment method and retención unless the request says otherwise.
 */
export async function validarTercero(
  trx: Transaction<Database>,
  def: DocumentoTipoDef,
  header: Record<string, unknown>,
  errors: FieldErrors,
): Promise<TerceroLeido | undefined> {
  if (!def.tercero) return undefined;
  const field = `${def.tercero}_id`;
  const id = header[field];
  if (typeof id !== 'number') {
    errors[field] = MESSAGES.required;
    return undefined;
  }
  const cliente = def.tercero === 'cliente';
  const [row] = (await (cliente ? leerCliente : leerProveedor)(trx, { id })) as {
    activo: number;
    forma_pago: string | null;
    retencion: number;
    recargo?: number;
    tarifa?: number;
    descuento?: number;
    operacion?: string | null;
    tipo_id?: string | null;
    pais?: string | null;
    codigo_postal?: string | null;
    impuesto_empresa?: string | null;
  }[];
  if (row?.activo !== 1) errors[field] = cliente ? MESSAGES.clienteNoActivo : MESSAGES.proveedorNoActivo;
  header.forma_pago ??= row?.forma_pago ?? null;
  header.retencion ??= row?.retencion ?? 0;
  if (!cliente) return undefined;
  // The customer's recargo de equivalencia always decides the document's (documentos.con_recargo).
  header.con_recargo = row?.recargo === 1 ? 1 : 0;
  // Issue 25: a customer whose record names no operation gets the one where it is (E5 to an EU operator, E2 abroad).
  const operacion = row ? operacionDelCliente(row, (row.impuesto_empresa as Impuesto | null) ?? 'iva') : null;
  return { tarifa: Number(row?.tarifa ?? 1), descuento: Number(row?.descuento ?? 0), operacion, nifIva: row?.tipo_id === '02' };
}

/** Parses `lineas: [{id, cantidad}]` of a porLineas action. */
export function cantidadesPorLinea(raw: unknown): Map<number, number> | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) throw invalidFields({ lineas: MESSAGES.invalidList });
  const out = new Map<number, number>();
  const errors: FieldErrors = {};
  raw.forEach((item, i) => {
    const l = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const id = toInt(l.id);
    const cantidad = toInt(l.cantidad);
    if (id === null || id < 1) errors[`lineas.${i}.id`] = MESSAGES.lineaOtroDocumento;
    if (cantidad === null || cantidad < 0) errors[`lineas.${i}.cantidad`] = MESSAGES.cantidadNoNegativa;
    if (id !== null && cantidad !== null) out.set(id, (out.get(id) ?? 0) + cantidad);
  });
  if (Object.keys(errors).length) throw invalidFields(errors);
  return out;
}

/**
 * Kits (articles with articulo_componentes) have no stock of their own: a sale takes its components (movimientos.ts).
 * Suppliers deliver components, not the bundle, and a warehouse holds, moves, counts and loses components: so only
 * sales documents (`def.lineas` 'venta') take a kit; purchases refuse it with MESSAGES.kitNoComprable, the warehouse
 * documents with MESSAGES.kitSinStockPropio (errors `lineas.N.articulo_id`).
 */
export async function validarKits(trx: Transaction<Database>, def: DocumentoTipoDef, lineas: readonly LineaValida[], errors: FieldErrors): Promise<void> {
  if (def.lineas === 'venta' || !lineas.length) return;
  const ids = [...new Set(lineas.map((l) => l.articulo_id))];
  const kits = new Set<number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await trx.selectFrom('articulo_componentes').select('articulo_id').distinct().where('articulo_id', 'in', ids.slice(i, i + CHUNK)).execute();
    for (const r of rows) kits.add(r.articulo_id);
  }
  const mensaje = def.tercero === 'proveedor' ? MESSAGES.kitNoComprable : MESSAGES.kitSinStockPropio;
  lineas.forEach((l, i) => {
    if (kits.has(l.articulo_id)) errors[`lineas.${i}.articulo_id`] ??= mensaje;
  });
}
