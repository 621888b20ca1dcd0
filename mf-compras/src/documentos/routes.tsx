import type { ReactElement } from 'react';
import { Route, useParams } from 'react-router';
import { ModuleGate } from 'shared';
import { DocumentoListPage } from './DocumentoListPage';
import { DocumentoPage } from './DocumentoPage';
import { PANTALLAS, type Pantalla } from './pantallas';

// Keyed by id: after "nuevo" saves and moves to the record, or from one document to another, the screen starts afresh.
function DocumentoRoute({ pantalla }: { pantalla: Pantalla }) {
  const id = useParams()[pantalla.rutas.param];
  return <DocumentoPage key={id} pantalla={pantalla} id={id} />;
}

const gated = (p: Pantalla, el: ReactElement) => <ModuleGate module={p.flag}>{el}</ModuleGate>;

/** The routes of pedidos, albaranes and devoluciones under /compras: list, "nuevo" and record of each, behind their flag. */
export function documentoRoutes(): ReactElement[] {
  return Object.values(PANTALLAS).flatMap((p) => [
    <Route key={`${p.def.tipo}-list`} path={p.rutas.list} element={gated(p, <DocumentoListPage pantalla={p} />)} />,
    <Route key={`${p.def.tipo}-new`} path={p.rutas.nuevo} element={gated(p, <DocumentoPage key="nuevo" pantalla={p} />)} />,
    <Route key={`${p.def.tipo}-record`} path={p.rutas.record} element={gated(p, <DocumentoRoute pantalla={p} />)} />,
  ]);
}
