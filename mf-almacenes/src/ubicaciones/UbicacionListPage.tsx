import { useMemo } from 'react';
import { ESTADO_FILTER, RecordListPage, activoColumn, linkColumn, type DataColumn, type ListFilter, type Ubicacion } from 'shared';
import { useAlmacenes } from '../opciones';
import { paths } from '../paths';

/** /almacenes/ubicaciones: the places inside the warehouses (aisle, rack, shelf), filtered by almacén. */
export function UbicacionListPage() {
  const almacenes = useAlmacenes();

  const columns = useMemo<DataColumn<Ubicacion>[]>(
    () => [
      linkColumn('codigo', 'Código', (u) => u.codigo, (u) => paths.ubicacion(u.id)),
      { id: 'descripcion', header: 'Descripción', cell: (u) => u.descripcion ?? '' },
      { id: 'almacen', header: 'Almacén', cell: (u) => u.almacen_nombre ?? '' },
      { ...activoColumn<Ubicacion>(), sortable: false },
    ],
    [],
  );

  const filters: ListFilter[] = [{ name: 'almacen_id', label: 'Almacén', options: almacenes.options }, ESTADO_FILTER];

  return (
    <RecordListPage<Ubicacion>
      title="Ubicaciones"
      description="Pasillo, estantería y balda de cada almacén (A-03-2): dónde está cada artículo."
      create={{ label: 'Nueva ubicación', to: paths.nuevaUbicacion }}
      recordPath={paths.ubicacion}
      ac="listadoubicaciones"
      listKey="almacenes-ubicacion"
      exportName="ubicaciones"
      columns={columns}
      filters={filters}
      searchPlaceholder="Buscar por código o descripción…"
      defaultSort={{ orden: 'codigo', dir: 'asc' }}
    />
  );
}
