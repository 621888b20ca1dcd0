import { describe, expect, it } from 'vitest';
import { DOCUMENTO_TIPOS, accionesDesde, calcularTotales, estadoLabel, numeroDocumento, rutaDocumento } from './documentos';
import { vencimientos, provinciaDeCodigoPostal } from './terceros';
import { operacionPorDefecto } from './operaciones';

// Scales: cantidad thousandths, precio ten-thousandths, descuento and retención hundredths of a percent; answers in cents.
describe('calcularTotales (docs/fiscal.md)', () => {
  it('groups by rate, rounds each group base to cents, IVA and recargo half-up per group, retención on the sum of bases', () => {
    const t = calcularTotales(
      [
        { cantidad: 3000, precio: 99900, tipo_iva: '21' }, // 3 × 9,99 = 29,97
        { cantidad: 1000, precio: 3333, tipo_iva: '21' }, // 0,3333
        { cantidad: 2000, precio: 100000, descuento: 1500, tipo_iva: '10' }, // 2 × 10 − 15 % = 17,00
      ],
      { retencion: 1500, recargo: true },
    );
    expect(t.desglose).toEqual([
      { tipo_iva: '21', base: 3030, iva: 636, recargo: 158 }, // 30,3033 → 30,30; 6,363 → 6,36; 5,2 % = 1,5756 → 1,58
      { tipo_iva: '10', base: 1700, iva: 170, recargo: 24 }, // 1,4 % = 0,238 → 0,24
    ]);
    expect(t).toMatchObject({ base: 4730, iva: 806, recargo: 182, retencion_importe: 710, total: 5008 }); // 15 % of 47,30 = 7,095 → 7,10
  });

  it('rounds the group, not each line: three lines of 0,3333 € make 1,00 €, not 0,99 €', () => {
    const linea = { cantidad: 1000, precio: 3333, tipo_iva: '21' as const };
    expect(calcularTotales([linea, linea, linea]).base).toBe(100);
  });

  it('half-up away from zero, also for negative (returned) amounts', () => {
    expect(calcularTotales([{ cantidad: 1000, precio: 500, tipo_iva: '10' }]).iva).toBe(1); // 0,005 → 0,01
    const devolucion = calcularTotales([{ cantidad: -1000, precio: 500, tipo_iva: '10' }]);
    expect(devolucion).toMatchObject({ base: -5, iva: -1, total: -6 });
  });

  it('exempt lines have no IVA; without recargo there is none; no lines is all zeros', () => {
    expect(calcularTotales([{ cantidad: 1000, precio: 123456, tipo_iva: 'exento' }], { recargo: true })).toMatchObject({ base: 1235, iva: 0, recargo: 0, total: 1235 });
    expect(calcularTotales([{ cantidad: 1000, precio: 100000, tipo_iva: '4' }])).toMatchObject({ base: 1000, iva: 40, recargo: 0, total: 1040 });
    expect(calcularTotales([])).toEqual({ base: 0, iva: 0, recargo: 0, retencion_importe: 0, total: 0, desglose: [] });
  });

  it('issue 16: S1 lines by rate, the others by operation with no IVA nor recargo; lines without an operation as before', () => {
    const t = calcularTotales(
      [
        { cantidad: 1000, precio: 1000000, tipo_iva: '21', operacion: 'S1' }, // 100,00 + 21,00 + R.E. 5,20
        { cantidad: 2000, precio: 1750000, tipo_iva: '21', operacion: 'S2' }, // 350,00, the customer pays the tax
        { cantidad: 1000, precio: 400000, tipo_iva: '10', operacion: 'E5' }, // 40,00
        { cantidad: 3000, precio: 100000, tipo_iva: '21', operacion: 'E5' }, // 30,00: one E5 group whatever the rate
        { cantidad: 1000, precio: 50000, tipo_iva: '4', operacion: 'N2' }, // 5,00
      ],
      { recargo: true },
    );
    expect(t.desglose).toEqual([
      { tipo_iva: '21', base: 10000, iva: 2100, recargo: 520, operacion: 'S1' },
      { tipo_iva: 'exento', base: 35000, iva: 0, recargo: 0, operacion: 'S2' },
      { tipo_iva: 'exento', base: 7000, iva: 0, recargo: 0, operacion: 'E5' },
      { tipo_iva: 'exento', base: 500, iva: 0, recargo: 0, operacion: 'N2' },
    ]);
    expect(t).toMatchObject({ base: 52500, iva: 2100, recargo: 520, total: 55120 });
    expect(operacionPorDefecto('S2', 'E5', '21')).toBe('S2');
    expect(operacionPorDefecto(null, 'E5', '21')).toBe('E5');
    expect(operacionPorDefecto(null, null, 'exento')).toBe('E1');
    expect(operacionPorDefecto(undefined, null, '10')).toBe('S1');
  });

  it('stays exact over 20.000 lines (no binary floating point)', () => {
    const lineas = Array.from({ length: 20_000 }, () => ({ cantidad: 1001, precio: 10001, tipo_iva: '21' as const }));
    // 20.000 × 1,001 × 1,0001 = 20.022,002 → 20.022,00 €
    const t = calcularTotales(lineas);
    expect(t.base).toBe(2_002_200);
    expect(t.iva).toBe(420_462);
  });

  it('iva: false values at cost without taxes (warehouse documents)', () => {
    expect(calcularTotales([{ cantidad: 2000, precio: 12345, tipo_iva: '21' }], { iva: false })).toMatchObject({ base: 247, iva: 0, total: 247 });
  });
});

describe('the states-and-actions table', () => {
  it('offers exactly the actions allowed from each state', () => {
    const mov = DOCUMENTO_TIPOS.movimiento;
    expect(accionesDesde(mov, 'creado').map((a) => a.verbo)).toEqual(['enviar']);
    expect(accionesDesde(mov, 'enviado').map((a) => a.verbo)).toEqual(['deshacerenvio', 'recibir']);
    expect(accionesDesde(mov, 'recibido_parcial').map((a) => a.verbo)).toEqual(['recibir', 'deshacerrecepcion']);
    expect(accionesDesde(mov, 'recibido').map((a) => a.verbo)).toEqual(['deshacerrecepcion']);
    expect(estadoLabel(mov, 'recibido_parcial')).toBe('Recibido parcial');
    expect(accionesDesde(DOCUMENTO_TIPOS.pedidocompra, 'finalizado').map((a) => a.verbo)).toEqual(['deshacerfinalizacion']);
  });

  it('undoing a reception, a count or a loss asks for confirmation like the action it undoes (issue 17)', () => {
    const undo = (tipo: keyof typeof DOCUMENTO_TIPOS, verbo: string) => DOCUMENTO_TIPOS[tipo].acciones.find((a) => a.verbo === verbo)?.confirm;
    for (const [tipo, verbo] of [
      ['pedidocompra', 'deshacerrecepcion'],
      ['movimiento', 'deshacerrecepcion'],
      ['movimiento', 'deshacerenvio'],
      ['inventario', 'deshacerfinalizacion'],
      ['perdida', 'deshacerfinalizacion'],
      ['pedidoventa', 'deshacerservicio'],
    ] as const) {
      expect(undo(tipo, verbo), `${tipo} ${verbo}`).toMatch(/\S/);
    }
  });

  it('every undo names a verb of its own type, and every state an action leads to exists', () => {
    for (const def of Object.values(DOCUMENTO_TIPOS)) {
      const estados = new Set(def.estados.map((e) => e.id));
      const verbos = new Set(def.acciones.map((a) => a.verbo));
      expect(estados.has(def.inicial)).toBe(true);
      for (const a of def.acciones) {
        for (const f of a.from) expect(estados.has(f), `${def.tipo}.${a.verbo} from ${f}`).toBe(true);
        if (a.to) expect(estados.has(a.to), `${def.tipo}.${a.verbo} to ${a.to}`).toBe(true);
        if (a.toParcial) expect(estados.has(a.toParcial)).toBe(true);
        if (a.undoes) expect(verbos.has(a.undoes), `${def.tipo}.${a.verbo} undoes ${a.undoes}`).toBe(true);
        else expect(a.to, `${def.tipo}.${a.verbo} needs a target state`).toBeTruthy();
      }
    }
  });

  it('numbers and addresses', () => {
    expect(numeroDocumento('MOV', 2026, 12)).toBe('MOV 2026/000012');
    expect(numeroDocumento('PC', 2026, null)).toBe('Borrador');
    expect(rutaDocumento('inventario', 4)).toBe('/almacenes/inventario/4');
    expect(rutaDocumento('desconocido', 4)).toBeNull();
    expect(rutaDocumento(null, null)).toBeNull();
  });
});

describe('terceros', () => {
  it('due dates from the payment method; province from the postal code', () => {
    expect(vencimientos('2026-01-31', 'recibo_30_60')).toEqual(['2026-03-02', '2026-04-01']);
    expect(vencimientos('2026-11-23', 'contado')).toEqual(['2026-11-23']);
    expect(vencimientos('2026-11-23', 'desconocida')).toEqual([]);
    expect(provinciaDeCodigoPostal('28013')).toBe('Madrid');
    expect(provinciaDeCodigoPostal('08001')).toBe('Barcelona');
    expect(provinciaDeCodigoPostal('53001')).toBeNull();
    expect(provinciaDeCodigoPostal('2801')).toBeNull();
  });
});
