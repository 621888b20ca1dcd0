import type { ReactNode } from 'react';
import { diferido } from './diferido';
import type { DocumentRecordPageProps } from './DocumentRecordPageImpl';

export type { DocumentRecordPageProps, ImprimirDocumento } from './DocumentRecordPageImpl';

// Loads with the first document screen, not with the login.
/**
 * The record and "nuevo" screen of any document type, from its `PantallaDocumento` and its
 * `useDocumentEditor`: header with the back link, the section's buttons and «Imprimir»; the state bar
 * and the linked documents; «Datos de…» with the common `campos` (fecha, almacenes, fecha de entrega,
 * forma de pago, retención, observaciones) and the section's own through `renderCampo`; «Líneas»; save,
 * cancel and delete. A section adds only its data and its effects (a dialog, a button).
 *
 * @example
 * const editor = useDocumentEditor(pantalla.def, id, { schema: pantalla.schema });
 * <DocumentRecordPage pantalla={pantalla} editor={editor} almacenes={almacenes} imprimir={{ onClick: imprimir }} />
 */
export const DocumentRecordPage = diferido(() => import('./DocumentRecordPageImpl'), 'Cargando', 200) as <C extends string>(
  props: DocumentRecordPageProps<C>,
) => ReactNode;
