import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { hasPostgresBinaries, startCluster } from './pg-cluster.ts';

/**
 * pg_trgm (migration 0004_busqueda) once, in the database's default schema: each test app migrates
 * in a schema of its own, dropped with CASCADE afterwards, which would otherwise take the extension
 * (and the other apps' trigram indexes) with the first schema that created it.
 */
async function createExtensions(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('create extension if not exists pg_trgm');
  } finally {
    await c.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL server to run the suite against too; '' when there is none. */
    pgUrl: string;
  }
}

/** Uses DATABASE_URL, or starts a throwaway PostgreSQL cluster in a temporary folder for the suite. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    console.log('PostgreSQL: running the suite also against DATABASE_URL');
    await createExtensions(process.env.DATABASE_URL);
    project.provide('pgUrl', process.env.DATABASE_URL);
    return;
  }
  if (!hasPostgresBinaries()) {
    const line = 'PostgreSQL: no DATABASE_URL and no initdb/pg_ctl on PATH: the PostgreSQL run is SKIPPED (SQLite only)';
    if (process.env.CI) throw new Error(line + ' — not allowed in CI');
    console.log(line);
    project.provide('pgUrl', '');
    return;
  }

  const cluster = await startCluster({ prefix: 'mtpv-pg-', settings: ['-c synchronous_commit=off', '-c max_connections=200'] });
  console.log(`PostgreSQL: throwaway cluster on ${new URL(cluster.url).host} (${cluster.dir})`);
  await createExtensions(cluster.url);
  project.provide('pgUrl', cluster.url);

  return () => cluster.stop();
}
