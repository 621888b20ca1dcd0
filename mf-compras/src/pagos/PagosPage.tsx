import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import styled from 'styled-components';
import {
  Button,
  Card,
  FormDialog,
  ListView,
  MEDIO_COBRO_OPTIONS,
  MESSAGES,
  Muted,
  PageHeader,
  PanelCard,
  RowLink,
  SelectField,
  Tabla,
  TextField,
  downloadBlob,
  formatDate,
  formatDecimal,
  formatMoney,
  hoyIso,
  parseDecimal,
  useAction,
  usePermisos,
  useShell,
  type DataColumn,
  type ListFilter,
  type VencimientoProveedor,
} from 'shared';
import { paths } from '../paths';

/** One unpaid instalment of a supplier invoice (the shared type the server answers). */
export type Vencimiento = VencimientoProveedor;

/** The totals beside the list: overdue, due this week (today … Sunday), all, and by supplier. */
export type ResumenPagos = {
  hoy: string;
  fin_semana: string;
  vencido: number;
  semana: number;
  total: number;
  por_proveedor: { proveedor_id: number; proveedor_nombre: string; pendiente: number; vencido: number; semana: number }[];
};

const FILTROS: ListFilter[] = [
  {
    name: 'estado',
    label: 'Vencimiento',
    options: [
      { value: 'vencido', label: 'Vencidos' },
      { value: 'semana', label: 'Vencen esta semana' },
    ],
  },
];

const StyledCifras = styled.div`
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 12px;
  margin-bottom: 16px;
  > div { background: ${({ theme }) => theme.gray[50]}; border-radius: 8px; padding: 10px 12px; }
  dt { font-size: 12px; color: ${({ theme }) => theme.gray[600]}; }
  dd { margin: 2px 0 0; font-size: 20px; font-weight: 700; font-variant-numeric: tabular-nums; }
  .vencido dd { color: ${({ theme }) => theme.danger}; }
  ${({ theme }) => theme.phone} { grid-template-columns: 1fr; }
`;


/** «Vencido» beside an instalment's date; under it on a phone (the row keeps room for what is left to pay). */
const StyledPagarTelefono = styled.span`
  display: none;
  ${({ theme }) => theme.phone} { display: block; margin-top: 4px; }
`;

const StyledVencido = styled.strong`
  color: ${({ theme }) => theme.danger};
  margin-left: 6px;
  ${({ theme }) => theme.phone} { display: block; margin-left: 0; }
`;

/** Records a payment of one instalment (or of any amount) of a supplier invoice: `pagarfacturaproveedor`. */
function PagoDialog({ v, onDone, onCancel }: { v: Vencimiento; onDone: () => void; onCancel: () => void }) {
  const { run, busy } = useAction();
  const [fecha, setFecha] = useState(hoyIso());
  const [forma, setForma] = useState('transferencia');
  const [importe, setImporte] = useState(formatDecimal(v.pendiente, 2));
  const [errores, setErrores] = useState<Record<string, string>>({});
  const confirmar = async () => {
    const cents = parseDecimal(importe, 2);
    const errs: Record<string, string> = {};
    if (!fecha) errs.fecha = MESSAGES.selectDate;
    if (cents === null || cents <= 0n) errs.importe = MESSAGES.cobroImporteNoValido;
    setErrores(errs);
    if (Object.keys(errs).length) return;
    const outcome = await run('pagarfacturaproveedor', { id: v.factura_id, fecha, forma, importe: Number(cents) }, { quiet: true });
    if (outcome.ok) onDone();
    else if (outcome.response?.errors) setErrores(outcome.response.errors);
    else if (outcome.response?.message) setErrores({ importe: outcome.response.message });
  };
  return (
    <FormDialog
      title="Registrar el pago"
      text={`Factura ${v.numero_proveedor} de ${v.proveedor_nombre}, vencimiento del ${formatDate(v.fecha)}: quedan ${formatMoney(v.pendiente)}.`}
      confirmLabel="Registrar pago"
      busy={busy}
      onConfirm={() => void confirmar()}
      onCancel={onCancel}
    >
      <TextField label="Fecha del pago" type="date" required value={fecha} error={errores.fecha} onChange={setFecha} />
      <SelectField label="Forma de pago" required options={MEDIO_COBRO_OPTIONS} value={forma} error={errores.forma} onChange={setForma} />
      <TextField label="Importe (€)" required inputMode="decimal" value={importe} error={errores.importe} onChange={setImporte} />
    </FormDialog>
  );
}

/**
 * /compras/pagos (issue 26): what the shop owes its suppliers, instalment by instalment — overdue, due this week, by
 * supplier, with totals; a payment recorded by hand, or the chosen instalments paid by a SEPA transfer file
 * (pain.001.001.03) for the bank, which records their payments.
 */
export function PagosPage() {
  const { api, toast } = useShell();
  const { run, busy } = useAction();
  const permisos = usePermisos();
  const puedePagar = permisos.accion('pagarfacturaproveedor');
  const puedeTransferir = permisos.accion('transferenciaproveedores');
  const [searchParams] = useSearchParams();
  const proveedorId = searchParams.get('proveedor_id') ?? '';
  const [resumen, setResumen] = useState<ResumenPagos | null>(null);
  const [recarga, setRecarga] = useState(0);
  const [elegidos, setElegidos] = useState<Map<string, Vencimiento>>(new Map());
  const [pagando, setPagando] = useState<Vencimiento | null>(null);
  const [transferir, setTransferir] = useState(false);
  const [fechaEjecucion, setFechaEjecucion] = useState(hoyIso());
  const [errorFecha, setErrorFecha] = useState<string | undefined>();

  const cargarResumen = useCallback(async () => {
    try {
      const r = await api.get<Vencimiento>('listadovencimientosproveedor', { pagina: 1, porPagina: 10 });
      setResumen(r.RESULT === '0' ? ((r.resumen as ResumenPagos) ?? null) : null);
    } catch {
      toast.error();
    }
  }, [api, toast]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a payment (recarga) changes the totals
  useEffect(() => void cargarResumen(), [cargarResumen, recarga]);

  const hecho = () => {
    setPagando(null);
    setElegidos(new Map());
    setRecarga((n) => n + 1);
  };

  const botonPagar = (v: Vencimiento) => (
    <Button type="button" $variant="secondary" $small onClick={() => setPagando(v)} aria-label={`Pagar ${v.numero_proveedor} del ${formatDate(v.fecha)}`}>
      Pagar
    </Button>
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: botonPagar only opens the dialog (setPagando is stable)
  const columnas = useMemo<DataColumn<Vencimiento>[]>(
    () => [
      {
        id: 'fecha',
        header: 'Vencimiento',
        sortable: true,
        cell: (v) => (
          <>
            {formatDate(v.fecha)}
            {resumen && v.fecha < resumen.hoy && <StyledVencido>Vencido</StyledVencido>}
          </>
        ),
        text: (v) => formatDate(v.fecha),
      },
      { id: 'proveedor', header: 'Proveedor', cell: (v) => <RowLink to={paths.proveedor(v.proveedor_id)}>{v.proveedor_nombre}</RowLink>, text: (v) => v.proveedor_nombre },
      // At 390 px a row shows its date, supplier, what is left and «Pagar» (the invoice is in the button's name).
      { id: 'factura', header: 'Factura', hideOnPhone: true, cell: (v) => `${v.numero_proveedor} (${v.plazo + 1}.º)`, text: (v) => `${v.numero_proveedor} (${v.plazo + 1}.º)` },
      { id: 'iban', header: 'IBAN', hideOnPhone: true, cell: (v) => (v.iban_valido ? 'Correcto' : <span style={{ color: '#b91c1c' }}>Sin IBAN válido</span>), text: (v) => (v.iban_valido ? 'Correcto' : 'Sin IBAN válido') },
      { id: 'importe', header: 'Importe', align: 'right', numeric: true, hideOnPhone: true, cell: (v) => formatMoney(v.importe) },
      // On a phone «Pagar» goes under what is left (its own column would sit past the screen's edge).
      {
        id: 'pendiente',
        header: 'Pendiente',
        align: 'right',
        numeric: true,
        cell: (v) => (
          <>
            {formatMoney(v.pendiente)}
            {puedePagar && <StyledPagarTelefono>{botonPagar(v)}</StyledPagarTelefono>}
          </>
        ),
        text: (v) => formatMoney(v.pendiente),
      },
      { id: 'acciones', header: 'Acciones', headerHidden: true, align: 'right', hideOnPhone: true, cell: (v) => (puedePagar ? botonPagar(v) : null), text: () => '' },
    ],
    [resumen, puedePagar],
  );

  const selection = useMemo(
    () => ({
      selected: [...elegidos.keys()],
      onChange: (keys: (string | number)[], pagina: Vencimiento[]) =>
        setElegidos((antes) => new Map(keys.map((k) => [String(k), antes.get(String(k)) ?? pagina.find((v) => v.clave === k)!]).filter(([, v]) => v) as [string, Vencimiento][])),
      rowLabel: (v: Vencimiento) => `Incluir ${v.numero_proveedor} del ${formatDate(v.fecha)}`,
    }),
    [elegidos],
  );
  const seleccion = [...elegidos.values()];
  const totalSeleccion = seleccion.reduce((s, v) => s + v.pendiente, 0);

  const generar = async () => {
    if (!fechaEjecucion) {
      setErrorFecha(MESSAGES.selectDate);
      return;
    }
    const outcome = await run<{ nombre: string; xml: string }>('transferenciaproveedores', { fecha: fechaEjecucion, plazos: seleccion.map((v) => v.clave) }, { quiet: true });
    if (!outcome.ok) {
      if (outcome.response?.errors?.fecha) setErrorFecha(outcome.response.errors.fecha);
      return;
    }
    const archivo = outcome.data[0];
    if (archivo) downloadBlob(new Blob([archivo.xml], { type: 'application/xml' }), archivo.nombre);
    toast.success(outcome.response?.message);
    setTransferir(false);
    hecho();
  };

  const params = useMemo(() => ({ proveedor_id: proveedorId || undefined }), [proveedorId]);

  return (
    <>
      <PageHeader title="Pagos a proveedores" description="Lo que se debe a los proveedores por vencimientos: páguelos uno a uno o por transferencia SEPA (fichero para el banco)." />
      <Card>
        {resumen === null ? (
          <Muted role="status">Cargando…</Muted>
        ) : (
          <StyledCifras as="dl" aria-label="Totales">
            <div className="vencido">
              <dt>Vencido</dt>
              <dd data-testid="total-vencido">{formatMoney(resumen.vencido)}</dd>
            </div>
            <div>
              <dt>Vence esta semana (hasta el {formatDate(resumen.fin_semana)})</dt>
              <dd data-testid="total-semana">{formatMoney(resumen.semana)}</dd>
            </div>
            <div>
              <dt>Total pendiente</dt>
              <dd data-testid="total-pendiente">{formatMoney(resumen.total)}</dd>
            </div>
          </StyledCifras>
        )}
        <ListView<Vencimiento>
          key={recarga}
          ac="listadovencimientosproveedor"
          listKey={`compras-pagos:${proveedorId}`}
          title="Vencimientos pendientes"
          columns={columnas}
          rowKey={(v) => v.clave}
          params={params}
          filters={FILTROS}
          defaultSort={{ orden: 'fecha', dir: 'asc' }}
          searchPlaceholder="Buscar por proveedor o número de factura…"
          selection={puedeTransferir ? selection : undefined}
          exportName="vencimientos-proveedores"
          empty="No hay vencimientos pendientes."
          toolbar={
            puedeTransferir ? (
              <Button type="button" $small disabled={seleccion.length === 0} onClick={() => setTransferir(true)}>
                Transferencia SEPA{seleccion.length ? ` (${seleccion.length})` : ''}
              </Button>
            ) : null
          }
        />
      </Card>
      {resumen && resumen.por_proveedor.length > 0 && (
        <PanelCard as="section" aria-labelledby="pagos-proveedores">
          <h2 id="pagos-proveedores">Por proveedor</h2>
          <Tabla aria-label="Pendiente por proveedor">
            <thead>
              <tr>
                <th>Proveedor</th>
                <th className="num">Vencido</th>
                <th className="num phone-hide">Esta semana</th>
                <th className="num">Pendiente</th>
              </tr>
            </thead>
            <tbody>
              {resumen.por_proveedor.map((p) => (
                <tr key={p.proveedor_id}>
                  <td>
                    <RowLink to={paths.proveedor(p.proveedor_id)}>{p.proveedor_nombre}</RowLink>
                  </td>
                  <td className="num">{formatMoney(p.vencido)}</td>
                  <td className="num phone-hide">{formatMoney(p.semana)}</td>
                  <td className="num">{formatMoney(p.pendiente)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td>Total</td>
                <td className="num">{formatMoney(resumen.vencido)}</td>
                <td className="num phone-hide">{formatMoney(resumen.semana)}</td>
                <td className="num">{formatMoney(resumen.total)}</td>
              </tr>
            </tfoot>
          </Tabla>
        </PanelCard>
      )}
      {pagando && (
        <PagoDialog
          v={pagando}
          onDone={() => {
            toast.success(MESSAGES.pagoRegistrado);
            hecho();
          }}
          onCancel={() => setPagando(null)}
        />
      )}
      {transferir && (
        <FormDialog
          title="Transferencia SEPA"
          text={`${seleccion.length} vencimientos por ${formatMoney(totalSeleccion)}. Se registrarán como pagados por transferencia en la fecha de ejecución y se descargará el fichero (pain.001) para su banco.`}
          confirmLabel="Generar fichero"
          busy={busy}
          onConfirm={() => void generar()}
          onCancel={() => setTransferir(false)}
        >
          <TextField label="Fecha de ejecución" type="date" required min={hoyIso()} value={fechaEjecucion} error={errorFecha} onChange={setFechaEjecucion} />
        </FormDialog>
      )}
    </>
  );
}
