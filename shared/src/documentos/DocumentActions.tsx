import { diferido } from './diferido';

export type { DocumentActionsProps } from './DocumentActionsImpl';
export { EstadoBadge } from './EstadoBadge';

// Loads with the first document screen, not with the login.
/**
 * The state bar of a document: its state and exactly the actions the states-and-actions table allows
 * from it, with their confirmations and the per-line dialog of partial actions (recibir).
 */
export const DocumentActions = diferido(() => import('./DocumentActionsImpl'), 'Cargando acciones', 44);
