import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { BRANDING } from 'shared/domain';
import type { DeployInfo, DeployedRemote, SectionMenu } from 'shared/domain';

export type DeployRemote = { name: string; dist: string; url: string };
export type DeployFile = { remotes: DeployRemote[]; almacenHosts: string[] };

const EMPTY: DeployFile = { remotes: [], almacenHosts: [] };

/** Reads the deploy configuration; a missing or broken file means no remotes (logged). */
export function readDeployFile(file: string, log: FastifyBaseLogger): DeployFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    log.warn({ file, err: (err as Error).message }, 'deploy file missing or unreadable: no remotes');
    return EMPTY;
  }
  const obj = (parsed ?? {}) as Partial<DeployFile>;
  const remotes = Array.isArray(obj.remotes)
    ? obj.remotes.filter(
        (r): r is DeployRemote =>
          !!r && typeof r.name === 'string' && typeof r.dist === 'string' && typeof r.url === 'string',
      )
    : [];
  const almacenHosts = Array.isArray(obj.almacenHosts) ? obj.almacenHosts.filter((h) => typeof h === 'string') : [];
  return { remotes, almacenHosts: almacenHosts.map((h) => h.toLowerCase()) };
}

export const remoteDistDir = (staticRoot: string, remote: DeployRemote) => path.resolve(staticRoot, remote.dist);

/** Origins of remotes served from elsewhere (a CDN); the CSP must allow exactly these. */
export function remoteOrigins(deploy: DeployFile): string[] {
  const origins = new Set<string>();
  for (const r of deploy.remotes) {
    if (/^https?:\/\//i.test(r.url)) origins.add(new URL(r.url).origin);
  }
  return [...origins];
}

function isSectionMenu(v: unknown): v is SectionMenu {
  const m = v as SectionMenu;
  return !!m && typeof m.name === 'string' && typeof m.prefix === 'string' && typeof m.group === 'string' && Array.isArray(m.entries);
}

/** What the shell needs to compose the app: each remote's menu and manifest URL, and the branding. */
export async function deployInfo(
  file: string,
  staticRoot: string,
  host: string | undefined,
  log: FastifyBaseLogger,
): Promise<DeployInfo> {
  const deploy = readDeployFile(file, log);
  const remotes: DeployedRemote[] = [];
  for (const remote of deploy.remotes) {
    const menuFile = path.join(remoteDistDir(staticRoot, remote), 'menu.json');
    try {
      const menu: unknown = JSON.parse(await fs.promises.readFile(menuFile, 'utf8'));
      if (!isSectionMenu(menu)) throw new Error('menu.json is not a SectionMenu');
      const base = remote.url.endsWith('/') ? remote.url : remote.url + '/';
      remotes.push({ ...menu, manifest: base + 'mf-manifest.json' });
    } catch (err) {
      log.warn({ remote: remote.name, menuFile, err: (err as Error).message }, 'remote skipped: not built or broken');
    }
  }
  const hostname = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  const branding = deploy.almacenHosts.includes(hostname) ? BRANDING.almacen : BRANDING.tpv;
  return { remotes, branding: { ...branding } };
}
