import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from 'shared/domain';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** `scrypt$N$r$p$salt$hash` (base64url), random 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const { N, r, p, keylen } = SCRYPT;
  const hash = await scrypt(password.normalize('NFC'), salt, keylen, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const hash = await scrypt(password.normalize('NFC'), salt, expected.length, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return crypto.timingSafeEqual(hash, expected);
}

/** Spends the same time as a real check, so an unknown email can't be told apart by timing. */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
  return false;
}

export const randomToken = (): string => crypto.randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');

export function contentSecurityPolicy(remoteOrigins: string[]): string {
  const extra = remoteOrigins.length ? ' ' + remoteOrigins.join(' ') : '';
  return [
    "default-src 'self'",
    `script-src 'self'${extra}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self'${extra}`,
    "font-src 'self' data:",
    "frame-src 'self'",
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a state-changing request comes from this site (Origin, or Sec-Fetch-Site when no Origin). */
export function isSameOrigin(request: FastifyRequest, publicOrigin: string | null): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return request.headers['sec-fetch-site'] !== 'cross-site';
  if (publicOrigin && origin === publicOrigin) return true;
  try {
    // request.host follows X-Forwarded-Host only when the proxy is trusted.
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}

/** Security headers on every response, and the origin check on every state-changing request. */
export function registerSecurity(app: FastifyInstance, opts: { remoteOrigins: string[]; publicUrl?: string }): void {
  const csp = contentSecurityPolicy(opts.remoteOrigins);
  const publicOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : null;

  const headers = {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'SAMEORIGIN',
    // A back office: no page, file or answer of it belongs in a search engine.
    'X-Robots-Tag': 'noindex',
  };
  // A callback hook, not async: it runs on every request, including every static file.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.headers(headers);
    if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request, publicOrigin)) {
      reply.code(403).send({ RESULT: '1', message: MESSAGES.forbiddenOrigin });
      return;
    }
    done();
  });
}
