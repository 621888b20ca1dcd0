import { loadRemote } from '@module-federation/enhanced/runtime';
import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Button, Card, ModuleGate, MESSAGES, SectionGrid, SideList, Spinner, useShell, visibleEntries, type DeployedRemote } from 'shared';
import { reRegister } from '../app/deploy';

type SectionModule = { default: ComponentType };

/** Loads `<name>/Section`, checking it really is a component before mounting it. */
function lazySection(remote: DeployedRemote, attempt: number) {
  return lazy(async () => {
    if (attempt > 0) reRegister(remote);
    const mod = await loadRemote<SectionModule>(`${remote.name}/Section`);
    if (!mod || typeof mod.default !== 'function') throw new Error(`${remote.name} no expone una sección válida`);
    return mod;
  });
}

class RemoteBoundary extends Component<{ fallback: (error: Error) => ReactNode; children: ReactNode }, { error: Error | null }> {
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

export function RemoteSection({ remote }: { remote: DeployedRemote }) {
  const { flags } = useShell();
  const [attempt, setAttempt] = useState(0);
  const Section = useMemo(() => lazySection(remote, attempt), [remote, attempt]);
  const entries = visibleEntries(remote, flags);
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
  return (
    <SectionGrid>
      <SideList prefix={remote.prefix} entries={entries} title={remote.group} />
      <div>{remote.module ? <ModuleGate module={remote.module}>{content}</ModuleGate> : content}</div>
    </SectionGrid>
  );
}
