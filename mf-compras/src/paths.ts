import menu from './menu.json';

/** The section's addresses, absolute from its prefix: one place for every link and redirect. */
const base = menu.prefix;

export const paths = {
  proveedores: `${base}/proveedores`,
  proveedor: (id: number | string) => `${base}/proveedor/${id}`,
  nuevoProveedor: `${base}/proveedor/nuevo-proveedor`,
  pedidos: `${base}/pedidos`,
  pedido: (id: number | string) => `${base}/pedido/${id}`,
  nuevoPedido: `${base}/pedido/nuevo-pedido`,
  albaranes: `${base}/albaranes`,
  albaran: (id: number | string) => `${base}/albaran/${id}`,
  nuevoAlbaran: `${base}/albaran/nuevo-albaran`,
  devoluciones: `${base}/devoluciones`,
  devolucion: (id: number | string) => `${base}/devolucion/${id}`,
  nuevaDevolucion: `${base}/devolucion/nueva-devolucion`,
  hcp: `${base}/hcp`,
  pagos: `${base}/pagos`,
} as const;
