import { DOCUMENTO_TIPOS, direccionesDocumento } from 'shared';
import menu from './menu.json';

/**
 * The section's addresses, absolute from its prefix: one place for every link and redirect. The documents' come from
 * their types' definitions (shared/src/domain/documentos/<tipo>.ts), as the routes and the menu do.
 */
const base = menu.prefix;
const pedido = direccionesDocumento(DOCUMENTO_TIPOS.pedidoventa);
const albaran = direccionesDocumento(DOCUMENTO_TIPOS.albaranventa);
const factura = direccionesDocumento(DOCUMENTO_TIPOS.factura);
const devolucion = direccionesDocumento(DOCUMENTO_TIPOS.devolucionventa);
const rectificativa = direccionesDocumento(DOCUMENTO_TIPOS.rectificativa);
const parte = direccionesDocumento(DOCUMENTO_TIPOS.parte);

export const paths = {
  clientes: `${base}/clientes`,
  cliente: (id: number | string) => `${base}/cliente/${id}`,
  nuevoCliente: `${base}/cliente/nuevo-cliente`,
  pedidos: pedido.list,
  pedido: pedido.record,
  nuevoPedido: pedido.nuevo,
  albaranes: albaran.list,
  albaran: albaran.record,
  nuevoAlbaran: albaran.nuevo,
  facturas: factura.list,
  factura: factura.record,
  nuevaFactura: factura.nuevo,
  devoluciones: devolucion.list,
  devolucion: devolucion.record,
  nuevaDevolucion: devolucion.nuevo,
  rectificativas: rectificativa.list,
  rectificativa: rectificativa.record,
  nuevaRectificativa: rectificativa.nuevo,
  hfa: `${base}/hfa`,
  partes: parte.list,
  parte: parte.record,
  nuevoParte: parte.nuevo,
  registros: `${base}/registros`,
  remesas: `${base}/remesas`,
  remesa: (id: number | string) => `${base}/remesa/${id}`,
  terminales: `${base}/terminales`,
  terminal: (id: number | string) => `${base}/terminal/${id}`,
  nuevoTerminal: `${base}/terminal/nuevo-terminal`,
  botonesTpv: `${base}/botones-tpv`,
  cierresTpv: `${base}/cierres-tpv`,
  cierreTpv: (id: number | string) => `${base}/cierre-tpv/${id}`,
  tickets: `${base}/tickets`,
  ticket: (id: number | string) => `${base}/ticket/${id}`,
} as const;
