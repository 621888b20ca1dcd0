// `pnpm start`: builds whatever front-end package is missing or older than its sources, then
// starts the one server process (API + shell + remotes) on PORT (3000).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const apps = ['shell', ...readdirSync(root).filter((d) => d.startsWith('mf-') && existsSync(path.join(root, d, 'package.json')))];

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sharedTime = newest(path.join(root, 'shared', 'src'));
const stale = apps.filter((app) => {
  const marker = path.join(root, app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json');
  if (!existsSync(marker)) return true;
  return Math.max(newest(path.join(root, app, 'src')), sharedTime) > statSync(marker).mtimeMs;
});

for (const app of stale) {
  console.log(`Construyendo ${app}…`);
  const r = spawnSync('pnpm', ['--filter', app, 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn('pnpm', ['--filter', 'server', 'start'], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
