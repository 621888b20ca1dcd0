import { useMemo, type ReactNode } from 'react';
import type { Proveedor } from '../domain/terceros';
import { activoColumn, linkColumn, type DataColumn } from '../ui/DataTable';
import { ESTADO_FILTER, RecordListPage } from '../ui/ListView';
import type { TerceroDef } from './terceros';

type Fila = Omit<Proveedor, 'compras_por_ejercicio'>;

export type TerceroListPageProps = {
  tercero: TerceroDef;
  description?: ReactNode;
  /** The record's screen (a module-level function: the columns are made once). */
  recordPath: (id: number) => string;
  newPath: string;
  /** Where the list remembers its state. */
  listKey: string;
};

/**
 * The list of a party (proveedores, clientes): código, razón social, NIF, población, teléfono and state;
 * the state filter, a search by código, NIF, razón social or nombre comercial, CSV and PDF; a row opens its record.
 */
export function TerceroListPage({ tercero, description, recordPath, newPath, listKey }: TerceroListPageProps) {
  const columns = useMemo<DataColumn<Fila>[]>(
    () => [
      linkColumn<Fila>('codigo', 'Código', (p) => p.codigo, (p) => recordPath(p.id)),
      { id: 'razon_social', header: 'Razón social', sortable: true, cell: (p) => p.razon_social },
      { id: 'nif', header: 'NIF', sortable: true, cell: (p) => p.nif },
      { id: 'poblacion', header: 'Población', sortable: true, hideOnPhone: true, cell: (p) => p.poblacion ?? '' },
      { id: 'telefono', header: 'Teléfono', hideOnPhone: true, cell: (p) => p.telefono ?? '' },
      // The server sorts parties by código, razón social, NIF or población.
      { ...activoColumn<Fila>(), sortable: false },
    ],
    [recordPath],
  );
  return (
    <RecordListPage<Fila>
      title={tercero.plural}
      description={description}
      create={{ label: `Nuevo ${tercero.label.toLowerCase()}`, to: newPath }}
      recordPath={recordPath}
      ac={tercero.ac}
      listKey={listKey}
      exportName={tercero.plural.toLowerCase()}
      columns={columns}
      filters={[ESTADO_FILTER]}
      searchPlaceholder="Buscar por código, NIF, razón social o nombre comercial…"
      defaultSort={{ orden: 'codigo', dir: 'asc' }}
    />
  );
}
