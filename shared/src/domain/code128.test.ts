import { describe, expect, it } from 'vitest';
import { barrasCode128, valoresCode128 } from './code128';

/** Reads the bars back into widths and symbols (start … check, stop), as a scanner does, by the symbology's rules. */
function leer(texto: string) {
  const { barras, modulos } = barrasCode128(texto);
  const anchos: number[] = [];
  barras.forEach((b, i) => {
    anchos.push(b.ancho);
    const siguiente = barras[i + 1];
    if (siguiente) anchos.push(siguiente.x - b.x - b.ancho);
  });
  return { anchos, modulos };
}

describe('Code 128', () => {
  it('B for text, C for runs of four digits or more; the check symbol is the weighted sum mod 103', () => {
    // «T 2026/000123»: Start B, «T», « », to C, 20 26, to B, «/», to C, 00 01 23, check.
    const v = valoresCode128('T 2026/000123');
    expect(v.slice(0, -1)).toEqual([104, 52, 0, 99, 20, 26, 100, 15, 99, 0, 1, 23]);
    const suma = v.slice(0, -1).reduce((s, x, i) => s + (i === 0 ? x : i * x), 0);
    expect(v.at(-1)).toBe(suma % 103);
    // Only digits, even: Start C.
    expect(valoresCode128('123456').slice(0, -1)).toEqual([105, 12, 34, 56]);
    // An odd run: its first digit in B.
    expect(valoresCode128('T12345').slice(0, -1)).toEqual([104, 52, 17, 99, 23, 45]);
    // A short run stays in B.
    expect(valoresCode128('A12').slice(0, -1)).toEqual([104, 33, 17, 18]);
    // «PJJ123C» (all B): 104 + 48 + 2·42 + 3·42 + 4·17 + 5·18 + 6·19 + 7·35 = 879 ≡ 55 (mod 103).
    expect(valoresCode128('PJJ123C')).toEqual([104, 48, 42, 42, 17, 18, 19, 35, 55]);
  });

  it('every symbol is 11 modules with even bars, the stop 13: the symbol is as wide as its count says', () => {
    for (const texto of ['T 2026/000123', '123456', 'Hola, caja 7!']) {
      const { anchos, modulos } = leer(texto);
      const n = valoresCode128(texto).length;
      expect(modulos).toBe(n * 11 + 13);
      expect(anchos.length).toBe(n * 6 + 7);
      for (let i = 0; i < n; i++) {
        const s = anchos.slice(i * 6, i * 6 + 6);
        expect(s.reduce((a, b) => a + b, 0)).toBe(11);
        expect((s[0] + s[2] + s[4]) % 2).toBe(0);
      }
      expect(anchos.slice(n * 6)).toEqual([2, 3, 3, 1, 1, 1, 2]);
    }
  });

  it('refuses what it cannot carry', () => {
    expect(() => valoresCode128('')).toThrow();
    expect(() => valoresCode128('Año')).toThrow(/ASCII/);
  });
});
