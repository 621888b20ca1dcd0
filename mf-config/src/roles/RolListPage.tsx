import { useMemo } from 'react';
import { Badge, RecordListPage, linkColumn, type DataColumn, type Rol } from 'shared';
import { paths } from '../paths';

const FILTERS = [
  {
    name: 'predefinido',
    label: 'Tipo',
    options: [
      { value: '1', label: 'Predefinido' },
      { value: '0', label: 'Propio' },
    ],
  },
];

/** /config/roles: the built-in roles (read-only: «Copiar» makes one's own) and the shop's. */
export function RolListPage() {
  const columns = useMemo<DataColumn<Rol>[]>(
    () => [
      linkColumn('nombre', 'Nombre', (r) => r.nombre, (r) => paths.rol(r.id)),
      {
        id: 'predefinido',
        header: 'Tipo',
        cell: (r) => (r.predefinido === 1 ? <Badge $tone="info">Predefinido</Badge> : <Badge $tone="ok">Propio</Badge>),
        text: (r) => (r.predefinido === 1 ? 'Predefinido' : 'Propio'),
      },
      { id: 'usuarios', header: 'Usuarios', sortable: true, numeric: true, cell: (r) => (r.usuarios ?? 0).toLocaleString('es-ES') },
    ],
    [],
  );
  return (
    <RecordListPage<Rol>
      title="Roles"
      description="Qué puede hacer cada usuario: un rol por usuario. Los predefinidos no se modifican; cópielos para hacer uno propio."
      create={{ label: 'Nuevo rol', to: paths.nuevoRol }}
      recordPath={paths.rol}
      ac="listadoroles"
      listKey="config-roles"
      exportName="roles"
      columns={columns}
      filters={FILTERS}
      searchPlaceholder="Buscar por nombre…"
    />
  );
}
