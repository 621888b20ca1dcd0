import { DOCUMENTO_TIPOS, documentoVentaSchema, type PantallaDocumento } from 'shared';
import { paths } from '../../paths';

/** Tickets (facturas simplificadas of the till) on the engine's document screens: read only, made by the till. */
export const TICKET: PantallaDocumento<'cliente_id' | 'almacen_id' | 'fecha' | 'observaciones'> & { rutas: { list: string; nuevo: string; record: string; param: string } } = {
  def: DOCUMENTO_TIPOS.ticket,
  list: paths.tickets,
  nuevo: paths.tickets,
  record: paths.ticket,
  rutas: { list: 'tickets', nuevo: 'ticket/nuevo-ticket', record: 'ticket/:ticketId', param: 'ticketId' },
  nuevoLabel: '',
  description: 'Las ventas del mostrador: cada ticket es una factura simplificada con su registro VERI*FACTU. Los hace la caja; aquí solo se consultan.',
  campos: ['cliente_id', 'almacen_id', 'fecha'],
};

export const ticketSchema = documentoVentaSchema;
