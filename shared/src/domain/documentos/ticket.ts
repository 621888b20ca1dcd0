import type { DocumentoTipoDef } from './motor';

/** Ticket: its states and actions and its flags; its screens are the till's and mf-ventas' tpv/ (no `pantalla`). */
export const ticket: DocumentoTipoDef = {
  tipo: 'ticket',
  entidad: 'ticket',
  plural: 'tickets',
  singular: 'Ticket',
  pluralLabel: 'Tickets',
  femenino: false,
  prefijo: 'T',
  ruta: '/ventas/ticket',
  flags: ['tpv'],
  // Made and issued in one transaction by subirtickets (the engine's `emitir`): a ticket is never a draft on screen.
  estados: [
    { id: 'borrador', label: 'Borrador', tone: 'info' },
    { id: 'emitido', label: 'Emitido', tone: 'ok' },
    { id: 'devuelto_parcial', label: 'Devuelto parcial', tone: 'warning' },
    { id: 'devuelto', label: 'Devuelto', tone: 'off' },
    // Replaced by a full invoice (F3) at the customer's request: the ticket stays issued, its F3 names it.
    { id: 'facturado', label: 'Facturado', tone: 'ok' },
  ],
  inicial: 'borrador',
  editable: [],
  eliminable: [],
  acciones: [{ verbo: 'emitir', label: 'Emitir', from: ['borrador'], to: 'emitido' }],
  lineas: 'venta',
  tercero: 'cliente',
  series: ['simplificada'],
};
