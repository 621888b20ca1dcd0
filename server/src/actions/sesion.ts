import { MESSAGES, loginSchema, recordarSchema, restablecerSchema } from 'shared/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { nowIso } from '../context.ts';
import { hashPassword, randomToken, sha256, verifyAgainstDummy, verifyPassword } from '../security.ts';
import { SESSION_COOKIE, clearSessionCookie, createSession, setSessionCookie } from '../session.ts';
import { auditar } from '../actividad/registro.ts';
import { defineAction, fail, invalidFields } from './registry.ts';
import { contrasenaRechazada } from '../auth/contrasenas.ts';
import { readConfiguracion } from './configuracion.ts';
import { DERECHOS, tablaAcciones } from '../auth/derechos.ts';
import { rolSesion } from '../auth/roles.ts';

const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_IP = 20;
const RECOVERY_MS = 60 * 60 * 1000;
/** Recovery mails per user per hour; past it the answer is the same but nothing is sent. */
const MAX_RECOVERIES_PER_HOUR = 5;

/** Work an action started after its answer (the recovery mail), still running: the tests wait for it. */
const pendientes = new Set<Promise<void>>();

/** Runs `fn` after the current answer, its failure logged; never awaited by the action. */
function enSegundoPlano(fn: () => Promise<void>, onError: (err: Error) => void): void {
  const p = new Promise<void>((resolve) => setImmediate(resolve))
    .then(fn)
    .catch((err: unknown) => onError(err instanceof Error ? err : new Error(String(err))))
    .finally(() => pendientes.delete(p));
  pendientes.add(p);
}

/** Resolves when the work started after the answers so far has finished (a recovery mail sent). */
export async function trabajoPendiente(): Promise<void> {
  while (pendientes.size) await Promise.all([...pendientes]);
}

async function recentFailures(app: AppContext, keys: string[]): Promise<Map<string, number>> {
  const rows = await app.db
    .selectFrom('intentos_login')
    .select(['clave', (eb) => eb.fn.countAll<number>().as('n')])
    .where('clave', 'in', keys)
    .where('fecha', '>', nowIso(-ATTEMPT_WINDOW_MS))
    .groupBy('clave')
    .execute();
  return new Map(rows.map((r) => [r.clave, Number(r.n)]));
}

/** Counts a failed login, with its activity line (the address tried, and the user it names if there is one). */
async function recordFailure(app: AppContext, keys: string[], email: string, usuarioId: number | null): Promise<void> {
  const fecha = nowIso();
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('intentos_login').values(keys.map((clave) => ({ clave, fecha }))).execute();
    // Keep the table small: anything older than a day no longer counts.
    await trx.deleteFrom('intentos_login').where('fecha', '<', nowIso(-24 * 60 * 60 * 1000)).execute();
    auditar({ tipo: 'login_fallido', entidad_id: usuarioId, numero: email });
  });
}

/**
 * A login refused because of too many failures (issue 24: throttled attempts on the record): its activity line, with
 * the address or PIN tried for and the user it names, if any. Nothing else is written (the lockout doesn't grow).
 */
export async function registrarBloqueo(app: AppContext, numero: string, usuarioId?: number): Promise<void> {
  const id = usuarioId ?? (await app.db.selectFrom('usuarios').select('id').where('email', '=', numero).executeTakeFirst())?.id ?? null;
  await app.db.transaction().execute(async () => {
    auditar({ tipo: 'login_bloqueado', entidad_id: id, numero, siempre: true });
  });
}

/**
 * Where links in mails point: a configured origin only (AppContext.linkOrigins). The request's Origin chooses among
 * them when it is one of them (the same install reached by two names on a local network); the Host and
 * X-Forwarded-Host headers never count, so a forged request can't make the mail point elsewhere.
 */
function siteOrigin(app: AppContext, request: FastifyRequest): string {
  const origin = request.headers.origin;
  if (origin && app.linkOrigins.includes(origin)) return origin;
  return app.linkOrigins[0];
}

/** 1 while the company is the demo (issue 22: the shell's band «Empresa de demostración · Empezar con mis datos»). */
async function empresaDemo(app: AppContext): Promise<0 | 1> {
  const v = await app.db.selectFrom('verifactu').select('demo').where('id', '=', 1).executeTakeFirst();
  return Number(v?.demo ?? 0) === 1 ? 1 : 0;
}

/**
 * Opens a session for a user whose credentials were just checked (the password of `identificar`, the PIN of the
 * till's `identificartpv`): in one transaction it clears the user's failed attempts, ends the browser's previous
 * session and the expired ones, creates the session, stamps the last access and writes the activity line; then it
 * sets the cookie and answers what the app draws itself from (user with role, configuration, table of needs).
 */
export async function abrirSesion(
  app: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: number; nombre: string; email: string; rol_id: number | null },
  opciones: { intentos: string; actividad: string; terminalId?: number },
) {
  const previous = request.cookies[SESSION_COOKIE];
  const now = nowIso();
  const token = await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('intentos_login').where('clave', '=', opciones.intentos).execute();
    if (previous) await trx.deleteFrom('sesiones').where('token_hash', '=', sha256(previous)).execute();
    await trx.deleteFrom('sesiones').where('expira', '<=', now).execute();
    const created = await createSession(trx, user.id, request, opciones.terminalId ?? null);
    await trx.updateTable('usuarios').set({ ultimo_acceso: now }).where('id', '=', user.id).execute();
    auditar({ usuario: { id: user.id, nombre: user.nombre }, entidad_id: user.id, numero: opciones.actividad });
    return created;
  });
  setSessionCookie(reply, request, token);
  const configuracion = await readConfiguracion(app);
  return {
    RESULT: '0' as const,
    user: { id: user.id, nombre: user.nombre, email: user.email, rol: await rolSesion(app.db, user.rol_id) },
    data: configuracion ? [configuracion] : [],
    acciones: tablaAcciones(DERECHOS.keys()),
    demo: await empresaDemo(app),
  };
}

export const sesionActions = [
  defineAction({
    name: 'identificar',
    method: 'POST',
    public: true,
    input: loginSchema,
    async handler({ input, request, reply, app }) {
      const emailKey = `email:${input.email}`;
      const ipKey = `ip:${request.ip}`;
      const failures = await recentFailures(app, [emailKey, ipKey]);
      if ((failures.get(emailKey) ?? 0) >= MAX_FAILURES_PER_EMAIL || (failures.get(ipKey) ?? 0) >= MAX_FAILURES_PER_IP) {
        await registrarBloqueo(app, input.email);
        throw fail(MESSAGES.tooManyAttempts, '1', 429);
      }

      const user = await app.db.selectFrom('usuarios').selectAll().where('email', '=', input.email).executeTakeFirst();
      const ok = user ? await verifyPassword(input.password, user.password_hash) : await verifyAgainstDummy(input.password);
      if (!user || !ok || user.activo !== 1) {
        await recordFailure(app, [emailKey, ipKey], input.email, user?.id ?? null);
        throw fail(MESSAGES.loginFailed);
      }

      return abrirSesion(app, request, reply, user, { intentos: emailKey, actividad: user.email });
    },
  }),

  defineAction({
    name: 'sesion',
    method: 'GET',
    // Who is logged in with the role's rights as they are now, the configuration and the table of needs: what the
    // app draws its menu and buttons from (a restored tab, a role changed meanwhile).
    async handler({ user, app }) {
      const me = user!;
      const configuracion = await readConfiguracion(app);
      return {
        RESULT: '0',
        user: { id: me.id, nombre: me.nombre, email: me.email, rol: me.rol },
        data: configuracion ? [configuracion] : [],
        acciones: tablaAcciones(DERECHOS.keys()),
        demo: await empresaDemo(app),
      };
    },
  }),

  defineAction({
    name: 'cerrarsesion',
    method: 'POST',
    // Public so an already expired session can still log out cleanly.
    public: true,
    async handler({ request, reply, app }) {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await app.db.deleteFrom('sesiones').where('token_hash', '=', sha256(token)).execute();
      clearSessionCookie(reply, request);
      return { RESULT: '0', data: [] };
    },
  }),

  defineAction({
    name: 'recordar',
    method: 'POST',
    public: true,
    input: recordarSchema,
    async handler({ input, request, app }) {
      // The same answer at once, whether the address is a user's or not (issue 24: its time told them apart): the
      // lookup, the link and the mail happen after it.
      const origen = siteOrigin(app, request);
      enSegundoPlano(async () => {
        const user = await app.db
          .selectFrom('usuarios')
          .select(['id', 'nombre', 'email'])
          .where('email', '=', input.email)
          .where('activo', '=', 1)
          .executeTakeFirst();
        if (!user) return;
        const recent = await app.db
          .selectFrom('recuperaciones')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('usuario_id', '=', user.id)
          .where('expira', '>', nowIso())
          .executeTakeFirstOrThrow();
        if (Number(recent.n) >= MAX_RECOVERIES_PER_HOUR) {
          request.log.warn({ usuario: user.id }, 'recovery mail limit reached');
          return;
        }
        const token = randomToken();
        await app.db.insertInto('recuperaciones').values({ token_hash: sha256(token), usuario_id: user.id, expira: nowIso(RECOVERY_MS), usada: 0 }).execute();
        const link = `${origen}/recuperar-psswd?token=${token}`;
        const text = `${user.nombre}:\n\n${MESSAGES.recoveryMailIntro}\n\n${link}\n\n${MESSAGES.recoveryMailIgnore}\n`;
        await app.mailer.send({ to: user.email, subject: MESSAGES.recoveryMailSubject, text });
      }, (err) => request.log.error({ err: err.message }, 'recovery mail not sent'));
      return { RESULT: '0', message: MESSAGES.recoverySent, data: [] };
    },
  }),

  defineAction({
    name: 'restablecer',
    method: 'POST',
    public: true,
    input: restablecerSchema,
    async handler({ input, app }) {
      const tokenHash = sha256(input.token);
      const now = nowIso();
      const rec = await app.db
        .selectFrom('recuperaciones as r')
        .innerJoin('usuarios as u', 'u.id', 'r.usuario_id')
        .select(['r.usuario_id', 'r.expira', 'r.usada', 'u.activo', 'u.email', 'u.nombre'])
        .where('r.token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (rec?.usada !== 0 || rec.expira <= now || rec.activo !== 1) throw fail(MESSAGES.recoveryInvalid);
      // The same rule as a password set in Usuarios (the link stays usable for another try).
      const rechazada = contrasenaRechazada(input.password, rec.email);
      if (rechazada) throw invalidFields({ password: rechazada });
      const passwordHash = await hashPassword(input.password);
      await app.db.transaction().execute(async (trx) => {
        // The conditional update makes two simultaneous uses of one token succeed only once.
        const used = await trx
          .updateTable('recuperaciones')
          .set({ usada: 1 })
          .where('token_hash', '=', tokenHash)
          .where('usada', '=', 0)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) throw fail(MESSAGES.recoveryInvalid);
        await trx.updateTable('usuarios').set({ password_hash: passwordHash }).where('id', '=', rec.usuario_id).execute();
        // The user's other live links stop working (issue 24): one reset, not one per mail asked for.
        await trx.updateTable('recuperaciones').set({ usada: 1 }).where('usuario_id', '=', rec.usuario_id).where('usada', '=', 0).execute();
        await trx.deleteFrom('sesiones').where('usuario_id', '=', rec.usuario_id).execute();
        await trx.deleteFrom('intentos_login').where('clave', '=', `email:${rec.email}`).execute();
        auditar({ usuario: { id: rec.usuario_id, nombre: rec.nombre }, entidad_id: rec.usuario_id });
      });
      return { RESULT: '0', message: MESSAGES.passwordChanged, data: [] };
    },
  }),
];

