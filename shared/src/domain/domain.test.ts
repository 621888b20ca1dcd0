import { describe, expect, it } from 'vitest';
import { CONF_FIELD, flagsFromConfig } from './flags';
import { isValidIban, isValidNif } from './nif';
import { parseDecimal, percentOf, toPlain } from './decimal';
import { formatMoney, formatDate } from './format';
import { validate } from './validation';
import { loginSchema, usuarioSchema } from './schemas';
import { visibleEntries } from './menu';
import { MESSAGES } from './messages';

describe('flags', () => {
  it('maps the four renamed configuration fields', () => {
    expect(CONF_FIELD.pvp_2).toBe('conf_pvp_t2');
    expect(CONF_FIELD.pvp_3).toBe('conf_pvp_t3');
    expect(CONF_FIELD.partes_trabajo).toBe('conf_partes');
    expect(CONF_FIELD.furgonetas).toBe('conf_furgoneta');
    expect(CONF_FIELD.compras).toBe('conf_compras');
  });
  it('reads flags from a configuration record', () => {
    const f = flagsFromConfig({ conf_compras: 1, conf_partes: '1', conf_ventas: 0 });
    expect(f.compras).toBe(1);
    expect(f.partes_trabajo).toBe(1);
    expect(f.ventas).toBe(0);
  });
});

describe('menu', () => {
  it('hides entries by module and shows no-module entries only when the flag is off', () => {
    const flags = flagsFromConfig({ conf_ventas: 1 });
    const section = {
      name: 'x', prefix: '/x', group: 'Ventas' as const,
      entries: [
        { path: 'a', label: 'A' },
        { path: 'b', label: 'B', module: 'ventas_facturas' as const },
        { path: 'c', label: 'C', noModule: 'ventas_facturas' as const },
      ],
    };
    expect(visibleEntries(section, flags).map((e) => e.path)).toEqual(['a', 'c']);
    expect(visibleEntries({ ...section, module: 'compras' }, flags)).toEqual([]);
  });
});

describe('identifiers', () => {
  it('validates DNI, NIE and CIF check characters', () => {
    expect(isValidNif('12345678Z')).toBe(true);
    expect(isValidNif('12345678A')).toBe(false);
    expect(isValidNif('X1234567L')).toBe(true);
    expect(isValidNif('B12345674')).toBe(true);
    expect(isValidNif('B12345675')).toBe(false);
    expect(isValidNif('Q2826000H')).toBe(true);
  });
  it('validates Spanish IBANs', () => {
    expect(isValidIban('ES91 2100 0418 4502 0005 1332')).toBe(true);
    expect(isValidIban('ES91 2100 0418 4502 0005 1333')).toBe(false);
  });
});

describe('decimal', () => {
  it('parses es-ES and plain numbers exactly', () => {
    expect(parseDecimal('1.234,56', 2)).toBe(123456n);
    expect(parseDecimal('0.1', 4)).toBe(1000n);
    expect(parseDecimal('2,005', 2)).toBe(201n);
    expect(parseDecimal('-2,005', 2)).toBe(-201n);
    expect(parseDecimal('abc', 2)).toBeNull();
  });
  it('computes percentages half-up', () => {
    expect(percentOf(1005n, 2100n)).toBe(211n); // 21 % of 10,05 = 2,1105
    expect(toPlain(percentOf(-1005n, 2100n), 2)).toBe('-2.11');
  });
  it('formats money and dates in es-ES', () => {
    expect(formatMoney(123456)).toBe('1.234,56 €');
    expect(formatMoney(-5)).toBe('-0,05 €');
    expect(formatDate('2026-11-21')).toBe('21/11/2026');
  });
});

describe('validation', () => {
  it('uses the specification messages for login', () => {
    const r = validate(loginSchema, { email: '', password: '' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.email).toBe('Debe introducir una dirección de correo electrónico');
      expect(r.errors.password).toBe('La contraseña no puede estar vacia');
    }
    const bad = validate(loginSchema, { email: 'no-es-correo', password: 'x' });
    expect(!bad.ok && bad.errors.email).toBe(MESSAGES.invalidEmail);
  });
  it('normalises values and reports short passwords and long fields', () => {
    const r = validate(usuarioSchema, { nombre: 'x'.repeat(101), email: ' Ana@Demo.ES ', password: 'corta' });
    expect(!r.ok && r.errors).toEqual({ nombre: MESSAGES.tooLong, password: MESSAGES.passwordTooShort });
    const ok = validate(usuarioSchema, { nombre: 'Ana', email: ' Ana@Demo.ES ', activo: true });
    expect(ok.ok && ok.value).toEqual({ nombre: 'Ana', email: 'ana@demo.es', password: null, activo: 1, rol_id: null });
  });
});

import { cambiarPrecio, isValidEan, IVA_RATE, netFromPvp, pvpFromNet, TIPOS_IVA } from './catalogo';

describe('catalogue prices', () => {
  it('computes PVP from the net price and back, exactly, for every cent up to 1.000 €', () => {
    // Every distinct rate (issue 16: IVA's, IGIC's, IPSI's; «tabaco» is 21 %), the cents that do not come back listed.
    const porTasa = new Map(TIPOS_IVA.map((t) => [IVA_RATE[t], t] as const));
    expect(porTasa.size).toBeGreaterThanOrEqual(13);
    for (const iva of porTasa.values()) {
      const malos: bigint[] = [];
      for (let c = 0n; c <= 100000n; c += 7n) if (pvpFromNet(netFromPvp(c, iva), iva) !== c) malos.push(c);
      expect({ iva, malos }).toEqual({ iva, malos: [] });
    }
    expect(pvpFromNet(100000n, '21')).toBe(1210n); // 10,0000 € + 21 % = 12,10 €
    expect(netFromPvp(999n, '21')).toBe(82562n); // 9,99 € / 1,21 = 8,2562 €
  });
  it('validates EAN-13 and EAN-8 check digits', () => {
    expect(isValidEan('8410000000003')).toBe(false);
    expect(isValidEan('4006381333931')).toBe(true);
    expect(isValidEan('96385074')).toBe(true);
    expect(isValidEan('96385075')).toBe(false);
  });
  it('raises prices by percentage or amount with cent and ,x9 rounding', () => {
    expect(cambiarPrecio(100000n, 'porcentaje', 1000n, 'ninguno')).toBe(110000n);
    expect(cambiarPrecio(123456n, 'porcentaje', 0n, 'centimos')).toBe(123500n);
    expect(cambiarPrecio(123400n, 'importe', 0n, 'x9')).toBe(123900n);
    expect(cambiarPrecio(123000n, 'importe', 0n, 'x9')).toBe(122900n);
    expect(cambiarPrecio(10000n, 'importe', -20000n, 'ninguno')).toBe(0n);
  });
});
