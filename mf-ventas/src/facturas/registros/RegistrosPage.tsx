import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import styled from 'styled-components';
import {
  ApiHttpError,
  AvisosVerifactu,
  Button,
  Callout,
  Card,
  DataTable,
  ESTADO_ENVIO_LABEL,
  ESTADOS_ENVIO,
  MESSAGES,
  Pager,
  PageHeader,
  RowLink,
  SelectField,
  downloadBlob,
  estadoEnvioLabel,
  formatDateTime,
  formatMoney,
  parseDecimal,
  puedeSubsanar,
  useAction,
  useList,
  useListState,
  useShell,
  type ComprobacionCadena,
  type DataColumn,
  type RegistroFacturacion,
  usePermisos,
} from 'shared';
import { paths } from '../../paths';
import { Huella, horaRegistro } from './Huella';
import { SubsanarDialog } from './SubsanarDialog';
import type { DatosSubsanacion } from './SubsanarDialog';

const StyledResultado = styled.div<{ $ok: boolean }>`
  margin-bottom: 16px;
  padding: 10px 12px;
  border-radius: 8px;
  font-size: 14px;
  ${({ $ok }) => ($ok ? 'background:#f0fdf4;border:1px solid #bbf7d0;color:#166534;' : 'background:#fef2f2;border:1px solid #fecaca;color:#991b1b;')}
  p { margin: 0; }
  p + p { margin-top: 4px; }
`;

const StyledFiltros = styled(Card)`
  display: flex;
  gap: 12px;
  align-items: flex-end;
  flex-wrap: wrap;
  margin-bottom: 12px;
  > * { min-width: 200px; }
`;

const TIPO_LABEL = { alta: 'Alta', anulacion: 'Anulación' } as const;
const TIPO_OPTIONS = [
  { value: 'alta', label: 'Altas' },
  { value: 'anulacion', label: 'Anulaciones' },
];
const ENVIO_OPTIONS = ESTADOS_ENVIO.map((e) => ({ value: e, label: ESTADO_ENVIO_LABEL[e] }));
/** The AEAT's answers in colour: refused in red, accepted with errors in amber, correct in green. */
const ENVIO_COLOR: Record<string, string> = { correcto: '#166534', aceptado_con_errores: '#92400e', incorrecto: '#b91c1c' };

const StyledRespuesta = styled.div`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 4px;
  font-size: 13px;
  min-width: 0;
  overflow-wrap: anywhere;
  a { font-weight: 600; color: ${({ theme }) => theme.primary[700]}; }
`;
const StyledTipoFactura = styled.span`
  margin-left: 6px;
  font-size: 12px;
  color: ${({ theme }) => theme.gray[600]};
`;

const StyledCsv = styled.span`
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12px;
  overflow-wrap: anywhere;
`;

/** '123.45' (the record's ImporteTotal) as '123,45 €'. */
const importe = (r: RegistroFacturacion) => {
  const v = r.importe_total === null ? null : parseDecimal(r.importe_total, 2);
  return v === null ? '—' : formatMoney(v);
};
const rutaFactura = (r: RegistroFacturacion) => (r.documento_tipo === 'rectificativa' ? paths.rectificativa(r.documento_id) : paths.factura(r.documento_id));

/** One chain per issuer (a company that changed its NIF has two): correct when all are, the first break of any. */
function unaComprobacion(cadenas: ComprobacionCadena[]): ComprobacionCadena {
  return {
    total: cadenas.reduce((n, c) => n + c.total, 0),
    correcto: cadenas.every((c) => c.correcto),
    rotura: cadenas.find((c) => c.rotura)?.rotura ?? null,
  };
}

/** The record's XML as a file: 'registro-000012-F-2026-000012.xml'. */
function descargarXml(r: RegistroFacturacion) {
  const nombre = `registro-${String(r.orden).padStart(6, '0')}-${r.num_serie.replace(/[^\w-]+/g, '-')}.xml`;
  downloadBlob(new Blob([r.xml], { type: 'application/xml' }), nombre);
}

/**
 * /ventas/registros: the VERI*FACTU records, newest first (issue 22): each record's invoice, type, amount, huella and
 * submission state, its XML to download; «Comprobar cadena» recomputes every huella on the server and
 * says whether the chain holds or where it first breaks. Issue 9: each record's submission state, CSV and the
 * AEAT's answer (code and text), a filter by state, «Subsanar» on an alta refused or accepted with errors (a new
 * record, confirmed first) and a link to the record that corrected it (`?registro=ID`). Issue 16: the subsanación's
 * dialog corrects the record's description and recipient; a refused anulación is sent again («Volver a enviar»).
 */
export function RegistrosPage() {
  const { api, toast } = useShell();
  const [state, setState] = useListState('ventas-registros', { porPagina: 25 });
  const tipo = state.filters.tipo ?? '';
  const estadoEnvio = state.filters.estado_envio ?? '';
  // ?estado_envio= (a link from Configuración › VERI*FACTU) sets the filter; ?registro=ID shows that one record (a subsanación).
  const [search, setSearch] = useSearchParams();
  const estadoUrl = search.get('estado_envio');
  const registroId = search.get('registro') ?? '';
  useEffect(() => {
    if (estadoUrl === null) return;
    setState((s) => ({ ...s, pagina: 1, filters: { ...s.filters, estado_envio: estadoUrl } }));
    setSearch(
      (sp) => {
        sp.delete('estado_envio');
        return sp;
      },
      { replace: true },
    );
  }, [estadoUrl, setState, setSearch]);
  const params = useMemo(
    () =>
      registroId
        ? { id: registroId }
        : // Issue 22: newest first (the last made, of every chain: the company's and each till's).
          { pagina: state.pagina, porPagina: state.porPagina, orden: 'creado', dir: 'desc' as const, tipo: tipo || undefined, estado_envio: estadoEnvio || undefined },
    [state.pagina, state.porPagina, tipo, estadoEnvio, registroId],
  );
  const { rows, total, loading, error, reload } = useList<RegistroFacturacion>('listadoregistrosfacturacion', params);
  const [comprobando, setComprobando] = useState(false);
  const [resultado, setResultado] = useState<ComprobacionCadena | null>(null);
  const [subsanar, setSubsanar] = useState<RegistroFacturacion | null>(null);
  const [erroresSubsanar, setErroresSubsanar] = useState<Record<string, string>>({});
  const { run, busy } = useAction();
  // Correcting a record is VERI*FACTU's: offered only to a role that may.
  const subsanable = usePermisos().accion('subsanarregistrofacturacion');

  /**
   * A new alta of the same invoice with Subsanacion = S and the data corrected in the dialog (or a refused anulación
   * sent again), chained after the last record; the refused one stays as it is.
   */
  const confirmarSubsanar = async (cambios: Partial<DatosSubsanacion>) => {
    if (!subsanar) return;
    const outcome = await run('subsanarregistrofacturacion', { id: subsanar.id, ...cambios }, { quiet: true });
    const errores = (outcome.response as { errors?: Record<string, string> } | undefined)?.errors;
    if (!outcome.ok && errores) {
      setErroresSubsanar(errores);
      return;
    }
    setSubsanar(null);
    setErroresSubsanar({});
    if (outcome.ok) {
      toast.success(outcome.response.message ?? MESSAGES.registroSubsanado);
      await reload();
    } else if (outcome.response?.message) toast.error(outcome.response.message);
  };

  const comprobar = async () => {
    setComprobando(true);
    setResultado(null);
    try {
      const res = await api.get<ComprobacionCadena>('comprobarregistrosfacturacion');
      if (res.RESULT === '0') setResultado(unaComprobacion(res.data ?? []));
      else toast.error(res.message);
    } catch (e) {
      toast.error(e instanceof ApiHttpError ? e.body.message : undefined);
    } finally {
      setComprobando(false);
    }
  };

  const columns = useMemo<DataColumn<RegistroFacturacion>[]>(
    () => [
      { id: 'orden', header: 'Nº', align: 'right', hideOnPhone: true, cell: (r) => r.orden.toLocaleString('es-ES') },
      { id: 'num_serie', header: 'Factura', cell: (r) => <RowLink to={rutaFactura(r)}>{r.num_serie}</RowLink> },
      {
        id: 'tipo',
        header: 'Tipo',
        cell: (r) => (
          <>
            <span>{TIPO_LABEL[r.tipo] ?? r.tipo}</span>
            {r.tipo_factura && <StyledTipoFactura title="Tipo de factura">{r.tipo_factura}</StyledTipoFactura>}
          </>
        ),
      },
      { id: 'fecha', header: 'Generado', hideOnPhone: true, cell: (r) => horaRegistro(r.fecha_hora_huso) },
      { id: 'importe', header: 'Importe', align: 'right', cell: importe },
      { id: 'huella', header: 'Huella', cell: (r) => <Huella valor={r.huella} /> },
      {
        id: 'envio',
        header: 'Envío',
        cell: (r) => (
          <span style={{ color: ENVIO_COLOR[r.estado_envio], fontWeight: ENVIO_COLOR[r.estado_envio] ? 600 : undefined }} title={r.enviado ? `Enviado el ${formatDateTime(r.enviado)}` : undefined}>
            {estadoEnvioLabel(r.estado_envio)}
          </span>
        ),
      },
      {
        id: 'respuesta',
        header: 'Respuesta de la AEAT',
        cell: (r) =>
          r.csv || r.codigo_error || r.descripcion_error || r.subsanado_por || (subsanable && puedeSubsanar(r)) ? (
            <StyledRespuesta>
              {r.csv && (
                <span>
                  CSV <StyledCsv>{r.csv}</StyledCsv>
                </span>
              )}
              {(r.codigo_error || r.descripcion_error) && (
                <span>
                  {r.codigo_error && <strong>{r.codigo_error}</strong>}
                  {r.codigo_error && r.descripcion_error ? ' · ' : ''}
                  {r.descripcion_error}
                </span>
              )}
              {r.subsanado_por ? (
                <Link to={`${paths.registros}?registro=${r.subsanado_por}`}>Ver el registro que lo subsana</Link>
              ) : (
                subsanable && puedeSubsanar(r) && (
                  <Button
                    type="button"
                    $small
                    aria-label={r.tipo === 'anulacion' ? `Volver a enviar la anulación de ${r.num_serie}` : `Subsanar el registro de ${r.num_serie}`}
                    onClick={() => setSubsanar(r)}
                  >
                    {r.tipo === 'anulacion' ? 'Volver a enviar' : 'Subsanar'}
                  </Button>
                )
              )}
            </StyledRespuesta>
          ) : (
            ''
          ),
      },
      {
        id: 'xml',
        header: 'XML',
        cell: (r) => (
          <Button type="button" $variant="secondary" $small disabled={!r.xml} aria-label={`Descargar XML de ${r.num_serie} (${TIPO_LABEL[r.tipo]})`} onClick={() => descargarXml(r)}>
            Descargar XML
          </Button>
        ),
      },
    ],
    [subsanable],
  );

  const rota = resultado?.rotura;
  return (
    <>
      <PageHeader
        title="Registros de facturación"
        description="La cadena VERI*FACTU: un registro de alta por cada factura emitida y uno de anulación por cada factura anulada, cada uno con la huella del anterior."
        actions={
          <Button type="button" $variant="secondary" disabled={comprobando} aria-busy={comprobando} onClick={() => void comprobar()}>
            {comprobando ? 'Comprobando…' : 'Comprobar cadena'}
          </Button>
        }
      />
      <AvisosVerifactu />
      {resultado && (
        <StyledResultado $ok={resultado.correcto} role={resultado.correcto ? 'status' : 'alert'}>
          {resultado.correcto ? (
            <p>
              <strong>{MESSAGES.cadenaCorrecta}</strong> ({resultado.total.toLocaleString('es-ES')} registro{resultado.total === 1 ? '' : 's'}).
            </p>
          ) : (
            <>
              <p>
                <strong>{MESSAGES.cadenaRota}</strong>
              </p>
              {rota && (
                <p>
                  Primer registro que no cuadra: nº {rota.orden.toLocaleString('es-ES')} ({rota.num_serie}): {rota.motivo}
                </p>
              )}
            </>
          )}
        </StyledResultado>
      )}
      <StyledFiltros>
        <SelectField
          label="Tipo de registro"
          placeholder="Todos"
          options={TIPO_OPTIONS}
          value={tipo}
          disabled={!!registroId}
          onChange={(v) => setState((s) => ({ ...s, pagina: 1, filters: { ...s.filters, tipo: v } }))}
        />
        <SelectField
          label="Estado de envío"
          placeholder="Todos"
          options={ENVIO_OPTIONS}
          value={estadoEnvio}
          disabled={!!registroId}
          onChange={(v) => setState((s) => ({ ...s, pagina: 1, filters: { ...s.filters, estado_envio: v } }))}
        />
      </StyledFiltros>
      {registroId && (
        <Callout style={{ marginBottom: 12 }}>
          <p>
            Se muestra un solo registro.{' '}
            <Link to={paths.registros} style={{ fontWeight: 600, color: 'inherit' }}>
              Ver todos los registros
            </Link>
          </p>
        </Callout>
      )}
      {error ? (
        <p role="alert">{error}</p>
      ) : (
        <>
          <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} caption="Registros de facturación" empty={loading ? 'Cargando…' : 'Todavía no hay registros: se crean al emitir o anular facturas.'} />
          <Pager
            pagina={state.pagina}
            porPagina={state.porPagina}
            total={total}
            onPage={(pagina) => setState((s) => ({ ...s, pagina }))}
            onPageSize={(porPagina) => setState((s) => ({ ...s, porPagina, pagina: 1 }))}
          />
        </>
      )}
      <SubsanarDialog
        registro={subsanar}
        busy={busy}
        errors={erroresSubsanar}
        onConfirm={(cambios) => void confirmarSubsanar(cambios)}
        onCancel={() => {
          setSubsanar(null);
          setErroresSubsanar({});
        }}
      />
    </>
  );
}
