import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import {
  ApiHttpError,
  BusyBar,
  Button,
  Callout,
  Card,
  ConfirmDialog,
  FormGrid,
  MESSAGES,
  Muted,
  PageHeader,
  PanelCard,
  Tabla,
  SelectField,
  TERCEROS,
  TerceroField,
  TextField,
  formatDate,
  formatMoney,
  hoyIso,
  nuevaClave,
  rutaDocumento,
  useShell,
  type Cliente,
} from 'shared';
import { paths } from '../../paths';
import { useSeries } from '../datos';
import { FACTURA } from '../pantallas';

/** One document of a customer's proposed invoice (`hfapropuesta`): an albarán, a parte de trabajo or a devolución (negative). */
export type DocumentoPropuesto = { tipo: 'albaranventa' | 'parte' | 'devolucionventa'; id: number; numero: string; fecha: string; total: number };
/** The invoice hfa would make for one customer: its albaranes and devoluciones and the totals (cents). */
export type Propuesta = {
  cliente_id: number;
  cliente_nombre: string;
  documentos: DocumentoPropuesto[];
  base: number;
  iva: number;
  recargo: number;
  total: number;
};
/** An invoice `facturarhfa` made (and emitted). */
export type FacturaHecha = { id: number; numero: string; cliente_nombre: string; total: number };

const StyledCard = styled(PanelCard)`
  .scroll { overflow-x: auto; }
  th, td { vertical-align: top; }
  .docs { display: flex; flex-wrap: wrap; gap: 2px 10px; font-size: 13px; }
  .docs .neg { color: ${({ theme }) => theme.danger}; }
  input[type='checkbox'] { width: 18px; height: 18px; }
  .acciones { display: flex; justify-content: flex-end; align-items: center; gap: 12px; margin-top: 12px; flex-wrap: wrap; }
  ${({ theme }) => theme.phone} {
    .fiscal { display: none; }
  }
`;

const StyledClientes = styled.fieldset`
  border: 0;
  margin: 14px 0 0;
  padding: 0;
  min-width: 0;
  legend { font-size: 13px; font-weight: 600; color: ${({ theme }) => theme.gray[700]}; padding: 0; margin-bottom: 6px; }
  .modo { display: flex; gap: 16px; flex-wrap: wrap; font-size: 14px; }
  .modo label { display: inline-flex; gap: 6px; align-items: center; min-height: 32px; }
  .elegidos { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
  .chip { display: inline-flex; align-items: center; gap: 6px; padding: 4px 6px 4px 10px; border-radius: 999px; background: ${({ theme }) => theme.primary[50]}; font-size: 14px; }
  .picker { max-width: 420px; margin-top: 8px; }
`;

/** A devolución subtracts: shown negative whatever sign the server gives it. */
const importeDoc = (d: DocumentoPropuesto) => (d.tipo === 'devolucionventa' ? -Math.abs(d.total) : d.total);
const nombreDoc = (d: DocumentoPropuesto) => ({ albaranventa: 'Albarán', parte: 'Parte', devolucionventa: 'Devolución' })[d.tipo] ?? d.tipo;

type Errores = Record<string, string>;

/** '2026-11-23' → '2026-10-01'. */
function primeroMesAnterior(hoy: string): string {
  const [a, m] = hoy.split('-').map(Number);
  return m === 1 ? `${a - 1}-12-01` : `${a}-${String(m - 1).padStart(2, '0')}-01`;
}

/**
 * /ventas/hfa: invoices the pending albaranes (and devoluciones, negative) of a period, one invoice per
 * customer. «Previsualizar» shows what would be made; «Facturar» makes and emits them all in one go
 * (`facturarhfa`, one idempotency key per proposal): all or nothing.
 */
export function HfaPage() {
  const { api, toast } = useShell();
  // A month closes at the start of the next: by default, everything since the first day of last month.
  const [desde, setDesde] = useState(() => primeroMesAnterior(hoyIso()));
  const [hasta, setHasta] = useState(hoyIso());
  const [serieId, setSerieId] = useState('');
  const [fecha, setFecha] = useState(hoyIso());
  const [todos, setTodos] = useState(true);
  const [elegidos, setElegidos] = useState<{ id: number; nombre: string }[]>([]);
  const [errores, setErrores] = useState<Errores>({});
  const [propuesta, setPropuesta] = useState<Propuesta[] | null>(null);
  const [incluidos, setIncluidos] = useState<Set<number>>(new Set());
  const [clave, setClave] = useState('');
  const [cargando, setCargando] = useState(false);
  const [confirmando, setConfirmando] = useState(false);
  const [facturando, setFacturando] = useState(false);
  const [fallo, setFallo] = useState<string | null>(null);
  const [hechas, setHechas] = useState<FacturaHecha[] | null>(null);

  const series = useSeries(FACTURA.series, serieId);
  // The first normal serie, as a new invoice.
  const porDefecto = series.porDefecto;
  useEffect(() => {
    if (porDefecto) setSerieId((v) => v || porDefecto);
  }, [porDefecto]);

  /** Any criterion changes: the proposal shown no longer matches it. */
  const cambia =
    <V,>(setter: (v: V) => void) =>
    (v: V) => {
      setter(v);
      setPropuesta(null);
      setFallo(null);
    };

  const comprobar = (): boolean => {
    const errs: Errores = {};
    if (!desde) errs.desde = MESSAGES.selectDate;
    if (!hasta) errs.hasta = MESSAGES.selectDate;
    if (!serieId) errs.serie_id = MESSAGES.serieRequerida;
    if (!fecha) errs.fecha = MESSAGES.selectDate;
    if (!todos && elegidos.length === 0) errs.clientes = 'Elija algún cliente o marque «Todos»';
    setErrores(errs);
    return Object.keys(errs).length === 0;
  };

  const previsualizar = async () => {
    if (!comprobar()) return;
    setCargando(true);
    setHechas(null);
    setFallo(null);
    const base = { desde, hasta, serie_id: serieId };
    try {
      const answers = await Promise.all((todos ? [undefined] : elegidos.map((c) => c.id)).map((cliente_id) => api.get<Propuesta>('hfapropuesta', { ...base, cliente_id })));
      const filas = answers.flatMap((r) => (r.RESULT === '0' ? (r.data ?? []) : []));
      const error = answers.find((r) => r.RESULT !== '0' && r.RESULT !== '3');
      if (error) toast.error(error.message);
      setPropuesta(filas);
      setIncluidos(new Set(filas.map((p) => p.cliente_id)));
      // One key per proposal: a retry after a lost answer makes the invoices once.
      setClave(nuevaClave());
    } catch (e) {
      if (e instanceof ApiHttpError && e.body.errors) setErrores(e.body.errors);
      else toast.error(e instanceof ApiHttpError ? e.body.message : undefined);
    } finally {
      setCargando(false);
    }
  };

  const elegidas = useMemo(() => (propuesta ?? []).filter((p) => incluidos.has(p.cliente_id)), [propuesta, incluidos]);
  const suma = (k: 'base' | 'iva' | 'recargo' | 'total') => elegidas.reduce((s, p) => s + BigInt(p[k]), 0n);

  const facturar = async () => {
    setConfirmando(false);
    setFacturando(true);
    setFallo(null);
    try {
      const res = await api.post<FacturaHecha>('facturarhfa', { desde, hasta, cliente_ids: elegidas.map((p) => p.cliente_id), serie_id: Number(serieId), fecha, clave });
      if (res.RESULT === '0') {
        setHechas(res.data ?? []);
        setPropuesta(null);
        toast.success();
      } else {
        // Nothing was made: the server's words say why.
        setFallo(res.message ?? MESSAGES.unexpectedError);
        if (res.RESULT === '2') toast.associated(res.message);
        else toast.error(res.message);
      }
    } catch (e) {
      const body = e instanceof ApiHttpError ? e.body : undefined;
      if (body?.errors) setErrores(body.errors);
      setFallo(body?.errors ? MESSAGES.invalidFields : (body?.message ?? MESSAGES.unexpectedError));
      toast.error(body?.message);
    } finally {
      setFacturando(false);
    }
  };

  const bloqueado = cargando || facturando;

  return (
    <>
      <PageHeader
        title="Facturar albaranes"
        description="Una factura por cliente con sus albaranes y partes de trabajo pendientes del periodo (las devoluciones restan). Se emiten todas a la vez: o se hacen todas o ninguna."
      />
      <Card>
        <FormGrid>
          <TextField label="Desde" type="date" required value={desde} max={hasta || undefined} error={errores.desde} disabled={bloqueado} onChange={cambia(setDesde)} />
          <TextField label="Hasta" type="date" required value={hasta} min={desde || undefined} error={errores.hasta} disabled={bloqueado} onChange={cambia(setHasta)} />
          <SelectField
            label="Serie"
            required
            disabled={bloqueado}
            placeholder={series.loading ? 'Cargando…' : 'Seleccione…'}
            options={series.options}
            value={serieId}
            error={errores.serie_id}
            onChange={cambia(setSerieId)}
          />
          <TextField label="Fecha de las facturas" type="date" required value={fecha} error={errores.fecha} disabled={bloqueado} onChange={cambia(setFecha)} />
        </FormGrid>
        <StyledClientes disabled={bloqueado}>
          <legend>Clientes</legend>
          <div className="modo">
            <label>
              <input type="radio" name="hfa-clientes" checked={todos} onChange={() => cambia(setTodos)(true)} /> Todos
            </label>
            <label>
              <input type="radio" name="hfa-clientes" checked={!todos} onChange={() => cambia(setTodos)(false)} /> Solo los elegidos
            </label>
          </div>
          {!todos && (
            <>
              {elegidos.length > 0 && (
                <ul className="elegidos" aria-label="Clientes elegidos" style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
                  {elegidos.map((c) => (
                    <li key={c.id} className="chip">
                      {c.nombre}
                      <Button type="button" $variant="ghost" $small aria-label={`Quitar ${c.nombre}`} onClick={() => cambia(setElegidos)(elegidos.filter((x) => x.id !== c.id))}>
                        ✕
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
              <div className="picker">
                <TerceroField<Cliente>
                  tercero={TERCEROS.cliente}
                  label="Añadir cliente"
                  value=""
                  params={{}}
                  error={errores.clientes}
                  onPick={(c) => {
                    if (!elegidos.some((x) => x.id === c.id)) cambia(setElegidos)([...elegidos, { id: c.id, nombre: c.razon_social }]);
                  }}
                />
              </div>
            </>
          )}
        </StyledClientes>
        <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 14 }}>
          <Button type="button" disabled={bloqueado} aria-busy={cargando} onClick={() => void previsualizar()}>
            {cargando ? 'Buscando…' : 'Previsualizar'}
          </Button>
        </div>
      </Card>

      {fallo && (
        <Callout $tone="warning" role="alert" style={{ marginTop: 16 }}>
          <p>
            <strong>No se ha hecho ninguna factura.</strong> {fallo}
          </p>
        </Callout>
      )}

      {propuesta !== null && (
        <StyledCard as="section" aria-labelledby="hfa-propuesta">
          <h2 id="hfa-propuesta">Facturas que se harán</h2>
          {propuesta.length === 0 ? (
            <Muted>{MESSAGES.nadaQueFacturar}</Muted>
          ) : (
            <>
              <div className="scroll">
                <Tabla aria-label="Propuesta de facturación">
                  <thead>
                    <tr>
                      <th>
                        <input
                          type="checkbox"
                          aria-label="Incluir todos"
                          disabled={facturando}
                          checked={elegidas.length === propuesta.length}
                          onChange={(e) => setIncluidos(e.target.checked ? new Set(propuesta.map((p) => p.cliente_id)) : new Set())}
                        />
                      </th>
                      <th>Cliente y documentos</th>
                      <th className="num fiscal">Base</th>
                      <th className="num fiscal">IVA</th>
                      <th className="num fiscal">R.E.</th>
                      <th className="num">Total</th>
                    </tr>
                  </thead>
                  <tbody>
                    {propuesta.map((p) => (
                      <tr key={p.cliente_id}>
                        <td>
                          <input
                            type="checkbox"
                            aria-label={`Incluir ${p.cliente_nombre}`}
                            disabled={facturando}
                            checked={incluidos.has(p.cliente_id)}
                            onChange={(e) =>
                              setIncluidos((s) => {
                                const next = new Set(s);
                                if (e.target.checked) next.add(p.cliente_id);
                                else next.delete(p.cliente_id);
                                return next;
                              })
                            }
                          />
                        </td>
                        <td>
                          <strong>{p.cliente_nombre}</strong>
                          <div className="docs">
                            {p.documentos.map((d) => (
                              <span key={`${d.tipo}-${d.id}`} className={d.tipo === 'devolucionventa' ? 'neg' : undefined}>
                                {nombreDoc(d)} <Link to={rutaDocumento(d.tipo, d.id) ?? paths.hfa}>{d.numero}</Link> {formatDate(d.fecha)} · {formatMoney(importeDoc(d))}
                              </span>
                            ))}
                          </div>
                        </td>
                        <td className="num fiscal">{formatMoney(p.base)}</td>
                        <td className="num fiscal">{formatMoney(p.iva)}</td>
                        <td className="num fiscal">{formatMoney(p.recargo)}</td>
                        <td className="num">{formatMoney(p.total)}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <td />
                      <td>
                        {elegidas.length} factura{elegidas.length === 1 ? '' : 's'}
                      </td>
                      <td className="num fiscal">{formatMoney(suma('base'))}</td>
                      <td className="num fiscal">{formatMoney(suma('iva'))}</td>
                      <td className="num fiscal">{formatMoney(suma('recargo'))}</td>
                      <td className="num" data-testid="hfa-total">
                        {formatMoney(suma('total'))}
                      </td>
                    </tr>
                  </tfoot>
                </Tabla>
              </div>
              {facturando && (
                <div style={{ marginTop: 12 }}>
                  <Muted role="status">Haciendo y emitiendo las facturas…</Muted>
                  <BusyBar aria-label="Facturando" />
                </div>
              )}
              <div className="acciones">
                <Button type="button" disabled={bloqueado || elegidas.length === 0} aria-busy={facturando} onClick={() => setConfirmando(true)}>
                  Facturar ({elegidas.length})
                </Button>
              </div>
            </>
          )}
        </StyledCard>
      )}

      {hechas !== null && (
        <StyledCard as="section" aria-labelledby="hfa-hechas">
          <h2 id="hfa-hechas">Facturas emitidas</h2>
          <Callout role="status">
            <p>
              Se {hechas.length === 1 ? 'ha emitido 1 factura' : `han emitido ${hechas.length} facturas`} con sus registros de facturación.
            </p>
          </Callout>
          <div className="scroll" style={{ marginTop: 10 }}>
            <Tabla aria-label="Facturas emitidas">
              <thead>
                <tr>
                  <th>Número</th>
                  <th>Cliente</th>
                  <th className="num">Total</th>
                </tr>
              </thead>
              <tbody>
                {hechas.map((f) => (
                  <tr key={f.id}>
                    <td>
                      <Link to={paths.factura(f.id)}>{f.numero}</Link>
                    </td>
                    <td>{f.cliente_nombre}</td>
                    <td className="num">{formatMoney(f.total)}</td>
                  </tr>
                ))}
              </tbody>
            </Tabla>
          </div>
        </StyledCard>
      )}

      <ConfirmDialog
        open={confirmando}
        title="Facturar"
        text={`Se harán y emitirán ${elegidas.length} factura${elegidas.length === 1 ? '' : 's'} por ${formatMoney(suma('total'))} con fecha ${formatDate(fecha)}. Una factura emitida no se puede modificar ni eliminar.`}
        confirmLabel="Facturar"
        onConfirm={() => void facturar()}
        onCancel={() => setConfirmando(false)}
      />
    </>
  );
}
