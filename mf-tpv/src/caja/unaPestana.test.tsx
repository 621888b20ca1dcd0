import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardar, leer } from '../datos/almacen';
import { IndiceCatalogo } from '../datos/catalogo';
import type { TicketLocal } from '../datos/cola';
import { articuloDePrueba, cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';
import { Caja } from './Caja';
import { useCaja } from './estado';
import { CERROJO, soltarCaja } from './unaPestana';

/**
 * The Web Locks API as Chromium behaves, for one lock: `ifAvailable` answers null while another holder has it;
 * `steal` aborts the holder's request (AbortError) and takes it.
 */
class Cerrojos {
  private abortar: ((e: unknown) => void) | null = null;
  request(_name: string, opts: { ifAvailable?: boolean; steal?: boolean }, cb: (lock: unknown) => unknown) {
    if (opts.ifAvailable && this.abortar) return Promise.resolve(cb(null));
    if (opts.steal && this.abortar) this.abortar(new DOMException('Lock broken by another request with the steal option.', 'AbortError'));
    return new Promise((resolve, reject) => {
      this.abortar = reject;
      void Promise.resolve(cb({ name: _name })).then((v) => {
        this.abortar = null;
        resolve(v);
      });
    });
  }
}

const TERMINAL = terminalDePrueba({ cajeros: [{ id: 1, nombre: 'Ana', con_pin: 1 }] });
const ARTICULOS = [
  articuloDePrueba(1, { codigo: 'CAF', nombre: 'Café', precio: 27500 }),
  articuloDePrueba(2, { codigo: 'PAN', nombre: 'Pan', precio: 49500, tipo_iva: '4' }),
];

let subidos: { uuid: string; total: number; lineas: unknown[] }[] = [];
function servidor(url: string, init?: RequestInit): Response {
  const ac = new URL(url, 'http://x').searchParams.get('ac');
  if (ac === 'terminaltpv') return respuestaOk([TERMINAL]);
  if (ac === 'subirtickets') {
    const body = JSON.parse(String(init?.body));
    return respuestaOk(
      body.tickets.map((t: { uuid: string; total: number; lineas: unknown[] }) => {
        subidos.push(t);
        const n = subidos.length;
        return { uuid: t.uuid, id: n, numero: `T1 2026/${String(n).padStart(6, '0')}`, total: t.total, cambio: 0, huella: 'A'.repeat(64), xml: '<x/>', qr_url: 'https://www2.agenciatributaria.gob.es/x', fecha_hora_huso: '2026-11-26T10:00:00+01:00', offline: 0, repetido: 0 };
      }),
    );
  }
  return sinRespuesta(ac);
}

let cerrojos: Cerrojos;
beforeEach(() => {
  subidos = [];
  cerrojos = new Cerrojos();
});
cajaDePrueba(servidor, () => ({ terminal: TERMINAL, indice: new IndiceCatalogo(ARTICULOS) }));
beforeEach(() => {
  // This browser's locks (happy-dom has its own, a getter on the prototype): shadowed on the instance.
  Object.defineProperty(navigator, 'locks', { value: cerrojos, configurable: true });
});
afterEach(() => {
  soltarCaja();
  delete (navigator as { locks?: unknown }).locks;
});

describe('una sola pestaña vende', () => {
  it('una segunda pestaña no vende: lo dice y puede quedarse con la caja; la primera deja de vender al momento', async () => {
    // The other tab has the till.
    void cerrojos.request(CERROJO, {}, () => new Promise(() => undefined)).catch(() => undefined);
    const user = userEvent.setup();
    renderWithShell(<Caja />);
    expect(await screen.findByRole('heading', { name: 'La caja ya está abierta en otra pestaña' })).toBeTruthy();
    expect(screen.queryByLabelText('Escanear o buscar artículo')).toBeNull();
    expect(screen.queryByText(/¿quién vende\?/)).toBeNull();

    // Taken here: this tab starts (the cashier's screen of the paired terminal).
    await user.click(screen.getByRole('button', { name: 'Usar la caja en esta pestaña' }));
    expect(await screen.findByRole('heading', { name: 'Caja 1: ¿quién vende?' })).toBeTruthy();

    // Another tab takes it back: this one stops selling and says why.
    void cerrojos.request(CERROJO, { steal: true }, () => new Promise(() => undefined));
    expect(await screen.findByRole('heading', { name: 'La caja se ha abierto en otra pestaña' })).toBeTruthy();
    expect(screen.queryByText(/¿quién vende\?/)).toBeNull();
  });

  it('un cobro nunca reutiliza el uuid de un ticket ya cobrado con otras líneas', async () => {
    // This tab's ticket in progress: a coffee, with the uuid it would be paid with.
    useCaja.getState().añadir({ articulo: ARTICULOS[0], cantidad: 1000 });
    const enCurso = await waitFor(async () => {
      const t = await leer<{ uuid: string; lineas: unknown[] }>('estado', 'ticket');
      expect(t?.lineas).toHaveLength(1);
      return t!;
    });
    // Another tab (before the lock, or a page that died after paying) charged that very uuid: 2,75 €.
    const pagado: TicketLocal = {
      uuid: enCurso.uuid, seq: 1, terminal_id: TERMINAL.id, fecha_hora: '2026-11-26T10:00:00+01:00', lineas: [], pagos: [{ forma: 'efectivo', importe: 275 }],
      total: 275, cambio: 0, estado: 'subido', numero: 'T1 2026/000001',
    } as TicketLocal;
    await guardar('tickets', [pagado]);

    // This tab adds a loaf and charges 7,70 €: a ticket of its own, with both lines, never the paid one's answer.
    useCaja.getState().añadir({ articulo: ARTICULOS[1], cantidad: 1000 });
    const t = await useCaja.getState().cobrar([{ forma: 'efectivo', importe: 770 }]);
    expect(t.uuid).not.toBe(enCurso.uuid);
    expect(t.total).toBe(770);
    expect(subidos.map((s) => [s.uuid === enCurso.uuid, s.lineas.length])).toEqual([[false, 2]]);
  });
});
