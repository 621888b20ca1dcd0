// Prints the shell's first-load JavaScript (gzip), split into what blocks the first paint and what
// loads lazily, and each remote's entry and section size, as Chromium really fetches them.
// Needs the apps built (`pnpm build`). Run: pnpm bench:bundle
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startServer } from '../server/scripts/spawn-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function fileFor(url) {
  const p = new URL(url).pathname;
  const m = /^\/remotes\/([^/]+)\/(.+)$/.exec(p);
  return m ? path.join(root, m[1], 'dist', m[2]) : path.join(root, 'shell', 'dist', p.slice(1));
}
const gz = (url) => gzipSync(readFileSync(fileFor(url)), { level: 9 }).length;

const server = await startServer({ env: { MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password }, quiet: true });
const profile = mkdtempSync(path.join(tmpdir(), 'mtpv-bench-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  baseURL: server.baseUrl,
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
let scripts = [];
page.on('response', (r) => {
  if (r.request().resourceType() === 'script' && r.status() < 400) scripts.push(r.url());
});
const take = () => {
  const s = [...new Set(scripts)];
  scripts = [];
  return s;
};
const rows = [];
const sum = (urls) => urls.reduce((n, u) => n + gz(u), 0);

try {
  // First paint: everything the login screen needs before it can render.
  await page.goto('/login', { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Entrar' }).waitFor();
  const firstPaint = take();
  if (process.env.VERBOSE) for (const u of firstPaint) console.log('  primer pintado:', new URL(u).pathname, kb(gz(u)));
  rows.push(['shell: antes del primer pintado (login)', firstPaint.length, sum(firstPaint)]);

  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByTestId('grafico-inicio').waitFor({ timeout: 30000 });
  await page.waitForLoadState('networkidle');
  const home = take();
  rows.push(['shell: perezoso, inicio + gráfico', home.length, sum(home)]);

  const deploy = await (await fetch(`${server.baseUrl}/api/deploy.json`)).json();
  for (const r of deploy.remotes) {
    await page.goto(r.prefix, { waitUntil: 'networkidle' });
    const loaded = take().filter((u) => new URL(u).pathname.startsWith(path.posix.dirname(new URL(r.manifest, server.baseUrl).pathname)));
    const entry = loaded.filter((u) => u.endsWith('remoteEntry.js'));
    rows.push([`${r.name}: entrada (remoteEntry.js)`, entry.length, sum(entry)]);
    rows.push([`${r.name}: sección al entrar en ${r.prefix}`, loaded.length, sum(loaded)]);
  }
  // The till (/tpv, full screen): everything a cold browser (fresh profile, no cache) runs before its first
  // screen paints — the shell's first paint, the federation runtime, mf_tpv's entry and section.
  if (deploy.remotes.some((r) => r.prefix === '/tpv')) {
    const perfil = mkdtempSync(path.join(tmpdir(), 'mtpv-bench-tpv-'));
    const frio = await chromium.launchPersistentContext(perfil, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      baseURL: server.baseUrl,
    });
    try {
      const caja = frio.pages()[0] ?? (await frio.newPage());
      const tpv = [];
      caja.on('response', (r) => {
        if (r.request().resourceType() === 'script' && r.status() < 400) tpv.push(r.url());
      });
      await caja.goto('/tpv');
      // An unpaired browser's first screen.
      await caja.getByRole('heading', { name: 'Emparejar este terminal' }).waitFor({ timeout: 30000 });
      const antes = [...new Set(tpv)];
      if (process.env.VERBOSE) for (const u of antes) console.log('  caja:', new URL(u).pathname, kb(gz(u)));
      rows.push(['TPV: JS antes del primer pintado de la caja (en frío)', antes.length, sum(antes)]);
    } finally {
      await frio.close();
      rmSync(perfil, { recursive: true, force: true });
    }
  }
  const shellAll = readdirSync(path.join(root, 'shell', 'dist')).filter((f) => f.endsWith('.js'));
  const allGz = shellAll.reduce((n, f) => n + gzipSync(readFileSync(path.join(root, 'shell', 'dist', f)), { level: 9 }).length, 0);
  rows.push(['shell: todos los .js construidos', shellAll.length, allGz]);

  console.log('\nJavaScript transferido (gzip -9), tal como lo pide Chromium\n');
  console.log('qué'.padEnd(52), 'ficheros'.padStart(8), 'gzip'.padStart(12));
  for (const [what, n, size] of rows) console.log(what.padEnd(52), String(n).padStart(8), kb(size).padStart(12));
  const fp = rows[0][2];
  console.log(`\nObjetivo primer pintado ≤ 200 KB gzip: ${kb(fp)} → ${fp <= 200 * 1024 ? 'CUMPLE' : 'NO CUMPLE'}`);
} finally {
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
  await server.stop();
}
