import { describe, expect, it } from 'vitest';
import { erroresPorLinea, lineaDesdeArticulo, lineaDesdeDocumento, lineasAInput, lineasReducer, parsearPegado, totalesLineas, validarLineas } from '../lineas';
import { ARTICULOS } from './fixtures';

const tres = () => ARTICULOS.slice(0, 3).map((a) => lineaDesdeArticulo(a, 'coste'));

describe('lines model', () => {
  it('a change replaces only its line: the other rows keep their object (and do not redraw)', () => {
    const before = tres();
    const after = lineasReducer(before, { type: 'update', key: before[1].key, patch: { cantidad: 5000n } });
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1].cantidad).toBe(5000n);
  });

  it('recuento adds a scan of the same article and location to its line', () => {
    const [a] = tres();
    let s = lineasReducer([], { type: 'add', lineas: [a], sumar: true });
    s = lineasReducer(s, { type: 'add', lineas: [lineaDesdeArticulo(ARTICULOS[0], 'recuento')], sumar: true });
    s = lineasReducer(s, { type: 'add', lineas: [lineaDesdeArticulo(ARTICULOS[0], 'recuento', { ubicacion_id: 4 })], sumar: true });
    expect(s.map((l) => [l.articulo_id, l.ubicacion_id, l.cantidad])).toEqual([
      [1, null, 2000n],
      [1, 4, 1000n],
    ]);
  });

  it('parses pasted rows: tab or ;, es-ES decimals, quantity 1 by default, a header row skipped', () => {
    expect(parsearPegado('Código;Cantidad\r\nA-1;2,5\nB-2\t1.000\nC-3\n\n"D-4";x')).toEqual([
      { fila: 2, codigo: 'A-1', cantidad: 2500n },
      { fila: 3, codigo: 'B-2', cantidad: 1000n },
      { fila: 4, codigo: 'C-3', cantidad: 1000n },
      { fila: 6, codigo: 'D-4', cantidad: null },
    ]);
  });

  it('checks, sends and maps errors by line index', () => {
    const ls = tres();
    ls[1] = { ...ls[1], cantidad: '2,x' };
    expect(validarLineas(ls, 'coste')).toEqual({ 'lineas.1.cantidad': 'La cantidad debe ser un número mayor que cero' });
    expect(validarLineas([{ ...ls[0], cantidad: 0n }], 'recuento')).toEqual({});
    expect(validarLineas([ls[0]], 'perdida')).toEqual({ 'lineas.0.motivo': 'Indique el motivo de la pérdida' });
    // Invoices take negative lines (returned units, a rectificativa by differences), never zero.
    const venta = lineaDesdeArticulo(ARTICULOS[0], 'venta');
    expect(validarLineas([{ ...venta, cantidad: -2000n }], 'venta')).toEqual({ 'lineas.0.cantidad': 'La cantidad debe ser un número mayor que cero' });
    expect(validarLineas([{ ...venta, cantidad: -2000n }], 'venta', { negativas: true })).toEqual({});
    expect(validarLineas([{ ...venta, cantidad: 0n }], 'venta', { negativas: true })).toEqual({ 'lineas.0.cantidad': 'La cantidad debe ser un número distinto de cero' });
    expect(lineasAInput([ls[0]], 'coste')).toEqual([{ articulo_id: 1, cantidad: 1000, ubicacion_id: null }]);
    expect(lineasAInput([ls[0]], 'venta')[0]).toMatchObject({ precio: 1250, descuento: 0 });
    const { general, porLinea } = erroresPorLinea({ lineas: 'Añada al menos una línea', 'lineas.3.articulo_id': 'No existe', fecha: 'x' });
    expect(general).toBe('Añada al menos una línea');
    expect(porLinea.get(3)).toEqual({ articulo_id: 'No existe' });
  });

  it('warehouse totals are the value at cost, without IVA; exact for 200 lines', () => {
    const many = Array.from({ length: 200 }, () => lineaDesdeArticulo(ARTICULOS[0], 'coste', { cantidad: 333n }));
    // 200 × 0,333 × 0,125 € = 8,325 € → 8,33 €.
    expect(totalesLineas(many, 'coste')).toMatchObject({ base: 833, iva: 0, total: 833 });
  });
});

describe('a purchase line read without its prices (issue 24: a role without ver_costes)', () => {
  it('is edited without price nor discount, and sends neither back (the server keeps the saved ones)', () => {
    const leida = { id: 7, orden: 1, articulo_id: 3, codigo: 'TOR-6', descripcion: 'Tornillo', tipo_iva: '21', cantidad: 2000, pendiente: 2000, ubicacion_id: null, motivo: null, teorico: null };
    const l = lineaDesdeDocumento(leida as unknown as Parameters<typeof lineaDesdeDocumento>[0]);
    expect([l.precio, l.descuento]).toEqual([null, null]);
    const [input] = lineasAInput([{ ...l, cantidad: 3000n }], 'compra');
    expect(input).toEqual({ articulo_id: 3, cantidad: 3000, ubicacion_id: null, descripcion: 'Tornillo' });
  });
});
