import type { DocumentoTipoDef } from './motor';
import { pendiente, finalizado } from './estados';

/** Devolución de venta: its states and actions, its flags and its screens (docs/documentos.md). */
export const devolucionventa: DocumentoTipoDef = {
  tipo: 'devolucionventa',
  entidad: 'devolucionventa',
  plural: 'devolucionesventa',
  singular: 'Devolución de venta',
  pluralLabel: 'Devoluciones de venta',
  femenino: true,
  prefijo: 'DV',
  ruta: '/ventas/devolucion',
  flags: ['ventas', 'ventas_devoluciones'],
  estados: [pendiente, finalizado],
  inicial: 'pendiente',
  editable: ['pendiente'],
  eliminable: ['pendiente'],
  // Invoiced by hfa (negative lines) or by a rectificativa that names its lines: no hand action.
  acciones: [],
  lineas: 'venta',
  tercero: 'cliente',
  stockAlGuardar: { signo: 1, causa: 'devolucion_venta' },
  facturable: { pendiente: 'pendiente', facturado: 'finalizado' },
  pantalla: {
    seccion: 'ventas',
    lista: 'devoluciones',
    nuevo: 'nueva-devolucion',
    menu: { label: 'Devoluciones', orden: 50, area: 'ventas' },
    nuevoLabel: 'Nueva devolución',
    description:
      'Mercancía que devuelven los clientes: el stock vuelve al guardarla. Se factura en negativo con sus albaranes o se corrige con una rectificativa.',
  },
};
