import {
  DOCUMENTO_TIPOS,
  documentoVentaSchema,
  pantallaDeTipo,
  tiposDeSeccion,
  type DireccionesDocumento,
  type DocumentoTipo,
  type PantallaDocumento,
  type Schema,
} from 'shared';

/** The sales documents' header fields (shared with the server's check; facturas/ reads them from here too). */
export { documentoVentaSchema };

/**
 * The header's fields: the common ones, the customer, its terms as text (`condiciones`: tarifa, discount,
 * recargo) and, in a parte, who did the work.
 */
export type CampoVenta =
  | 'cliente_id'
  | 'condiciones'
  | 'usuario_id'
  | 'almacen_id'
  | 'fecha'
  | 'fecha_entrega'
  | 'forma_pago'
  | 'retencion'
  | 'observaciones';

/**
 * What differs between the sales documents' screens (pedidos, albaranes, devoluciones, partes); the screens are one
 * list and one record. Addresses, routes, flag gate, label and description come from the type's definition
 * (`pantalla` in shared/src/domain/documentos/<tipo>.ts).
 */
export type Pantalla = PantallaDocumento<CampoVenta> &
  DireccionesDocumento & {
    schema: Schema;
    /** The lines editor shows the stock available (stock − reserved) beside each quantity: goods that leave. */
    disponible: boolean;
  };

const CAMPOS: readonly CampoVenta[] = ['cliente_id', 'condiciones', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'];

/** What a sales type's screens show unless it says otherwise below. */
const COMUN = { campos: CAMPOS, schema: documentoVentaSchema as Schema, disponible: true };

/** Each type's own fields, where they differ from COMUN. */
const PROPIAS: Partial<Record<DocumentoTipo, Partial<typeof COMUN>>> = {
  pedidoventa: {
    campos: ['cliente_id', 'condiciones', 'almacen_id', 'fecha', 'fecha_entrega', 'forma_pago', 'retencion', 'observaciones'],
    schema: { ...documentoVentaSchema, fecha_entrega: { type: 'date' } },
  },
  devolucionventa: { disponible: false },
  parte: {
    campos: ['cliente_id', 'condiciones', 'fecha', 'usuario_id', 'almacen_id', 'observaciones'],
    schema: {
      id: documentoVentaSchema.id,
      fecha: documentoVentaSchema.fecha,
      cliente_id: documentoVentaSchema.cliente_id,
      usuario_id: { type: 'int', required: true, min: 1 },
      almacen_id: documentoVentaSchema.almacen_id,
      observaciones: documentoVentaSchema.observaciones,
      clave: documentoVentaSchema.clave,
    },
  },
};

/** The types of the section with screens of their own (facturas/): not mounted on the shared document screens. */
const CON_PANTALLA_PROPIA: readonly DocumentoTipo[] = [DOCUMENTO_TIPOS.factura.tipo, DOCUMENTO_TIPOS.rectificativa.tipo];

/** The sales documents this part of the remote shows: every type of the section ventas but facturas and rectificativas. */
export const PANTALLAS: Partial<Record<DocumentoTipo, Pantalla>> = Object.fromEntries(
  tiposDeSeccion('ventas')
    .filter((def) => !CON_PANTALLA_PROPIA.includes(def.tipo))
    .map((def): [DocumentoTipo, Pantalla] => [def.tipo, { ...pantallaDeTipo(def), ...COMUN, ...PROPIAS[def.tipo] }]),
);
