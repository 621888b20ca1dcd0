import {
  DOCUMENTO_TIPOS,
  MODOS_RECTIFICACION,
  TIPOS_FACTURA,
  pantallaDeTipo,
  type DireccionesDocumento,
  type PantallaDocumento,
  type Schema,
  type SerieTipo,
} from 'shared';
import { documentoVentaSchema } from '../documentos/pantallas';

/** Header fields of `editarfactura`: a sales document's and its serie (lines travel apart, as `lineas`). */
export const facturaSchema = { ...documentoVentaSchema, serie_id: { type: 'int', required: true, min: 1 } } satisfies Schema;

/** The rectificativa's R1-R5 kinds. */
export const TIPOS_RECTIFICATIVA = TIPOS_FACTURA.filter((t) => t.startsWith('R'));

/**
 * `editarrectificativa`: the invoice's fields plus the invoice it corrects, its kind and how. The form keeps
 * kind and mode under the names the document answers (`tipo_factura`, `modo_rectificacion`); they travel as
 * `tipo` and `modo` (see `cuerpoRectificativa`).
 */
export const rectificativaSchema = {
  ...facturaSchema,
  factura_id: { type: 'int', required: true, min: 1 },
  tipo_factura: { type: 'enum', required: true, values: TIPOS_RECTIFICATIVA },
  modo_rectificacion: { type: 'enum', required: true, values: MODOS_RECTIFICACION },
  // Issue 16: the customer's further invoices it corrects (a rappel), their ids comma-separated.
  facturas_rectificadas: { type: 'string', max: 2000 },
} satisfies Schema;

export type CampoFactura =
  | 'serie_id'
  | 'cliente_id'
  | 'factura_id'
  | 'tipo_factura'
  | 'modo_rectificacion'
  | 'facturas_rectificadas'
  | 'almacen_id'
  | 'fecha'
  | 'forma_pago'
  | 'retencion'
  | 'observaciones';

/** What differs between the invoice and the rectificativa screens (addresses, routes, flags and texts: their definitions'). */
export type PantallaFactura = PantallaDocumento<CampoFactura> &
  DireccionesDocumento & {
  schema: Schema;
  /** Kinds of serie it is numbered in. */
  series: readonly SerieTipo[];
};

export const FACTURA: PantallaFactura = {
  ...pantallaDeTipo(DOCUMENTO_TIPOS.factura),
  campos: ['serie_id', 'cliente_id', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'],
  schema: facturaSchema,
  series: DOCUMENTO_TIPOS.factura.series ?? ['normal', 'simplificada'],
};

export const RECTIFICATIVA: PantallaFactura = {
  ...pantallaDeTipo(DOCUMENTO_TIPOS.rectificativa),
  campos: ['serie_id', 'cliente_id', 'factura_id', 'tipo_factura', 'modo_rectificacion', 'facturas_rectificadas', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'],
  schema: rectificativaSchema,
  series: DOCUMENTO_TIPOS.rectificativa.series ?? ['rectificativa'],
};

/** The body's names of a rectificativa's kind and mode (the form keeps the document's). */
export const cuerpoRectificativa = (values: Record<string, string>) => ({ tipo: values.tipo_factura || null, modo: values.modo_rectificacion || null });

/** The screen of a document of the invoice family by its type. */
export const pantallaDe = (tipo: string) => (tipo === 'rectificativa' ? RECTIFICATIVA : FACTURA);
