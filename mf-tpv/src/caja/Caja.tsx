import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { BLOQUEO_MINUTOS_TPV } from 'shared/caja';
import { useInactividad } from './bloqueo';
import { Apertura, Cajero, Emparejar } from './Acceso';
import type { EstadoCola } from '../datos/cola';
import { reiniciarCola, useCaja } from './estado';
import { Barra, TouchButton, Centro, Estado, EstiloImpresion, Pantalla, Spinner, Tarjeta } from './estilos';
import { soltarCaja, tomarCaja } from './unaPestana';
import { prepararSinConexion } from '../datos/sinConexion';
import * as srv from './servidor';

// Not needed for the till's first paint (pairing / cashier / opening screens): loaded on demand. Their chunks are
// still in the build's precache.json, so the service worker keeps them for a sale offline (sw-tpv.js).
const Venta = lazy(() => import('../venta/Venta').then((m) => ({ default: m.Venta })));
const Incidencias = lazy(() => import('./Incidencias'));
const Bloqueo = lazy(() => import('./Bloqueo').then((m) => ({ default: m.Bloqueo })));
const MiPin = lazy(() => import('./Bloqueo').then((m) => ({ default: m.MiPin })));

/** While the server doesn't answer, how often the till asks it again. */
const SONDEO_MS = 3000;

/** Whether this tab sells: asking, yes, another tab has the till, or another tab took it from this one. */
type Turno = 'pidiendo' | 'mia' | 'ocupada' | 'perdida';

/** Another tab of this browser has the till: said plainly, with the way to take it here. */
function OtraPestaña({ turno, onUsar }: { turno: 'ocupada' | 'perdida'; onUsar(): void }) {
  return (
    <Centro>
      <Tarjeta role="alert" aria-labelledby="tpv-otra-pestana">
        <h1 id="tpv-otra-pestana">{turno === 'ocupada' ? 'La caja ya está abierta en otra pestaña' : 'La caja se ha abierto en otra pestaña'}</h1>
        <p>
          {turno === 'ocupada'
            ? 'En este navegador la caja ya se está usando en otra pestaña o ventana. Solo una vende a la vez, para que ningún ticket se cobre dos veces.'
            : 'Aquí ya no se vende: siga en la otra pestaña o ventana. Solo una vende a la vez, para que ningún ticket se cobre dos veces.'}
        </p>
        <p>Si la otra está cerrada o no responde, use la caja aquí: la otra dejará de vender y el ticket en curso sigue aquí.</p>
        <TouchButton $tono="primario" $grande style={{ width: '100%', marginTop: 8 }} onClick={onUsar}>
          Usar la caja en esta pestaña
        </TouchButton>
      </Tarjeta>
    </Centro>
  );
}

/**
 * The status in a cashier's words: what waits to be sent and what to do about it (issue 23). Nothing to say when all
 * is sent and the server answers.
 */
export function queHacer(online: boolean, cola: EstadoCola): string | null {
  if (!online) return cola.pendientes > 0 ? 'Siga vendiendo: se enviará solo al volver la conexión.' : 'Siga vendiendo: los tickets se guardan aquí hasta que vuelva la conexión.';
  if (cola.error) return `No se ha podido enviar (${cola.error}). Se reintenta solo; si sigue así, avise al encargado.`;
  if (cola.pendientes > 0) return 'Enviando…';
  return null;
}

export function BarraEstado() {
  const { terminal, sesion, online, cola, fase, catalogoCargado, indice } = useCaja();
  const salir = useCaja((s) => s.salir);
  // What the server refused on upload (a movement for a caja closed meanwhile…): kept and shown until resolved.
  const operaciones = useCaja((s) => s.operaciones);
  const [ver, setVer] = useState(false);
  const [miPin, setMiPin] = useState(false);
  const bloqueada = useCaja((s) => s.bloqueada);
  const incidencias = operaciones.filter((o) => o.estado === 'incidencia');
  return (
    <Barra>
      <strong>TPV</strong>
      <span className="quien">
        {terminal?.nombre ?? ''}
        {sesion ? ` · ${sesion.user.nombre}` : ''}
      </span>
      <span className="sp" />
      {fase === 'venta' && <span className="articulos">{catalogoCargado || indice.size ? `${indice.size.toLocaleString('es-ES')} artículos` : 'Cargando catálogo…'}</span>}
      <Estado $ok={online && !cola.error} role="status" aria-live="polite" data-testid="estado-conexion">
        {online ? 'En línea' : 'Sin conexión'}
        {cola.pendientes > 0 && ` · ${cola.pendientes} por enviar`}
      </Estado>
      {/* What it means and what to do, in words on the bar (issue 23), not in a tooltip. */}
      {queHacer(online, cola) && (
        <span className="que-hacer" data-testid="estado-que-hacer" style={{ fontSize: 13, color: '#fde68a' }}>
          {queHacer(online, cola)}
        </span>
      )}
      {incidencias.length > 0 && (
        <TouchButton style={{ minHeight: 32, fontSize: 14, background: '#b91c1c', color: '#fff' }} data-testid="incidencias" onClick={() => setVer(true)}>
          {incidencias.length === 1 ? '1 incidencia' : `${incidencias.length} incidencias`}: ver qué hacer
        </TouchButton>
      )}
      {ver && (
        <Suspense fallback={null}>
          <Incidencias onCerrar={() => setVer(false)} />
        </Suspense>
      )}
      {sesion && fase === 'venta' && !bloqueada && (
        <TouchButton style={{ minHeight: 32, fontSize: 14 }} onClick={() => setMiPin(true)}>
          Mi PIN
        </TouchButton>
      )}
      {miPin && (
        <Suspense fallback={null}>
          <MiPin onCerrar={() => setMiPin(false)} />
        </Suspense>
      )}
      {sesion && fase !== 'cargando' && (
        <TouchButton style={{ minHeight: 32, fontSize: 14 }} title="Entra el siguiente cajero; la caja sigue abierta" onClick={() => void salir()}>
          Salir
        </TouchButton>
      )}
    </Barra>
  );
}

/** The till, full screen: pairing → cashier → opening the caja → selling. */
export function Caja() {
  const fase = useCaja((s) => s.fase);
  const set = useCaja((s) => s.set);
  const [turno, setTurno] = useState<Turno>('pidiendo');
  // This tab sells only while it holds the till (one tab per browser); it starts from what IndexedDB holds, the
  // ticket in progress included, every time it takes it.
  const tomar = useCallback(
    async (robar: boolean) => {
      const mia = await tomarCaja(robar, () => {
        reiniciarCola();
        // Nothing of the ticket is written from here on (it is the other tab's now): the lines stay as they were.
        set({ fase: 'cargando', ultimo: null });
        setTurno('perdida');
      });
      setTurno(mia ? 'mia' : 'ocupada');
      if (mia) await useCaja.getState().arrancar();
    },
    [set],
  );
  // Everything the till needs kept in the browser (its service worker) before the first sale.
  const [sinConexionLista, setSinConexionLista] = useState(false);
  useEffect(() => {
    let vivo = true;
    void prepararSinConexion().then((x) => vivo && setSinConexionLista(x));
    return () => {
      vivo = false;
    };
  }, []);
  const catalogoEnDisco = useCaja((s) => s.catalogoEnDisco);
  // A till started offline sells with the catalogue it kept; with none kept (or an old one), the server's as soon as
  // it answers.
  const online = useCaja((s) => s.online);
  const catalogoCargado = useCaja((s) => s.catalogoCargado);
  useEffect(() => {
    if (online && fase === 'venta' && !catalogoCargado) void useCaja.getState().cargarCatalogo();
  }, [online, fase, catalogoCargado]);
  // The pill follows the server, not only the browser's events: online as soon as op.asp answers again (asked every
  // few seconds while it doesn't), offline when a request gets no answer.
  useEffect(() => {
    srv.vigilarConexion((responde) => {
      if (useCaja.getState().online !== responde) set({ online: responde });
    });
    const sondeo = setInterval(() => {
      if (!useCaja.getState().online && useCaja.getState().terminal) void srv.leerTerminal().catch(() => undefined);
    }, SONDEO_MS);
    return () => {
      srv.vigilarConexion(null);
      clearInterval(sondeo);
    };
  }, [set]);
  // Who sells (issue 23): after the terminal's idle time the till locks and asks for a PIN (0 minutes: never).
  const bloqueada = useCaja((s) => s.bloqueada);
  const minutos = useCaja((s) => s.terminal?.bloqueo_minutos ?? BLOQUEO_MINUTOS_TPV);
  const bloquear = useCallback(() => useCaja.getState().bloquear(), []);
  useInactividad(minutos, turno === 'mia' && fase === 'venta' && !bloqueada, bloquear);
  useEffect(() => {
    void tomar(false);
    return () => {
      soltarCaja();
    };
  }, [tomar]);
  useEffect(() => {
    // The browser's network is back: the server says whether the till is online (the pill waits for its answer).
    const on = () => void srv.leerTerminal().catch(() => undefined);
    const off = () => set({ online: false });
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, [set]);
  return (
    <Pantalla data-sin-conexion={sinConexionLista && catalogoEnDisco ? 'lista' : 'no'}>
      <EstiloImpresion />
      <BarraEstado />
      {(turno === 'ocupada' || turno === 'perdida') && <OtraPestaña turno={turno} onUsar={() => void tomar(true)} />}
      {(turno === 'pidiendo' || (turno === 'mia' && fase === 'cargando')) && (
        <Centro>
          <Spinner />
        </Centro>
      )}
      {turno === 'mia' && fase === 'emparejar' && <Emparejar />}
      {turno === 'mia' && fase === 'cajero' && <Cajero />}
      {turno === 'mia' && fase === 'apertura' && <Apertura />}
      {turno === 'mia' && fase === 'venta' && bloqueada && (
        <Suspense fallback={null}>
          <Bloqueo />
        </Suspense>
      )}
      {turno === 'mia' && fase === 'venta' && !bloqueada && (
        <Suspense
          fallback={
            <Centro>
              <Spinner />
            </Centro>
          }
        >
          <Venta />
        </Suspense>
      )}
    </Pantalla>
  );
}
