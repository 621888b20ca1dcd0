import type { FlagName } from '../flags';
import type { MenuArea } from '../menu';
import type { SerieTipo } from '../entities';
import type { DocumentoTipo } from './registro';

/**
 * The document engine's contract (docs/documentos.md): one model, one table of states and actions
 * per document type, one totals function. The server executes this table; record screens show
 * exactly the actions it allows from the current state; lists and reports read the same labels.
 * A new document type is one file of this folder (its definition: states, actions, flags, screens and menu entry),
 * its name in registro.ts, and its effects on the server (docs/recetas.md, recipe 2).
 *
 * Scales (integers): quantities in thousandths, unit prices and costs in ten-thousandths, amounts in
 * cents, percentages in hundredths.
 */

/** Verbs of `<verbo><entidad>` (op.asp), as the protocol table of docs/documentos.md names them. */
export const VERBOS = [
  'enviar',
  'deshacerenvio',
  'recibir',
  'deshacerrecepcion',
  'confirmar',
  'deshacerconfirmacion',
  'servir',
  'deshacerservicio',
  'finalizar',
  'deshacerfinalizacion',
  'emitir',
  'anular',
  'facturar',
  'deshacerfacturacion',
] as const;
export type Verbo = (typeof VERBOS)[number];

export type EstadoDef = {
  id: string;
  /** The specification's word: Pendiente, Creado, Enviado, Recibido parcial… */
  label: string;
  tone: 'info' | 'ok' | 'off' | 'warning';
};

export type AccionDef = {
  verbo: Verbo;
  /** Button label: 'Enviar', 'Deshacer envío'… */
  label: string;
  /** States it can run from. */
  from: readonly string[];
  /** State after it; for a partial action (recibir, servir) the state while something stays pending. */
  to?: string;
  toParcial?: string;
  /** The verb whose latest run this one reverses (its ledger rows, pending quantities and state). */
  undoes?: Verbo;
  /** Lines the user may pick with quantities (partial receipt): `lineas: [{ id, cantidad }]`. */
  porLineas?: boolean;
  /** Asked before running it. */
  confirm?: string;
  /** Offered as a secondary action (an invoice's «Anular»: «Rectificar» is what a correction needs). */
  secundaria?: boolean;
  /** Another flag it needs beside the type's. */
  flag?: FlagName;
};

/** Column sets the lines editor shows for a type. */
export type LineaModo = 'coste' | 'venta' | 'compra' | 'recuento' | 'perdida';

export type DocumentoTipoDef = {
  tipo: DocumentoTipo;
  /** Entity key of the protocol, one word: editar<entidad>, <verbo><entidad>. */
  entidad: string;
  /** Listing key: listado<plural>. */
  plural: string;
  singular: string;
  pluralLabel: string;
  femenino: boolean;
  /** Prefix of the displayed number when the type has no serie: MOV 2026/000012. */
  prefijo: string;
  /**
   * The record screen's address without the id: '/almacenes/movimiento' (the list of an article's movements links to it).
   * With `pantalla`, `/<seccion>/<segment>`: the record's route, and the "nuevo" one under it, are derived from it.
   */
  ruta: string;
  /** What the server requires for every action of the type (op.asp answers 403 otherwise); the screens' too, unless `pantalla.flags`. */
  flags: readonly FlagName[];
  estados: readonly EstadoDef[];
  inicial: string;
  /** States in which header and lines can be changed. */
  editable: readonly string[];
  /** States in which it can be deleted (and it has no children). */
  eliminable: readonly string[];
  acciones: readonly AccionDef[];
  lineas: LineaModo;
  /** The party of the document: its id travels as proveedor_id / cliente_id. */
  tercero?: 'proveedor' | 'cliente';
  /**
   * Stock moved when the document is saved (albaranes, devoluciones): +1 enters the header's warehouse,
   * −1 leaves it, with this ledger cause. Editing the lines later writes only the difference.
   */
  stockAlGuardar?: { signo: 1 | -1; causa: string };
  /**
   * The document type the "porLineas" action creates as a child, linked line by line (recibir → albarán,
   * servir → albarán de venta); for invoiceable documents, the draft invoice `facturar` creates.
   */
  hijo?: DocumentoTipo;
  /**
   * Numbered by a serie when issued (facturas, rectificativas): the serie kinds it may use. While a draft it
   * has no number ('Borrador'); `emitir` takes the next number of (tipo, serie, ejercicio). Without it the
   * type is numbered with its `prefijo` when created.
   */
  series?: readonly SerieTipo[];
  /**
   * Invoiceable documents (albaranes, devoluciones, partes de venta): the states they go between as their
   * lines are linked by invoice lines (facturar, hfa, a rectificativa) and unlinked (the draft deleted).
   */
  facturable?: { pendiente: string; facturado: string };
  /** Lines may have negative quantities (invoices: hfa's returned units, a rectificativa by differences). */
  negativas?: boolean;
  /** Its screens on the engine's list and record, in a section remote: absent for a type with screens of its own (the ticket). */
  pantalla?: PantallaDef;
};

/** The remotes that mount the engine's screens; each is the section `/<seccion>` (its menu.json prefix). */
export const SECCIONES_DOCUMENTOS = ['almacenes', 'compras', 'ventas'] as const;
export type SeccionDocumentos = (typeof SECCIONES_DOCUMENTOS)[number];

/**
 * Where a type's screens live, as data: its section, its list's address, its menu entry and what the screens say. The
 * remote's routes (`rutasDocumentos`), its `paths`, its generated `menu.json` and the screens' flag gate all derive
 * from it (registro.ts: `direccionesDocumento`, `entradaMenuDocumento`).
 */
export type PantallaDef = {
  seccion: SeccionDocumentos;
  /** The list's segment under the section: 'pedidos' → /ventas/pedidos (the menu entry's path). */
  lista: string;
  /** The "nuevo" screen's segment under the record's: 'nuevo-pedido' → /ventas/pedido/nuevo-pedido. */
  nuevo: string;
  /** The menu entry: its label, its place among the section's entries (menu.base.json has the others'), who sees it. */
  menu: { label: string; orden: number; area?: MenuArea };
  /** The "nuevo" button: 'Nuevo pedido', 'Nueva pérdida'. */
  nuevoLabel: string;
  /** The list's description. */
  description: string;
  /** The flags its screens and its menu entry need when they are not `flags` (the section's own is part of both). */
  flags?: readonly FlagName[];
};
