import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM helper shared with bench/
import { startServer } from '../../server/scripts/spawn-server.mjs';
import { ADMIN } from './admin';

/** Starts the real server (built shell and remotes, fresh SQLite) once for the whole suite. */
export default async function setup(project: TestProject) {
  const server = await startServer({ env: { MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password } });
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', server.dataDir);
  return () => server.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
