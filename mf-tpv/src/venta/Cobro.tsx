import { useRef, useState } from 'react';
import styled from 'styled-components';
import { formatMoney, MESSAGES_TPV, parseDecimal, textoTpv } from 'shared';
import { useCaja } from '../caja/estado';
import * as srv from '../caja/servidor';
import { Aviso, TouchButton, Campo, TouchDialog, Fila, Fondo } from '../caja/estilos';
import { estadoCobro, FORMA_PAGO_LABEL, type FormaPago, type Pago } from './importes';

const Grande = styled.div`
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 8px;
  margin-bottom: 12px;
  text-align: center;
  div { background: #f1f5f9; border-radius: 10px; padding: 8px; }
  strong { display: block; font-size: 26px; font-variant-numeric: tabular-nums; }
  .cambio strong { color: #15803d; }
  @media (max-width: 500px) { strong { font-size: 20px; } }
`;

/**
 * Payment: cash with the change shown, card, Bizum, vale, or several of them. It charges the sale as a ticket
 * (`cobrar` of the till), or what `alCobrar` makes of the payments (the full invoice F1 of a sale over the limit).
 */
export default function Cobro({ total, onCancelar, onCobrado, alCobrar, titulo = 'Cobrar' }: {
  total: number;
  onCancelar(): void;
  onCobrado(): void;
  alCobrar?(pagos: Pago[]): Promise<unknown>;
  titulo?: string;
}) {
  const terminal = useCaja((s) => s.terminal)!;
  const cobrarTicket = useCaja((s) => s.cobrar);
  const cobrar = alCobrar ?? cobrarTicket;
  const formas = (terminal.formas_pago?.length ? terminal.formas_pago : ['efectivo']) as FormaPago[];
  const [pagos, setPagos] = useState<Pago[]>([]);
  const [forma, setForma] = useState<FormaPago>(formas[0]);
  const [importe, setImporte] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Issue 23: the balance of the vale just read, what it pays and what stays on it.
  const [avisoVale, setAvisoVale] = useState<string | null>(null);
  const campo = useRef<HTMLInputElement>(null);
  const estado = estadoCobro(total, pagos);

  const terminar = async (lista: Pago[]) => {
    const e = estadoCobro(total, lista);
    if (!e.completo) {
      setError(e.error);
      return;
    }
    setBusy(true);
    try {
      await cobrar(lista);
      onCobrado();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  /**
   * A store credit (issue 23): the code typed or scanned, read from the server (online only); it pays what is pending,
   * up to its balance, and what is left stays on it (said here and printed on the ticket). One used up, or unknown, is
   * refused with the reason.
   */
  const añadirVale = async () => {
    const codigo = importe.trim().toUpperCase();
    if (!codigo) return setError(MESSAGES_TPV.valeCodigo);
    if (pagos.some((p) => p.vale === codigo)) return setError(textoTpv(MESSAGES_TPV.valeUsado, { codigo }));
    setBusy(true);
    try {
      const v = await srv.leerVale(codigo);
      // A server before the balance (migration 0043) says only whether it was used.
      const saldo = v.saldo ?? (v.usado ? 0 : v.importe);
      if (saldo <= 0) throw new Error(textoTpv(MESSAGES_TPV.valeUsado, { codigo: v.codigo }));
      setBusy(false);
      const usar = Math.min(saldo, estado.pendiente);
      if (usar <= 0) return setError('No queda nada por pagar.');
      const lista = [...pagos, { forma: 'vale' as const, importe: usar, vale: v.codigo, saldo: saldo - usar }];
      const e = estadoCobro(total, lista);
      if (e.error) return setError(e.error);
      setError(null);
      setAvisoVale(`Vale ${v.codigo}: tiene ${formatMoney(saldo)}; paga ${formatMoney(usar)} y le quedan ${formatMoney(saldo - usar)}.`);
      setPagos(lista);
      setImporte('');
      if (e.completo) void terminar(lista);
    } catch (err) {
      setBusy(false);
      setError(err instanceof srv.SinConexion ? MESSAGES_TPV.valeSinConexion : (err as Error).message);
    }
  };

  /** Adds a payment (the amount typed, or what is pending) and closes the sale when it is covered. */
  const añadir = (f: FormaPago, cents?: number) => {
    if (f === 'vale') return void añadirVale();
    let c = cents;
    if (c === undefined) {
      if (importe.trim() === '') c = estado.pendiente;
      else {
        const v = parseDecimal(importe, 2);
        if (v === null || v <= 0n) return setError('Escriba un importe válido.');
        c = Number(v);
      }
    }
    if (c <= 0) return;
    const lista = [...pagos, { forma: f, importe: c }];
    const e = estadoCobro(total, lista);
    if (e.error) return setError(e.error);
    setError(null);
    setPagos(lista);
    setImporte('');
    campo.current?.focus();
    if (e.completo) void terminar(lista);
  };

  return (
    <Fondo>
      <TouchDialog aria-label={titulo} onKeyDown={(e) => e.key === 'Escape' && !busy && onCancelar()}>
        <h2>{titulo}</h2>
        <Grande>
          <div>Total<strong data-testid="cobro-total">{formatMoney(total)}</strong></div>
          <div>Pendiente<strong data-testid="cobro-pendiente">{formatMoney(estado.pendiente)}</strong></div>
          <div className="cambio">Cambio<strong data-testid="cobro-cambio">{formatMoney(estado.cambio)}</strong></div>
        </Grande>
        <Fila role="radiogroup" aria-label="Forma de pago">
          {formas.map((f) => (
            <TouchButton key={f} role="radio" aria-checked={forma === f} $tono={forma === f ? 'primario' : 'neutro'} onClick={() => {
                setForma(f);
                campo.current?.focus();
              }}>
              {FORMA_PAGO_LABEL[f]}
            </TouchButton>
          ))}
        </Fila>
        <label htmlFor="tpv-importe">
          {forma === 'vale'
            ? 'Código del vale (escanéelo o escríbalo) — Intro: pagar con él'
            : `Importe entregado (€) — Intro: ${FORMA_PAGO_LABEL[forma].toLowerCase()} ${importe ? '' : `por ${formatMoney(estado.pendiente)}`}`}
        </label>
        <Campo
          id="tpv-importe"
          ref={campo}
          inputMode={forma === 'vale' ? 'text' : 'decimal'}
          autoFocus
          placeholder={forma === 'vale' ? 'V…' : formatMoney(estado.pendiente)}
          value={importe}
          disabled={busy}
          onChange={(e) => setImporte(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              añadir(forma);
            }
          }}
        />
        {forma === 'efectivo' && (
          <Fila style={{ marginTop: 8 }} aria-label="Billetes">
            {[500, 1000, 2000, 5000, 10000].filter((b) => b >= estado.pendiente || b === 500).map((b) => (
              <TouchButton key={b} disabled={busy} onClick={() => añadir('efectivo', b)}>{formatMoney(b)}</TouchButton>
            ))}
          </Fila>
        )}
        <Fila style={{ marginTop: 8 }}>
          {formas.map((f) => (
            <TouchButton key={f} $tono="ok" disabled={busy || estado.pendiente === 0} onClick={() => añadir(f)}>
              {f === 'vale' ? 'Pagar con el vale' : `${FORMA_PAGO_LABEL[f]} ${importe ? `${importe} €` : formatMoney(estado.pendiente)}`}
            </TouchButton>
          ))}
        </Fila>
        {pagos.length > 0 && (
          <table aria-label="Pagos" style={{ marginTop: 12 }}>
            <tbody>
              {pagos.map((p, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two payments of the same method and amount are the same row to the cashier; the position is what «✕» removes.
                <tr key={i}>
                  <td>{FORMA_PAGO_LABEL[p.forma]}{p.vale ? ` ${p.vale}` : ''}{p.saldo !== undefined ? ` (le quedan ${formatMoney(p.saldo)})` : ''}</td>
                  <td className="n">{formatMoney(p.importe)}</td>
                  <td className="n">
                    <TouchButton disabled={busy} onClick={() => setPagos(pagos.filter((_, j) => j !== i))} aria-label={`Quitar ${FORMA_PAGO_LABEL[p.forma]}`}>✕</TouchButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {avisoVale && (
          <p role="status" data-testid="vale-saldo" style={{ margin: '8px 0 0', fontWeight: 600 }}>
            {avisoVale}
          </p>
        )}
        {error && <Aviso>{error}</Aviso>}
        <Fila style={{ marginTop: 14 }}>
          <TouchButton $tono="ok" $grande disabled={busy || !estado.completo} onClick={() => void terminar(pagos)}>Cobrar</TouchButton>
          <TouchButton $grande disabled={busy} onClick={onCancelar}>Volver</TouchButton>
        </Fila>
      </TouchDialog>
    </Fondo>
  );
}
