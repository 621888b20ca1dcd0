import type { DocumentoTipoDef } from './motor';
import { pendiente, finalizado } from './estados';

/** Albarán de compra: its states and actions, its flags and its screens (docs/documentos.md). */
export const albarancompra: DocumentoTipoDef = {
  tipo: 'albarancompra',
  entidad: 'albarancompra',
  plural: 'albaranescompra',
  singular: 'Albarán de compra',
  pluralLabel: 'Albaranes de compra',
  femenino: false,
  prefijo: 'AC',
  ruta: '/compras/albaran',
  flags: ['compras'],
  estados: [pendiente, finalizado],
  inicial: 'pendiente',
  editable: ['pendiente'],
  eliminable: ['pendiente'],
  acciones: [
    { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'El albarán quedará cerrado y no se podrá modificar.' },
    { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
  ],
  lineas: 'compra',
  tercero: 'proveedor',
  stockAlGuardar: { signo: 1, causa: 'compra' },
  pantalla: {
    seccion: 'compras',
    lista: 'albaranes',
    nuevo: 'nuevo-albaran',
    menu: { label: 'Albaranes', orden: 30 },
    nuevoLabel: 'Nuevo albarán',
    description:
      'Mercancía recibida de los proveedores: el stock entra al guardarlo. Se finaliza al conciliarlo con la factura del proveedor.',
    // The server serves a pedido's albaranes with compras alone (its receipt makes them, hcp reconciles them);
    // the screens and the menu entry also need compras_albaranes.
    flags: ['compras', 'compras_albaranes'],
  },
};
