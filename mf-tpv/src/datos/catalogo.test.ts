import { describe, expect, it } from 'vitest';
import { IndiceCatalogo, normalizar } from './catalogo';
import { eanVariable } from './ean';
import { articuloDePrueba } from '../pruebas';

const art = articuloDePrueba;

describe('índice del catálogo', () => {
  const cafe = art(1, { codigo: 'CAF-01', descripcion: 'Café molido natural', nombre: 'Café', codigo_barras: '4006381333931' });
  const jamon = art(2, { codigo: 'JAM', descripcion: 'Jamón cocido al corte', codigo_barras: '2100123', precio: 129500, tipo_iva: '10' });
  const queso = art(3, { codigo: 'QUE', descripcion: 'Queso tierno', codigo_barras: eanVariable('2700042', 0) });
  const indice = new IndiceCatalogo([cafe, jamon, queso]);

  it('busca sin acentos ni mayúsculas por nombre, código y código de barras', () => {
    expect(normalizar('CAFÉ Jamón')).toBe('cafe jamon');
    expect(indice.buscar('cafe').map((a) => a.id)).toEqual([1]);
    expect(indice.buscar('JAMON corte').map((a) => a.id)).toEqual([2]);
    expect(indice.buscar('caf-01').map((a) => a.id)).toEqual([1]);
    expect(indice.buscar('33393').map((a) => a.id)).toEqual([1]);
    expect(indice.buscar('')).toEqual([]);
  });

  it('un escaneo lee el código de barras exacto o el código', () => {
    expect(indice.leer('4006381333931')).toEqual({ articulo: cafe, cantidad: 1000 });
    expect(indice.leer('caf-01')).toEqual({ articulo: cafe, cantidad: 1000 });
    expect(indice.leer('9999')).toBeNull();
  });

  it('una etiqueta de peso da la cantidad y una de precio el importe', () => {
    expect(indice.leer(eanVariable('2100123', 1235))).toEqual({ articulo: jamon, cantidad: 1235 });
    // Queso at 1,00 €: 4,99 € is 4,99 units at its own price.
    expect(indice.leer(eanVariable('2700042', 499))).toEqual({ articulo: queso, cantidad: 4990 });
  });

  it('100.000 artículos: un escaneo y una búsqueda en milisegundos', () => {
    const muchos = Array.from({ length: 100_000 }, (_, i) => art(i + 10, { codigo_barras: String(8400000000000 + i), descripcion: `Producto número ${i} de prueba` }));
    const grande = new IndiceCatalogo(muchos);
    expect(grande.leer('8400000099999')?.articulo.id).toBe(100_009);
    expect(grande.buscar('numero 99999 prueba').map((a) => a.id)).toEqual([99_999, 100_009]); // A99999 by its code
  });
});
