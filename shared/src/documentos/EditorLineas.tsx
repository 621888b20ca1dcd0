import { useReducer } from 'react';
import { diferido } from './diferido';
import { lineasReducer, type LineaEditable } from './lineas';

export type { EditorLineasProps } from './EditorLineasImpl';

/** The lines' state for an `EditorLineas` of a screen without `useDocumentEditor`. */
export function useLineas(initial: LineaEditable[] = []) {
  return useReducer(lineasReducer, initial);
}

/**
 * Puts the focus on a field of a line added from outside the editor («Rectificar» a line of the
 * corrected invoice): as soon as the row is drawn, its quantity (by default) is ready to be typed.
 */
export function enfocarLinea(key: string, campo: 'cantidad' | 'precio' | 'descuento' = 'cantidad', intentos = 20) {
  const el = document.querySelector<HTMLElement>(`[data-linea="${CSS.escape(key)}"][data-campo="${campo}"]`);
  if (el) {
    el.focus({ preventScroll: true });
    el.scrollIntoView?.({ block: 'nearest' });
    if (el instanceof HTMLInputElement) el.select();
  } else if (intentos > 0) setTimeout(() => enfocarLinea(key, campo, intentos - 1), 25);
}

// The editor loads with the first document screen, not with the login (the shared module is part of the first paint).
/**
 * The lines editor of every document (docs/documentos.md): keyboard first. In the entry box a scanned
 * barcode or a typed code + Intro picks the article at once and stays there for the next one (Tab
 * picks it and goes to its quantity); suggestions (code, barcode, description, accents ignored)
 * appear as the user types; Intro with one match adds it, with several opens the list to choose
 * with the arrows (↓ lands on the first option). Letters in a number say so under the box. Intro in a line's last field goes back to the entry; Alt+↑/↓ move the line. Rows pasted
 * from a spreadsheet ('código ⇥ cantidad') become lines. Totals update as you type; 200 lines stay
 * responsive (each row redraws only when its own line changes). Below 640 px the lines are cards.
 *
 * @example
 * const [lineas, dispatch] = useLineas();
 * <EditorLineas modo="coste" lineas={lineas} dispatch={dispatch} />
 */
export const EditorLineas = diferido(() => import('./EditorLineasImpl'), 'Cargando líneas', 160);
