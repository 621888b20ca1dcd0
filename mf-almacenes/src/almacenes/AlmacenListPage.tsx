import { useMemo } from 'react';
import { ESTADO_FILTER, RecordListPage, activoColumn, linkColumn, useShell, type Almacen, type DataColumn, type ListFilter } from 'shared';
import { paths } from '../paths';

/** A van's details in one cell: 'Furgoneta · 1234-ABC · Ana'; empty for a fixed warehouse. */
export function furgonetaText(a: Almacen): string {
  if (a.es_furgoneta !== 1) return '';
  return ['Furgoneta', a.matricula, a.conductor_nombre].filter(Boolean).join(' · ');
}

const TIPO_FILTER: ListFilter = {
  name: 'es_furgoneta',
  label: 'Tipo',
  options: [
    { value: '0', label: 'Almacenes fijos' },
    { value: '1', label: 'Furgonetas' },
  ],
};

/** /almacenes: the warehouses (and, with the flag furgonetas, the vans). */
export function AlmacenListPage() {
  const { flags } = useShell();
  const furgonetas = flags.furgonetas === 1;

  const columns = useMemo<DataColumn<Almacen>[]>(() => {
    const cols: DataColumn<Almacen>[] = [
      linkColumn('codigo', 'Código', (a) => a.codigo, (a) => paths.almacen(a.id)),
      { id: 'nombre', header: 'Nombre', sortable: true, cell: (a) => a.nombre },
      { id: 'direccion', header: 'Dirección', hideOnPhone: true, cell: (a) => a.direccion ?? '' },
    ];
    if (furgonetas) cols.push({ id: 'furgoneta', header: 'Furgoneta', hideOnPhone: true, cell: furgonetaText });
    // The server sorts almacenes by código or nombre only.
    cols.push({ ...activoColumn<Almacen>(), sortable: false });
    return cols;
  }, [furgonetas]);

  return (
    <RecordListPage<Almacen>
      title="Almacenes"
      description={
        furgonetas
          ? 'Lugares donde se guarda el stock, incluidas las furgonetas de reparto. Abra uno para ver lo que contiene.'
          : 'Lugares donde se guarda el stock. Abra uno para ver lo que contiene.'
      }
      create={{ label: 'Nuevo almacén', to: paths.nuevoAlmacen }}
      recordPath={paths.almacen}
      ac="listadoalmacenes"
      listKey="almacenes-almacen"
      exportName="almacenes"
      columns={columns}
      filters={furgonetas ? [TIPO_FILTER, ESTADO_FILTER] : [ESTADO_FILTER]}
      searchPlaceholder="Buscar por código o nombre…"
      defaultSort={{ orden: 'codigo', dir: 'asc' }}
    />
  );
}
