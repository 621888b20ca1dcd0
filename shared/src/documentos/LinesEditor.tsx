import { useReducer } from 'react';
import { diferido } from './diferido';
import { lineasReducer, type LineaEditable } from './lineas';

export type { LinesEditorProps } from './LinesEditorImpl';

/** The lines' state for a `LinesEditor` of a screen without `useDocumentEditor`. */
export function useLineas(initial: LineaEditable[] = []) {
  return useReducer(lineasReducer, initial);
}

// The editor loads with the first document screen, not with the login (the shared module is part of the first paint).
/**
 * The lines editor of every document (docs/documents.md): keyboard first. In the entry box a scanned
 * barcode or a typed code + Intro picks the article at once and stays there for the next one (Tab
 * picks it and goes to its quantity); words of the description + Intro open a list to choose with
 * the arrows. Intro in a line's last field goes back to the entry; Alt+↑/↓ move the line. Rows pasted
 * from a spreadsheet ('código ⇥ cantidad') become lines. Totals update as you type; 200 lines stay
 * responsive (each row redraws only when its own line changes). Below 640 px the lines are cards.
 *
 * @example
 * const [lineas, dispatch] = useLineas();
 * <LinesEditor modo="coste" lineas={lineas} dispatch={dispatch} />
 */
export const LinesEditor = diferido(() => import('./LinesEditorImpl'), 'Cargando líneas', 160);
