import { useCallback, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import { UNSAFE_LocationContext, UNSAFE_NavigationContext } from 'react-router';
import styled from 'styled-components';
import { useShell } from '../context';
import { listParams, useList, useListState } from '../hooks/useApi';
import { downloadCsv } from '../io/csv';
import { downloadTablePdf } from '../io/pdf';
import { DataTable, Pager, type DataColumn } from './DataTable';
import { StyledInput } from './fields';
import { Button, ErrorText, Row } from './primitives';
import type { Theme } from './theme';
import type { ListFilter, ListViewProps } from './ListView';

type T = { theme: Theme };

const StyledToolbar = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
  align-items: center;
  margin-bottom: 12px;
  .search { flex: 1 1 240px; max-width: 420px; }
  select:disabled { opacity: 0.55; }
  select { font: inherit; padding: 7px 8px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; background: #fff; min-height: 38px; }
  .filtros { display: contents; }
  .plegar { display: none; }
  ${({ theme }: T) => theme.phone} {
    .plegar { display: inline-flex; }
    .filtros { display: flex; flex-direction: column; gap: 8px; width: 100%; }
    .filtros select { width: 100%; }
  }
`;

/** Phone: the filters fold under «Filtros» (closed, only the search shows above the list). */
const StyledPlegable = styled.div`
  ${({ theme }: T) => theme.phone} { &:not(.abierto) { display: none; } }
`;

const EXPORT_PAGE = 100;

const StyledSelectionBar = styled.div`
  display: flex;
  gap: 12px;
  align-items: center;
  flex-wrap: wrap;
  margin-bottom: 8px;
  font-size: 14px;
  color: ${({ theme }: T) => theme.gray[700]};
  label { display: inline-flex; gap: 8px; align-items: center; cursor: pointer; min-height: 32px; }
  input[type='checkbox'] { width: 18px; height: 18px; }
`;

function filterOptions(f: ListFilter, filters: Record<string, string>) {
  return typeof f.options === 'function' ? f.options(filters) : f.options;
}

/** Server-side paged, sorted, searchable list with CSV and PDF export: every section's list screen. */
export default function ListViewImpl<R extends object>(props: ListViewProps<R>) {
  const { ac, listKey, columns, rowKey, onRowClick, filters = [], filtrosExtra, searchPlaceholder = 'Buscar…', defaultSort, toolbar, exportName, title } = props;
  const [filtrosAbiertos, setFiltrosAbiertos] = useState(false);
  const plegableId = useId();
  const { api, toast } = useShell();
  const [state, setState] = useListState(listKey, defaultSort ? { orden: defaultSort.orden, dir: defaultSort.dir } : {});
  const [search, setSearch] = useState(state.q);
  // Issue 26: a link may carry the list's filters (`/ventas/facturas?cobro=vencida`, from the home page): they are set
  // and taken off the address, so the list then remembers them as if chosen by hand.
  const location = useContext(UNSAFE_LocationContext)?.location;
  const navigator = useContext(UNSAFE_NavigationContext)?.navigator;
  const filterNames = filters.map((f) => f.name).join(',');
  useEffect(() => {
    if (!location?.search) return;
    const sp = new URLSearchParams(location.search);
    const found = filterNames.split(',').filter((n) => n && sp.has(n));
    if (!found.length) return;
    setState((s) => ({ ...s, pagina: 1, filters: { ...s.filters, ...Object.fromEntries(found.map((n) => [n, sp.get(n) ?? ''])) } }));
    for (const n of found) sp.delete(n);
    const rest = sp.toString();
    navigator?.replace({ pathname: location.pathname, search: rest ? `?${rest}` : '', hash: location.hash });
  }, [location?.search, location?.pathname, location?.hash, filterNames, navigator, setState]);
  const params = { ...listParams(state), ...props.params };
  const { rows, total, answer, loading, error } = useList<R>(ac, params);
  const [exporting, setExporting] = useState(false);
  const debounce = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { selection } = props;
  const chosen = new Set(selection?.selected ?? []);
  const pageKeys = rows.map(rowKey);
  const pageChosen = pageKeys.length > 0 && pageKeys.every((k) => chosen.has(k));
  // The table only redraws when its rows, columns, order or selection change: typing in the search
  // box (a scanner types a whole code in milliseconds) never redraws 100 rows per keystroke.
  const latest = useRef({ rowKey, onRowClick, selection, rows });
  latest.current = { rowKey, onRowClick, selection, rows };
  const hasSelection = !!selection;
  const selectedKey = selection ? selection.selected.join('\u0000') : '';
  const tableColumns = useMemo<DataColumn<R>[]>(
    () =>
      hasSelection
        ? [
            {
              id: '__seleccion',
              header: 'Selección',
              headerHidden: true,
              width: '36px',
              cell: (r) => {
                const sel = latest.current.selection;
                const k = latest.current.rowKey(r);
                if (!sel) return null;
                return (
                  <input
                    type="checkbox"
                    style={{ width: 18, height: 18 }}
                    aria-label={sel.rowLabel ? sel.rowLabel(r) : `Seleccionar fila ${k}`}
                    checked={sel.selected.includes(k)}
                    onClick={(e) => e.stopPropagation()}
                    onChange={(e) => {
                      const now = latest.current.selection;
                      if (now) now.onChange(e.target.checked ? [...now.selected, k] : now.selected.filter((x) => x !== k), latest.current.rows);
                    }}
                  />
                );
              },
            },
            ...columns,
          ]
        : columns,
    [columns, hasSelection],
  );
  const stableRowKey = useCallback((r: R) => latest.current.rowKey(r), []);
  const hasRowClick = !!onRowClick;
  const stableRowClick = useMemo(() => (hasRowClick ? (r: R) => latest.current.onRowClick?.(r) : undefined), [hasRowClick]);
  const handleSort = useCallback((orden: string, dir: 'asc' | 'desc') => setState((s) => ({ ...s, orden, dir, pagina: 1 })), [setState]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: selectedKey is a redraw trigger: the checkboxes read the selection through `latest`, and the joined keys change only when the selection's content does.
  const tableElement = useMemo(
    () => (
      <DataTable
        columns={tableColumns}
        rows={rows}
        rowKey={stableRowKey}
        onRowClick={stableRowClick}
        sort={{ orden: state.orden, dir: state.dir }}
        onSort={handleSort}
        empty={loading ? 'Cargando…' : (props.empty ?? 'No hay resultados')}
        caption={title}
      />
    ),
    [tableColumns, rows, stableRowKey, stableRowClick, state.orden, state.dir, handleSort, loading, title, selectedKey, props.empty],
  );

  const handleFilter = (name: string, value: string) =>
    setState((s) => {
      const next = { ...s.filters, [name]: value };
      // A filter that depends on this one (subfamilia on familia) no longer applies.
      for (const f of filters) if (f.dependsOn === name) delete next[f.name];
      return { ...s, pagina: 1, filters: next };
    });

  useEffect(() => () => clearTimeout(debounce.current), []);

  const handleSearch = (q: string) => {
    setSearch(q);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => setState((s) => ({ ...s, q, pagina: 1 })), 250);
  };

  const exportRows = async (): Promise<R[] | null> => {
    setExporting(true);
    try {
      const all: R[] = [];
      for (let pagina = 1; ; pagina++) {
        const res = await api.get<R>(ac, { ...params, pagina, porPagina: EXPORT_PAGE });
        if (res.RESULT !== '0') break;
        all.push(...(res.data ?? []));
        if (all.length >= (res.total ?? 0) || (res.data ?? []).length < EXPORT_PAGE) break;
      }
      return all;
    } catch {
      toast.error();
      return null;
    } finally {
      setExporting(false);
    }
  };

  const table = (list: R[]) => ({
    header: columns.map((c) => c.header),
    rows: list.map((r) => columns.map((c) => (c.text ? c.text(r) : String(c.cell(r) ?? '')))),
  });

  const handleCsv = async () => {
    const list = await exportRows();
    if (!list) return;
    const t = table(list);
    downloadCsv(`${exportName ?? listKey}.csv`, t.header, t.rows, { numeric: columns.map((c) => c.numeric === true) });
  };

  const handlePdf = async () => {
    const list = await exportRows();
    if (!list) return;
    const t = table(list);
    await downloadTablePdf({ fileName: `${exportName ?? listKey}.pdf`, title, subtitle: `${list.length} resultados`, ...t });
  };

  return (
    <div>
      {filtrosExtra && (
        <StyledPlegable id={`${plegableId}-extra`} className={filtrosAbiertos ? 'abierto' : undefined}>
          {filtrosExtra}
        </StyledPlegable>
      )}
      <StyledToolbar>
        <StyledInput
          className="search"
          type="search"
          placeholder={searchPlaceholder}
          aria-label="Buscar"
          value={search}
          onChange={(e) => handleSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && props.onSearchEnter) props.onSearchEnter(search.trim(), rows);
          }}
        />
        {(filters.length > 0 || !!filtrosExtra) && (
          <Button
            type="button"
            className="plegar"
            $variant="secondary"
            $small
            aria-expanded={filtrosAbiertos}
            aria-controls={[filters.length ? `${plegableId}-filtros` : '', filtrosExtra ? `${plegableId}-extra` : ''].filter(Boolean).join(' ')}
            onClick={() => setFiltrosAbiertos((a) => !a)}
          >
            {(() => {
              const activos = filters.filter((f) => (state.filters[f.name] ?? '') !== '').length;
              return activos ? `Filtros (${activos})` : 'Filtros';
            })()}
          </Button>
        )}
        <StyledPlegable as="div" id={`${plegableId}-filtros`} className={filtrosAbiertos ? 'filtros abierto' : 'filtros'}>
        {filters.map((f) => (
          <select
            key={f.name}
            aria-label={f.label}
            value={state.filters[f.name] ?? ''}
            disabled={!!f.dependsOn && !state.filters[f.dependsOn]}
            onChange={(e) => handleFilter(f.name, e.target.value)}
          >
            <option value="">{f.label}: todos</option>
            {filterOptions(f, state.filters).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ))}
        </StyledPlegable>
        <Row $gap={6} style={{ marginLeft: 'auto' }}>
          {typeof toolbar === 'function' ? toolbar({ params, total, rows }) : toolbar}
          <Button $variant="secondary" $small onClick={handleCsv} disabled={exporting || total === 0}>
            CSV
          </Button>
          <Button $variant="secondary" $small onClick={handlePdf} disabled={exporting || total === 0}>
            PDF
          </Button>
        </Row>
      </StyledToolbar>
      {error && <ErrorText>{error}</ErrorText>}
      {selection && (
        <StyledSelectionBar>
          <label>
            <input
              type="checkbox"
              checked={pageChosen}
              disabled={rows.length === 0}
              onChange={(e) =>
                selection.onChange(
                  e.target.checked ? [...selection.selected, ...pageKeys.filter((k) => !chosen.has(k))] : selection.selected.filter((k) => !pageKeys.includes(k)),
                  rows,
                )
              }
            />
            Seleccionar esta página
          </label>
          <span aria-live="polite">
            {selection.selected.length === 0
              ? 'Ningún elemento seleccionado'
              : `${selection.selected.length.toLocaleString('es-ES')} seleccionado${selection.selected.length === 1 ? '' : 's'}`}
          </span>
          {selection.selected.length > 0 && (
            <Button type="button" $variant="ghost" $small onClick={() => selection.onChange([], rows)}>
              Quitar selección
            </Button>
          )}
        </StyledSelectionBar>
      )}
      <div aria-busy={loading} style={{ opacity: loading ? 0.6 : 1, transition: 'opacity .15s' }}>
        {tableElement}
      </div>
      {props.footer?.({ params, total, rows, answer, loading })}
      <Pager
        pagina={state.pagina}
        porPagina={state.porPagina}
        total={total}
        onPage={(pagina) => setState((s) => ({ ...s, pagina }))}
        onPageSize={(porPagina) => setState((s) => ({ ...s, porPagina, pagina: 1 }))}
      />
    </div>
  );
}
