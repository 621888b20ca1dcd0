import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import { nowIso } from './context.ts';
import { randomToken, sha256 } from './security.ts';
import { preparedQuery } from './db/prepared.ts';

export const SESSION_COOKIE = 'mtpv_sesion';
export const SESSION_MS = 12 * 60 * 60 * 1000;
/** The sliding expiry is written at most this often, so reads stay reads. */
const REFRESH_MS = 60 * 1000;

export type SessionUser = { id: number; nombre: string; email: string; tokenHash: string };

export async function createSession(db: Kysely<Database>, usuarioId: number, request: FastifyRequest): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('sesiones')
    .values({
      token_hash: sha256(token),
      usuario_id: usuarioId,
      creada: nowIso(),
      expira: nowIso(SESSION_MS),
      ip: request.ip ?? null,
      agente: (request.headers['user-agent'] ?? '').slice(0, 300) || null,
    })
    .execute();
  return token;
}

const findSession = preparedQuery((db, p: { tokenHash: string; now: string }) =>
  db
    .selectFrom('sesiones as s')
    .innerJoin('usuarios as u', 'u.id', 's.usuario_id')
    .select(['s.expira', 'u.id', 'u.nombre', 'u.email'])
    .where('s.token_hash', '=', p.tokenHash)
    .where('s.expira', '>', p.now)
    .where('u.activo', '=', 1),
);

const slideSession = preparedQuery((db, p: { tokenHash: string; expira: string }) =>
  db.updateTable('sesiones').set({ expira: p.expira }).where('token_hash', '=', p.tokenHash),
);

/** The session's user, or null. `touch` slides the expiry (the heartbeat doesn't). */
export async function readSession(
  db: Kysely<Database>,
  request: FastifyRequest,
  touch: boolean,
): Promise<SessionUser | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const tokenHash = sha256(token);
  const now = Date.now();
  const [row] = await findSession(db, { tokenHash, now: new Date(now).toISOString() });
  if (!row) return null;
  if (touch && Date.parse(row.expira) - now < SESSION_MS - REFRESH_MS) {
    await slideSession(db, { tokenHash, expira: new Date(now + SESSION_MS).toISOString() });
  }
  return { id: row.id, nombre: row.nombre, email: row.email, tokenHash };
}

const isHttps = (request: FastifyRequest) => request.protocol === 'https';

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, token: string): void {
  // No Max-Age: the browser forgets it on close; the server enforces the 12 h sliding expiry.
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(request) });
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(request) });
}
