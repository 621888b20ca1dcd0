import { TERCEROS, TerceroListPage } from 'shared';
import { paths } from '../paths';

/** /compras/proveedores: the suppliers, searchable by código, NIF, razón social or nombre comercial. */
export function ProveedorListPage() {
  return (
    <TerceroListPage
      tercero={TERCEROS.proveedor}
      description="Empresas y profesionales a los que compra. Abra uno para ver sus documentos y sus compras por año."
      recordPath={paths.proveedor}
      newPath={paths.nuevoProveedor}
      listKey="compras-proveedores"
    />
  );
}
