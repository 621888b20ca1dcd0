import { useId, useMemo, useState } from 'react';
import {
  DataTable,
  FormSection,
  Pager,
  RowLink,
  StyledInput,
  causaMovimiento,
  formatDate,
  rutaDocumento,
  useList,
  useListOptions,
  type Almacen,
  type DataColumn,
  type MovimientoArticulo,
} from 'shared';
import styled from 'styled-components';
import { formatCantidad } from '../formato';

const StyledFilters = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px 12px;
  align-items: end;
  margin-bottom: 12px;
  label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; font-weight: 500; }
  select { font: inherit; padding: 7px 8px; border-radius: 6px; border: 1px solid ${({ theme }) => theme.gray[300]}; background: #fff; min-height: 38px; }
`;

const signed = (n: number) => (n > 0 ? `+${formatCantidad(n)}` : formatCantidad(n));

/**
 * The article's stock ledger (`listadomovimientosarticulo`): newest first, each row with the stock
 * after it (in the chosen warehouse, or in all of them) and a link to the document that wrote it.
 */
export function MovimientosPanel({ articuloId }: { articuloId: number }) {
  const ids = useId();
  const [almacenId, setAlmacenId] = useState('');
  const [desde, setDesde] = useState('');
  const [hasta, setHasta] = useState('');
  const [pagina, setPagina] = useState(1);
  const [porPagina, setPorPagina] = useState(25);
  const almacenes = useListOptions<Almacen>('listadoalmacenes', {
    params: { orden: 'nombre', dir: 'asc' },
    toOption: (a) => ({ value: String(a.id), label: a.nombre }),
  });
  const params = { articulo_id: articuloId, almacen_id: almacenId || undefined, desde: desde || undefined, hasta: hasta || undefined, pagina, porPagina };
  const { rows, total, loading, error } = useList<MovimientoArticulo>('listadomovimientosarticulo', params);

  const columns = useMemo<DataColumn<MovimientoArticulo>[]>(
    () => [
      { id: 'fecha', header: 'Fecha', cell: (m) => formatDate(m.fecha) },
      { id: 'almacen', header: 'Almacén', hideOnPhone: true, cell: (m) => m.almacen_nombre + (m.ubicacion_codigo ? ` · ${m.ubicacion_codigo}` : '') },
      { id: 'causa', header: 'Causa', hideOnPhone: true, cell: (m) => causaMovimiento(m) },
      {
        id: 'documento',
        header: 'Documento',
        cell: (m) => {
          const to = rutaDocumento(m.documento_tipo, m.documento_id);
          const text = m.documento_numero ?? '';
          return to ? <RowLink to={to}>{text || 'Ver documento'}</RowLink> : text;
        },
        text: (m) => m.documento_numero,
      },
      { id: 'cantidad', header: 'Cantidad', align: 'right', cell: (m) => signed(m.cantidad) },
      { id: 'saldo', header: 'Saldo', align: 'right', cell: (m) => formatCantidad(m.saldo) },
    ],
    [],
  );

  const reset = () => setPagina(1);
  return (
    <FormSection title="Movimientos de stock" description="Cada entrada y salida del artículo, con el saldo después de cada una.">
      <StyledFilters>
        <label>
          Almacén
          <select
            value={almacenId}
            onChange={(e) => {
              setAlmacenId(e.target.value);
              reset();
            }}
          >
            <option value="">Todos los almacenes</option>
            {almacenes.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${ids}-desde`}>
          Desde
          <StyledInput
            id={`${ids}-desde`}
            type="date"
            value={desde}
            onChange={(e) => {
              setDesde(e.target.value);
              reset();
            }}
          />
        </label>
        <label htmlFor={`${ids}-hasta`}>
          Hasta
          <StyledInput
            id={`${ids}-hasta`}
            type="date"
            value={hasta}
            onChange={(e) => {
              setHasta(e.target.value);
              reset();
            }}
          />
        </label>
      </StyledFilters>
      {error ? (
        <p role="alert">{error}</p>
      ) : (
        <>
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(m) => m.id}
            empty={loading ? 'Cargando…' : 'El artículo no tiene movimientos de stock'}
            caption="Movimientos de stock del artículo"
          />
          {total > 0 && (
            <Pager
              pagina={pagina}
              porPagina={porPagina}
              total={total}
              onPage={setPagina}
              onPageSize={(n) => {
                setPorPagina(n);
                reset();
              }}
            />
          )}
        </>
      )}
    </FormSection>
  );
}
