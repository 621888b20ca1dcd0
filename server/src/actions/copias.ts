import { MESSAGES } from 'shared/domain';
import { todayIn } from '../context.ts';
import { MAX_BACKUP_BYTES, restaurarCopia, volcarCopia } from '../copias/copia.ts';
import { readUpload } from './archivos.ts';
import { FileDownload, defineAction } from './registry.ts';

/** The backup (copias/copia.ts): downloaded as one JSON file, restored from one. */
export const copiaActions = [
  defineAction({
    name: 'copiaseguridad',
    method: 'GET',
    async handler({ app }) {
      const { body } = await volcarCopia(app);
      return new FileDownload(`manager-tpv-${todayIn(app.timeZone)}.json`, 'application/json; charset=utf-8', body);
    },
  }),

  defineAction({
    name: 'restaurarcopia',
    method: 'POST',
    async handler({ request, user, app }) {
      const { buffer } = await readUpload(request, MAX_BACKUP_BYTES);
      const counts = await restaurarCopia(app, buffer, user);
      return { RESULT: '0', message: MESSAGES.backupRestored, data: [counts] };
    },
  }),
];
