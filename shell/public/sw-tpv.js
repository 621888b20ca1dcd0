/*
 * The till's service worker (scope /tpv, registered by mf-tpv): everything the till needs is in the browser before
 * its first sale, so a till freshly paired (or after a deploy, or with a cleared cache) sells with the network
 * gone, and a reload while offline brings the till back instead of the browser's offline page.
 *
 * - Kept (precached): the page (/tpv → the shell's index.html), the deploy configuration (/api/deploy.json), every
 *   file of the shell's build and of mf-tpv's (each build's precache.json lists them: shared/build/federation.mjs).
 *   At install and whenever the till asks (on every start: a deploy changes the lists, not this file).
 * - Files whose name carries a content hash never change: from the cache first. Everything else (the page,
 *   remoteEntry.js, the manifests, deploy.json): from the network first, the kept copy when it doesn't answer.
 * - op.asp and the rest of /api, and /archivos: always the network, never kept (the till's own IndexedDB keeps
 *   the catalogue and the queue).
 */
const CACHE = 'manager-tpv-caja-v1';
const PAGINA = '/tpv';
const DEPLOY = '/api/deploy.json';
const REMOTO = 'mf_tpv';
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
/** How long the network has before the kept copy answers (a server that hangs instead of refusing). */
const ESPERA_MS = 4000;

async function json(url) {
  const res = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.json();
}

/** The URLs of the till: its page, the deploy configuration, the shell's build and mf-tpv's. */
async function urlsDeLaCaja() {
  const [deploy, shell] = await Promise.all([json(DEPLOY), json('/precache.json')]);
  const urls = [PAGINA, DEPLOY, ...shell.filter((f) => f !== 'index.html').map((f) => new URL(f, self.location.origin).href)];
  const tpv = (deploy.remotes || []).find((r) => r.name === REMOTO);
  if (tpv) {
    const base = new URL('.', new URL(tpv.manifest, self.location.origin)).href;
    const lista = await json(`${base}precache.json`);
    urls.push(...lista.map((f) => base + f));
  }
  return urls.map((u) => new URL(u, self.location.origin).href);
}

/** Keeps every file of the till (what a hash names and is already kept is not fetched again); drops the old ones. */
async function precachear() {
  const cache = await caches.open(CACHE);
  const urls = await urlsDeLaCaja();
  const guardadas = new Set((await cache.keys()).map((r) => r.url));
  await Promise.all(
    urls.map(async (url) => {
      if (HASHED.test(new URL(url).pathname) && guardadas.has(url)) return;
      const res = await fetch(url, { cache: 'no-cache', credentials: 'same-origin' });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      await cache.put(url, res);
    }),
  );
  const vigentes = new Set(urls);
  for (const url of guardadas) if (!vigentes.has(url)) await cache.delete(url);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precachear().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const nombre of await caches.keys()) if (nombre.startsWith('manager-tpv-caja-') && nombre !== CACHE) await caches.delete(nombre);
      await self.clients.claim();
    })(),
  );
});

/** The till asks on every start: the files of the build deployed now are kept (answers on the port given). */
self.addEventListener('message', (event) => {
  if (event.data !== 'precachear') return;
  const puerto = event.ports[0];
  event.waitUntil(
    precachear().then(
      () => puerto?.postMessage({ ok: true }),
      (e) => puerto?.postMessage({ ok: false, error: String(e?.message ?? e) }),
    ),
  );
});

function conEspera(promesa) {
  return Promise.race([promesa, new Promise((_, reject) => setTimeout(() => reject(new Error('sin respuesta')), ESPERA_MS))]);
}

async function redPrimero(request, clave) {
  const cache = await caches.open(CACHE);
  try {
    const res = await conEspera(fetch(request));
    if (res.ok) await cache.put(clave, res.clone());
    return res;
  } catch (e) {
    const guardada = await cache.match(clave);
    if (guardada) return guardada;
    throw e;
  }
}

async function cachePrimero(request) {
  const cache = await caches.open(CACHE);
  const guardada = await cache.match(request.url);
  if (guardada) return guardada;
  const res = await fetch(request);
  if (res.ok) await cache.put(request.url, res.clone());
  return res;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const propia = url.origin === self.location.origin;
  // The server's answers are the network's, always (the till knows when they don't come).
  if (propia && ((url.pathname.startsWith('/api/') && url.pathname !== DEPLOY) || url.pathname.startsWith('/archivos/'))) return;
  if (request.mode === 'navigate') {
    // Any address under /tpv is the shell's page: the kept one when the server doesn't answer.
    event.respondWith(redPrimero(request, new URL(PAGINA, self.location.origin).href));
    return;
  }
  event.respondWith(HASHED.test(url.pathname) ? cachePrimero(request) : redPrimero(request, url.href));
});
