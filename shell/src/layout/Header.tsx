import { Fragment, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import styled from 'styled-components';
import { COLOR_LABELS, PALETTES, useShell, type ColorName, type Theme } from 'shared';
import { logout } from '../app/api';
import { useAppearance } from '../state/appearance';
import type { MenuGroup } from './menu';

type T = { theme: Theme };

const StyledBar = styled.header`
  position: sticky;
  top: 0;
  z-index: 50;
  display: flex;
  align-items: center;
  gap: 8px;
  height: 56px;
  padding: 0 16px;
  background: ${({ theme }: T) => theme.primary[800]};
  color: #fff;
  box-shadow: 0 1px 3px rgb(15 23 42 / 0.3);
  .brand { display: flex; align-items: center; margin-right: 12px; }
  .brand img { height: 28px; }
  .brand img.empresa { background: #fff; border-radius: 4px; padding: 2px 6px; max-width: 160px; object-fit: contain; box-sizing: border-box; }
  nav.groups { display: flex; gap: 2px; flex: 1; min-width: 0; }
  .right { display: flex; align-items: center; gap: 4px; margin-left: auto; }
  .user { font-size: 13px; opacity: 0.85; margin: 0 6px; white-space: nowrap; }
  .burger { display: none; }
  ${({ theme }: T) => theme.phone} {
    nav.groups, .right .desktop { display: none; }
    .burger { display: inline-flex; }
  }
`;

const StyledTop = styled.button`
  all: unset;
  box-sizing: border-box;
  cursor: pointer;
  padding: 8px 12px;
  border-radius: 6px;
  font-size: 14px;
  font-weight: 500;
  color: #fff;
  display: inline-flex;
  align-items: center;
  gap: 6px;
  white-space: nowrap;
  &:hover, &[aria-expanded='true'], &.active { background: rgb(255 255 255 / 0.14); }
  &:focus-visible { outline: 2px solid #fff; }
`;

const StyledDrop = styled.div`
  position: absolute;
  top: calc(100% + 4px);
  left: 0;
  min-width: 220px;
  background: #fff;
  color: ${({ theme }: T) => theme.gray[800]};
  border-radius: 8px;
  box-shadow: 0 12px 32px rgb(15 23 42 / 0.2);
  padding: 6px;
  z-index: 60;
  a, button.item { display: block; width: 100%; text-align: left; box-sizing: border-box; padding: 8px 10px; border-radius: 6px; color: inherit; text-decoration: none; font: inherit; font-size: 14px; background: none; border: 0; cursor: pointer; }
  a:hover, button.item:hover { background: ${({ theme }: T) => theme.primary[50]}; }
  a.active { font-weight: 600; color: ${({ theme }: T) => theme.primary[800]}; }
  .swatches { display: flex; gap: 6px; padding: 6px 10px 8px; }
  .swatches button { width: 22px; height: 22px; border-radius: 50%; border: 2px solid transparent; cursor: pointer; }
  .swatches button[aria-pressed='true'] { border-color: ${({ theme }: T) => theme.gray[900]}; }
  .label { font-size: 12px; color: ${({ theme }: T) => theme.gray[500]}; padding: 6px 10px 0; }
`;

function Dropdown({ label, children, align = 'left', ariaLabel }: { label: React.ReactNode; children: React.ReactNode; align?: 'left' | 'right'; ariaLabel?: string }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // Navigating closes the menu, adjusted while rendering so the new page never shows it open.
  const [openedAt, setOpenedAt] = useState(pathname);
  if (pathname !== openedAt) {
    setOpenedAt(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div ref={ref} style={{ position: 'relative' }}>
      <StyledTop type="button" aria-haspopup="menu" aria-expanded={open} aria-label={ariaLabel} onClick={() => setOpen((o) => !o)}>
        {label}
      </StyledTop>
      {open && (
        <StyledDrop role="menu" style={align === 'right' ? { left: 'auto', right: 0 } : undefined}>
          {children}
        </StyledDrop>
      )}
    </div>
  );
}

export function ColorPicker() {
  const color = useAppearance((s) => s.selectedColor);
  const setColor = useAppearance((s) => s.setColor);
  return (
    <>
      <div className="label">Color de la aplicación</div>
      <div className="swatches">
        {(Object.keys(PALETTES) as ColorName[]).map((c) => (
          <button key={c} type="button" title={COLOR_LABELS[c]} aria-label={`Color ${COLOR_LABELS[c]}`} aria-pressed={c === color} style={{ background: PALETTES[c][600] }} onClick={() => setColor(c)} />
        ))}
      </div>
    </>
  );
}

export function useLogout() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  return {
    busy,
    run: async () => {
      setBusy(true);
      await logout();
      navigate('/login', { replace: true });
    },
  };
}

export type HeaderProps = { groups: MenuGroup[]; onOpenDrawer: () => void };

export function Header({ groups, onOpenDrawer }: HeaderProps) {
  const brandLogo = useAppearance((s) => s.logo);
  const docTitle = useAppearance((s) => s.docTitle);
  const { user, config: empresa } = useShell();
  const { run, busy } = useLogout();
  // The company's logo (uploaded in /config) replaces the product's in the header.
  const logo = empresa?.logo || brandLogo;
  const sections = groups.filter((g) => g.name !== 'Configuración');
  const config = groups.find((g) => g.name === 'Configuración');
  return (
    <StyledBar>
      <StyledTop type="button" className="burger" aria-label="Abrir menú" onClick={onOpenDrawer}>
        ☰
      </StyledTop>
      <Link to="/" className="brand" aria-label={`${docTitle}: inicio`}>
        <img src={logo} alt={empresa?.logo ? (empresa.razon_social ?? docTitle) : docTitle} className={empresa?.logo ? 'empresa' : undefined} />
      </Link>
      <nav className="groups" aria-label="Menú principal">
        {sections.map((g) => (
          <Dropdown key={g.name} label={<>{g.name} <span aria-hidden>▾</span></>}>
            {g.links.map((l, i) => (
              <Fragment key={l.to}>
                {l.grupo && l.grupo !== g.links[i - 1]?.grupo && <div className="label" role="presentation">{l.grupo}</div>}
                <NavLink to={l.to} role="menuitem">
                  {l.label}
                </NavLink>
              </Fragment>
            ))}
          </Dropdown>
        ))}
      </nav>
      <div className="right">
        <span className="user desktop">{user?.nombre}</span>
        <Dropdown label={<span aria-hidden>⚙</span>} ariaLabel="Configuración" align="right">
          {config?.links.map((l) => (
            <NavLink key={l.to} to={l.to} end role="menuitem">
              {l.label}
            </NavLink>
          ))}
          <ColorPicker />
        </Dropdown>
        <StyledTop as={NavLink} to="/" end className="desktop">
          Inicio
        </StyledTop>
        <StyledTop type="button" className="desktop" onClick={run} disabled={busy}>
          Cerrar sesión
        </StyledTop>
      </div>
    </StyledBar>
  );
}
