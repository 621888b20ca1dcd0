import type { DocumentoTipoDef } from './motor';
import { pendiente } from './estados';

/** Albarán de venta: its states and actions, its flags and its screens (docs/documentos.md). */
export const albaranventa: DocumentoTipoDef = {
  tipo: 'albaranventa',
  entidad: 'albaranventa',
  plural: 'albaranesventa',
  singular: 'Albarán de venta',
  pluralLabel: 'Albaranes de venta',
  femenino: false,
  prefijo: 'AV',
  ruta: '/ventas/albaran',
  flags: ['ventas', 'ventas_albaranes'],
  estados: [pendiente, { id: 'finalizado', label: 'Finalizado', tone: 'ok' }],
  inicial: 'pendiente',
  editable: ['pendiente'],
  eliminable: ['pendiente'],
  acciones: [
    {
      verbo: 'facturar',
      label: 'Facturar',
      from: ['pendiente'],
      to: 'finalizado',
      flag: 'ventas_facturas',
      confirm: 'Se creará una factura en borrador con las líneas del albarán.',
    },
    { verbo: 'deshacerfacturacion', label: 'Deshacer facturación', from: ['finalizado'], undoes: 'facturar', flag: 'ventas_facturas' },
  ],
  lineas: 'venta',
  tercero: 'cliente',
  stockAlGuardar: { signo: -1, causa: 'venta' },
  hijo: 'factura',
  facturable: { pendiente: 'pendiente', facturado: 'finalizado' },
  pantalla: {
    seccion: 'ventas',
    lista: 'albaranes',
    nuevo: 'nuevo-albaran',
    menu: { label: 'Albaranes', orden: 30, area: 'ventas' },
    nuevoLabel: 'Nuevo albarán',
    description:
      'Mercancía entregada a los clientes: el stock sale al guardarlo. Se finaliza al facturarlo (directamente o con la facturación de albaranes).',
  },
};
