import { diferido } from './diferido';

export type { DevolverDialogProps } from './DevolverDialogImpl';

// Loads when it opens, not with the login.
/**
 * «Devolver…» from an albarán (or an invoice): choose lines and quantities, at most what was received or
 * sold and not yet returned (the line's `devuelto` when the server tells, else the lines of its devoluciones
 * `hijos` that point at it); creates the devolución (`editar<entidad>` of `devolucion`, each line with its
 * `origen_linea_id`, the party, warehouse and terms of the origin) and hands it back.
 *
 * @example
 * <DevolverDialog origen={albaran} devolucion={DOCUMENTO_TIPOS.devolucioncompra} onCancel={close} onCreated={(d) => navigate(paths.devolucion(d.id))} />
 */
export const DevolverDialog = diferido(() => import('./DevolverDialogImpl'), 'Cargando', 0);
