import { useMemo, type ReactNode } from 'react';
import { useTable, type Column } from 'react-table';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { CONSTANTS } from '../domain/messages';
import type { Theme } from './theme';

type T = { theme: Theme };

export type DataColumn<R> = {
  id: string;
  header: string;
  /** Cell text or element; also what CSV/PDF export uses when `text` is absent. */
  cell: (row: R) => ReactNode;
  text?: (row: R) => string | number | null;
  sortable?: boolean;
  align?: 'left' | 'right' | 'center';
  /** Hidden below phone width. */
  hideOnPhone?: boolean;
  width?: string;
};

const StyledWrap = styled.div`
  overflow-x: auto;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: ${({ theme }: T) => theme.radius};
  background: #fff;
`;
const StyledTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  th, td { padding: 9px 12px; border-bottom: 1px solid ${({ theme }: T) => theme.gray[100]}; text-align: left; }
  th { background: ${({ theme }: T) => theme.gray[50]}; font-size: 12px; text-transform: uppercase; letter-spacing: 0.03em; color: ${({ theme }: T) => theme.gray[600]}; white-space: nowrap; }
  th button { all: unset; cursor: pointer; display: inline-flex; gap: 4px; align-items: center; }
  th button:focus-visible { outline: 2px solid ${({ theme }: T) => theme.primary[500]}; }
  tbody tr.clickable { cursor: pointer; }
  tbody tr.clickable:hover { background: ${({ theme }: T) => theme.primary[50]}; }
  caption.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .right { text-align: right; font-variant-numeric: tabular-nums; }
  .center { text-align: center; }
  ${({ theme }: T) => theme.phone} { .phone-hide { display: none; } }
`;

export type DataTableProps<R> = {
  columns: DataColumn<R>[];
  rows: R[];
  rowKey: (row: R) => string | number;
  onRowClick?: (row: R) => void;
  sort?: { orden?: string; dir?: 'asc' | 'desc' };
  onSort?: (orden: string, dir: 'asc' | 'desc') => void;
  empty?: ReactNode;
  caption?: string;
};

/** Presentational table (react-table) with server-side sorting. */
export function DataTable<R extends object>({ columns, rows, rowKey, onRowClick, sort, onSort, empty, caption }: DataTableProps<R>) {
  const rtColumns = useMemo<Column<R>[]>(
    () => columns.map((c) => ({ id: c.id, Header: c.header, accessor: (r: R) => r, Cell: ({ value }: { value: R }) => <>{c.cell(value)}</> })),
    [columns],
  );
  const { getTableProps, getTableBodyProps, headerGroups, rows: rtRows, prepareRow } = useTable<R>({ columns: rtColumns, data: rows });
  const meta = new Map(columns.map((c) => [c.id, c]));
  const cls = (c?: DataColumn<R>) => [c?.align === 'right' ? 'right' : c?.align === 'center' ? 'center' : '', c?.hideOnPhone ? 'phone-hide' : ''].join(' ').trim();

  return (
    <StyledWrap>
      <StyledTable {...getTableProps()}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          {headerGroups.map((hg) => {
            const { key, ...hgProps } = hg.getHeaderGroupProps();
            return (
              <tr key={key} {...hgProps}>
                {hg.headers.map((h) => {
                  const c = meta.get(h.id);
                  const { key: hk, ...hProps } = h.getHeaderProps();
                  const active = sort?.orden === h.id;
                  const ariaSort = active ? (sort?.dir === 'desc' ? 'descending' : 'ascending') : undefined;
                  return (
                    <th key={hk} {...hProps} className={cls(c)} style={{ width: c?.width }} aria-sort={ariaSort}>
                      {c?.sortable && onSort ? (
                        <button type="button" onClick={() => onSort(h.id, active && sort?.dir === 'asc' ? 'desc' : 'asc')}>
                          {c.header}
                          <span aria-hidden>{active ? (sort?.dir === 'desc' ? '▼' : '▲') : '↕'}</span>
                        </button>
                      ) : (
                        c?.header
                      )}
                    </th>
                  );
                })}
              </tr>
            );
          })}
        </thead>
        <tbody {...getTableBodyProps()}>
          {rtRows.length === 0 && (
            <tr>
              <td colSpan={columns.length} style={{ textAlign: 'center', padding: 24, color: '#64748b' }}>
                {empty ?? 'No hay resultados'}
              </td>
            </tr>
          )}
          {rtRows.map((row) => {
            prepareRow(row);
            const { key, ...rowProps } = row.getRowProps();
            return (
              <tr
                key={String(rowKey(row.original)) || key}
                {...rowProps}
                className={onRowClick ? 'clickable' : undefined}
                onClick={onRowClick ? () => onRowClick(row.original) : undefined}
              >
                {row.cells.map((cell) => {
                  const { key: ck, ...cellProps } = cell.getCellProps();
                  return (
                    <td key={ck} {...cellProps} className={cls(meta.get(cell.column.id))}>
                      {cell.render('Cell')}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </StyledTable>
    </StyledWrap>
  );
}

const StyledPager = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
  margin-top: 12px;
  font-size: 14px;
  color: ${({ theme }: T) => theme.gray[600]};
  select { font: inherit; padding: 4px 6px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; }
  .pages { display: flex; gap: 4px; align-items: center; }
  .pages button { font: inherit; min-width: 34px; min-height: 32px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; background: #fff; cursor: pointer; }
  .pages button:disabled { opacity: 0.4; cursor: default; }
`;

export type PagerProps = {
  pagina: number;
  porPagina: number;
  total: number;
  onPage: (pagina: number) => void;
  onPageSize: (porPagina: number) => void;
};

/** "Resultados por página" (10, 25, 50, 100), the count and page navigation. */
export function Pager({ pagina, porPagina, total, onPage, onPageSize }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / porPagina));
  const from = total === 0 ? 0 : (pagina - 1) * porPagina + 1;
  const to = Math.min(total, pagina * porPagina);
  return (
    <StyledPager>
      <label>
        Resultados por página{' '}
        <select value={porPagina} onChange={(e) => onPageSize(Number(e.target.value))} aria-label="Resultados por página">
          {CONSTANTS.pageSizes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <span aria-live="polite">
        {from.toLocaleString('es-ES')}–{to.toLocaleString('es-ES')} de {total.toLocaleString('es-ES')} resultados
      </span>
      <div className="pages">
        <button type="button" onClick={() => onPage(1)} disabled={pagina <= 1} aria-label="Primera página">«</button>
        <button type="button" onClick={() => onPage(pagina - 1)} disabled={pagina <= 1} aria-label="Página anterior">‹</button>
        <span>
          Página {pagina.toLocaleString('es-ES')} de {pages.toLocaleString('es-ES')}
        </span>
        <button type="button" onClick={() => onPage(pagina + 1)} disabled={pagina >= pages} aria-label="Página siguiente">›</button>
        <button type="button" onClick={() => onPage(pages)} disabled={pagina >= pages} aria-label="Última página">»</button>
      </div>
    </StyledPager>
  );
}

const StyledRowLink = styled(Link)`
  color: ${({ theme }: T) => theme.gray[900]};
  font-weight: 600;
  text-decoration: none;
  &:hover { text-decoration: underline; }
  &:focus-visible { outline: 2px solid ${({ theme }: T) => theme.primary[500]}; outline-offset: 2px; border-radius: 2px; }
`;

/** The main cell of a clickable row as a real link: keyboard users can reach it, and it opens in a new tab. */
export function RowLink({ to, children }: { to: string; children: ReactNode }) {
  // The row's own click would navigate a second time.
  return (
    <StyledRowLink to={to} onClick={(e) => e.stopPropagation()}>
      {children}
    </StyledRowLink>
  );
}
