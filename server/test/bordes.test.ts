import { beforeAll, describe, expect, it } from 'vitest';
import { CONF_FIELD, FLAG_NAMES, MESSAGES } from 'shared/domain';
import { createRegistry } from '../src/actions/index.ts';
import { backends, useTestApp } from './helpers.ts';

/**
 * Issue 24, «Smaller ones»: the 500s a hostile caller found. Every GET action of the registry, as the Administrador
 * (every module on), with a prototype key for `orden` and with dates in year 0001 and 9999: never a 5xx; the dates
 * are refused with a Spanish message.
 */

const REGISTRY = createRegistry();
const GETS = [...REGISTRY.values()].filter((a) => a.method === 'GET').map((a) => a.name);

describe.each(backends())('edges ($name)', (backend) => {
  const t = useTestApp(backend);

  beforeAll(async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    for (const f of FLAG_NAMES) conf[CONF_FIELD[f]] = 1;
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: conf })).json().RESULT).toBe('0');
  });

  it('orden=__proto__ / constructor / toString: no GET answers a 5xx (sort keys are own properties only)', async () => {
    expect(GETS.length).toBeGreaterThan(60);
    const fallos: string[] = [];
    for (const ac of GETS) {
      for (const orden of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        const res = await t.op(ac, { cookie: t.cookie, query: { orden, dir: 'desc' } });
        if (res.statusCode >= 500) fallos.push(`${ac} orden=${orden}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(fallos).toEqual([]);
  });

  it('dates in year 0001 or 9999: refused with a message by listadoactividad and every report, never a 5xx', async () => {
    const fallos: string[] = [];
    for (const ac of GETS) {
      for (const [desde, hasta] of [['0001-01-01', '0001-12-31'], ['9999-01-01', '9999-12-31'], ['1899-12-31', '3000-01-01']]) {
        const res = await t.op(ac, { cookie: t.cookie, query: { desde, hasta, fecha: hasta } });
        if (res.statusCode >= 500) fallos.push(`${ac} ${desde}..${hasta}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(fallos).toEqual([]);
    for (const [desde, hasta] of [['0001-01-01', '2026-01-01'], ['2026-01-01', '9999-12-31']]) {
      const res = await t.op('listadoactividad', { cookie: t.cookie, query: { desde, hasta } });
      expect(res.statusCode).toBe(400);
      const errors = res.json().errors as Record<string, string>;
      expect(Object.values(errors)).toEqual([MESSAGES.fechaFueraDeRango]);
    }
    // The years a business works in still answer.
    expect((await t.op('listadoactividad', { cookie: t.cookie, query: { desde: '1900-01-01', hasta: '2999-12-31' } })).json().RESULT).toBe('0');
    const informe = (await t.op('informeventas', { cookie: t.cookie, query: { desde: '2026-01-01', hasta: '2026-12-31', orden: '__proto__' } })).json();
    expect(informe.RESULT, informe.message).toBe('0');
  });
});
