import { DOCUMENTO_TIPOS, documentoVentaSchema, type FlagName, type PantallaDocumento, type Schema } from 'shared';
import { paths } from '../paths';

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

/** What differs between the sales documents' screens (pedidos, albaranes, devoluciones, partes); the screens are one list and one record. */
export type Pantalla = PantallaDocumento<CampoVenta> & {
  /** The menu entry's flag (the type's own beside ventas). */
  flag: FlagName;
  /** Route segments (relative to /ventas). */
  rutas: { list: string; nuevo: string; record: string; param: string };
  schema: Schema;
  /** The lines editor shows the stock available (stock − reserved) beside each quantity: goods that leave. */
  disponible: boolean;
};

const CAMPOS: readonly CampoVenta[] = ['cliente_id', 'condiciones', 'almacen_id', 'fecha', 'forma_pago', 'retencion', 'observaciones'];

const pedido: Pantalla = {
  def: DOCUMENTO_TIPOS.pedidoventa,
  flag: 'ventas_pedidos',
  list: paths.pedidos,
  nuevo: paths.nuevoPedido,
  record: paths.pedido,
  rutas: { list: 'pedidos', nuevo: 'pedido/nuevo-pedido', record: 'pedido/:pedidoId', param: 'pedidoId' },
  nuevoLabel: 'Nuevo pedido',
  description: 'Lo que piden los clientes: al confirmarlo reserva el stock; se sirve entero o en partes (cada vez un albarán) y se finaliza.',
  campos: ['cliente_id', 'condiciones', 'almacen_id', 'fecha', 'fecha_entrega', 'forma_pago', 'retencion', 'observaciones'],
  schema: { ...documentoVentaSchema, fecha_entrega: { type: 'date' } },
  disponible: true,
};

const albaran: Pantalla = {
  def: DOCUMENTO_TIPOS.albaranventa,
  flag: 'ventas_albaranes',
  list: paths.albaranes,
  nuevo: paths.nuevoAlbaran,
  record: paths.albaran,
  rutas: { list: 'albaranes', nuevo: 'albaran/nuevo-albaran', record: 'albaran/:albaranId', param: 'albaranId' },
  nuevoLabel: 'Nuevo albarán',
  description: 'Mercancía entregada a los clientes: el stock sale al guardarlo. Se finaliza al facturarlo (directamente o con la facturación de albaranes).',
  campos: CAMPOS,
  schema: documentoVentaSchema,
  disponible: true,
};

const devolucion: Pantalla = {
  def: DOCUMENTO_TIPOS.devolucionventa,
  flag: 'ventas_devoluciones',
  list: paths.devoluciones,
  nuevo: paths.nuevaDevolucion,
  record: paths.devolucion,
  rutas: { list: 'devoluciones', nuevo: 'devolucion/nueva-devolucion', record: 'devolucion/:devolucionId', param: 'devolucionId' },
  nuevoLabel: 'Nueva devolución',
  description:
    'Mercancía que devuelven los clientes: el stock vuelve al guardarla. Se factura en negativo con sus albaranes o se corrige con una rectificativa.',
  campos: CAMPOS,
  schema: documentoVentaSchema,
  disponible: false,
};

const parte: Pantalla = {
  def: DOCUMENTO_TIPOS.parte,
  flag: 'partes_trabajo',
  list: paths.partes,
  nuevo: paths.nuevoParte,
  record: paths.parte,
  rutas: { list: 'partes-de-trabajo', nuevo: 'partes-de-trabajo/nuevo-parte', record: 'partes-de-trabajo/:parteId', param: 'parteId' },
  nuevoLabel: 'Nuevo parte',
  description: 'Trabajos hechos a los clientes: horas por proceso y materiales usados (salen del almacén al finalizarlo); después se facturan.',
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
  disponible: true,
};

/** The sales documents this part of the remote shows (facturas and rectificativas have their own screens). */
export const PANTALLAS = { pedidoventa: pedido, albaranventa: albaran, devolucionventa: devolucion, parte };
