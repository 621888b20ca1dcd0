import { useMemo } from 'react';
import { ESTADO_FILTER, RecordListPage, SERIE_TIPOS, SERIE_TIPO_LABEL, activoColumn, linkColumn, type DataColumn, type Serie } from 'shared';
import { paths } from '../paths';

const FILTERS = [
  { name: 'tipo', label: 'Tipo', options: SERIE_TIPOS.map((t) => ({ value: t, label: SERIE_TIPO_LABEL[t] })) },
  ESTADO_FILTER,
];

/** /config/series: the numbering series of sales documents (needs the ventas flag). */
export function SerieListPage() {
  const columns = useMemo<DataColumn<Serie>[]>(
    () => [
      linkColumn('codigo', 'Código', (s) => s.codigo, (s) => paths.serie(s.id)),
      { id: 'descripcion', header: 'Descripción', sortable: true, cell: (s) => s.descripcion },
      { id: 'tipo', header: 'Tipo', sortable: true, hideOnPhone: true, cell: (s) => SERIE_TIPO_LABEL[s.tipo] ?? s.tipo },
      activoColumn(),
    ],
    [],
  );
  return (
    <RecordListPage<Serie>
      title="Series"
      description="Cada serie numera sus documentos de forma correlativa por año, sin huecos."
      create={{ label: 'Nueva serie', to: paths.nuevaSerie }}
      recordPath={paths.serie}
      ac="listadoseries"
      listKey="config-series"
      exportName="series"
      columns={columns}
      filters={FILTERS}
      searchPlaceholder="Buscar por código o descripción…"
      defaultSort={{ orden: 'codigo', dir: 'asc' }}
    />
  );
}
