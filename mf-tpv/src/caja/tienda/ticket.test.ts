import { beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { guardar, guardarClave, leer, vaciar } from '../../datos/almacen';
import type { TicketLocal } from '../../datos/cola';
import { articuloDePrueba, cajaDePrueba, terminalDePrueba } from '../../pruebas';
import { useCaja } from '../estado';
import { restaurarTicket, uuidDelTicket } from './ticket';

/** The ticket in progress and parking (caja/tienda/ticket.ts): what the cashier sees on the sale's screen. */
const CAFE = articuloDePrueba(1, { nombre: 'Café', precio: 12100 });
const PAN = articuloDePrueba(2, { nombre: 'Pan', precio: 11000, tipo_iva: '4' });

cajaDePrueba(() => new Response('{}'), () => ({ terminal: terminalDePrueba() }));
beforeEach(() => vaciar('aparcados'));

const caja = () => useCaja.getState();
const reinicio = () => restaurarTicket(useCaja.setState, useCaja.getState);

describe('el ticket en curso', () => {
  it('el mismo artículo escaneado otra vez suma una unidad a su línea; otro artículo, un peso o un precio de etiqueta, otra línea', () => {
    caja().añadirArticulo(CAFE);
    caja().añadirArticulo(CAFE);
    expect(caja().lineas.map((l) => [l.nombre, l.cantidad])).toEqual([['Café', 2000]]);
    caja().añadirArticulo(PAN);
    caja().añadir({ articulo: PAN, cantidad: 1000, importe: 250 });
    caja().añadir({ articulo: PAN, cantidad: 1500 });
    expect(caja().lineas.map((l) => [l.nombre, l.cantidad, l.precio])).toEqual([
      ['Café', 2000, 12100],
      ['Pan', 1000, 11000],
      ['Pan', 1000, 25000],
      ['Pan', 1500, 11000],
    ]);
    expect(caja().seleccion).toBe(3);
    caja().cambiarLinea(0, { cantidad: 3000 });
    caja().quitarLinea(3);
    expect(caja().lineas.map((l) => l.cantidad)).toEqual([3000, 1000, 1000]);
    expect(caja().seleccion).toBe(2);
    caja().anularTicket();
    expect(caja().lineas).toEqual([]);
  });

  it('aparcar (F8) deja la pantalla libre y el ticket en la lista con su total; recuperarlo con otro en pantalla aparca ese en su lugar', async () => {
    caja().añadirArticulo(CAFE);
    caja().añadirArticulo(CAFE);
    await caja().aparcar();
    expect(caja().lineas).toEqual([]);
    expect(caja().aparcados.map((a) => a.total)).toEqual([242]);
    const primero = caja().aparcados[0].id;
    caja().añadirArticulo(PAN);
    await caja().recuperar(primero);
    expect(caja().lineas.map((l) => [l.nombre, l.cantidad])).toEqual([['Café', 2000]]);
    expect(caja().aparcados.map((a) => a.total)).toEqual([110]);
    // Parked tickets survive a reload too.
    useCaja.setState({ aparcados: [], lineas: [] });
    await reinicio();
    expect(caja().aparcados.map((a) => a.total)).toEqual([110]);
  });

  it('tras una recarga vuelve el ticket que se estaba vendiendo, con el uuid con que se cobrará; uno ya cobrado no vuelve', async () => {
    caja().añadirArticulo(CAFE);
    caja().añadirArticulo(PAN);
    // Every change is written at once, with the uuid it will be paid with.
    await waitFor(async () => expect((await leer<{ uuid: string; lineas: { nombre: string }[] }>('estado', 'ticket'))?.lineas.map((l) => l.nombre)).toEqual(['Café', 'Pan']));
    const guardado = (await leer<{ uuid: string; lineas: unknown[]; seleccion: number | null }>('estado', 'ticket'))!;
    expect(guardado.uuid).toBe(uuidDelTicket());
    // A new page (the old one died): nothing on screen, a new uuid; IndexedDB still has the ticket.
    useCaja.setState({ lineas: [], seleccion: null });
    await waitFor(async () => expect((await leer<{ lineas: unknown[] }>('estado', 'ticket'))?.lineas).toEqual([]));
    await guardarClave('estado', 'ticket', guardado);
    await reinicio();
    expect(caja().lineas.map((l) => l.nombre)).toEqual(['Café', 'Pan']);
    expect(caja().seleccion).toBe(1);
    expect(uuidDelTicket()).toBe(guardado.uuid);
    // Paid meanwhile (its uuid in the queue: another tab charged it): the screen is empty after the reload.
    await guardar('tickets', [{ uuid: guardado.uuid, seq: 1, estado: 'subido' } as TicketLocal]);
    await reinicio();
    expect(caja().lineas).toEqual([]);
  });
});
