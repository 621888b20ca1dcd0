import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import { ModuleGate, NotFoundPanel } from 'shared';
import { ArticuloListPage } from './articulos/ArticuloListPage';
import { ArticuloPage } from './articulos/ArticuloPage';
import { CambioPreciosPage } from './cambio-precios/CambioPreciosPage';
import { ImportarPage } from './importar/ImportarPage';
import { ListadoPreciosPage } from './listado-precios/ListadoPreciosPage';
import { MAESTROS, type Maestro } from './maestros/entidades';
import { MaestroListPage } from './maestros/MaestroListPage';
import { MaestroPage } from './maestros/MaestroPage';
import menu from './menu.json';
import { paths } from './paths';

// Keyed by id: after "nuevo" saves and moves to the record, or from one record to another, the form starts afresh.
function ArticuloRoute() {
  const { articuloId } = useParams();
  return <ArticuloPage key={articuloId} id={articuloId} />;
}

function MaestroRoute({ maestro }: { maestro: Maestro }) {
  const { maestroId } = useParams();
  return <MaestroPage key={maestroId} maestro={maestro} id={maestroId} />;
}

/** Materiales and procesos need their flag; the server refuses their actions anyway. */
function Gate({ maestro, children }: { maestro: Maestro; children: ReactNode }) {
  return maestro.module ? <ModuleGate module={maestro.module}>{children}</ModuleGate> : children;
}

/** A route path relative to the section from one of `paths`. */
const rel = (path: string) => path.slice(menu.prefix.length + 1);

/** Everything under /catalogo (exposed as `./Section`; the shell draws the header and the side list). */
export default function Section() {
  return (
    <Routes>
      <Route index element={<Navigate to="articulos" replace />} />
      <Route path="articulos" element={<ArticuloListPage />} />
      <Route path="articulo/nuevo-articulo" element={<ArticuloPage key="nuevo" />} />
      <Route path="articulo/:articuloId" element={<ArticuloRoute />} />
      {Object.values(MAESTROS).map((m) => [
        <Route
          key={`${m.key}-list`}
          path={rel(m.listPath)}
          element={
            <Gate maestro={m}>
              <MaestroListPage maestro={m} />
            </Gate>
          }
        />,
        <Route
          key={`${m.key}-new`}
          path={rel(m.newPath)}
          element={
            <Gate maestro={m}>
              <MaestroPage key="nuevo" maestro={m} />
            </Gate>
          }
        />,
        <Route
          key={`${m.key}-record`}
          path={`${m.key}/:maestroId`}
          element={
            <Gate maestro={m}>
              <MaestroRoute maestro={m} />
            </Gate>
          }
        />,
      ])}
      <Route path="cambio-precios" element={<CambioPreciosPage />} />
      <Route path="importar" element={<ImportarPage />} />
      <Route
        path="listado-precios"
        element={
          <ModuleGate module="listado">
            <ListadoPreciosPage />
          </ModuleGate>
        }
      />
      <Route path="*" element={<NotFoundPanel back={{ to: paths.articulos, label: 'Volver a Artículos' }} />} />
    </Routes>
  );
}
