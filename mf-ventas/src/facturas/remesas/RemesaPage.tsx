import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import {
  API_BASE,
  Button,
  Card,
  ConfirmDialog,
  DataTable,
  FormDialog,
  MESSAGES,
  MOTIVOS_DEVOLUCION,
  Muted,
  NotFoundPanel,
  OP_PATH,
  PageHeader,
  RowLink,
  SelectField,
  TextField,
  formatDate,
  formatMoney,
  hoyIso,
  motivoDevolucionLabel,
  useAction,
  usePermisos,
  useShell,
  type DataColumn,
  type ReciboRemesa,
  type Remesa,
} from 'shared';
import { paths } from '../../paths';
import { ESTADO_REMESA_LABEL } from './RemesasPage';

/** The remesa's SEPA file: a plain download of op.asp (the browser saves it). */
export const urlRemesa = (id: number) => `${API_BASE}${OP_PATH}?ac=descargarremesa&id=${id}`;

const MOTIVO_OPTIONS = MOTIVOS_DEVOLUCION.map((m) => ({ value: m.codigo, label: `${m.codigo} · ${m.label}` }));

const StyledDatos = styled.dl`
  display: grid;
  grid-template-columns: repeat(4, minmax(0, 1fr));
  gap: 12px;
  margin: 0 0 16px;
  dt { font-size: 12px; color: ${({ theme }) => theme.gray[600]}; }
  dd { margin: 2px 0 0; font-weight: 700; font-variant-numeric: tabular-nums; }
  ${({ theme }) => theme.phone} { grid-template-columns: 1fr 1fr; }
`;

/** Records a returned receipt: its date and the bank's R-transaction reason code (`devolverrecibo`). */
function DevolucionDialog({ recibo, onDone, onCancel }: { recibo: ReciboRemesa; onDone: (r: Remesa | null) => void; onCancel: () => void }) {
  const { run, busy } = useAction();
  const [fecha, setFecha] = useState(hoyIso());
  const [motivo, setMotivo] = useState('');
  const [errores, setErrores] = useState<Record<string, string>>({});
  const confirmar = async () => {
    const errs: Record<string, string> = {};
    if (!fecha) errs.fecha = MESSAGES.selectDate;
    if (!motivo) errs.motivo = MESSAGES.selectOption;
    setErrores(errs);
    if (Object.keys(errs).length) return;
    const outcome = await run<Remesa>('devolverrecibo', { id: recibo.id, fecha, motivo }, { quiet: true });
    if (outcome.ok) onDone(outcome.data[0] ?? null);
    else if (outcome.response?.errors) setErrores(outcome.response.errors);
  };
  return (
    <FormDialog
      title="Registrar la devolución"
      text={`Recibo de ${recibo.cliente_nombre} por ${formatMoney(recibo.importe)} (factura ${recibo.documento_numero}): se quita su cobro y el vencimiento vuelve a estar pendiente.`}
      confirmLabel="Registrar devolución"
      busy={busy}
      onConfirm={() => void confirmar()}
      onCancel={onCancel}
    >
      <TextField label="Fecha de la devolución" type="date" required value={fecha} error={errores.fecha} onChange={setFecha} />
      <SelectField label="Motivo (código del banco)" required placeholder="Seleccione…" options={MOTIVO_OPTIONS} value={motivo} error={errores.motivo} onChange={setMotivo} />
    </FormDialog>
  );
}

/**
 * /ventas/remesa/:remesaId (issue 26): a remesa's receipts (invoice, customer, mandate, sequence FRST/RCUR, amount),
 * its SEPA file (pain.008.001.02) for the bank, «Registrar cobro» (each receipt's cobro on its invoice), a receipt's
 * return with its date and reason code, and the undo of a remesa not yet charged.
 */
export function RemesaPage({ id }: { id: string }) {
  const { api, toast } = useShell();
  const { run, busy } = useAction();
  const navigate = useNavigate();
  const permisos = usePermisos();
  const [remesa, setRemesa] = useState<Remesa | null | 'nf'>(null);
  const [cobrar, setCobrar] = useState(false);
  const [fechaCobro, setFechaCobro] = useState('');
  const [eliminar, setEliminar] = useState(false);
  const [devolviendo, setDevolviendo] = useState<ReciboRemesa | null>(null);

  const cargar = useCallback(async () => {
    try {
      const r = await api.get<Remesa>('listadoremesas', { id });
      setRemesa(r.RESULT === '0' && r.data?.[0] ? r.data[0] : 'nf');
    } catch {
      setRemesa('nf');
    }
  }, [api, id]);
  useEffect(() => void cargar(), [cargar]);

  const pagada = remesa !== null && remesa !== 'nf' && remesa.estado === 'pagada';
  const columnas = useMemo<DataColumn<ReciboRemesa>[]>(
    () => [
      { id: 'factura', header: 'Factura', cell: (r) => <RowLink to={paths.factura(r.documento_id)}>{r.documento_numero}</RowLink>, text: (r) => r.documento_numero },
      { id: 'cliente', header: 'Cliente', cell: (r) => <RowLink to={paths.cliente(r.cliente_id)}>{r.cliente_nombre}</RowLink>, text: (r) => r.cliente_nombre },
      { id: 'vencimiento', header: 'Vencimiento', hideOnPhone: true, cell: (r) => formatDate(r.vencimiento) },
      { id: 'mandato', header: 'Mandato', hideOnPhone: true, cell: (r) => `${r.mandato_referencia} · ${r.esquema} · ${r.secuencia}` },
      { id: 'importe', header: 'Importe', align: 'right', numeric: true, cell: (r) => formatMoney(r.importe) },
      {
        id: 'situacion',
        header: 'Situación',
        cell: (r) =>
          r.devuelto_fecha ? (
            <span style={{ color: '#b91c1c' }}>{`Devuelto el ${formatDate(r.devuelto_fecha)}: ${r.devuelto_motivo} · ${motivoDevolucionLabel(r.devuelto_motivo)}`}</span>
          ) : r.cobro_id ? (
            'Cobrado'
          ) : (
            'Pendiente de cargo'
          ),
        text: (r) => (r.devuelto_fecha ? `Devuelto ${r.devuelto_motivo}` : r.cobro_id ? 'Cobrado' : 'Pendiente de cargo'),
      },
      {
        id: 'acciones',
        header: 'Acciones',
        headerHidden: true,
        align: 'right',
        cell: (r) =>
          pagada && !r.devuelto_fecha && permisos.accion('devolverrecibo') ? (
            <Button type="button" $variant="secondary" $small onClick={() => setDevolviendo(r)} aria-label={`Devolución del recibo de ${r.cliente_nombre}`}>
              Devolución
            </Button>
          ) : null,
        text: () => '',
      },
    ],
    [pagada, permisos],
  );

  if (remesa === null) return <Muted role="status">Cargando…</Muted>;
  if (remesa === 'nf') return <NotFoundPanel back={{ to: paths.remesas, label: 'Volver a Remesas' }} />;

  const registrarCobro = async () => {
    const outcome = await run<Remesa>('pagarremesa', { id: remesa.id, fecha: fechaCobro || remesa.fecha_cargo }, { quiet: true });
    setCobrar(false);
    if (outcome.ok) {
      toast.success(outcome.response?.message);
      if (outcome.data[0]) setRemesa(outcome.data[0]);
    }
  };
  const borrar = async () => {
    const outcome = await run('eliminarremesa', { id: remesa.id });
    setEliminar(false);
    if (outcome.ok) navigate(paths.remesas);
  };

  return (
    <>
      <PageHeader
        title={`Remesa ${remesa.id}`}
        back={{ to: paths.remesas, label: 'Remesas' }}
        actions={
          <>
            <Button as="a" href={urlRemesa(remesa.id)} $variant="secondary" download>
              Descargar fichero SEPA
            </Button>
            {!pagada && permisos.accion('pagarremesa') && (
              <Button
                type="button"
                onClick={() => {
                  setFechaCobro(remesa.fecha_cargo);
                  setCobrar(true);
                }}
              >
                Registrar cobro
              </Button>
            )}
            {!pagada && permisos.accion('eliminarremesa') && (
              <Button type="button" $variant="danger" onClick={() => setEliminar(true)}>
                Eliminar
              </Button>
            )}
          </>
        }
      />
      <Card>
        <StyledDatos>
          <div>
            <dt>Estado</dt>
            <dd data-testid="estado-remesa">{ESTADO_REMESA_LABEL[remesa.estado]}</dd>
          </div>
          <div>
            <dt>Fecha de cargo</dt>
            <dd>{formatDate(remesa.fecha_cargo)}</dd>
          </div>
          <div>
            <dt>Recibos</dt>
            <dd>
              {remesa.num_recibos}
              {remesa.devueltos ? ` (${remesa.devueltos} devueltos)` : ''}
            </dd>
          </div>
          <div>
            <dt>Total</dt>
            <dd data-testid="total-remesa">{formatMoney(remesa.total)}</dd>
          </div>
        </StyledDatos>
        <DataTable<ReciboRemesa> caption="Recibos de la remesa" columns={columnas} rows={remesa.recibos ?? []} rowKey={(r) => r.id} />
      </Card>
      {cobrar && (
        <FormDialog
          title="Registrar el cobro de la remesa"
          text={`Se registrará el cobro de cada recibo no devuelto en su factura (${formatMoney(remesa.total)} en total).`}
          confirmLabel="Registrar cobro"
          busy={busy}
          onConfirm={() => void registrarCobro()}
          onCancel={() => setCobrar(false)}
        >
          <TextField label="Fecha del cargo" type="date" required value={fechaCobro} onChange={setFechaCobro} />
        </FormDialog>
      )}
      {devolviendo && (
        <DevolucionDialog
          recibo={devolviendo}
          onDone={(r) => {
            setDevolviendo(null);
            toast.success(MESSAGES.reciboDevuelto);
            if (r) setRemesa(r);
          }}
          onCancel={() => setDevolviendo(null)}
        />
      )}
      <ConfirmDialog
        open={eliminar}
        title="Eliminar la remesa"
        text="Sus recibos volverán a estar pendientes para otra remesa."
        confirmLabel="Eliminar"
        busy={busy}
        onConfirm={() => void borrar()}
        onCancel={() => setEliminar(false)}
      />
    </>
  );
}
