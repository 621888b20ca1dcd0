import type { Schema } from 'shared/domain';
import { listSchema } from '../../db/consulta.ts';
import { abrirCaja, cajaDeTerminal, cerrarCaja, comprobarTerminalDeCaja, listadoCierres, movimientoCaja } from '../../tpv/caja.ts';
import { flagsTpv } from '../../tpv/comun.ts';
import { defineAction } from '../registry.ts';

/** The till's caja (issue 13, issue 23): opening, cash movements, the figures so far, the closings (tpv/caja.ts). */

const listadoCierresSchema = {
  ...listSchema(['codigo', 'cierre'] as const),
  terminal_id: { type: 'int', min: 1 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
} as const satisfies Schema;

export const cajaActions = [
  defineAction({
    name: 'abrircajatpv',
    method: 'POST',
    flags: flagsTpv(),
    input: { terminal_id: { type: 'int', required: true, min: 1 }, fondo: { type: 'int', min: 0, max: 100_000_000 } } as const satisfies Schema,
    async handler({ input, app, user, request }) {
      await comprobarTerminalDeCaja(app, request, user!, input.terminal_id);
      return { RESULT: '0', data: [await abrirCaja(app, user!, input)] };
    },
  }),

  defineAction({
    name: 'movimientocajatpv',
    method: 'POST',
    flags: flagsTpv(),
    input: {
      terminal_id: { type: 'int', required: true, min: 1 },
      importe: { type: 'int', required: true, min: -100_000_000, max: 100_000_000 },
      motivo: { type: 'string', required: true, max: 200 },
      uuid: { type: 'string', max: 64 },
      // Made offline (queued by the till): the caja it was made in, the till's instant; the cash has already moved.
      caja_id: { type: 'int', min: 1 },
      fecha_hora: { type: 'string', max: 40 },
      offline: { type: 'int', min: 0, max: 1 },
    } as const satisfies Schema,
    async handler({ input, app, user, request }) {
      await comprobarTerminalDeCaja(app, request, user!, input.terminal_id);
      return { RESULT: '0', data: [await movimientoCaja(app, user!, input)] };
    },
  }),

  defineAction({
    name: 'cajatpv',
    method: 'GET',
    flags: flagsTpv(),
    input: { terminal_id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app, user, request }) {
      await comprobarTerminalDeCaja(app, request, user!, input.terminal_id);
      return { RESULT: '0', data: [await cajaDeTerminal(app, input)] };
    },
  }),

  defineAction({
    name: 'listadocierrestpv',
    method: 'GET',
    flags: flagsTpv(),
    input: listadoCierresSchema,
    async handler({ input, app }) {
      return { RESULT: '0', ...(await listadoCierres(app, input)) };
    },
  }),

  defineAction({
    name: 'editarcierretpv',
    method: 'POST',
    flags: flagsTpv(),
    input: { terminal_id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, raw, app, user, request }) {
      await comprobarTerminalDeCaja(app, request, user!, input.terminal_id);
      return { RESULT: '0', data: [await cerrarCaja(app, user!, input.terminal_id, raw)] };
    },
  }),
];
