import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leer } from '../datos/almacen';
import { IndiceCatalogo } from '../datos/catalogo';
import { articuloDePrueba, cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';
import { Bloqueo, MiPin } from './Bloqueo';
import { recordarPin, reiniciarFallosPin } from './bloqueo';
import { Caja } from './Caja';
import { almacenColaIdb } from '../datos/cola';
import { useCaja } from './estado';
import * as srv from './servidor';
import type { Sesion } from './tipos';

/** Who sells (issue 23): the idle lock, the PIN that opens it (a handover), «Salir» and the cashier's own PIN. */

const ANA = { id: 1, nombre: 'Ana', email: 'ana@tienda.es' };
const LUIS = { id: 2, nombre: 'Luis', email: 'luis@tienda.es' };
const TERMINAL = terminalDePrueba({
  bloqueo_minutos: 1,
  cajeros: [
    { id: 1, nombre: 'Ana', con_pin: 1 },
    { id: 2, nombre: 'Luis', con_pin: 1 },
  ],
});
const PINES: Record<number, string> = { 1: '2468', 2: '1357' };
const sesionDe = (u: typeof ANA): Sesion => ({ user: u, config: null }) as unknown as Sesion;

let sinRed = false;
let llamadas: { ac: string | null; body: Record<string, unknown> | null }[] = [];
function servidor(url: string, init?: RequestInit): Response {
  const ac = new URL(url, 'http://x').searchParams.get('ac');
  const body = init?.body ? JSON.parse(String(init.body)) : null;
  llamadas.push({ ac, body });
  if (sinRed) throw new TypeError('Failed to fetch');
  const json = (o: unknown, status = 200) => new Response(JSON.stringify(o), { status });
  if (ac === 'terminaltpv') return respuestaOk([TERMINAL]);
  if (ac === 'sesion') return json({ RESULT: '0', data: [null], user: ANA });
  if (ac === 'identificartpv') {
    if (PINES[body.usuario_id] !== body.pin) return json({ RESULT: '1', message: 'Usuario o PIN incorrectos.' }, 400);
    return json({ RESULT: '0', data: [null], user: body.usuario_id === 2 ? LUIS : ANA });
  }
  if (ac === 'editarpintpv') {
    if (body.pin_actual !== PINES[1]) return json({ RESULT: '1', message: 'Revise los datos.', errors: { pin_actual: 'El PIN actual no es correcto.' } }, 400);
    return respuestaOk([{ usuario_id: 1, con_pin: 1 }]);
  }
  if (ac === 'cerrarsesion') return respuestaOk([]);
  return sinRespuesta(ac);
}

beforeEach(() => {
  sinRed = false;
  llamadas = [];
  reiniciarFallosPin();
});
cajaDePrueba(servidor, () => ({ terminal: TERMINAL, sesion: sesionDe(ANA), bloqueada: false, indice: new IndiceCatalogo([articuloDePrueba(1, { nombre: 'Café', precio: 27500 })]) }));
afterEach(() => {
  vi.useRealTimers();
});

describe('bloqueo por inactividad (issue 23)', () => {
  it('sin usarla el tiempo del terminal, la caja se bloquea y nada de la venta se ve; el PIN de otro cajero la abre y sigue vendiendo en la misma caja', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    renderWithShell(<Caja />);
    expect(await screen.findByLabelText('Escanear o buscar artículo', {}, { timeout: 5000 })).toBeTruthy();
    act(() => useCaja.getState().añadir({ articulo: articuloDePrueba(1, { nombre: 'Café', precio: 27500 }), cantidad: 1000 }));
    // 59 s without use: still selling. A key resets the count.
    act(() => vi.advanceTimersByTime(59_000));
    expect(screen.queryByTestId('caja-bloqueada')).toBeNull();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.queryByTestId('caja-bloqueada')).toBeNull();
    act(() => vi.advanceTimersByTime(31_000));
    expect(await screen.findByRole('heading', { name: 'Caja bloqueada' })).toBeTruthy();
    expect(screen.queryByLabelText('Escanear o buscar artículo')).toBeNull();
    expect(screen.getByText(/Sin usar 1 minuto\. Ana sigue con la caja abierta/)).toBeTruthy();
    // A reload keeps it locked.
    await waitFor(async () => expect(await leer('estado', 'bloqueada')).toBe(true));

    const user = userEvent.setup();
    // The wrong PIN: said, still locked.
    await user.click(screen.getByRole('radio', { name: 'Luis' }));
    await user.type(screen.getByLabelText('PIN'), '9999');
    await user.click(screen.getByRole('button', { name: 'Desbloquear' }));
    expect(await screen.findByText('Usuario o PIN incorrectos.')).toBeTruthy();
    expect(screen.getByTestId('caja-bloqueada')).toBeTruthy();
    // Luis's PIN: he takes over the open caja; the ticket in progress is still there.
    await user.type(screen.getByLabelText('PIN'), '1357');
    await user.click(screen.getByRole('button', { name: 'Desbloquear' }));
    expect(await screen.findByLabelText('Escanear o buscar artículo', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/Caja 1 · Luis/)).toBeTruthy();
    expect(useCaja.getState().lineas).toHaveLength(1);
    expect(await leer('estado', 'bloqueada')).toBe(false);
    // Nothing closed the caja.
    expect(llamadas.some((l) => l.ac === 'editarcierretpv' || l.ac === 'cerrarsesion')).toBe(false);
  });

  it('con 0 minutos no se bloquea nunca', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    useCaja.setState({ terminal: { ...TERMINAL, bloqueo_minutos: 0 } });
    const t0 = { ...TERMINAL, bloqueo_minutos: 0 };
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => (new URL(url, 'http://x').searchParams.get('ac') === 'terminaltpv' ? respuestaOk([t0]) : servidor(url, init))));
    renderWithShell(<Caja />);
    expect(await screen.findByLabelText('Escanear o buscar artículo', {}, { timeout: 5000 })).toBeTruthy();
    act(() => vi.advanceTimersByTime(8 * 60 * 60_000));
    expect(screen.queryByTestId('caja-bloqueada')).toBeNull();
  });

  it('sin conexión solo la cajera que la dejó la desbloquea, con el PIN que este equipo guardó al entrar', async () => {
    await recordarPin(1, '2468');
    useCaja.setState({ bloqueada: true });
    sinRed = true;
    const user = userEvent.setup();
    renderWithShell(<Bloqueo />);
    await user.click(screen.getByRole('radio', { name: 'Luis' }));
    await user.type(screen.getByLabelText('PIN'), '1357');
    await user.click(screen.getByRole('button', { name: 'Desbloquear' }));
    expect(await screen.findByText(/Sin conexión solo Ana puede desbloquear la caja/)).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Ana' }));
    await user.type(screen.getByLabelText('PIN'), '1111');
    await user.click(screen.getByRole('button', { name: 'Desbloquear' }));
    expect(await screen.findByText('Usuario o PIN incorrectos.')).toBeTruthy();
    expect(useCaja.getState().bloqueada).toBe(true);
    await user.type(screen.getByLabelText('PIN'), '2468');
    await user.click(screen.getByRole('button', { name: 'Desbloquear' }));
    await waitFor(() => expect(useCaja.getState().bloqueada).toBe(false));
    expect(useCaja.getState().sesion?.user.nombre).toBe('Ana');
  });
});

describe('«Salir» y el PIN propio (issue 23)', () => {
  it('«Salir» pasa al siguiente cajero sin cerrar la caja: el ticket en curso queda aparcado y la pantalla dice que la caja sigue abierta', async () => {
    renderWithShell(<Caja />);
    expect(await screen.findByLabelText('Escanear o buscar artículo', {}, { timeout: 5000 })).toBeTruthy();
    act(() => useCaja.getState().añadir({ articulo: articuloDePrueba(1, { nombre: 'Café', precio: 27500 }), cantidad: 1000 }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Salir' }));
    expect(await screen.findByRole('heading', { name: 'Caja 1: ¿quién vende?' })).toBeTruthy();
    expect(screen.getByTestId('caja-sigue-abierta').textContent).toMatch(/La caja sigue abierta \(la abrió Ana\)/);
    expect(useCaja.getState().aparcados.map((a) => a.total)).toEqual([275]);
    expect(llamadas.map((l) => l.ac)).toContain('cerrarsesion');
    expect(llamadas.map((l) => l.ac)).not.toContain('editarcierretpv');
  });

  it('la cajera cambia su PIN sabiendo el actual; dos PIN nuevos distintos no se envían', async () => {
    const user = userEvent.setup();
    renderWithShell(<MiPin onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText('PIN actual'), '2468');
    await user.type(screen.getByLabelText(/^PIN nuevo/), '8642');
    await user.type(screen.getByLabelText('Repetir el PIN nuevo'), '8641');
    await user.click(screen.getByRole('button', { name: 'Cambiar PIN' }));
    expect(await screen.findByText('Los dos PIN nuevos no coinciden.')).toBeTruthy();
    expect(llamadas.filter((l) => l.ac === 'editarpintpv')).toHaveLength(0);
    await user.clear(screen.getByLabelText('Repetir el PIN nuevo'));
    await user.type(screen.getByLabelText('Repetir el PIN nuevo'), '8642');
    await user.click(screen.getByRole('button', { name: 'Cambiar PIN' }));
    expect(await screen.findByText(/PIN cambiado/)).toBeTruthy();
    expect(llamadas.filter((l) => l.ac === 'editarpintpv').map((l) => l.body)).toEqual([{ pin: '8642', pin_actual: '2468' }]);
  });

  it('un PIN actual equivocado lo dice el servidor y no cambia nada', async () => {
    const user = userEvent.setup();
    renderWithShell(<MiPin onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText('PIN actual'), '0000');
    await user.type(screen.getByLabelText(/^PIN nuevo/), '8642');
    await user.type(screen.getByLabelText('Repetir el PIN nuevo'), '8642');
    await user.click(screen.getByRole('button', { name: 'Cambiar PIN' }));
    expect(await screen.findByText(/El PIN actual no es correcto/)).toBeTruthy();
    expect(screen.queryByText(/PIN cambiado/)).toBeNull();
  });
});

describe('quién vendió un ticket sin conexión (issue 23)', () => {
  it('el ticket guarda el cajero que lo vendió y sube con él, aunque lo suba la sesión de otro', async () => {
    const linea = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      act(() => useCaja.getState().añadir({ articulo: articuloDePrueba(1, { nombre: 'Café', precio: 27500 }), cantidad: 1000 }));
      const t = await useCaja.getState().cobrar([{ forma: 'efectivo', importe: 275 }]);
      expect(t.registro).toBeTruthy();
      expect(t.cajero_id).toBe(1);
    } finally {
      linea.mockRestore();
    }
    const [guardado] = await almacenColaIdb.todos();
    llamadas = [];
    await srv.subirTickets(7, [guardado]).catch(() => undefined);
    const subida = llamadas.find((l) => l.ac === 'subirtickets')?.body as { tickets: { cajero_id?: number; registro?: unknown }[] };
    expect(subida.tickets[0]).toMatchObject({ cajero_id: 1 });
    expect(subida.tickets[0].registro).toBeTruthy();
  });
});

