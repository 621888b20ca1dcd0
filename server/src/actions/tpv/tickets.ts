import { DOCUMENTO_TIPOS } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { flagsTpv } from '../../tpv/comun.ts';
import { devolverTicket, facturarTicket, facturarVentaTpv, leerVale, subirTickets, tipoTicket } from '../../tpv/tickets.ts';
import { documentoActions } from '../documentos.ts';
import { defineAction } from '../registry.ts';

/**
 * The till's tickets (issue 13, issue 23; tpv/tickets.ts): the upload, the full invoice replacing a ticket (F3) or
 * issued instead of one (F1), the return (R5) and its vouchers. Of the engine's generic actions only the list.
 */

const TICKET = DOCUMENTO_TIPOS.ticket;

export const ticketActions = [
  // Of the engine's generic actions only the list: a ticket is made by the upload and never changes.
  ...documentoActions(tipoTicket).filter((a) => a.name === `listado${TICKET.plural}`),

  defineAction({
    name: 'subirtickets',
    method: 'POST',
    flags: flagsTpv(),
    bodyLimit: 16 * 1024 * 1024,
    input: { terminal_id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, raw, app, user }) {
      return { RESULT: '0', data: await subirTickets(app, user!, input.terminal_id, raw.tickets) };
    },
  }),

  defineAction({
    name: 'facturarticket',
    method: 'POST',
    flags: flagsTpv(),
    input: {
      id: { type: 'int', required: true, min: 1 },
      cliente_id: { type: 'int', required: true, min: 1 },
      serie_id: { type: 'int', min: 1 },
    } as const satisfies Schema,
    async handler({ input, app, user }) {
      return { RESULT: '0', data: [await facturarTicket(app, user!, input.id, input.cliente_id, input.serie_id)] };
    },
  }),

  defineAction({
    name: 'valetpv',
    method: 'GET',
    flags: flagsTpv(),
    input: { codigo: { type: 'string', required: true, max: 40 } } as const satisfies Schema,
    async handler({ input, app }) {
      return { RESULT: '0', data: [await leerVale(app, input.codigo)] };
    },
  }),

  defineAction({
    name: 'facturarventatpv',
    method: 'POST',
    flags: flagsTpv(),
    input: {
      terminal_id: { type: 'int', required: true, min: 1 },
      cliente_id: { type: 'int', required: true, min: 1 },
    } as const satisfies Schema,
    async handler({ input, raw, app, user }) {
      return { RESULT: '0', data: [await facturarVentaTpv(app, user!, input.terminal_id, input.cliente_id, raw)] };
    },
  }),

  defineAction({
    name: 'devolverticket',
    method: 'POST',
    flags: flagsTpv(),
    // The ticket by `id`, or by `ticket_uuid` (a return made offline of a ticket the till sold).
    input: { id: { type: 'int', min: 1 } } as const satisfies Schema,
    async handler({ input, raw, app, user }) {
      return { RESULT: '0', data: [await devolverTicket(app, user!, input.id, raw)] };
    },
  }),
];


