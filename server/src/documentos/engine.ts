import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MAX_LINEAS, MESSAGES, TOASTS, calcularTotales, numeroDe, numeroDocumento } from 'shared/domain';
import type {
  AccionDef,
  Documento,
  DocumentoTipo,
  DocumentoAccionLog,
  DocumentoLinea,
  DocumentoTipoDef,
  FieldErrors,
  FlagName,
  Infer,
  Schema,
  TipoIva,
  Verbo,
} from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { contains, isUniqueViolation, listSchema, paging } from '../actions/common.ts';
import { defineAction } from '../actions/registry.ts';
import { ActionError, fail, invalidFields } from '../errors.ts';
import type { Action } from '../actions/registry.ts';
import type { SessionUser } from '../session.ts';
import { addToLines, comprobarStockNegativo, reverseLedger, sincronizarStock, ubicacionesHabituales } from './ledger.ts';
import { costeMedioSql, dialectOf } from './sql.ts';
import { compiledQuery, insertarFilas } from '../db/prepared.ts';
import { actualizarEstadoPadres, borrarEnlaces, enlacesDe, guardarEnlaces, validarOrigenes } from './enlaces.ts';
import type { EnlaceAnterior } from './enlaces.ts';

/**
 * The document engine (docs/documents.md): one generic listado / editar / eliminar / <verbo> per
 * document type, generated from its row of DOCUMENTO_TIPOS (shared/domain/documentos.ts) and the
 * type's effects. Every action runs in one transaction: read the state from the table, check the
 * states-and-actions table, apply the effects (ledger rows, pending quantities), log the action,
 * set the state. Undo (an action with `undoes`) is generic: it reverses the latest not-undone run
 * of the verb it undoes.
 */

export type DocRow = {
  id: number;
  tipo: string;
  estado: string;
  fecha: string;
  ejercicio: number;
  numero: number | null;
  serie_id: number | null;
  almacen_id: number | null;
  almacen_destino_id: number | null;
  familia_id: number | null;
  ubicacion_id: number | null;
  proveedor_id: number | null;
  cliente_id: number | null;
  forma_pago: string | null;
  retencion: number;
  con_recargo: number;
};

/** What an action left to restore on its undo, stored as JSON in documento_acciones.detalle. */
export type Detalle = {
  /** [line id, delta applied to its pendiente]. */
  pendiente?: [number, number][];
  /** The action set the lines' teorico (inventario): its undo clears it. */
  teorico?: true;
  /** The child document the action created (recibir → albarán): its undo removes it (restoring stock and pending through its links). */
  hijo?: number;
};

export type EffectContext = {
  trx: Transaction<Database>;
  dialect: DialectName;
  def: DocumentoTipoDef;
  accion: AccionDef;
  doc: DocRow;
  /** The documento_acciones row of this run: every ledger row carries it. */
  accionId: number;
  /** Business date of the action (aaaa-mm-dd): the ledger rows' fecha. */
  hoy: string;
  /** porLineas actions: the quantities asked per line id (absent lines 0); null = everything pending. */
  lineas: Map<number, number> | null;
  /** The request's body (a verb's own inputs: facturar's serie_id, …). */
  raw: Record<string, unknown>;
  user: SessionUser;
  /** The business's time zone (an invoice record's timestamp). */
  timeZone: string;
};

export type EffectResult = {
  estado?: string;
  detalle?: Detalle;
  /** The number the action gave the document (emitir: its serie's next), written with its new state. */
  numero?: { numero: number; ejercicio: number; tipo_factura: string | null };
};

/** A line as the engine validated it, before it is written. */
export type LineaValida = {
  articulo_id: number;
  codigo: string;
  descripcion: string;
  tipo_iva: TipoIva;
  familia_id: number | null;
  cantidad: number;
  precio: number;
  descuento: number;
  ubicacion_id: number | null;
  motivo: string | null;
  /** The parent line it comes from (a devolución line from an albarán line; an albarán line from a pedido line). */
  origen_linea_id: number | null;
};

export type ValidateContext<S extends Schema> = {
  trx: Transaction<Database>;
  header: Infer<S>;
  lineas: LineaValida[];
  errors: FieldErrors;
  /** The request's body (what the schema doesn't carry: a parte's `horas`) and who saves. */
  raw: Record<string, unknown>;
  user: SessionUser;
};

/** What a document type adds to the engine besides its row of DOCUMENTO_TIPOS. */
export type TipoEffects<S extends Schema = Schema> = {
  /** Header fields of editar<entidad> (lines travel apart, as `lineas`). */
  schema: S;
  /** Header columns written from the input (validated by `schema`). */
  headerColumns: readonly string[];
  /** Whether a line may have quantity 0 (inventario: counted nothing). */
  cantidadCero?: boolean;
  /** Header warehouse whose locations the lines may use. */
  almacenLineas?: (header: Infer<S>) => number | null;
  /** Type-specific checks of header and lines, adding to ctx.errors (keys `campo` or `lineas.N.campo`). */
  validate?(ctx: ValidateContext<S>): Promise<void>;
  /** The effects of each verb that is not an undo. */
  acciones: Partial<Record<Verbo, (ctx: EffectContext) => Promise<EffectResult>>>;
  /**
   * Checks before a verb runs (undos too), once its state is allowed: throw to refuse it (an albarán
   * covered by a supplier invoice is not un-finished by hand).
   */
  antesDe?: Partial<Record<Verbo, (ctx: { trx: Transaction<Database>; doc: DocRow }) => Promise<void>>>;
  /**
   * A line's default unit price: the article's average cost (warehouse documents, default), its precio_compra
   * (purchases) or, for sales, the price of the customer's tarifa (precio_venta, tarifa_2, tarifa_3) with the
   * customer's discount as the default descuento.
   */
  precioPorDefecto?: 'coste' | 'compra' | 'venta';
  /**
   * Types whose lines this type's lines may name as `origen_linea_id` (devolución ← albarán), besides the
   * type whose `hijo` this is (albarán ← pedido, whose pending units the link consumes). A link to a
   * line without pending units may take up to its quantity less what other documents' links take.
   */
  origenes?: readonly DocumentoTipo[];
  /** After a save (lines and stock written; also for a child the engine creates): e.g. the articles' last purchase price. */
  alGuardar?(ctx: { trx: Transaction<Database>; dialect: DialectName; docId: number; raw?: Record<string, unknown> }): Promise<void>;
  /** Before a document of the type is deleted (after its lines' links and stock are undone): rows of its own tables (a parte's hours). */
  alBorrar?(ctx: { trx: Transaction<Database>; docId: number }): Promise<void>;
  /** A record read by id (`listado<plural>&id=`, and every action's answer): what the type adds (an invoice's registro…). */
  alLeer?(ctx: { db: Kysely<Database>; doc: Documento }): Promise<void>;
  /** Extra filters of listado<plural> (facturas: `cobro`), and the conditions they add (`hoy`: today in the business's time zone). */
  filtros?: Schema;
  filtrar?(input: Record<string, unknown>, hoy: string): RawBuilder<boolean>[];
};

/** Every type's effects by tipo (filled by documentoActions): the engine finds a child type's effects here. */
const EFFECTS = new Map<string, TipoEffects>();

/** Party tables by `def.tercero`. */
const TERCERO_TABLA = { proveedor: 'proveedores', cliente: 'clientes' } as const;

// biome-ignore lint/suspicious/noExplicitAny: the engine's SQL is generic over document types
type AnyDb = Kysely<any>;

const DOC_COLUMNS = [
  'd.id', 'd.tipo', 'd.serie_id', 'd.numero', 'd.ejercicio', 'd.fecha', 'd.estado', 'd.almacen_id', 'd.almacen_destino_id', 'd.familia_id',
  'd.ubicacion_id', 'd.cliente_id', 'd.proveedor_id', 'd.forma_pago', 'd.fecha_entrega', 'd.retencion', 'd.con_recargo', 'd.observaciones',
  'd.base', 'd.iva', 'd.recargo', 'd.retencion_importe', 'd.total', 'd.desglose', 'd.clave', 'd.creado', 'd.modificado',
  'd.tipo_factura', 'd.factura_id', 'd.modo_rectificacion', 'd.cobro_fecha', 'd.cobro_forma', 'd.usuario_id',
] as const;

type HeaderRow = Record<string, unknown> & { numero: number | null; ejercicio: number; desglose: string | null; serie_codigo?: string | null };

/** The displayed number of a document of any type (a linked one), from its serie's code when the type has series. */
export function numeroDeTipo(tipo: string, r: { ejercicio: number; numero: number | null; serie_codigo?: string | null }): string {
  const def = DOCUMENTO_TIPOS[tipo as DocumentoTipo];
  return def ? numeroDe(def, r) : numeroDocumento('', r.ejercicio, r.numero);
}

function toDocumento(def: DocumentoTipoDef, row: HeaderRow): Documento {
  // In place: the row is the driver's own object, and copying its 30-odd columns (twice, with a rest and a
  // spread) cost as much per list page as the query itself.
  const doc = row as Record<string, unknown>;
  doc.numero = numeroDe(def, row);
  doc.desglose = row.desglose ? JSON.parse(row.desglose) : [];
  // The invoice a rectificativa corrects, by its displayed number (numerosCorregidas fills it in).
  if (def.series) doc.factura_numero = null;
  return doc as unknown as Documento;
}

/**
 * The displayed number of the invoice each rectificativa among `docs` corrects (factura_numero): one lookup by id for
 * the rows that have one (most have none: then no query). Apart from the header's query, whose joins PostgreSQL
 * would plan on every call.
 */
async function numerosCorregidas(db: Kysely<Database>, docs: readonly Documento[]): Promise<void> {
  const conFactura = docs.filter((d) => d.factura_id !== null && d.factura_id !== undefined);
  if (!conFactura.length) return;
  const ids = [...new Set(conFactura.map((d) => d.factura_id as number))];
  const rows = await db
    .selectFrom('documentos as fd')
    .leftJoin('series as fse', 'fse.id', 'fd.serie_id')
    .select(['fd.id', 'fd.tipo', 'fd.ejercicio', 'fd.numero', 'fse.codigo as serie_codigo'])
    .where('fd.id', 'in', ids)
    .execute();
  const numeros = new Map(rows.map((r) => [r.id, numeroDeTipo(r.tipo, r)]));
  for (const d of conFactura) d.factura_numero = numeros.get(d.factura_id as number) ?? null;
}

/**
 * The header of a document: its columns, and the names of what it refers to as scalar subqueries rather than
 * joins — the same answer (each by primary key, null when there is none), but PostgreSQL plans a dozen joined
 * tables on every call (≈ 2 ms; Kysely's statements are unnamed), and subqueries one by one in microseconds.
 */
function selectHeader(db: AnyDb, def: DocumentoTipoDef) {
  let q = db
    .selectFrom('documentos as d')
    .select([
      ...DOC_COLUMNS,
      sql<string | null>`(select ao.nombre from almacenes ao where ao.id = d.almacen_id)`.as('almacen_nombre'),
      sql<string | null>`(select ad.nombre from almacenes ad where ad.id = d.almacen_destino_id)`.as('almacen_destino_nombre'),
      // Who did the work (partes de trabajo; null for the rest).
      sql<string | null>`(select uw.nombre from usuarios uw where uw.id = d.usuario_id)`.as('usuario_nombre'),
    ]);
  // The serie's code (the displayed number).
  if (def.series) q = q.select(sql<string | null>`(select se.codigo from series se where se.id = d.serie_id)`.as('serie_codigo'));
  if (!def.tercero) return q;
  // The party's name and NIF: proveedor_nombre / proveedor_nif (cliente_… for sales).
  const t = def.tercero;
  return q
    .leftJoin(`${TERCERO_TABLA[t]} as te`, 'te.id', `d.${t}_id`)
    .select([`te.razon_social as ${t}_nombre`, `te.nif as ${t}_nif`]);
}

/** Documents linked to `id`'s lines: its children (hijos) or its parents (padres), with their displayed numbers. */
async function documentosEnlazados(db: Kysely<Database>, id: number, lado: 'hijos' | 'padres') {
  const [mine, other] = lado === 'hijos' ? ['padre_linea_id', 'linea_id'] : ['linea_id', 'padre_linea_id'];
  const { rows } = await sql<{ id: number; tipo: string; ejercicio: number; numero: number | null; serie_codigo: string | null; fecha: string; estado: string }>`
    select distinct d.id, d.tipo, d.ejercicio, d.numero, s.codigo as serie_codigo, d.fecha, d.estado
    from documento_lineas l
    join documento_enlaces e on e.${sql.raw(mine)} = l.id
    join documento_lineas o on o.id = e.${sql.raw(other)}
    join documentos d on d.id = o.documento_id
    left join series s on s.id = d.serie_id
    where l.documento_id = ${id} order by d.id`.execute(db);
  return rows.map((r) => ({ tipo: r.tipo, id: r.id, numero: numeroDeTipo(r.tipo, r), fecha: r.fecha, estado: r.estado }));
}

/** The header of one document of `def` by id (a compiled statement per type). */
const cabeceras = new Map<string, (db: Kysely<Database>, p: { id: number }) => Promise<HeaderRow[]>>();
function leerCabecera(def: DocumentoTipoDef) {
  let q = cabeceras.get(def.tipo);
  if (!q) {
    q = compiledQuery((db, p: { id: number }) =>
      selectHeader(db as AnyDb, def)
        .select([
          sql<string | null>`(select f.nombre from familias f where f.id = d.familia_id)`.as('familia_nombre'),
          sql<string | null>`(select u.codigo from ubicaciones u where u.id = d.ubicacion_id)`.as('ubicacion_codigo'),
          sql<string | null>`(select uc.nombre from usuarios uc where uc.id = d.creado_por)`.as('creado_por_nombre'),
          sql<string | null>`(select um.nombre from usuarios um where um.id = d.modificado_por)`.as('modificado_por_nombre'),
        ])
        .where('d.id', '=', p.id)
        .where('d.tipo', '=', def.tipo),
    ) as (db: Kysely<Database>, p: { id: number }) => Promise<HeaderRow[]>;
    cabeceras.set(def.tipo, q);
  }
  return q;
}

/** A document's lines by orden, with their links: the parent line each comes from, and what children take of it. */
const leerLineas = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('documento_lineas as l')
    .leftJoin('ubicaciones as u', 'u.id', 'l.ubicacion_id')
    .select([
      'l.id', 'l.orden', 'l.articulo_id', 'l.codigo', 'l.descripcion', 'l.tipo_iva', 'l.cantidad', 'l.precio', 'l.descuento', 'l.pendiente',
      'l.ubicacion_id', 'u.codigo as ubicacion_codigo', 'l.motivo', 'l.teorico',
      // Links: the parent line it comes from, and what children take of it (received, returned…).
      sql<number | null>`(select min(e.padre_linea_id) from documento_enlaces e where e.linea_id = l.id)`.as('origen_linea_id'),
      sql<number>`(select coalesce(sum(e.cantidad), 0) from documento_enlaces e where e.padre_linea_id = l.id)`.as('enlazado'),
    ])
    .where('l.documento_id', '=', p.id)
    .orderBy('l.orden')
    .orderBy('l.id'),
);

/** A document's history, oldest first. */
const leerHistorial = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('documento_acciones as a')
    .leftJoin('usuarios as us', 'us.id', 'a.usuario_id')
    .select(['a.id', 'a.accion', 'a.fecha', 'us.nombre as usuario_nombre', 'a.deshecha_por'])
    .where('a.documento_id', '=', p.id)
    .orderBy('a.id'),
);

/** One document as `listado<plural>&id=` answers it: header, lines (by orden) and history. */
export async function readDocumento(db: Kysely<Database>, def: DocumentoTipoDef, id: number): Promise<Documento | undefined> {
  const [row] = await leerCabecera(def)(db, { id });
  if (!row) return undefined;
  const lineas = (await leerLineas(db, { id })) as unknown as DocumentoLinea[];
  const historial = (await leerHistorial(db, { id })) as unknown as DocumentoAccionLog[];
  const conEnlazado = lineas as (DocumentoLinea & { enlazado: number | string })[];
  for (const l of conEnlazado) l.enlazado = Number(l.enlazado);
  // The lines already tell which side has links (a link always takes a positive quantity): only that side is read.
  const conHijos = conEnlazado.some((l) => Number(l.enlazado) > 0);
  const conPadres = lineas.some((l) => l.origen_linea_id !== null && l.origen_linea_id !== undefined);
  const doc = {
    ...toDocumento(def, row as HeaderRow),
    num_lineas: lineas.length,
    lineas,
    historial,
    hijos: conHijos ? await documentosEnlazados(db, id, 'hijos') : [],
    padres: conPadres ? await documentosEnlazados(db, id, 'padres') : [],
  } as Documento;
  if (def.series) await numerosCorregidas(db, [doc]);
  await EFFECTS.get(def.tipo)?.alLeer?.({ db, doc });
  return doc;
}

const toInt = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
};

const CHUNK = 500;

/** Validates `lineas` of editar<entidad> and completes them from the articles (one query per 500 ids). */
async function validarLineas(
  trx: Transaction<Database>,
  dialect: DialectName,
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
    const descripcion = typeof l.descripcion === 'string' && l.descripcion.trim() !== '' ? l.descripcion.trim().slice(0, 200) : null;
    let origen_linea_id: number | null | undefined;
    if (l.origen_linea_id === null || l.origen_linea_id === '') origen_linea_id = null;
    else if (l.origen_linea_id !== undefined) {
      origen_linea_id = toInt(l.origen_linea_id);
      if (origen_linea_id === null || origen_linea_id < 1) errors[key('origen_linea_id')] = MESSAGES.lineaOrigenNoValida;
    }
    return { articulo_id, cantidad, precio, descuento, ubicacion_id, motivo, descripcion, origen_linea_id, id: toInt(l.id) };
  });

  // The articles, with their average cost (the default unit cost of warehouse lines).
  const ids = [...new Set(parsed.map((p) => p.articulo_id).filter((id): id is number => id !== null && id > 0))];
  const articulos = new Map<number, { codigo: string; descripcion: string; tipo_iva: TipoIva; familia_id: number | null; coste: number; precio_compra: number }>();
  // Sales: the price of the customer's tarifa (1 = precio_venta; an article without a tarifa 2 or 3 price, tarifa 1's).
  const tarifa = effects.precioPorDefecto === 'venta' ? ({ 2: 'tarifa_2', 3: 'tarifa_3' } as Record<number, string>)[venta?.tarifa ?? 1] : null;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await (trx as AnyDb)
      .selectFrom('articulos as a')
      .select(['a.id', 'a.codigo', 'a.descripcion', 'a.tipo_iva', 'a.familia_id', 'a.precio_compra'])
      .$if(effects.precioPorDefecto === 'venta', (q) =>
        q.select((tarifa ? sql<number>`coalesce(nullif(${sql.ref(`a.${tarifa}`)}, 0), a.precio_venta)` : sql<number>`a.precio_venta`).as('coste')),
      )
      .$if(effects.precioPorDefecto === undefined || effects.precioPorDefecto === 'coste', (q) => q.select(costeMedioSql(dialect, 'a').as('coste')))
      .where('a.id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) articulos.set(r.id, { ...r, coste: Number(r.coste ?? 0), precio_compra: Number(r.precio_compra) });
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
    };
  });
}

/** The next number of (tipo, serie, ejercicio): the counter row is locked by the UPDATE until the transaction ends. */
export async function siguienteNumero(trx: Transaction<Database>, tipo: string, serieId: number | null, ejercicio: number, fecha: string): Promise<number> {
  return (await avanzarContador(trx, tipo, serieId, ejercicio, fecha)).ultimo;
}

const incrementarContador = compiledQuery((db, p: { fecha: string; tipo: string; serie: number; ejercicio: number }) => ({
  compile: () =>
    sql<{ ultimo: number; ultima_fecha: string | null }>`update contadores set ultimo = ultimo + 1,
        ultima_fecha = case when ultima_fecha is null or ultima_fecha < ${p.fecha} then ${p.fecha} else ultima_fecha end
      where tipo = ${p.tipo} and serie_id = ${p.serie} and ejercicio = ${p.ejercicio} returning ultimo, ultima_fecha`.compile(db),
}));

/** The counter advanced: its new number and its last date after this one (the later of the two). */
async function avanzarContador(trx: Transaction<Database>, tipo: string, serieId: number | null, ejercicio: number, fecha: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const rows = await incrementarContador(trx, { fecha, tipo, serie: serieId ?? 0, ejercicio });
    if (rows[0]) return { ultimo: Number(rows[0].ultimo), ultima_fecha: rows[0].ultima_fecha };
    await trx
      .insertInto('contadores')
      .values({ tipo, serie_id: serieId ?? 0, ejercicio, ultimo: 0, ultima_fecha: null })
      .onConflict((oc) => oc.columns(['tipo', 'serie_id', 'ejercicio']).doNothing())
      .execute();
  }
  throw new Error('contador');
}

/**
 * The number an issued document (a type with `series`) takes in its serie: the counter of (tipo, serie, ejercicio)
 * advanced and locked like siguienteNumero's; a date before the serie's last issued one that year is refused
 * (MESSAGES.fechaAnteriorSerie) — the caller's transaction rolls back, so no number is lost. The counter's date after
 * the update is the later of its last and this one: later than `fecha` only when the last one was.
 */
export async function numeroEnSerie(trx: Transaction<Database>, tipo: string, serieId: number, fecha: string): Promise<number> {
  const c = await avanzarContador(trx, tipo, serieId, Number(fecha.slice(0, 4)), fecha);
  if (c.ultima_fecha && c.ultima_fecha > fecha) throw fail(MESSAGES.fechaAnteriorSerie, '1', 400);
  return c.ultimo;
}

const tipoDeSerie = compiledQuery((db, p: { id: number }) => db.selectFrom('series').select(['tipo', 'activo']).where('id', '=', p.id));

/** A serie a document of `def` may use: existing, active and of one of the type's kinds; else the field's message. */
export async function validarSerie(trx: Transaction<Database>, def: DocumentoTipoDef, serieId: unknown, errors: FieldErrors, field = 'serie_id'): Promise<void> {
  if (!def.series || serieId === null || serieId === undefined) return;
  const s = typeof serieId === 'number' ? (await tipoDeSerie(trx, { id: serieId }))[0] : undefined;
  if (s?.activo !== 1 || !def.series.includes(s.tipo)) errors[field] = MESSAGES.serieNoValida;
}

const leerParaBloquear = compiledQuery((db, p: { id: number; tipo: string }) =>
  db
    .selectFrom('documentos')
    .select([
      'id', 'tipo', 'estado', 'fecha', 'ejercicio', 'numero', 'serie_id', 'almacen_id', 'almacen_destino_id', 'familia_id', 'ubicacion_id',
      'proveedor_id', 'cliente_id', 'forma_pago', 'retencion', 'con_recargo',
    ])
    .where('id', '=', p.id)
    .where('tipo', '=', p.tipo)
    .$if(dialectOf(db) === 'postgres', (q) => q.forUpdate()),
);

/** The document row, locked for the rest of the transaction on PostgreSQL (SQLite runs one writer at a time). */
export async function lockDocumento(trx: Transaction<Database>, _dialect: DialectName, def: DocumentoTipoDef, id: number): Promise<DocRow> {
  const [doc] = await leerParaBloquear(trx, { id, tipo: def.tipo });
  if (!doc) throw fail(MESSAGES.notFound, '3');
  return doc;
}

type SaveInput = { id: number | null; fecha: string; clave?: string | null } & Record<string, unknown>;

const COLUMNAS_LINEA = [
  'documento_id', 'orden', 'articulo_id', 'codigo', 'descripcion', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'pendiente', 'almacen_id', 'ubicacion_id',
  'motivo', 'teorico',
] as const;

/** A line's row in COLUMNAS_LINEA's order; `pendiente`: a type that makes children (pedido) has everything pending until received. */
const filaLinea = (docId: number, orden: number, l: LineaValida, pendiente: boolean) => [
  docId, orden, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precio, l.descuento, pendiente ? l.cantidad : 0, null, l.ubicacion_id, l.motivo,
  null,
];

/** Writes lines (batches of 500) and answers their ids in order (only when some line has an origin; else []). */
export async function insertarLineas(trx: Transaction<Database>, docId: number, lineas: readonly LineaValida[], pendiente: boolean): Promise<number[]> {
  for (let i = 0; i < lineas.length; i += CHUNK) {
    await insertarFilas(trx, 'documento_lineas', COLUMNAS_LINEA, lineas.slice(i, i + CHUNK).map((l, j) => filaLinea(docId, i + j + 1, l, pendiente)));
  }
  if (!lineas.some((l) => l.origen_linea_id !== null)) return [];
  const rows = await trx.selectFrom('documento_lineas').select('id').where('documento_id', '=', docId).orderBy('orden').execute();
  return rows.map((r) => r.id);
}

/**
 * insertarLineas for several new documents at once (hfa's invoices): the same rows, in the same order, written in
 * batches of 500 across documents; answers each document's line ids in order.
 */
export async function insertarLineasDe(
  trx: Transaction<Database>,
  docs: readonly { docId: number; lineas: readonly LineaValida[] }[],
  pendiente: boolean,
): Promise<Map<number, number[]>> {
  const filas = docs.flatMap(({ docId, lineas }) => lineas.map((l, i) => filaLinea(docId, i + 1, l, pendiente)));
  for (let i = 0; i < filas.length; i += CHUNK) await insertarFilas(trx, 'documento_lineas', COLUMNAS_LINEA, filas.slice(i, i + CHUNK));
  const ids = new Map<number, number[]>(docs.map((d) => [d.docId, []]));
  for (let i = 0; i < docs.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('documento_lineas')
      .select(['id', 'documento_id'])
      .where('documento_id', 'in', docs.slice(i, i + CHUNK).map((d) => d.docId))
      .orderBy('documento_id')
      .orderBy('orden')
      .execute();
    for (const r of rows) ids.get(r.documento_id)!.push(r.id);
  }
  return ids;
}

/** Totals of a document of this type: commercial documents (with a party) carry IVA and retención; warehouse ones don't. */
const totalesDe = (def: DocumentoTipoDef, lineas: readonly LineaValida[], retencion: unknown, conRecargo: unknown = 0) =>
  def.tercero
    ? calcularTotales(lineas, { retencion: typeof retencion === 'number' ? retencion : 0, recargo: conRecargo === 1 })
    : calcularTotales(lineas, { iva: false });

/** What the party's row gives a sales document's lines: the customer's tarifa and default discount. */
export type TerceroLeido = { tarifa: number; descuento: number };

const leerCliente = compiledQuery((db, p: { id: number }) =>
  db.selectFrom('clientes').select(['activo', 'forma_pago', 'retencion', 'recargo', 'tarifa', 'descuento']).where('id', '=', p.id),
);
const leerProveedor = compiledQuery((db, p: { id: number }) => db.selectFrom('proveedores').select(['activo', 'forma_pago', 'retencion']).where('id', '=', p.id));

/**
 * The party of a document with `def.tercero`: required, existing and active. Read once, it also gives the
 * document its payment method and retención unless the request says otherwise.
 */
async function validarTercero(
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
  }[];
  if (row?.activo !== 1) errors[field] = cliente ? MESSAGES.clienteNoActivo : MESSAGES.proveedorNoActivo;
  header.forma_pago ??= row?.forma_pago ?? null;
  header.retencion ??= row?.retencion ?? 0;
  if (!cliente) return undefined;
  // The customer's recargo de equivalencia always decides the document's (documentos.con_recargo).
  header.con_recargo = row?.recargo === 1 ? 1 : 0;
  return { tarifa: Number(row?.tarifa ?? 1), descuento: Number(row?.descuento ?? 0) };
}

const porClave = compiledQuery((db, p: { clave: string }) => db.selectFrom('documentos').select(['id', 'tipo']).where('clave', '=', p.clave));

/** A new document's row (its columns depend on the type): one compiled INSERT per set of columns. */
const insercionesDocumento = new Map<string, (db: Kysely<Database>, p: Record<string, unknown>) => Promise<{ id: number }[]>>();
export async function insertarDocumento(trx: Transaction<Database>, values: Record<string, unknown>): Promise<number> {
  const key = Object.keys(values).join(',');
  let q = insercionesDocumento.get(key);
  if (!q) {
    q = compiledQuery((db, p: Record<string, unknown>) => (db as AnyDb).insertInto('documentos').values(p).returning('id')) as (
      db: Kysely<Database>,
      p: Record<string, unknown>,
    ) => Promise<{ id: number }[]>;
    insercionesDocumento.set(key, q);
  }
  const [created] = await q(trx, values);
  return created.id;
}

/** editar<entidad>: creates (no id; a repeated `clave` returns the first document) or replaces header and lines. */
export async function guardarDocumento(
  app: AppContext,
  def: DocumentoTipoDef,
  effects: TipoEffects,
  input: SaveInput,
  raw: Record<string, unknown>,
  user: SessionUser,
): Promise<Documento> {
  const clave = input.clave ?? null;
  const byClave = async () => {
    if (input.id !== null || !clave) return undefined;
    const [found] = await porClave(app.db, { clave });
    if (!found) return undefined;
    if (found.tipo !== def.tipo) throw invalidFields({ clave: MESSAGES.duplicated });
    return readDocumento(app.db, def, found.id);
  };
  const existing = await byClave();
  if (existing) return existing;

  let id: number;
  try {
    id = await app.db.transaction().execute(async (trx) => {
      const errors: FieldErrors = {};
      let current: DocRow | undefined;
      let anteriores = new Map<number, EnlaceAnterior>();
      if (input.id !== null) {
        current = await lockDocumento(trx, app.dialect, def, input.id);
        // An issued invoice never changes (docs/fiscal.md): RESULT 2, like data that can't be touched.
        if (!def.editable.includes(current.estado)) throw def.series ? fail(MESSAGES.facturaEmitidaInmutable, '2') : fail(MESSAGES.accionNoPermitida, '1');
        // Lines other documents come from (an albarán with a devolución) are not rewritten.
        const child = await sql<{ x: number }>`select 1 as x from documento_enlaces e join documento_lineas l on l.id = e.padre_linea_id
          where l.documento_id = ${current.id} limit 1`.execute(trx);
        if (child.rows.length) throw fail(TOASTS.associated.text, '2');
        anteriores = await enlacesDe(trx, current.id);
      }
      const header = input as Infer<Schema>;
      // The party first: a sale line's price and discount default to the customer's tarifa and descuento.
      const tercero = await validarTercero(trx, def, header, errors);
      const lineas = await validarLineas(trx, app.dialect, effects, raw.lineas, effects.almacenLineas?.(header) ?? null, errors, anteriores, !!def.negativas, tercero);
      // A sale or purchase line without a location takes the article's usual one in the document's warehouse, as the
      // warehouse documents do: the stock it moves lands where the article is kept, not «sin ubicación».
      const almacenLineas = effects.almacenLineas?.(header) ?? null;
      if (def.tercero && almacenLineas !== null) {
        const sin = lineas.filter((l) => l.ubicacion_id === null);
        const habitual = sin.length ? await ubicacionesHabituales(trx, almacenLineas, sin.map((l) => l.articulo_id)) : new Map<number, number>();
        for (const l of sin) l.ubicacion_id = habitual.get(l.articulo_id) ?? null;
      }
      await validarSerie(trx, def, header.serie_id, errors);
      await effects.validate?.({ trx, header, lineas, errors, raw, user });
      const origenes = await validarOrigenes(trx, def, effects.origenes ?? [], header, lineas, anteriores, current?.id ?? null, errors);
      if (Object.keys(errors).length) throw invalidFields(errors);

      const totales = totalesDe(def, lineas, header.retencion, header.con_recargo);
      const now = nowIso();
      const values: Record<string, unknown> = {
        fecha: input.fecha,
        base: totales.base,
        iva: totales.iva,
        recargo: totales.recargo,
        retencion_importe: totales.retencion_importe,
        total: totales.total,
        desglose: JSON.stringify(totales.desglose),
      };
      for (const c of effects.headerColumns) values[c] = input[c] ?? null;
      const ejercicio = Number(input.fecha.slice(0, 4));
      let docId: number;
      let padres: number[] = [];
      if (!current) {
        // Documents are numbered when they are created, except those of a serie (invoices): drafts until issued.
        const numero = def.series ? null : await siguienteNumero(trx, def.tipo, null, ejercicio, input.fecha);
        const serie_id = def.series ? ((values.serie_id as number | null | undefined) ?? null) : null;
        docId = await insertarDocumento(trx, { ...values, tipo: def.tipo, serie_id, numero, ejercicio, estado: def.inicial, clave, creado: now, creado_por: user.id });
      } else {
        docId = current.id;
        if (ejercicio !== current.ejercicio) {
          values.ejercicio = ejercicio;
          if (!def.series) values.numero = await siguienteNumero(trx, def.tipo, null, ejercicio, input.fecha);
        }
        await (trx as AnyDb).updateTable('documentos').set({ ...values, modificado: now, modificado_por: user.id }).where('id', '=', docId).execute();
        if (anteriores.size) padres = await borrarEnlaces(trx, docId);
        await trx.deleteFrom('documento_lineas').where('documento_id', '=', docId).execute();
      }
      const ids = await insertarLineas(trx, docId, lineas, !!def.hijo);
      padres = [...padres, ...(await guardarEnlaces(trx, lineas, ids, origenes))];
      await actualizarEstadoPadres(trx, padres);
      if (def.stockAlGuardar) {
        await sincronizarStock(trx, app.dialect, def.stockAlGuardar, { tipo: def.tipo, id: docId, almacenId: (values.almacen_id as number | null) ?? null }, null, todayIn(app.timeZone));
        if (def.stockAlGuardar.signo < 0) await comprobarStockNegativo(trx, { documento: { tipo: def.tipo, id: docId } });
      }
      await effects.alGuardar?.({ trx, dialect: app.dialect, docId, raw });
      return docId;
    });
  } catch (err) {
    // The same create sent twice at once: the second finds the first by its key.
    if (!(err instanceof ActionError) && isUniqueViolation(err)) {
      const first = await byClave();
      if (first) return first;
    }
    throw err;
  }
  return (await readDocumento(app.db, def, id))!;
}

/**
 * Removes a document inside `trx`: only in an `eliminable` state, without children, and never once one of
 * its own actions has moved stock (the ledger refers to it). Stock it moved on save is reversed (the
 * difference to nothing); the pending units its lines took from their parents are given back.
 */
export async function borrarDocumento(trx: Transaction<Database>, dialect: DialectName, def: DocumentoTipoDef, id: number, hoy: string): Promise<void> {
  const doc = await lockDocumento(trx, dialect, def, id);
  if (!def.eliminable.includes(doc.estado)) throw fail(def.series ? MESSAGES.facturaEmitidaInmutable : MESSAGES.accionNoPermitida, '2');
  const moved = await sql<{ x: number }>`select 1 as x from stock_movimientos m join documento_acciones a on a.id = m.accion_id
    where a.documento_id = ${id} limit 1`.execute(trx);
  if (moved.rows.length) throw fail(MESSAGES.documentoConHistorial, '2');
  const child = await sql<{ x: number }>`select 1 as x from documento_enlaces e join documento_lineas l on l.id = e.padre_linea_id
    where l.documento_id = ${id} limit 1`.execute(trx);
  if (child.rows.length) throw fail(TOASTS.associated.text, '2');
  if (def.stockAlGuardar) await sincronizarStock(trx, dialect, def.stockAlGuardar, { tipo: def.tipo, id, almacenId: null }, null, hoy);
  const padres = await borrarEnlaces(trx, id);
  await actualizarEstadoPadres(trx, padres);
  await trx.deleteFrom('documento_lineas').where('documento_id', '=', id).execute();
  await trx.deleteFrom('documento_acciones').where('documento_id', '=', id).execute();
  await EFFECTS.get(def.tipo)?.alBorrar?.({ trx, docId: id });
  await trx.deleteFrom('documentos').where('id', '=', id).execute();
}

/** eliminar<entidad>. */
export async function eliminarDocumento(app: AppContext, def: DocumentoTipoDef, id: number): Promise<void> {
  await app.db.transaction().execute((trx) => borrarDocumento(trx, app.dialect, def, id, todayIn(app.timeZone)));
}

/**
 * The serie of a draft invoice `facturar` makes: the request's `serie_id` (checked), else the first active serie
 * of the child type's first kind by code (normal for facturas); null when there is none (emitir asks for it).
 */
async function serieDelHijo(ctx: EffectContext, hijoDef: DocumentoTipoDef): Promise<number | null> {
  const pedida = ctx.raw.serie_id;
  if (pedida !== undefined && pedida !== null && pedida !== '') {
    const errors: FieldErrors = {};
    const id = toInt(pedida);
    await validarSerie(ctx.trx, hijoDef, id ?? -1, errors);
    if (Object.keys(errors).length) throw invalidFields(errors);
    return id;
  }
  const s = await ctx.trx
    .selectFrom('series')
    .select('id')
    .where('tipo', '=', hijoDef.series![0])
    .where('activo', '=', 1)
    .orderBy('codigo')
    .limit(1)
    .executeTakeFirst();
  return s?.id ?? null;
}

/**
 * The child a porLineas action of a type with `def.hijo` makes (recibir on a pedido → albarán de
 * compra): the received quantities as its lines, linked line by line, the parent lines' pending
 * units taken, the child's stock on save and its after-save effects. Set-based: one insert of the
 * lines, one of the links, one ledger statement, one pending update. `facturar` uses it too, with
 * everything pending: the child is then a draft invoice (a type with `series`: no number yet).
 * `extra`: lines the caller adds after the linked ones (a parte's hours), without a parent.
 */
export async function crearHijo(ctx: EffectContext, user: SessionUser = ctx.user, extra: readonly LineaValida[] = []): Promise<EffectResult> {
  const { trx, def, doc } = ctx;
  const hijoDef = DOCUMENTO_TIPOS[def.hijo!];
  const lineas = await trx
    .selectFrom('documento_lineas')
    .select(['id', 'articulo_id', 'codigo', 'descripcion', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'pendiente', 'ubicacion_id', 'motivo'])
    .where('documento_id', '=', doc.id)
    .orderBy('orden')
    .execute();
  const own = new Set(lineas.map((l) => l.id));
  if (ctx.lineas) for (const id of ctx.lineas.keys()) if (!own.has(id)) throw fail(MESSAGES.lineaOtroDocumento, '1', 400);
  const tomadas = lineas.map((l) => ({ l, q: ctx.lineas ? (ctx.lineas.get(l.id) ?? 0) : l.pendiente }));
  const servir = ctx.accion.verbo === 'servir';
  if (tomadas.some(({ l, q }) => q > l.pendiente)) throw fail(servir ? MESSAGES.servirMasDePendiente : MESSAGES.recibirMasDePendiente, '1', 400);
  const hijas = tomadas.filter(({ q }) => q > 0);
  if (!hijas.length && !extra.length) {
    throw fail(ctx.accion.verbo === 'facturar' ? MESSAGES.nadaQueFacturarDocumento : servir ? MESSAGES.nadaQueServir : MESSAGES.nadaQueRecibir, '1', 400);
  }

  const nuevas: LineaValida[] = hijas.map(({ l, q }) => ({
    articulo_id: l.articulo_id,
    codigo: l.codigo,
    descripcion: l.descripcion,
    tipo_iva: l.tipo_iva as TipoIva,
    familia_id: null,
    cantidad: q,
    precio: l.precio,
    descuento: l.descuento,
    ubicacion_id: l.ubicacion_id,
    motivo: l.motivo,
    origen_linea_id: l.id,
  }));
  nuevas.push(...extra);
  const totales = totalesDe(hijoDef, nuevas, doc.retencion, doc.con_recargo);
  const ejercicio = Number(ctx.hoy.slice(0, 4));
  // A draft invoice has no number until it is issued; other children are numbered now.
  const numero = hijoDef.series ? null : await siguienteNumero(trx, hijoDef.tipo, null, ejercicio, ctx.hoy);
  const serie_id = hijoDef.series ? await serieDelHijo(ctx, hijoDef) : null;
  const created = await trx
    .insertInto('documentos')
    .values({
      tipo: hijoDef.tipo, serie_id, numero, ejercicio, fecha: ctx.hoy, estado: hijoDef.inicial, creado: nowIso(), creado_por: user.id,
      almacen_id: doc.almacen_id, almacen_destino_id: null, familia_id: null, ubicacion_id: null,
      proveedor_id: doc.proveedor_id, cliente_id: doc.cliente_id, forma_pago: doc.forma_pago, fecha_entrega: null,
      retencion: doc.retencion, con_recargo: doc.con_recargo as 0 | 1, observaciones: null,
      base: totales.base, iva: totales.iva, recargo: totales.recargo, retencion_importe: totales.retencion_importe, total: totales.total,
      desglose: JSON.stringify(totales.desglose), clave: null, modificado: null, modificado_por: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = await insertarLineas(trx, created.id, nuevas, !!hijoDef.hijo);
  await guardarEnlaces(trx, nuevas, ids, new Map());
  if (hijoDef.stockAlGuardar) {
    await sincronizarStock(trx, ctx.dialect, hijoDef.stockAlGuardar, { tipo: hijoDef.tipo, id: created.id, almacenId: doc.almacen_id }, ctx.accionId, ctx.hoy);
  }
  await EFFECTS.get(hijoDef.tipo)?.alGuardar?.({ trx, dialect: ctx.dialect, docId: created.id });
  const pendiente = hijas.map(({ l, q }) => [l.id, -q] as [number, number]);
  await addToLines(trx, 'pendiente', pendiente);
  const queda = tomadas.some(({ l, q }) => l.pendiente - q > 0);
  return { estado: queda ? ctx.accion.toParcial : ctx.accion.to, detalle: { hijo: created.id } };
}

/** Parses `lineas: [{id, cantidad}]` of a porLineas action. */
function cantidadesPorLinea(raw: unknown): Map<number, number> | null {
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

/** <verbo><entidad>: one transaction that checks the state, applies the effects (or the undo), logs it and sets the state. */
export async function ejecutarAccion(
  app: AppContext,
  def: DocumentoTipoDef,
  effects: TipoEffects,
  accion: AccionDef,
  id: number,
  raw: Record<string, unknown>,
  user: SessionUser,
): Promise<Documento> {
  const lineas = accion.porLineas ? cantidadesPorLinea(raw.lineas) : null;
  await app.db.transaction().execute((trx) => ejecutarAccionEn(trx, app, def, effects, accion, id, lineas, user, raw));
  return (await readDocumento(app.db, def, id))!;
}

/** The same inside a transaction of the caller's (hcp finishes several documents in one). */
export async function ejecutarAccionEn(
  trx: Transaction<Database>,
  app: Pick<AppContext, 'dialect' | 'timeZone'>,
  def: DocumentoTipoDef,
  effects: TipoEffects,
  accion: AccionDef,
  id: number,
  lineas: Map<number, number> | null,
  user: SessionUser,
  raw: Record<string, unknown> = {},
): Promise<void> {
  const doc = await lockDocumento(trx, app.dialect, def, id);
  if (!accion.from.includes(doc.estado)) throw fail(MESSAGES.accionNoPermitida, '1');
  await effects.antesDe?.[accion.verbo]?.({ trx, doc });
  const hoy = todayIn(app.timeZone);
  const [log] = await registrarAccion(trx, { documento_id: id, accion: accion.verbo, fecha: nowIso(), usuario_id: user.id, estado_antes: doc.estado });
  let estado: string;
  let numero: EffectResult['numero'];
  if (accion.undoes) {
    const target = await trx
      .selectFrom('documento_acciones')
      .select(['id', 'estado_antes', 'detalle'])
      .where('documento_id', '=', id)
      .where('accion', '=', accion.undoes)
      .where('deshecha_por', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!target) throw fail(MESSAGES.accionNoPermitida, '1');
    const detalle = (target.detalle ? JSON.parse(target.detalle) : {}) as Detalle;
    if (detalle.hijo !== undefined) {
      // The child it created goes, while it can (Pendiente, no children of its own): its stock and the pending units it took come back.
      const hijoDef = DOCUMENTO_TIPOS[def.hijo!];
      const hijo = await trx.selectFrom('documentos').select('id').where('id', '=', detalle.hijo).executeTakeFirst();
      if (hijo) await borrarDocumento(trx, app.dialect, hijoDef, hijo.id, hoy);
    } else {
      await reverseLedger(trx, target.id, log.id, hoy);
    }
    if (detalle.pendiente) await addToLines(trx, 'pendiente', detalle.pendiente.map(([lineId, d]) => [lineId, -d] as const));
    if (detalle.teorico) await trx.updateTable('documento_lineas').set({ teorico: null }).where('documento_id', '=', id).execute();
    await trx.updateTable('documento_acciones').set({ deshecha_por: log.id }).where('id', '=', target.id).execute();
    estado = target.estado_antes;
  } else {
    // A type with a child makes it by its porLineas action (recibir, servir) or, everything pending, by `facturar`.
    const hace = def.hijo && (accion.porLineas || accion.verbo === 'facturar');
    const effect = effects.acciones[accion.verbo] ?? (hace ? (ctx: EffectContext) => crearHijo(ctx, user) : undefined);
    const result = effect ? await effect({ trx, dialect: app.dialect, def, accion, doc, accionId: log.id, hoy, lineas, raw, user, timeZone: app.timeZone }) : {};
    estado = result.estado ?? accion.to ?? doc.estado;
    numero = result.numero;
    if (result.detalle && Object.keys(result.detalle).length) {
      await trx.updateTable('documento_acciones').set({ detalle: JSON.stringify(result.detalle) }).where('id', '=', log.id).execute();
    }
  }
  await comprobarStockNegativo(trx, { accionId: log.id });
  const cambio = { id, estado, modificado: nowIso(), modificado_por: user.id };
  if (numero) await cambiarEstadoYNumero(trx, { ...cambio, ...numero });
  else await cambiarEstado(trx, cambio);
}

const registrarAccion = compiledQuery(
  (db, p: { documento_id: number; accion: string; fecha: string; usuario_id: number; estado_antes: string }) =>
    db
      .insertInto('documento_acciones')
      .values({ documento_id: p.documento_id, accion: p.accion, fecha: p.fecha, usuario_id: p.usuario_id, estado_antes: p.estado_antes, detalle: null, deshecha_por: null })
      .returning('id'),
);

const cambiarEstado = compiledQuery((db, p: { id: number; estado: string; modificado: string; modificado_por: number }) =>
  db.updateTable('documentos').set({ estado: p.estado, modificado: p.modificado, modificado_por: p.modificado_por }).where('id', '=', p.id),
);

const cambiarEstadoYNumero = compiledQuery(
  (db, p: { id: number; estado: string; modificado: string; modificado_por: number; numero: number; ejercicio: number; tipo_factura: string | null }) =>
    db
      .updateTable('documentos')
      .set({ estado: p.estado, modificado: p.modificado, modificado_por: p.modificado_por, numero: p.numero, ejercicio: p.ejercicio, tipo_factura: p.tipo_factura })
      .where('id', '=', p.id),
);

const FILTROS = {
  estado: { type: 'string', max: 40 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
  almacen_id: { type: 'int', min: 1 },
  proveedor_id: { type: 'int', min: 1 },
  cliente_id: { type: 'int', min: 1 },
  serie_id: { type: 'int', min: 1 },
} as const satisfies Schema;

/** listado<plural>: a page of the type's documents (or one with `id`), with the filtered rows' total value. */
async function listadoDocumentos(app: AppContext, def: DocumentoTipoDef, input: Infer<ReturnType<typeof listSchema<readonly ['fecha', 'numero', 'estado']>> & typeof FILTROS>) {
  if (input.id !== null) {
    const doc = await readDocumento(app.db, def, input.id);
    if (!doc) throw fail(MESSAGES.notFound, '3');
    return { RESULT: '0' as const, data: [doc], total: 1 };
  }
  const db = app.db as AnyDb;
  const filters: RawBuilder<boolean>[] = [sql<boolean>`d.tipo = ${def.tipo}`];
  if (input.q) {
    const n = /^\d{1,9}$/.test(input.q.trim()) ? Number(input.q.trim()) : /\/0*(\d{1,9})$/.exec(input.q.trim())?.[1];
    // With a party, its name too (a scan of the party table, through the documents' party index).
    const texto = def.tercero
      ? sql<boolean>`(${contains('d.observaciones', input.q)} or d.${sql.raw(`${def.tercero}_id`)} in (select tq.id from ${sql.table(TERCERO_TABLA[def.tercero])} tq
          where ${contains('tq.razon_social', input.q)} or ${contains('tq.nombre_comercial', input.q)}))`
      : contains('d.observaciones', input.q);
    // A whole displayed number of a serie ('A 2026/000012'): that serie, year and number only.
    const entero = def.series ? /^(\S{1,20})\s+(\d{4})\/0*(\d{1,9})$/.exec(input.q.trim()) : null;
    if (entero) {
      filters.push(sql<boolean>`(d.numero = ${Number(entero[3])} and d.ejercicio = ${Number(entero[2])}
        and d.serie_id in (select sq.id from series sq where sq.codigo = ${entero[1].toUpperCase()}))`);
    } else filters.push(n !== undefined ? sql<boolean>`(d.numero = ${Number(n)} or ${texto})` : texto);
  }
  if (input.proveedor_id !== null) filters.push(sql<boolean>`d.proveedor_id = ${input.proveedor_id}`);
  if (input.cliente_id !== null) filters.push(sql<boolean>`d.cliente_id = ${input.cliente_id}`);
  if (input.estado) filters.push(sql<boolean>`d.estado = ${input.estado}`);
  if (input.desde) filters.push(sql<boolean>`d.fecha >= ${input.desde}`);
  if (input.hasta) filters.push(sql<boolean>`d.fecha <= ${input.hasta}`);
  if (input.almacen_id !== null) filters.push(sql<boolean>`(d.almacen_id = ${input.almacen_id} or d.almacen_destino_id = ${input.almacen_id})`);
  if (input.serie_id !== null) filters.push(sql<boolean>`d.serie_id = ${input.serie_id}`);
  filters.push(...(EFFECTS.get(def.tipo)?.filtrar?.(input, todayIn(app.timeZone)) ?? []));
  const where = sql<boolean>`${sql.join(filters, sql` and `)}`;
  const sums = await db
    .selectFrom('documentos as d')
    .select([sql<number>`count(*)`.as('n'), sql<string>`cast(coalesce(sum(d.total), 0) as text)`.as('total')])
    .where(where)
    .executeTakeFirstOrThrow();
  const p = paging(input);
  const orden = input.orden === 'numero' ? ['d.ejercicio', 'd.numero'] : [`d.${input.orden ?? 'fecha'}`];
  let page = selectHeader(db, def)
    .select(sql<number>`(select count(*) from documento_lineas l where l.documento_id = d.id)`.as('num_lineas'))
    .where(where);
  // Drafts (no number yet) after the numbered ones, on both engines (they sort nulls differently).
  if (def.series && input.orden === 'numero') page = page.orderBy(sql`case when d.numero is null then 1 else 0 end`, p.dir);
  for (const c of orden) page = page.orderBy(c, p.dir);
  const rows = await page.orderBy('d.id', p.dir).limit(p.limit).offset(p.offset).execute();
  const data = rows.map((r) => Object.assign(toDocumento(def, r as HeaderRow), { num_lineas: Number(r.num_lineas) }));
  if (def.series) await numerosCorregidas(app.db, data);
  return {
    RESULT: '0' as const,
    data,
    total: Number(sums.n),
    totales: { total: Number(sums.total) },
  };
}

const idInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

/** Editing a large count (20.000 lines) needs more than Fastify's 1 MiB. */
const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

/** The op.asp actions of one document type: listado<plural>, editar / eliminar<entidad>, and one per verb of its table. */
export function documentoActions<S extends Schema>(def: DocumentoTipoDef, effects: TipoEffects<S>): Action<Schema>[] {
  const eff = effects as unknown as TipoEffects;
  EFFECTS.set(def.tipo, eff);
  const flags = [...def.flags] as FlagName[];
  const listInput = { ...listSchema(['fecha', 'numero', 'estado'] as const), ...FILTROS, ...(effects.filtros ?? {}) } as const satisfies Schema;
  return [
    defineAction({
      name: `listado${def.plural}`,
      method: 'GET',
      flags,
      input: listInput,
      handler: async ({ input, app }) => listadoDocumentos(app, def, input),
    }),
    defineAction({
      name: `editar${def.entidad}`,
      method: 'POST',
      flags,
      input: effects.schema,
      bodyLimit: EDIT_BODY_LIMIT,
      async handler({ input, raw, app, user }) {
        const doc = await guardarDocumento(app, def, eff, input as unknown as SaveInput, raw, user!);
        return { RESULT: '0', data: [doc] };
      },
    }),
    defineAction({
      name: `eliminar${def.entidad}`,
      method: 'POST',
      flags,
      input: idInput,
      async handler({ input, app }) {
        await eliminarDocumento(app, def, input.id);
        return { RESULT: '0', data: [{ id: input.id }] };
      },
    }),
    ...def.acciones.map((accion) =>
      defineAction({
        name: `${accion.verbo}${def.entidad}`,
        method: 'POST',
        flags: accion.flag ? [...flags, accion.flag] : flags,
        input: idInput,
        async handler({ input, raw, app, user }) {
          const doc = await ejecutarAccion(app, def, eff, accion, input.id, raw, user!);
          return { RESULT: '0', data: [doc] };
        },
      }),
    ),
  ];
}
