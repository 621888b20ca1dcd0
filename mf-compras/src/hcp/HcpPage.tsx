import { useCallback, useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import {
  Button,
  Card,
  ConfirmDialog,
  DOCUMENTO_TIPOS,
  FormDialog,
  FORMA_PAGO_OPTIONS,
  FormGrid,
  MESSAGES,
  SelectField,
  formaPagoLabel,
  ListView,
  Muted,
  RowLink,
  PageHeader,
  PanelCard,
  Tabla,
  TERCEROS,
  TIPOS_IVA,
  TIPO_IVA_LABEL,
  TerceroField,
  TextField,
  formatDate,
  formatMoney,
  hoyIso,
  parseDecimal,
  useAction,
  useShell,
  type DataColumn,
  type DocumentoFila,
  type TerceroDocumentoFila,
  useTerceroPreelegido,
  type TipoIva,
  usePermisos,
} from 'shared';
import { paths } from '../paths';

/** A supplier invoice recorded by hcp (`listadofacturasproveedor`). */
export type FacturaProveedor = {
  id: number;
  proveedor_id: number;
  numero_proveedor: string;
  fecha: string;
  /** Cents: as typed, and as computed from its documents (devoluciones negative). */
  total: number;
  base?: number;
  iva?: number;
  diferencia?: number;
  num_albaranes?: number;
  num_devoluciones?: number;
  /** Albaranes and devoluciones the invoice covers. */
  num_documentos?: number;
  /** Issue 26: how it is paid, its due dates, what is left to pay (cents; negative: the supplier owes a refund). */
  forma_pago?: string | null;
  vencimientos?: string[];
  por_pagar?: number;
  pago_fecha?: string | null;
  /** An abono: the invoice it rectifies. */
  rectifica_id?: number | null;
  cuenta?: { pagos: { id: number; fecha: string; importe: number; forma: string | null }[] } | null;
};

/** A pending document as `listadopendienteshcp` answers it: amounts unsigned, `signo` -1 for a devolución. */
type Candidato = DocumentoFila & { signo: 1 | -1 };

const clave = (d: Candidato) => `${d.tipo}-${d.id}`;

/** The comparison's difference row: red when the invoice and the chosen documents differ, green when they match. */
const StyledCard = styled(PanelCard)`
  tr.diff td { background: #fef2f2; color: ${({ theme }) => theme.danger}; font-weight: 700; }
  tr.ok td { background: #f0fdf4; color: #166534; font-weight: 700; }
`;

const StyledPeriodo = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: flex-end;
  > * { min-width: 180px; }
  > .prov { flex: 1 1 320px; }
`;

const RATES: readonly TipoIva[] = TIPOS_IVA;

const COLUMNAS: DataColumn<Candidato>[] = [
  {
    id: 'numero',
    header: 'Documento',
    cell: (d) => (
      <>
        {DOCUMENTO_TIPOS[d.tipo].singular} <RowLink to={d.signo === 1 ? paths.albaran(d.id) : paths.devolucion(d.id)}>{d.numero}</RowLink>
      </>
    ),
    text: (d) => `${DOCUMENTO_TIPOS[d.tipo].singular} ${d.numero}`,
  },
  // Issue 17: the supplier's own number, as its invoice lists the delivery notes.
  { id: 'albaran_proveedor', header: 'Albarán del proveedor', cell: (d) => d.albaran_proveedor ?? '', text: (d) => d.albaran_proveedor ?? '' },
  { id: 'fecha', header: 'Fecha', sortable: true, cell: (d) => formatDate(d.fecha) },
  { id: 'base', header: 'Base', align: 'right', numeric: true, hideOnPhone: true, cell: (d) => formatMoney(d.signo * (d.base ?? 0)) },
  { id: 'total', header: 'Total', align: 'right', numeric: true, cell: (d) => formatMoney(d.signo * (d.total ?? 0)) },
];

/** Typed due dates, 'dd/mm/aaaa' separated by commas or spaces: ISO dates; [] when empty; null when one is not a date. */
export function leerFechas(texto: string): string[] | null {
  const partes = texto.split(/[\s,;]+/).filter(Boolean);
  const out: string[] = [];
  for (const p of partes) {
    const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(p);
    if (!m) return null;
    const iso = `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
    if (Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) || new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso) return null;
    out.push(iso);
  }
  return out;
}

/** The comparison per IVA rate of the chosen documents (devoluciones negative), as the server computes it. */
export function compararSeleccion(docs: Candidato[]) {
  const porTipo = new Map<TipoIva, { base: bigint; iva: bigint }>();
  let total = 0n;
  let retencion = 0n;
  for (const d of docs) {
    const s = BigInt(d.signo);
    for (const g of d.desglose ?? []) {
      const acc = porTipo.get(g.tipo_iva) ?? { base: 0n, iva: 0n };
      porTipo.set(g.tipo_iva, { base: acc.base + s * BigInt(g.base), iva: acc.iva + s * BigInt(g.iva) });
    }
    total += s * BigInt(d.total ?? 0);
    retencion += s * BigInt(d.retencion_importe ?? 0);
  }
  const filas = RATES.filter((t) => porTipo.has(t)).map((t) => ({ tipo_iva: t, ...porTipo.get(t)! }));
  const base = filas.reduce((a, f) => a + f.base, 0n);
  const iva = filas.reduce((a, f) => a + f.iva, 0n);
  return { filas, base, iva, retencion, total };
}

/** /compras/hcp: reconcile a supplier's invoice with its pending albaranes and devoluciones. */
export function HcpPage() {
  const { api, toast } = useShell();
  const { run, busy } = useAction();
  // Registering a supplier's invoice and undoing one: offered only to a role that may.
  const permisos = usePermisos();
  const puede = { conciliar: permisos.accion('editarfacturaproveedor'), deshacer: permisos.accion('eliminarfacturaproveedor'), quitarPago: permisos.accion('eliminarpagoproveedor') };
  const [proveedor, setProveedor] = useState<{ id: string; nombre: string } | null>(null);
  const [desde, setDesde] = useState('');
  const [hasta, setHasta] = useState('');
  // The chosen documents, kept across pages (a key just chosen comes with the page it is on).
  const [elegidos, setElegidos] = useState<Map<string, Candidato>>(new Map());
  // Remounts the list after a reconciliation or its undo: what was pending may not be any more.
  const [recarga, setRecarga] = useState(0);
  const [numero, setNumero] = useState('');
  const [fecha, setFecha] = useState(hoyIso());
  const [totalText, setTotalText] = useState('');
  // Issue 26: how it is paid (the supplier's by default), its due dates if typed, the invoice an abono rectifies.
  const [formaPago, setFormaPago] = useState('');
  const [vencimientosText, setVencimientosText] = useState('');
  const [rectificaId, setRectificaId] = useState('');
  const [pagos, setPagos] = useState<FacturaProveedor | null>(null);
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [facturas, setFacturas] = useState<FacturaProveedor[] | null>(null);
  const [deshaciendo, setDeshaciendo] = useState<FacturaProveedor | null>(null);
  const proveedorId = proveedor?.id ?? '';
  const elegirProveedor = (p: TerceroDocumentoFila) => {
    setProveedor({ id: String(p.id), nombre: p.razon_social });
    setFormaPago(p.forma_pago ?? '');
  };
  // Issue 26: «Nueva factura» on the supplier's record comes with `?proveedor_id=`: the supplier already chosen.
  useTerceroPreelegido(TERCEROS.proveedor, elegirProveedor);

  const cargar = useCallback(async () => {
    if (!proveedorId) return;
    setFacturas(null);
    try {
      const fact = await api.get<FacturaProveedor>('listadofacturasproveedor', { proveedor_id: proveedorId, pagina: 1, porPagina: 50, orden: 'fecha', dir: 'desc' });
      setFacturas(fact.RESULT === '0' ? (fact.data ?? []) : []);
    } catch {
      setFacturas([]);
      toast.error();
    }
  }, [api, proveedorId, toast]);

  useEffect(() => {
    setElegidos(new Map());
    void cargar();
  }, [cargar]);
  // Another period: what was chosen may be outside it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dates are the trigger
  useEffect(() => setElegidos(new Map()), [desde, hasta]);

  const params = useMemo(() => ({ proveedor_id: proveedorId, desde: desde || undefined, hasta: hasta || undefined }), [proveedorId, desde, hasta]);
  const selection = useMemo(
    () => ({
      selected: [...elegidos.keys()],
      onChange: (keys: (string | number)[], pagina: Candidato[]) =>
        setElegidos((antes) => new Map(keys.map((k) => [String(k), antes.get(String(k)) ?? pagina.find((d) => clave(d) === k)!]).filter(([, d]) => d) as [string, Candidato][])),
      rowLabel: (d: Candidato) => `Incluir ${d.numero}`,
    }),
    [elegidos],
  );

  const seleccion = useMemo(() => [...elegidos.values()], [elegidos]);
  const comparacion = useMemo(() => compararSeleccion(seleccion), [seleccion]);
  const totalFactura = parseDecimal(totalText, 2);
  const diferencia = totalFactura === null ? null : totalFactura - comparacion.total;

  const [descuadre, setDescuadre] = useState(false);
  const vencimientos = leerFechas(vencimientosText);

  const quitarPago = async (pagoId: number) => {
    const outcome = await run<FacturaProveedor>('eliminarpagoproveedor', { id: pagoId });
    if (!outcome.ok) return;
    setPagos(outcome.data[0] ?? null);
    await cargar();
  };

  /** Checks the form; a difference asks first (an invoice that doesn't match its documents is usually a typo). */
  const pedirConciliar = () => {
    if (!comprobar()) return;
    if (diferencia !== null && diferencia !== 0n) setDescuadre(true);
    else void conciliar();
  };

  const comprobar = () => {
    const errs: Record<string, string> = {};
    if (!numero.trim()) errs.numero_proveedor = 'Este campo es necesario';
    if (!fecha) errs.fecha = 'Seleccione una fecha';
    if (totalFactura === null) errs.total = 'Debe ser un número válido';
    if (seleccion.length === 0) errs.documentos = 'Marque los albaranes y devoluciones que cubre la factura';
    if (vencimientos === null) errs.vencimientos = MESSAGES.vencimientosNoValidos;
    setErrores(errs);
    return Object.keys(errs).length === 0;
  };

  const conciliar = async () => {
    setDescuadre(false);
    const outcome = await run<FacturaProveedor>('editarfacturaproveedor', {
      proveedor_id: Number(proveedorId),
      numero_proveedor: numero.trim(),
      fecha,
      total: Number(totalFactura),
      albaranes: seleccion.filter((d) => d.signo === 1).map((d) => d.id),
      devoluciones: seleccion.filter((d) => d.signo === -1).map((d) => d.id),
      ...(formaPago ? { forma_pago: formaPago } : {}),
      ...(vencimientos?.length ? { vencimientos } : {}),
      ...(rectificaId ? { rectifica_id: Number(rectificaId) } : {}),
    });
    if (!outcome.ok) {
      if (outcome.response?.errors) setErrores(outcome.response.errors);
      return;
    }
    setNumero('');
    setTotalText('');
    setVencimientosText('');
    setRectificaId('');
    setElegidos(new Map());
    setRecarga((n) => n + 1);
    await cargar();
  };

  const verPagos = async (f: FacturaProveedor) => {
    try {
      const r = await api.get<FacturaProveedor>('listadofacturasproveedor', { id: f.id });
      setPagos(r.RESULT === '0' ? (r.data?.[0] ?? null) : null);
    } catch {
      toast.error();
    }
  };

  const deshacer = async (f: FacturaProveedor) => {
    const outcome = await run('eliminarfacturaproveedor', { id: f.id });
    setDeshaciendo(null);
    if (!outcome.ok) return;
    setRecarga((n) => n + 1);
    await cargar();
  };

  return (
    <>
      <PageHeader
        title="Conciliación de facturas de proveedor"
        description="Compare la factura de un proveedor con sus albaranes y devoluciones pendientes: al conciliarla quedan finalizados y lo que se le debe pasa a Compras › Pagos, con sus vencimientos."
      />
      <Card>
        <StyledPeriodo>
          <div className="prov">
            <TerceroField<TerceroDocumentoFila>
              tercero={TERCEROS.proveedor}
              params={{}}
              value={proveedorId}
              nombre={proveedor?.nombre}
              onPick={elegirProveedor}
            />
          </div>
          <TextField label="Desde" type="date" value={desde} max={hasta || undefined} onChange={setDesde} />
          <TextField label="Hasta" type="date" value={hasta} min={desde || undefined} onChange={setHasta} />
        </StyledPeriodo>
      </Card>
      {!proveedorId ? (
        <Muted style={{ marginTop: 16 }}>Elija el proveedor cuya factura va a conciliar.</Muted>
      ) : (
        <>
          <StyledCard as="section" aria-labelledby="hcp-docs">
            <h2 id="hcp-docs">Documentos pendientes</h2>
            <ListView<Candidato>
              key={recarga}
              ac="listadopendienteshcp"
              listKey={`compras-hcp:${proveedorId}:${desde}:${hasta}`}
              title="Documentos pendientes"
              columns={COLUMNAS}
              rowKey={clave}
              params={params}
              defaultSort={{ orden: 'fecha', dir: 'asc' }}
              searchPlaceholder="Buscar por número o albarán del proveedor…"
              selection={selection}
              exportName="documentos-pendientes"
              empty="No hay albaranes ni devoluciones pendientes de este proveedor en el periodo."
            />
            {errores.documentos && (
              <p role="alert" style={{ color: '#b91c1c', margin: '8px 0 0' }}>
                {errores.documentos}
              </p>
            )}
          </StyledCard>

          <StyledCard as="section" aria-labelledby="hcp-factura">
            <h2 id="hcp-factura">Factura del proveedor</h2>
            <FormGrid>
              <TextField label="Número de factura" required maxLength={60} value={numero} error={errores.numero_proveedor} onChange={setNumero} />
              <TextField label="Fecha de la factura" type="date" required value={fecha} error={errores.fecha} onChange={setFecha} />
              <TextField label="Total de la factura" required inputMode="decimal" placeholder="0,00" value={totalText} error={errores.total} onChange={setTotalText} />
              <SelectField label="Forma de pago" placeholder="Sin forma de pago" options={FORMA_PAGO_OPTIONS} value={formaPago} error={errores.forma_pago} onChange={setFormaPago} />
              <TextField
                label="Vencimientos (opcional)"
                placeholder="dd/mm/aaaa, dd/mm/aaaa"
                hint="Si la factura dice otras fechas de pago; si no, salen de la forma de pago."
                value={vencimientosText}
                error={errores.vencimientos}
                onChange={setVencimientosText}
              />
              {totalFactura !== null && totalFactura < 0n && (facturas?.length ?? 0) > 0 && (
                <SelectField
                  label="Abono de la factura"
                  placeholder="Ninguna"
                  hint="El abono se descuenta de lo que se debe por esa factura."
                  options={(facturas ?? []).filter((f) => !f.rectifica_id && f.total > 0).map((f) => ({ value: String(f.id), label: `${f.numero_proveedor} (${formatMoney(f.total)})` }))}
                  value={rectificaId}
                  error={errores.rectifica_id}
                  onChange={setRectificaId}
                />
              )}
            </FormGrid>
            <Tabla aria-label="Comparación por tipo de IVA" style={{ marginTop: 14 }}>
              <thead>
                <tr>
                  <th>Tipo de IVA</th>
                  <th className="num">Base</th>
                  <th className="num">IVA</th>
                </tr>
              </thead>
              <tbody>
                {comparacion.filas.map((f) => (
                  <tr key={f.tipo_iva}>
                    <td>{TIPO_IVA_LABEL[f.tipo_iva]}</td>
                    <td className="num">{formatMoney(f.base)}</td>
                    <td className="num">{formatMoney(f.iva)}</td>
                  </tr>
                ))}
                {comparacion.filas.length === 0 && (
                  <tr>
                    <td colSpan={3}>Marque los documentos que cubre la factura.</td>
                  </tr>
                )}
              </tbody>
              <tfoot>
                <tr>
                  <td>Suma de la selección</td>
                  <td className="num">{formatMoney(comparacion.base)}</td>
                  <td className="num">{formatMoney(comparacion.iva)}</td>
                </tr>
                {comparacion.retencion !== 0n && (
                  <tr>
                    <td>Retención</td>
                    <td className="num" colSpan={2}>
                      −{formatMoney(comparacion.retencion)}
                    </td>
                  </tr>
                )}
                <tr>
                  <td>Total de la selección</td>
                  <td className="num" colSpan={2} data-testid="total-seleccion">
                    {formatMoney(comparacion.total)}
                  </td>
                </tr>
                <tr className={diferencia === null ? undefined : diferencia === 0n ? 'ok' : 'diff'} data-testid="diferencia-fila">
                  <td>Diferencia (factura − selección)</td>
                  <td className="num" colSpan={2} data-testid="diferencia">
                    {diferencia === null ? '—' : formatMoney(diferencia)}
                  </td>
                </tr>
              </tfoot>
            </Tabla>
            {puede.conciliar && (
              <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 12 }}>
                <Button type="button" disabled={busy} aria-busy={busy} onClick={pedirConciliar}>
                  Conciliar
                </Button>
              </div>
            )}
          </StyledCard>

          <StyledCard as="section" aria-labelledby="hcp-facturas">
            <h2 id="hcp-facturas">Facturas registradas del proveedor</h2>
            {facturas === null ? (
              <Muted role="status">Cargando…</Muted>
            ) : facturas.length === 0 ? (
              <Muted>No hay facturas conciliadas de este proveedor.</Muted>
            ) : (
              <Tabla aria-label="Facturas registradas">
                <thead>
                  <tr>
                    <th>Número</th>
                    <th>Fecha</th>
                    <th className="num">Total</th>
                    <th className="num">Diferencia</th>
                    <th className="num">Documentos</th>
                    <th className="num">Por pagar</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {facturas.map((f) => (
                    <tr key={f.id}>
                      <td>{f.numero_proveedor}</td>
                      <td>{formatDate(f.fecha)}</td>
                      <td className="num">{formatMoney(f.total)}</td>
                      <td className="num">{f.diferencia === undefined ? '' : formatMoney(f.diferencia)}</td>
                      <td className="num">{f.num_documentos ?? ''}</td>
                      <td className="num" data-testid={`por-pagar-${f.id}`}>
                        {f.rectifica_id ? 'Abono' : f.por_pagar ? formatMoney(f.por_pagar) : f.pago_fecha ? `Pagada el ${formatDate(f.pago_fecha)}` : formatMoney(0)}
                      </td>
                      <td className="num">
                        <Button type="button" $variant="ghost" $small onClick={() => void verPagos(f)} aria-label={`Pagos de ${f.numero_proveedor}`}>
                          Pagos
                        </Button>
                        {puede.deshacer && (
                          <Button type="button" $variant="secondary" $small disabled={busy} onClick={() => setDeshaciendo(f)} aria-label={`Deshacer ${f.numero_proveedor}`}>
                            Deshacer
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Tabla>
            )}
          </StyledCard>
        </>
      )}
      {pagos && (
        <FormDialog title={`Pagos de la factura ${pagos.numero_proveedor}`} confirmLabel="Cerrar" onConfirm={() => setPagos(null)} onCancel={() => setPagos(null)}>
          <p>
            Vencimientos: {(pagos.vencimientos ?? []).map((v) => formatDate(v)).join(', ') || '—'}. Por pagar: <strong>{formatMoney(pagos.por_pagar ?? 0)}</strong>.
          </p>
          {(pagos.cuenta?.pagos ?? []).length === 0 ? (
            <Muted>Sin pagos registrados: se pagan en Compras › Pagos.</Muted>
          ) : (
            <ul aria-label="Pagos registrados">
              {pagos.cuenta!.pagos.map((p) => (
                <li key={p.id}>
                  {formatDate(p.fecha)} · {formaPagoLabel(p.forma) || 'Sin forma'} · {formatMoney(p.importe)}{' '}
                  {puede.quitarPago && (
                    <Button type="button" $variant="secondary" $small disabled={busy} onClick={() => void quitarPago(p.id)} aria-label={`Quitar el pago del ${formatDate(p.fecha)}`}>
                      Quitar
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </FormDialog>
      )}
      <ConfirmDialog
        open={descuadre}
        title="La factura no cuadra"
        text={`La diferencia entre la factura y los documentos marcados es de ${diferencia === null ? '' : formatMoney(diferencia)}. ¿Conciliar de todos modos?`}
        confirmLabel="Conciliar con diferencia"
        busy={busy}
        onConfirm={() => void conciliar()}
        onCancel={() => setDescuadre(false)}
      />
      <ConfirmDialog
        open={deshaciendo !== null}
        title="Deshacer la conciliación"
        text={`Se borrará la factura ${deshaciendo?.numero_proveedor ?? ''} y sus albaranes y devoluciones volverán a estar pendientes.`}
        confirmLabel="Deshacer"
        busy={busy}
        onConfirm={() => deshaciendo && void deshacer(deshaciendo)}
        onCancel={() => setDeshaciendo(null)}
      />
    </>
  );
}
