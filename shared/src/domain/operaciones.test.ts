import { describe, expect, it } from 'vitest';
import { operacionDelCliente, operacionPorDestino } from './operaciones';

describe('operacionPorDestino (issue 25: the EU sale right by default)', () => {
  it('an operator of another member state with its NIF-IVA: E5; without one: none (IVA as in Spain)', () => {
    expect(operacionPorDestino({ pais: 'FR', tipo_id: '02' })?.operacion).toBe('E5');
    expect(operacionPorDestino({ pais: 'DE', tipo_id: '03' })).toBeNull();
  });
  it('outside the EU: E2 (export); Canarias, Ceuta and Melilla from the IVA territory: E2', () => {
    expect(operacionPorDestino({ pais: 'US', tipo_id: '03' })?.operacion).toBe('E2');
    expect(operacionPorDestino({ pais: 'GB', tipo_id: '04' })?.operacion).toBe('E2');
    for (const cp of ['35002', '38001', '51001', '52001']) expect(operacionPorDestino({ codigo_postal: cp })?.operacion).toBe('E2');
    expect(operacionPorDestino({ codigo_postal: '35002' }, 'igic')).toBeNull();
  });
  it('Spain: none; the customer’s own operation always wins', () => {
    expect(operacionPorDestino({ pais: 'ES', codigo_postal: '28020' })).toBeNull();
    expect(operacionPorDestino({ codigo_postal: null })).toBeNull();
    expect(operacionDelCliente({ pais: 'FR', tipo_id: '02', operacion: 'S1' })).toBe('S1');
    expect(operacionDelCliente({ pais: 'FR', tipo_id: '02', operacion: null })).toBe('E5');
    expect(operacionDelCliente({ pais: 'ES', operacion: '' })).toBeNull();
  });
});
