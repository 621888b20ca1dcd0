import { registerRemotes } from '@module-federation/enhanced/runtime';
import { API_BASE, DEPLOY_PATH, type DeployInfo } from 'shared/arranque';

/** Remotes come from the server's deploy configuration at run time, never from the build. */
export async function loadDeploy(): Promise<DeployInfo> {
  const res = await fetch(`${API_BASE}${DEPLOY_PATH}`, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`deploy.json ${res.status}`);
  const info = (await res.json()) as DeployInfo;
  registerRemotes(info.remotes.map((r) => ({ name: r.name, entry: r.manifest })));
  return info;
}

/** A retry after a failed load must fetch the remote again, not reuse the failed entry. */
export function reRegister(remote: { name: string; manifest: string }): void {
  registerRemotes([{ name: remote.name, entry: remote.manifest }], { force: true });
}
