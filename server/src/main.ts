import path from 'node:path';
import { REPO_ROOT, buildApp } from './app.ts';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

const app = await buildApp({
  dataDir: path.resolve(process.env.DATA_DIR ?? path.join(REPO_ROOT, 'data')),
  databaseUrl: process.env.DATABASE_URL || undefined,
  staticRoot: REPO_ROOT,
  logger: true,
  publicUrl: process.env.PUBLIC_URL || undefined,
  smtpUrl: process.env.SMTP_URL || undefined,
  adminEmail: process.env.MANAGER_ADMIN_EMAIL || undefined,
  adminPassword: process.env.MANAGER_ADMIN_PASSWORD || undefined,
  trustProxy: process.env.TRUST_PROXY === '1' || process.env.TRUST_PROXY === 'true',
  timeZone: process.env.TZ_NEGOCIO || undefined,
  demo: process.env.MANAGER_DEMO !== '0',
});

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
