import { describe, expect, it } from 'vitest';
import { anoAnterior, hoyMadrid, periodoDe, rangoMes, rangoPeriodo } from '../periodo';

describe('period quick choices (Europe/Madrid)', () => {
  // 31 March 2026, 22:30 UTC is already 1 April, 00:30 in Madrid (CEST, UTC+2).
  const abril = new Date('2026-03-31T22:30:00Z');

  it('takes the day from Madrid, not from UTC', () => {
    expect(hoyMadrid(abril)).toBe('2026-04-01');
    expect(hoyMadrid(new Date('2026-03-31T21:59:00Z'))).toBe('2026-03-31');
    // Winter (CET, UTC+1): 31 Dec 23:30 UTC is New Year in Madrid.
    expect(hoyMadrid(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });

  it('computes each choice', () => {
    expect(rangoPeriodo('este-mes', abril)).toEqual({ desde: '2026-04-01', hasta: '2026-04-30' });
    expect(rangoPeriodo('mes-pasado', abril)).toEqual({ desde: '2026-03-01', hasta: '2026-03-31' });
    expect(rangoPeriodo('este-trimestre', abril)).toEqual({ desde: '2026-04-01', hasta: '2026-06-30' });
    expect(rangoPeriodo('trimestre-pasado', abril)).toEqual({ desde: '2026-01-01', hasta: '2026-03-31' });
    expect(rangoPeriodo('este-ano', abril)).toEqual({ desde: '2026-01-01', hasta: '2026-12-31' });
    expect(rangoPeriodo('ano-pasado', abril)).toEqual({ desde: '2025-01-01', hasta: '2025-12-31' });
  });

  it('crosses the year in January and knows leap years', () => {
    const enero = new Date('2028-01-15T10:00:00Z');
    expect(rangoPeriodo('mes-pasado', enero)).toEqual({ desde: '2027-12-01', hasta: '2027-12-31' });
    expect(rangoPeriodo('trimestre-pasado', enero)).toEqual({ desde: '2027-10-01', hasta: '2027-12-31' });
    expect(rangoPeriodo('mes-pasado', new Date('2028-03-10T10:00:00Z'))).toEqual({ desde: '2028-02-01', hasta: '2028-02-29' });
    expect(rangoMes('2026-02')).toEqual({ desde: '2026-02-01', hasta: '2026-02-28' });
    expect(anoAnterior({ desde: '2028-02-01', hasta: '2028-02-29' })).toEqual({ desde: '2027-02-01', hasta: '2027-02-28' });
  });

  it('recognises a range as its quick choice', () => {
    expect(periodoDe({ desde: '2026-04-01', hasta: '2026-06-30' }, abril)).toBe('este-trimestre');
    expect(periodoDe({ desde: '2026-04-02', hasta: '2026-06-30' }, abril)).toBeNull();
  });
});
