import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, cambiarPrecio, pvpFromNet } from 'shared/domain';
import type { TipoIva } from 'shared/domain';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

describe.each(backends())('catálogo: cambio de precios y listado de precios ($name)', (backend) => {
  const t = useTestApp(backend);
  let fer: number;
  const articulos = async (query: Record<string, string | number> = {}) => (await list(t, t.cookie, 'listadoarticulos', { porPagina: 100, ...query })).rows;

  beforeAll(async () => {
    fer = (await list(t, t.cookie, 'listadofamilias', { q: 'FER' })).rows[0].id;
  });

  it('previews a change by filter without writing, then applies exactly the preview, PVPs included', async () => {
    const before = await articulos({ familia_id: fer });
    const body = { filtro: { familia_id: fer, activo: 1 }, campo: 'precio_venta', modo: 'porcentaje', valor: 1000, redondeo: 'x9' };
    const preview = await t.op('cambiarprecios', { cookie: t.cookie, body: { ...body, aplicar: 0 } });
    const answer = expectCleanAnswer(preview) as { data: Row[]; total: number };
    expect(answer.total).toBe(10);
    expect(answer.data.map((r) => r.codigo)).toEqual(before.map((r) => r.codigo));
    for (const r of answer.data) {
      const a = before.find((b) => b.id === r.id)!;
      expect(r).toEqual({ id: a.id, codigo: a.codigo, descripcion: a.descripcion, antes: a.precio_venta, despues: Number(cambiarPrecio(BigInt(a.precio_venta as number), 'porcentaje', 1000n, 'x9')) });
      // ,x9: the cents end in 9.
      expect((r.despues as number) % 1000).toBe(900);
    }
    expect(await articulos({ familia_id: fer })).toEqual(before);

    const applied = await t.op('cambiarprecios', { cookie: t.cookie, body: { ...body, aplicar: 1 } });
    expect(expectCleanAnswer(applied)).toEqual({ RESULT: '0', data: [{ actualizados: 10 }] });
    for (const a of await articulos({ familia_id: fer })) {
      const r = answer.data.find((p) => p.id === a.id)!;
      expect(a.precio_venta).toBe(r.despues);
      expect(a.pvp_1).toBe(Number(pvpFromNet(BigInt(r.despues as number), a.tipo_iva as TipoIva)));
    }
    // Other familias untouched.
    const pintura = await articulos({ q: 'esmalte blanco' });
    expect(pintura[0].precio_venta).toBe(107025);
  });

  it('changes the rows chosen by hand, by an amount, never below zero; the purchase price has no PVP', async () => {
    const [a, b] = await articulos({ q: 'bombilla' });
    const body = { ids: [a.id, b.id], campo: 'precio_compra', modo: 'importe', valor: -15000, redondeo: 'centimos', aplicar: 1 };
    expect(expectCleanAnswer(await t.op('cambiarprecios', { cookie: t.cookie, body })).data).toEqual([{ actualizados: 2 }]);
    const [a2, b2] = await articulos({ q: 'bombilla' });
    expect(a2.precio_compra).toBe(Number(cambiarPrecio(BigInt(a.precio_compra as number), 'importe', -15000n, 'centimos')));
    expect(b2.precio_compra).toBe(Math.max(0, (b.precio_compra as number) - 15000));
    expect([a2.pvp_1, b2.pvp_1]).toEqual([a.pvp_1, b.pvp_1]);
  });

  it('tariff 2 follows its flag; PVP 2 is recomputed', async () => {
    const [a] = await articulos({ q: 'martillo' });
    const { tarifa_2 } = (await list(t, t.cookie, 'listadoarticulos', { id: a.id })).rows[0];
    const body = { ids: [a.id], campo: 'tarifa_2', modo: 'porcentaje', valor: -3333, redondeo: 'ninguno', aplicar: 1 };
    await t.op('cambiarprecios', { cookie: t.cookie, body });
    const rec = (await list(t, t.cookie, 'listadoarticulos', { id: a.id })).rows[0];
    const tarifa2 = Number(cambiarPrecio(BigInt(tarifa_2 as number), 'porcentaje', -3333n, 'ninguno'));
    expect(tarifa2).toBe(74070);
    expect(rec).toMatchObject({ tarifa_2: tarifa2, pvp_2: Number(pvpFromNet(BigInt(tarifa2), '21')) });
    const tarifa3 = await t.op('cambiarprecios', { cookie: t.cookie, body: { ...body, campo: 'tarifa_3' } });
    expect(tarifa3.statusCode).toBe(403);
    expect(tarifa3.json()).toEqual({ RESULT: '1', message: MESSAGES.moduleOff });
  });

  it('refuses a missing selection or value, and applies all or nothing', async () => {
    const noSel = await t.op('cambiarprecios', { cookie: t.cookie, body: { campo: 'precio_venta', modo: 'importe', valor: 100, aplicar: 0 } });
    expect(noSel.statusCode).toBe(400);
    expect(noSel.json().errors).toEqual({ filtro: MESSAGES.priceSelectionEmpty });
    const badIds = await t.op('cambiarprecios', { cookie: t.cookie, body: { ids: ['x'], campo: 'precio_venta', modo: 'importe', valor: 100 } });
    expect(badIds.json().errors).toEqual({ ids: MESSAGES.invalidList });
    const noValor = await t.op('cambiarprecios', { cookie: t.cookie, body: { ids: [1], campo: 'pvp_1', modo: 'mucho' } });
    expect(noValor.json().errors).toEqual({ campo: MESSAGES.selectOption, modo: MESSAGES.selectOption, valor: MESSAGES.required });

    // One price would go past the limit: nothing at all changes.
    const caro = await save(t, t.cookie, 'editararticulo', nuevoArticulo('CARO', { precio_venta: 900_000_000_000 }));
    const before = await articulos({ q: 'a' });
    const res = await t.op('cambiarprecios', { cookie: t.cookie, body: { filtro: {}, campo: 'precio_venta', modo: 'porcentaje', valor: 5000, aplicar: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ valor: MESSAGES.invalidNumber });
    expect(await articulos({ q: 'a' })).toEqual(before);
    await t.op('eliminararticulo', { cookie: t.cookie, body: { id: caro.id } });
  });

  it('prints the active articles per familia, then by code, with every tariff and PVP', async () => {
    const { rows, total } = await list(t, t.cookie, 'listadoprecios');
    expect(total).toBe(32);
    const familias = rows.map((r) => r.familia_nombre);
    expect([...new Set(familias)]).toEqual(['Droguería', 'Electricidad', 'Ferretería', 'Jardín', 'Pintura']);
    expect(rows[0]).toEqual({
      familia_nombre: 'Droguería',
      codigo: 'BAY-3',
      descripcion: 'Bayeta microfibra multiusos (pack 3)',
      precio_venta: 32975,
      tarifa_2: 29600,
      tarifa_3: 0,
      pvp_1: 399,
      pvp_2: 358,
      pvp_3: 0,
      tipo_iva: '21',
    });
    // Inactive articles and those without familia: left out and at the end.
    const [lejia] = await articulos({ q: 'lejia' });
    await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('LEJ-2L', { id: lejia.id }), activo: 0 });
    await save(t, t.cookie, 'editararticulo', nuevoArticulo('SUELTO', { precio_venta: 10000 }));
    const after = (await list(t, t.cookie, 'listadoprecios')).rows;
    expect(after.map((r) => r.codigo)).not.toContain('LEJ-2L');
    expect(after.at(-1)).toMatchObject({ codigo: 'SUELTO', familia_nombre: null });
    const soloFer = (await list(t, t.cookie, 'listadoprecios', { familia_id: fer })).rows;
    expect(new Set(soloFer.map((r) => r.familia_nombre))).toEqual(new Set(['Ferretería']));
    expect(soloFer.map((r) => r.codigo)).toEqual([...soloFer.map((r) => r.codigo as string)].sort());

    await setFlags(t, t.cookie, { listado: 0 });
    const off = await t.op('listadoprecios', { cookie: t.cookie });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ RESULT: '1', message: MESSAGES.moduleOff });
  });
});
