import { useEffect, useState } from 'react';
import { Spinner } from 'shared';
import { Venta } from '../venta/Venta';
import { Apertura, Cajero, Emparejar } from './Acceso';
import type { EstadoCola } from '../datos/cola';
import { useCaja } from './estado';
import { Barra, Boton, Centro, Estado, Pantalla } from './estilos';
import Incidencias from './Incidencias';

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
        <Boton style={{ minHeight: 32, fontSize: 14, background: '#b91c1c', color: '#fff' }} data-testid="incidencias" onClick={() => setVer(true)}>
          {incidencias.length === 1 ? '1 incidencia' : `${incidencias.length} incidencias`}: ver qué hacer
        </Boton>
      )}
      {ver && <Incidencias onCerrar={() => setVer(false)} />}
      {sesion && fase !== 'cargando' && (
        <Boton style={{ minHeight: 32, fontSize: 14 }} onClick={() => void salir()}>
          Salir
        </Boton>
      )}
    </Barra>
  );
}

/** The till, full screen: pairing → cashier → opening the caja → selling. */
export function Caja() {
  const fase = useCaja((s) => s.fase);
  const set = useCaja((s) => s.set);
  useEffect(() => {
    void useCaja.getState().arrancar();
    const on = () => set({ online: true });
    const off = () => set({ online: false });
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, [set]);
  return (
    <Pantalla>
      <BarraEstado />
      {fase === 'cargando' && (
        <Centro>
          <Spinner />
        </Centro>
      )}
      {fase === 'emparejar' && <Emparejar />}
      {fase === 'cajero' && <Cajero />}
      {fase === 'apertura' && <Apertura />}
      {fase === 'venta' && <Venta />}
    </Pantalla>
  );
}
