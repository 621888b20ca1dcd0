import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A component whose implementation loads on first use, not with the login (the shared module is part
 * of the first paint): the public document components are these, their code is in *Impl.tsx. While it
 * loads, a `status` placeholder named `label` keeps its place (`minHeight` px).
 */
export function diferido<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, label: string, minHeight: number) {
  const Impl = lazy(load);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per component, at module scope (like lazy itself).
  return function Diferido(props: P) {
    return (
      <Suspense fallback={<div role="status" aria-label={label} style={{ minHeight }} />}>
        <Impl {...props} />
      </Suspense>
    );
  };
}
