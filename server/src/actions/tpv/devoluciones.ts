import { MESSAGES } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { fail } from '../../errors.ts';
import { flagsTpv } from '../../tpv/comun.ts';
import { devolverSinTicket } from '../../tpv/devoluciones.ts';
import { defineAction } from '../registry.ts';

/** Issue 23: a return without a ticket at the till (tpv/devoluciones.ts), with the right «devolver_sin_ticket». */
export const devolucionActions = [
  defineAction({
    name: 'devolversinticket',
    method: 'POST',
    flags: flagsTpv(),
    input: { terminal_id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, raw, app, user }) {
      if (!user) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: [await devolverSinTicket(app, user, input.terminal_id, raw)] };
    },
  }),
];
