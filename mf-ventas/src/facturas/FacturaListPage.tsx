import { useMemo } from 'react';
import styled from 'styled-components';
import { DocumentListPage, formatDate, hoyIso, useAlmacenes, type DataColumn, type DocumentoFila, type ListFilter } from 'shared';
import { situacionCobro, useSeries } from './datos';
import type { PantallaFactura } from './pantallas';

const StyledCobro = styled.span`
  white-space: nowrap;
  font-weight: 600;
  &.cobrada { color: #166534; }
  &.pendiente { color: #92400e; }
  &.vencida { color: ${({ theme }) => theme.danger}; }
`;

const COBRO_LABEL = { cobrada: 'Cobrada', pendiente: 'Pendiente', vencida: 'Vencida' } as const;

/** The payment filter of the invoices' list (`cobro`, answered by the server). */
const COBRO_FILTER: ListFilter = {
  name: 'cobro',
  label: 'Cobro',
  options: [
    { value: 'pendiente', label: 'Pendientes de cobro' },
    { value: 'vencida', label: 'Vencidas' },
    { value: 'cobrada', label: 'Cobradas' },
  ],
};

const CLIENTE: DataColumn<DocumentoFila> = { id: 'cliente', header: 'Cliente', cell: (d) => d.cliente_nombre ?? '' };

function columnasFactura(hoy: string): DataColumn<DocumentoFila>[] {
  const vencimiento = (d: DocumentoFila) => situacionCobro(d, hoy)?.vencimientos.map(formatDate).join(', ') ?? '';
  return [
    CLIENTE,
    { id: 'vencimiento', header: 'Vencimiento', hideOnPhone: true, cell: vencimiento, text: vencimiento },
    {
      id: 'cobro',
      header: 'Cobro',
      cell: (d) => {
        const s = situacionCobro(d, hoy);
        return s ? (
          <StyledCobro className={s.estado} title={s.estado === 'cobrada' ? `Cobrada el ${formatDate(d.cobro_fecha)}` : undefined}>
            {COBRO_LABEL[s.estado]}
          </StyledCobro>
        ) : (
          ''
        );
      },
      text: (d) => {
        const s = situacionCobro(d, hoy);
        return s ? COBRO_LABEL[s.estado] : '';
      },
    },
  ];
}

const COLUMNAS_RECTIFICATIVA: DataColumn<DocumentoFila>[] = [
  CLIENTE,
  { id: 'factura', header: 'Rectifica', cell: (d) => d.factura_numero ?? '' },
  { id: 'tipo_factura', header: 'Tipo', hideOnPhone: true, cell: (d) => d.tipo_factura ?? '' },
];

/**
 * /ventas/facturas and /ventas/rectificativa: state, customer, serie, dates and warehouse filters; invoices
 * also by payment (pending, overdue, paid) with their due dates; the selection prints as one PDF (the customers'
 * full data, each invoice with its fiscal QR).
 */
export function FacturaListPage({ pantalla }: { pantalla: PantallaFactura }) {
  const { def } = pantalla;
  const factura = def.tipo === 'factura';
  const almacenes = useAlmacenes();
  const series = useSeries(pantalla.series);
  const hoy = hoyIso();
  const columns = useMemo(() => (factura ? columnasFactura(hoy) : COLUMNAS_RECTIFICATIVA), [factura, hoy]);
  const filters = useMemo<ListFilter[]>(
    () => [{ name: 'serie_id', label: 'Serie', options: series.rows.map((s) => ({ value: String(s.id), label: s.codigo })) }, ...(factura ? [COBRO_FILTER] : [])],
    [series.rows, factura],
  );
  return (
    <DocumentListPage
      pantalla={pantalla}
      columns={columns}
      almacenes={almacenes.options}
      filters={filters}
      listKey={`ventas-${def.plural}`}
    />
  );
}
