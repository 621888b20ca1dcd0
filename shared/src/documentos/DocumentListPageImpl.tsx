import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import { useShell } from '../context';
import type { Documento, DocumentoTipoDef } from '../domain/documentos';
import { formatDate, formatDateTime, formatMoney } from '../domain/format';
import { useListState } from '../hooks/useApi';
import { usePermisos } from '../hooks/usePermisos';
import { necesidadDocumento } from '../domain/roles';
import { downloadDocumentosPdf, empresaPdf, type DocumentosPdfOptions } from '../io/documentosPdf';
import { linkColumn, type DataColumn } from '../ui/DataTable';
import type { SelectOption } from '../ui/fields';
import { FiltroFechas } from '../ui/FiltroFechas';
import { ListView, type ListFilter, type ListFooterContext } from '../ui/ListView';
import { PageHeader } from '../ui/layout';
import { Button } from '../ui/primitives';
import type { Theme } from '../ui/theme';
import { EstadoBadge } from './EstadoBadge';
import type { PantallaDocumento } from './pantalla';
import { TERCEROS, TerceroField, opcionesPdfTercero, type TerceroFila } from './terceros';

type T = { theme: Theme };

/** A row of `listado<plural>`: the header without lines, with names and the value. */
export type DocumentoFila = Omit<Documento, 'lineas' | 'historial'> & { num_lineas?: number };

/** The type and its screens: one by one, or a section's `PantallaDocumento` (its description too). */
type DocumentListDestino =
  | {
      def: DocumentoTipoDef;
      /** The record's screen: (12) → '/almacenes/movimiento/12'. */
      recordPath: (id: number) => string;
      /** The "nuevo" screen. */
      newPath: string;
      pantalla?: undefined;
    }
  | { pantalla: PantallaDocumento; def?: undefined; recordPath?: undefined; newPath?: undefined };

export type DocumentListPageProps = DocumentListDestino & DocumentListOpciones;

type DocumentListOpciones = {
  /** Default: the type's plural label. */
  title?: string;
  description?: ReactNode;
  /**
   * Columns after the state (Origen, Destino, Almacén…); keep them stable (useMemo or module scope). Default, for a
   * type with a party: the party's name and the warehouse.
   */
  columns?: DataColumn<DocumentoFila>[];
  /**
   * The columns a phone shows, by id (the others hide below phone width so each row fits: «numero», «cliente»,
   * «total»); default, every column but those marked hideOnPhone.
   */
  enTelefono?: string[];
  /** A 'Líneas' column (how many lines each has) after those. */
  columnaLineas?: boolean;
  /** The date column shows the time too, from each row's `fecha_hora` (a ticket's instant of sale), else its `fecha`. */
  conHora?: boolean;
  /** Options of the 'Almacén' filter (`almacen_id`: origin or destination for movimientos). */
  almacenes?: SelectOption[];
  /** More filters: the party (`cliente_id`, `proveedor_id`), the serie. */
  filters?: ListFilter[];
  /** Where the list remembers its state; default `documentos-<plural>`. */
  listKey?: string;
  /** Default: 'Buscar por número, proveedor u observaciones…' (the party of the type, if any). */
  searchPlaceholder?: string;
  /** More header buttons before "Nuevo…". */
  actions?: ReactNode;
  /**
   * The party filter ('Proveedor', 'Cliente': a server search sending `proveedor_id` / `cliente_id`),
   * shown by default when the type has a party (`def.tercero`); false hides it.
   */
  terceroFilter?: boolean;
  /** More options of the selection's PDF, from the documents read; default: the party's full data (`opcionesPdfTercero`). */
  pdfOptions?: (documentos: Documento[]) => Promise<Partial<DocumentosPdfOptions>>;
};

const StyledTotales = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 16px;
  padding: 10px 12px;
  margin-top: 6px;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: ${({ theme }: T) => theme.radius};
  background: ${({ theme }: T) => theme.gray[50]};
  font-size: 14px;
  strong { font-variant-numeric: tabular-nums; }
`;

const PARALELO = 4;

/** Reads each document with its lines (`&id=`), a few at a time. */
async function leerDocumentos(get: (id: number) => Promise<Documento | null>, ids: number[]): Promise<Documento[]> {
  const out: (Documento | null)[] = new Array(ids.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      out[i] = await get(ids[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALELO, ids.length) }, worker));
  return out.filter((d): d is Documento => d !== null);
}

/** The default columns of a type with a party: its name and the warehouse. */
function columnasTercero(def: DocumentoTipoDef): DataColumn<DocumentoFila>[] {
  if (!def.tercero) return [];
  const t = TERCEROS[def.tercero];
  return [
    { id: t.entidad, header: t.label, cell: (d) => d[t.nombre] ?? '' },
    { id: 'almacen', header: 'Almacén', hideOnPhone: true, cell: (d) => d.almacen_nombre ?? '' },
  ];
}

const LINEAS: DataColumn<DocumentoFila> = {
  id: 'num_lineas',
  header: 'Líneas',
  align: 'right',
  hideOnPhone: true,
  numeric: true,
  cell: (d) => (d.num_lineas ?? 0).toLocaleString('es-ES'),
  text: (d) => d.num_lineas ?? 0,
};

/** The document list's implementation (see DocumentListPage.tsx). */
export default function DocumentListPageImpl(props: DocumentListPageProps) {
  const p = props.pantalla;
  if (p) return <DocumentList {...props} def={p.def} recordPath={p.record} newPath={p.nuevo} description={props.description ?? p.description} />;
  return <DocumentList {...props} />;
}

const fechaHoraDe = (d: DocumentoFila) => {
  const fh = (d as DocumentoFila & { fecha_hora?: string | null }).fecha_hora;
  return fh ? formatDateTime(fh) : formatDate(d.fecha);
};

function DocumentList({
  def,
  recordPath,
  newPath,
  title = def.pluralLabel,
  description,
  columns: extra,
  columnaLineas = false,
  enTelefono,
  conHora = false,
  almacenes,
  filters: moreFilters,
  listKey = `documentos-${def.plural}`,
  searchPlaceholder = def.tercero ? `Buscar por número, ${TERCEROS[def.tercero].label.toLowerCase()} u observaciones…` : 'Buscar por número u observaciones…',
  actions,
  terceroFilter = true,
  pdfOptions,
}: DocumentListOpciones & { def: DocumentoTipoDef; recordPath: (id: number) => string; newPath: string }) {
  const { api, toast, config } = useShell();
  const navigate = useNavigate();
  // A type no one edits in any state (a ticket: made by the till, issued at once) is never made by hand here.
  const permisos = usePermisos();
  const puedeCrear = def.editable.length > 0 && permisos.cumple(necesidadDocumento(def, 'editar'));
  const [fechas, setFechas] = useListState(`${listKey}-fechas`);
  const [selected, setSelected] = useState<(string | number)[]>([]);
  const [printing, setPrinting] = useState(false);
  const desde = fechas.filters.desde ?? '';
  const hasta = fechas.filters.hasta ?? '';
  const setFecha = (name: 'desde' | 'hasta', value: string) => setFechas((s) => ({ ...s, filters: { ...s.filters, [name]: value } }));
  // The party filter is remembered with the dates: its id and the name shown.
  const tercero = terceroFilter && def.tercero ? TERCEROS[def.tercero] : null;
  const terceroId = tercero ? (fechas.filters[tercero.param] ?? '') : '';
  const terceroNombre = tercero ? (fechas.filters[tercero.nombre] ?? '') : '';
  const setTercero = (id: string, nombre: string) =>
    tercero && setFechas((s) => ({ ...s, filters: { ...s.filters, [tercero.param]: id, [tercero.nombre]: nombre } }));

  // Issue 24: a document at cost's total is a cost — not answered without ver_costes, nor drawn (docs/derechos.md).
  const conImportes = def.lineas === 'venta' || permisos.tiene('ver_costes');
  const columns = useMemo<DataColumn<DocumentoFila>[]>(
    () => (
      [
      linkColumn<DocumentoFila>('numero', 'Número', (d) => d.numero, (d) => recordPath(d.id)),
      conHora
        ? { id: 'fecha', header: 'Fecha y hora', sortable: true, cell: (d) => fechaHoraDe(d), text: (d) => fechaHoraDe(d) }
        : { id: 'fecha', header: 'Fecha', sortable: true, cell: (d) => formatDate(d.fecha), text: (d) => formatDate(d.fecha) },
      {
        id: 'estado',
        header: 'Estado',
        sortable: true,
        cell: (d) => <EstadoBadge def={def} estado={d.estado} />,
        text: (d) => def.estados.find((e) => e.id === d.estado)?.label ?? d.estado,
      },
      ...(extra ?? columnasTercero(def)),
      ...(columnaLineas ? [LINEAS] : []),
      ...(conImportes
        ? [
            {
              id: 'total',
              header: def.lineas === 'venta' || def.lineas === 'compra' ? 'Total' : 'Valor',
              align: 'right' as const,
              numeric: true,
              cell: (d: DocumentoFila) => formatMoney(d.total ?? 0),
              text: (d: DocumentoFila) => formatMoney(d.total ?? 0),
            },
          ]
        : []),
      ] as DataColumn<DocumentoFila>[]
    ).map((c) => (enTelefono ? { ...c, hideOnPhone: !enTelefono.includes(c.id) } : c)),
    [def, extra, columnaLineas, conHora, recordPath, conImportes, enTelefono],
  );

  const filters = useMemo<ListFilter[]>(
    () => [
      { name: 'estado', label: 'Estado', options: def.estados.map((e) => ({ value: e.id, label: e.label })) },
      ...(almacenes ? [{ name: 'almacen_id', label: 'Almacén', options: almacenes }] : []),
      ...(moreFilters ?? []),
    ],
    [def, almacenes, moreFilters],
  );

  const handlePrint = async () => {
    setPrinting(true);
    try {
      const docs = await leerDocumentos(async (id) => {
        const res = await api.get<Documento>(`listado${def.plural}`, { id });
        return res.RESULT === '0' ? (res.data?.[0] ?? null) : null;
      }, selected.map(Number));
      if (docs.length === 0) return toast.error();
      const more = pdfOptions ? await pdfOptions(docs) : def.tercero ? await opcionesPdfTercero(api, docs) : {};
      await downloadDocumentosPdf(docs, { fileName: `${def.plural}.pdf`, empresa: empresaPdf(config), def, ...more });
    } catch {
      toast.error();
    } finally {
      setPrinting(false);
    }
  };

  const footer = ({ answer, total }: ListFooterContext<DocumentoFila>) => {
    const totales = (answer as { totales?: { total?: number } } | null)?.totales;
    if (!totales || total === 0) return null;
    return (
      <StyledTotales role="status" aria-label="Totales del filtro">
        <span>
          {total.toLocaleString('es-ES')} {total === 1 ? def.singular.toLowerCase() : def.pluralLabel.toLowerCase()}
        </span>
        {conImportes && (
          <span>
            {def.lineas === 'venta' || def.lineas === 'compra' ? 'Total' : 'Valor total'}: <strong>{formatMoney(totales.total ?? 0)}</strong>
          </span>
        )}
      </StyledTotales>
    );
  };

  const nuevo = `${def.femenino ? 'Nueva' : 'Nuevo'} ${def.singular.toLowerCase()}`;
  const params = useMemo(
    () => ({ desde: desde || undefined, hasta: hasta || undefined, ...(tercero && terceroId ? { [tercero.param]: terceroId } : {}) }),
    [desde, hasta, tercero, terceroId],
  );

  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          <>
            {actions}
            {puedeCrear && <Button onClick={() => navigate(newPath)}>{nuevo}</Button>}
          </>
        }
      />
      <ListView<DocumentoFila>
        title={title}
        rowKey={(d) => d.id}
        onRowClick={(d) => navigate(recordPath(d.id))}
        ac={`listado${def.plural}`}
        listKey={listKey}
        exportName={def.plural}
        columns={columns}
        filters={filters}
        filtrosExtra={
          <FiltroFechas desde={desde} hasta={hasta} onChange={setFecha} onClear={() => setFechas((s) => ({ ...s, filters: { ...s.filters, desde: '', hasta: '' } }))}>
            {tercero && (
              <div style={{ minWidth: 260, flex: '0 1 360px' }}>
                <TerceroField<TerceroFila>
                  tercero={tercero}
                  value={terceroId}
                  nombre={terceroNombre}
                  params={{}}
                  onPick={(t) => setTercero(String(t.id), t.razon_social)}
                  onClear={() => setTercero('', '')}
                />
              </div>
            )}
          </FiltroFechas>
        }
        params={params}
        searchPlaceholder={searchPlaceholder}
        defaultSort={{ orden: 'fecha', dir: 'desc' }}
        selection={{ selected, onChange: setSelected, rowLabel: (d) => `Seleccionar ${d.numero}` }}
        toolbar={
          <Button type="button" $variant="secondary" $small disabled={selected.length === 0 || printing} aria-busy={printing} onClick={() => void handlePrint()}>
            {printing ? 'Preparando PDF…' : `Imprimir selección${selected.length ? ` (${selected.length})` : ''}`}
          </Button>
        }
        footer={footer}
      />
    </>
  );
}
