import { describe, expect, it } from 'vitest';
import { decodeCsvBytes, detectCsvSeparator, parseCsv, toCsv } from './csv';

describe('parseCsv', () => {
  it('reads ; separated text with a BOM and CRLF line ends', () => {
    const p = parseCsv('\uFEFFcodigo;descripcion;precio\r\nA1;Tornillo;1.234,56\r\nA2;Tuerca;0,5\r\n');
    expect(p.separator).toBe(';');
    expect(p.header).toEqual(['codigo', 'descripcion', 'precio']);
    expect(p.rows).toEqual([
      ['A1', 'Tornillo', '1.234,56'],
      ['A2', 'Tuerca', '0,5'],
    ]);
    expect(p.lines).toEqual([2, 3]);
  });

  it('reads , separated text with LF and no BOM, keeping commas inside quotes', () => {
    const p = parseCsv('codigo,precio\nA1,"12,50"\nA2,3.5');
    expect(p.separator).toBe(',');
    expect(p.rows).toEqual([
      ['A1', '12,50'],
      ['A2', '3.5'],
    ]);
  });

  it('handles doubled quotes, separators and line breaks inside quoted cells', () => {
    const p = parseCsv('a;b\n"Tornillo ""M4""";"una; dos"\n"línea 1\nlínea 2";x\nfin;y\n');
    expect(p.rows).toEqual([
      ['Tornillo "M4"', 'una; dos'],
      ['línea 1\nlínea 2', 'x'],
      ['fin', 'y'],
    ]);
    // The quoted break moves the next row's file line.
    expect(p.lines).toEqual([2, 3, 5]);
  });

  it('skips blank lines but keeps rows of empty cells and empty quoted cells', () => {
    const p = parseCsv('a;b\n\n;\n""\n\r\nx;y');
    expect(p.rows).toEqual([['', ''], [''], ['x', 'y']]);
    expect(p.lines).toEqual([3, 4, 6]);
  });

  it('returns nothing for an empty file and a header alone', () => {
    expect(parseCsv('')).toMatchObject({ header: [], rows: [] });
    expect(parseCsv('\uFEFF codigo ; nombre \r\n')).toMatchObject({ header: ['codigo', 'nombre'], rows: [] });
  });

  it('uses the given separator, and detects tabs', () => {
    expect(parseCsv('a,b;c\n1,2;3', ';').rows).toEqual([['1,2', '3']]);
    expect(detectCsvSeparator('a\tb\tc\n1;2')).toBe('\t');
    expect(detectCsvSeparator('"a;b",c,d\n')).toBe(',');
    expect(detectCsvSeparator('a;b,c\n')).toBe(';');
  });

  it('reads back what toCsv writes', () => {
    const rows = [['A;1', 'dice "hola"', 'dos\r\nlíneas'], ['', '3', null]];
    const p = parseCsv(toCsv(['x', 'y', 'z'], rows));
    expect(p.header).toEqual(['x', 'y', 'z']);
    expect(p.rows).toEqual([['A;1', 'dice "hola"', 'dos\r\nlíneas'], ['', '3', '']]);
  });
});

describe('toCsv neutralises formulas', () => {
  it('prefixes a quote to text starting with = + - @, a tab or a carriage return', () => {
    const p = parseCsv(toCsv(['d'], [['=1+1'], ['+34 600'], ['-Tornillo'], ['@SUM(A1)'], ['\tx'], ['\rx'], ['Tornillo =1']]));
    expect(p.rows.map((r) => r[0])).toEqual(["'=1+1", "'+34 600", "'-Tornillo", "'@SUM(A1)", "'\tx", "'\rx", 'Tornillo =1']);
    expect(toCsv(['d'], [['=1+1']])).toBe("\uFEFFd\r\n'=1+1\r\n");
  });

  it('keeps numbers as numbers: JS numbers always, Spanish numeric text in numeric columns', () => {
    expect(toCsv(['n', 'b'], [[-5, -5n]])).toBe('\uFEFFn;b\r\n-5;-5\r\n');
    const rows = [['-1.234,56', '-1.234,56'], ['-8,2562 €', '-21 %'], ['-5', '1234,5']];
    const p = parseCsv(toCsv(['texto', 'numero'], rows, { numeric: [false, true] }));
    expect(p.rows).toEqual([
      ["'-1.234,56", '-1.234,56'],
      ["'-8,2562 €", '-21 %'],
      ["'-5", '1234,5'],
    ]);
  });

  it('still neutralises a formula in a numeric column', () => {
    const p = parseCsv(toCsv(['n'], [['-2+3+cmd|calc!A0'], ['=1+1'], ['-1.2.3,4']], { numeric: [true] }));
    expect(p.rows.map((r) => r[0])).toEqual(["'-2+3+cmd|calc!A0", "'=1+1", "'-1.2.3,4"]);
  });
});

describe('decodeCsvBytes', () => {
  it('reads UTF-8 with and without BOM', () => {
    const utf8 = new TextEncoder().encode('código;descripción\nA1;Camión');
    expect(decodeCsvBytes(utf8)).toBe('código;descripción\nA1;Camión');
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
    expect(parseCsv(decodeCsvBytes(withBom)).header).toEqual(['código', 'descripción']);
  });

  it('falls back to Windows-1252 (a Spanish Excel CSV) when the bytes are not UTF-8', () => {
    // 'código;Año' in Windows-1252: ó = 0xF3, ñ = 0xF1.
    const ansi = new Uint8Array([0x63, 0xf3, 0x64, 0x69, 0x67, 0x6f, 0x3b, 0x41, 0xf1, 0x6f]);
    expect(decodeCsvBytes(ansi)).toBe('código;Año');
  });
});
