import { useEffect, useMemo } from 'react';
import { ThemeProvider } from 'styled-components';
import { ShellContext, makeTheme, type DeployInfo, type DeployedRemote, type ShellServices } from 'shared/arranque';
import { FullScreenSection } from '../remotes/FullScreenSection';
import { useAppearance } from '../state/appearance';
import { useSession } from '../state/session';
import { api, refreshSession } from './api';
import { Toaster, toasts } from './toasts';

/**
 * A full-screen section (the till, issue 23) as the page's whole app: the theme, the shell's services and the section,
 * without the router, the header and the staff login of `App` — so react-router and the federated `shared` are not in
 * the till's first paint. Any other address of the page is `App`'s (bootstrap.tsx chooses).
 */
export function PantallaCompleta({ deploy, remote }: { deploy: DeployInfo; remote: DeployedRemote }) {
  const color = useAppearance((s) => s.selectedColor);
  const setBranding = useAppearance((s) => s.setBranding);
  const { flags, user, config, acciones } = useSession();
  const theme = useMemo(() => makeTheme(color), [color]);
  useEffect(() => {
    setBranding(deploy.branding);
    document.title = `${remote.entries[0]?.label ?? remote.group} · ${deploy.branding.title}`;
    const link = document.getElementById('favicon') as HTMLLinkElement | null;
    if (link) link.href = deploy.branding.favicon;
  }, [deploy, remote, setBranding]);
  const services = useMemo<ShellServices>(
    () => ({ api, flags, user, config, acciones, toast: toasts, reloadConfig: () => refreshSession(true) }),
    [flags, user, config, acciones],
  );
  return (
    <ThemeProvider theme={theme}>
      <ShellContext.Provider value={services}>
        <FullScreenSection remote={remote} />
        <Toaster />
      </ShellContext.Provider>
    </ThemeProvider>
  );
}
