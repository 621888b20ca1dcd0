import type { Schema } from 'shared/domain';
import { guardarBotones, respuesta } from '../../tpv/botones.ts';
import { flagsTpv } from '../../tpv/comun.ts';
import { defineAction } from '../registry.ts';

/** The till's pages of buttons (issue 13; tpv/botones.ts). */
export const botonActions = [
  defineAction({
    name: 'listadobotonestpv',
    method: 'GET',
    flags: flagsTpv(),
    input: { terminal_id: { type: 'int', min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      return { RESULT: '0', data: [await respuesta(app.db, input.terminal_id)] };
    },
  }),

  defineAction({
    name: 'editarbotonestpv',
    method: 'POST',
    flags: flagsTpv(),
    input: { terminal_id: { type: 'int', min: 1 } } as const satisfies Schema,
    async handler({ input, raw, app }) {
      return { RESULT: '0', data: [await guardarBotones(app, input.terminal_id, raw)] };
    },
  }),
];
