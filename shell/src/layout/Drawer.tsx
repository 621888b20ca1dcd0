import { Fragment } from 'react';
import { NavLink } from 'react-router';
import styled from 'styled-components';
import type { Theme } from 'shared';
import { ColorPicker, useLogout } from './Header';
import type { MenuGroup } from './menu';

type T = { theme: Theme };

const StyledBackdrop = styled.div`
  position: fixed;
  inset: 0;
  background: rgb(15 23 42 / 0.45);
  z-index: 90;
`;
const StyledDrawer = styled.aside`
  position: fixed;
  top: 0;
  bottom: 0;
  left: 0;
  width: min(300px, 85vw);
  background: #fff;
  z-index: 100;
  overflow-y: auto;
  padding: 12px;
  box-shadow: 8px 0 24px rgb(15 23 42 / 0.2);
  h2 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; color: ${({ theme }: T) => theme.gray[500]}; margin: 16px 8px 4px; }
  a, button.item { display: block; width: 100%; box-sizing: border-box; text-align: left; padding: 10px 8px; border-radius: 6px; color: ${({ theme }: T) => theme.gray[800]}; text-decoration: none; font: inherit; background: none; border: 0; cursor: pointer; }
  a.active { background: ${({ theme }: T) => theme.primary[100]}; font-weight: 600; }
  .swatches { display: flex; gap: 6px; padding: 6px 8px; }
  .swatches button { width: 26px; height: 26px; border-radius: 50%; border: 2px solid transparent; }
  .swatches button[aria-pressed='true'] { border-color: #0f172a; }
  .label { font-size: 12px; color: ${({ theme }: T) => theme.gray[500]}; padding: 8px 8px 0; }
  .close { float: right; font-size: 20px; background: none; border: 0; cursor: pointer; padding: 4px 8px; }
`;

export function Drawer({ open, groups, onClose }: { open: boolean; groups: MenuGroup[]; onClose: () => void }) {
  const { run, busy } = useLogout();
  if (!open) return null;
  return (
    <>
      <StyledBackdrop onClick={onClose} />
      <StyledDrawer role="dialog" aria-label="Menú" aria-modal="true">
        <button type="button" className="close" aria-label="Cerrar menú" onClick={onClose}>
          ×
        </button>
        <NavLink to="/" end onClick={onClose}>
          Inicio
        </NavLink>
        {groups.map((g) => (
          <nav key={g.name} aria-label={g.name}>
            <h2>{g.name}</h2>
            {g.links.map((l, i) => (
              <Fragment key={l.to}>
                {l.grupo && l.grupo !== g.links[i - 1]?.grupo && <div className="label">{l.grupo}</div>}
                <NavLink to={l.to} end onClick={onClose}>
                  {l.label}
                </NavLink>
              </Fragment>
            ))}
          </nav>
        ))}
        <ColorPicker />
        <h2>Sesión</h2>
        <button type="button" className="item" onClick={run} disabled={busy}>
          Cerrar sesión
        </button>
      </StyledDrawer>
    </>
  );
}
