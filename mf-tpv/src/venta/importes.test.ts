import { describe, expect, it } from 'vitest';
import { cobradoPorForma, estadoCobro, importeLinea, totalArqueo, totalesTicket } from './importes';

describe('importes del ticket (IVA incluido)', () => {
  it('cada línea: cantidad × precio − descuento, al céntimo', () => {
    expect(importeLinea({ cantidad: 3000, precio: 19900, descuento: 0, tipo_iva: '21' })).toBe(597); // 3 × 1,99
    expect(importeLinea({ cantidad: 1235, precio: 129500, descuento: 0, tipo_iva: '10' })).toBe(1599); // 1,235 kg × 12,95 = 15,99325
    expect(importeLinea({ cantidad: 2000, precio: 100000, descuento: 1000, tipo_iva: '21' })).toBe(1800); // 2 × 10 − 10 %
  });

  it('el desglose suma el total y separa base y cuota por tipo', () => {
    const t = totalesTicket([
      { cantidad: 1000, precio: 1210000, descuento: 0, tipo_iva: '21' },
      { cantidad: 2000, precio: 55000, descuento: 0, tipo_iva: '10' },
      { cantidad: 1000, precio: 10400, descuento: 0, tipo_iva: '4' },
    ]);
    expect(t.total).toBe(12100 + 1100 + 104);
    expect(t.desglose).toEqual([
      { tipo_iva: '21', base: 10000, cuota: 2100, total: 12100 },
      { tipo_iva: '10', base: 1000, cuota: 100, total: 1100 },
      { tipo_iva: '4', base: 100, cuota: 4, total: 104 },
    ]);
    expect(t.base + t.cuota).toBe(t.total);
  });

  it('exacto con muchas líneas de céntimos sueltos', () => {
    const lineas = Array.from({ length: 1000 }, () => ({ cantidad: 1000, precio: 3333, descuento: 0, tipo_iva: '21' as const }));
    expect(totalesTicket(lineas).total).toBe(33330); // 1000 × 0,3333 € = 333,30 €, not 1000 × 0,33
  });
});

describe('cobro y cambio', () => {
  it('efectivo: el cambio', () => {
    expect(estadoCobro(1235, [{ forma: 'efectivo', importe: 2000 }])).toMatchObject({ pendiente: 0, cambio: 765, completo: true });
  });

  it('mixto efectivo + tarjeta', () => {
    const pagos = [{ forma: 'efectivo' as const, importe: 1000 }, { forma: 'tarjeta' as const, importe: 235 }];
    expect(estadoCobro(1235, pagos)).toMatchObject({ pendiente: 0, cambio: 0, completo: true });
    expect(estadoCobro(1235, pagos.slice(0, 1))).toMatchObject({ pendiente: 235, completo: false });
  });

  it('la tarjeta no da cambio', () => {
    expect(estadoCobro(1000, [{ forma: 'tarjeta', importe: 1500 }])).toMatchObject({ completo: false });
    expect(estadoCobro(1000, [{ forma: 'tarjeta', importe: 1500 }]).error).toMatch(/Solo el efectivo/);
  });

  it('lo cobrado por forma descuenta el cambio del efectivo', () => {
    expect(cobradoPorForma(1235, [{ forma: 'tarjeta', importe: 235 }, { forma: 'efectivo', importe: 2000 }])).toEqual([
      { forma: 'tarjeta', importe: 235 },
      { forma: 'efectivo', importe: 1000 },
    ]);
  });

  it('el arqueo por denominaciones', () => {
    expect(totalArqueo({ 5000: 2, 1000: 3, 200: 1, 5: 4 })).toBe(10000 + 3000 + 200 + 20);
  });
});
