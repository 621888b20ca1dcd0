import { useMemo } from 'react';
import { Badge, ESTADO_FILTER, RecordListPage, RowLink, activoColumn, formatDateTime, useShell, type DataColumn, type Usuario } from 'shared';
import { paths } from '../paths';

/** /config/usuarios: who can log in. */
export function UsuarioListPage() {
  const { user } = useShell();

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
      filters={[ESTADO_FILTER]}
      searchPlaceholder="Buscar por nombre o email…"
      defaultSort={{ orden: 'nombre', dir: 'asc' }}
    />
  );
}
