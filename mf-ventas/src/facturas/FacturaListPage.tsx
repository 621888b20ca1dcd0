import { useMemo } from 'react';
import styled from 'styled-components';
import { AvisosVerifactu, DocumentListPage, formatDate, hoyIso, useAlmacenes, type DataColumn, type DocumentoFila, type ListFilter } from 'shared';
import { situacionCobro, textosCobro, useSeries, type TextosCobro } from './datos';
import type { PantallaFactura } from './pantallas';

const StyledCobro = styled.span`
  white-space: nowrap;
  font-weight: 600;
  &.cobrada { color: #166534; }
  &.pendiente { color: #92400e; }
  &.vencida { color: ${({ theme }) => theme.danger}; }
`;

/** The payment filter of the list (`cobro`, answered by the server): an invoice's cobro, a rectificativa's refund. */
const cobroFilter = (t: TextosCobro): ListFilter => ({
  name: 'cobro',
  label: t.titulo,
  options: [
    { value: 'pendiente', label: t.filtro.pendiente },
    { value: 'vencida', label: t.filtro.vencida },
    { value: 'cobrada', label: t.filtro.cobrada },
  ],
});

/** At 390 px each row shows its number, its customer and its total (the rest hides: no side-scrolling). */
const EN_TELEFONO = ['numero', 'cliente', 'total'];

const CLIENTE: DataColumn<DocumentoFila> = { id: 'cliente', header: 'Cliente', cell: (d) => d.cliente_nombre ?? '' };

/** Its due date(s) and where it stands with its payment (an invoice's cobro, a rectificativa's refund). */
function columnasCobro(hoy: string, t: TextosCobro): DataColumn<DocumentoFila>[] {
  const vencimiento = (d: DocumentoFila) => situacionCobro(d, hoy)?.vencimientos.map(formatDate).join(', ') ?? '';
  const estado = (d: DocumentoFila) => {
    const s = situacionCobro(d, hoy);
    return s ? t.estados[s.estado] : '';
  };
  return [
    { id: 'vencimiento', header: 'Vencimiento', hideOnPhone: true, cell: vencimiento, text: vencimiento },
    {
      id: 'cobro',
      header: t.titulo,
      cell: (d) => {
        const s = situacionCobro(d, hoy);
        return s ? (
          <StyledCobro className={s.estado} title={s.estado === 'cobrada' ? `${t.estados.cobrada} el ${formatDate(d.cobro_fecha)}` : undefined}>
            {t.estados[s.estado]}
          </StyledCobro>
        ) : (
          ''
        );
      },
      text: estado,
    },
  ];
}

const COLUMNAS_RECTIFICATIVA: DataColumn<DocumentoFila>[] = [
  CLIENTE,
  { id: 'factura', header: 'Rectifica', cell: (d) => d.factura_numero ?? '' },
  { id: 'tipo_factura', header: 'Tipo', hideOnPhone: true, cell: (d) => d.tipo_factura ?? '' },
];

/**
 * /ventas/facturas and /ventas/rectificativa: state, customer, serie, dates and warehouse filters; also by payment
 * (pending, overdue, paid; a rectificativa's is its refund: reembolsada) with their due dates; the selection prints as one PDF (the customers'
 * full data, each invoice with its fiscal QR).
 */
export function FacturaListPage({ pantalla }: { pantalla: PantallaFactura }) {
  const { def } = pantalla;
  const factura = def.tipo === 'factura';
  const almacenes = useAlmacenes();
  const series = useSeries(pantalla.series);
  const hoy = hoyIso();
  const textos = textosCobro(def.tipo);
  const columns = useMemo(() => [...(factura ? [CLIENTE] : COLUMNAS_RECTIFICATIVA), ...columnasCobro(hoy, textos)], [factura, hoy, textos]);
  const filters = useMemo<ListFilter[]>(
    () => [{ name: 'serie_id', label: 'Serie', options: series.rows.map((s) => ({ value: String(s.id), label: s.codigo })) }, cobroFilter(textos)],
    [series.rows, textos],
  );
  return (
    <>
      {/* From 30 days before the obligation date: records that are not being sent. */}
      <AvisosVerifactu soloObligacion />
      <DocumentListPage pantalla={pantalla} columns={columns} almacenes={almacenes.options} filters={filters} enTelefono={EN_TELEFONO} listKey={`ventas-${def.plural}`} />
    </>
  );
}
