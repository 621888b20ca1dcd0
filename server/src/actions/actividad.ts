import { CONSTANTS } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { listadoActividad } from '../actividad/listado.ts';
import { defineAction } from './registry.ts';

/** The activity log (issue 20; actividad/): read by Actividad's screen. */

const listInput = {
  pagina: { type: 'int', min: 1, max: 1_000_000 },
  porPagina: { type: 'enum', values: CONSTANTS.pageSizes.map(String) },
  usuario_id: { type: 'int', min: 1 },
  entidad: { type: 'string', max: 40 },
  entidad_id: { type: 'int', min: 1 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
  q: { type: 'string', max: 100 },
} as const satisfies Schema;

export const actividadActions = [
  defineAction({
    name: 'listadoactividad',
    method: 'GET',
    input: listInput,
    async handler({ input, app }) {
      return { RESULT: '0', ...(await listadoActividad(app, input)) };
    },
  }),
];
