import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { Button, LineasDialogBackdrop, LineasDialogBox } from 'shared';

type DialogoProps = {
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
 * correct): Intro confirms, Escape and «Cancelar» close it, the first field takes the focus.
 */
export function Dialogo({ title, text, confirmLabel, busy = false, disabled = false, onConfirm, onCancel, children }: DialogoProps) {
  const titleId = useId();
  const boxRef = useRef<HTMLFormElement>(null);
  // The first field takes the focus once, when the dialog opens: the parent re-renders (a list refreshing behind,
  // a new `onCancel` each time) must not pull the focus back while the user types in another field.
  useEffect(() => {
    boxRef.current?.querySelector<HTMLElement>('input, select, button')?.focus();
  }, []);
  const escape = useRef({ busy, onCancel });
  escape.current = { busy, onCancel };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !escape.current.busy) escape.current.onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
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
