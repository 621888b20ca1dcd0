import menu from './menu.json';

/** The section's addresses, absolute from its prefix: one place for every link and redirect. */
const base = menu.prefix;

export const paths = {
  clientes: `${base}/clientes`,
  cliente: (id: number | string) => `${base}/cliente/${id}`,
  nuevoCliente: `${base}/cliente/nuevo-cliente`,
  pedidos: `${base}/pedidos`,
  pedido: (id: number | string) => `${base}/pedido/${id}`,
  nuevoPedido: `${base}/pedido/nuevo-pedido`,
  albaranes: `${base}/albaranes`,
  albaran: (id: number | string) => `${base}/albaran/${id}`,
  nuevoAlbaran: `${base}/albaran/nuevo-albaran`,
  facturas: `${base}/facturas`,
  factura: (id: number | string) => `${base}/factura/${id}`,
  nuevaFactura: `${base}/factura/nueva-factura`,
  devoluciones: `${base}/devoluciones`,
  devolucion: (id: number | string) => `${base}/devolucion/${id}`,
  nuevaDevolucion: `${base}/devolucion/nueva-devolucion`,
  rectificativas: `${base}/rectificativa`,
  rectificativa: (id: number | string) => `${base}/rectificativa/${id}`,
  nuevaRectificativa: `${base}/rectificativa/nueva-rectificativa`,
  hfa: `${base}/hfa`,
  partes: `${base}/partes-de-trabajo`,
  parte: (id: number | string) => `${base}/partes-de-trabajo/${id}`,
  nuevoParte: `${base}/partes-de-trabajo/nuevo-parte`,
  registros: `${base}/registros`,
  terminales: `${base}/terminales`,
  terminal: (id: number | string) => `${base}/terminal/${id}`,
  nuevoTerminal: `${base}/terminal/nuevo-terminal`,
  botonesTpv: `${base}/botones-tpv`,
  cierresTpv: `${base}/cierres-tpv`,
  cierreTpv: (id: number | string) => `${base}/cierre-tpv/${id}`,
  tickets: `${base}/tickets`,
  ticket: (id: number | string) => `${base}/ticket/${id}`,
} as const;
