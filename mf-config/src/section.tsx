import { Route, Routes, useParams } from 'react-router';
import styled from 'styled-components';
import { ModuleGate, NotFoundPanel } from 'shared';
import { ActividadPage } from './actividad/ActividadPage';
import { ConfiguracionPage } from './configuracion/ConfiguracionPage';
import { paths } from './paths';
import { SerieListPage } from './series/SerieListPage';
import { SeriePage } from './series/SeriePage';
import { UsuarioListPage } from './usuarios/UsuarioListPage';
import { UsuarioPage } from './usuarios/UsuarioPage';
import { UtilidadesPage } from './utilidades/UtilidadesPage';
import { VerifactuPage } from './verifactu/VerifactuPage';

// One block for the host's layout, whatever the screen renders; never wider than its column.
const StyledSection = styled.div`
  min-width: 0;
`;

// Keyed by id: after "nuevo" saves and moves to the record, or from one record to another, the form starts afresh.
function UsuarioRoute() {
  const { usuarioId } = useParams();
  return <UsuarioPage key={usuarioId} id={usuarioId} />;
}

function SerieRoute() {
  const { serieId } = useParams();
  return (
    <ModuleGate module="ventas">
      <SeriePage key={serieId} id={serieId} />
    </ModuleGate>
  );
}

/** Everything under /config (exposed as `./Section`; the shell draws the header and the side list). */
export default function Section() {
  return (
    <StyledSection>
      <Routes>
        <Route index element={<ConfiguracionPage />} />
        <Route path="usuarios" element={<UsuarioListPage />} />
        <Route path="usuario/nuevo-usuario" element={<UsuarioPage key="nuevo" />} />
        <Route path="usuario/:usuarioId" element={<UsuarioRoute />} />
        <Route
          path="series"
          element={
            <ModuleGate module="ventas">
              <SerieListPage />
            </ModuleGate>
          }
        />
        <Route
          path="serie/nueva-serie"
          element={
            <ModuleGate module="ventas">
              <SeriePage key="nueva" />
            </ModuleGate>
          }
        />
        <Route path="serie/:serieId" element={<SerieRoute />} />
        <Route path="utilidades" element={<UtilidadesPage />} />
        <Route path="actividad" element={<ActividadPage />} />
        <Route
          path="verifactu"
          element={
            <ModuleGate module={['ventas', 'ventas_facturas']}>
              <VerifactuPage />
            </ModuleGate>
          }
        />
        <Route path="*" element={<NotFoundPanel back={{ to: paths.configuracion, label: 'Volver a Configuración' }} />} />
      </Routes>
    </StyledSection>
  );
}
