import type { DocumentoTipoDef } from './motor';

/** Traspaso: its states and actions, its flags and its screens (docs/documentos.md). */
export const movimiento: DocumentoTipoDef = {
  tipo: 'movimiento',
  entidad: 'movimiento',
  plural: 'movimientos',
  // A transfer between warehouses, as the clerk names it («Movimientos» is the warehouse's ledger).
  singular: 'Traspaso',
  pluralLabel: 'Traspasos',
  femenino: false,
  prefijo: 'MOV',
  ruta: '/almacenes/movimiento',
  flags: ['almacenes'],
  estados: [
    { id: 'creado', label: 'Creado', tone: 'info' },
    { id: 'enviado', label: 'Enviado', tone: 'warning' },
    { id: 'recibido_parcial', label: 'Recibido parcial', tone: 'warning' },
    { id: 'recibido', label: 'Recibido', tone: 'ok' },
  ],
  inicial: 'creado',
  editable: ['creado'],
  eliminable: ['creado'],
  acciones: [
    { verbo: 'enviar', label: 'Enviar', from: ['creado'], to: 'enviado', confirm: 'El stock saldrá del almacén de origen y quedará en tránsito.' },
    {
      verbo: 'deshacerenvio',
      label: 'Deshacer envío',
      from: ['enviado'],
      undoes: 'enviar',
      confirm: 'El stock en tránsito volverá al almacén de origen.',
    },
    { verbo: 'recibir', label: 'Recibir', from: ['enviado', 'recibido_parcial'], to: 'recibido', toParcial: 'recibido_parcial', porLineas: true },
    {
      verbo: 'deshacerrecepcion',
      label: 'Deshacer recepción',
      from: ['recibido_parcial', 'recibido'],
      undoes: 'recibir',
      confirm: 'Se deshará la última recepción: lo recibido saldrá del almacén de destino y volverá a quedar en tránsito.',
    },
  ],
  lineas: 'coste',
  pantalla: {
    seccion: 'almacenes',
    lista: 'movimientos',
    nuevo: 'nuevo-movimiento',
    menu: { label: 'Traspasos', orden: 40 },
    nuevoLabel: 'Nuevo traspaso',
    description:
      'Traspasos de mercancía entre almacenes: salen del origen al enviarlos y entran en el destino al recibirlos.',
  },
};
