import { DOCUMENTO_TIPOS, direccionesDocumento } from 'shared';
import menu from './menu.json';

/**
 * The section's addresses, absolute from its prefix: one place for every link and redirect. The documents' come from
 * their types' definitions (shared/src/domain/documentos/<tipo>.ts), as the routes and the menu do.
 */
const base = menu.prefix;
const pedido = direccionesDocumento(DOCUMENTO_TIPOS.pedidocompra);
const albaran = direccionesDocumento(DOCUMENTO_TIPOS.albarancompra);
const devolucion = direccionesDocumento(DOCUMENTO_TIPOS.devolucioncompra);

export const paths = {
  proveedores: `${base}/proveedores`,
  proveedor: (id: number | string) => `${base}/proveedor/${id}`,
  nuevoProveedor: `${base}/proveedor/nuevo-proveedor`,
  pedidos: pedido.list,
  pedido: pedido.record,
  nuevoPedido: pedido.nuevo,
  albaranes: albaran.list,
  albaran: albaran.record,
  nuevoAlbaran: albaran.nuevo,
  devoluciones: devolucion.list,
  devolucion: devolucion.record,
  nuevaDevolucion: devolucion.nuevo,
  hcp: `${base}/hcp`,
  pagos: `${base}/pagos`,
} as const;
