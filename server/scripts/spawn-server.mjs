// Starts the real server (`pnpm --filter server start`) on a free loopback port with its own data
// folder; used by the e2e suite and the benchmarks.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`el servidor no respondió en ${url}`);
}

/**
 * `dataDir`: the SQLite database to serve (left in place by stop()); a fresh folder when absent.
 * @param {{ env?: Record<string, string>, quiet?: boolean, dataDir?: string }} [options]
 * @returns {Promise<{ baseUrl: string, dataDir: string, pid: number, kill: () => void, stop: () => Promise<void> }>}
 * `kill()`: SIGKILL to the server's process group (tsx and the node it runs), as `kill -9` would.
 */
export async function startServer({ env = {}, quiet = false, dataDir: existing = undefined } = {}) {
  // A data folder of its own, removed by stop(), unless the caller's (a bench's SQLite file), which stays.
  const dataDir = existing ?? mkdtempSync(path.join(tmpdir(), 'mtpv-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(path.join(root, 'server', 'node_modules', '.bin', 'tsx'), ['src/main.ts'], {
    cwd: path.join(root, 'server'),
    // MANAGER_DEMO=0: the suites and benches start without the demo's generated past, unless `env` asks for it.
    env: { ...process.env, DATABASE_URL: '', SMTP_URL: '', MANAGER_DEMO: '0', PUBLIC_URL: baseUrl, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    detached: true,
  });
  await waitFor(`${baseUrl}/api/deploy.json`, 60_000);
  return {
    baseUrl,
    dataDir,
    pid: child.pid,
    kill() {
      process.kill(-child.pid, 'SIGKILL');
    },
    async stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await new Promise((r) => setTimeout(r, 300));
      if (!existing) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
