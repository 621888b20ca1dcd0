import { Suspense, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import styled from 'styled-components';
import { Spinner, useShell, type DeployInfo, type Theme } from 'shared';
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
const StyledBanner = styled.div`
  background: #fef3c7;
  color: #92400e;
  padding: 8px 16px;
  font-size: 14px;
  text-align: center;
`;

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
      <Header groups={groups} onOpenDrawer={() => setDrawer(true)} />
      <Heartbeat />
      {deployError && <StyledBanner role="alert">No se ha podido leer la configuración de despliegue: las secciones no están disponibles.</StyledBanner>}
      <Drawer open={drawer} groups={groups} onClose={() => setDrawer(false)} />
      <StyledMain>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </StyledMain>
    </>
  );
}
