import type { Cobro, Plazo } from '../cobros';
import type { TipoIva } from '../catalogo';
import type { EmisionDocumento } from '../emision';
import type { Operacion } from '../operaciones';
import type { Schema } from '../validation';
import type { DocumentoTipoDef, Verbo } from './motor';
import type { DocumentoTipo } from './registro';

/** The document's model: header, lines, links, the actions' log, and what the engine's protocol carries. */

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

/** Displayed number: 'MOV 2026/000012', or 'A 2026/000012' with a serie code. */
export function numeroDocumento(prefijo: string, ejercicio: number, numero: number | null): string {
  if (numero === null) return 'Borrador';
  return `${prefijo} ${ejercicio}/${String(numero).padStart(6, '0')}`;
}
