import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type {
  AccionDef,
  Documento,
  DocumentoTipo,
  DocumentoTipoDef,
  FieldErrors,
  Infer,
  Schema,
  Operacion,
  TipoIva,
  Verbo,
} from 'shared/domain';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import type { SessionUser } from '../session.ts';

/**
 * The document engine (docs/documentos.md): one generic listado / editar / eliminar / <verbo> per
 * document type, generated from its definition in DOCUMENTO_TIPOS (shared/src/domain/documentos/<tipo>.ts) and the
 * type's effects. Every action runs in one transaction: read the state from the table, check the
 * states-and-actions table, apply the effects (ledger rows, pending quantities), log the action,
 * set the state. Undo (an action with `undoes`) is generic: it reverses the latest not-undone run
 * of the verb it undoes.
 */
// The engine's files: tipos.ts (what a type gives it, the registry of types), lectura.ts (reading and listing),
// validacion.ts (lines, party, serie), numeracion.ts (counters), guardar.ts (editar / eliminar with lines, links and
// stock), acciones.ts (<verbo>: effects, children, undo). engine.ts re-exports them for the op.asp actions.

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
  /** What the link to it takes when less than the line's quantity (units received beyond the order). */
  cantidad_enlace?: number;
  /** Sales lines (issue 16): S1, S2, E1-E6, N1, N2; null on other documents. */
  operacion?: Operacion | null;
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
  /**
   * Before anything is validated: header fields the type takes from elsewhere when the request leaves them out (a
   * rectificativa's customer and warehouse, from the invoice it corrects).
   */
  completar?(ctx: { trx: Transaction<Database>; header: Infer<S> }): Promise<void>;
  /** Type-specific checks of header and lines, adding to ctx.errors (keys `campo` or `lineas.N.campo`). */
  validate?(ctx: ValidateContext<S>): Promise<void>;
  /** The effects of each verb that is not an undo. */
  acciones: Partial<Record<Verbo, (ctx: EffectContext) => Promise<EffectResult>>>;
  /**
   * Checks before a verb runs (undos too), once its state is allowed: throw to refuse it (an albarán
   * covered by a supplier invoice is not un-finished by hand).
   */
  antesDe?: Partial<Record<Verbo, (ctx: { trx: Transaction<Database>; doc: DocRow }) => Promise<void>>>;
  /** After a verb ran and the document has its new state (an invoice issued at the counter is paid). */
  despuesDe?: Partial<Record<Verbo, (ctx: { trx: Transaction<Database>; doc: DocRow; user: SessionUser }) => Promise<void>>>;
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
  /**
   * After links to its lines were removed (a child annulled or deleted: `borrarEnlaces`): what the type derives from
   * them, recomputed (a ticket's Devuelto / Devuelto parcial when its R5 is annulled).
   */
  alQuitarEnlaces?(ctx: { trx: Transaction<Database>; docId: number }): Promise<void>;
  /** A record read by id (`listado<plural>&id=`, and every action's answer): what the type adds (an invoice's registro…). */
  alLeer?(ctx: { db: Kysely<Database>; doc: Documento }): Promise<void>;
  /** A page of listado<plural> (without `id`): what the type adds to each row (a ticket's time of sale and terminal), in one read. */
  alListar?(ctx: { db: Kysely<Database>; docs: Documento[] }): Promise<void>;
  /** Extra filters of listado<plural> (facturas: `cobro`), and the conditions they add (`hoy`: today in the business's time zone). */
  filtros?: Schema;
  filtrar?(input: Record<string, unknown>, hoy: string): RawBuilder<boolean>[];
};

/** Every type's effects by tipo (each type's file registers its own): the engine finds a child type's effects here. */
const EFFECTS = new Map<string, TipoEffects>();

/** A document type the engine runs: its row of DOCUMENTO_TIPOS and its effects (actions/documentos.ts makes its op.asp actions). */
export type TipoRegistrado = { def: DocumentoTipoDef; effects: TipoEffects };

/** Registers a type's effects with the engine (once, where the type is defined). */
export function registrarTipo<S extends Schema>(def: DocumentoTipoDef, effects: TipoEffects<S>): TipoRegistrado {
  const eff = effects as unknown as TipoEffects;
  EFFECTS.set(def.tipo, eff);
  return { def, effects: eff };
}

/** The effects of a registered type (a child's, a linked document's). */
export const efectosDe = (tipo: string): TipoEffects | undefined => EFFECTS.get(tipo);


/** Party tables by `def.tercero`. */
export const TERCERO_TABLA = { proveedor: 'proveedores', cliente: 'clientes' } as const;

// biome-ignore lint/suspicious/noExplicitAny: the engine's SQL is generic over document types
export type AnyDb = Kysely<any>;

/** Rows per statement when lines or ids go in batches. */
export const CHUNK = 500;
