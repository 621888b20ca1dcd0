import { describe, expect, it } from 'vitest';
import { precioSinIva, totalesTicket } from '../domain/tpv';
import { fechaHoraHuso, huellaDe, qrDeAlta, registroTicket, sha256Hex } from './index';

describe('shared/fiscal: what the till runs offline and the server runs online', () => {
  it('SHA-256 of the standard vectors, multi-block and non-ASCII text', () => {
    expect(sha256Hex('')).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(sha256Hex('abc')).toBe('BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248D6A61D20638B8E5C026930C3E6039A33CE45964FF2167F6ECEDD419DB06C1');
    expect(sha256Hex('a'.repeat(1000))).toBe('41EDECE42D63E8D9BF515A9BA6932E1C20CBC9F5A5D134645ADB5DB1B9737EA3');
  });

  it('the AEAT worked huella', () => {
    expect(
      huellaDe({
        IDEmisorFactura: '89890001K', NumSerieFactura: '12345678/G33', FechaExpedicionFactura: '01-01-2024', TipoFactura: 'F1', CuotaTotal: '12.35',
        ImporteTotal: '123.45', Huella: '', FechaHoraHusoGenRegistro: '2024-01-01T19:20:30+01:00',
      }),
    ).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
  });

  it('a ticket total from prices with IVA: rounded once per rate, base + IVA = what the till showed', () => {
    // 3 × 0,333 € (4 decimals: 3.330) at 21 %: 0,999 → 1,00 €; base round(100 / 1,21) = 83, IVA 17.
    const t = totalesTicket([{ cantidad: 3_000, precio: 3_330, tipo_iva: '21' }]);
    expect(t).toMatchObject({ base: 83, iva: 17, total: 100, desglose: [{ tipo_iva: '21', base: 83, iva: 17, recargo: 0 }] });
    const dos = totalesTicket([
      { cantidad: 1_000, precio: 12_100, tipo_iva: '21' },
      { cantidad: 250, precio: 39_900, descuento: 500, tipo_iva: '10' },
      { cantidad: 1_000, precio: 1_000, tipo_iva: 'exento' },
    ]);
    // 1,21 (21 %); 0,25 kg × 3,99 − 5 % = 0,9476… → 0,95 (10 %): base 86, IVA 9; 0,10 exempt.
    expect(dos.desglose).toEqual([
      { tipo_iva: '21', base: 100, iva: 21, recargo: 0 },
      { tipo_iva: '10', base: 86, iva: 9, recargo: 0 },
      { tipo_iva: 'exento', base: 10, iva: 0, recargo: 0 },
    ]);
    expect(dos.total).toBe(121 + 95 + 10);
    expect(precioSinIva(12_100, '21')).toBe(10_000);
  });

  it('registroTicket is deterministic: same inputs, same huella and XML; chained to the previous one', () => {
    const base = {
      emisor: { nif: 'B86420973', nombre: 'Comercial Demo, S.L.' }, instalacion: 'B86420973-TPV001', sistema: { nombre: 'Manager TPV', id: 'MT', version: '0.1.0' },
      serieCodigo: 'T', ejercicio: 2026, numero: 7, fecha: '2026-11-26', totales: totalesTicket([{ cantidad: 2_000, precio: 12_100, tipo_iva: '21' }]),
      anterior: null, ts: fechaHoraHuso(new Date('2026-11-26T10:00:00Z'), 'Europe/Madrid'),
    };
    const a = registroTicket(base);
    expect(a.numSerie).toBe('T 2026/000007');
    expect(a.campos).toMatchObject({ TipoFactura: 'F2', CuotaTotal: '0.42', ImporteTotal: '2.42', Huella: '', FechaHoraHusoGenRegistro: '2026-11-26T11:00:00+01:00' });
    expect(registroTicket(base)).toEqual(a);
    expect(a.xml).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
    expect(a.qr_url).toBe(qrDeAlta(a.campos));
    expect(a.qr_url).toContain('numserie=T%202026%2F000007&fecha=26-11-2026&importe=2.42');
    const b = registroTicket({ ...base, numero: 8, anterior: { id_emisor: 'B86420973', num_serie: a.numSerie, fecha_expedicion: '26-11-2026', huella: a.huella, fecha_hora_huso: base.ts } });
    expect(b.campos.Huella).toBe(a.huella);
    expect(b.xml).toContain(`<sf:Huella>${a.huella}</sf:Huella></sf:RegistroAnterior>`);
  });
});
