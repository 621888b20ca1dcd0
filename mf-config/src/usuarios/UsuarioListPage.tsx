import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import {
  ActiveBadge,
  Badge,
  Button,
  ESTADOS_ACTIVO,
  ListView,
  PageHeader,
  RowLink,
  formatDateTime,
  useShell,
  type DataColumn,
  type Usuario,
} from 'shared';
import { paths } from '../paths';

const ESTADO_FILTER = { name: 'activo', label: 'Estado', options: [{ value: '1', label: 'Activo' }, { value: '0', label: 'Inactivo' }] };

/** /config/usuarios: who can log in. */
export function UsuarioListPage() {
  const navigate = useNavigate();
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
      { id: 'activo', header: 'Estado', sortable: true, cell: (u) => <ActiveBadge activo={u.activo} />, text: (u) => ESTADOS_ACTIVO[u.activo] },
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
    <>
      <PageHeader
        title="Usuarios"
        description="Las personas que pueden entrar en Manager TPV."
        actions={<Button onClick={() => navigate(paths.nuevoUsuario)}>Nuevo usuario</Button>}
      />
      <ListView<Usuario>
        ac="listadousuarios"
        listKey="config-usuarios"
        title="Usuarios"
        exportName="usuarios"
        columns={columns}
        rowKey={(u) => u.id}
        onRowClick={(u) => navigate(paths.usuario(u.id))}
        filters={[ESTADO_FILTER]}
        searchPlaceholder="Buscar por nombre o email…"
        defaultSort={{ orden: 'nombre', dir: 'asc' }}
      />
    </>
  );
}
