import { useState, type FormEvent } from 'react';
import { formatDecimal, formatMoney, parseDecimal } from 'shared';
import { importeLinea } from '../venta/importes';
import { FORMA_PAGO_LABEL } from '../venta/importes';
import { useCaja } from './estado';
import { Aviso, Boton, Campo, Dialogo, Fila, Fondo } from './estilos';
import * as srv from './servidor';
import type { DevolucionHecha, TicketServidor } from './tipos';

/** Returns: the ticket by its number (typed or scanned), the lines and quantities, refunded by its method → R5. */
export default function Devolucion({ onCerrar }: { onCerrar(): void }) {
  const terminal = useCaja((s) => s.terminal)!;
  const [numero, setNumero] = useState('');
  const [ticket, setTicket] = useState<TicketServidor | null>(null);
  const [cantidades, setCantidades] = useState<Record<number, string>>({});
  const [hecha, setHecha] = useState<DevolucionHecha | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uuid] = useState(() => crypto.randomUUID());

  const buscar = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const t = await srv.buscarTicket(numero, terminal.id);
      if (!t) setError(`No hay ningún ticket «${numero}».`);
      setTicket(t);
      setCantidades({});
    } catch (err) {
      setError(err instanceof srv.SinConexion ? 'Las devoluciones necesitan conexión con el servidor.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const elegidas = (ticket?.lineas ?? [])
    .map((l) => ({ l, c: parseDecimal(cantidades[l.id] ?? '', 3) }))
    .filter((x): x is { l: TicketServidor['lineas'][number]; c: bigint } => x.c !== null && x.c > 0n);
  const importe = elegidas.reduce(
    (a, { l, c }) => a + importeLinea({ cantidad: Number(c), precio: l.precio_iva ?? l.precio, descuento: l.descuento, tipo_iva: l.tipo_iva }),
    0,
  );
  const forma = ticket?.pagos[0]?.forma ?? 'efectivo';

  const devolver = async () => {
    if (!ticket) return;
    for (const { l, c } of elegidas) {
      const queda = l.cantidad - (l.devuelto ?? 0);
      if (Number(c) > queda) return setError(`De «${l.descripcion}» quedan por devolver ${formatDecimal(queda, 3, 0)}.`);
    }
    if (!elegidas.length) return setError('Elija qué líneas y cuánto se devuelve.');
    setBusy(true);
    setError(null);
    try {
      setHecha(await srv.devolverTicket(ticket.id, elegidas.map(({ l, c }) => ({ id: l.id, cantidad: Number(c) })), [{ forma, importe }], uuid));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Fondo>
      <Dialogo aria-label="Devolución" onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Devolución</h2>
        {hecha ? (
          <>
            <p role="status" style={{ fontSize: 18 }}>
              Rectificativa <strong data-testid="devolucion-numero">{hecha.numero}</strong>: devolver {formatMoney(Math.abs(hecha.total))} en {FORMA_PAGO_LABEL[forma].toLowerCase()}.
            </p>
            <Boton $tono="primario" $grande autoFocus onClick={onCerrar}>Terminar</Boton>
          </>
        ) : (
          <>
            <form onSubmit={buscar}>
              <label htmlFor="tpv-devolver-numero">Número del ticket (escríbalo o escanéelo)</label>
              <Fila>
                <Campo id="tpv-devolver-numero" autoFocus autoComplete="off" value={numero} onChange={(e) => setNumero(e.target.value)} style={{ flex: 1, width: 'auto' }} />
                <Boton type="submit" disabled={busy}>Buscar</Boton>
              </Fila>
            </form>
            {ticket && (
              <table aria-label="Líneas del ticket" style={{ marginTop: 10 }}>
                <thead>
                  <tr>
                    <th>Artículo</th>
                    <th className="n">Vendido</th>
                    <th className="n">Devuelto</th>
                    <th className="n">Devolver</th>
                  </tr>
                </thead>
                <tbody>
                  {ticket.lineas.map((l) => {
                    const queda = l.cantidad - (l.devuelto ?? 0);
                    return (
                      <tr key={l.id}>
                        <td>{l.descripcion}</td>
                        <td className="n">{formatDecimal(l.cantidad, 3, 0)}</td>
                        <td className="n">{formatDecimal(l.devuelto ?? 0, 3, 0)}</td>
                        <td className="n">
                          <Campo
                            aria-label={`Devolver de ${l.descripcion}`}
                            inputMode="decimal"
                            disabled={queda <= 0}
                            style={{ width: 90, fontSize: 16, padding: 6 }}
                            value={cantidades[l.id] ?? ''}
                            placeholder="0"
                            onChange={(e) => setCantidades({ ...cantidades, [l.id]: e.target.value })}
                          />
                          <Boton type="button" disabled={queda <= 0} onClick={() => setCantidades({ ...cantidades, [l.id]: formatDecimal(queda, 3, 0) })} style={{ marginLeft: 4 }}>
                            Todo
                          </Boton>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            {ticket && (
              <p style={{ fontSize: 18, fontWeight: 700 }}>
                A devolver: <span data-testid="devolucion-importe">{formatMoney(importe)}</span> ({FORMA_PAGO_LABEL[forma]}, como se pagó)
              </p>
            )}
            {error && <Aviso>{error}</Aviso>}
            <Fila style={{ marginTop: 12 }}>
              <Boton $tono="peligro" disabled={busy || !ticket || !elegidas.length} onClick={() => void devolver()}>Devolver</Boton>
              <Boton onClick={onCerrar}>Cancelar</Boton>
            </Fila>
          </>
        )}
      </Dialogo>
    </Fondo>
  );
}
