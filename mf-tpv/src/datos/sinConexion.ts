/**
 * The till in the browser before its first sale: registers the till's service worker (`/sw-tpv.js`, built with
 * the shell; scope `/tpv`) and asks it to keep every file of the till now (the shell's and mf-tpv's, as deployed
 * today). Answers true when all of it is kept and the page is served by it: from then on a lazy chunk (the cobro,
 * the ticket) loads without the network, and a reload offline brings the till back.
 *
 * Without service workers (an insecure origin, the dev harness on its own port, the tests) it answers false and the
 * till works as before, online.
 */
export const SW_URL = '/sw-tpv.js';
export const SW_SCOPE = '/tpv';

export async function prepararSinConexion(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return false;
  try {
    const reg = await navigator.serviceWorker.register(SW_URL, { scope: SW_SCOPE });
    const sw = reg.active ?? (await navigator.serviceWorker.ready).active;
    if (!sw) return false;
    // Installed means all of one build is kept; this keeps the build deployed now (best effort: offline at start, the
    // kept one serves).
    await new Promise<boolean>((resolve) => {
      const canal = new MessageChannel();
      canal.port1.onmessage = (m: MessageEvent<{ ok: boolean }>) => resolve(!!m.data?.ok);
      sw.postMessage('precachear', [canal.port2]);
      setTimeout(() => resolve(false), 60_000);
    });
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => {
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true });
        setTimeout(resolve, 5_000);
      });
    }
    return !!navigator.serviceWorker.controller;
  } catch {
    return false;
  }
}
