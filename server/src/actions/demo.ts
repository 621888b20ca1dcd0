import { MAESTROS_DEMO, MESSAGES } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { invalidFields } from '../errors.ts';
import { eliminarDemo, estadoDemo } from '../demo/index.ts';
import { defineAction } from './registry.ts';

/**
 * Utilidades › «Empezar con mis datos» (issue 22): what the demo's trial holds and what stays (`listadodemo`), and the
 * step that ends it (`eliminardemo`, its name kept): the trial removed in one transaction, the company live.
 */
export const demoActions = [
  defineAction({
    name: 'listadodemo',
    method: 'GET',
    async handler({ app }) {
      return { RESULT: '0', data: [await estadoDemo(app.db)], total: 1 };
    },
  }),

  defineAction({
    name: 'eliminardemo',
    method: 'POST',
    input: { maestros: { type: 'enum', values: MAESTROS_DEMO } } as const satisfies Schema,
    async handler({ app, input, raw }) {
      if (raw.maestros !== undefined && input.maestros === null) throw invalidFields({ maestros: MESSAGES.demoMaestros });
      const maestros = input.maestros ?? 'conservar';
      const hecho = await app.db.transaction().execute((trx) => eliminarDemo(trx, app.dialect, maestros));
      return { RESULT: '0', message: MESSAGES.demoEliminada, data: [hecho] };
    },
  }),
];
