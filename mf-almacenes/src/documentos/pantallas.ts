import {
  documentoAlmacenSchema,
  pantallaDeTipo,
  tiposDeSeccion,
  type DireccionesDocumento,
  type DocumentoTipo,
  type FieldErrors,
  type PantallaDocumento,
  type Schema,
} from 'shared';

type CampoAlmacen = 'almacen_id' | 'almacen_destino_id' | 'fecha' | 'familia_id' | 'ubicacion_id' | 'observaciones';

/**
 * What differs between the warehouse documents' screens; the screens themselves are one list and one record.
 * Addresses, routes, flag gate, label and description come from the type's definition (`pantalla` in
 * shared/src/domain/documentos/<tipo>.ts).
 */
export type Pantalla = PantallaDocumento<CampoAlmacen> &
  DireccionesDocumento & {
    schema: Schema;
    check?: (values: Record<string, string>) => FieldErrors;
    /** The lines may carry a location of the header's warehouse. */
    ubicacionPorLinea: boolean;
    /** Saved without lines (an inventory started empty and filled by scanning). */
    permitirSinLineas: boolean;
  };

export const DESTINO_DISTINTO = 'El almacén de destino debe ser distinto del de origen';

/** What a warehouse type's screens show unless it says otherwise below. */
const COMUN: Pick<Pantalla, 'campos' | 'schema' | 'check' | 'ubicacionPorLinea' | 'permitirSinLineas'> = {
  campos: ['almacen_id', 'fecha', 'observaciones'],
  schema: documentoAlmacenSchema,
  ubicacionPorLinea: true,
  permitirSinLineas: false,
};

/** Each type's own fields, where they differ from COMUN. */
const PROPIAS: Partial<Record<DocumentoTipo, Partial<typeof COMUN>>> = {
  movimiento: {
    campos: ['almacen_id', 'almacen_destino_id', 'fecha', 'observaciones'],
    schema: { ...documentoAlmacenSchema, almacen_destino_id: { type: 'int', required: true, min: 1 } },
    check: (v): FieldErrors => (v.almacen_id && v.almacen_id === v.almacen_destino_id ? { almacen_destino_id: DESTINO_DISTINTO } : {}),
    ubicacionPorLinea: false,
  },
  inventario: { campos: ['almacen_id', 'fecha', 'familia_id', 'ubicacion_id', 'observaciones'], permitirSinLineas: true },
};

/** The warehouse documents this remote shows: every type of the section almacenes (purchases and sales have their own remotes). */
export const PANTALLAS: Partial<Record<DocumentoTipo, Pantalla>> = Object.fromEntries(
  tiposDeSeccion('almacenes').map((def): [DocumentoTipo, Pantalla] => [def.tipo, { ...pantallaDeTipo(def), ...COMUN, ...PROPIAS[def.tipo] }]),
);
