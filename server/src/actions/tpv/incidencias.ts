import type { Schema } from 'shared/domain';
import { flagsTpv } from '../../tpv/comun.ts';
import { leerIncidencias, resolverIncidencia } from '../../tpv/incidencias.ts';
import { defineAction } from '../registry.ts';

/** The till's incidences (issue 23; tpv/incidencias.ts): listed for the manager, resolved by hand. */

const filtros = {
  terminal_id: { type: 'int', min: 1 },
  caja_id: { type: 'int', min: 1 },
  pendientes: { type: 'flag' },
} as const satisfies Schema;

export const incidenciaActions = [
  defineAction({
    name: 'listadoincidenciastpv',
    method: 'GET',
    flags: flagsTpv(),
    input: filtros,
    async handler({ input, app }) {
      const data = await leerIncidencias(app.db, {
        ...(input.terminal_id ? { terminal_id: input.terminal_id } : {}),
        ...(input.caja_id ? { caja_id: input.caja_id } : {}),
        pendientes: input.pendientes === 1,
      });
      return { RESULT: '0', data };
    },
  }),
  defineAction({
    name: 'resolverincidenciatpv',
    method: 'POST',
    flags: flagsTpv(),
    input: { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app, user }) {
      return { RESULT: '0', data: await resolverIncidencia(app, user!, input) };
    },
  }),
];
