import { describe, expect, it } from 'vitest';
import { serieLabel } from '../datos';

describe('the serie select', () => {
  it('names the kind once: never «T · Tickets (facturas simplificadas) (simplificada (tickets))»', () => {
    expect(serieLabel({ codigo: 'T', descripcion: 'Tickets (facturas simplificadas)', tipo: 'simplificada', activo: 1 }, true)).toBe('T · Tickets (facturas simplificadas)');
    expect(serieLabel({ codigo: 'A', descripcion: 'Serie general', tipo: 'normal', activo: 1 }, true)).toBe('A · Serie general (normal)');
    expect(serieLabel({ codigo: 'S', descripcion: '', tipo: 'simplificada', activo: 1 }, true)).toBe('S · Simplificada (tickets)');
    expect(serieLabel({ codigo: 'R', descripcion: 'Rectificativas', tipo: 'rectificativa', activo: 0 }, false)).toBe('R · Rectificativas (inactiva)');
  });
});
