import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';
import { clienteSchema, validarDir3 } from './terceros';
import { validate } from './validation';

describe('DIR3 codes of a public administration (issue 16)', () => {
  it('a code is 9 letters and digits starting with a letter, in any case', () => {
    const r = (v: string) => validate(clienteSchema, { nif: 'P2807900B', razon_social: 'Ayto', dir3_oficina_contable: v });
    expect(r('L01280796').ok).toBe(true);
    expect(r('ge0000156').ok).toBe(true);
    for (const mal of ['L0128079', 'L012807960', '101280796', 'L0128-796', 'L01 280796']) {
      const x = r(mal);
      expect(x.ok ? null : x.errors.dir3_oficina_contable, mal).toBe(MESSAGES.dir3NoValido);
    }
  });

  it('marked as a public administration, oficina contable, órgano gestor and unidad tramitadora are required; the proponente is not', () => {
    expect(validarDir3({ administracion_publica: 0 })).toEqual({});
    expect(validarDir3({ administracion_publica: 1, dir3_oficina_contable: 'L01280796', dir3_organo_gestor: '  ', dir3_unidad_tramitadora: null })).toEqual({
      dir3_organo_gestor: MESSAGES.dir3Requerido,
      dir3_unidad_tramitadora: MESSAGES.dir3Requerido,
    });
    expect(validarDir3({ administracion_publica: 1, dir3_oficina_contable: 'A', dir3_organo_gestor: 'B', dir3_unidad_tramitadora: 'C' })).toEqual({});
  });
});
