import { type RefObject, useEffect, useRef } from 'react';

const CAMPOS = 'input, select, textarea, button';
const MODAL = '[aria-modal="true"], dialog[open]';
const ENFOCABLES = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The page behind a modal dialog made inert (no focus, no click, hidden from screen readers): every sibling of the
 * dialog and of each of its ancestors up to <body> that was not inert already. Answers how to undo it. Dialogs render
 * where they are declared (no portal), so the app's root can't be made inert as a whole: only what is beside the path.
 */
export function inertizarFondo(dialogo: HTMLElement): () => void {
  const marcados: Element[] = [];
  for (let el: HTMLElement | null = dialogo; el && el !== document.body; el = el.parentElement) {
    for (const hermano of Array.from(el.parentElement?.children ?? [])) {
      // Never a dialog (this one, re-rendered into a new node, or one over it) nor what holds one.
      const conDialogo = hermano.matches(MODAL) || !!hermano.querySelector(MODAL);
      if (hermano.contains(el) || conDialogo || hermano.hasAttribute('inert') || hermano.tagName === 'SCRIPT') continue;
      hermano.setAttribute('inert', '');
      marcados.push(hermano);
    }
  }
  return () => {
    for (const el of marcados) el.removeAttribute('inert');
  };
}

/** The focusable, enabled, visible-to-the-keyboard elements of a dialog, in order. */
function enfocables(caja: HTMLElement): HTMLElement[] {
  return Array.from(caja.querySelectorAll<HTMLElement>(ENFOCABLES)).filter(
    (el) => !(el as HTMLButtonElement).disabled && !el.closest('[inert]') && el.getAttribute('type') !== 'hidden',
  );
}

/**
 * The keyboard every dialog shares: when it opens, `foco` (or the first field of `caja`) takes the focus — once, so a
 * parent re-rendering behind it (a list refreshing, a new `onEscape` each render) never pulls the focus back while the
 * user types in another field —, the dialog holds the focus (the page behind is inert, Tab and Mayús+Tab go round its
 * own fields) until it closes, when the focus goes back where it was; Escape calls `onEscape` unless it is busy.
 */
export function useDialogKeyboard({
  abierto = true,
  foco,
  onEscape,
  ocupado = false,
}: {
  abierto?: boolean;
  /** What takes the focus on opening: an element, or a container whose first field (input, select, button) takes it. */
  foco: RefObject<HTMLElement | null>;
  onEscape: () => void;
  ocupado?: boolean;
}) {
  const actual = useRef({ onEscape, ocupado });
  actual.current = { onEscape, ocupado };
  useEffect(() => {
    if (!abierto) return;
    const el = foco.current;
    const antes = document.activeElement as HTMLElement | null;
    const dialogo = el?.closest<HTMLElement>('[role="dialog"], [role="alertdialog"], dialog') ?? null;
    const restaurar = dialogo ? inertizarFondo(dialogo) : () => {};
    (el?.matches(CAMPOS) ? el : (el?.querySelector<HTMLElement>(CAMPOS) ?? el))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !actual.current.ocupado) actual.current.onEscape();
      if (e.key !== 'Tab' || !dialogo) return;
      const lista = enfocables(dialogo);
      if (!lista.length) return;
      const activo = document.activeElement;
      const dentro = activo instanceof HTMLElement && dialogo.contains(activo);
      // Round the dialog's own fields: past the last, the first; before the first, the last.
      if (e.shiftKey && (!dentro || activo === lista[0])) {
        e.preventDefault();
        lista[lista.length - 1].focus();
      } else if (!e.shiftKey && (!dentro || activo === lista[lista.length - 1])) {
        e.preventDefault();
        lista[0].focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      restaurar();
      // Back where the user was (the button that opened it), if that is still on the page.
      if (antes?.isConnected && dialogo && (!document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected)) antes.focus();
    };
  }, [abierto, foco]);
}
