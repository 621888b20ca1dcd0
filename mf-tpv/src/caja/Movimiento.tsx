import { useState, type FormEvent } from 'react';
import { formatMoney, parseDecimal } from 'shared';
import { useCaja } from './estado';
import { Aviso, TouchButton, Campo, TouchDialog, Fila, Fondo } from './estilos';

/** Cash in or out of the drawer during the day: a withdrawal to the safe, a supplier paid from it. */
export default function Movimiento({ onCerrar }: { onCerrar(): void }) {
  const anotar = useCaja((s) => s.anotarMovimiento);
  const operaciones = useCaja((s) => s.operaciones);
  const movimientos = operaciones.filter((o) => o.clase === 'movimiento');
  const [tipo, setTipo] = useState<'salida' | 'entrada'>('salida');
  const [importe, setImporte] = useState('');
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [hecho, setHecho] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uuid] = useState(() => crypto.randomUUID());
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    const c = parseDecimal(importe, 2);
    if (c === null || c <= 0n) return setError('Escriba un importe mayor que cero.');
    if (!motivo.trim()) return setError('Escriba el motivo (p. ej. «Retirada a caja fuerte»).');
    setBusy(true);
    setError(null);
    try {
      const r = await anotar(tipo === 'salida' ? -Number(c) : Number(c), motivo.trim(), uuid);
      const que = `${tipo === 'salida' ? 'Salida' : 'Entrada'} de ${formatMoney(Number(c))} anotada`;
      setHecho(r.enCola ? `${que} sin conexión: pendiente de envío (se envía sola al volver la conexión y cuenta en el cierre).` : `${que}.`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Fondo>
      <TouchDialog as="form" aria-label="Entrada o salida de caja" onSubmit={enviar} onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Entrada / salida de caja</h2>
        {hecho ? (
          <>
            <p role="status" style={{ fontSize: 18 }}>{hecho}</p>
            <TouchButton type="button" $tono="primario" autoFocus onClick={onCerrar}>Terminar</TouchButton>
          </>
        ) : (
          <>
            <Fila role="radiogroup" aria-label="Tipo de movimiento">
              <TouchButton type="button" role="radio" aria-checked={tipo === 'salida'} $tono={tipo === 'salida' ? 'primario' : 'neutro'} onClick={() => setTipo('salida')}>Salida</TouchButton>
              <TouchButton type="button" role="radio" aria-checked={tipo === 'entrada'} $tono={tipo === 'entrada' ? 'primario' : 'neutro'} onClick={() => setTipo('entrada')}>Entrada</TouchButton>
            </Fila>
            <label htmlFor="tpv-mov-importe">Importe (€)</label>
            <Campo id="tpv-mov-importe" inputMode="decimal" autoFocus value={importe} onChange={(e) => setImporte(e.target.value)} />
            <label htmlFor="tpv-mov-motivo">Motivo</label>
            <Campo id="tpv-mov-motivo" value={motivo} onChange={(e) => setMotivo(e.target.value)} />
            {error && <Aviso>{error}</Aviso>}
            <Fila style={{ marginTop: 12 }}>
              <TouchButton type="submit" $tono="primario" disabled={busy}>Anotar</TouchButton>
              <TouchButton type="button" onClick={onCerrar}>Cancelar</TouchButton>
            </Fila>
          </>
        )}
        {movimientos.length > 0 && (
          <table aria-label="Movimientos pendientes de envío" style={{ marginTop: 10 }}>
            <caption style={{ textAlign: 'left', fontWeight: 600 }}>Hechos sin conexión</caption>
            <tbody>
              {movimientos.map((m) => (
                <tr key={m.uuid}>
                  <td>{new Date(m.fecha_hora).toLocaleTimeString('es-ES', { hour: '2-digit', minute: '2-digit' })}</td>
                  <td>{m.movimiento?.motivo}</td>
                  <td className="n">{formatMoney(m.movimiento?.importe ?? 0)}</td>
                  <td>{m.estado === 'incidencia' ? `Rechazado: ${m.incidencia}` : 'Pendiente de envío'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </TouchDialog>
    </Fondo>
  );
}
