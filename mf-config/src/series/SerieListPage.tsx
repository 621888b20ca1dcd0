import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import {
  ActiveBadge,
  Button,
  ESTADOS_ACTIVO,
  ListView,
  PageHeader,
  RowLink,
  SERIE_TIPOS,
  SERIE_TIPO_LABEL,
  type DataColumn,
  type Serie,
} from 'shared';
import { paths } from '../paths';

const FILTERS = [
  { name: 'tipo', label: 'Tipo', options: SERIE_TIPOS.map((t) => ({ value: t, label: SERIE_TIPO_LABEL[t] })) },
  { name: 'activo', label: 'Estado', options: [{ value: '1', label: 'Activo' }, { value: '0', label: 'Inactivo' }] },
];

/** /config/series: the numbering series of sales documents (needs the ventas flag). */
export function SerieListPage() {
  const navigate = useNavigate();
  const columns = useMemo<DataColumn<Serie>[]>(
    () => [
      { id: 'codigo', header: 'Código', sortable: true, cell: (s) => <RowLink to={paths.serie(s.id)}>{s.codigo}</RowLink>, text: (s) => s.codigo },
      { id: 'descripcion', header: 'Descripción', sortable: true, cell: (s) => s.descripcion },
      { id: 'tipo', header: 'Tipo', sortable: true, hideOnPhone: true, cell: (s) => SERIE_TIPO_LABEL[s.tipo] ?? s.tipo },
      { id: 'activo', header: 'Estado', sortable: true, cell: (s) => <ActiveBadge activo={s.activo} />, text: (s) => ESTADOS_ACTIVO[s.activo] },
    ],
    [],
  );
  return (
    <>
      <PageHeader
        title="Series"
        description="Cada serie numera sus documentos de forma correlativa por año, sin huecos."
        actions={<Button onClick={() => navigate(paths.nuevaSerie)}>Nueva serie</Button>}
      />
      <ListView<Serie>
        ac="listadoseries"
        listKey="config-series"
        title="Series"
        exportName="series"
        columns={columns}
        rowKey={(s) => s.id}
        onRowClick={(s) => navigate(paths.serie(s.id))}
        filters={FILTERS}
        searchPlaceholder="Buscar por código o descripción…"
        defaultSort={{ orden: 'codigo', dir: 'asc' }}
      />
    </>
  );
}
