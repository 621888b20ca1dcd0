import type { ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { CONSTANTS } from '../domain/messages';
import { ESTADOS_ACTIVO } from '../domain/entities';
import type { Theme } from './theme';

type T = { theme: Theme };

export const Card = styled.section<{ $padding?: number }>`
  background: #fff;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: ${({ theme }: T) => theme.radius};
  padding: ${({ theme, $padding }) => (theme as Theme).space($padding ?? CONSTANTS.cardPadding)};
  box-shadow: 0 1px 2px rgb(15 23 42 / 0.04);
  /* On a phone the default padding narrows (12 px): a list's columns get the room (Compras › Pagos at 390 px). */
  ${({ theme, $padding }) => ($padding === undefined ? css`${(theme as Theme).phone} { padding: ${(theme as Theme).space(3)}; }` : '')}
`;

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

/** `data-variant` names its weight in the page (the primary action of a screen is the one a test and a user look for). */
export const Button = styled.button.attrs<{ $variant?: ButtonVariant; $small?: boolean; 'data-variant'?: ButtonVariant }>((p) => ({
  'data-variant': p.$variant ?? 'primary',
}))`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  box-sizing: border-box;
  gap: 6px;
  border-radius: 6px;
  text-decoration: none;
  font: inherit;
  font-weight: 500;
  cursor: pointer;
  white-space: nowrap;
  padding: ${({ $small }) => ($small ? '4px 10px' : '8px 16px')};
  min-height: ${({ $small }) => ($small ? '30px' : '38px')};
  border: 1px solid transparent;
  transition: background 0.15s;
  ${({ theme, $variant = 'primary' }) => {
    const t = theme as Theme;
    switch ($variant) {
      case 'primary':
        return css`background: ${t.primary[700]}; color: #fff; &:hover:not(:disabled) { background: ${t.primary[800]}; }`;
      case 'danger':
        return css`background: #fff; color: ${t.danger}; border-color: #fecaca; &:hover:not(:disabled) { background: #fef2f2; }`;
      case 'ghost':
        return css`background: transparent; color: ${t.gray[700]}; &:hover:not(:disabled) { background: ${t.gray[100]}; }`;
      default:
        return css`background: #fff; color: ${t.gray[800]}; border-color: ${t.gray[300]}; &:hover:not(:disabled) { background: ${t.gray[50]}; }`;
    }
  }}
  &:disabled { opacity: 0.55; cursor: not-allowed; }
  &:focus-visible { outline: 2px solid ${({ theme }: T) => theme.primary[500]}; outline-offset: 2px; }
`;

export const Row = styled.div<{ $gap?: number; $wrap?: boolean; $justify?: string }>`
  display: flex;
  align-items: center;
  gap: ${({ $gap = 8 }) => `${$gap}px`};
  flex-wrap: ${({ $wrap = true }) => ($wrap ? 'wrap' : 'nowrap')};
  justify-content: ${({ $justify = 'flex-start' }) => $justify};
`;

export const Grid = styled.div<{ $cols?: number; $min?: string }>`
  display: grid;
  gap: 16px;
  grid-template-columns: ${({ $cols, $min = '220px' }) => ($cols ? `repeat(${$cols}, minmax(0, 1fr))` : `repeat(auto-fill, minmax(${$min}, 1fr))`)};
  ${({ theme }: T) => theme.phone} { grid-template-columns: 1fr; }
`;

export const Badge = styled.span<{ $tone?: 'ok' | 'off' | 'info' }>`
  display: inline-block;
  padding: 2px 8px;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  ${({ $tone = 'info' }) =>
    $tone === 'ok' ? 'background:#dcfce7;color:#166534;' : $tone === 'off' ? 'background:#f1f5f9;color:#475569;' : 'background:#e0f2fe;color:#075985;'}
`;

export const Muted = styled.p`
  color: ${({ theme }: T) => theme.gray[500]};
  margin: 0;
  font-size: 14px;
`;

export const Spinner = styled.div.attrs({ role: 'status', 'aria-label': 'Cargando' })`
  width: 28px;
  height: 28px;
  margin: 24px auto;
  border-radius: 50%;
  border: 3px solid ${({ theme }: T) => theme.gray[200]};
  border-top-color: ${({ theme }: T) => theme.primary[600]};
  animation: mtpv-spin 0.8s linear infinite;
  @keyframes mtpv-spin { to { transform: rotate(360deg); } }
`;

export const ErrorText = styled.span.attrs({ role: 'alert' })`
  color: ${({ theme }: T) => theme.danger};
  font-size: 13px;
`;

/** Activo / Inactivo of a master record (spec §4 labels). */
export function ActiveBadge({ activo }: { activo: 0 | 1 | boolean | null | undefined }) {
  const on = activo === 1 || activo === true;
  return <Badge $tone={on ? 'ok' : 'off'}>{ESTADOS_ACTIVO[on ? 1 : 0]}</Badge>;
}

/** A bar for work whose progress can't be measured (a restore, an import). */
export const BusyBar = styled.div.attrs({ role: 'progressbar', 'aria-busy': true, 'aria-valuetext': 'En curso' })`
  height: 4px;
  border-radius: 999px;
  overflow: hidden;
  background: ${({ theme }: T) => theme.primary[100]};
  position: relative;
  &::after {
    content: '';
    position: absolute;
    inset: 0 auto 0 0;
    width: 40%;
    border-radius: 999px;
    background: ${({ theme }: T) => theme.primary[600]};
    animation: mtpv-busy 1.1s ease-in-out infinite;
  }
  @keyframes mtpv-busy { from { left: -40%; } to { left: 100%; } }
`;

/** A boxed note: 'warning' for what can't be undone, 'danger' for what went wrong, 'info' for explanations. */
export const Callout = styled.div<{ $tone?: 'info' | 'warning' | 'danger' }>`
  border-radius: 8px;
  padding: 10px 12px;
  font-size: 14px;
  line-height: 1.45;
  ${({ $tone = 'info' }) =>
    $tone === 'warning'
      ? 'background:#fffbeb;border:1px solid #fde68a;color:#78350f;'
      : $tone === 'danger'
        ? 'background:#fef2f2;border:1px solid #fecaca;color:#991b1b;'
        : 'background:#f0f9ff;border:1px solid #bae6fd;color:#0c4a6e;'}
  p { margin: 0; }
  p + p { margin-top: 6px; }
`;

/**
 * Warnings the server worked out (VERI*FACTU's `avisos`): an 'error' as an alert in red, an 'aviso' as a
 * status in amber; `children` after the texts (a link to where it is solved). Nothing when there are none.
 */
export function AvisoList({ avisos, children, label }: { avisos: { nivel: 'error' | 'aviso'; texto: string }[]; children?: ReactNode; label?: string }) {
  if (avisos.length === 0) return null;
  return (
    <section aria-label={label} style={{ display: 'flex', flexDirection: 'column', gap: 8, marginBottom: 16 }}>
      {avisos.map((a) => (
        <Callout key={`${a.nivel}:${a.texto}`} $tone={a.nivel === 'error' ? 'danger' : 'warning'} role={a.nivel === 'error' ? 'alert' : 'status'}>
          <p>{a.texto}</p>
        </Callout>
      ))}
      {children}
    </section>
  );
}

/**
 * A card that is a section of a screen under the first one: its own heading (h2, h3 below it) and a gap above.
 * Compras › hcp and › Pagos, the party's record panels, Ventas › hfa.
 */
export const PanelCard = styled(Card)`
  margin-top: 16px;
  min-width: 0;
  h2 { font-size: 16px; margin: 0 0 10px; }
  h3 { font-size: 14px; margin: 14px 0 6px; }
`;

/**
 * A small table of figures drawn whole (not a paged list, which is the DataTable): a comparison, totals by supplier,
 * a party's documents. Cells `.num` right-aligned in tabular figures; the foot's totals bold; narrower on a phone.
 */
export const Tabla = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid ${({ theme }: T) => theme.gray[100]}; }
  th { font-size: 12px; color: ${({ theme }: T) => theme.gray[600]}; background: ${({ theme }: T) => theme.gray[50]}; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tfoot td { font-weight: 700; }
  a { color: ${({ theme }: T) => theme.primary[700]}; font-weight: 600; }
  ${({ theme }: T) => theme.phone} {
    th, td { padding: 6px 4px; }
    /* A column that can go at 390 px (the row keeps what identifies it and its main figure). */
    .phone-hide { display: none; }
  }
`;
