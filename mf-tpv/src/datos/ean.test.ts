import { describe, expect, it } from 'vitest';
import { cantidadDeImporte, claveVariable, digitoControl, ean13Valido, eanVariable, leerEanVariable } from './ean';

describe('EAN-13 de peso y precio', () => {
  it('calcula y comprueba el dígito de control', () => {
    expect(digitoControl('400638133393')).toBe(1);
    expect(ean13Valido('4006381333931')).toBe(true);
    expect(ean13Valido('4006381333932')).toBe(false);
    expect(ean13Valido('841234567890')).toBe(false);
  });

  it('un prefijo de peso da los gramos: 1,235 kg', () => {
    const code = eanVariable('2100123', 1235);
    expect(code).toHaveLength(13);
    expect(leerEanVariable(code)).toEqual({ clave: '2100123', prefijo: '21', plu: '00123', tipo: 'peso', valor: 1235 });
  });

  it('un prefijo de precio da los céntimos: 4,99 €', () => {
    expect(leerEanVariable(eanVariable('2700042', 499))).toMatchObject({ tipo: 'precio', valor: 499, plu: '00042' });
  });

  it('rechaza otros prefijos, longitudes y un dígito de control mal leído', () => {
    expect(leerEanVariable('4006381333931')).toBeNull();
    expect(leerEanVariable('210012301235')).toBeNull();
    const code = eanVariable('2100123', 1235);
    const malo = code.slice(0, 12) + ((Number(code[12]) + 1) % 10);
    expect(leerEanVariable(malo)).toBeNull();
  });

  it('la configuración de la tienda decide qué prefijo lleva qué', () => {
    expect(leerEanVariable(eanVariable('2000001', 250), { '20': 'precio' })).toMatchObject({ tipo: 'precio', valor: 250 });
    expect(leerEanVariable(eanVariable('2100001', 250), { '20': 'precio' })).toBeNull();
  });

  it('la clave del artículo sale de su código de barras de 7 o 13 cifras', () => {
    expect(claveVariable('2100123')).toBe('2100123');
    expect(claveVariable(eanVariable('2100123', 0))).toBe('2100123');
    expect(claveVariable('4006381333931')).toBeNull();
    expect(claveVariable(null)).toBeNull();
  });
});

describe('etiqueta de precio → cantidad al precio del artículo', () => {
  it('encuentra el peso cuyo importe es exactamente el impreso', () => {
    // 0,385 kg × 12,95 €/kg = 4,98575 → 4,99 €.
    const c = cantidadDeImporte(499, 129500)!;
    expect(Math.round((c * 129500) / 100_000)).toBe(499);
    expect(c).toBeGreaterThan(380);
    expect(c).toBeLessThan(390);
    // Units: 3 × 2,00 € = 6,00 €.
    expect(cantidadDeImporte(600, 20000)).toBe(3000);
  });
  it('sin precio o sin cantidad exacta, nada', () => {
    expect(cantidadDeImporte(499, 0)).toBeNull();
    // A 1.000 €/kg article: every gram is 1 €, so 0,50 € has no gram.
    expect(cantidadDeImporte(50, 10_000_000)).toBeNull();
  });
});
