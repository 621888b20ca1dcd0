import type { DocumentoTipoDef } from './motor';
import { pendiente, finalizado } from './estados';

/** Pedido de venta: its states and actions, its flags and its screens (docs/documentos.md). */
export const pedidoventa: DocumentoTipoDef = {
  tipo: 'pedidoventa',
  entidad: 'pedidoventa',
  plural: 'pedidosventa',
  singular: 'Pedido de venta',
  pluralLabel: 'Pedidos de venta',
  femenino: false,
  prefijo: 'PV',
  ruta: '/ventas/pedido',
  flags: ['ventas', 'ventas_pedidos'],
  estados: [
    pendiente,
    { id: 'confirmado', label: 'Confirmado', tone: 'info' },
    { id: 'enviado_parcial', label: 'Enviado parcial', tone: 'warning' },
    { id: 'enviado', label: 'Enviado total', tone: 'ok' },
    finalizado,
  ],
  inicial: 'pendiente',
  // A confirmed order can still change (the customer calls to add a line) until something is served.
  editable: ['pendiente', 'confirmado'],
  eliminable: ['pendiente'],
  acciones: [
    { verbo: 'confirmar', label: 'Confirmar', from: ['pendiente'], to: 'confirmado' },
    { verbo: 'deshacerconfirmacion', label: 'Deshacer confirmación', from: ['confirmado'], undoes: 'confirmar' },
    { verbo: 'servir', label: 'Servir', from: ['confirmado', 'enviado_parcial'], to: 'enviado', toParcial: 'enviado_parcial', porLineas: true },
    {
      verbo: 'deshacerservicio',
      label: 'Deshacer servicio',
      from: ['enviado_parcial', 'enviado'],
      undoes: 'servir',
      confirm: 'Se deshará el último servicio: se eliminará el albarán que creó y su stock volverá al almacén.',
    },
    {
      verbo: 'finalizar',
      label: 'Finalizar',
      from: ['confirmado', 'enviado_parcial', 'enviado'],
      to: 'finalizado',
      confirm: 'Lo que quede pendiente de servir se dará por cerrado y dejará de estar reservado.',
    },
    { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
  ],
  lineas: 'venta',
  tercero: 'cliente',
  hijo: 'albaranventa',
  pantalla: {
    seccion: 'ventas',
    lista: 'pedidos',
    nuevo: 'nuevo-pedido',
    menu: { label: 'Pedidos', orden: 20, area: 'ventas' },
    nuevoLabel: 'Nuevo pedido',
    description:
      'Lo que piden los clientes: al confirmarlo reserva el stock; se sirve entero o en partes (cada vez un albarán) y se finaliza.',
  },
};
