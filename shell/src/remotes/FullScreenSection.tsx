import { loadRemote } from '@module-federation/enhanced/runtime';
import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Button, Card, MESSAGES, Spinner, type DeployedRemote } from 'shared/arranque';
import { reRegister } from '../app/deploy';

/**
 * Loading a remote's `./Section` with a retry, for the full-screen sections (the till) and the shell's own sections.
 * Only `shared/arranque` (bundled in the shell): a full-screen section's first paint loads neither the federated
 * `shared` nor react-router (issue 23: the till's JavaScript before its first paint).
 */
type SectionModule = { default: ComponentType };

/** Loads `<name>/Section`, checking it really is a component before mounting it. */
export function lazySection(remote: DeployedRemote, attempt: number) {
  return lazy(async () => {
    if (attempt > 0) reRegister(remote);
    const mod = await loadRemote<SectionModule>(`${remote.name}/Section`);
    if (!mod || typeof mod.default !== 'function') throw new Error(`${remote.name} no expone una sección válida`);
    return mod;
  });
}

export class RemoteBoundary extends Component<{ fallback: (error: Error) => ReactNode; children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidCatch(error: Error) {
    console.error('[shell] sección con error:', error);
  }
  render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/**
 * A section drawn full screen (`pantallaCompleta` in its menu: the TPV's till): no header or side list, outside the
 * staff login — it signs its own user in, and the server checks the session, the flag and the role on every action.
 */
export function FullScreenSection({ remote }: { remote: DeployedRemote }) {
  const [attempt, setAttempt] = useState(0);
  const Section = useMemo(() => lazySection(remote, attempt), [remote, attempt]);
  return (
    <RemoteBoundary
      key={attempt}
      fallback={() => (
        <Card role="alert" style={{ margin: 24 }}>
          <h2 style={{ fontSize: 18, marginTop: 0 }}>{MESSAGES.remoteFailed}</h2>
          <p>La sección «{remote.entries[0]?.label ?? remote.group}» no responde ahora mismo.</p>
          <Button onClick={() => setAttempt((a) => a + 1)}>Reintentar</Button>
        </Card>
      )}
    >
      <Suspense fallback={<Spinner />}>
        <Section />
      </Suspense>
    </RemoteBoundary>
  );
}
