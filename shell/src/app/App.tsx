import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Route, RouterProvider, Routes, useLocation } from 'react-router';
import { ThemeProvider } from 'styled-components';
import { ShellContext, makeTheme, type DeployInfo, type ShellServices } from 'shared/arranque';
import { LoginPage } from '../pages/LoginPage';
import { useAppearance } from '../state/appearance';
import { useSession } from '../state/session';
import { api, refreshSession } from './api';
import { loadDeploy } from './deploy';
import { Toaster, toasts } from './toasts';

// Only the login screen is in the first paint; the rest of the shell loads when it is needed.
const AppLayout = lazy(() => import('../layout/AppLayout').then((m) => ({ default: m.AppLayout })));
const HomePage = lazy(() => import('../pages/HomePage').then((m) => ({ default: m.HomePage })));
const RecoverPage = lazy(() => import('../pages/RecoverPage').then((m) => ({ default: m.RecoverPage })));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));
const RemoteSection = lazy(() => import('../remotes/RemoteSection').then((m) => ({ default: m.RemoteSection })));
const FullScreenSection = lazy(() => import('../remotes/FullScreenSection').then((m) => ({ default: m.FullScreenSection })));

function RequireAuth({ children }: { children: ReactNode }) {
  const logged = useSession((s) => s.logged);
  const remember = useSession((s) => s.rememberRedirect);
  const location = useLocation();
  const wanted = location.pathname + location.search;
  // The last protected address is remembered, so /login (now or after a lost session) returns to it.
  useEffect(() => {
    remember(wanted);
  }, [remember, wanted]);
  if (!logged) return <Navigate to="/login" replace />;
  return <>{children}</>;
}

function PublicOnly({ children }: { children: ReactNode }) {
  const logged = useSession((s) => s.logged);
  const redirect = useSession((s) => s.redirect);
  if (logged) return <Navigate to={redirect && redirect !== '/login' ? redirect : '/'} replace />;
  return <>{children}</>;
}

type ShellRoutesProps = { deploy: DeployInfo; deployError: boolean; docTitle: string };

const ShellRoutesContext = createContext<ShellRoutesProps | null>(null);

/** Every screen of the shell and the remotes' sections under their prefixes. */
function ShellRoutes() {
  const props = useContext(ShellRoutesContext);
  if (!props) return null;
  const { deploy, deployError, docTitle } = props;
  return (
    <Suspense fallback={<div id="boot">Cargando {docTitle}…</div>}>
      <Routes>
        <Route path="/login" element={<PublicOnly><LoginPage /></PublicOnly>} />
        <Route path="/recuperar-psswd" element={<RecoverPage />} />
        {deploy.remotes
          .filter((r) => r.pantallaCompleta)
          .map((r) => (
            <Route key={r.name} path={`${r.prefix}/*`} element={<FullScreenSection remote={r} />} />
          ))}
        <Route element={<RequireAuth><AppLayout deploy={deploy} deployError={deployError} /></RequireAuth>}>
          <Route index element={<HomePage deploy={deploy} />} />
          {deploy.remotes.filter((r) => !r.pantallaCompleta).map((r) => (
            <Route key={r.name} path={`${r.prefix}/*`} element={<RemoteSection remote={r} />} />
          ))}
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

/**
 * A data router (so a form with unsaved changes can ask before the app moves elsewhere: `useBlocker`)
 * with one splat route; the routes themselves stay declarative in `ShellRoutes`, fed by context
 * because the remotes' prefixes arrive with deploy.json after the router exists.
 */
function ShellRouter({ deploy, deployError, docTitle }: ShellRoutesProps) {
  const [router] = useState(() => createBrowserRouter([{ path: '*', element: <ShellRoutes /> }]));
  const props = useMemo(() => ({ deploy, deployError, docTitle }), [deploy, deployError, docTitle]);
  return (
    <ShellRoutesContext.Provider value={props}>
      <RouterProvider router={router} />
    </ShellRoutesContext.Provider>
  );
}

const EMPTY_DEPLOY: DeployInfo = { remotes: [], branding: { title: 'Manager TPV', logo: '/branding/manager-tpv.svg', favicon: '/branding/favicon-tpv.svg' } };

/** `deployInicial`: the deploy configuration already asked for (bootstrap.tsx reads it to choose the app). */
export function App({ deployInicial }: { deployInicial?: Promise<DeployInfo> } = {}) {
  const color = useAppearance((s) => s.selectedColor);
  const { isLoading, setLoading, setBranding, docTitle, logoIco } = useAppearance();
  const { logged, user, flags, config, acciones } = useSession();
  const [deploy, setDeploy] = useState<DeployInfo>(EMPTY_DEPLOY);
  const [deployError, setDeployError] = useState(false);
  const theme = useMemo(() => makeTheme(color), [color]);

  // The company's own favicon (uploaded in /config) wins over the product's once it is known.
  const favicon = (logged && config?.favicon) || logoIco;
  useEffect(() => {
    document.title = docTitle;
    const link = document.getElementById('favicon') as HTMLLinkElement | null;
    if (link) link.href = favicon;
  }, [docTitle, favicon]);

  useEffect(() => {
    (deployInicial ?? loadDeploy())
      .then((info) => {
        setDeploy(info);
        setBranding(info.branding);
      })
      .catch(() => setDeployError(true))
      .finally(() => setLoading(false));
  }, [deployInicial, setBranding, setLoading]);

  // The configuration (flags, company data) read again after a save or a restore, with the session: a restore may
  // also change who the user is and what their role allows.
  const reloadConfig = useCallback(() => refreshSession(true), []);

  // A tab restored already signed in (session storage) reads the session again — the role as it is now, the flags —
  // which also checks it on the server; a fresh login has just received all that with `identificar`.
  const restoredSession = useRef(logged);
  useEffect(() => {
    if (restoredSession.current) void refreshSession();
  }, []);

  const services = useMemo<ShellServices>(
    () => ({ api, flags, user, config, acciones, toast: toasts, reloadConfig }),
    [flags, user, config, acciones, reloadConfig],
  );

  return (
    <ThemeProvider theme={theme}>
      <ShellContext.Provider value={services}>
        {isLoading ? (
          <div id="boot">Cargando {docTitle}…</div>
        ) : (
          <ShellRouter deploy={deploy} deployError={deployError} docTitle={docTitle} />
        )}
        <Toaster />
      </ShellContext.Provider>
    </ThemeProvider>
  );
}

