import { Suspense, useMemo, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import styled from 'styled-components';
import { Spinner, usePermisos, useShell, type DeployInfo, type Theme } from 'shared';
import { useSession } from '../state/session';
import { Drawer } from './Drawer';
import { Header } from './Header';
import { Heartbeat } from './Heartbeat';
import { buildMenu } from './menu';

type T = { theme: Theme };

const StyledMain = styled.main`
  max-width: 1280px;
  margin: 0 auto;
  padding: 24px;
  ${({ theme }: T) => theme.phone} { padding: 14px; }
`;
/** Issue 26: the first Tab of every page offers to skip the menu (hidden until it has the focus). */
const StyledSkip = styled.a`
  position: absolute;
  left: 8px;
  top: -48px;
  z-index: 100;
  padding: 8px 14px;
  border-radius: ${({ theme }: T) => theme.radius};
  background: ${({ theme }: T) => theme.primary[900]};
  color: #fff;
  font-weight: 600;
  &:focus { top: 8px; }
`;

const StyledBanner = styled.div`
  background: #fef3c7;
  color: #92400e;
  padding: 8px 16px;
  font-size: 14px;
  text-align: center;
`;

const StyledDemo = styled.div`
  background: ${({ theme }: T) => theme.primary[50]};
  color: ${({ theme }: T) => theme.primary[900]};
  border-bottom: 1px solid ${({ theme }: T) => theme.primary[100]};
  padding: 4px 16px;
  font-size: 13px;
  line-height: 20px;
  text-align: center;
  a { color: inherit; font-weight: 600; }
  ${({ theme }: T) => theme.phone} { font-size: 12px; padding: 4px 10px; }
`;

/**
 * Issue 22: while the company is the demo (the session says so), every screen says it, discreetly, under the header;
 * «Empezar con mis datos» leads to Configuración › Utilidades for whoever may run it, and is plain text for the rest.
 */
export function BandaDemo() {
  const demo = useSession((s) => s.demo);
  const permisos = usePermisos();
  if (!demo) return null;
  return (
    <StyledDemo role="note" aria-label="Empresa de demostración">
      Empresa de demostración ·{' '}
      {permisos.accion('eliminardemo') ? <Link to="/config/utilidades">Empezar con mis datos</Link> : <span>Empezar con mis datos</span>}
    </StyledDemo>
  );
}

export function AppLayout({ deploy, deployError }: { deploy: DeployInfo; deployError: boolean }) {
  const { flags, user } = useShell();
  const derechos = user?.rol?.derechos;
  const groups = useMemo(() => buildMenu(deploy.remotes, flags, derechos), [deploy.remotes, flags, derechos]);
  const [drawer, setDrawer] = useState(false);
  // Navigating closes the drawer, adjusted while rendering so the new page never shows it open.
  const { pathname } = useLocation();
  const [drawerPath, setDrawerPath] = useState(pathname);
  if (pathname !== drawerPath) {
    setDrawerPath(pathname);
    setDrawer(false);
  }
  return (
    <>
      <StyledSkip
        href="#contenido"
        onClick={(e) => {
          // The hash would be the router's: move the focus to the content instead.
          e.preventDefault();
          document.getElementById('contenido')?.focus();
        }}
      >
        Saltar al contenido
      </StyledSkip>
      <Header groups={groups} onOpenDrawer={() => setDrawer(true)} />
      <BandaDemo />
      <Heartbeat />
      {deployError && <StyledBanner role="alert">No se ha podido leer la configuración de despliegue: las secciones no están disponibles.</StyledBanner>}
      <Drawer open={drawer} groups={groups} onClose={() => setDrawer(false)} />
      <StyledMain id="contenido" tabIndex={-1}>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </StyledMain>
    </>
  );
}
