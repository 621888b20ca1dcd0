import { direccionesDocumento, type DireccionesDocumento, type DocumentoTipoDef } from '../domain/documentos';

/**
 * The header fields every section's document screen may show, drawn by `DocumentRecordPage` from `campos`
 * (the party: its name and a search; choosing one copies its forma de pago and retención).
 */
export type CampoCabecera =
  | 'proveedor_id'
  | 'cliente_id'
  | 'fecha'
  | 'almacen_id'
  | 'almacen_destino_id'
  | 'fecha_entrega'
  | 'forma_pago'
  | 'retencion'
  | 'observaciones';

/**
 * A document type's screens as data: what its list and its record need. A section's own `Pantalla`
 * extends it (its schema, routes, flags); a new document type is one more of these, not another screen.
 */
export type PantallaDocumento<C extends string = string> = {
  def: DocumentoTipoDef;
  list: string;
  nuevo: string;
  record: (id: number | string) => string;
  /** 'Nuevo movimiento', 'Nueva pérdida'. */
  nuevoLabel: string;
  description: string;
  /** Header fields shown, in order: the common ones (`CampoCabecera`) and the section's own (`renderCampo`). */
  campos: readonly C[];
};

/**
 * What a type's definition says of its screens (`def.pantalla`): its addresses, its routes, the flags they are gated
 * behind, its "nuevo" label and its description. A section's `Pantalla` spreads it and adds its own (campos, schema…).
 *
 * @example
 * const pedido: Pantalla = { ...pantallaDeTipo(DOCUMENTO_TIPOS.pedidoventa), campos: CAMPOS, schema: documentoVentaSchema };
 */
export function pantallaDeTipo(def: DocumentoTipoDef): Omit<PantallaDocumento, 'campos'> & DireccionesDocumento {
  const direcciones = direccionesDocumento(def);
  return { def, ...direcciones, nuevoLabel: def.pantalla?.nuevoLabel ?? '', description: def.pantalla?.description ?? '' };
}
