import { MESSAGES } from 'shared/domain';
import { eliminarDemo, estadoDemo } from '../db/demo/index.ts';
import { defineAction } from './registry.ts';

/** Utilidades › the demo company's generated past (db/demo/): what there is, and its removal before going live. */
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
    async handler({ app }) {
      const hecho = await app.db.transaction().execute((trx) => eliminarDemo(trx, app.dialect));
      return { RESULT: '0', message: MESSAGES.demoEliminada, data: [hecho] };
    },
  }),
];
