import { describe, expect, it } from 'vitest';
import { esMedioPago, MEDIOS_PAGO, mediosDePago, medioPagoLabel } from './mediosPago';
import { FORMAS_COBRO_ADMITIDAS, FORMAS_PAGO, MEDIO_COBRO_IDS, MEDIO_COBRO_OPTIONS, formaPagoLabel, medioCobroDe } from './terceros';
import { FORMA_PAGO_TPV_LABEL, FORMAS_PAGO_TPV } from './tpv';
import { formaTpvLabel } from '../io/informeZPdf';

describe('one list of medios de pago', () => {
  it('has each id once', () => {
    const ids = MEDIOS_PAGO.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the till offers a subset of it, with the same names', () => {
    expect(FORMAS_PAGO_TPV.every(esMedioPago)).toBe(true);
    expect(FORMAS_PAGO_TPV).toEqual(['efectivo', 'tarjeta', 'bizum', 'vale']);
    expect(FORMA_PAGO_TPV_LABEL).toEqual({ efectivo: 'Efectivo', tarjeta: 'Tarjeta', bizum: 'Bizum', vale: 'Vale' });
    expect(formaTpvLabel('bizum')).toBe('Bizum');
    expect(formaTpvLabel('desconocida')).toBe('desconocida');
  });

  it('the back office offers another subset for cobros and supplier payments, with the same names', () => {
    expect(MEDIO_COBRO_IDS).toEqual(['efectivo', 'tarjeta', 'transferencia', 'recibo', 'cheque', 'confirming']);
    expect(MEDIO_COBRO_IDS.every(esMedioPago)).toBe(true);
    expect(MEDIO_COBRO_OPTIONS.find((o) => o.value === 'tarjeta')?.label).toBe(medioPagoLabel('tarjeta'));
    expect(MEDIO_COBRO_OPTIONS.find((o) => o.value === 'recibo')?.label).toBe('Recibo domiciliado');
  });

  it('every forma de pago (payment terms) is paid by a medio the back office offers', () => {
    for (const f of FORMAS_PAGO) expect(MEDIO_COBRO_IDS, f.id).toContain(f.medio);
    expect(medioCobroDe('contado')).toBe('efectivo');
    expect(medioCobroDe('recibo_30_60')).toBe('recibo');
    expect(medioCobroDe('transferencia_60')).toBe('transferencia');
    expect(medioCobroDe('confirming_60')).toBe('confirming');
    expect(medioCobroDe('cheque')).toBe('cheque');
    // The till's own medios are not offered for an invoice's cobro.
    expect(medioCobroDe('bizum')).toBeNull();
    expect(medioCobroDe(null)).toBeNull();
  });

  it('a recorded cobro or payment keeps its stored value readable: a medio or a forma de pago, both named', () => {
    expect(FORMAS_COBRO_ADMITIDAS).toContain('cheque');
    expect(FORMAS_COBRO_ADMITIDAS).toContain('recibo_30_60');
    expect(FORMAS_COBRO_ADMITIDAS).not.toContain('vale');
    expect(new Set(FORMAS_COBRO_ADMITIDAS).size).toBe(FORMAS_COBRO_ADMITIDAS.length);
    expect(formaPagoLabel('recibo_30_60')).toBe('Recibo domiciliado a 30 y 60 días');
    expect(formaPagoLabel('cheque')).toBe('Cheque o pagaré');
    expect(formaPagoLabel('transferencia')).toBe('Transferencia bancaria');
    expect(formaPagoLabel('vale')).toBe('Vale');
    expect(formaPagoLabel('otra')).toBe('');
  });

  it('mediosDePago keeps the order it is given', () => {
    expect(mediosDePago(['vale', 'efectivo']).map((m) => m.label)).toEqual(['Vale', 'Efectivo']);
  });
});
