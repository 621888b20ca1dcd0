import type { DocumentoTipoDef } from './motor';
import { pendiente, finalizado } from './estados';

/** Devolución de compra: its states and actions, its flags and its screens (docs/documentos.md). */
export const devolucioncompra: DocumentoTipoDef = {
  tipo: 'devolucioncompra',
  entidad: 'devolucioncompra',
  plural: 'devolucionescompra',
  singular: 'Devolución de compra',
  pluralLabel: 'Devoluciones de compra',
  femenino: true,
  prefijo: 'DC',
  ruta: '/compras/devolucion',
  flags: ['compras', 'compras_devoluciones'],
  estados: [pendiente, finalizado],
  inicial: 'pendiente',
  editable: ['pendiente'],
  eliminable: ['pendiente'],
  acciones: [
    { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'La devolución quedará cerrada y no se podrá modificar.' },
    { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
  ],
  lineas: 'compra',
  tercero: 'proveedor',
  stockAlGuardar: { signo: -1, causa: 'devolucion_compra' },
  pantalla: {
    seccion: 'compras',
    lista: 'devoluciones',
    nuevo: 'nueva-devolucion',
    menu: { label: 'Devoluciones', orden: 40 },
    nuevoLabel: 'Nueva devolución',
    description:
      'Mercancía devuelta a los proveedores: el stock sale al guardarla.',
  },
};
