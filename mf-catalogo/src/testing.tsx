import { Route, Routes, useLocation } from 'react-router';
import { renderWithShell, type RenderWithShellOptions } from 'shared/testing';
import menu from './menu.json';
import Section from './section';

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Where the router is now (after a save, a delete, a click on a row). */
export const currentPath = () => document.querySelector('[data-testid="location"]')?.textContent;

/** Mounts the whole section at `route` (e.g. '/config/usuarios'), as the shell does under its prefix. */
export function renderSection(route: string, options: RenderWithShellOptions = {}) {
  return renderWithShell(
    <>
      <Routes>
        <Route path={`${menu.prefix}/*`} element={<Section />} />
        <Route path="*" element={<p>fuera de la sección</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { ...options, route },
  );
}

/** The POST bodies sent to one action. */
export function bodiesOf(calls: { method: string; ac: string; body?: unknown }[], ac: string) {
  return calls.filter((c) => c.ac === ac && c.method !== 'GET').map((c) => c.body as Record<string, unknown>);
}
