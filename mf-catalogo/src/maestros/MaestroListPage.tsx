import { useMemo } from 'react';
import { ESTADO_FILTER, RecordListPage, activoColumn, linkColumn, usePermisos, type DataColumn, type ListFilter, type Proceso, type Subfamilia } from 'shared';
import { formatPrecio } from '../formato';
import { useFamilias } from '../opciones';
import type { Maestro } from './entidades';

type MaestroFila = { id: number; codigo: string; nombre: string; activo: 0 | 1 } & Partial<Pick<Subfamilia, 'familia_nombre'>> & Partial<Pick<Proceso, 'tiempo' | 'coste'>>;

/** /catalogo/familias, subfamilias, marcas, materiales, procesos: one list for the five. */
export function MaestroListPage({ maestro }: { maestro: Maestro }) {
  const isSub = maestro.key === 'subfamilia';
  const familias = useFamilias(isSub);
  const costes = usePermisos().tiene('ver_costes');

  const columns = useMemo<DataColumn<MaestroFila>[]>(() => {
    const cols: DataColumn<MaestroFila>[] = [
      linkColumn('codigo', 'Código', (m) => m.codigo, (m) => maestro.recordPath(m.id)),
      { id: 'nombre', header: 'Nombre', sortable: true, cell: (m) => m.nombre },
    ];
    if (maestro.key === 'subfamilia') cols.push({ id: 'familia', header: 'Familia', cell: (m) => m.familia_nombre ?? '' });
    if (maestro.key === 'proceso') {
      cols.push({ id: 'tiempo', header: 'Tiempo (min)', align: 'right', numeric: true, cell: (m) => (m.tiempo ?? 0).toLocaleString('es-ES') });
      // A process's cost: only with «ver precios de compra, costes y márgenes» (the server answers it to no one else).
      if (costes) cols.push({ id: 'coste', header: 'Coste', align: 'right', numeric: true, cell: (m) => formatPrecio(m.coste) });
    }
    cols.push(activoColumn());
    return cols;
  }, [maestro, costes]);

  const filters: ListFilter[] = isSub ? [{ name: 'familia_id', label: 'Familia', options: familias.options }, ESTADO_FILTER] : [ESTADO_FILTER];

  return (
    <RecordListPage<MaestroFila>
      title={maestro.plural}
      description={maestro.description}
      create={{ label: maestro.nuevo, to: maestro.newPath }}
      recordPath={maestro.recordPath}
      ac={maestro.actions.list}
      listKey={`catalogo-${maestro.key}`}
      exportName={maestro.plural.toLowerCase()}
      columns={columns}
      filters={filters}
      searchPlaceholder="Buscar por código o nombre…"
      defaultSort={{ orden: 'codigo', dir: 'asc' }}
    />
  );
}
