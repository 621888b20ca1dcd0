import { lazy, Suspense } from 'react';
import type { DocumentActionsProps } from './DocumentActionsImpl';

export type { DocumentActionsProps } from './DocumentActionsImpl';
export { EstadoBadge } from './EstadoBadge';

// Loads with the first document screen, not with the login.
const DocumentActionsImpl = lazy(() => import('./DocumentActionsImpl'));

/**
 * The state bar of a document: its state and exactly the actions the states-and-actions table allows
 * from it, with their confirmations and the per-line dialog of partial actions (recibir).
 */
export function DocumentActions(props: DocumentActionsProps) {
  return (
    <Suspense fallback={<div role="status" aria-label="Cargando acciones" style={{ minHeight: 44 }} />}>
      <DocumentActionsImpl {...props} />
    </Suspense>
  );
}
