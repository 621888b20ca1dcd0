import { DOCUMENTO_TIPOS, documentoCompraSchema, type DOCUMENTO_TIPOS_COMPRA, type FlagName, type PantallaDocumento, type Schema } from 'shared';
import { paths } from '../paths';

export type CampoCompra = 'proveedor_id' | 'almacen_id' | 'fecha' | 'fecha_entrega' | 'forma_pago' | 'retencion' | 'observaciones' | 'albaran_proveedor';

/** What differs between the three purchase documents' screens; the screens themselves are one list and one record. */
export type Pantalla = PantallaDocumento<CampoCompra> & {
  /** The menu entry's flag (the type's own beside compras). */
  flag: FlagName;
  /** Route segments (relative to /compras). */
  rutas: { list: string; nuevo: string; record: string; param: string };
  schema: Schema;
};

const CAMPOS: readonly CampoCompra[] = ['proveedor_id', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'];

const pedido: Pantalla = {
  def: DOCUMENTO_TIPOS.pedidocompra,
  flag: 'compras_pedidos',
  list: paths.pedidos,
  nuevo: paths.nuevoPedido,
  record: paths.pedido,
  rutas: { list: 'pedidos', nuevo: 'pedido/nuevo-pedido', record: 'pedido/:pedidoId', param: 'pedidoId' },
  nuevoLabel: 'Nuevo pedido',
  description: 'Lo que se pide a cada proveedor: se envía, se recibe (entera o en partes, cada recepción crea su albarán) y se finaliza.',
  campos: ['proveedor_id', 'almacen_id', 'fecha', 'fecha_entrega', 'forma_pago', 'retencion', 'observaciones'],
  schema: { ...documentoCompraSchema, fecha_entrega: { type: 'date' } },
};

const albaran: Pantalla = {
  def: DOCUMENTO_TIPOS.albarancompra,
  flag: 'compras_albaranes',
  list: paths.albaranes,
  nuevo: paths.nuevoAlbaran,
  record: paths.albaran,
  rutas: { list: 'albaranes', nuevo: 'albaran/nuevo-albaran', record: 'albaran/:albaranId', param: 'albaranId' },
  nuevoLabel: 'Nuevo albarán',
  description: 'Mercancía recibida de los proveedores: el stock entra al guardarlo. Se finaliza al conciliarlo con la factura del proveedor.',
  // Issue 17: the supplier's own delivery-note number, as its invoice will list it.
  campos: ['proveedor_id', 'albaran_proveedor', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'],
  schema: { ...documentoCompraSchema, albaran_proveedor: { type: 'string', max: 60 } },
};

const devolucion: Pantalla = {
  def: DOCUMENTO_TIPOS.devolucioncompra,
  flag: 'compras_devoluciones',
  list: paths.devoluciones,
  nuevo: paths.nuevaDevolucion,
  record: paths.devolucion,
  rutas: { list: 'devoluciones', nuevo: 'devolucion/nueva-devolucion', record: 'devolucion/:devolucionId', param: 'devolucionId' },
  nuevoLabel: 'Nueva devolución',
  description: 'Mercancía devuelta a los proveedores: el stock sale al guardarla.',
  campos: CAMPOS,
  schema: documentoCompraSchema,
};

/** The purchase documents this remote shows. */
export const PANTALLAS: Record<(typeof DOCUMENTO_TIPOS_COMPRA)[number], Pantalla> = {
  pedidocompra: pedido,
  albarancompra: albaran,
  devolucioncompra: devolucion,
};
