import { useMemo } from 'react';
import { ESTADO_FILTER, RecordListPage, activoColumn, formatMoney, linkColumn, type DataColumn } from 'shared';
import { paths } from '../../paths';
import { formaTpvLabel, formasDe, type Terminal } from '../datos';

/** /ventas/terminales: the tills of the counter. */
export function TerminalListPage() {
  const columns = useMemo<DataColumn<Terminal>[]>(
    () => [
      linkColumn('nombre', 'Nombre', (t) => t.nombre, (t) => paths.terminal(t.id)),
      { id: 'almacen', header: 'Almacén', cell: (t) => t.almacen_nombre ?? '', text: (t) => t.almacen_nombre ?? '' },
      { id: 'serie', header: 'Serie', hideOnPhone: true, cell: (t) => [t.serie_codigo, t.serie_rectificativa_codigo].filter(Boolean).join(' / ') },
      { id: 'formas', header: 'Formas de pago', hideOnPhone: true, cell: (t) => formasDe(t).map(formaTpvLabel).join(', ') },
      { id: 'fondo', header: 'Fondo', numeric: true, align: 'right', hideOnPhone: true, cell: (t) => formatMoney(t.fondo ?? 0), text: (t) => formatMoney(t.fondo ?? 0) },
      { id: 'vinculado', header: 'Vinculado', hideOnPhone: true, cell: (t) => (t.emparejado ? 'Sí' : 'No') },
      { ...activoColumn<Terminal>(), sortable: false },
    ],
    [],
  );
  return (
    <RecordListPage<Terminal>
      title="Terminales"
      description="Los puestos de venta del mostrador: de qué almacén venden, su serie de tickets, las formas de pago y el fondo de caja."
      create={{ label: 'Nuevo terminal', to: paths.nuevoTerminal }}
      recordPath={paths.terminal}
      ac="listadoterminales"
      listKey="ventas-terminales"
      exportName="terminales"
      columns={columns}
      filters={[ESTADO_FILTER]}
      searchPlaceholder="Buscar por nombre…"
      defaultSort={{ orden: 'nombre', dir: 'asc' }}
    />
  );
}
