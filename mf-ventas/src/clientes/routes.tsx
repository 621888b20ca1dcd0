import type { ReactElement } from 'react';
import { Route, useParams } from 'react-router';
import { TERCEROS, TerceroListPage } from 'shared';
import { paths } from '../paths';
import { ClientePage } from './ClientePage';

// Keyed by id: after "nuevo" saves and moves to the record, or from one record to another, the form starts afresh.
function ClienteRoute() {
  const { clienteId } = useParams();
  return <ClientePage key={clienteId} id={clienteId} />;
}

/** The customers' routes under /ventas: the list (code, name, NIF, town, phone, state; search), "nuevo" and the record (the section's flag ventas is enough). */
export function clienteRoutes(): ReactElement[] {
  return [
    <Route
      key="clientes"
      path="clientes"
      element={
        <TerceroListPage
          tercero={TERCEROS.cliente}
          description="Empresas y particulares a los que vende. Abra uno para ver sus condiciones, sus documentos, lo que debe y sus ventas por año."
          recordPath={paths.cliente}
          newPath={paths.nuevoCliente}
          listKey="ventas-clientes"
        />
      }
    />,
    <Route key="cliente-nuevo" path="cliente/nuevo-cliente" element={<ClientePage key="nuevo" />} />,
    <Route key="cliente" path="cliente/:clienteId" element={<ClienteRoute />} />,
  ];
}
