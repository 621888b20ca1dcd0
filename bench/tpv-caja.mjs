// The till's own speed in Chromium (issue 13): scan-to-line-on-screen with a 100.000-article catalogue, up to a
// 40-line ticket. The real shell and mf-tpv (built: `pnpm --filter shell --filter mf-tpv build`) on the real server;
// the till's op.asp answers (a paired terminal, the catalogue, its buttons) are served by the page itself, so the
// figure is the browser's: the scanner's Enter → the line painted (MutationObserver + the next animation frame).
// Run: pnpm bench:tpv-caja. Target: p95 ≤ 50 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../server/scripts/spawn-server.mjs';

const N = Number(process.env.BENCH_ARTICLES ?? 100_000);
const LINEAS = 40;
const RONDAS = Number(process.env.BENCH_RONDAS ?? 3);

function ean13(doce) {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(doce[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return doce + ((10 - (sum % 10)) % 10);
}
const PALABRAS = ['Tornillo', 'Tuerca', 'Arandela', 'Martillo', 'Destornillador', 'Cinta', 'Bombilla', 'Pintura', 'Brocha', 'Café', 'Jabón', 'Lejía'];
const articulos = Array.from({ length: N }, (_, i) => ({
  id: i + 1,
  codigo: `A${String(i + 1).padStart(6, '0')}`,
  codigo_barras: ean13(`84${String(i).padStart(10, '0')}`),
  nombre: `${PALABRAS[i % PALABRAS.length]} ${i + 1}`,
  descripcion: `${PALABRAS[i % PALABRAS.length]} de prueba número ${i + 1}`,
  familia_id: null,
  tipo_iva: '21',
  precio: 10000 + (i % 500) * 100,
  unidad_medida: 'ud',
  kit: 0,
}));
const TERMINAL = {
  id: 1, nombre: 'Caja bench', almacen_id: 1, serie_id: 1, serie_rectificativa_id: 2, cliente_id: null, numero_instalacion: 'BENCH-TPV1',
  formas_pago: ['efectivo', 'tarjeta'], fondo: 0, activo: 1, emparejado: new Date().toISOString(),
  caja_abierta: { id: 1, apertura: new Date().toISOString(), fondo: 0, usuario_nombre: 'Bench' },
  serie: { id: 1, codigo: 'T1' }, serie_rectificativa: { id: 2, codigo: 'TR1' }, emisor: { nif: 'B00000000', nombre: 'Bench SL' },
  sistema: { nombre: 'Manager TPV', id: 'MT', version: '0.1.0' }, zona_horaria: 'Europe/Madrid', entorno: 'pruebas', ultimo: { ejercicio: 2026, numero: 0 }, cadena: null,
  cajeros: [{ id: 1, nombre: 'Bench', con_pin: 1 }],
};
const PAGINA = 5000;
const respuestas = {
  terminaltpv: () => ({ RESULT: '0', data: [TERMINAL] }),
  sesion: () => ({ RESULT: '0', user: { id: 1, nombre: 'Bench', email: 'bench@demo.es' }, data: [{ razon_social: 'Bench SL', nif: 'B00000000' }] }),
  articulostpv: (q) => {
    const desde = Number(q.get('desde_id') ?? 0);
    const data = articulos.slice(desde, desde + PAGINA);
    return { RESULT: '0', data, siguiente: desde + PAGINA < N ? desde + PAGINA : null };
  },
  listadobotonestpv: () => ({ RESULT: '0', data: [{ terminal_id: null, propias: 0, paginas: [] }] }),
};

const server = await startServer({ quiet: true });
const perfil = mkdtempSync(path.join(tmpdir(), 'mtpv-bench-caja-'));
const ctx = await chromium.launchPersistentContext(perfil, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  viewport: { width: 1024, height: 768 },
  baseURL: server.baseUrl,
});
try {
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.route('**/api/op.asp?*', async (route) => {
    const q = new URL(route.request().url()).searchParams;
    const f = respuestas[q.get('ac')];
    if (!f) return route.continue();
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(f(q)) });
  });
  const t0 = Date.now();
  await page.goto('/tpv');
  await page.getByText(`${N.toLocaleString('es-ES')} artículos`).waitFor({ timeout: 120_000 });
  console.log(`Catálogo de ${N.toLocaleString('es-ES')} artículos cargado e indexado en ${((Date.now() - t0) / 1000).toFixed(1)} s (desde la navegación)`);
  const buscador = page.getByLabel('Escanear o buscar artículo');
  const tiempos = [];
  const porRonda = [];
  const carga = () => loadavg().map((x) => x.toFixed(1).replace('.', ',')).join(' ');
  const cargaAntes = carga();
  for (let r = 0; r < RONDAS; r++) {
    const desde = tiempos.length;
    for (let i = 0; i < LINEAS; i++) {
      const a = articulos[(r * 7919 + i * 2477) % N];
      await buscador.fill(a.codigo_barras);
      // Enter pressed inside the page, timed there: until the new line is in the DOM and the next frame is painted.
      const ms = await page.evaluate(
        () =>
          new Promise((resolve) => {
            // The ticket's panel (the lines' list exists once it has one).
            const lista = document.querySelector('section[aria-label="Ticket"]');
            const input = document.querySelector('[aria-label="Escanear o buscar artículo"]');
            const antes = lista.querySelectorAll('[role=option]').length;
            const t = performance.now();
            const obs = new MutationObserver(() => {
              if (lista.querySelectorAll('[role=option]').length > antes) {
                obs.disconnect();
                requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t), 0));
              }
            });
            obs.observe(lista, { childList: true, subtree: true });
            input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true }));
          }),
      );
      tiempos.push(ms);
    }
    porRonda.push(tiempos.slice(desde).sort((a, b) => a - b));
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Anular' }).click();
    await page.getByText('Escanee o busque un artículo.').waitFor();
  }
  // BENCH_DETALLE=1: every reading in order (the first ticket is sold while the catalogue is still being stored).
  if (process.env.BENCH_DETALLE) console.log(tiempos.map((t) => t.toFixed(0)).join(' '));
  tiempos.sort((a, b) => a - b);
  const pc = (xs, q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const p = (q) => pc(tiempos, q);
  console.log(`\nEscanear → línea pintada (${tiempos.length} lecturas, tickets de hasta ${LINEAS} líneas)`);
  console.log(`p50 ${p(0.5).toFixed(1)} ms · p95 ${p(0.95).toFixed(1)} ms · máx ${tiempos.at(-1).toFixed(1)} ms`);
  console.log(`por ticket (p50 / p95): ${porRonda.map((xs) => `${pc(xs, 0.5).toFixed(1)} / ${pc(xs, 0.95).toFixed(1)}`).join(' · ')}`);
  console.log(`carga de la máquina (1, 5, 15 min): ${cargaAntes} al empezar · ${carga()} al acabar`);
  console.log(`Objetivo p95 ≤ 50 ms: ${p(0.95) <= 50 ? 'CUMPLE' : 'NO CUMPLE'}`);
} finally {
  await ctx.close();
  rmSync(perfil, { recursive: true, force: true });
  await server.stop();
}
