import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The WAL checkpoint of the SQLite database, off the requests' path: a worker thread with a connection of its own
 * copies the WAL into the database file (`PRAGMA wal_checkpoint(PASSIVE)`) every `intervalMs`. PASSIVE never waits
 * for nor blocks a writer or a reader, and the worker's thread never blocks the event loop, so no request's commit
 * pays for copying the WAL and syncing the database file (with SQLite's own autocheckpoint, whichever commit crossed
 * the 1.000 pages did). A writer restarts the WAL from its start once a checkpoint has copied all of it, so under a
 * steady load the WAL stays at what is written between two checkpoints; db/index.ts keeps a much higher
 * `wal_autocheckpoint` on the main connection as the bound if this worker ever falls behind.
 *
 * Durability is the commits' own (`synchronous = FULL`: every commit syncs the WAL): a crash or a power cut before
 * a checkpoint loses nothing, the next open replays the WAL. On close the worker closes its connection and ends;
 * the main connection, closed last, checkpoints what is left and removes the WAL.
 *
 * The worker's code is plain CommonJS (no TypeScript loader in worker threads) and loads the same better-sqlite3.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = FULL');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export type Checkpointer = { stop(): Promise<void> };

export function startCheckpointer(file: string, intervalMs: number, onError: (message: string) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, intervalMs } });
  // Never what keeps the process alive.
  worker.unref();
  worker.on('message', (m: { error?: string }) => m.error && onError(m.error));
  worker.on('error', (err) => onError(err.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Waited for: the process stays until the worker has closed its connection.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
