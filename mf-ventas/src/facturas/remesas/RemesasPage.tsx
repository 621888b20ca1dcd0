import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import {
  Button,
  Card,
  DataTable,
  ListView,
  MESSAGES,
  Muted,
  PageHeader,
  RowLink,
  TextField,
  formatDate,
  formatMoney,
  hoyIso,
  useAction,
  usePermisos,
  useShell,
  type DataColumn,
  type ReciboPendiente,
  type Remesa,
} from 'shared';
import { paths } from '../../paths';

export const ESTADO_REMESA_LABEL: Record<Remesa['estado'], string> = { emitida: 'Pendiente de cargo', pagada: 'Cobrada' };

const COLUMNAS: DataColumn<Remesa>[] = [
  { id: 'id', header: 'Remesa', cell: (r) => <RowLink to={paths.remesa(r.id)}>{`Remesa ${r.id}`}</RowLink>, text: (r) => `Remesa ${r.id}` },
  { id: 'fecha_cargo', header: 'Fecha de cargo', sortable: true, cell: (r) => formatDate(r.fecha_cargo) },
  { id: 'estado', header: 'Estado', cell: (r) => ESTADO_REMESA_LABEL[r.estado], text: (r) => ESTADO_REMESA_LABEL[r.estado] },
  { id: 'num_recibos', header: 'Recibos', align: 'right', numeric: true, cell: (r) => r.num_recibos },
  { id: 'devueltos', header: 'Devueltos', align: 'right', numeric: true, hideOnPhone: true, cell: (r) => r.devueltos },
  { id: 'total', header: 'Total', align: 'right', numeric: true, cell: (r) => formatMoney(r.total) },
];

const FILTROS = [
  {
    name: 'estado',
    label: 'Estado',
    options: [
      { value: 'emitida', label: ESTADO_REMESA_LABEL.emitida },
      { value: 'pagada', label: ESTADO_REMESA_LABEL.pagada },
    ],
  },
];

const StyledNueva = styled(Card)`
  margin-bottom: 16px;
  h2 { font-size: 16px; margin: 0 0 10px; }
  .fechas { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-end; }
  .fechas > * { min-width: 180px; }
  .pie { display: flex; justify-content: space-between; align-items: center; gap: 12px; margin-top: 12px; flex-wrap: wrap; }
  .problema { color: ${({ theme }) => theme.danger}; font-size: 13px; }
`;

const dentroDe30 = () => {
  const d = new Date(`${hoyIso()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 7);
  return d.toISOString().slice(0, 10);
};

/**
 * /ventas/remesas (issue 26): the remesas of SEPA direct debits, and a new one: the due, uncollected instalments of the
 * invoices paid by «Recibo domiciliado» up to a date (each chosen by hand; those whose customer has no IBAN or
 * mandate say so and can't go), charged on the date given.
 */
export function RemesasPage() {
  const { api, toast } = useShell();
  const { run, busy } = useAction();
  const navigate = useNavigate();
  const puedeCrear = usePermisos().accion('editarremesa');
  const [nueva, setNueva] = useState(false);
  const [fechaCargo, setFechaCargo] = useState(dentroDe30());
  const [hasta, setHasta] = useState(dentroDe30());
  const [recibos, setRecibos] = useState<ReciboPendiente[] | null>(null);
  const [elegidos, setElegidos] = useState<Set<string>>(new Set());
  const [errores, setErrores] = useState<Record<string, string>>({});

  const buscar = async () => {
    if (!hasta) {
      setErrores({ hasta: MESSAGES.selectDate });
      return;
    }
    setErrores({});
    try {
      const r = await api.get<ReciboPendiente>('listadorecibospendientes', { hasta });
      const lista = r.RESULT === '0' ? (r.data ?? []) : [];
      setRecibos(lista);
      setElegidos(new Set(lista.filter((x) => !x.problema).map((x) => x.clave)));
    } catch {
      toast.error();
    }
  };

  const crear = async () => {
    const outcome = await run<Remesa>('editarremesa', { fecha_cargo: fechaCargo, hasta, recibos: [...elegidos] });
    if (outcome.ok && outcome.data[0]) navigate(paths.remesa(outcome.data[0].id));
    else if (outcome.response?.errors) setErrores(outcome.response.errors);
  };

  const columnasRecibos = useMemo<DataColumn<ReciboPendiente>[]>(
    () => [
      {
        id: 'elegir',
        header: 'Incluir',
        headerHidden: true,
        cell: (r) => (
          <input
            type="checkbox"
            aria-label={`Incluir ${r.documento_numero} de ${r.cliente_nombre}`}
            disabled={!!r.problema}
            checked={elegidos.has(r.clave)}
            onChange={(e) =>
              setElegidos((antes) => {
                const s = new Set(antes);
                if (e.target.checked) s.add(r.clave);
                else s.delete(r.clave);
                return s;
              })
            }
          />
        ),
        text: () => '',
      },
      { id: 'vencimiento', header: 'Vencimiento', cell: (r) => formatDate(r.vencimiento) },
      { id: 'factura', header: 'Factura', cell: (r) => <RowLink to={paths.factura(r.documento_id)}>{r.documento_numero}</RowLink>, text: (r) => r.documento_numero },
      {
        id: 'cliente',
        header: 'Cliente',
        cell: (r) => (
          <>
            <RowLink to={paths.cliente(r.cliente_id)}>{r.cliente_nombre}</RowLink>
            {r.problema && <div className="problema">{r.problema}</div>}
          </>
        ),
        text: (r) => r.cliente_nombre,
      },
      { id: 'importe', header: 'Importe', align: 'right', numeric: true, cell: (r) => formatMoney(r.importe) },
    ],
    [elegidos],
  );

  const total = (recibos ?? []).filter((r) => elegidos.has(r.clave)).reduce((s, r) => s + r.importe, 0);

  return (
    <>
      <PageHeader
        title="Remesas SEPA"
        description="Cobre por recibo domiciliado: junte los vencimientos pendientes, descargue el fichero para el banco (pain.008) y regístrela cobrada; una devolución reabre el recibo."
        actions={
          puedeCrear && !nueva ? (
            <Button type="button" onClick={() => setNueva(true)}>
              Nueva remesa
            </Button>
          ) : undefined
        }
      />
      {nueva && (
        <StyledNueva as="section" aria-labelledby="remesa-nueva">
          <h2 id="remesa-nueva">Nueva remesa</h2>
          <div className="fechas">
            <TextField label="Vencimientos hasta" type="date" required value={hasta} error={errores.hasta} onChange={setHasta} />
            <TextField label="Fecha de cargo" type="date" required min={hoyIso()} value={fechaCargo} error={errores.fecha_cargo} onChange={setFechaCargo} />
            <Button type="button" $variant="secondary" onClick={() => void buscar()}>
              Buscar recibos
            </Button>
          </div>
          {recibos !== null &&
            (recibos.length === 0 ? (
              <Muted style={{ marginTop: 12 }}>No hay recibos domiciliados pendientes hasta esa fecha.</Muted>
            ) : (
              <>
                <div style={{ marginTop: 12 }}>
                  <DataTable<ReciboPendiente> caption="Recibos pendientes" columns={columnasRecibos} rows={recibos} rowKey={(r) => r.clave} />
                </div>
                <div className="pie">
                  <span data-testid="total-remesa">
                    {elegidos.size} recibos: <strong>{formatMoney(total)}</strong>
                  </span>
                  <span style={{ display: 'flex', gap: 8 }}>
                    <Button type="button" $variant="secondary" onClick={() => setNueva(false)} disabled={busy}>
                      Cancelar
                    </Button>
                    <Button type="button" disabled={busy || elegidos.size === 0} aria-busy={busy} onClick={() => void crear()}>
                      Crear remesa
                    </Button>
                  </span>
                </div>
              </>
            ))}
        </StyledNueva>
      )}
      <Card>
        <ListView<Remesa>
          ac="listadoremesas"
          listKey="ventas-remesas"
          title="Remesas"
          columns={COLUMNAS}
          rowKey={(r) => r.id}
          onRowClick={(r) => navigate(paths.remesa(r.id))}
          filters={FILTROS}
          defaultSort={{ orden: 'fecha_cargo', dir: 'desc' }}
          exportName="remesas"
          empty="Todavía no hay remesas."
        />
      </Card>
    </>
  );
}
