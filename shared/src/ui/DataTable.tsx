import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import { ESTADOS_ACTIVO } from '../domain/entities';
import { CONSTANTS } from '../domain/messages';
import { ActiveBadge } from './primitives';
import type { Theme } from './theme';

type T = { theme: Theme };

export type DataColumn<R> = {
  id: string;
  header: string;
  /** Cell text or element; also what CSV/PDF export uses when `text` is absent. */
  cell: (row: R) => ReactNode;
  text?: (row: R) => string | number | null;
  /**
   * The export value is a number: a JS number or the Spanish text the list shows ('-1.234,56',
   * '8,25 €'). CSV writes it as a number; the text of any other column that starts with = + - @ is
   * neutralised so a spreadsheet can't run it.
   */
  numeric?: boolean;
  sortable?: boolean;
  align?: 'left' | 'right' | 'center';
  /** The header is read by screen readers but not shown (a checkbox column: its name, not an empty header). */
  headerHidden?: boolean;
  /** Hidden below phone width. */
  hideOnPhone?: boolean;
  width?: string;
  /** Extra class of the column's cells (a report's 'nowrap' amounts, its 'ancho' names). */
  className?: string;
};

export type DataTableProps<R> = {
  columns: DataColumn<R>[];
  rows: R[];
  rowKey: (row: R) => string | number;
  onRowClick?: (row: R) => void;
  sort?: { orden?: string; dir?: 'asc' | 'desc' };
  onSort?: (orden: string, dir: 'asc' | 'desc') => void;
  empty?: ReactNode;
  caption?: string;
  /** A class for some rows ('subtotal': a report's group subtotal, drawn bold). */
  rowClassName?: (row: R) => string | undefined;
  /** Rows drawn by the same cells in the table's foot (a report's totals row). */
  footer?: R[];
};

// react-table loads with the first list, not with the login screen (first-paint budget).
const DataTableImpl = lazy(() => import('./DataTableImpl'));

/** Presentational table (react-table) with server-side sorting. */
export function DataTable<R extends object>(props: DataTableProps<R>) {
  return (
    <Suspense fallback={<div role="status" aria-label="Cargando" style={{ minHeight: 120 }} />}>
      <DataTableImpl {...(props as unknown as DataTableProps<object>)} />
    </Suspense>
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

/** The main column of a list of records: its text as a `RowLink` to the record, sortable, exported as that text. */
export function linkColumn<R>(id: string, header: string, text: (row: R) => string, to: (row: R) => string): DataColumn<R> {
  return { id, header, sortable: true, cell: (row) => <RowLink to={to(row)}>{text(row)}</RowLink>, text };
}

/** The 'Estado' column of records with `activo`: an Activo/Inactivo badge, sortable, exported as the word. */
export function activoColumn<R extends { activo: 0 | 1 }>(): DataColumn<R> {
  return { id: 'activo', header: 'Estado', sortable: true, cell: (row) => <ActiveBadge activo={row.activo} />, text: (row) => ESTADOS_ACTIVO[row.activo] };
}
