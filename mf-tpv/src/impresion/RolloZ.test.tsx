import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { informeZDeCierre, type CierreTpv } from 'shared';
import { RolloZ } from './RolloZ';

const CIERRE: CierreTpv = {
  id: 3, terminal_id: 7, terminal_nombre: 'Caja 1', codigo: 12, caja_id: 41, usuario_id: 2, usuario_nombre: 'Luis', apertura: '2026-11-27T08:00:00Z',
  cierre: '2026-11-27T21:00:00Z', fondo: 10_000, tickets: 3, devoluciones: 1, total: 1_000, formas: [],
  efectivo: { fondo: 10_000, cobrado: 1_000, cambio: 0, devuelto: 0, entradas: 0, salidas: 0, esperado: 11_000, contado: 11_000, diferencia: 0 },
  diferencia: 0, impuestos: [], movimientos: [], denominaciones: null, primer_numero: 'T1 2026/000001', ultimo_numero: 'T1 2026/000003',
  cajeros: [
    { usuario_id: 1, nombre: 'Ana', tickets: 2, devoluciones: 1, total: 650 },
    { usuario_id: 2, nombre: 'Luis', tickets: 1, devoluciones: 0, total: 350 },
  ],
};

describe('el Z en el rollo (issue 23)', () => {
  it('nombra a cada cajero que vendió en la caja, con sus tickets y su total', () => {
    render(<RolloZ z={informeZDeCierre(CIERRE)} empresa={null} />);
    const filas = within(screen.getByTestId('z-cajeros')).getAllByRole('row').map((r) => r.textContent?.replace(/\s/g, ' '));
    expect(filas).toEqual(['Ana (2 + 1 dev.)6,50 €', 'Luis (1)3,50 €']);
  });
});
