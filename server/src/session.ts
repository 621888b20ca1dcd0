import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { RolSesion } from 'shared/domain';
import { leerDerechos } from './auth/roles.ts';
import type { Database } from './db/schema.ts';
import { nowIso } from './context.ts';
import { randomToken, sha256 } from './security.ts';
import { preparedQuery } from './db/prepared.ts';
import { readerOf } from './db/index.ts';

export const SESSION_COOKIE = 'mtpv_sesion';
export const SESSION_MS = 12 * 60 * 60 * 1000;
/** The sliding expiry is written at most this often, so reads stay reads. */
const REFRESH_MS = 60 * 1000;

/** The session's user with the role's rights as they are now (read on every request: a role changed applies to the next one). */
export type SessionUser = {
  id: number;
  nombre: string;
  email: string;
  tokenHash: string;
  rol: RolSesion;
  /** The terminal whose PIN login opened the session (the till's actions only, that terminal's caja); null for a password login. */
  terminalId: number | null;
};

export async function createSession(
  db: Kysely<Database>,
  usuarioId: number,
  request: FastifyRequest,
  terminalId: number | null = null,
): Promise<string> {
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
      terminal_id: terminalId,
    })
    .execute();
  return token;
}

const findSession = preparedQuery((db, p: { tokenHash: string; now: string }) =>
  db
    .selectFrom('sesiones as s')
    .innerJoin('usuarios as u', 'u.id', 's.usuario_id')
    // A user without a role (never, short of a hand-edited database) has no rights at all.
    .leftJoin('roles as r', 'r.id', 'u.rol_id')
    .select(['s.expira', 's.terminal_id', 'u.id', 'u.nombre', 'u.email', 'r.id as rol_id', 'r.nombre as rol_nombre', 'r.clave as rol_clave', 'r.derechos'])
    .where('s.token_hash', '=', p.tokenHash)
    .where('s.expira', '>', p.now)
    .where('u.activo', '=', 1),
  { read: true },
);

const slideSession = preparedQuery((db, p: { tokenHash: string; expira: string }) =>
  db.updateTable('sesiones').set({ expira: p.expira }).where('token_hash', '=', p.tokenHash),
);

type CachedSession = { user: SessionUser; expira: number };
type SessionCache = { version: number; byToken: Map<string, CachedSession> };
const caches = new WeakMap<Kysely<Database>, SessionCache>();
const MAX_CACHED_SESSIONS = 10_000;

/**
 * On SQLite (one process) the sessions read are kept until the next write of any kind (the
 * reader's version), so a page's worth of requests reads the database once; logout, deactivation
 * and expiry are still seen at once. PostgreSQL (several instances) reads every time.
 */
function sessionCache(db: Kysely<Database>): SessionCache | undefined {
  const reader = readerOf(db);
  if (!reader) return undefined;
  const version = reader.version();
  let cache = caches.get(db);
  if (!cache || cache.version !== version) {
    cache = { version, byToken: new Map() };
    caches.set(db, cache);
  }
  return cache;
}

/** The session's user, or null. `touch` slides the expiry (the heartbeat doesn't). */
export async function readSession(
  db: Kysely<Database>,
  request: FastifyRequest,
  touch: boolean,
): Promise<SessionUser | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const now = Date.now();
  const cache = sessionCache(db);
  let entry = cache?.byToken.get(token);
  if (!entry || entry.expira <= now) {
    const tokenHash = sha256(token);
    const [row] = await findSession(db, { tokenHash, now: new Date(now).toISOString() });
    if (!row) return null;
    const rol: RolSesion = {
      id: row.rol_id ?? 0,
      nombre: row.rol_nombre ?? '',
      clave: (row.rol_clave ?? null) as RolSesion['clave'],
      derechos: leerDerechos(row.derechos),
    };
    const terminalId = row.terminal_id == null ? null : Number(row.terminal_id);
    entry = { user: { id: row.id, nombre: row.nombre, email: row.email, tokenHash, rol, terminalId }, expira: Date.parse(row.expira) };
    if (cache) {
      if (cache.byToken.size >= MAX_CACHED_SESSIONS) cache.byToken.clear();
      cache.byToken.set(token, entry);
    }
  }
  if (touch && entry.expira - now < SESSION_MS - REFRESH_MS) {
    entry.expira = now + SESSION_MS;
    await slideSession(db, { tokenHash: entry.user.tokenHash, expira: new Date(entry.expira).toISOString() });
  }
  return entry.user;
}

const isHttps = (request: FastifyRequest) => request.protocol === 'https';

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, token: string): void {
  // No Max-Age: the browser forgets it on close; the server enforces the 12 h sliding expiry.
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(request) });
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(request) });
}
