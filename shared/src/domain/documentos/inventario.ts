import type { DocumentoTipoDef } from './motor';
import { pendiente, finalizado } from './estados';

/** Inventario: its states and actions, its flags and its screens (docs/documentos.md). */
export const inventario: DocumentoTipoDef = {
  tipo: 'inventario',
  entidad: 'inventario',
  plural: 'inventarios',
  singular: 'Inventario',
  pluralLabel: 'Inventarios',
  femenino: false,
  prefijo: 'INV',
  ruta: '/almacenes/inventario',
  flags: ['almacenes'],
  estados: [pendiente, finalizado],
  inicial: 'pendiente',
  editable: ['pendiente'],
  eliminable: ['pendiente'],
  acciones: [
    {
      verbo: 'finalizar',
      label: 'Finalizar',
      from: ['pendiente'],
      to: 'finalizado',
      confirm: 'Se ajustará el stock de cada línea contada a la cantidad contada.',
    },
    {
      verbo: 'deshacerfinalizacion',
      label: 'Deshacer finalización',
      from: ['finalizado'],
      undoes: 'finalizar',
      confirm: 'Se anulará el ajuste del recuento: el stock de cada línea volverá a ser el de antes de finalizarlo.',
    },
  ],
  lineas: 'recuento',
  pantalla: {
    seccion: 'almacenes',
    lista: 'inventario',
    nuevo: 'nuevo-inventario',
    menu: { label: 'Inventarios', orden: 50 },
    nuevoLabel: 'Nuevo inventario',
    description:
      'Recuentos de un almacén (o de una familia o ubicación): al finalizarlos, el stock pasa a ser lo contado.',
  },
};
