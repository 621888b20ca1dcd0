import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import {
  ApiHttpError,
  Button,
  BusyBar,
  Callout,
  Card,
  DataTable,
  empresaPdf,
  Pager,
  PageHeader,
  RowLink,
  SelectField,
  useShell,
  type DataColumn,
  type Theme,
} from 'shared';
import { descargarCsv, descargarPdf, descargarXlsx, type FilaTabla } from './exportar';
import { FILTROS, Filtro, filtrosVisibles, Periodo } from './Filtros';
import { decimalesColumna, enFilaTotal, negativo, textoConUnidad, valor } from './formato';
import { Grafico } from './Grafico';
import { textoRango } from './periodo';
import { rutaInforme } from './definiciones';
import { conSubtotales, filaTotales } from './tabla';
import type { Columna, Contexto, Fila, FiltroId, Informe } from './tipos';
import { paramsIniciales, useInformeParams } from './useInformeParams';

type T = { theme: Theme };

const StyledFiltros = styled(Card)`
  margin-bottom: 16px;
  .vistas { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-end; }
  .vistas > * { min-width: 180px; }
  details { margin-top: 8px; }
  summary { cursor: pointer; font-weight: 600; font-size: 14px; padding: 6px 0; color: ${({ theme }: T) => theme.primary[700]}; }
  .propios { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 12px; margin-top: 8px; align-items: start; }
  ${({ theme }: T) => theme.phone} { .vistas > * { min-width: 0; flex: 1 1 140px; } }
`;
const StyledTabla = styled.div`
  && table { font-size: 13px; }
  && th, && td { padding: 8px 10px; }
  && td.nowrap, && th { white-space: nowrap; }
  && td.ancho { min-width: 200px; }
  td .neg { color: ${({ theme }: T) => theme.danger}; }
  ${({ theme }: T) => theme.phone} { && td.ancho { min-width: 150px; } }
`;

/** Long texts wrap in a wide column; codes, dates and amounts stay on one line. */
const ANCHAS = new Set(['nombre', 'descripcion', 'nombre_destinatario', 'nombre_emisor', 'concepto', 'descripcion_error']);

/** On a phone the table comes first and the chart after it: the figures are what an owner reads first. */
const StyledCuerpo = styled.div`
  display: flex;
  flex-direction: column;
  ${({ theme }: T) => theme.phone} { .grafico { order: 2; margin-top: 16px; } }
`;

/** Export sizes: the whole selection read in pages of this many rows, up to a limit a spreadsheet still opens. */
const EXPORT_PAGINA = 500;
const EXPORT_MAX = 100_000;

/** Anything the screen doesn't send as a filter. */
const NO_FILTROS = new Set(['pagina', 'porPagina', 'orden', 'dir']);

function mensajeError(e: unknown): string {
  if (e instanceof ApiHttpError) return e.body.message ?? `Error ${e.status}`;
  return 'No se ha podido cargar el informe.';
}

type Respuesta = { filas: Fila[]; total: number; totales: Fila | null; message: string | null };

/**
 * The one report screen: any report of `definiciones.ts` with its period and filters (in the address and
 * remembered per user), its table (sorted and paged by the server, subtotals per group, the totals of the whole
 * selection), its chart, CSV and PDF exports, and a click on a row opening what it sums.
 */
export function ReportePage({ def }: { def: Informe }) {
  const { api, flags, config, toast } = useShell();
  const navigate = useNavigate();
  const { params, valores, listo, cambiar } = useInformeParams(def);
  const [etiquetas, setEtiquetas] = useState<Record<string, string | null>>({});
  const [respuesta, setRespuesta] = useState<Respuesta | null>(null);
  const [cargando, setCargando] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [exportando, setExportando] = useState<'csv' | 'xlsx' | 'pdf' | null>(null);

  const agrupaciones = def.agrupar.filter((a) => !a.flag || flags[a.flag] === 1);
  const agrup = agrupaciones.find((a) => a.value === valores.agrupar) ?? agrupaciones[0];
  const vistaDef = def.vistas?.find((v) => v.value === valores.vista) ?? def.vistas?.[0];
  /** A view that answers by one grouping (info-inventario's «Bajo mínimo»: by article) moves the grouping with it. */
  const agruparDeVista = (v: string) => {
    const agrupar = def.vistas?.find((x) => x.value === v)?.params?.agrupar;
    return agrupar ? { agrupar } : {};
  };
  const vista = vistaDef?.value ?? '';
  const pagina = Math.max(1, Number(valores.pagina) || 1);
  const porPagina = Number(valores.porPagina) || 25;
  const columnas = useMemo(
    () => [...agrup.claves, ...(typeof def.cifras === 'function' ? def.cifras(vista, agrup.value) : def.cifras)].filter((c) => !c.flag || flags[c.flag] === 1),
    [agrup, def, vista, flags],
  );
  const filtros = filtrosVisibles(def, flags);

  /** What the server receives: the address's params, with the page and its size. */
  const base = useMemo(() => {
    const b: Record<string, string> = {};
    for (const [k, v] of Object.entries(valores)) if (!NO_FILTROS.has(k) && k !== 'vista' && v !== '') b[k] = v;
    if (def.agrupar.length > 1) b.agrupar = agrup.value;
    // A view sends its own params (the tariffs' bajo_coste=1), `vista=…`, or nothing (it only changes the columns).
    if (vistaDef && !vistaDef.local) Object.assign(b, vistaDef.params ?? { vista: vistaDef.value });
    return b;
  }, [valores, def.agrupar.length, agrup.value, vistaDef]);
  const consulta = useMemo(
    () => ({ ...base, ...(valores.orden ? { orden: valores.orden, dir: valores.dir === 'desc' ? 'desc' : 'asc' } : {}), ...(def.sinPaginas ? {} : { pagina, porPagina }) }),
    [base, valores.orden, valores.dir, pagina, porPagina, def.sinPaginas],
  );
  const consultaKey = JSON.stringify(consulta);

  useEffect(() => {
    if (!listo) return;
    let live = true;
    setCargando(true);
    api
      .get<Fila>(def.ac, JSON.parse(consultaKey))
      .then((res) => {
        if (!live) return;
        if (res.RESULT !== '0') {
          setError(res.message ?? 'No se ha podido cargar el informe.');
          setRespuesta(null);
          return;
        }
        const extra = res as { totales?: Fila | Fila[] };
        const totales = Array.isArray(extra.totales) ? (extra.totales[0] ?? null) : (extra.totales ?? null);
        setError(null);
        setRespuesta({ filas: res.data ?? [], total: res.total ?? res.data?.length ?? 0, totales, message: res.message ?? null });
      })
      .catch((e) => {
        if (!live) return;
        setError(mensajeError(e));
        setRespuesta(null);
      })
      .finally(() => live && setCargando(false));
    return () => {
      live = false;
    };
  }, [api, def.ac, consultaKey, listo]);

  const ctx: Contexto = useMemo(
    () => ({
      params,
      informe: (slug, cambios, conservar = false) => {
        const p = new URLSearchParams();
        if (conservar) for (const [k, v] of params) if (k !== 'pagina' && k !== 'orden' && k !== 'dir') p.set(k, v);
        else for (const k of ['desde', 'hasta']) if (params.get(k)) p.set(k, params.get(k) as string);
        for (const [k, v] of Object.entries(cambios)) {
          if (v === undefined || v === '') p.delete(k);
          else p.set(k, v);
        }
        return `${rutaInforme(slug)}?${p.toString()}`;
      },
    }),
    [params],
  );
  const destino = useCallback((row: Fila) => (agrup.abrir && !(row as FilaTabla).__tipo ? agrup.abrir(row, ctx) : null), [agrup, ctx]);

  const onEtiqueta = useCallback((param: string, texto: string | null) => setEtiquetas((e) => (e[param] === texto ? e : { ...e, [param]: texto })), []);
  const filtrosKey = filtros.join(',');
  const etiquetaDe = useMemo(
    () => Object.fromEntries(filtrosKey.split(',').map((f) => [f, (t: string | null) => onEtiqueta(FILTROS[f as FiltroId]?.param ?? f, t)])),
    [filtrosKey, onEtiqueta],
  );

  // A price column shows the same decimals on every row of the page (issue 25).
  const decimales = useMemo(() => columnas.map((c) => decimalesColumna(c, respuesta?.filas ?? [])), [columnas, respuesta]);
  const dataColumns: DataColumn<FilaTabla>[] = useMemo(
    () =>
      columnas.map((c: Columna, i) => {
        const numerica = ['dinero', 'cantidad', 'precio', 'porcentaje', 'entero'].includes(c.formato);
        return {
          id: c.id,
          header: c.header,
          align: numerica ? 'right' : 'left',
          sortable: !c.sinOrden && !def.sinPaginas,
          hideOnPhone: !c.movil && i > 0,
          className: c.formato === 'texto' && ANCHAS.has(c.id) ? 'ancho' : 'nowrap',
          cell: (row: FilaTabla) => {
            if (row.__tipo && i === 0) return row.__etiqueta;
            if (row.__tipo && !enFilaTotal(c, row)) return '';
            const v = valor(c, row);
            const t = textoConUnidad(c.formato, v, decimales[i]);
            if (i === 0) {
              const to = destino(row);
              if (to) return <RowLink to={to}>{t || '—'}</RowLink>;
            }
            return numerica && negativo(v) ? <span className="neg">{t}</span> : t;
          },
        };
      }),
    [columnas, destino, def.sinPaginas, decimales],
  );

  const filas = useMemo(
    () => (respuesta ? conSubtotales(def, agrup.value, columnas, respuesta.filas, valores.orden).map((f, i) => ({ ...f, __k: String(i) })) : []),
    [respuesta, def, agrup.value, columnas, valores.orden],
  );
  // No totals row where nothing adds up (the 303's boxes).
  const totales = columnas.some((c) => c.total) ? filaTotales(respuesta?.totales) : null;

  /** The filters as printed on the PDF. */
  const textoFiltros = (): string[] => {
    const out: string[] = [];
    if (def.periodo === 'rango') out.push(`Periodo: ${textoRango({ desde: valores.desde, hasta: valores.hasta })}`);
    if (def.periodo === 'fecha') out.push(`Stock a fecha: ${textoRango({ desde: valores.fecha }).split(' – ')[0]}`);
    if (def.periodo === 'ejercicio') out.push(`Ejercicio: ${valores.ejercicio ?? ''}`);
    if (def.agrupar.length > 1) out.push(`Agrupado por: ${agrup.label}`);
    if (def.vistas) out.push(`Vista: ${def.vistas.find((v) => v.value === vista)?.label ?? vista}`);
    for (const f of filtros) {
      const param = FILTROS[f].param;
      if (valores[param]) out.push(`${FILTROS[f].label}: ${etiquetas[param] ?? valores[param]}`);
    }
    return [out.join(' · ')];
  };

  /** Every row of the selection (not only the page), for the exports. */
  const todas = async (): Promise<FilaTabla[]> => {
    const orden = valores.orden ? { orden: valores.orden, dir: valores.dir === 'desc' ? ('desc' as const) : ('asc' as const) } : {};
    const leidas: Fila[] = [];
    let tot: Fila | null = respuesta?.totales ?? null;
    for (let p = 1; leidas.length < EXPORT_MAX; p++) {
      const res = await api.get<Fila>(def.ac, { ...base, ...orden, ...(def.sinPaginas ? {} : { pagina: p, porPagina: EXPORT_PAGINA }) });
      if (res.RESULT !== '0') throw new Error(res.message ?? 'No se ha podido leer el informe.');
      const extra = res as { totales?: Fila | Fila[] };
      tot = (Array.isArray(extra.totales) ? extra.totales[0] : extra.totales) ?? tot;
      const data = res.data ?? [];
      leidas.push(...data);
      if (def.sinPaginas || data.length < EXPORT_PAGINA || leidas.length >= (res.total ?? 0)) break;
    }
    const t = filaTotales(tot);
    return [...conSubtotales(def, agrup.value, columnas, leidas, valores.orden), ...(t && columnas.some((c) => c.total) ? [t] : [])];
  };

  const nombreArchivo = (ext: string) => {
    const cuando =
      def.periodo === 'rango' ? `_${valores.desde ?? ''}_${valores.hasta ?? ''}` : def.periodo === 'fecha' ? `_${valores.fecha ?? ''}` : def.periodo === 'ejercicio' ? `_${valores.ejercicio ?? ''}` : '';
    return `${def.slug}${agrup.value && def.agrupar.length > 1 ? `_${agrup.value}` : ''}${cuando}.${ext}`;
  };

  const exportar = async (tipo: 'csv' | 'xlsx' | 'pdf') => {
    setExportando(tipo);
    try {
      const filasExport = await todas();
      if (tipo === 'csv') descargarCsv(nombreArchivo('csv'), columnas, filasExport);
      else if (tipo === 'xlsx') descargarXlsx(nombreArchivo('xlsx'), def.titulo, columnas, filasExport);
      else await descargarPdf({ fileName: nombreArchivo('pdf'), titulo: def.titulo, empresa: empresaPdf(config), filtros: textoFiltros(), columnas, filas: filasExport });
    } catch (e) {
      toast.error(e instanceof Error && !(e instanceof ApiHttpError) ? e.message : mensajeError(e));
    } finally {
      setExportando(null);
    }
  };

  const restablecer = () => {
    const iniciales = Object.fromEntries(paramsIniciales(def).entries());
    cambiar({ ...Object.fromEntries(Object.keys(valores).map((k) => [k, undefined])), ...iniciales });
  };

  const activos = filtros.filter((f) => valores[FILTROS[f].param]).length;
  const columnaGrafico = def.grafico ? columnas.find((c) => c.id === def.grafico?.valor) : undefined;
  // By month against last year; by a party, an article, a family... the top ten; never over single documents or days.
  const conGrafico =
    !!columnaGrafico &&
    !error &&
    (respuesta?.total ?? 0) > 0 &&
    (agrup.value === 'mes' ? !!valores.desde : !['documento', 'dia', 'registro', 'cierre'].includes(agrup.value));

  return (
    <div>
      <PageHeader
        title={def.titulo}
        description={def.descripcion}
        actions={
          <>
            <Button type="button" $variant="secondary" onClick={() => void exportar('csv')} disabled={!!exportando || !respuesta} aria-busy={exportando === 'csv'}>
              {exportando === 'csv' ? 'Preparando…' : 'CSV'}
            </Button>
            {def.xlsx && (
              <Button type="button" $variant="secondary" onClick={() => void exportar('xlsx')} disabled={!!exportando || !respuesta} aria-busy={exportando === 'xlsx'}>
                {exportando === 'xlsx' ? 'Preparando…' : 'XLSX'}
              </Button>
            )}
            <Button type="button" $variant="secondary" onClick={() => void exportar('pdf')} disabled={!!exportando || !respuesta} aria-busy={exportando === 'pdf'}>
              {exportando === 'pdf' ? 'Preparando…' : 'PDF'}
            </Button>
          </>
        }
      />
      <StyledFiltros as="section" aria-label="Filtros del informe">
        <Periodo def={def} valores={valores} cambiar={cambiar} />
        {(def.agrupar.length > 1 || def.vistas) && (
          <div className="vistas">
            {def.agrupar.length > 1 && (
              <SelectField label="Agrupar por" value={agrup.value} options={agrupaciones.map((a) => ({ value: a.value, label: a.label }))} onChange={(v) => cambiar({ agrupar: v, orden: undefined, dir: undefined })} />
            )}
            {def.vistas && <SelectField label="Ver" value={vista} options={def.vistas.map((v) => ({ value: v.value, label: v.label }))} onChange={(v) => cambiar({ vista: v, orden: undefined, dir: undefined, ...agruparDeVista(v) })} />}
          </div>
        )}
        {filtros.length > 0 && (
          <details open={activos > 0 || undefined}>
            <summary>
              Más filtros{activos > 0 ? ` (${activos} aplicado${activos > 1 ? 's' : ''})` : ''}
            </summary>
            <div className="propios">
              {filtros.map((f) => (
                <Filtro key={f} id={f} def={def} valor={valores[FILTROS[f].param] ?? ''} onChange={(v) => cambiar({ [FILTROS[f].param]: v })} onEtiqueta={etiquetaDe[f]} />
              ))}
            </div>
          </details>
        )}
        <div style={{ marginTop: 8 }}>
          <Button type="button" $variant="ghost" $small onClick={restablecer}>
            Restablecer filtros
          </Button>
        </div>
      </StyledFiltros>

      {error && (
        <Callout $tone="danger" role="alert" style={{ marginBottom: 16 }}>
          {error}
        </Callout>
      )}

      {respuesta?.message && !error && (
        <Callout $tone="info" role="status" style={{ marginBottom: 16 }}>
          {respuesta.message}
        </Callout>
      )}

      <StyledCuerpo>
      {conGrafico && columnaGrafico && listo && (
        <div className="grafico">
          <Grafico def={def} base={base} columna={columnaGrafico} abrir={(row) => {
            const to = destino(row);
            if (to) navigate(to);
          }} />
        </div>
      )}

      <StyledTabla>
        {cargando && <BusyBar />}
        <DataTable<FilaTabla>
          caption={def.titulo}
          columns={dataColumns}
          rows={filas}
          rowKey={(r) => r.__k ?? r.__tipo ?? ''}
          rowClassName={(r) => r.__tipo}
          footer={totales && filas.length > 0 ? [totales] : undefined}
          onRowClick={agrup.abrir ? (r) => {
            const to = destino(r);
            if (to) navigate(to);
          } : undefined}
          sort={{ orden: valores.orden, dir: valores.dir === 'desc' ? 'desc' : 'asc' }}
          onSort={(orden, dir) => cambiar({ orden, dir })}
          empty={cargando ? 'Cargando…' : 'No hay resultados con estos filtros'}
        />
        {!def.sinPaginas && respuesta && respuesta.total > 0 && (
          <Pager
            pagina={pagina}
            porPagina={porPagina}
            total={respuesta.total}
            onPage={(p) => cambiar({ pagina: String(p) })}
            onPageSize={(n) => cambiar({ porPagina: String(n) })}
          />
        )}
      </StyledTabla>
      </StyledCuerpo>
    </div>
  );
}
