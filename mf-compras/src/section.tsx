import { Navigate, Route, Routes, useParams } from 'react-router';
import { ModuleGate, NotFoundPanel } from 'shared';
import { documentoRoutes } from './documentos/routes';
import { HcpPage } from './hcp/HcpPage';
import { PagosPage } from './pagos/PagosPage';
import { paths } from './paths';
import { ProveedorListPage } from './proveedores/ProveedorListPage';
import { ProveedorPage } from './proveedores/ProveedorPage';

// Keyed by id: after "nuevo" saves and moves to the record, or from one record to another, the form starts afresh.
function ProveedorRoute() {
  const { proveedorId } = useParams();
  return <ProveedorPage key={proveedorId} id={proveedorId} />;
}

/**
 * Everything under /compras (exposed as `./Section`; the shell draws the header and the side list,
 * and gates the whole section behind the flag compras). Each document type and hcp also need their flag.
 */
export default function Section() {
  return (
    <Routes>
      <Route index element={<Navigate to="proveedores" replace />} />
      <Route path="proveedores" element={<ProveedorListPage />} />
      <Route path="proveedor/nuevo-proveedor" element={<ProveedorPage key="nuevo" />} />
      <Route path="proveedor/:proveedorId" element={<ProveedorRoute />} />
      {documentoRoutes()}
      <Route
        path="hcp"
        element={
          <ModuleGate module="hcp">
            <HcpPage />
          </ModuleGate>
        }
      />
      <Route
        path="pagos"
        element={
          <ModuleGate module="hcp">
            <PagosPage />
          </ModuleGate>
        }
      />
      <Route path="*" element={<NotFoundPanel back={{ to: paths.proveedores, label: 'Volver a Proveedores' }} />} />
    </Routes>
  );
}
