import { DOCUMENTO_TIPOS, documentoAlmacenSchema, type DOCUMENTO_TIPOS_ALMACEN, type FieldErrors, type PantallaDocumento, type Schema } from 'shared';
import { paths } from '../paths';

/** What differs between the three warehouse documents' screens; the screens themselves are one list and one record. */
export type Pantalla = PantallaDocumento<'almacen_id' | 'almacen_destino_id' | 'fecha' | 'familia_id' | 'ubicacion_id' | 'observaciones'> & {
  /** Route segments (relative to /almacenes). */
  rutas: { list: string; nuevo: string; record: string; param: string };
  schema: Schema;
  check?: (values: Record<string, string>) => FieldErrors;
  /** The lines may carry a location of the header's warehouse. */
  ubicacionPorLinea: boolean;
  /** Saved without lines (an inventory started empty and filled by scanning). */
  permitirSinLineas: boolean;
};

export const DESTINO_DISTINTO = 'El almacén de destino debe ser distinto del de origen';

const movimiento: Pantalla = {
  def: DOCUMENTO_TIPOS.movimiento,
  list: paths.movimientos,
  nuevo: paths.nuevoMovimiento,
  record: paths.movimiento,
  rutas: { list: 'movimientos', nuevo: 'movimiento/nuevo-movimiento', record: 'movimiento/:movimientoId', param: 'movimientoId' },
  nuevoLabel: 'Nuevo traspaso',
  description: 'Traspasos de mercancía entre almacenes: salen del origen al enviarlos y entran en el destino al recibirlos.',
  campos: ['almacen_id', 'almacen_destino_id', 'fecha', 'observaciones'],
  schema: { ...documentoAlmacenSchema, almacen_destino_id: { type: 'int', required: true, min: 1 } },
  check: (v): FieldErrors => (v.almacen_id && v.almacen_id === v.almacen_destino_id ? { almacen_destino_id: DESTINO_DISTINTO } : {}),
  ubicacionPorLinea: false,
  permitirSinLineas: false,
};

const inventario: Pantalla = {
  def: DOCUMENTO_TIPOS.inventario,
  list: paths.inventarios,
  nuevo: paths.nuevoInventario,
  record: paths.inventario,
  rutas: { list: 'inventario', nuevo: 'inventario/nuevo-inventario', record: 'inventario/:inventarioId', param: 'inventarioId' },
  nuevoLabel: 'Nuevo inventario',
  description: 'Recuentos de un almacén (o de una familia o ubicación): al finalizarlos, el stock pasa a ser lo contado.',
  campos: ['almacen_id', 'fecha', 'familia_id', 'ubicacion_id', 'observaciones'],
  schema: documentoAlmacenSchema,
  ubicacionPorLinea: true,
  permitirSinLineas: true,
};

const perdida: Pantalla = {
  def: DOCUMENTO_TIPOS.perdida,
  list: paths.perdidas,
  nuevo: paths.nuevaPerdida,
  record: paths.perdida,
  rutas: { list: 'perdidas', nuevo: 'perdida/nueva-perdida', record: 'perdida/:perdidaId', param: 'perdidaId' },
  nuevoLabel: 'Nueva pérdida',
  description: 'Mercancía que sale del almacén por rotura, caducidad, robo u otros motivos.',
  campos: ['almacen_id', 'fecha', 'observaciones'],
  schema: documentoAlmacenSchema,
  ubicacionPorLinea: true,
  permitirSinLineas: false,
};

/** The warehouse documents this remote shows (the purchase and sales ones live in their own remotes). */
export const PANTALLAS: Record<(typeof DOCUMENTO_TIPOS_ALMACEN)[number], Pantalla> = { movimiento, inventario, perdida };
