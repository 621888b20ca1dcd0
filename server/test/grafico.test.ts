import { beforeAll, describe, expect, it } from 'vitest';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { lastMonths } from '../src/actions/grafico.ts';
import { todayIn } from '../src/context.ts';

describe('lastMonths', () => {
  it('gives 12 months ending with the current one, across the year change', () => {
    expect(lastMonths('2026-02-10', 12)).toEqual([
      '2025-03', '2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02',
    ]);
  });
});

describe.each(backends())('gráfico de inicio ($name)', (backend) => {
  const t = useTestApp(backend);
  let months: string[];
  beforeAll(async () => {
    months = lastMonths(todayIn('Europe/Madrid'), 12);
  });

  it('shows 12 months of zeros with no documents', async () => {
    const body = expectCleanAnswer(await t.op('graficoinicio', { cookie: t.cookie }));
    expect(body.data).toEqual(months.map((mes) => ({ mes, compras: 0, ventas: 0 })));
  });

  it('sums real order totals per month in cents, ignoring other documents and older months', async () => {
    const creado = new Date().toISOString();
    const doc = (tipo: string, fecha: string, total: number) => ({ tipo, serie_id: null, numero: null, fecha, estado: 'Pendiente', total, creado });
    const current = months[11];
    const first = months[0];
    await t.app.manager.db
      .insertInto('documentos')
      .values([
        doc('pedidoventa', `${current}-01`, 12345),
        doc('pedidoventa', `${current}-28`, 100),
        doc('pedidocompra', `${current}-15`, 99999),
        doc('pedidocompra', `${first}-01`, 5000),
        doc('albaranventa', `${current}-10`, 777777),
        doc('pedidoventa', '2001-01-01', 123),
      ])
      .execute();
    const data = (await t.op('graficoinicio', { cookie: t.cookie })).json().data;
    expect(data).toHaveLength(12);
    expect(data[11]).toEqual({ mes: current, compras: 99999, ventas: 12445 });
    expect(data[0]).toEqual({ mes: first, compras: 5000, ventas: 0 });
    expect(data.slice(1, 11).every((m: { compras: number; ventas: number }) => m.compras === 0 && m.ventas === 0)).toBe(true);
  });

  it('answers null for the series whose module is off', async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, conf_compras: 0 } });
    const data = (await t.op('graficoinicio', { cookie: t.cookie })).json().data;
    expect(data[11].compras).toBeNull();
    expect(data[11].ventas).toBe(12445);
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, conf_compras: 1, conf_ventas: 0 } });
    const data2 = (await t.op('graficoinicio', { cookie: t.cookie })).json().data;
    expect(data2[11]).toEqual({ mes: months[11], compras: 99999, ventas: null });
  });
});
