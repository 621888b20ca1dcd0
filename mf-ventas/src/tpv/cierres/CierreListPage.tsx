import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import {
  FiltroFechas,
  ListView,
  PageHeader,
  formatDateTime,
  formatMoney,
  linkColumn,
  useListOptions,
  useListState,
  type DataColumn,
  type ListFilter,
} from 'shared';
import { paths } from '../../paths';
import type { CierreTpv, Terminal } from '../datos';
import { Diferencia } from './Diferencia';

const COLUMNS: DataColumn<CierreTpv>[] = [
  { id: 'terminal', header: 'Terminal', cell: (c) => c.terminal_nombre ?? `#${c.terminal_id}`, text: (c) => c.terminal_nombre ?? '' },
  linkColumn('codigo', 'Cierre', (c) => String(c.codigo), (c) => paths.cierreTpv(c.id)),
  { id: 'usuario', header: 'Cajero', hideOnPhone: true, cell: (c) => c.usuario_nombre ?? '', text: (c) => c.usuario_nombre ?? '' },
  { id: 'apertura', header: 'Apertura', hideOnPhone: true, cell: (c) => formatDateTime(c.apertura), text: (c) => formatDateTime(c.apertura) },
  { id: 'cierre', header: 'Cierre', sortable: true, cell: (c) => formatDateTime(c.cierre), text: (c) => formatDateTime(c.cierre) },
  { id: 'tickets', header: 'Tickets', numeric: true, align: 'right', hideOnPhone: true, cell: (c) => c.tickets, text: (c) => c.tickets },
  { id: 'devoluciones', header: 'Devoluciones', numeric: true, align: 'right', hideOnPhone: true, cell: (c) => c.devoluciones, text: (c) => c.devoluciones },
  { id: 'total', header: 'Total', numeric: true, align: 'right', cell: (c) => formatMoney(c.total), text: (c) => formatMoney(c.total) },
  { id: 'diferencia', header: 'Diferencia', numeric: true, align: 'right', cell: (c) => <Diferencia cents={c.diferencia} />, text: (c) => formatMoney(c.diferencia) },
];

/** /ventas/cierres-tpv: every closing of every terminal, newest first; filters by terminal and dates. Read only. */
export function CierreListPage() {
  const navigate = useNavigate();
  const [fechas, setFechas] = useListState('ventas-cierres-tpv-fechas');
  const desde = fechas.filters.desde ?? '';
  const hasta = fechas.filters.hasta ?? '';
  const terminales = useListOptions<Terminal>('listadoterminales', { params: { orden: 'nombre' }, toOption: (t) => ({ value: String(t.id), label: t.nombre }) });
  const filters = useMemo<ListFilter[]>(() => [{ name: 'terminal_id', label: 'Terminal', options: terminales.options }], [terminales.options]);
  const params = useMemo(() => ({ desde: desde || undefined, hasta: hasta || undefined }), [desde, hasta]);
  return (
    <>
      <PageHeader
        title="Cierres TPV"
        description="Cada cierre de caja de los terminales: lo vendido, lo esperado y lo contado. Un cierre es definitivo; una corrección es un movimiento nuevo."
      />
      <FiltroFechas
        desde={desde}
        hasta={hasta}
        onChange={(name, value) => setFechas((s) => ({ ...s, filters: { ...s.filters, [name]: value } }))}
        onClear={() => setFechas((s) => ({ ...s, filters: { ...s.filters, desde: '', hasta: '' } }))}
      />
      <ListView<CierreTpv>
        title="Cierres TPV"
        ac="listadocierrestpv"
        listKey="ventas-cierres-tpv"
        exportName="cierres-tpv"
        columns={COLUMNS}
        rowKey={(c) => c.id}
        onRowClick={(c) => navigate(paths.cierreTpv(c.id))}
        filters={filters}
        params={params}
        defaultSort={{ orden: 'cierre', dir: 'desc' }}
        empty="No hay cierres con estos filtros"
      />
    </>
  );
}
