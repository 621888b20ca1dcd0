import { describe, expect, it } from 'vitest';
import type { TicketLocal } from '../datos/cola';
import { cajaDePrueba, terminalDePrueba } from '../pruebas';
import { crearRegistroDevolucion, crearRegistroOffline, guardarNumeroR } from './registro';

/**
 * Issue 22: a till paired while the company was the demo keeps its chain's end and numbering in its own storage;
 * once «Empezar con mis datos» ran, the terminal it reads says so (`inicio`) and what the till kept is not its chain
 * any more: the next record is number 1, the chain's first (PrimerRegistro S), with no step by hand.
 */
cajaDePrueba(() => new Response('{}'), () => ({}));

let n = 0;
const ticket = (): TicketLocal => ({
  uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  seq: n,
  terminal_id: 7,
  fecha_hora: '2026-11-26T10:00:00+01:00',
  lineas: [{ articulo_id: 1, cantidad: 1000, precio: 12100, descuento: 0, codigo: 'A1', nombre: 'Uno', tipo_iva: '21' }],
  pagos: [{ forma: 'efectivo', importe: 121 }],
  total: 121,
  cambio: 0,
  estado: 'pendiente',
});

describe('después de «Empezar con mis datos»', () => {
  it('la caja empieza su cadena y su numeración de nuevo, sin volver a emparejarla', async () => {
    // During the demo: the server said ticket 41 was the last, chained; the till went on offline to 43.
    const demo = terminalDePrueba({ ultimo: { ejercicio: 2026, numero: 41 }, cadena: { huella: 'A'.repeat(64), num_serie: 'T1 2026/000041', fecha_expedicion: '26-11-2026', fecha_hora_huso: '2026-11-26T09:00:00+01:00' }, inicio: null });
    expect((await crearRegistroOffline(demo, ticket())).registro.num_serie).toBe('T1 2026/000042');
    const b = await crearRegistroOffline(demo, ticket());
    expect(b.registro.num_serie).toBe('T1 2026/000043');
    expect(b.registro.xml).not.toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
    await guardarNumeroR('TR1 2026/000005', demo);

    // Live: the server's terminal has no last number, no chain, and the start's instant.
    const vivo = terminalDePrueba({ ultimo: { ejercicio: 2026, numero: 0 }, ultimo_rectificativa: { ejercicio: 2026, numero: 0 }, cadena: null, inicio: '2026-11-29T05:00:00.000Z' });
    const primero = await crearRegistroOffline(vivo, ticket());
    expect(primero.registro.num_serie).toBe('T1 2026/000001');
    expect(primero.registro.huella_anterior).toBe('');
    expect(primero.registro.xml).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
    // …and from there on, its own chain.
    const segundo = await crearRegistroOffline(vivo, ticket());
    expect(segundo.registro.num_serie).toBe('T1 2026/000002');
    expect(segundo.registro.huella_anterior).toBe(primero.registro.huella);

    // A return made offline: the rectificativa serie starts at 1 too, chained after the live tickets.
    const t = ticket();
    const dev = await crearRegistroDevolucion(vivo, {
      ...t,
      clase: 'devolucion',
      devolucion: { ticket_id: null, ticket_uuid: null, numero_ticket: segundo.registro.num_serie, fecha_ticket: '2026-11-26', lineas: t.lineas, pagos: t.pagos },
    });
    expect(dev.registro.num_serie).toBe('TR1 2026/000001');
    expect(dev.registro.huella_anterior).toBe(segundo.registro.huella);
  });
});
