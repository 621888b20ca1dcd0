import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A free loopback TCP port. */
export function freePort(): Promise<number> {
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

/** Whether initdb and pg_ctl are installed, so a throwaway cluster can be started. */
export const hasPostgresBinaries = () => onPath('initdb') && onPath('pg_ctl');

/** initdb refuses to run as root: then the cluster belongs to the postgres user. */
function run(args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, ...rest] = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args;
  const r = spawnSync(cmd, rest, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
}

export type Cluster = { url: string; dir: string; stop(): void };

/**
 * A throwaway PostgreSQL cluster in a temporary folder, on a free loopback port, for the server's
 * tests and the benchmarks. No fsync: nothing in it needs to survive a crash.
 */
export async function startCluster(opts: { prefix: string; settings?: string[] }): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), opts.prefix));
  if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres:', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  run(['initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const settings = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c full_page_writes=off', ...(opts.settings ?? [])].join(' ');
  run(['pg_ctl', '-D', data, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60', '-o', settings, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    stop() {
      try {
        run(['pg_ctl', '-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
