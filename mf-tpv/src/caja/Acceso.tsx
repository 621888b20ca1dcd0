import { useState, type FormEvent } from 'react';
import { formatMoney, parseDecimal } from 'shared/caja';
import { EleccionCajero } from './EleccionCajero';
import { useCaja } from './estado';
import { TouchButton, Aviso, Campo, Centro, Tarjeta } from './estilos';
import { recordarPin } from './bloqueo';
import * as srv from './servidor';

/** Pairing: the one-time code the back office shows (Ventas › Terminales), typed once on this browser. */
export function Emparejar() {
  const emparejado = useCaja((s) => s.emparejado);
  const errorInicial = useCaja((s) => s.error);
  const [codigo, setCodigo] = useState('');
  const [error, setError] = useState<string | null>(errorInicial);
  const [busy, setBusy] = useState(false);
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    if (!codigo.trim()) return setError('Escriba el código que muestra el terminal en la gestión.');
    setBusy(true);
    setError(null);
    try {
      await emparejado(await srv.emparejar(codigo));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Centro>
      <Tarjeta as="form" onSubmit={enviar}>
        <h1>Emparejar este terminal</h1>
        <p style={{ margin: 0, color: '#475569' }}>
          En la gestión, Ventas › Terminales, abra este terminal y pulse «Vincular TPV». Escriba aquí el código que aparece, una sola vez.
        </p>
        <label htmlFor="tpv-codigo">Código de emparejamiento</label>
        <Campo id="tpv-codigo" autoFocus autoComplete="off" autoCapitalize="characters" placeholder="XXXX-XXXX" value={codigo} onChange={(e) => setCodigo(e.target.value)} />
        {error && <Aviso>{error}</Aviso>}
        <TouchButton $tono="primario" $grande type="submit" disabled={busy} style={{ width: '100%', marginTop: 16 }}>
          Emparejar
        </TouchButton>
      </Tarjeta>
    </Centro>
  );
}

/** The cashier: their name and PIN (or email and password). */
export function Cajero() {
  const terminal = useCaja((s) => s.terminal)!;
  const entrar = useCaja((s) => s.entrar);
  const [cajero, setCajero] = useState<number | null>(terminal.cajeros.length === 1 ? terminal.cajeros[0].id : null);
  const [pin, setPin] = useState('');
  const [conClave, setConClave] = useState(!terminal.cajeros.some((c) => c.con_pin));
  const [email, setEmail] = useState('');
  const [clave, setClave] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (conClave) await entrar(await srv.entrarConClave(email, clave));
      else {
        if (cajero === null) throw new Error('Elija quién es.');
        const sesion = await srv.entrarConPin(cajero, pin);
        // Kept (a verifier, never the PIN) so this cashier can open the till after an idle lock without the server.
        await recordarPin(cajero, pin);
        await entrar(sesion);
      }
    } catch (err) {
      setError(err instanceof srv.SinConexion ? 'Sin conexión con el servidor: la primera entrada necesita conexión.' : (err as Error).message);
      setPin('');
    } finally {
      setBusy(false);
    }
  };
  const conPin = terminal.cajeros.filter((c) => c.con_pin);
  return (
    <Centro>
      <Tarjeta as="form" onSubmit={enviar}>
        <h1>{terminal.nombre}: ¿quién vende?</h1>
        {terminal.caja_abierta && (
          <p style={{ margin: 0, color: '#475569' }} data-testid="caja-sigue-abierta">
            La caja sigue abierta{terminal.caja_abierta.usuario_nombre ? ` (la abrió ${terminal.caja_abierta.usuario_nombre})` : ''}: quien entre sigue vendiendo en
            ella; se cierra solo con «Cerrar caja».
          </p>
        )}
        {conClave ? (
          <>
            <label htmlFor="tpv-email">Email</label>
            <Campo id="tpv-email" type="email" autoFocus autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
            <label htmlFor="tpv-clave">Contraseña</label>
            <Campo id="tpv-clave" type="password" autoComplete="current-password" value={clave} onChange={(e) => setClave(e.target.value)} />
          </>
        ) : (
          <>
            <EleccionCajero cajeros={conPin} elegido={cajero} onElegir={setCajero} />
            <label htmlFor="tpv-pin">PIN</label>
            <Campo id="tpv-pin" type="password" inputMode="numeric" autoFocus autoComplete="off" value={pin} onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))} />
          </>
        )}
        {error && <Aviso>{error}</Aviso>}
        <TouchButton $tono="primario" $grande type="submit" disabled={busy} style={{ width: '100%', marginTop: 16 }}>
          Entrar
        </TouchButton>
        {conPin.length > 0 && (
          <TouchButton type="button" style={{ width: '100%', marginTop: 8 }} onClick={() => setConClave((v) => !v)}>
            {conClave ? 'Entrar con PIN' : 'Entrar con email y contraseña'}
          </TouchButton>
        )}
      </Tarjeta>
    </Centro>
  );
}

/** Opening the session: the float in the drawer. */
export function Apertura() {
  const terminal = useCaja((s) => s.terminal)!;
  const abrirCaja = useCaja((s) => s.abrirCaja);
  const salir = useCaja((s) => s.salir);
  const [uuid] = useState(() => crypto.randomUUID());
  const [fondo, setFondo] = useState(String(terminal.fondo / 100).replace('.', ','));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    const cents = parseDecimal(fondo, 2);
    if (cents === null || cents < 0n) return setError('Escriba el fondo de caja en euros (0 o más).');
    setBusy(true);
    setError(null);
    try {
      // Without the server the opening waits in the queue (after a closing still to send) and the cashier sells.
      await abrirCaja(Number(cents), uuid);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Centro>
      <Tarjeta as="form" onSubmit={enviar}>
        <h1>Abrir la caja</h1>
        <p style={{ margin: 0, color: '#475569' }}>Cuente el cambio que hay en el cajón para empezar (fondo habitual: {formatMoney(terminal.fondo)}).</p>
        <label htmlFor="tpv-fondo">Fondo de caja (€)</label>
        <Campo id="tpv-fondo" inputMode="decimal" autoFocus value={fondo} onChange={(e) => setFondo(e.target.value)} onFocus={(e) => e.target.select()} />
        {error && <Aviso>{error}</Aviso>}
        <TouchButton $tono="ok" $grande type="submit" disabled={busy} style={{ width: '100%', marginTop: 16 }}>
          Abrir caja
        </TouchButton>
        <TouchButton type="button" style={{ width: '100%', marginTop: 8 }} onClick={() => void salir()}>
          Cambiar de cajero
        </TouchButton>
      </Tarjeta>
    </Centro>
  );
}
