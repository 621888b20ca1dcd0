import type { ComponentType, ReactElement } from 'react';
import { Route, useParams } from 'react-router';
import type { FlagName } from '../domain/flags';
import { ModuleGate } from '../ui/layout';
import type { PantallaDocumento } from './pantalla';

/** What routing a document type's screens needs: its route segments (relative to the section), the id's parameter and its flag. */
export type PantallaConRutas = PantallaDocumento & { rutas: { list: string; nuevo: string; record: string; param: string }; flag: FlagName | FlagName[] };

type Pantallas<P> = { List: ComponentType<{ pantalla: P }>; Record: ComponentType<{ pantalla: P; id?: string }> };

// Keyed by id: after "nuevo" saves and moves to the record, or from one document to another, the screen starts afresh.
function RecordRoute<P extends PantallaConRutas>({ pantalla, Record }: { pantalla: P; Record: Pantallas<P>['Record'] }) {
  const id = useParams()[pantalla.rutas.param];
  return <Record key={id} pantalla={pantalla} id={id} />;
}

/**
 * The routes of some document types inside a section's `<Routes>`: list, "nuevo" and record of each, behind its flag.
 *
 * @example
 * <Routes>{rutasDocumentos(Object.values(PANTALLAS), { List: DocumentoListPage, Record: DocumentoPage })}</Routes>
 */
export function rutasDocumentos<P extends PantallaConRutas>(pantallas: P[], { List, Record }: Pantallas<P>): ReactElement[] {
  const gated = (p: P, el: ReactElement) => <ModuleGate module={p.flag}>{el}</ModuleGate>;
  return pantallas.flatMap((p) => [
    <Route key={`${p.def.tipo}-list`} path={p.rutas.list} element={gated(p, <List pantalla={p} />)} />,
    <Route key={`${p.def.tipo}-new`} path={p.rutas.nuevo} element={gated(p, <Record key="nuevo" pantalla={p} />)} />,
    <Route key={`${p.def.tipo}-record`} path={p.rutas.record} element={gated(p, <RecordRoute pantalla={p} Record={Record} />)} />,
  ]);
}
