import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import {
  ActiveBadge,
  Button,
  ESTADOS_ACTIVO,
  ListView,
  PageHeader,
  RowLink,
  type DataColumn,
  type ListFilter,
  type Proceso,
  type Subfamilia,
} from 'shared';
import { formatPrecio } from '../formato';
import { ESTADO_FILTER, useFamilias } from '../opciones';
import type { Maestro } from './entidades';

type MaestroFila = { id: number; codigo: string; nombre: string; activo: 0 | 1 } & Partial<Pick<Subfamilia, 'familia_nombre'>> & Partial<Pick<Proceso, 'tiempo' | 'coste'>>;

/** /catalogo/familias, subfamilias, marcas, materiales, procesos: one list for the five. */
export function MaestroListPage({ maestro }: { maestro: Maestro }) {
  const navigate = useNavigate();
  const isSub = maestro.key === 'subfamilia';
  const familias = useFamilias(isSub);

  const columns = useMemo<DataColumn<MaestroFila>[]>(() => {
    const cols: DataColumn<MaestroFila>[] = [
      { id: 'codigo', header: 'Código', sortable: true, cell: (m) => <RowLink to={maestro.recordPath(m.id)}>{m.codigo}</RowLink>, text: (m) => m.codigo },
      { id: 'nombre', header: 'Nombre', sortable: true, cell: (m) => m.nombre },
    ];
    if (maestro.key === 'subfamilia') cols.push({ id: 'familia', header: 'Familia', cell: (m) => m.familia_nombre ?? '' });
    if (maestro.key === 'proceso') {
      cols.push(
        { id: 'tiempo', header: 'Tiempo (min)', align: 'right', cell: (m) => (m.tiempo ?? 0).toLocaleString('es-ES') },
        { id: 'coste', header: 'Coste', align: 'right', cell: (m) => formatPrecio(m.coste) },
      );
    }
    cols.push({ id: 'activo', header: 'Estado', sortable: true, cell: (m) => <ActiveBadge activo={m.activo} />, text: (m) => ESTADOS_ACTIVO[m.activo] });
    return cols;
  }, [maestro]);

  const filters: ListFilter[] = isSub ? [{ name: 'familia_id', label: 'Familia', options: familias.options }, ESTADO_FILTER] : [ESTADO_FILTER];

  return (
    <>
      <PageHeader
        title={maestro.plural}
        description={maestro.description}
        actions={<Button onClick={() => navigate(maestro.newPath)}>{maestro.nuevo}</Button>}
      />
      <ListView<MaestroFila>
        ac={maestro.actions.list}
        listKey={`catalogo-${maestro.key}`}
        title={maestro.plural}
        exportName={maestro.plural.toLowerCase()}
        columns={columns}
        rowKey={(m) => m.id}
        onRowClick={(m) => navigate(maestro.recordPath(m.id))}
        filters={filters}
        searchPlaceholder="Buscar por código o nombre…"
        defaultSort={{ orden: 'codigo', dir: 'asc' }}
      />
    </>
  );
}
