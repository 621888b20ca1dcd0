import type { DocumentoTipoDef } from './motor';
import { finalizado } from './estados';

/** Pedido de compra: its states and actions, its flags and its screens (docs/documentos.md). */
export const pedidocompra: DocumentoTipoDef = {
  tipo: 'pedidocompra',
  entidad: 'pedidocompra',
  plural: 'pedidoscompra',
  singular: 'Pedido de compra',
  pluralLabel: 'Pedidos de compra',
  femenino: false,
  prefijo: 'PC',
  ruta: '/compras/pedido',
  flags: ['compras', 'compras_pedidos'],
  estados: [
    { id: 'creado', label: 'Creado', tone: 'info' },
    { id: 'enviado', label: 'Enviado', tone: 'warning' },
    { id: 'recibido_parcial', label: 'Recibido parcial', tone: 'warning' },
    { id: 'recibido', label: 'Recibido', tone: 'ok' },
    finalizado,
  ],
  inicial: 'creado',
  editable: ['creado'],
  eliminable: ['creado'],
  acciones: [
    { verbo: 'enviar', label: 'Enviar', from: ['creado'], to: 'enviado' },
    { verbo: 'deshacerenvio', label: 'Deshacer envío', from: ['enviado'], undoes: 'enviar' },
    { verbo: 'recibir', label: 'Recibir', from: ['creado', 'enviado', 'recibido_parcial'], to: 'recibido', toParcial: 'recibido_parcial', porLineas: true },
    {
      verbo: 'deshacerrecepcion',
      label: 'Deshacer recepción',
      from: ['recibido_parcial', 'recibido'],
      undoes: 'recibir',
      confirm: 'Se deshará la última recepción: se eliminará el albarán que creó y su stock saldrá del almacén.',
    },
    {
      verbo: 'finalizar',
      label: 'Finalizar',
      from: ['enviado', 'recibido_parcial', 'recibido'],
      to: 'finalizado',
      confirm: 'Lo que quede pendiente de recibir se dará por cerrado.',
    },
    { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
  ],
  lineas: 'compra',
  tercero: 'proveedor',
  hijo: 'albarancompra',
  pantalla: {
    seccion: 'compras',
    lista: 'pedidos',
    nuevo: 'nuevo-pedido',
    menu: { label: 'Pedidos', orden: 20 },
    nuevoLabel: 'Nuevo pedido',
    description:
      'Lo que se pide a cada proveedor: se envía, se recibe (entera o en partes, cada recepción crea su albarán) y se finaliza.',
  },
};
