import type { Cobro, Plazo } from './cobros';
import type { FlagName } from './flags';
import { IVA_RATE, TIPOS_IVA, type TipoIva } from './catalogo';
import { divRound } from './decimal';
import type { Schema } from './validation';
import type { SerieTipo } from './entities';
import type { EmisionDocumento } from './emision';
import { OPERACIONES, conCuota, type Operacion } from './operaciones';

/**
 * The document engine's contract (docs/documentos.md): one model, one table of states and actions
 * per document type, one totals function. The server executes this table; record screens show
 * exactly the actions it allows from the current state; lists and reports read the same labels.
 * A new document type is a new entry of DOCUMENTO_TIPOS plus its effects on the server.
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
  /** The record screen's address without the id: '/almacenes/movimiento' (the list of an article's movements links to it). */
  ruta: string;
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
};

export const DOCUMENTO_TIPOS_ALMACEN = ['movimiento', 'inventario', 'perdida'] as const;
export const DOCUMENTO_TIPOS_COMPRA = ['pedidocompra', 'albarancompra', 'devolucioncompra'] as const;
export const DOCUMENTO_TIPOS_VENTA = ['pedidoventa', 'albaranventa', 'factura', 'devolucionventa', 'rectificativa', 'parte'] as const;
/** The till's (issue 13): a ticket is a factura simplificada (F2) issued at the counter; its returns are R5 rectificativas. */
export const DOCUMENTO_TIPOS_TPV = ['ticket'] as const;
export type DocumentoTipo =
  | (typeof DOCUMENTO_TIPOS_ALMACEN)[number]
  | (typeof DOCUMENTO_TIPOS_COMPRA)[number]
  | (typeof DOCUMENTO_TIPOS_VENTA)[number]
  | (typeof DOCUMENTO_TIPOS_TPV)[number];

const pendiente: EstadoDef = { id: 'pendiente', label: 'Pendiente', tone: 'info' };
const finalizado: EstadoDef = { id: 'finalizado', label: 'Finalizado', tone: 'ok' };
const borrador: EstadoDef = { id: 'borrador', label: 'Borrador', tone: 'info' };
const emitida: EstadoDef = { id: 'emitida', label: 'Emitida', tone: 'ok' };
const anulada: EstadoDef = { id: 'anulada', label: 'Anulada', tone: 'off' };
const EMITIR_CONFIRM = 'Se le asignará el siguiente número de su serie y su registro de facturación. Una vez emitida no se podrá modificar ni eliminar.';
const ANULAR_CONFIRM =
  'Anule solo una factura que nunca debió existir (emitida por error, repetida o a quien no era): se registrará su anulación ante la AEAT y su número queda usado. Si la venta existió y cambia algo (unidades devueltas, un precio, un descuento, los datos del cliente), no la anule: haga una rectificativa con «Rectificar».';

export const DOCUMENTO_TIPOS: Record<DocumentoTipo, DocumentoTipoDef> = {
  movimiento: {
    tipo: 'movimiento',
    entidad: 'movimiento',
    plural: 'movimientos',
    // A transfer between warehouses, as the clerk names it («Movimientos» is the warehouse's ledger).
    singular: 'Traspaso',
    pluralLabel: 'Traspasos',
    femenino: false,
    prefijo: 'MOV',
    ruta: '/almacenes/movimiento',
    flags: ['almacenes'],
    estados: [
      { id: 'creado', label: 'Creado', tone: 'info' },
      { id: 'enviado', label: 'Enviado', tone: 'warning' },
      { id: 'recibido_parcial', label: 'Recibido parcial', tone: 'warning' },
      { id: 'recibido', label: 'Recibido', tone: 'ok' },
    ],
    inicial: 'creado',
    editable: ['creado'],
    eliminable: ['creado'],
    acciones: [
      { verbo: 'enviar', label: 'Enviar', from: ['creado'], to: 'enviado', confirm: 'El stock saldrá del almacén de origen y quedará en tránsito.' },
      {
        verbo: 'deshacerenvio',
        label: 'Deshacer envío',
        from: ['enviado'],
        undoes: 'enviar',
        confirm: 'El stock en tránsito volverá al almacén de origen.',
      },
      { verbo: 'recibir', label: 'Recibir', from: ['enviado', 'recibido_parcial'], to: 'recibido', toParcial: 'recibido_parcial', porLineas: true },
      {
        verbo: 'deshacerrecepcion',
        label: 'Deshacer recepción',
        from: ['recibido_parcial', 'recibido'],
        undoes: 'recibir',
        confirm: 'Se deshará la última recepción: lo recibido saldrá del almacén de destino y volverá a quedar en tránsito.',
      },
    ],
    lineas: 'coste',
  },
  inventario: {
    tipo: 'inventario',
    entidad: 'inventario',
    plural: 'inventarios',
    singular: 'Inventario',
    pluralLabel: 'Inventarios',
    femenino: false,
    prefijo: 'INV',
    ruta: '/almacenes/inventario',
    flags: ['almacenes'],
    estados: [pendiente, finalizado],
    inicial: 'pendiente',
    editable: ['pendiente'],
    eliminable: ['pendiente'],
    acciones: [
      {
        verbo: 'finalizar',
        label: 'Finalizar',
        from: ['pendiente'],
        to: 'finalizado',
        confirm: 'Se ajustará el stock de cada línea contada a la cantidad contada.',
      },
      {
        verbo: 'deshacerfinalizacion',
        label: 'Deshacer finalización',
        from: ['finalizado'],
        undoes: 'finalizar',
        confirm: 'Se anulará el ajuste del recuento: el stock de cada línea volverá a ser el de antes de finalizarlo.',
      },
    ],
    lineas: 'recuento',
  },
  perdida: {
    tipo: 'perdida',
    entidad: 'perdida',
    plural: 'perdidas',
    singular: 'Pérdida',
    pluralLabel: 'Pérdidas',
    femenino: true,
    prefijo: 'PER',
    ruta: '/almacenes/perdida',
    flags: ['almacenes'],
    estados: [pendiente, finalizado],
    inicial: 'pendiente',
    editable: ['pendiente'],
    eliminable: ['pendiente'],
    acciones: [
      { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'El stock de las líneas saldrá del almacén.' },
      {
        verbo: 'deshacerfinalizacion',
        label: 'Deshacer finalización',
        from: ['finalizado'],
        undoes: 'finalizar',
        confirm: 'El stock de las líneas volverá a entrar en el almacén.',
      },
    ],
    lineas: 'perdida',
  },
  pedidocompra: {
    tipo: 'pedidocompra',
    entidad: 'pedidocompra',
    plural: 'pedidoscompra',
    singular: 'Pedido de compra',
    pluralLabel: 'Pedidos de compra',
    femenino: false,
    prefijo: 'PC',
    ruta: '/compras/pedido',
    flags: ['compras', 'compras_pedidos'],
    estados: [
      { id: 'creado', label: 'Creado', tone: 'info' },
      { id: 'enviado', label: 'Enviado', tone: 'warning' },
      { id: 'recibido_parcial', label: 'Recibido parcial', tone: 'warning' },
      { id: 'recibido', label: 'Recibido', tone: 'ok' },
      finalizado,
    ],
    inicial: 'creado',
    editable: ['creado'],
    eliminable: ['creado'],
    acciones: [
      { verbo: 'enviar', label: 'Enviar', from: ['creado'], to: 'enviado' },
      { verbo: 'deshacerenvio', label: 'Deshacer envío', from: ['enviado'], undoes: 'enviar' },
      { verbo: 'recibir', label: 'Recibir', from: ['creado', 'enviado', 'recibido_parcial'], to: 'recibido', toParcial: 'recibido_parcial', porLineas: true },
      {
        verbo: 'deshacerrecepcion',
        label: 'Deshacer recepción',
        from: ['recibido_parcial', 'recibido'],
        undoes: 'recibir',
        confirm: 'Se deshará la última recepción: se eliminará el albarán que creó y su stock saldrá del almacén.',
      },
      {
        verbo: 'finalizar',
        label: 'Finalizar',
        from: ['enviado', 'recibido_parcial', 'recibido'],
        to: 'finalizado',
        confirm: 'Lo que quede pendiente de recibir se dará por cerrado.',
      },
      { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
    ],
    lineas: 'compra',
    tercero: 'proveedor',
    hijo: 'albarancompra',
  },
  albarancompra: {
    tipo: 'albarancompra',
    entidad: 'albarancompra',
    plural: 'albaranescompra',
    singular: 'Albarán de compra',
    pluralLabel: 'Albaranes de compra',
    femenino: false,
    prefijo: 'AC',
    ruta: '/compras/albaran',
    flags: ['compras'],
    estados: [pendiente, finalizado],
    inicial: 'pendiente',
    editable: ['pendiente'],
    eliminable: ['pendiente'],
    acciones: [
      { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'El albarán quedará cerrado y no se podrá modificar.' },
      { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
    ],
    lineas: 'compra',
    tercero: 'proveedor',
    stockAlGuardar: { signo: 1, causa: 'compra' },
  },
  devolucioncompra: {
    tipo: 'devolucioncompra',
    entidad: 'devolucioncompra',
    plural: 'devolucionescompra',
    singular: 'Devolución de compra',
    pluralLabel: 'Devoluciones de compra',
    femenino: true,
    prefijo: 'DC',
    ruta: '/compras/devolucion',
    flags: ['compras', 'compras_devoluciones'],
    estados: [pendiente, finalizado],
    inicial: 'pendiente',
    editable: ['pendiente'],
    eliminable: ['pendiente'],
    acciones: [
      { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'La devolución quedará cerrada y no se podrá modificar.' },
      { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
    ],
    lineas: 'compra',
    tercero: 'proveedor',
    stockAlGuardar: { signo: -1, causa: 'devolucion_compra' },
  },
  pedidoventa: {
    tipo: 'pedidoventa',
    entidad: 'pedidoventa',
    plural: 'pedidosventa',
    singular: 'Pedido de venta',
    pluralLabel: 'Pedidos de venta',
    femenino: false,
    prefijo: 'PV',
    ruta: '/ventas/pedido',
    flags: ['ventas', 'ventas_pedidos'],
    estados: [
      pendiente,
      { id: 'confirmado', label: 'Confirmado', tone: 'info' },
      { id: 'enviado_parcial', label: 'Enviado parcial', tone: 'warning' },
      { id: 'enviado', label: 'Enviado total', tone: 'ok' },
      finalizado,
    ],
    inicial: 'pendiente',
    // A confirmed order can still change (the customer calls to add a line) until something is served.
    editable: ['pendiente', 'confirmado'],
    eliminable: ['pendiente'],
    acciones: [
      { verbo: 'confirmar', label: 'Confirmar', from: ['pendiente'], to: 'confirmado' },
      { verbo: 'deshacerconfirmacion', label: 'Deshacer confirmación', from: ['confirmado'], undoes: 'confirmar' },
      { verbo: 'servir', label: 'Servir', from: ['confirmado', 'enviado_parcial'], to: 'enviado', toParcial: 'enviado_parcial', porLineas: true },
      {
        verbo: 'deshacerservicio',
        label: 'Deshacer servicio',
        from: ['enviado_parcial', 'enviado'],
        undoes: 'servir',
        confirm: 'Se deshará el último servicio: se eliminará el albarán que creó y su stock volverá al almacén.',
      },
      {
        verbo: 'finalizar',
        label: 'Finalizar',
        from: ['confirmado', 'enviado_parcial', 'enviado'],
        to: 'finalizado',
        confirm: 'Lo que quede pendiente de servir se dará por cerrado y dejará de estar reservado.',
      },
      { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
    ],
    lineas: 'venta',
    tercero: 'cliente',
    hijo: 'albaranventa',
  },
  albaranventa: {
    tipo: 'albaranventa',
    entidad: 'albaranventa',
    plural: 'albaranesventa',
    singular: 'Albarán de venta',
    pluralLabel: 'Albaranes de venta',
    femenino: false,
    prefijo: 'AV',
    ruta: '/ventas/albaran',
    flags: ['ventas', 'ventas_albaranes'],
    estados: [pendiente, { id: 'finalizado', label: 'Finalizado', tone: 'ok' }],
    inicial: 'pendiente',
    editable: ['pendiente'],
    eliminable: ['pendiente'],
    acciones: [
      {
        verbo: 'facturar',
        label: 'Facturar',
        from: ['pendiente'],
        to: 'finalizado',
        flag: 'ventas_facturas',
        confirm: 'Se creará una factura en borrador con las líneas del albarán.',
      },
      { verbo: 'deshacerfacturacion', label: 'Deshacer facturación', from: ['finalizado'], undoes: 'facturar', flag: 'ventas_facturas' },
    ],
    lineas: 'venta',
    tercero: 'cliente',
    stockAlGuardar: { signo: -1, causa: 'venta' },
    hijo: 'factura',
    facturable: { pendiente: 'pendiente', facturado: 'finalizado' },
  },
  factura: {
    tipo: 'factura',
    entidad: 'factura',
    plural: 'facturas',
    singular: 'Factura',
    pluralLabel: 'Facturas',
    femenino: true,
    prefijo: 'F',
    ruta: '/ventas/factura',
    flags: ['ventas', 'ventas_facturas'],
    estados: [borrador, emitida, anulada],
    inicial: 'borrador',
    editable: ['borrador'],
    eliminable: ['borrador'],
    acciones: [
      { verbo: 'emitir', label: 'Emitir', from: ['borrador'], to: 'emitida', confirm: EMITIR_CONFIRM },
      { verbo: 'anular', label: 'Anular', from: ['emitida'], to: 'anulada', confirm: ANULAR_CONFIRM, secundaria: true },
    ],
    lineas: 'venta',
    tercero: 'cliente',
    series: ['normal', 'simplificada'],
    negativas: true,
  },
  devolucionventa: {
    tipo: 'devolucionventa',
    entidad: 'devolucionventa',
    plural: 'devolucionesventa',
    singular: 'Devolución de venta',
    pluralLabel: 'Devoluciones de venta',
    femenino: true,
    prefijo: 'DV',
    ruta: '/ventas/devolucion',
    flags: ['ventas', 'ventas_devoluciones'],
    estados: [pendiente, finalizado],
    inicial: 'pendiente',
    editable: ['pendiente'],
    eliminable: ['pendiente'],
    // Invoiced by hfa (negative lines) or by a rectificativa that names its lines: no hand action.
    acciones: [],
    lineas: 'venta',
    tercero: 'cliente',
    stockAlGuardar: { signo: 1, causa: 'devolucion_venta' },
    facturable: { pendiente: 'pendiente', facturado: 'finalizado' },
  },
  rectificativa: {
    tipo: 'rectificativa',
    entidad: 'rectificativa',
    plural: 'rectificativas',
    singular: 'Factura rectificativa',
    pluralLabel: 'Rectificativas',
    femenino: true,
    prefijo: 'R',
    ruta: '/ventas/rectificativa',
    flags: ['ventas', 'ventas_facturas'],
    estados: [borrador, emitida, anulada],
    inicial: 'borrador',
    editable: ['borrador'],
    eliminable: ['borrador'],
    acciones: [
      { verbo: 'emitir', label: 'Emitir', from: ['borrador'], to: 'emitida', confirm: EMITIR_CONFIRM },
      { verbo: 'anular', label: 'Anular', from: ['emitida'], to: 'anulada', confirm: ANULAR_CONFIRM, secundaria: true },
    ],
    lineas: 'venta',
    tercero: 'cliente',
    series: ['rectificativa'],
    negativas: true,
  },
  parte: {
    tipo: 'parte',
    entidad: 'parte',
    plural: 'partes',
    singular: 'Parte de trabajo',
    pluralLabel: 'Partes de trabajo',
    femenino: false,
    prefijo: 'PT',
    ruta: '/ventas/partes-de-trabajo',
    flags: ['ventas', 'partes_trabajo'],
    estados: [pendiente, finalizado, { id: 'facturado', label: 'Facturado', tone: 'ok' }],
    inicial: 'pendiente',
    editable: ['pendiente'],
    eliminable: ['pendiente'],
    acciones: [
      { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'Los materiales usados saldrán del almacén.' },
      { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
      {
        verbo: 'facturar',
        label: 'Facturar',
        from: ['finalizado'],
        to: 'facturado',
        flag: 'ventas_facturas',
        confirm: 'Se creará una factura en borrador con las horas y los materiales del parte.',
      },
      { verbo: 'deshacerfacturacion', label: 'Deshacer facturación', from: ['facturado'], undoes: 'facturar', flag: 'ventas_facturas' },
    ],
    lineas: 'venta',
    tercero: 'cliente',
    hijo: 'factura',
    facturable: { pendiente: 'finalizado', facturado: 'facturado' },
  },
  ticket: {
    tipo: 'ticket',
    entidad: 'ticket',
    plural: 'tickets',
    singular: 'Ticket',
    pluralLabel: 'Tickets',
    femenino: false,
    prefijo: 'T',
    ruta: '/ventas/ticket',
    flags: ['tpv'],
    // Made and issued in one transaction by subirtickets (the engine's `emitir`): a ticket is never a draft on screen.
    estados: [
      { id: 'borrador', label: 'Borrador', tone: 'info' },
      { id: 'emitido', label: 'Emitido', tone: 'ok' },
      { id: 'devuelto_parcial', label: 'Devuelto parcial', tone: 'warning' },
      { id: 'devuelto', label: 'Devuelto', tone: 'off' },
      // Replaced by a full invoice (F3) at the customer's request: the ticket stays issued, its F3 names it.
      { id: 'facturado', label: 'Facturado', tone: 'ok' },
    ],
    inicial: 'borrador',
    editable: [],
    eliminable: [],
    acciones: [{ verbo: 'emitir', label: 'Emitir', from: ['borrador'], to: 'emitido' }],
    lineas: 'venta',
    tercero: 'cliente',
    series: ['simplificada'],
  },
};

/**
 * The fiscal documents: the types numbered by a serie when issued (facturas, rectificativas; tickets when they
 * come), each with its VERI*FACTU record. A restore may never lose one (server/src/fiscal/restaurar.ts).
 */
export const DOCUMENTO_TIPOS_FISCALES: readonly DocumentoTipo[] = Object.values(DOCUMENTO_TIPOS)
  .filter((d) => d.series)
  .map((d) => d.tipo);

/** 'la factura', 'el ticket': a document's kind as a sentence names it. */
export function conArticulo(def: DocumentoTipoDef): string {
  return `${def.femenino ? 'la' : 'el'} ${def.singular.toLowerCase()}`;
}

/** The record screen of a document: '/almacenes/movimiento/12'; null for a type this build doesn't know. */
export function rutaDocumento(tipo: string | null, id: number | null): string | null {
  const def = tipo ? DOCUMENTO_TIPOS[tipo as DocumentoTipo] : undefined;
  return def && id ? `${def.ruta}/${id}` : null;
}

/** The actions the table allows from a state (what the record screen shows). */
export function accionesDesde(def: DocumentoTipoDef, estado: string): AccionDef[] {
  return def.acciones.filter((a) => a.from.includes(estado));
}

export function estadoLabel(def: DocumentoTipoDef, estado: string): string {
  return def.estados.find((e) => e.id === estado)?.label ?? estado;
}

/** Reasons of a pérdida line. */
export const MOTIVOS_PERDIDA = ['rotura', 'caducidad', 'robo', 'otros'] as const;
export type MotivoPerdida = (typeof MOTIVOS_PERDIDA)[number];
export const MOTIVO_PERDIDA_LABEL: Record<MotivoPerdida, string> = { rotura: 'Rotura', caducidad: 'Caducidad', robo: 'Robo', otros: 'Otros' };

/** Causes of the stock ledger rows (stock_movimientos.causa) and their Spanish labels. */
export const CAUSA_LABEL: Record<string, string> = {
  inicial: 'Stock inicial',
  ajuste: 'Ajuste',
  inventario: 'Inventario',
  traspaso: 'Traspaso',
  perdida: 'Pérdida',
  kit: 'Kit',
  compra: 'Compra',
  devolucion_compra: 'Devolución de compra',
  venta: 'Venta',
  devolucion_venta: 'Devolución de venta',
  factura: 'Factura',
  rectificativa: 'Rectificativa',
  parte: 'Parte de trabajo',
};

export type DocumentoLinea = {
  id: number;
  orden: number;
  articulo_id: number;
  /** Copied from the article when the line is written. */
  codigo: string;
  descripcion: string;
  tipo_iva: TipoIva;
  /** Thousandths. Inventario: the counted quantity. */
  cantidad: number;
  /** Ten-thousandths: unit cost (warehouse documents) or price. */
  precio: number;
  /** Hundredths of a percent. */
  descuento: number;
  /** What is still to be received / served / invoiced, thousandths. */
  pendiente: number;
  /** Where it differs from the header's. */
  ubicacion_id: number | null;
  ubicacion_codigo?: string | null;
  /** Pérdida: rotura, caducidad, robo, otros. */
  motivo: MotivoPerdida | null;
  /** Inventario: the theoretical stock when it was finished (thousandths); null before. */
  teorico: number | null;
  /** A line made from another document's line (a devolución's albarán line, a receipt's pedido line). */
  origen_linea_id?: number | null;
  /** What later documents already returned of this line (thousandths), when the server tells. */
  devuelto?: number;
  /** Issue 16, sales lines: S1, S2, E1-E6, N1, N2 (null: stored before, S1 or E1 for «exento»). */
  operacion?: Operacion | null;
};

/**
 * One group of the totals: per rate for S1, per operation for the rest (issue 16). `operacion` is absent on documents
 * whose lines carry none (purchases, tickets, invoices saved before issue 16: S1, or E1 for «exento»).
 */
export type DesgloseIva = { tipo_iva: TipoIva; base: number; iva: number; recargo: number; operacion?: Operacion };

export type Totales = {
  base: number;
  iva: number;
  recargo: number;
  retencion_importe: number;
  total: number;
  desglose: DesgloseIva[];
};

export type Documento = Totales & {
  id: number;
  tipo: DocumentoTipo;
  /** Displayed number: 'MOV 2026/000012' (serie, year and number for series documents). */
  numero: string;
  ejercicio: number;
  /** 'aaaa-mm-dd'. */
  fecha: string;
  estado: string;
  serie_id: number | null;
  almacen_id: number | null;
  almacen_nombre?: string | null;
  almacen_destino_id: number | null;
  almacen_destino_nombre?: string | null;
  /** Inventario: counts only this familia / location. */
  familia_id: number | null;
  familia_nombre?: string | null;
  ubicacion_id: number | null;
  ubicacion_codigo?: string | null;
  cliente_id: number | null;
  proveedor_id: number | null;
  /** The party's name and NIF, answered with documents that have one (lists and records). */
  proveedor_nombre?: string | null;
  proveedor_nif?: string | null;
  cliente_nombre?: string | null;
  cliente_nif?: string | null;
  forma_pago: string | null;
  fecha_entrega: string | null;
  /** Hundredths of a percent. */
  retencion: number;
  /** 0/1: the customer pays recargo de equivalencia. */
  con_recargo: 0 | 1;
  observaciones: string | null;
  /** What the customer's or supplier's PDF prints (issue 17); the internal observaciones never print there. */
  observaciones_cliente?: string | null;
  clave: string | null;
  creado: string;
  creado_por_nombre?: string | null;
  modificado: string | null;
  /** Who saved it or ran an action on it last (read with `&id=`). */
  modificado_por_nombre?: string | null;
  /** Number of lines (lists). */
  num_lineas?: number;
  /** Only when read with `&id=`. */
  lineas?: DocumentoLinea[];
  /** Only when read with `&id=`: the actions run on it, oldest first. */
  historial?: DocumentoAccionLog[];
  /** Only when read with `&id=` (and after an action that creates one): documents linked to this one, line by line. */
  padres?: DocumentoEnlace[];
  hijos?: DocumentoEnlace[];

  // Ventas (issue 8).
  /** The serie's code (facturas, rectificativas): the displayed number is `${serie_codigo} ${ejercicio}/${numero}`. */
  serie_codigo?: string | null;
  /** Facturas and rectificativas: F1, F2 (simplificada), R1-R5. Set when emitted. */
  tipo_factura?: TipoFactura | null;
  /** Rectificativa: the invoice it corrects, and how. */
  factura_id?: number | null;
  factura_numero?: string | null;
  modo_rectificacion?: ModoRectificacion | null;
  /** Issue 16: a rectificativa of several invoices: the further ones' ids, a JSON array ('[12,15]'). */
  facturas_rectificadas?: string | null;
  /** Facturas: when and how it was paid (null: unpaid). */
  cobro_fecha?: string | null;
  cobro_forma?: string | null;
  /** Issue 17: what is left to collect (cents; a rectificativa's negative: a refund owed) and the instalments paid. */
  por_cobrar?: number;
  plazos_cubiertos?: number;
  /** Albarán de compra: the supplier's own delivery-note number (issue 17). */
  albaran_proveedor?: string | null;
  /** Facturas and rectificativas read by id, once issued: the invoice's account (shared/domain/cobros.ts). */
  cuenta?: CuentaCobro | null;
  /** Parte de trabajo: the user who did the work, and the hours per proceso. */
  usuario_id?: number | null;
  usuario_nombre?: string | null;
  horas?: ParteHora[];
  /** Issue 16: an issued invoice's parties as they were at emission (its reprints print these, not today's records). */
  emision?: EmisionDocumento | null;
  /** Issue 16: the date of the deliveries an invoice of earlier albaranes invoices (its record's FechaOperacion). */
  fecha_operacion?: string | null;
  /** Facturas and rectificativas once emitted (or anuladas): their latest registro de facturación. */
  registro?: {
    id: number;
    tipo: 'alta' | 'anulacion';
    huella: string;
    fecha_hora_huso: string;
    /** What the fiscal QR prints (from the invoice's registro de alta): issuer NIF, NumSerieFactura, dd-mm-aaaa, ImporteTotal ('123.45'). */
    id_emisor?: string;
    num_serie?: string;
    fecha_expedicion?: string;
    importe_total?: string | null;
    /** Submission (issue 9): where the record stands with the AEAT and its answer. */
    estado_envio?: string | null;
    codigo_error?: string | null;
    descripcion_error?: string | null;
    /** Tickets and their R5 (issue 13, `listadotickets&id=`): the record's XML and the QR's URL. */
    xml?: string;
    qr_url?: string;
    /**
     * Issue 22: what its record was made for, frozen at creation (registros_facturacion.entorno/demo/verifactu; the
     * registro de alta's for an annulled invoice): the QR's host and the legend (presentacionQr), never the setting of
     * the day. Absent: never printed as production.
     */
    entorno?: 'pruebas' | 'produccion';
    demo?: number;
    verifactu?: number;
  } | null;
};

/** An invoice's account: what is owed netting its rectificativas, the instalments, the cobros and refunds (cents). */
export type CuentaCobro = {
  factura_id: number;
  factura_numero: string;
  importe: number;
  cobrado: number;
  /** > 0 the customer owes; < 0 a refund is owed to the customer. */
  saldo: number;
  plazos: Plazo[];
  cobros: Cobro[];
  rectificativas: { id: number; numero: string; total: number; modo: string | null }[];
};

/** Kinds of invoice of the VERI*FACTU record (TipoFactura of SuministroInformacion.xsd). */
export const TIPOS_FACTURA = ['F1', 'F2', 'F3', 'R1', 'R2', 'R3', 'R4', 'R5'] as const;
export type TipoFactura = (typeof TIPOS_FACTURA)[number];
export const TIPO_FACTURA_LABEL: Record<TipoFactura, string> = {
  F1: 'F1 · Factura completa',
  F2: 'F2 · Factura simplificada',
  F3: 'F3 · Factura en sustitución de simplificadas',
  R1: 'R1 · Error fundado en derecho (art. 80.1, 80.2 y 80.6)',
  R2: 'R2 · Concurso de acreedores (art. 80.3)',
  R3: 'R3 · Créditos incobrables (art. 80.4)',
  R4: 'R4 · Resto de causas',
  R5: 'R5 · Rectificativa de factura simplificada',
};
/** A rectificativa by differences (only what changes, negative where it reduces) or by substitution (the whole corrected invoice). */
export const MODOS_RECTIFICACION = ['diferencias', 'sustitucion'] as const;
export type ModoRectificacion = (typeof MODOS_RECTIFICACION)[number];
export const MODO_RECTIFICACION_LABEL: Record<ModoRectificacion, string> = { diferencias: 'Por diferencias', sustitucion: 'Por sustitución' };

/** Hours of a parte de trabajo per proceso: time × cost. */
export type ParteHora = {
  id?: number;
  proceso_id: number;
  proceso_nombre?: string;
  /** Thousandths of an hour. */
  horas: number;
  /** Ten-thousandths of a euro per hour (the proceso's coste by default). */
  precio: number;
};

/** The displayed number of a document, from the type's prefix or its serie's code. */
export function numeroDe(def: DocumentoTipoDef, d: { ejercicio: number; numero: number | null; serie_codigo?: string | null }): string {
  return numeroDocumento(def.series ? (d.serie_codigo ?? def.prefijo) : def.prefijo, d.ejercicio, d.numero);
}

/** A linked document (the pedido an albarán comes from, the albarán a receipt made, a devolución of it). */
export type DocumentoEnlace = { tipo: DocumentoTipo; id: number; numero: string; estado?: string; fecha?: string };

export type DocumentoAccionLog = {
  id: number;
  accion: Verbo;
  fecha: string;
  usuario_nombre: string | null;
  /** Id of the action that undid this one. */
  deshecha_por: number | null;
};

/** One line of `editar<entidad>`'s `lineas`. */
export type LineaInput = {
  articulo_id: number;
  cantidad: number;
  precio?: number;
  descuento?: number;
  ubicacion_id?: number | null;
  motivo?: MotivoPerdida | null;
  descripcion?: string;
  /**
   * The parent line it comes from: a devolución's albarán line (at most what was received or sold and not yet
   * returned), an invoice's albarán / devolución / parte line, a rectificativa's invoice line.
   */
  origen_linea_id?: number | null;
  /** Sales lines (issue 16): S1, S2, E1-E6, N1, N2; absent: the article's, else the customer's, else S1 (E1 if exento). */
  operacion?: Operacion | null;
};

/** Header fields of `editar<entidad>` for the warehouse documents (lines travel apart, as `lineas`). */
export const documentoAlmacenSchema = {
  id: { type: 'int', min: 1 },
  fecha: { type: 'date', required: true },
  almacen_id: { type: 'int', required: true, min: 1 },
  almacen_destino_id: { type: 'int', min: 1 },
  familia_id: { type: 'int', min: 1 },
  ubicacion_id: { type: 'int', min: 1 },
  observaciones: { type: 'string', max: 2000 },
  clave: { type: 'string', max: 64 },
} satisfies Schema;

/** Largest number of lines in one document. */
export const MAX_LINEAS = 20_000;

/**
 * Recargo de equivalencia per IVA rate, hundredths of a percent: 5,2 / 1,4 / 0,5 %, and 1,75 % for tobacco (art. 161
 * LIVA). IGIC and IPSI have none (the Canary retailers' special regime charges no surcharge on the invoice).
 */
export const RECARGO_RATE: Record<TipoIva, bigint> = {
  '21': 520n, '10': 140n, '4': 50n, exento: 0n, tabaco: 175n,
  igic_0: 0n, igic_3: 0n, igic_7: 0n, igic_9_5: 0n, igic_15: 0n, igic_20: 0n,
  ipsi_0_5: 0n, ipsi_1: 0n, ipsi_2: 0n, ipsi_4: 0n, ipsi_8: 0n, ipsi_10: 0n,
};

/** Net amount of a line at scale 11 (quantity 3 × price 4 × (100 % − discount) 4): exact, not rounded. */
function lineaNeta11(l: { cantidad: number | bigint; precio: number | bigint; descuento?: number | bigint }): bigint {
  // cantidad (3) × precio (4) = scale 7; × (10000 − descuento) / 10000 keeps scale 7 exactly with a scale-11 intermediate.
  const bruto = BigInt(l.cantidad) * BigInt(l.precio);
  const dto = BigInt(l.descuento ?? 0);
  return dto === 0n ? bruto * 10000n : bruto * (10000n - dto);
}

/**
 * The one totals function (docs/fiscal.md): group lines by IVA rate (issue 16: S1 lines by rate, the others by their
 * operation, which charges no tax); each group's base rounded to cents; IVA and recargo half-up per group;
 * retención on the sum of bases; total = Σ(base + IVA + recargo) − retención. Exact (BigInt), whatever the number of
 * lines.
 */
export function calcularTotales(
  lineas: readonly { cantidad: number | bigint; precio: number | bigint; descuento?: number | bigint; tipo_iva: TipoIva; operacion?: Operacion | null }[],
  opciones: { retencion?: number | bigint; recargo?: boolean; iva?: boolean } = {},
): Totales {
  // Scale 11 sums per group: exact until the one rounding to cents of each group. Key: the rate (lines without an
  // operation), 'S1:rate', or the operation.
  const grupos = new Map<string, bigint>();
  for (const l of lineas) {
    const op = l.operacion ?? null;
    const k = op === null ? l.tipo_iva : op === 'S1' ? `S1:${l.tipo_iva}` : op;
    grupos.set(k, (grupos.get(k) ?? 0n) + lineaNeta11(l));
  }
  const desglose: DesgloseIva[] = [];
  let base = 0n;
  let iva = 0n;
  let recargo = 0n;
  const conIva = opciones.iva !== false;
  for (const { k, tipo, op } of ORDEN_GRUPOS) {
    const suma = grupos.get(k);
    if (suma === undefined) continue;
    const b = divRound(suma, 10n ** 9n);
    const cobra = conIva && (op === undefined || conCuota(op));
    const i = cobra ? divRound(b * IVA_RATE[tipo], 10000n) : 0n;
    const r = cobra && opciones.recargo ? divRound(b * RECARGO_RATE[tipo], 10000n) : 0n;
    desglose.push({ tipo_iva: tipo, base: Number(b), iva: Number(i), recargo: Number(r), ...(op ? { operacion: op } : {}) });
    base += b;
    iva += i;
    recargo += r;
  }
  const retencion = divRound(base * BigInt(opciones.retencion ?? 0), 10000n);
  return {
    base: Number(base),
    iva: Number(iva),
    recargo: Number(recargo),
    retencion_importe: Number(retencion),
    total: Number(base + iva + recargo - retencion),
    desglose,
  };
}

/** The totals' groups in print order: rates without an operation, S1 by rate, then each other operation. */
const TASAS = TIPOS_IVA;
const ORDEN_GRUPOS: readonly { k: string; tipo: TipoIva; op?: Operacion }[] = [
  ...TASAS.map((t) => ({ k: t as string, tipo: t })),
  ...TASAS.map((t) => ({ k: `S1:${t}`, tipo: t, op: 'S1' as const })),
  ...OPERACIONES.filter((o) => o !== 'S1').map((o) => ({ k: o as string, tipo: 'exento' as TipoIva, op: o })),
];

/** Displayed number: 'MOV 2026/000012', or 'A 2026/000012' with a serie code. */
export function numeroDocumento(prefijo: string, ejercicio: number, numero: number | null): string {
  if (numero === null) return 'Borrador';
  return `${prefijo} ${ejercicio}/${String(numero).padStart(6, '0')}`;
}
