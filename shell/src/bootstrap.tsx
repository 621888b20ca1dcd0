import { createRoot } from 'react-dom/client';
import { loadDeploy } from './app/deploy';

const root = createRoot(document.getElementById('root')!);

/**
 * The page's app, chosen by its address once the deploy configuration says which remotes are full screen (issue 23):
 * a full-screen section's address (the till, /tpv) gets `PantallaCompleta` — the section alone, without the shell's
 * router, header and login, so react-router and the federated `shared` stay out of the till's first paint —; every
 * other address, the whole shell (`App`). A deploy that cannot be read goes to `App`, which says so.
 */
const deploy = loadDeploy();
const enPantallaCompleta = (prefix: string) => location.pathname === prefix || location.pathname.startsWith(`${prefix}/`);
deploy
  .then(async (info) => {
    const remote = info.remotes.find((r) => r.pantallaCompleta && enPantallaCompleta(r.prefix));
    if (!remote) return false;
    const { PantallaCompleta } = await import('./app/PantallaCompleta');
    root.render(<PantallaCompleta deploy={info} remote={remote} />);
    return true;
  })
  .catch(() => false)
  .then(async (hecho) => {
    if (hecho) return;
    const { App } = await import('./app/App');
    root.render(<App deployInicial={deploy} />);
  });
