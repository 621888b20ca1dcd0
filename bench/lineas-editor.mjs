// Typing latency of the lines editor (shared/src/documentos/EditorLineas.tsx) in Chromium: a new
// movimiento with 200 lines (pasted as «código ⇥ cantidad» rows through a synthetic paste event,
// as from a spreadsheet), then ~100 keystrokes into the quantity of line 150; and the same with 20
// lines for comparison. Per keystroke: from the keydown event's timestamp to the next animation
// frame after the input's value changed («fotograma»), and to the first task after that frame
// («tras pintar»). Prints median, p95 and max in milliseconds.
// Needs the apps built (`pnpm build`). Run: pnpm bench:lineas
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../server/scripts/spawn-server.mjs';

const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 100);
const WARMUP = 10;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (n) => `${n.toFixed(1)} ms`.padStart(10);

/** Ten digits typed, then erased: every keystroke changes the value. */
const keys = (n) => Array.from({ length: n }, (_, i) => (Math.floor(i / 10) % 2 === 0 ? String((i % 10) + 1).slice(-1) : 'Backspace'));

const server = await startServer({ env: { MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password }, quiet: true });
const profile = mkdtempSync(path.join(tmpdir(), 'mtpv-bench-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  baseURL: server.baseUrl,
  viewport: { width: 1280, height: 800 },
  locale: 'es-ES',
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
page.setDefaultTimeout(60_000);

/** Opens a new movimiento and pastes `n` rows of the demo catalogue's codes into the entry box. */
async function nuevoMovimiento(codigos, n) {
  await page.goto('/almacenes/movimiento/nuevo-movimiento');
  const entry = page.getByRole('combobox', { name: 'Añadir artículo' });
  await entry.waitFor();
  const text = Array.from({ length: n }, (_, i) => `${codigos[i % codigos.length]}\t${(i % 9) + 1}`).join('\n');
  await entry.evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    el.focus();
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
  await page.getByTestId(`linea-${n}`).waitFor();
  await page.getByRole('status').filter({ hasText: `Se han añadido ${n} líneas.` }).waitFor();
}

/** Keystrokes into one line's quantity; answers the latencies (ms) per keystroke. */
async function medir(linea, n) {
  const input = page.getByLabel(`Cantidad de la línea ${linea}`);
  await input.scrollIntoViewIfNeeded();
  await input.focus();
  await page.evaluate(() => {
    const w = window;
    w.__lat = [];
    let t0 = 0;
    const on = (type, fn) => {
      document.addEventListener(type, fn, true);
      w.__off = [...(w.__off ?? []), () => document.removeEventListener(type, fn, true)];
    };
    on('keydown', (e) => {
      t0 = e.timeStamp;
    });
    on('input', () => {
      const start = t0;
      requestAnimationFrame(() => {
        const frame = performance.now() - start;
        const ch = new MessageChannel();
        ch.port1.onmessage = () => w.__lat.push({ frame, painted: performance.now() - start });
        ch.port2.postMessage(null);
      });
    });
  });
  const sequence = keys(WARMUP + n);
  for (let i = 0; i < sequence.length; i++) {
    await page.keyboard.press(sequence[i]);
    await page.waitForFunction((k) => window.__lat.length >= k, i + 1, { polling: 'raf' });
  }
  const lat = await page.evaluate(() => {
    for (const off of window.__off ?? []) off();
    window.__off = [];
    return window.__lat;
  });
  return lat.slice(WARMUP);
}

try {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  const res = await page.evaluate(async () => (await fetch('/api/op.asp?ac=listadoarticulos&porPagina=100&activo=1')).json());
  const codigos = res.data.map((a) => a.codigo);

  const rows = [];
  for (const [n, linea] of [
    [20, 15],
    [200, 150],
  ]) {
    await nuevoMovimiento(codigos, n);
    const lat = await medir(linea, KEYSTROKES);
    for (const k of ['frame', 'painted']) {
      const xs = lat.map((l) => l[k]);
      rows.push([`${n} líneas, línea ${linea}, ${k === 'frame' ? 'hasta el fotograma' : 'tras pintar'}`, xs.length, pct(xs, 50), pct(xs, 95), Math.max(...xs)]);
    }
  }
  console.log(`\nLatencia al teclear en la cantidad de una línea (Chromium, ${KEYSTROKES} pulsaciones tras ${WARMUP} de calentamiento)\n`);
  console.log('qué'.padEnd(46), 'n'.padStart(5), 'mediana'.padStart(10), 'p95'.padStart(10), 'máx'.padStart(10));
  for (const [what, n, med, p95, max] of rows) console.log(what.padEnd(46), String(n).padStart(5), ms(med), ms(p95), ms(max));
  const p95_200 = rows.find((r) => r[0].startsWith('200') && r[0].includes('fotograma'))[3];
  console.log(`\nReferencia (RAIL, respuesta a la entrada ≤ 50 ms): con 200 líneas, p95 hasta el fotograma: ${p95_200.toFixed(1)} ms → ${p95_200 <= 50 ? 'CUMPLE' : 'NO CUMPLE'}`);
} finally {
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
  await server.stop();
}
