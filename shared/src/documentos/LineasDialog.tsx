import type { RefObject } from 'react';
import styled from 'styled-components';
import type { Theme } from '../ui/theme';
import { useDialogKeyboard } from '../ui/useDialogKeyboard';

type T = { theme: Theme };

/** The backdrop of a dialog over a document's lines (receive by lines, return from an albarán). */
export const LineasDialogBackdrop = styled.div`
  position: fixed;
  inset: 0;
  background: rgb(15 23 42 / 0.45);
  display: grid;
  /* A track that never grows past the screen: the lines table scrolls inside the dialog instead. */
  grid-template-columns: minmax(0, 1fr);
  place-items: center;
  z-index: 1000;
  padding: 16px;
`;
/**
 * The dialog itself: title, a hint, a scrolling table of lines with decimal inputs (`input.dec`), errors (`.err`) and
 * the actions row (`.actions`, its `.first` button on the left). It never grows past the screen; on a phone it tightens.
 */
export const LineasDialogBox = styled.div`
  background: #fff;
  border-radius: 10px;
  padding: 20px;
  width: 100%;
  max-width: 760px;
  max-height: calc(100vh - 32px);
  min-width: 0;
  box-sizing: border-box;
  display: flex;
  flex-direction: column;
  gap: 12px;
  box-shadow: 0 20px 40px rgb(15 23 42 / 0.25);
  h2 { margin: 0; font-size: 18px; }
  p { margin: 0; color: ${({ theme }: T) => theme.gray[600]}; font-size: 14px; }
  .scroll { overflow: auto; border: 1px solid ${({ theme }: T) => theme.gray[200]}; border-radius: 6px; }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }: T) => theme.gray[100]}; text-align: left; }
  th { background: ${({ theme }: T) => theme.gray[50]}; font-size: 12px; color: ${({ theme }: T) => theme.gray[600]}; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  input.dec { font: inherit; width: 100px; text-align: right; padding: 5px 7px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; }
  input.dec[aria-invalid='true'] { border-color: ${({ theme }: T) => theme.danger}; }
  input[type='checkbox'] { width: 18px; height: 18px; }
  .err { color: ${({ theme }: T) => theme.danger}; font-size: 12px; display: block; }
  .actions { display: flex; justify-content: flex-end; gap: 8px; flex-wrap: wrap; }
  .actions .first { margin-right: auto; }
  @media (max-width: 639px) {
    padding: 14px;
    th, td { padding: 6px 5px; }
    input.dec { width: 68px; }
  }
`;

/**
 * The keyboard of a dialog over a document's lines: the focus starts on `foco` (its first quantity, or Cancelar), the
 * page behind is inert and Escape closes it,
 * unless it is busy.
 */
export function useLineasDialogTeclado(foco: RefObject<HTMLElement | null>, onCancel: () => void, busy = false) {
  useDialogKeyboard({ foco, onEscape: onCancel, ocupado: busy });
}

export type CantidadLineaProps = {
  /** Accessible name: 'Cantidad recibida de TOR-M4'. */
  label: string;
  value: string;
  onChange: (texto: string) => void;
  /** Intro confirms the dialog. */
  onEnter: () => void;
  error?: string | null;
  disabled?: boolean;
};

/** The quantity of one line in such a dialog, typed the Spanish way, with its error under it; Intro confirms. */
export function CantidadLinea({ label, value, onChange, onEnter, error, disabled }: CantidadLineaProps) {
  return (
    <>
      <input
        className="dec"
        inputMode="decimal"
        aria-label={label}
        aria-invalid={!!error}
        disabled={disabled}
        value={value}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onEnter();
          }
        }}
      />
      {error && (
        <span className="err" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
