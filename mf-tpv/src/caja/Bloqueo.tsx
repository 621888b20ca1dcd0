import { useState, type FormEvent } from 'react';
import { useCaja } from './estado';
import { EleccionCajero } from './EleccionCajero';
import { Aviso, TouchButton, Campo, Centro, TouchDialog, Fila, Fondo, Tarjeta } from './estilos';

/**
 * The till locked after its idle time (issue 23): nothing of the sale is shown or reachable until a cashier's PIN opens
 * it. The cashier who left it goes on; another one takes over the open caja (a handover: the tickets from now on are
 * theirs); «Salir» goes to the cashier's screen (email and password too). The caja stays open in every case.
 */
export function Bloqueo() {
  const terminal = useCaja((s) => s.terminal)!;
  const sesion = useCaja((s) => s.sesion);
  const desbloquear = useCaja((s) => s.desbloquear);
  const salir = useCaja((s) => s.salir);
  const conPin = terminal.cajeros.filter((c) => c.con_pin);
  const [cajero, setCajero] = useState<number | null>(sesion && conPin.some((c) => c.id === sesion.user.id) ? sesion.user.id : (conPin[0]?.id ?? null));
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    if (cajero === null) return setError('Elija quién es.');
    setBusy(true);
    setError(null);
    try {
      await desbloquear(cajero, pin);
    } catch (err) {
      setError((err as Error).message);
      setPin('');
    } finally {
      setBusy(false);
    }
  };
  const minutos = terminal.bloqueo_minutos ?? 0;
  return (
    <Centro>
      <Tarjeta as="form" onSubmit={enviar} aria-labelledby="tpv-bloqueo" data-testid="caja-bloqueada">
        <h1 id="tpv-bloqueo">Caja bloqueada</h1>
        <p style={{ margin: 0, color: '#475569' }}>
          {minutos > 0 ? `Sin usar ${minutos === 1 ? '1 minuto' : `${minutos} minutos`}. ` : ''}
          {sesion ? `${sesion.user.nombre} sigue con la caja abierta: su PIN la desbloquea. ` : ''}Otro cajero: elija su nombre y su PIN, y sigue
          vendiendo en la misma caja.
        </p>
        <EleccionCajero cajeros={conPin} elegido={cajero} onElegir={setCajero} />
        <label htmlFor="tpv-bloqueo-pin">PIN</label>
        <Campo
          id="tpv-bloqueo-pin"
          type="password"
          inputMode="numeric"
          autoFocus
          autoComplete="off"
          maxLength={8}
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
        />
        {error && <Aviso>{error}</Aviso>}
        <TouchButton $tono="primario" $grande type="submit" disabled={busy || !pin} style={{ width: '100%', marginTop: 16 }}>
          Desbloquear
        </TouchButton>
        <TouchButton type="button" style={{ width: '100%', marginTop: 8 }} onClick={() => void salir()}>
          Salir: entrar otro cajero
        </TouchButton>
      </Tarjeta>
    </Centro>
  );
}

/** The cashier changes their own PIN at the till, knowing the current one (issue 23). */
export function MiPin({ onCerrar }: { onCerrar(): void }) {
  const cambiarPin = useCaja((s) => s.cambiarPin);
  const [actual, setActual] = useState('');
  const [nuevo, setNuevo] = useState('');
  const [otra, setOtra] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [hecho, setHecho] = useState(false);
  const [busy, setBusy] = useState(false);
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{4,8}$/.test(nuevo)) return setError('El PIN debe tener de 4 a 8 cifras.');
    if (nuevo !== otra) return setError('Los dos PIN nuevos no coinciden.');
    setBusy(true);
    setError(null);
    try {
      await cambiarPin(nuevo, actual);
      setHecho(true);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const solo = (f: (v: string) => void) => (e: { target: { value: string } }) => f(e.target.value.replace(/\D/g, ''));
  return (
    <Fondo>
      <TouchDialog as="form" aria-label="Cambiar mi PIN" onSubmit={enviar} onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Cambiar mi PIN</h2>
        {hecho ? (
          <>
            <p role="status" style={{ fontSize: 18 }}>
              PIN cambiado: desde ahora entre con el nuevo.
            </p>
            <TouchButton type="button" $tono="primario" autoFocus onClick={onCerrar}>
              Terminar
            </TouchButton>
          </>
        ) : (
          <>
            <label htmlFor="tpv-pin-actual">PIN actual</label>
            <Campo id="tpv-pin-actual" type="password" inputMode="numeric" autoFocus autoComplete="off" maxLength={8} value={actual} onChange={solo(setActual)} />
            <label htmlFor="tpv-pin-nuevo">PIN nuevo (de 4 a 8 cifras)</label>
            <Campo id="tpv-pin-nuevo" type="password" inputMode="numeric" autoComplete="off" maxLength={8} value={nuevo} onChange={solo(setNuevo)} />
            <label htmlFor="tpv-pin-otra">Repetir el PIN nuevo</label>
            <Campo id="tpv-pin-otra" type="password" inputMode="numeric" autoComplete="off" maxLength={8} value={otra} onChange={solo(setOtra)} />
            {error && <Aviso>{error}</Aviso>}
            <Fila style={{ marginTop: 12 }}>
              <TouchButton type="submit" $tono="primario" disabled={busy}>
                Cambiar PIN
              </TouchButton>
              <TouchButton type="button" onClick={onCerrar}>
                Cancelar
              </TouchButton>
            </Fila>
          </>
        )}
      </TouchDialog>
    </Fondo>
  );
}
