import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTable, type Column } from 'react-table';
import styled from 'styled-components';
import type { DataColumn, DataTableProps } from './DataTable';
import type { Theme } from './theme';

type T = { theme: Theme };

const StyledWrap = styled.div`
  overflow-x: auto;
  /* The visually hidden texts (a header without a visible name) are absolute: held and clipped here, never widening the page. */
  position: relative;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: ${({ theme }: T) => theme.radius};
  background: #fff;
  &:focus-visible { outline: 2px solid ${({ theme }: T) => theme.primary[500]}; outline-offset: 2px; }
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
  caption.sr-only, th .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  tbody tr.subtotal td { font-weight: 600; background: ${({ theme }: T) => theme.gray[50]}; }
  tfoot td { font-weight: 700; border-top: 2px solid ${({ theme }: T) => theme.gray[300]}; background: ${({ theme }: T) => theme.gray[50]}; }
  .right { text-align: right; font-variant-numeric: tabular-nums; }
  td.right { white-space: nowrap; }
  .center { text-align: center; }
  ${({ theme }: T) => theme.phone} {
    .phone-hide { display: none; }
    th, td { padding: 8px 6px; }
    td { font-size: 13px; }
    /* The headers set the columns' widths (they don't wrap): in capitals and spaced they took a row's room. */
    th { text-transform: none; letter-spacing: 0; }
  }
`;

/**
 * Whether the element is wider than its box (a phone, many columns): then it is a named region the keyboard can
 * reach and scroll with the arrows (axe scrollable-region-focusable), even with no focusable cell (an empty list).
 */
function useDesborda<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const [desborda, setDesborda] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const medir = () => setDesborda(el.scrollWidth > el.clientWidth);
    medir();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(medir);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => ro.disconnect();
  }, []);
  return [ref, desborda] as const;
}

/** Presentational table (react-table) with server-side sorting. */
export default function DataTableImpl<R extends object>({ columns, rows, rowKey, onRowClick, sort, onSort, empty, caption, rowClassName, footer }: DataTableProps<R>) {
  const rtColumns = useMemo<Column<R>[]>(
    // The cells are drawn from `columns` below, not by react-table.
    () => columns.map((c) => ({ id: c.id, Header: c.header, accessor: (r: R) => r })),
    [columns],
  );
  const { getTableProps, getTableBodyProps, headerGroups, rows: rtRows, prepareRow } = useTable<R>({ columns: rtColumns, data: rows });
  const meta = new Map(columns.map((c) => [c.id, c]));
  const cls = (c?: DataColumn<R>) => [c?.align === 'right' ? 'right' : c?.align === 'center' ? 'center' : '', c?.hideOnPhone ? 'phone-hide' : '', c?.className ?? ''].join(' ').trim();

  const [wrap, desborda] = useDesborda<HTMLDivElement>();

  return (
    <StyledWrap ref={wrap} {...(desborda ? { role: 'region', 'aria-label': caption ?? 'Tabla', tabIndex: 0 } : {})}>
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
                      ) : c?.headerHidden ? (
                        <span className="sr-only">{c.header}</span>
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
                className={[onRowClick ? 'clickable' : '', rowClassName?.(row.original) ?? ''].join(' ').trim() || undefined}
                onClick={onRowClick ? () => onRowClick(row.original) : undefined}
              >
                {row.cells.map((cell) => {
                  const { key: ck, ...cellProps } = cell.getCellProps();
                  return (
                    <td key={ck} {...cellProps} className={cls(meta.get(cell.column.id))}>
                      {meta.get(cell.column.id)?.cell(row.original)}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
        {footer && footer.length > 0 && (
          <tfoot>
            {footer.map((f) => (
              <tr key={String(rowKey(f))}>
                {columns.map((c) => (
                  <td key={c.id} className={cls(c)}>
                    {c.cell(f)}
                  </td>
                ))}
              </tr>
            ))}
          </tfoot>
        )}
      </StyledTable>
    </StyledWrap>
  );
}

