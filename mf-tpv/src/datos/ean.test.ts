import { describe, expect, it } from 'vitest';
import { claveVariable, digitoControl, ean13Valido, eanVariable, leerEanVariable } from './ean';

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
