import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, UNSAFE_DataRouterContext, useBlocker, type BlockerFunction } from 'react-router';
import styled from 'styled-components';
import { MESSAGES } from '../domain/messages';
import { ConfirmDialog } from './layout';
import { Button } from './primitives';

/** Room a focused field keeps below it for the form's sticky action bar (two rows of buttons on a phone), and above. */
const BARRA_STICKY = '132px';

const StyledForm = styled.form`
  display: flex;
  flex-direction: column;
  gap: 16px;
  min-width: 0;
  input, select, textarea { scroll-margin: 64px 0 ${BARRA_STICKY}; }
`;

/**
 * A field that takes the focus (Tab, a click, an error) is never left under the form's sticky «Cancelar / Guardar» bar:
 * when it is (partly) behind it, it scrolls into view above the bar (the fields' scroll-margin keeps the room).
 */
export function descubrirCampo(campo: HTMLElement, form: HTMLElement | null) {
  if (!form || !campo.matches('input, select, textarea')) return;
  const barra = form.querySelector<HTMLElement>('[data-barra-formulario]');
  if (!barra || barra.contains(campo)) return;
  const tapa = barra.getBoundingClientRect().top;
  if (campo.getBoundingClientRect().bottom > tapa) campo.scrollIntoView({ block: 'nearest' });
}

/** The form's fields, disabled at once when the user's role can't save the record (RecordActions tells). */
const StyledFieldset = styled.fieldset`
  display: flex;
  flex-direction: column;
  gap: 16px;
  min-width: 0;
  margin: 0;
  padding: 0;
  border: 0;
`;

export type RecordFormProps = {
  /** Validates and saves; resolving false (invalid or refused) moves the focus to the first marked field. */
  onSubmit: () => Promise<boolean | undefined> | boolean | undefined;
  children: ReactNode;
  /**
   * Unsaved changes: closing or reloading the tab asks first (the browser's dialog), and so does
   * moving to another screen of the app (a link, the menu, Back): «Salir sin guardar» / «Seguir editando».
   */
  dirty?: boolean;
  'aria-label'?: string;
};

type LeaveGuard = {
  /** Runs `action` (a save, a delete) letting the navigation it makes leave without asking. */
  leaveFreely: <T>(action: () => Promise<T> | T) => Promise<T>;
  /** RecordActions: the user's role can't save this record (its fields are disabled, nothing asks before leaving). */
  setSoloLectura?: (soloLectura: boolean) => void;
};

const LeaveGuardContext = createContext<LeaveGuard | null>(null);

/**
 * Inside a `RecordForm`: wraps an action of the screen that leaves by itself once done (a delete
 * going back to the list, a «Duplicar» opening the copy), so it doesn't ask about unsaved changes.
 * `RecordActions`' delete and the form's own submit already do it.
 */
export function useLeaveFreely(): LeaveGuard['leaveFreely'] {
  const guard = useContext(LeaveGuardContext);
  return useCallback(<T,>(action: () => Promise<T> | T) => (guard ? guard.leaveFreely(action) : Promise.resolve(action())), [guard]);
}

export const LEAVE_DIALOG = {
  title: 'Cambios sin guardar',
  text: 'Hay cambios sin guardar. ¿Salir sin guardar?',
  confirm: 'Salir sin guardar',
  cancel: 'Seguir editando',
} as const;

/** Asks before an in-app navigation to another address while `shouldBlock` says so (data routers only). */
function LeaveBlocker({ shouldBlock }: { shouldBlock: BlockerFunction }) {
  const blocker = useBlocker(shouldBlock);
  const blocked = blocker.state === 'blocked';
  const onCancel = useCallback(() => blocker.reset?.(), [blocker]);
  return (
    <ConfirmDialog
      open={blocked}
      title={LEAVE_DIALOG.title}
      text={LEAVE_DIALOG.text}
      confirmLabel={LEAVE_DIALOG.confirm}
      cancelLabel={LEAVE_DIALOG.cancel}
      onConfirm={() => blocker.proceed?.()}
      onCancel={onCancel}
    />
  );
}

/** The form of a record screen: no browser validation (the schema's Spanish messages instead), Enter saves. */
export function RecordForm({ onSubmit, children, dirty: dirtyProp, ...rest }: RecordFormProps) {
  const ref = useRef<HTMLFormElement>(null);
  const [soloLectura, setSoloLectura] = useState(false);
  const dirty = !!dirtyProp && !soloLectura;
  // Read when a navigation starts, which may be before React renders the saved (clean) form.
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  // > 0 while a save or a delete runs: the navigation it makes (new record → its address, back to
  // the list) is the point of the action, not a loss of changes.
  const acting = useRef(0);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  const guard = useMemo<LeaveGuard>(
    () => ({
      leaveFreely: async (action) => {
        acting.current++;
        try {
          return await action();
        } finally {
          acting.current--;
        }
      },
      setSoloLectura,
    }),
    [],
  );
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyNow.current && acting.current === 0 && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  // `useBlocker` needs a data router (the shell's and the harness'); under a plain <BrowserRouter>
  // (an older shell) only the tab close is guarded.
  const dataRouter = useContext(UNSAFE_DataRouterContext) !== null;
  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (soloLectura) return;
    const ok = await guard.leaveFreely(onSubmit);
    if (ok === false) {
      // After React paints the errors.
      requestAnimationFrame(() => ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    } else {
      // Saved: a navigation right after (before the clean form renders) doesn't ask.
      dirtyNow.current = false;
    }
  };
  return (
    <LeaveGuardContext.Provider value={guard}>
      <StyledForm ref={ref} noValidate onSubmit={handleSubmit} onFocus={(e) => descubrirCampo(e.target, ref.current)} aria-label={rest['aria-label']}>
        <StyledFieldset disabled={soloLectura}>{children}</StyledFieldset>
      </StyledForm>
      {dataRouter && <LeaveBlocker shouldBlock={shouldBlock} />}
    </LeaveGuardContext.Provider>
  );
}

const StyledSection = styled.section`
  background: #fff;
  border: 1px solid ${({ theme }) => theme.gray[200]};
  border-radius: ${({ theme }) => theme.radius};
  box-shadow: 0 1px 2px rgb(15 23 42 / 0.04);
  min-width: 0;
  > header {
    padding: 14px 16px 0;
  }
  > header h2 {
    margin: 0;
    font-size: 16px;
    color: ${({ theme }) => theme.gray[900]};
  }
  > header p {
    margin: 4px 0 0;
    font-size: 13px;
    color: ${({ theme }) => theme.gray[500]};
  }
  > .body {
    padding: 16px;
  }
  ${({ theme }) => theme.phone} {
    > .body { padding: 12px; }
    > header { padding: 12px 12px 0; }
  }
`;

export type FormSectionProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Right side of the title (a counter, a small action). */
  aside?: ReactNode;
  children: ReactNode;
};

/** A titled card of a form ("Datos de la empresa", "Acceso"...). */
export function FormSection({ title, description, aside, children }: FormSectionProps) {
  return (
    <StyledSection>
      <header>
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, alignItems: 'baseline', flexWrap: 'wrap' }}>
          <h2>{title}</h2>
          {aside}
        </div>
        {description && <p>{description}</p>}
      </header>
      <div className="body">{children}</div>
    </StyledSection>
  );
}

/** Fields side by side, one column at phone width; `FieldSpan` makes one take the whole row. */
export const FormGrid = styled.div<{ $min?: string }>`
  display: grid;
  gap: 14px 16px;
  grid-template-columns: repeat(auto-fill, minmax(${({ $min = '220px' }) => $min}, 1fr));
  ${({ theme }) => theme.phone} { grid-template-columns: minmax(0, 1fr); }
`;

export const FieldSpan = styled.div`
  grid-column: 1 / -1;
  min-width: 0;
`;

const StyledActions = styled.div`
  position: sticky;
  bottom: 0;
  z-index: 5;
  display: flex;
  align-items: center;
  gap: 8px;
  flex-wrap: wrap;
  padding: 12px 16px;
  margin: 0 -4px;
  background: rgb(255 255 255 / 0.94);
  backdrop-filter: blur(6px);
  border: 1px solid ${({ theme }) => theme.gray[200]};
  border-radius: ${({ theme }) => theme.radius};
  box-shadow: 0 -4px 12px rgb(15 23 42 / 0.06);
  .status {
    font-size: 13px;
    color: ${({ theme }) => theme.gray[500]};
    margin-right: auto;
  }
  .status.dirty { color: #b45309; font-weight: 600; }
  .main { display: flex; align-items: center; gap: 8px; margin-left: auto; }
  ${({ theme }) => theme.phone} {
    padding: 10px 12px;
    .main { width: 100%; }
    .main > * { flex: 1; }
  }
`;

export type FormActionsProps = {
  dirty?: boolean;
  busy?: boolean;
  submitLabel?: string;
  /** Where "Cancelar" goes; no cancel button without it. */
  cancelTo?: string;
  /** Left side: a delete button, the record's dates... */
  extra?: ReactNode;
  disabled?: boolean;
  /** The user's role can't save here: no «Guardar», a notice instead, and «Cancelar» becomes «Volver». */
  readOnly?: boolean;
  /** The notice of a read-only form (default: the role's «Solo consulta…»). */
  readOnlyNote?: string;
};

/** The sticky bar at the bottom of a form: unsaved-changes notice, extra actions, Cancelar and Guardar. */
export function FormActions({ dirty, busy, submitLabel = 'Guardar', cancelTo, extra, disabled, readOnly = false, readOnlyNote = MESSAGES.soloConsulta }: FormActionsProps) {
  // Read-only: the RecordForm around disables its fields and stops asking about unsaved changes.
  const setSoloLectura = useContext(LeaveGuardContext)?.setSoloLectura;
  useEffect(() => {
    if (!setSoloLectura) return;
    setSoloLectura(readOnly);
    return () => setSoloLectura(false);
  }, [setSoloLectura, readOnly]);
  // Issue 26: Ctrl+S (⌘S on a Mac) saves the form this bar belongs to, wherever the focus is — never the browser's
  // «Guardar página»; not the page's form while a dialog is open over it.
  const bar = useRef<HTMLDivElement>(null);
  const puedeGuardar = !readOnly && !busy && !disabled;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 's' || e.defaultPrevented) return;
      const form = bar.current?.closest('form');
      if (!form) return;
      const dialogo = document.querySelector('[role="dialog"][aria-modal="true"], dialog[open]');
      if (dialogo && !dialogo.contains(form)) return;
      e.preventDefault();
      if (puedeGuardar) form.requestSubmit();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [puedeGuardar]);
  return (
    <StyledActions ref={bar} role="group" aria-label="Acciones del formulario" data-barra-formulario="">
      {extra}
      <span className={dirty && !readOnly ? 'status dirty' : 'status'} aria-live="polite">
        {readOnly ? readOnlyNote : busy ? 'Guardando…' : dirty ? 'Cambios sin guardar' : ''}
      </span>
      <div className="main">
        {cancelTo && (
          <Button as={Link} to={cancelTo} $variant="secondary">
            {readOnly ? 'Volver' : 'Cancelar'}
          </Button>
        )}
        {!readOnly && (
          <Button type="submit" disabled={busy || disabled} aria-busy={busy} aria-keyshortcuts="Control+S Meta+S" title={`${submitLabel} (Ctrl+S)`}>
            {submitLabel}
          </Button>
        )}
      </div>
    </StyledActions>
  );
}

export type RecordDeletion = {
  /** The dialog's title and accessible name ('Eliminar serie'). */
  title: string;
  /** What goes, and what may stop it. */
  text: ReactNode;
};

export type RecordActionsProps = Omit<FormActionsProps, 'dirty' | 'busy' | 'extra'> & {
  /**
   * The screen's `useRecordEditor`: unsaved changes, saving, deleting, and what the user's role allows (no
   * «Guardar» without `puedeGuardar`, no «Eliminar» without `puedeEliminar`; absent: allowed).
   */
  editor: {
    isNew: boolean;
    form: { dirty: boolean };
    saving: boolean;
    removing: boolean;
    remove: () => Promise<boolean>;
    puedeGuardar?: boolean;
    puedeEliminar?: boolean;
  };
  /** A saved record that may be deleted: 'Eliminar' on the left, asking first in this dialog (Cancelar / Eliminar). */
  deletion?: RecordDeletion;
};

/**
 * The actions of a record screen (`FormActions` fed by its `useRecordEditor`) and, with `deletion`,
 * the delete of a saved record after a confirmation. A refused delete (RESULT 2 shows 'Acción no
 * posible') closes the dialog and the record stays; a done one leaves through `onRemoved`.
 */
export function RecordActions({ editor, deletion, ...actions }: RecordActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const leaveFreely = useLeaveFreely();
  const canDelete = deletion !== undefined && !editor.isNew && editor.puedeEliminar !== false;
  const readOnly = editor.puedeGuardar === false;
  const handleDelete = async () => {
    // A deleted record's unsaved changes don't matter: going back to the list doesn't ask.
    if (!(await leaveFreely(editor.remove))) setConfirming(false);
  };
  return (
    <>
      <FormActions
        {...actions}
        readOnly={readOnly || actions.readOnly}
        dirty={!readOnly && editor.form.dirty}
        busy={editor.saving}
        extra={
          canDelete ? (
            <Button type="button" $variant="danger" onClick={() => setConfirming(true)}>
              Eliminar
            </Button>
          ) : undefined
        }
      />
      {canDelete && (
        <ConfirmDialog
          open={confirming}
          title={deletion.title}
          text={deletion.text}
          confirmLabel="Eliminar"
          busy={editor.removing}
          onConfirm={() => void handleDelete()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}
