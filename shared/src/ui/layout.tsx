import { Fragment, useRef, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import styled from 'styled-components';
import { areaVisible, type MenuArea, type MenuEntry } from '../domain/menu';
import type { Theme } from './theme';
import { Button as ActionButton } from './primitives';
import { useDialogKeyboard } from './useDialogKeyboard';
import { useShell } from '../context';
import type { FlagName } from '../domain/flags';
import { MESSAGES } from '../domain/messages';

type T = { theme: Theme };

const StyledHeader = styled.div`
  display: flex;
  align-items: flex-end;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
  margin-bottom: 16px;
  h1 { font-size: 22px; margin: 0; color: ${({ theme }: T) => theme.gray[900]}; }
  .back { font-size: 13px; color: ${({ theme }: T) => theme.gray[500]}; text-decoration: none; }
  .back:hover { text-decoration: underline; }
  .description { margin: 4px 0 0; font-size: 14px; color: ${({ theme }: T) => theme.gray[500]}; }
`;

export type PageHeaderProps = { title: ReactNode; back?: { to: string; label: string }; actions?: ReactNode; description?: ReactNode };

export function PageHeader({ title, back, actions, description }: PageHeaderProps) {
  return (
    <StyledHeader>
      <div>
        {back && (
          <Link className="back" to={back.to}>
            ← {back.label}
          </Link>
        )}
        <h1>{title}</h1>
        {description && <p className="description">{description}</p>}
      </div>
      {actions && <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>{actions}</div>}
    </StyledHeader>
  );
}

const StyledSide = styled.nav`
  display: flex;
  flex-direction: column;
  gap: 2px;
  a {
    padding: 8px 12px;
    border-radius: 6px;
    text-decoration: none;
    color: ${({ theme }: T) => theme.gray[700]};
    font-size: 14px;
  }
  a:hover { background: ${({ theme }: T) => theme.gray[100]}; }
  a.active { background: ${({ theme }: T) => theme.primary[100]}; color: ${({ theme }: T) => theme.primary[900]}; font-weight: 600; }
  .grupo { padding: 12px 12px 4px; font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; color: ${({ theme }: T) => theme.gray[500]}; }
  ${({ theme }: T) => theme.phone} {
    .grupo { padding: 8px 4px 8px 12px; align-self: center; white-space: nowrap; border-left: 1px solid ${({ theme }: T) => theme.gray[300]}; }
    flex-direction: row;
    overflow-x: auto;
    a { white-space: nowrap; }
  }
`;

/** The side list of a section's entries (already filtered by module flags). */
export function SideList({ prefix, entries, title }: { prefix: string; entries: MenuEntry[]; title?: string }) {
  return (
    <StyledSide aria-label={title ?? 'Secciones'}>
      {entries.map((e, i) => (
        <Fragment key={e.path}>
          {e.grupo && e.grupo !== entries[i - 1]?.grupo && <span className="grupo">{e.grupo}</span>}
          <NavLink to={e.path ? `${prefix}/${e.path}` : prefix} end={!e.path}>
            {e.label}
          </NavLink>
        </Fragment>
      ))}
    </StyledSide>
  );
}

export const SectionGrid = styled.div`
  display: grid;
  grid-template-columns: 210px minmax(0, 1fr);
  gap: 24px;
  align-items: start;
  ${({ theme }: T) => theme.phone} { grid-template-columns: minmax(0, 1fr); gap: 12px; }
`;

const StyledDialogBackdrop = styled.div`
  position: fixed;
  inset: 0;
  background: rgb(15 23 42 / 0.45);
  display: grid;
  place-items: center;
  z-index: 1000;
  padding: 16px;
`;
const StyledDialog = styled.div`
  background: #fff;
  border-radius: 10px;
  padding: 20px;
  max-width: 440px;
  width: 100%;
  box-shadow: 0 20px 40px rgb(15 23 42 / 0.25);
  h2 { margin: 0 0 8px; font-size: 18px; }
  p { margin: 0 0 16px; color: ${({ theme }: T) => theme.gray[600]}; }
  .actions { display: flex; justify-content: flex-end; gap: 8px; }
`;

export type ConfirmDialogProps = {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel?: string;
  /** The safe choice, focused on opening ('Cancelar'). */
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
};

export function ConfirmDialog({ open, title, text, confirmLabel = 'Confirmar', cancelLabel = 'Cancelar', onConfirm, onCancel, busy, children }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  // The safe choice has the focus; Escape cancels.
  useDialogKeyboard({ abierto: open, foco: cancelRef, onEscape: onCancel, ocupado: busy });
  if (!open) return null;
  return (
    <StyledDialogBackdrop onClick={busy ? undefined : onCancel}>
      <StyledDialog role="dialog" aria-modal="true" aria-label={title} onClick={(e) => e.stopPropagation()}>
        <h2>{title}</h2>
        <p>{text}</p>
        {children}
        <div className="actions">
          <ActionButton ref={cancelRef} type="button" $variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </ActionButton>
          <ActionButton type="button" $variant="danger" onClick={onConfirm} disabled={busy} aria-busy={busy}>
            {confirmLabel}
          </ActionButton>
        </div>
      </StyledDialog>
    </StyledDialogBackdrop>
  );
}


/** Renders its children only when the module flags are on; the server refuses the actions anyway. */
export function ModuleGate({ module, children }: { module: FlagName | FlagName[]; children: ReactNode }) {
  const { flags } = useShell();
  const list = Array.isArray(module) ? module : [module];
  if (list.every((f) => flags[f] === 1)) return <>{children}</>;
  return (
    <div role="alert" style={{ padding: 24, textAlign: 'center', color: '#475569' }}>
      {MESSAGES.moduleOff}
    </div>
  );
}

/**
 * Renders its children only when the user's role allows `area` (see MenuArea: 'usuarios', 'copias.acciones', a list
 * for any of them); else a Spanish notice. Without a known role, everything shows: the server refuses anyway.
 */
export function AreaGate({ area, children }: { area: MenuArea; children: ReactNode }) {
  const { user } = useShell();
  if (areaVisible(area, user?.rol?.derechos)) return <>{children}</>;
  return (
    <div role="alert" style={{ padding: 24, textAlign: 'center', color: '#475569' }}>
      {MESSAGES.seccionSinDerecho}
    </div>
  );
}

const StyledNotFound = styled.div`
  text-align: center;
  padding: 48px 16px;
  h1 { font-size: 20px; margin: 0 0 8px; color: ${({ theme }: T) => theme.gray[900]}; }
  p { margin: 0 0 16px; color: ${({ theme }: T) => theme.gray[500]}; }
  a { color: ${({ theme }: T) => theme.primary[700]}; font-weight: 600; }
`;

export type NotFoundPanelProps = { title?: string; text?: ReactNode; back: { to: string; label: string } };

/** An unknown address or a missing record inside a section: the layout stays, with a way back. */
export function NotFoundPanel({ title = 'Página no encontrada', text = 'La dirección no corresponde a ninguna pantalla de esta sección.', back }: NotFoundPanelProps) {
  return (
    <StyledNotFound role="alert">
      <h1>{title}</h1>
      <p>{text}</p>
      <Link to={back.to}>← {back.label}</Link>
    </StyledNotFound>
  );
}
