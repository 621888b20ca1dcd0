import path from 'node:path';
import { REPO_ROOT, buildApp } from './app.ts';
import { ErrorDeConfiguracion, copiasDe, origenesDe, trustProxyDe } from './entorno.ts';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

/**
 * A setting that keeps the server from starting: its message alone, on stderr, and exit status 78 (EX_CONFIG), which
 * the systemd unit does not restart on (server/deploy/manager-tpv.service, RestartPreventExitStatus).
 */
function configuracionNoValida(err: unknown): never {
  if (err instanceof ErrorDeConfiguracion) {
    process.stderr.write(`\nManager TPV no arranca: ${err.message}\n\n`);
    process.exit(78);
  }
  throw err;
}

let options: Parameters<typeof buildApp>[0];
try {
  options = {
    dataDir: path.resolve(process.env.DATA_DIR ?? path.join(REPO_ROOT, 'data')),
    databaseUrl: process.env.DATABASE_URL || undefined,
    staticRoot: REPO_ROOT,
    logger: true,
    publicUrl: process.env.PUBLIC_URL || undefined,
    production: process.env.NODE_ENV === 'production',
    origins: origenesDe(process.env.MANAGER_ORIGENES),
    localOrigin: `http://localhost:${port}`,
    smtpUrl: process.env.SMTP_URL || undefined,
    adminEmail: process.env.MANAGER_ADMIN_EMAIL || undefined,
    adminPassword: process.env.MANAGER_ADMIN_PASSWORD || undefined,
    trustProxy: trustProxyDe(process.env.TRUST_PROXY),
    timeZone: process.env.TZ_NEGOCIO || undefined,
    demo: process.env.MANAGER_DEMO !== '0',
    copias: copiasDe(process.env),
  };
} catch (err) {
  configuracionNoValida(err);
}

const app = await buildApp(options).catch(configuracionNoValida);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'closing');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

try {
  await app.listen({ port, host });
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  process.stdout.write(`\nManager TPV escuchando en http://${shown}:${port}/\n\n`);
} catch (err) {
  app.log.error({ err }, 'could not start');
  await app.close();
  process.exit(1);
}
