import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { readSession } from './session.ts';

/**
 * `GET /api/logueado.asp`: the shell's hidden frame. It tells the parent window whether the session
 * is alive and reloads itself every minute. It reads the session without sliding it, so an idle
 * tab doesn't keep a session open forever.
 */
export function registerHeartbeat(app: FastifyInstance): void {
  app.get('/api/logueado.asp', async (request, reply) => {
    const user = await readSession(app.manager.db, request, false);
    const nonce = crypto.randomBytes(16).toString('base64');
    const html =
      '<!doctype html><html><head><meta charset="utf-8">' +
      '<meta http-equiv="refresh" content="60"><title>logueado</title></head><body>' +
      `<script nonce="${nonce}">parent.postMessage({ tipo: 'logueado', logueado: ${user ? 'true' : 'false'} }, location.origin);</script>` +
      '</body></html>';
    return reply
      .header('Content-Security-Policy', `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'`)
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
