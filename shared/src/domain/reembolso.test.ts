import { describe, expect, it } from 'vitest';
import { reembolsoComoSePago } from './tpv';

describe('a refund «como se pagó» (issue 23)', () => {
  it('split in the proportion each method took, exactly, to the cent', () => {
    // 30 € card + 20 € cash for a 50 € ticket; 10 € returned: 6 by card, 4 in cash.
    expect(reembolsoComoSePago([{ forma: 'tarjeta', importe: 3_000 }, { forma: 'efectivo', importe: 2_000 }], 1_000)).toEqual([
      { forma: 'tarjeta', importe: 600 },
      { forma: 'efectivo', importe: 400 },
    ]);
    // Three ways, 1,00 € returned of 3 equal shares: 34 + 33 + 33 (the first takes the odd cent).
    const tres = reembolsoComoSePago([{ forma: 'efectivo', importe: 100 }, { forma: 'tarjeta', importe: 100 }, { forma: 'bizum', importe: 100 }], 100);
    expect(tres).toEqual([{ forma: 'efectivo', importe: 34 }, { forma: 'tarjeta', importe: 33 }, { forma: 'bizum', importe: 33 }]);
    // The largest remainder takes the cent: 2,99 of (1,00 cash + 2,00 card) → 0,9966… / 1,9933…
    expect(reembolsoComoSePago([{ forma: 'efectivo', importe: 100 }, { forma: 'tarjeta', importe: 200 }], 299)).toEqual([
      { forma: 'efectivo', importe: 100 },
      { forma: 'tarjeta', importe: 199 },
    ]);
    // One method: all of it; a method that took nothing (cash all given back as change) refunds nothing.
    expect(reembolsoComoSePago([{ forma: 'tarjeta', importe: 484 }], 121)).toEqual([{ forma: 'tarjeta', importe: 121 }]);
    expect(reembolsoComoSePago([{ forma: 'efectivo', importe: 0 }, { forma: 'tarjeta', importe: 500 }], 250)).toEqual([{ forma: 'tarjeta', importe: 250 }]);
    // Always the whole refund.
    for (const r of [1, 7, 99, 12_345]) {
      const x = reembolsoComoSePago([{ forma: 'efectivo', importe: 333 }, { forma: 'tarjeta', importe: 667 }, { forma: 'bizum', importe: 1 }], r);
      expect(x.reduce((s, p) => s + p.importe, 0)).toBe(r);
    }
  });
});
