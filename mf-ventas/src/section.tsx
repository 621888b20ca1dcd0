import { Navigate, Route, Routes } from 'react-router';
import { NotFoundPanel } from 'shared';
import { clienteRoutes } from './clientes/routes';
import { documentoRoutes } from './documentos/routes';
import { facturaRoutes } from './facturas/routes';
import { paths } from './paths';
import { tpvRoutes } from './tpv/routes';

/**
 * Everything under /ventas (exposed as `./Section`; the shell draws the header and the side list, and
 * gates the whole section behind the flag ventas). Each document type, hfa and partes also need their flag.
 * - clientes/: the customers' list and record;
 * - documentos/: pedidos, albaranes, devoluciones and partes de trabajo on the shared document screens;
 * - facturas/: facturas, rectificativas, hfa and the VERI*FACTU records;
 * - tpv/: the counter's terminales, botones, cierres and tickets (flag tpv).
 */
export default function Section() {
  return (
    <Routes>
      <Route index element={<Navigate to="clientes" replace />} />
      {clienteRoutes()}
      {documentoRoutes()}
      {facturaRoutes()}
      {tpvRoutes()}
      <Route path="*" element={<NotFoundPanel back={{ to: paths.clientes, label: 'Volver a Clientes' }} />} />
    </Routes>
  );
}
