import type { DocumentoTipoDef } from './motor';
import { pendiente, finalizado } from './estados';

/** Parte de trabajo: its states and actions, its flags and its screens (docs/documentos.md). */
export const parte: DocumentoTipoDef = {
  tipo: 'parte',
  entidad: 'parte',
  plural: 'partes',
  singular: 'Parte de trabajo',
  pluralLabel: 'Partes de trabajo',
  femenino: false,
  prefijo: 'PT',
  ruta: '/ventas/partes-de-trabajo',
  flags: ['ventas', 'partes_trabajo'],
  estados: [pendiente, finalizado, { id: 'facturado', label: 'Facturado', tone: 'ok' }],
  inicial: 'pendiente',
  editable: ['pendiente'],
  eliminable: ['pendiente'],
  acciones: [
    { verbo: 'finalizar', label: 'Finalizar', from: ['pendiente'], to: 'finalizado', confirm: 'Los materiales usados saldrán del almacén.' },
    { verbo: 'deshacerfinalizacion', label: 'Deshacer finalización', from: ['finalizado'], undoes: 'finalizar' },
    {
      verbo: 'facturar',
      label: 'Facturar',
      from: ['finalizado'],
      to: 'facturado',
      flag: 'ventas_facturas',
      confirm: 'Se creará una factura en borrador con las horas y los materiales del parte.',
    },
    { verbo: 'deshacerfacturacion', label: 'Deshacer facturación', from: ['facturado'], undoes: 'facturar', flag: 'ventas_facturas' },
  ],
  lineas: 'venta',
  tercero: 'cliente',
  hijo: 'factura',
  facturable: { pendiente: 'finalizado', facturado: 'facturado' },
  pantalla: {
    seccion: 'ventas',
    lista: 'partes-de-trabajo',
    nuevo: 'nuevo-parte',
    menu: { label: 'Partes de trabajo', orden: 80, area: 'ventas' },
    nuevoLabel: 'Nuevo parte',
    description:
      'Trabajos hechos a los clientes: horas por proceso y materiales usados (salen del almacén al finalizarlo); después se facturan.',
  },
};
