import { describe, expect, it } from 'vitest';
import { IMPUESTO_AEAT, TIPOS_POR_IMPUESTO, impuestoDe, porcentajeTipo, pvpFromNet, tipoEquivalente } from './catalogo';
import { calcularTotales } from './documentos';
import { leyendasOperaciones } from './operaciones';

/** Issue 16: IGIC (Canarias), IPSI (Ceuta, Melilla) and tobacco's recargo 1,75 %, in the shared domain. */
describe('the company tax in the shared domain', () => {
  it('IGIC 7 % and 3 % on one document: per-rate groups, no recargo even for a customer in recargo', () => {
    const t = calcularTotales(
      [
        { cantidad: 3_000, precio: 100_000, tipo_iva: 'igic_7', operacion: 'S1' },
        { cantidad: 1_000, precio: 200_000, tipo_iva: 'igic_3', operacion: 'S1' },
      ],
      { recargo: true },
    );
    expect(t).toMatchObject({ base: 5_000, iva: 270, recargo: 0, total: 5_270 });
    expect(impuestoDe(t.desglose)).toBe('igic');
    expect(IMPUESTO_AEAT[impuestoDe(t.desglose)]).toBe('03');
  });

  it('tobacco: 21 % with recargo 1,75 %, a group apart from the 21 % with 5,2 %', () => {
    const t = calcularTotales(
      [
        { cantidad: 1_000, precio: 1_000_000, tipo_iva: 'tabaco' },
        { cantidad: 1_000, precio: 500_000, tipo_iva: '21' },
      ],
      { recargo: true },
    );
    expect(t.desglose).toEqual([
      { tipo_iva: '21', base: 5_000, iva: 1_050, recargo: 260 },
      { tipo_iva: 'tabaco', base: 10_000, iva: 2_100, recargo: 175 },
    ]);
    expect(t.total).toBe(18_585);
  });

  it('percentages as printed, PVPs, and the same class in another tax', () => {
    expect(['21', 'igic_9_5', 'ipsi_0_5', 'exento', 'tabaco'].map(porcentajeTipo)).toEqual(['21 %', '9,5 %', '0,5 %', 'Exento', '21 %']);
    expect(pvpFromNet(100_000n, 'igic_9_5')).toBe(1_095n);
    expect(['21', '10', '4', 'tabaco', 'exento'].map((t) => tipoEquivalente(t as never, 'igic'))).toEqual(['igic_7', 'igic_3', 'igic_0', 'igic_20', 'exento']);
    expect(tipoEquivalente('igic_9_5', 'iva')).toBe('21');
    for (const tipos of Object.values(TIPOS_POR_IMPUESTO)) expect(tipos).toContain('exento');
  });

  it('the legends of an IGIC invoice cite the IGIC law, an IVA one the IVA law', () => {
    expect(leyendasOperaciones([{ tipo_iva: 'igic_7', operacion: 'S1' }, { tipo_iva: 'exento', operacion: 'E1' }])).toEqual(['Operación exenta (Ley 20/1991 del IGIC)']);
    expect(leyendasOperaciones([{ tipo_iva: 'ipsi_4', operacion: 'S1' }, { tipo_iva: 'exento', operacion: 'E2' }])).toEqual(['Exportación exenta (Ley 8/1991 del IPSI)']);
    expect(leyendasOperaciones([{ tipo_iva: '21', operacion: 'S1' }, { tipo_iva: 'exento', operacion: 'E1' }])).toEqual(['Operación exenta (art. 20 de la Ley 37/1992 del IVA)']);
  });
});
