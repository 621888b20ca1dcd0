import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import { FormSection, ListView, RowLink, usePermisos, useShell, type ApiResponse, type DataColumn, type StockAlmacenFila } from 'shared';
import { formatCantidad, formatImporte, formatPrecio } from '../formato';
import { paths } from '../paths';

const Negativo = styled.strong`
  color: ${({ theme }) => theme.danger};
  background: #fef2f2;
  padding: 1px 6px;
  border-radius: 4px;
`;

/** `listadostockalmacen` answers the value of the whole stock beside the rows. */
type StockAnswer = ApiResponse<StockAlmacenFila> & { valor_total?: number };

/** The value at average cost of everything the almacén holds (cents), or null while unknown. */
function useValorTotal(almacenId: number) {
  const { api } = useShell();
  const [valor, setValor] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    setValor(null);
    (async () => {
      try {
        const res = (await api.get<StockAlmacenFila>('listadostockalmacen', { almacen_id: almacenId, pagina: 1, porPagina: 10 })) as StockAnswer;
        if (live && (res.RESULT === '0' || res.RESULT === '3')) setValor(res.valor_total ?? 0);
      } catch {
        // The table shows the error of the same request.
      }
    })();
    return () => {
      live = false;
    };
  }, [api, almacenId]);
  return valor;
}

/**
 * What an almacén holds: its articles with stock (≠ 0), paged and searchable, with the value at
 * average cost, CSV and PDF. The article's code opens its record in the catalogue.
 */
export function StockAlmacenPanel({ almacen }: { almacen: { id: number; codigo: string; nombre: string } }) {
  const navigate = useNavigate();
  const valorTotal = useValorTotal(almacen.id);
  // Issue 24: the average cost and the value are costs — not answered without ver_costes, nor drawn.
  const costes = usePermisos().tiene('ver_costes');

  const columns = useMemo<DataColumn<StockAlmacenFila>[]>(
    () => [
      {
        id: 'codigo',
        header: 'Artículo',
        sortable: true,
        cell: (s) => <RowLink to={paths.articulo(s.articulo_id)}>{s.codigo}</RowLink>,
        text: (s) => s.codigo,
      },
      { id: 'descripcion', header: 'Descripción', sortable: true, cell: (s) => s.descripcion },
      {
        id: 'stock',
        header: 'Stock',
        sortable: true,
        align: 'right',
        numeric: true,
        // Issue 17: negative stock (sold or taken out before it was received) stands out.
        cell: (s) =>
          s.stock < 0 ? (
            <Negativo title="Stock negativo: ha salido más de lo que ha entrado" data-negativo="">
              {formatCantidad(s.stock)}
            </Negativo>
          ) : (
            formatCantidad(s.stock)
          ),
        text: (s) => formatCantidad(s.stock),
      },
      ...(costes
        ? ([
            { id: 'coste_medio', header: 'Coste medio', align: 'right', numeric: true, hideOnPhone: true, cell: (s) => formatPrecio(s.coste_medio) },
            { id: 'valor', header: 'Valor', sortable: true, align: 'right', numeric: true, cell: (s) => formatImporte(s.valor) },
          ] satisfies DataColumn<StockAlmacenFila>[])
        : []),
    ],
    [costes],
  );

  return (
    <FormSection
      title="Stock"
      description={`Artículos con existencias en este almacén${costes ? ', valorados a su coste medio' : ''}. El stock negativo se marca en rojo.`}
      aside={
        costes ? (
          <span aria-live="polite">
            Valor total: <strong>{valorTotal === null ? '…' : formatImporte(valorTotal)}</strong>
          </span>
        ) : undefined
      }
    >
      <ListView<StockAlmacenFila>
        ac="listadostockalmacen"
        params={{ almacen_id: almacen.id }}
        listKey={`almacenes-stock-${almacen.id}`}
        title={`Stock de ${almacen.codigo} ${almacen.nombre}`}
        exportName={`stock-${almacen.codigo}`}
        columns={columns}
        rowKey={(s) => s.articulo_id}
        onRowClick={(s) => navigate(paths.articulo(s.articulo_id))}
        searchPlaceholder="Buscar artículo por código o descripción…"
        defaultSort={{ orden: 'codigo', dir: 'asc' }}
      />
    </FormSection>
  );
}
