import {
  documentoCompraSchema,
  pantallaDeTipo,
  tiposDeSeccion,
  type DireccionesDocumento,
  type DocumentoTipo,
  type PantallaDocumento,
  type Schema,
} from 'shared';

export type CampoCompra = 'proveedor_id' | 'almacen_id' | 'fecha' | 'fecha_entrega' | 'forma_pago' | 'retencion' | 'observaciones' | 'albaran_proveedor';

/**
 * What differs between the purchase documents' screens; the screens themselves are one list and one record.
 * Addresses, routes, flag gate, label and description come from the type's definition (`pantalla` in
 * shared/src/domain/documentos/<tipo>.ts).
 */
export type Pantalla = PantallaDocumento<CampoCompra> & DireccionesDocumento & { schema: Schema };

const CAMPOS: readonly CampoCompra[] = ['proveedor_id', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'];

/** What a purchase type's screens show unless it says otherwise below. */
const COMUN = { campos: CAMPOS, schema: documentoCompraSchema as Schema };

/** Each type's own fields, where they differ from COMUN. */
const PROPIAS: Partial<Record<DocumentoTipo, Partial<typeof COMUN>>> = {
  pedidocompra: {
    campos: ['proveedor_id', 'almacen_id', 'fecha', 'fecha_entrega', 'forma_pago', 'retencion', 'observaciones'],
    schema: { ...documentoCompraSchema, fecha_entrega: { type: 'date' } },
  },
  albarancompra: {
    // Issue 17: the supplier's own delivery-note number, as its invoice will list it.
    campos: ['proveedor_id', 'albaran_proveedor', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'],
    schema: { ...documentoCompraSchema, albaran_proveedor: { type: 'string', max: 60 } },
  },
};

/** The purchase documents this remote shows: every type of the section compras. */
export const PANTALLAS: Partial<Record<DocumentoTipo, Pantalla>> = Object.fromEntries(
  tiposDeSeccion('compras').map((def): [DocumentoTipo, Pantalla] => [def.tipo, { ...pantallaDeTipo(def), ...COMUN, ...PROPIAS[def.tipo] }]),
);
