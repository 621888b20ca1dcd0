import type { DocumentoTipoDef } from './motor';
import { pendiente, finalizado } from './estados';

/** Pérdida: its states and actions, its flags and its screens (docs/documentos.md). */
export const perdida: DocumentoTipoDef = {
  tipo: 'perdida',
  entidad: 'perdida',
  plural: 'perdidas',
  singular: 'Pérdida',
  pluralLabel: 'Pérdidas',
  femenino: true,
  prefijo: 'PER',
  ruta: '/almacenes/perdida',
  flags: ['almacenes'],
  estados: [pendiente, finalizado],
  inicial: 'pendiente',
  editable: ['pendiente'],
  eliminable: ['pendiente'],
  acciones: [
    { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'El stock de las líneas saldrá del almacén.' },
    {
      verbo: 'deshacerfinalizacion',
      label: 'Deshacer finalización',
      from: ['finalizado'],
      undoes: 'finalizar',
      confirm: 'El stock de las líneas volverá a entrar en el almacén.',
    },
  ],
  lineas: 'perdida',
  pantalla: {
    seccion: 'almacenes',
    lista: 'perdidas',
    nuevo: 'nueva-perdida',
    menu: { label: 'Pérdidas', orden: 60 },
    nuevoLabel: 'Nueva pérdida',
    description:
      'Mercancía que sale del almacén por rotura, caducidad, robo u otros motivos.',
  },
};
