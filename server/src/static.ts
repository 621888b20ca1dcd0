import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MESSAGES } from 'shared/domain';
import type { DeployFile } from './deploy.ts';
import { remoteDistDir } from './deploy.ts';

/** Bundler output with a content hash in its name never changes: cache it for a year. */
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;

function cacheHeaders(reply: FastifyReply, file: string): void {
  reply.header('Cache-Control', HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

const ROBOTS = 'User-agent: *\nDisallow: /\n';

const NOT_SHELL = /^\/(api|archivos|remotes)(\/|$)/;

/** The built shell at `/` (index.html for every unknown page) and each built remote at its URL. */
export function registerStatic(app: FastifyInstance, opts: { staticRoot: string; deploy: DeployFile }): void {
  const shellDist = path.join(opts.staticRoot, 'shell', 'dist');
  const hasShell = fs.existsSync(path.join(shellDist, 'index.html'));
  let decorated = false;
  // The build writes .br and .gz beside each asset (shared/build/federation.mjs); serve those when accepted.
  const common = { cacheControl: false, setHeaders: cacheHeaders, serveDotFiles: false, preCompressed: true } as const;

  // A back office must not be indexed: crawlers are asked to stay out (and every answer says noindex, security.ts).
  app.get('/robots.txt', async (_request, reply) => reply.type('text/plain; charset=utf-8').header('Cache-Control', 'no-cache').send(ROBOTS));

  if (hasShell) {
    app.register(fastifyStatic, { ...common, root: shellDist, prefix: '/', decorateReply: true });
    decorated = true;
  } else {
    app.log.warn({ shellDist }, 'shell not built: / answers a hint to run pnpm build');
    app.get('/', async (_request, reply) => reply.type('text/plain; charset=utf-8').header('Cache-Control', 'no-cache').send(MESSAGES.notBuilt));
  }

  for (const remote of opts.deploy.remotes) {
    if (!remote.url.startsWith('/')) continue; // served by its own host (a CDN)
    const root = remoteDistDir(opts.staticRoot, remote);
    if (!fs.existsSync(root)) {
      app.log.warn({ remote: remote.name, root }, 'remote not built: not served');
      continue;
    }
    const prefix = remote.url.endsWith('/') ? remote.url : remote.url + '/';
    app.register(fastifyStatic, { ...common, root, prefix, decorateReply: !decorated });
    decorated = true;
  }

  // Not async: awaiting a streamed reply here piles listeners on the response.
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const page = (request.method === 'GET' || request.method === 'HEAD') && !NOT_SHELL.test(url);
    if (page && hasShell) {
      // The shell routes the address itself and shows its 404 screen when nothing matches.
      reply.header('Cache-Control', 'no-cache').sendFile('index.html', shellDist, { cacheControl: false });
    } else if (page) {
      reply.code(404).type('text/plain; charset=utf-8').send(MESSAGES.notBuilt);
    } else {
      reply.code(404).send({ RESULT: '1', message: MESSAGES.notFound });
    }
  });
}
