import { ESTADO_FILTER, RecordListPage, activoColumn, linkColumn, type DataColumn, type Proveedor } from 'shared';
import { paths } from '../paths';

const COLUMNS: DataColumn<Proveedor>[] = [
  linkColumn('codigo', 'Código', (p) => p.codigo, (p) => paths.proveedor(p.id)),
  { id: 'razon_social', header: 'Razón social', sortable: true, cell: (p) => p.razon_social },
  { id: 'nif', header: 'NIF', sortable: true, cell: (p) => p.nif },
  { id: 'poblacion', header: 'Población', sortable: true, hideOnPhone: true, cell: (p) => p.poblacion ?? '' },
  { id: 'telefono', header: 'Teléfono', hideOnPhone: true, cell: (p) => p.telefono ?? '' },
  // The server sorts proveedores by código, razón social, NIF or población.
  { ...activoColumn<Proveedor>(), sortable: false },
];

/** /compras/proveedores: the suppliers, searchable by código, NIF, razón social or nombre comercial. */
export function ProveedorListPage() {
  return (
    <RecordListPage<Proveedor>
      title="Proveedores"
      description="Empresas y profesionales a los que compra. Abra uno para ver sus documentos y sus compras por año."
      create={{ label: 'Nuevo proveedor', to: paths.nuevoProveedor }}
      recordPath={paths.proveedor}
      ac="listadoproveedores"
      listKey="compras-proveedores"
      exportName="proveedores"
      columns={COLUMNS}
      filters={[ESTADO_FILTER]}
      searchPlaceholder="Buscar por código, NIF, razón social o nombre comercial…"
      defaultSort={{ orden: 'codigo', dir: 'asc' }}
    />
  );
}
