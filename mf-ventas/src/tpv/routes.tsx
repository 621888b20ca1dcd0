import type { ReactElement } from 'react';
import { Route, useParams } from 'react-router';
import { AreaGate, ModuleGate } from 'shared';
import { BotonesPage } from './botones/BotonesPage';
import { CierreListPage } from './cierres/CierreListPage';
import { CierrePage } from './cierres/CierrePage';
import { TerminalListPage } from './terminales/TerminalListPage';
import { TerminalPage } from './terminales/TerminalPage';
import { ticketRoutes } from './tickets/routes';

// Keyed by id: after "nuevo" saves and moves to the record, the form starts afresh.
function TerminalRoute() {
  const { terminalId } = useParams();
  return <TerminalPage key={terminalId} id={terminalId} />;
}

function CierreRoute() {
  const { cierreId } = useParams();
  return <CierrePage key={cierreId} id={cierreId!} />;
}

/** Behind the flag tpv and the role's area tpv (the server refuses both anyway). */
export const gatedTpv = (el: ReactElement) => (
  <ModuleGate module="tpv">
    <AreaGate area="tpv">{el}</AreaGate>
  </ModuleGate>
);

/** The back office's TPV under /ventas: terminales, botones, cierres and tickets, behind the flag tpv. */
export function tpvRoutes(): ReactElement[] {
  return [
    <Route key="terminales" path="terminales" element={gatedTpv(<TerminalListPage />)} />,
    <Route key="terminal-nuevo" path="terminal/nuevo-terminal" element={gatedTpv(<TerminalPage key="nuevo" />)} />,
    <Route key="terminal" path="terminal/:terminalId" element={gatedTpv(<TerminalRoute />)} />,
    <Route key="botones-tpv" path="botones-tpv" element={gatedTpv(<BotonesPage />)} />,
    <Route key="cierres-tpv" path="cierres-tpv" element={gatedTpv(<CierreListPage />)} />,
    <Route key="cierre-tpv" path="cierre-tpv/:cierreId" element={gatedTpv(<CierreRoute />)} />,
    ...ticketRoutes(gatedTpv),
  ];
}
