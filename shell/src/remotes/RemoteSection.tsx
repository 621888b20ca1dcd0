import { Suspense, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import {
  areaVisible,
  especialVisible,
  Button,
  Card,
  ModuleGate,
  MESSAGES,
  SectionGrid,
  SideList,
  Spinner,
  useShell,
  visibleEntries,
  type DeployedRemote,
  type Derechos,
  type ModuleFlags,
} from 'shared';
import { lazySection, RemoteBoundary } from './FullScreenSection';

/**
 * Whether the user's role lets them into the section at `pathname`: the section's own area, some entry the flags
 * show, and the entry the address is under (a list: '/config/usuarios'; records have addresses of their own, which
 * the sections gate themselves).
 */
function rolPermite(remote: DeployedRemote, flags: ModuleFlags, derechos: Derechos | null | undefined, pathname: string): boolean {
  if (!derechos) return true;
  if (!areaVisible(remote.area, derechos)) return false;
  const porFlags = visibleEntries(remote, flags);
  if (porFlags.length && !visibleEntries(remote, flags, derechos).length) return false;
  const rel = pathname.startsWith(remote.prefix) ? pathname.slice(remote.prefix.length).replace(/^\/+|\/+$/g, '') : '';
  const entry = remote.entries.find((e) => e.path === rel);
  return !entry || (areaVisible(entry.area, derechos) && especialVisible(entry.especial, derechos));
}

export function RemoteSection({ remote }: { remote: DeployedRemote }) {
  const { flags, user } = useShell();
  const { pathname } = useLocation();
  const [attempt, setAttempt] = useState(0);
  const Section = useMemo(() => lazySection(remote, attempt), [remote, attempt]);
  const derechos = user?.rol?.derechos;
  const entries = visibleEntries(remote, flags, derechos);
  const permitido = rolPermite(remote, flags, derechos, pathname);
  const content = (
    <RemoteBoundary
      key={attempt}
      fallback={() => (
        <Card role="alert">
          <h2 style={{ fontSize: 18, marginTop: 0 }}>{MESSAGES.remoteFailed}</h2>
          <p>La sección «{remote.group}» no responde ahora mismo. El resto de la aplicación sigue funcionando.</p>
          <Button onClick={() => setAttempt((a) => a + 1)}>Reintentar</Button>
        </Card>
      )}
    >
      <Suspense fallback={<Spinner />}>
        <Section />
      </Suspense>
    </RemoteBoundary>
  );
  const gated = permitido ? content : (
    <Card role="alert">
      <p style={{ margin: 0 }}>{MESSAGES.seccionSinDerecho}</p>
    </Card>
  );
  return (
    <SectionGrid>
      <SideList prefix={remote.prefix} entries={entries} title={remote.group} />
      <div>{remote.module ? <ModuleGate module={remote.module}>{gated}</ModuleGate> : gated}</div>
    </SectionGrid>
  );
}

export { FullScreenSection } from './FullScreenSection';
