import { Navigate, Route, Routes, useParams } from 'react-router';
import { NotFoundPanel } from 'shared';
import { AlmacenListPage } from './almacenes/AlmacenListPage';
import { AlmacenPage } from './almacenes/AlmacenPage';
import { documentoRoutes } from './documentos/routes';
import { MovimientosAlmacenPage } from './movimientos/MovimientosAlmacenPage';
import { paths } from './paths';
import { UbicacionListPage } from './ubicaciones/UbicacionListPage';
import { UbicacionPage } from './ubicaciones/UbicacionPage';

// Keyed by id: after "nuevo" saves and moves to the record, or from one record to another, the form starts afresh.
function AlmacenRoute() {
  const { almacenId } = useParams();
  return <AlmacenPage key={almacenId} id={almacenId} />;
}

function UbicacionRoute() {
  const { ubicacionId } = useParams();
  return <UbicacionPage key={ubicacionId} id={ubicacionId} />;
}

/**
 * Everything under /almacenes (exposed as `./Section`; the shell draws the header and the side list,
 * and gates the whole section behind the flag almacenes).
 */
export default function Section() {
  return (
    <Routes>
      <Route index element={<AlmacenListPage />} />
      <Route path="almacen/nuevo-almacen" element={<AlmacenPage key="nuevo" />} />
      <Route path="almacen/:almacenId" element={<AlmacenRoute />} />
      <Route path="ubicaciones" element={<UbicacionListPage />} />
      <Route path="ubicacion/nueva-ubicacion" element={<UbicacionPage key="nuevo" />} />
      <Route path="ubicacion/:ubicacionId" element={<UbicacionRoute />} />
      <Route path="movimientos-almacen" element={<MovimientosAlmacenPage />} />
      {/* The specification names the singular list path (inventario); the plural reaches it too. */}
      <Route path="inventarios" element={<Navigate to={paths.inventarios} replace />} />
      {documentoRoutes()}
      <Route path="*" element={<NotFoundPanel back={{ to: paths.almacenes, label: 'Volver a Almacenes' }} />} />
    </Routes>
  );
}
