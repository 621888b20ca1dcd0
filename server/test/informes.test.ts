import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CONF_FIELDS } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';

const HOY = todayIn('Europe/Madrid');
const ANIO = HOY.slice(0, 4);

/** Every module on (the demo company leaves some off). */
async function todosLosModulos(t: SuiteApp) {
  await modulos(t, Object.fromEntries(CONF_FIELDS.map((f) => [f, 1])));
}

/** Sets these configuration fields (the rest as they are). */
async function modulos(t: SuiteApp, campos: Record<string, number>) {
  const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
  const res = await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, ...campos } });
  expect(res.statusCode).toBe(200);
}

const INFORMES: [string, Record<string, string>][] = [
  ['informeventas', {}],
  ['informeventas', { agrupar: 'articulo' }],
  ['informeventas', { agrupar: 'cliente' }],
  ['informeventas', { agrupar: 'familia' }],
  ['informeventas', { agrupar: 'marca' }],
  ['informeventas', { agrupar: 'serie' }],
  ['informeventas', { agrupar: 'terminal' }],
  ['informeventas', { agrupar: 'usuario' }],
  ['informeventas', { agrupar: 'tipo' }],
  ['informeventas', { agrupar: 'documento' }],
  ['informecompras', {}],
  ['informecompras', { agrupar: 'articulo' }],
  ['informecompras', { agrupar: 'documento' }],
  ['informeinventario', {}],
  ['informeinventario', { agrupar: 'almacen' }],
  ['informeinventario', { vista: 'sin_movimiento', dias: '30' }],
  ['informemovimientos', {}],
  ['informeproveedores', {}],
  ['informeproveedores', { agrupar: 'anio' }],
  ['informeclientes', {}],
  ['informeclientes', { agrupar: 'mes' }],
  ['informearticulos', {}],
  ['informetarifas', {}],
  ['informefurgonetas', {}],
  ['informecierrestpv', {}],
  ['librofacturasexpedidas', {}],
  ['librofacturasrecibidas', {}],
  ['modelo303', {}],
  ['modelo347', {}],
  ['informeregistros', {}],
  ['informeregistros', { agrupar: 'registro' }],
];

describe.each(backends())('informes on the demo year ($name)', (backend) => {
  const t = useTestApp(backend, { demo: true, demoStock: true });
  it('every report answers its shape over the whole year', async () => {
    await todosLosModulos(t);
    // A bulk-loaded year has no planner statistics until autovacuum gets to it (a minute): without them the first report plans badly.
    if (backend.name === 'postgres') await sql`analyze`.execute(t.app.manager.db);
    for (const [ac, q] of INFORMES) {
      const t0 = performance.now();
      const res = await t.op(ac, { cookie: t.cookie, query: { desde: `${Number(ANIO) - 1}-01-01`, hasta: HOY, porPagina: '5', ...q } });
      const body = expectCleanAnswer(res) as { RESULT: string; data: unknown[]; total: number; totales: Record<string, unknown>; message?: string };
      expect({ ac, q, status: res.statusCode, RESULT: body.RESULT, message: body.message }).toMatchObject({ status: 200, RESULT: '0' });
      expect(Array.isArray(body.data)).toBe(true);
      expect(typeof body.total).toBe('number');
      expect(body.totales).toBeTypeOf('object');
      if (process.env.INFORMES_TIEMPOS) console.log(backend.name, ac, JSON.stringify(q), Math.round(performance.now() - t0), 'ms', body.total);
    }
  }, 180_000);
});
