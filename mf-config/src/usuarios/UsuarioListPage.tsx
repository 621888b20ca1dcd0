import { useMemo } from 'react';
import {
  Badge,
  ESTADO_FILTER,
  RecordListPage,
  RowLink,
  activoColumn,
  formatDateTime,
  useListOptions,
  useShell,
  type DataColumn,
  type ListFilter,
  type Rol,
  type Usuario,
} from 'shared';
import { paths } from '../paths';

/** /config/usuarios: who can log in. */
export function UsuarioListPage() {
  const { user } = useShell();
  const roles = useListOptions<Rol>('listadoroles', { toOption: (r) => ({ value: String(r.id), label: r.nombre }) });
  const filters = useMemo<ListFilter[]>(() => [{ name: 'rol_id', label: 'Rol', options: roles.options }, ESTADO_FILTER], [roles.options]);

  const columns = useMemo<DataColumn<Usuario>[]>(
    () => [
      {
        id: 'nombre',
        header: 'Nombre',
        sortable: true,
        cell: (u) => (
          <>
            <RowLink to={paths.usuario(u.id)}>{u.nombre}</RowLink>
            {u.id === user?.id && (
              <>
                {' '}
                <Badge $tone="info">Usted</Badge>
              </>
            )}
          </>
        ),
        text: (u) => u.nombre,
      },
      { id: 'email', header: 'Email', sortable: true, hideOnPhone: true, cell: (u) => u.email },
      { id: 'rol_nombre', header: 'Rol', sortable: true, cell: (u) => u.rol_nombre ?? '' },
      activoColumn(),
      {
        id: 'ultimo_acceso',
        header: 'Último acceso',
        sortable: true,
        hideOnPhone: true,
        cell: (u) => (u.ultimo_acceso ? formatDateTime(u.ultimo_acceso) : 'Nunca'),
      },
    ],
    [user?.id],
  );

  return (
    <RecordListPage<Usuario>
      title="Usuarios"
      description="Las personas que pueden entrar en Manager TPV."
      create={{ label: 'Nuevo usuario', to: paths.nuevoUsuario }}
      recordPath={paths.usuario}
      ac="listadousuarios"
      listKey="config-usuarios"
      exportName="usuarios"
      columns={columns}
      filters={filters}
      searchPlaceholder="Buscar por nombre o email…"
      defaultSort={{ orden: 'nombre', dir: 'asc' }}
    />
  );
}
