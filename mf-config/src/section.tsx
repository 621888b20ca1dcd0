import { Route, Routes, useParams, useSearchParams } from 'react-router';
import styled from 'styled-components';
import { AreaGate, ModuleGate, NotFoundPanel } from 'shared';
import { ActividadPage } from './actividad/ActividadPage';
import { ConfiguracionPage } from './configuracion/ConfiguracionPage';
import { paths } from './paths';
import { RolListPage } from './roles/RolListPage';
import { RolPage } from './roles/RolPage';
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
  return (
    <AreaGate area="usuarios">
      <UsuarioPage key={usuarioId} id={usuarioId} />
    </AreaGate>
  );
}

function RolRoute() {
  const { rolId } = useParams();
  return (
    <AreaGate area="usuarios">
      <RolPage key={rolId} id={rolId} />
    </AreaGate>
  );
}

/** A new role, empty or a copy of `?copia=<id>` (keyed by it: «Copiar» from another copy starts afresh). */
function NuevoRolRoute() {
  const [params] = useSearchParams();
  const copia = params.get('copia') ?? undefined;
  return (
    <AreaGate area="usuarios">
      <RolPage key={`nuevo-${copia ?? ''}`} copiaDe={copia} />
    </AreaGate>
  );
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
        <Route
          path="usuario/nuevo-usuario"
          element={
            <AreaGate area="usuarios">
              <UsuarioPage key="nuevo" />
            </AreaGate>
          }
        />
        <Route path="usuario/:usuarioId" element={<UsuarioRoute />} />
        <Route path="roles" element={<RolListPage />} />
        <Route path="rol/nuevo-rol" element={<NuevoRolRoute />} />
        <Route path="rol/:rolId" element={<RolRoute />} />
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
