import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL server to run the suite against too; '' when there is none. */
    pgUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const onPath = (bin: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, bin)));

/** initdb refuses to run as root: then the cluster belongs to the postgres user. */
function run(args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, ...rest] = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args;
  const r = spawnSync(cmd, rest, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
}

/** Uses DATABASE_URL, or starts a throwaway PostgreSQL cluster in a temporary folder for the suite. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    console.log('PostgreSQL: running the suite also against DATABASE_URL');
    project.provide('pgUrl', process.env.DATABASE_URL);
    return;
  }
  if (!onPath('initdb') || !onPath('pg_ctl')) {
    const line = 'PostgreSQL: no DATABASE_URL and no initdb/pg_ctl on PATH: the PostgreSQL run is SKIPPED (SQLite only)';
    if (process.env.CI) throw new Error(line + ' — not allowed in CI');
    console.log(line);
    project.provide('pgUrl', '');
    return;
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-pg-'));
  if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres:', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  run(['initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  run(['pg_ctl', '-D', data, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60', '-o', settings, 'start']);
  console.log(`PostgreSQL: throwaway cluster on 127.0.0.1:${port} (${dir})`);
  project.provide('pgUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);

  return () => {
    try {
      run(['pg_ctl', '-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
