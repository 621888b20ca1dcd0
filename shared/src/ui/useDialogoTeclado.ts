import { type RefObject, useEffect, useRef } from 'react';

/**
 * The keyboard every dialog shares: when it opens, `foco` (or the first field of `caja`) takes the focus — once, so a
 * parent re-rendering behind it (a list refreshing, a new `onEscape` each render) never pulls the focus back while the
 * user types in another field —, and Escape calls `onEscape` unless it is busy.
 */
export function useDialogoTeclado({
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
    const campos = 'input, select, textarea, button';
    (el?.matches(campos) ? el : (el?.querySelector<HTMLElement>(campos) ?? el))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !actual.current.ocupado) actual.current.onEscape();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [abierto, foco]);
}
