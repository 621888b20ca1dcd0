import { useId, useRef, type FormEvent, type ReactNode } from 'react';
import { Button } from '../ui/primitives';
import { useDialogKeyboard } from '../ui/useDialogKeyboard';
import { LineasDialogBackdrop, LineasDialogBox } from './LineasDialog';

export type FormDialogProps = {
  title: string;
  /** Under the title. */
  text?: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  /** The confirm button waits (the form is not valid yet). */
  disabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
};

/**
 * A small form in a dialog (the payment's date and method, the e-mail address, the invoice's lines to
 * correct, a supplier's payment, a returned receipt): Intro confirms, Escape and «Cancelar» close it, the first field
 * takes the focus. Issue 26: moved here from mf-ventas so every section uses the same one.
 */
export function FormDialog({ title, text, confirmLabel, busy = false, disabled = false, onConfirm, onCancel, children }: FormDialogProps) {
  const titleId = useId();
  const boxRef = useRef<HTMLFormElement>(null);
  useDialogKeyboard({ foco: boxRef, onEscape: onCancel, ocupado: busy });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy && !disabled) onConfirm();
  };
  return (
    <LineasDialogBackdrop onClick={busy ? undefined : onCancel}>
      <LineasDialogBox as="form" ref={boxRef} role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()} onSubmit={submit} noValidate>
        <h2 id={titleId}>{title}</h2>
        {text && <p>{text}</p>}
        {children}
        <div className="actions">
          <Button type="button" $variant="secondary" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
          <Button type="submit" disabled={busy || disabled} aria-busy={busy}>
            {confirmLabel}
          </Button>
        </div>
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
