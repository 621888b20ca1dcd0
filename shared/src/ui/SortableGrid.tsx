import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import type { Theme } from './theme';

type T = { theme: Theme };

/** `items` with the one at `from` moved to `to` (the others keep their order); the same array when nothing moves. */
export function moverEnLista<I>(items: readonly I[], from: number, to: number): I[] {
  if (from === to || from < 0 || from >= items.length) return items as I[];
  const dest = Math.max(0, Math.min(items.length - 1, to));
  const out = items.slice();
  const [it] = out.splice(from, 1);
  out.splice(dest, 0, it);
  return out;
}

const StyledGrid = styled.div<{ $cols: number }>`
  display: grid;
  grid-template-columns: repeat(${({ $cols }) => $cols}, minmax(0, 1fr));
  gap: 8px;
  .cell { position: relative; min-width: 0; border-radius: 8px; outline: none; }
  .cell:focus-visible { outline: 3px solid ${({ theme }: T) => theme.primary[500]}; outline-offset: 2px; }
  .cell[aria-selected='true'] { box-shadow: 0 0 0 3px ${({ theme }: T) => theme.primary[300]}; }
  .cell.grabbed { transform: scale(1.04); box-shadow: 0 8px 18px rgb(15 23 42 / 0.25), 0 0 0 3px ${({ theme }: T) => theme.primary[600]}; z-index: 1; }
  .cell.over { box-shadow: 0 0 0 3px ${({ theme }: T) => theme.primary[500]} inset; }
  .cell.dragging { opacity: 0.45; }
`;

const StyledHelp = styled.p`
  margin: 6px 0 0;
  font-size: 12px;
  color: ${({ theme }: T) => theme.gray[500]};
`;

export type SortableGridProps<I> = {
  /** The grid's accessible name ('Botones de la página Bebidas'). */
  label: string;
  items: readonly I[];
  itemKey: (item: I) => string | number;
  /** How a screen reader names an item in the announcements ('Café con leche'). */
  itemLabel: (item: I) => string;
  renderItem: (item: I, state: { selected: boolean; grabbed: boolean }) => ReactNode;
  /** Columns of the grid (up / down move by a row). */
  columns: number;
  /** The item at `from` goes to `to`: the screen reorders its list (`moverEnLista`). */
  onMove: (from: number, to: number) => void;
  /** The chosen item (its key) and a choice made by click, focus or keyboard. */
  selected?: string | number | null;
  onSelect?: (key: string | number) => void;
  disabled?: boolean;
  /** Under the grid: how to move by keyboard (default text in Spanish). */
  help?: ReactNode;
};

/**
 * Items arranged in a grid by drag and drop or by keyboard (the TPV's buttons): the arrow keys move the focus,
 * Espacio or Intro picks the item up, then the arrows move it and Espacio / Intro drops it (Escape puts it back
 * where it was); each step is announced. The screen keeps the order (`onMove`); this only reports the moves.
 */
export function SortableGrid<I>({ label, items, itemKey, itemLabel, renderItem, columns, onMove, selected = null, onSelect, disabled, help }: SortableGridProps<I>) {
  const helpId = useId();
  const refs = useRef<(HTMLDivElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState(0);
  const [grabbed, setGrabbed] = useState<{ key: string | number; origin: number } | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const pendingFocus = useRef<number | null>(null);
  const n = items.length;
  const selectedIndex = selected === null ? -1 : items.findIndex((i) => itemKey(i) === selected);
  // The roving tab stop: the chosen item, else the last focused one.
  const tabIndexAt = selectedIndex >= 0 ? selectedIndex : Math.min(focusIndex, Math.max(0, n - 1));

  useEffect(() => {
    if (pendingFocus.current !== null) {
      refs.current[pendingFocus.current]?.focus();
      pendingFocus.current = null;
    }
  });

  const focusAt = (i: number) => {
    const k = Math.max(0, Math.min(n - 1, i));
    setFocusIndex(k);
    pendingFocus.current = k;
    onSelect?.(itemKey(items[k]));
  };
  const position = (i: number) => `posición ${i + 1} de ${n}`;

  const move = (from: number, to: number) => {
    const dest = Math.max(0, Math.min(n - 1, to));
    if (dest === from) return;
    onMove(from, dest);
    setFocusIndex(dest);
    pendingFocus.current = dest;
    setAnnounce(`«${itemLabel(items[from])}» movido a la ${position(dest)}.`);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, i: number) => {
    if (disabled) return;
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns };
    if (e.key in step) {
      e.preventDefault();
      const to = i + step[e.key];
      if (to < 0 || to >= n) return;
      if (grabbed) move(i, to);
      else focusAt(to);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const to = e.key === 'Home' ? 0 : n - 1;
      if (grabbed) move(i, to);
      else focusAt(to);
    } else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      const it = items[i];
      if (grabbed) {
        setGrabbed(null);
        setAnnounce(`«${itemLabel(it)}» soltado en la ${position(i)}.`);
      } else {
        onSelect?.(itemKey(it));
        setGrabbed({ key: itemKey(it), origin: i });
        setAnnounce(`«${itemLabel(it)}» cogido, en la ${position(i)}. Muévalo con las flechas; Espacio lo suelta, Escape lo devuelve.`);
      }
    } else if (e.key === 'Escape' && grabbed) {
      e.preventDefault();
      if (grabbed.origin !== i) onMove(i, grabbed.origin);
      setFocusIndex(grabbed.origin);
      pendingFocus.current = grabbed.origin;
      setAnnounce(`«${itemLabel(items[i])}» devuelto a la ${position(grabbed.origin)}.`);
      setGrabbed(null);
    }
  };

  const onDrop = (e: DragEvent<HTMLDivElement>, i: number) => {
    e.preventDefault();
    const from = dragFrom ?? Number(e.dataTransfer.getData('text/plain'));
    setDragFrom(null);
    setOver(null);
    if (Number.isInteger(from) && from >= 0) move(from, i);
  };

  return (
    <div>
      <StyledGrid $cols={columns} role="listbox" aria-label={label} aria-describedby={helpId} aria-orientation="horizontal">
        {items.map((it, i) => {
          const key = itemKey(it);
          const isGrabbed = grabbed?.key === key;
          const isSelected = key === selected;
          return (
            <div
              key={key}
              ref={(el) => {
                refs.current[i] = el;
              }}
              role="option"
              aria-selected={isSelected}
              aria-label={`${itemLabel(it)}, ${position(i)}`}
              aria-grabbed={isGrabbed || undefined}
              tabIndex={i === tabIndexAt ? 0 : -1}
              className={['cell', isGrabbed && 'grabbed', over === i && dragFrom !== i && 'over', dragFrom === i && 'dragging'].filter(Boolean).join(' ')}
              draggable={!disabled}
              onClick={() => {
                setFocusIndex(i);
                onSelect?.(key);
              }}
              onFocus={() => setFocusIndex(i)}
              onBlur={() => {
                if (grabbed?.key === key && pendingFocus.current === null) setGrabbed(null);
              }}
              onKeyDown={(e) => onKeyDown(e, i)}
              onDragStart={(e) => {
                setDragFrom(i);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', String(i));
              }}
              onDragEnd={() => {
                setDragFrom(null);
                setOver(null);
              }}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                if (over !== i) setOver(i);
              }}
              onDragLeave={() => setOver((o) => (o === i ? null : o))}
              onDrop={(e) => onDrop(e, i)}
            >
              {renderItem(it, { selected: isSelected, grabbed: isGrabbed })}
            </div>
          );
        })}
      </StyledGrid>
      <StyledHelp id={helpId}>
        {help ?? 'Arrastre un botón a otro sitio, o con el teclado: flechas para ir de uno a otro, Espacio para cogerlo, flechas para moverlo y Espacio para soltarlo.'}
      </StyledHelp>
      <div role="status" aria-live="assertive" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        {announce}
      </div>
    </div>
  );
}
