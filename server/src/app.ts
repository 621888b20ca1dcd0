import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController } from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { MESSAGES } from 'shared/domain';
import { createRegistry } from './actions/index.ts';
import { multipartConstraint, registerDispatcher } from './actions/registry.ts';
import { registerArchivoRoute } from './actions/archivos.ts';
import { ConfigCache } from './context.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/index.ts';
import { instalarActividad } from './actividad/registro.ts';
import { refrescarAgregados } from './informes/agregados.ts';
import { MigracionFallida, migrate } from './db/migrations/index.ts';
import { seed } from './demo/seed.ts';
import { startVerifactu } from './fiscal/envio.ts';
import type { VerifactuOptions } from './fiscal/envio.ts';
import { deployInfo, readDeployFile, remoteOrigins } from './deploy.ts';
import { registerHeartbeat } from './heartbeat.ts';
import { ErrorDeConfiguracion, comprobarOrigenes, origenDe } from './entorno.ts';
import { copiaAntesDeMigrar } from './copias/antes-de-migrar.ts';
import { startCopias } from './copias/programadas.ts';
import type { CopiasOptions } from './copias/programadas.ts';
import { createMailer } from './mail.ts';
import { registerSecurity } from './security.ts';
import { registerStatic } from './static.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type BuildAppOptions = {
  dataDir: string;
  /** PostgreSQL connection string; SQLite under dataDir when absent. */
  databaseUrl?: string;
  /** Repository root: where shell/dist, the remotes' dist folders and deploy.json are. */
  staticRoot?: string;
  logger?: boolean;
  /** Public address (https://tpv.example.es): links in mails, and an accepted Origin. Required when `production`. */
  publicUrl?: string;
  /** `NODE_ENV=production`: PUBLIC_URL is required (the server refuses to start without it). */
  production?: boolean;
  /** Without PUBLIC_URL, the other origins a mail's link may point at (MANAGER_ORIGENES). */
  origins?: string[];
  /** Without PUBLIC_URL, the link's last resort: this machine's own address (default http://localhost:3000). */
  localOrigin?: string;
  smtpUrl?: string;
  /** First start only: the administrator to create; a password is generated and printed when absent. */
  adminEmail?: string;
  adminPassword?: string;
  /** Deploy configuration; default `DEPLOY_FILE` or `<staticRoot>/deploy.json`. */
  deployFile?: string;
  /**
   * Behind a reverse proxy (TRUST_PROXY, entorno.ts trustProxyDe): how many hops of X-Forwarded-* are proxies, or the
   * proxies' addresses. `true` counts as 1: a client's own X-Forwarded-For entries never become its address.
   */
  trustProxy?: boolean | number | string[];
  timeZone?: string;
  /** First start only: seed the demo's second warehouse, locations and opening stock (default true; the test fixture turns it off). */
  demoStock?: boolean;
  /**
   * First start only: generate the demo company's past year (demo/; MANAGER_DEMO, on unless `0`, in main.ts).
   * Off by default: the tests and benches start empty.
   */
  demo?: boolean;
  /** How long this process may reuse the module flags it read (other instances' saves show after it). */
  flagsTtlMs?: number;
  /**
   * The daily backup (MANAGER_COPIAS_DIR, _DIAS, _HORA; copias/programadas.ts); none when absent. Its folder also takes
   * the upgrade's backup, else `<dataDir>/copias`.
   */
  copias?: CopiasOptions;
  /** VERI*FACTU sender's timings and, for the tests' and bench's AEAT double only, its address and CA. */
  verifactu?: VerifactuOptions;
};

const redactUrl = (url: string) => url.replace(/([?&](?:password|token)=)[^&]*/gi, '$1***');

/**
 * One log line per request, when it is answered: the request (method, url, client) with its status and time, instead of
 * Fastify's two ("incoming request", then "request completed"): one write to stdout per request.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Builds the whole server, database migrated and seeded; `listen` is the caller's. */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const staticRoot = path.resolve(opts.staticRoot ?? REPO_ROOT);
  const deployFile = path.resolve(staticRoot, opts.deployFile ?? process.env.DEPLOY_FILE ?? 'deploy.json');

  // Before anything opens: a production server without its public address refuses to start.
  comprobarOrigenes(opts);
  const linkOrigins = opts.publicUrl
    ? [origenDe('PUBLIC_URL', opts.publicUrl)]
    : [...new Set([...(opts.origins ?? []).map((o) => origenDe('MANAGER_ORIGENES', o)), opts.localOrigin ?? 'http://localhost:3000'])];

  const app = Fastify({
    routerOptions: { constraints: { multipart: multipartConstraint } },
    trustProxy: fastifyTrustProxy(opts.trustProxy),
    logController: new OneLinePerRequest(),
    logger: opts.logger
      ? {
          level: process.env.LOG_LEVEL ?? 'info',
          serializers: {
            // Never a password or token in the logs, not even a misplaced one in a query string.
            req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
          },
        }
      : false,
  });

  const database = openDatabase({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl, log: app.log });
  try {
    // An upgrade (pending steps on a database with data): first a copy of the database as it is, or nothing runs.
    const hechos = await migrar(database.db, database.dialect, {
      antes: async (info) => {
        const dir = opts.copias?.dir ?? path.join(opts.dataDir, 'copias');
        try {
          const file = await copiaAntesDeMigrar(database.db, database.dialect, { dir, dataDir: opts.dataDir, databaseUrl: opts.databaseUrl }, info);
          app.log.info({ file, pendientes: info.pendientes }, 'backup taken before migrating');
        } catch (err) {
          throw new ErrorDeConfiguracion(
            `no se ha podido hacer la copia de la base de datos antes de actualizarla (${(err as Error).message}); no se ha cambiado nada. Compruebe la carpeta ${dir} (MANAGER_COPIAS_DIR) y vuelva a arrancar.`,
          );
        }
      },
    });
    if (hechos.length) app.log.info({ migraciones: hechos }, 'database migrated');
    const seeded = await seed(database.db, database.dialect, {
      email: opts.adminEmail ?? 'admin@demo.es',
      password: opts.adminPassword,
    }, { demoStock: opts.demoStock ?? true, demo: opts.demo ? { timeZone: opts.timeZone ?? 'Europe/Madrid' } : undefined });
    const created = seeded.adminCreated;
    if (seeded.demo) app.log.info(seeded.demo, 'demo data generated');
    if (created?.generatedPassword) printGeneratedAdmin(created.email, created.generatedPassword);
    else if (created) app.log.info({ email: created.email }, 'administrator created with MANAGER_ADMIN_PASSWORD');
  } catch (err) {
    await database.close();
    throw err;
  }

  const manager: AppContext = {
    db: database.db,
    dialect: database.dialect,
    dataDir: opts.dataDir,
    publicUrl: opts.publicUrl,
    linkOrigins,
    mailer: createMailer({ dataDir: opts.dataDir, smtpUrl: opts.smtpUrl, log: app.log }),
    config: new ConfigCache(database.db, opts.flagsTtlMs ?? 1000),
    timeZone: opts.timeZone ?? 'Europe/Madrid',
  };
  app.decorate('manager', manager);
  // Every transaction an action opens writes its activity line before it commits (actividad/registro.ts), after the
  // sales it changed are recomputed in the reports' aggregates (informes/agregados.ts).
  instalarActividad(database.db, database.dialect, (trx) => refrescarAgregados(trx, database.dialect));
  app.addHook('onClose', async () => database.close());
  if (opts.smtpUrl && !opts.publicUrl) {
    app.log.warn({ linkOrigins }, 'SMTP configured without PUBLIC_URL: recovery links point at the configured origins');
  }

  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // A POST with a JSON content type and no body (cerrarsesion) is an empty input, not an error.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || body.length === 0) return done(null, {});
    return defaultJson(request, body as string, done);
  });
  await app.register(cookie);

  const deploy = readDeployFile(deployFile, app.log);
  registerSecurity(app, { remoteOrigins: remoteOrigins(deploy), publicUrl: opts.publicUrl });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.code(413).send({ RESULT: '1', message: MESSAGES.fileTooLarge });
    if (status >= 400 && status < 500) {
      request.log.info({ code: err.code }, 'bad request');
      return reply.code(status).send({ RESULT: '1', message: MESSAGES.invalidRequest });
    }
    request.log.error({ err }, 'unexpected error');
    return reply.code(500).send({ RESULT: '1', message: MESSAGES.unexpectedError });
  });

  registerDispatcher(app, createRegistry());
  startVerifactu(app, opts.verifactu);
  startCopias(app, opts.copias);
  registerHeartbeat(app);
  registerArchivoRoute(app);
  app.get('/api/deploy.json', async (request, reply) => {
    const info = await deployInfo(deployFile, staticRoot, request.hostname, request.log);
    return reply.header('Cache-Control', 'no-cache').send(info);
  });
  registerStatic(app, { staticRoot, deploy });

  return app;
}

/**
 * Fastify's trustProxy from ours. A hop count becomes a function (Fastify ignores a bare number, as it can't check
 * the socket's peer): the last `n` addresses, the socket's first, are proxies, so the client's address is the one the
 * nearest proxy saw. With a count, only the proxy must reach the port (HOST=127.0.0.1); with addresses, any peer that
 * is not one of them is the client itself, whatever X-Forwarded-For it sends.
 */
function fastifyTrustProxy(value: BuildAppOptions['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (value === undefined || value === false || value === 0) return false;
  const hops = value === true ? 1 : value;
  if (typeof hops === 'number') return (_address, hop) => hop < hops;
  return hops;
}

/**
 * migrate(), with a failed step told as what it is for whoever runs the server: nothing changed, the previous version
 * still works with this database. The server does not start (exit 78 in main.ts: restarting would fail the same way).
 */
async function migrar(...args: Parameters<typeof migrate>): ReturnType<typeof migrate> {
  try {
    return await migrate(...args);
  } catch (err) {
    if (!(err instanceof MigracionFallida)) throw err;
    const causa = err.cause instanceof Error ? err.cause.message : String(err.cause ?? '');
    throw new ErrorDeConfiguracion(
      `la actualización de la base de datos ha fallado en el paso ${err.paso} (${causa}). No se ha cambiado nada: la base de datos sigue como la dejó la versión anterior, que puede volver a arrancar. Guarde este mensaje para quien mantenga la instalación.`,
      { cause: err },
    );
  }
}

function printGeneratedAdmin(email: string, password: string): void {
  const lines = [
    'Administrador creado (primer arranque).',
    `  correo:     ${email}`,
    `  contraseña: ${password}`,
    'La contraseña solo se muestra ahora: anótela y cámbiela después de entrar.',
  ];
  const bar = '='.repeat(Math.max(...lines.map((l) => l.length)) + 4);
  process.stdout.write(`\n${bar}\n${lines.map((l) => `  ${l}`).join('\n')}\n${bar}\n\n`);
}
