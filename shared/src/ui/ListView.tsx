import { lazy, Suspense, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ApiResponse, ListParams } from '../domain/api';
import { ESTADOS_ACTIVO } from '../domain/entities';
import { usePermisos } from '../hooks/usePermisos';
import type { DataColumn } from './DataTable';
import { PageHeader } from './layout';
import { Button } from './primitives';

export type ListFilter = {
  name: string;
  label: string;
  /** Fixed options, or options that follow the other filters (the subfamilias of the chosen familia). */
  options: { value: string; label: string }[] | ((filters: Record<string, string>) => { value: string; label: string }[]);
  /** Another filter this one needs: disabled while that one is empty, cleared when it changes. */
  dependsOn?: string;
};

/** The 'Estado' filter of records with `activo`: Activo (1) or Inactivo (0). */
export const ESTADO_FILTER: ListFilter = {
  name: 'activo',
  label: 'Estado',
  options: [
    { value: '1', label: ESTADOS_ACTIVO[1] },
    { value: '0', label: ESTADOS_ACTIVO[0] },
  ],
};

/** What a toolbar built by a function sees: the list's current query, count and page. */
export type ListContext<R> = { params: ListParams; total: number; rows: R[] };

/** What a footer sees: also the whole answer of the page (documents add `totales` of all the filtered rows). */
export type ListFooterContext<R> = ListContext<R> & { answer: ApiResponse<R> | null; loading: boolean };

/** Rows chosen by hand (for a bulk action): keys from `rowKey`, kept across pages and searches. */
export type ListSelection<R> = {
  selected: (string | number)[];
  /** The new keys, and the rows of the page shown (a key just chosen is one of them: a screen that needs the rows keeps them). */
  onChange: (keys: (string | number)[], pageRows: R[]) => void;
  /** Accessible name of a row's checkbox ('Seleccionar A-001'). */
  rowLabel?: (row: R) => string;
};

export type ListViewProps<R> = {
  /** The `listado<entidades>` action. */
  ac: string;
  /** Where the list remembers its state (page, filters, size, sort). */
  listKey: string;
  title: string;
  /** Keep them stable (useMemo): the rows are then not redrawn while the user types in the search box. */
  columns: DataColumn<R>[];
  rowKey: (row: R) => string | number;
  onRowClick?: (row: R) => void;
  filters?: ListFilter[];
  /**
   * More filters of the screen (dates, the party), above the toolbar: on a phone they fold with the filter selects
   * under one «Filtros» button.
   */
  filtrosExtra?: ReactNode;
  searchPlaceholder?: string;
  defaultSort?: { orden: string; dir: 'asc' | 'desc' };
  /** Enter in the search box with an exact match (e.g. a scanned barcode) can open the record. */
  onSearchEnter?: (q: string, rows: R[]) => void;
  /** Buttons beside the exports; a function gets the current query (a bulk action on "todos los del filtro"). */
  toolbar?: ReactNode | ((ctx: ListContext<R>) => ReactNode);
  /** Checkboxes to choose rows by hand; not exported to CSV or PDF. */
  selection?: ListSelection<R>;
  /** File names of exports, without extension. */
  exportName?: string;
  /** Extra query parameters fixed by the screen. */
  params?: ListParams;
  /** What an empty table says (default «No hay resultados»). */
  empty?: string;
  /** Under the table, before the pager: a totals row. */
  footer?: (ctx: ListFooterContext<R>) => ReactNode;
};

// The list machinery (table, export, filters) loads with the first list, not with the login screen.
const ListViewImpl = lazy(() => import('./ListViewImpl'));

/** Server-side paged, sorted, searchable list with CSV and PDF export: every section's list screen. */
export function ListView<R extends object>(props: ListViewProps<R>) {
  return (
    <Suspense fallback={<div role="status" aria-label="Cargando" style={{ minHeight: 200 }} />}>
      <ListViewImpl {...(props as unknown as ListViewProps<object>)} />
    </Suspense>
  );
}

export type RecordListPageProps<R extends { id: number }> = Omit<ListViewProps<R>, 'rowKey' | 'onRowClick'> & {
  /** The page's title, also the list's (its caption and the title of its PDF). */
  title: string;
  description?: ReactNode;
  /** The header's main button: 'Nueva serie' and the "nuevo" screen it opens (not shown when the user's role can't create here). */
  create: { label: string; to: string };
  /** More header buttons, before that one ('Importar'). */
  actions?: ReactNode;
  /** The record's screen: a row opens it. */
  recordPath: (id: number) => string;
};

/** The list screen of an entity: its header with the "nuevo" button, and a `ListView` whose rows open their record. */
export function RecordListPage<R extends { id: number }>({ description, create, actions, recordPath, ...list }: RecordListPageProps<R>) {
  const navigate = useNavigate();
  const puedeCrear = usePermisos().crear(list.ac);
  return (
    <>
      <PageHeader
        title={list.title}
        description={description}
        actions={
          <>
            {actions}
            {puedeCrear && <Button onClick={() => navigate(create.to)}>{create.label}</Button>}
          </>
        }
      />
      <ListView<R> {...list} rowKey={(row) => row.id} onRowClick={(row) => navigate(recordPath(row.id))} />
    </>
  );
}
