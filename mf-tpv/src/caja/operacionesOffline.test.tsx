import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { vaciar } from '../datos/almacen';
import { IndiceCatalogo, type ArticuloTpv } from '../datos/catalogo';
import { almacenColaIdb } from '../datos/cola';
import Cierre from './Cierre';
import { colaDe, reiniciarCola, useCaja } from './estado';
import Movimiento from './Movimiento';
import type { TerminalTpv } from './tipos';

/** Cash movements and the closing without the server (issue 13): queued in order with the tickets, uploaded once. */

const PAN: ArticuloTpv = { id: 3, codigo: 'PAN', nombre: 'Pan', descripcion: 'Pan', codigo_barras: null, precio: 11000, tipo_iva: '4' };
const AÑO = new Date().getFullYear();
const TERMINAL: TerminalTpv = {
  id: 7,
  nombre: 'Caja 1',
  almacen_id: 1,
  serie_id: 3,
  serie_rectificativa_id: 4,
  cliente_id: null,
  emparejado: '2026-11-26T07:00:00Z',
  formas_pago: ['efectivo', 'tarjeta'],
  fondo: 10000,
  activo: 1,
  numero_instalacion: 'B12345678-TPV7',
  serie: { id: 3, codigo: 'T1' },
  serie_rectificativa: { id: 4, codigo: 'TR1' },
  emisor: { nif: 'B12345678', nombre: 'Tienda SL' },
  sistema: { nombre: 'Manager TPV', id: 'MT', version: '0.1.0' },
  zona_horaria: 'Europe/Madrid',
  entorno: 'produccion',
  ultimo: { ejercicio: AÑO, numero: 4 },
  cadena: null,
  caja_abierta: { id: 41, apertura: '2026-11-26T08:00:00Z', fondo: 10000, usuario_nombre: 'Ana' },
  cajeros: [],
};

type Llamada = { ac: string; body: Record<string, unknown> | null };
let red = false;
let llamadas: Llamada[] = [];
/** The server's answer to a movement (null: accepted). */
let rechazoMovimiento: string | null = null;
const movimientosGuardados = new Set<string>();

function servidor(url: string, init?: RequestInit): Response {
  const u = new URL(url, 'http://x');
  const ac = u.searchParams.get('ac') ?? '';
  const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
  llamadas.push({ ac, body });
  const ok = (data: unknown[]) => new Response(JSON.stringify({ RESULT: '0', data }), { status: 200 });
  if (ac === 'subirtickets') {
    const tickets = body!.tickets as { uuid: string; registro: { num_serie: string; huella: string } }[];
    return ok(tickets.map((t) => ({ uuid: t.uuid, id: 1, numero: t.registro.num_serie, total: 110, huella: t.registro.huella, qr_url: 'https://x', offline: 1, repetido: 0 })));
  }
  if (ac === 'movimientocajatpv') {
    if (rechazoMovimiento) return new Response(JSON.stringify({ RESULT: '1', message: rechazoMovimiento }), { status: 400 });
    movimientosGuardados.add(String(body!.uuid));
    return ok([{ id: 9, caja_id: 41, importe: body!.importe, motivo: body!.motivo }]);
  }
  if (ac === 'editarcierretpv') return ok([{ id: 3, codigo: 12, total: 110, caja_id: 41 }]);
  return new Response(JSON.stringify({ RESULT: '1', message: `inesperado ${ac}` }), { status: 400 });
}

beforeEach(async () => {
  red = false;
  llamadas = [];
  rechazoMovimiento = null;
  movimientosGuardados.clear();
  reiniciarCola();
  await vaciar('tickets');
  await vaciar('estado');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (!red) throw new TypeError('Failed to fetch');
      return servidor(url, init);
    }),
  );
  useCaja.setState({ fase: 'venta', terminal: TERMINAL, sesion: null, indice: new IndiceCatalogo([PAN]), lineas: [], operaciones: [] });
});
afterEach(() => {
  reiniciarCola();
  vi.unstubAllGlobals();
});

async function vender() {
  useCaja.getState().añadirArticulo(PAN);
  return useCaja.getState().cobrar([{ forma: 'efectivo', importe: 110 }]);
}

describe('movimientos de caja sin conexión', () => {
  it('la salida se anota en la caja, se ve pendiente de envío y, al volver la red, sube una vez, detrás del ticket anterior', async () => {
    const ticket = await vender();
    const user = userEvent.setup();
    renderWithShell(<Movimiento onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText('Importe (€)'), '20,50');
    await user.type(screen.getByLabelText('Motivo'), 'Retirada a caja fuerte');
    await user.click(screen.getByRole('button', { name: 'Anotar' }));
    expect(await screen.findByText(/Salida de 20,50\s€ anotada sin conexión: pendiente de envío/)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('table', { name: 'Movimientos pendientes de envío' }).textContent).toContain('Retirada a caja fuerte'));
    expect(screen.getByRole('table', { name: 'Movimientos pendientes de envío' }).textContent).toContain('Pendiente de envío');

    const cola = colaDe(TERMINAL, () => undefined);
    const pend = await cola.pendientes();
    expect(pend.map((t) => t.clase ?? 'ticket')).toEqual(['ticket', 'movimiento']);
    expect(pend[1].movimiento).toEqual({ importe: -2050, motivo: 'Retirada a caja fuerte', caja_id: 41 });

    red = true;
    await cola.vaciar();
    // In order: the ticket, then the movement, marked as made offline in caja 41 at the till's instant.
    expect(llamadas.map((l) => l.ac)).toEqual(['subirtickets', 'movimientocajatpv']);
    expect((llamadas[0].body!.tickets as { uuid: string }[])[0].uuid).toBe(ticket.uuid);
    expect(llamadas[1].body).toMatchObject({ terminal_id: 7, importe: -2050, motivo: 'Retirada a caja fuerte', uuid: pend[1].uuid, caja_id: 41, offline: 1, fecha_hora: pend[1].fecha_hora });
    expect((await almacenColaIdb.todos()).every((t) => t.estado === 'subido')).toBe(true);
    await waitFor(() => expect(useCaja.getState().operaciones).toEqual([]));
    // Again: nothing more goes.
    await cola.vaciar();
    expect(llamadas).toHaveLength(2);
  });

  it('si el servidor lo rechaza al subir, queda como incidencia (no se pierde) y lo que va detrás sigue subiendo', async () => {
    await useCaja.getState().anotarMovimiento(5000, 'Cambio del banco', crypto.randomUUID());
    const despues = await vender();
    red = true;
    rechazoMovimiento = 'La caja en la que se hizo el movimiento ya está cerrada: anótelo en la caja abierta o como corrección del cierre.';
    await colaDe(TERMINAL, () => undefined).vaciar();
    const todos = await almacenColaIdb.todos();
    const mov = todos.find((t) => t.clase === 'movimiento')!;
    expect(mov).toMatchObject({ estado: 'incidencia', incidencia: rechazoMovimiento, movimiento: { importe: 5000, motivo: 'Cambio del banco' } });
    expect(todos.find((t) => t.uuid === despues.uuid)!.estado).toBe('subido');
    await waitFor(() => expect(useCaja.getState().operaciones.map((o) => o.estado)).toEqual(['incidencia']));
  });

  it('con conexión, el movimiento va directo y un rechazo se dice al momento (nada queda en cola)', async () => {
    red = true;
    rechazoMovimiento = 'No hay tanto efectivo en el cajón (100,00 €).';
    await expect(useCaja.getState().anotarMovimiento(-1_000_000, 'Demasiado', crypto.randomUUID())).rejects.toThrow('No hay tanto efectivo en el cajón (100,00 €).');
    expect(await almacenColaIdb.todos()).toEqual([]);
  });
});

describe('el cierre sin conexión', () => {
  it('se prepara con el arqueo por billetes, la caja queda libre y se envía al volver, después de todo lo que estaba en cola', async () => {
    await vender();
    await useCaja.getState().anotarMovimiento(-1000, 'Proveedor', crypto.randomUUID());
    const user = userEvent.setup();
    renderWithShell(<Cierre onCerrar={() => undefined} />);
    expect(await screen.findByTestId('cierre-sin-conexion')).toBeTruthy();
    await user.type(screen.getByLabelText('Unidades de 20,00 €'), '3');
    await user.type(screen.getByLabelText('Unidades de 0,50 €'), '1');
    expect(screen.getByTestId('arqueo-efectivo').textContent).toMatch(/^60,50\s€$/);
    await user.click(screen.getByRole('button', { name: 'Preparar el cierre' }));
    expect((await screen.findByTestId('cierre-preparado')).textContent).toMatch(/60,50\s€ en efectivo/);
    await user.click(screen.getByRole('button', { name: 'Terminar' }));
    // The cashier is not stuck: the caja is closed here, the next opening waits for the closing to arrive.
    expect(useCaja.getState().fase).toBe('apertura');
    expect(useCaja.getState().terminal?.caja_abierta).toBeNull();

    const cola = colaDe(TERMINAL, () => undefined);
    const pend = await cola.pendientes();
    expect(pend.map((t) => t.clase ?? 'ticket')).toEqual(['ticket', 'movimiento', 'cierre']);
    expect(pend[2].cierre).toEqual({ caja_id: 41, contado: [{ forma: 'efectivo', importe: 6050 }], denominaciones: [{ valor: 2000, cantidad: 3 }, { valor: 50, cantidad: 1 }] });

    red = true;
    await cola.vaciar();
    expect(llamadas.map((l) => l.ac)).toEqual(['subirtickets', 'movimientocajatpv', 'editarcierretpv']);
    expect(llamadas[2].body).toMatchObject({ terminal_id: 7, caja_id: 41, contado: [{ forma: 'efectivo', importe: 6050 }], fecha_hora: pend[2].fecha_hora });
    const cierre = (await almacenColaIdb.todos()).find((t) => t.clase === 'cierre')!;
    expect(cierre).toMatchObject({ estado: 'subido', respuesta: { codigo: 12, numero: 'Cierre nº 12' } });
  });
});
