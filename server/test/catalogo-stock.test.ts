import { describe, expect, it } from 'vitest';
import { TOASTS } from 'shared/domain';
import type { NewStockMovimiento } from '../src/db/schema.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save } from './catalogo-fixtures.ts';

describe.each(backends())('catálogo: stock y cifras del libro de movimientos ($name)', (backend) => {
  const t = useTestApp(backend);

  it('are zero until the ledger has rows, then its exact sums', async () => {
    const db = t.app.manager.db;
    const a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('STOCK-1'));
    const principal = await db.selectFrom('almacenes').select(['id', 'nombre']).where('codigo', '=', 'PRINCIPAL').executeTakeFirstOrThrow();
    expect(await articulo(t, t.cookie, a.id)).toMatchObject({
      stock: [{ almacen_id: principal.id, almacen_nombre: 'Almacén principal', stock: 0, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null }],
      stock_total: 0,
      precio_medio_compra: 0,
      precio_medio_venta: 0,
      unidades_compradas: 0,
      unidades_vendidas: 0,
    });

    const furgoneta = await db.insertInto('almacenes').values({ codigo: 'FURGO1', nombre: 'Furgoneta 1', activo: 1 }).returning('id').executeTakeFirstOrThrow();
    const cerrado = await db.insertInto('almacenes').values({ codigo: 'VIEJO', nombre: 'Almacén cerrado', activo: 0 }).returning('id').executeTakeFirstOrThrow();
    const mov = (almacen_id: number, cantidad: number, causa: string, precio: number): NewStockMovimiento => ({
      articulo_id: a.id,
      almacen_id,
      ubicacion: null,
      cantidad,
      causa,
      documento_tipo: null,
      documento_id: null,
      fecha: '2026-03-01',
      precio,
    });
    await db
      .insertInto('stock_movimientos')
      .values([
        mov(principal.id, 10_000, 'compra', 10_000), // 10 at 1,0000 €
        mov(principal.id, 30_000, 'compra', 20_000), // 30 at 2,0000 €
        mov(principal.id, -2_000, 'devolucion_compra', 20_000),
        mov(principal.id, -5_000, 'venta', 30_000), // 5 sold at 3,0000 €
        mov(principal.id, 1_000, 'devolucion_venta', 30_000),
        mov(principal.id, -3_000, 'venta', 40_000), // 3 sold at 4,0000 €
        mov(furgoneta.id, 1_500, 'traspaso', 0),
        mov(principal.id, -1_500, 'traspaso', 0),
        mov(principal.id, 250, 'ajuste', 0),
      ])
      .execute();

    const record = await articulo(t, t.cookie, a.id);
    expect(record).toMatchObject({
      stock: [
        { almacen_id: principal.id, almacen_nombre: 'Almacén principal', stock: 29_750, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null },
        { almacen_id: furgoneta.id, almacen_nombre: 'Furgoneta 1', stock: 1_500, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null },
      ],
      stock_total: 31_250,
      // (10 × 1 + 30 × 2) / 40 = 1,75 €; sales (5 × 3 + 3 × 4) / 8 = 3,375 €.
      precio_medio_compra: 17_500,
      precio_medio_venta: 33_750,
      unidades_compradas: 38_000,
      unidades_vendidas: 7_000,
    });
    // The list shows the same total, and sorts by it.
    const row = (await list(t, t.cookie, 'listadoarticulos', { barras: 'STOCK-1' })).rows[0];
    expect(row.stock_total).toBe(31_250);
    expect((await list(t, t.cookie, 'listadoarticulos', { orden: 'stock_total', dir: 'desc', porPagina: 10 })).rows[0].codigo).toBe('STOCK-1');

    // An inactive warehouse shows only while it holds stock of the article.
    await db.insertInto('stock_movimientos').values(mov(cerrado.id, 333, 'inventario', 0)).execute();
    expect((await articulo(t, t.cookie, a.id)).stock).toEqual([
      { almacen_id: principal.id, almacen_nombre: 'Almacén principal', stock: 29_750, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null },
      { almacen_id: furgoneta.id, almacen_nombre: 'Furgoneta 1', stock: 1_500, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null },
      { almacen_id: cerrado.id, almacen_nombre: 'Almacén cerrado', stock: 333, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null },
    ]);

    // Corrections to the ledger (changed or removed rows) keep the total equal to its sum.
    await db.updateTable('stock_movimientos').set({ cantidad: 0 }).where('almacen_id', '=', cerrado.id).execute();
    await db.deleteFrom('stock_movimientos').where('causa', '=', 'ajuste').execute();
    const sum = await db
      .selectFrom('stock_movimientos')
      .select((eb) => eb.fn.sum<number>('cantidad').as('s'))
      .where('articulo_id', '=', a.id)
      .executeTakeFirstOrThrow();
    const after = await articulo(t, t.cookie, a.id);
    expect(Number(sum.s)).toBe(31_000);
    expect(after.stock_total).toBe(31_000);
    expect((await list(t, t.cookie, 'listadoarticulos', { barras: 'STOCK-1' })).rows[0].stock_total).toBe(31_000);
    expect(after.stock).toHaveLength(2);

    // An article with movements can't be deleted: deactivating it is always possible.
    const refused = await t.op('eliminararticulo', { cookie: t.cookie, body: { id: a.id } });
    expect(expectCleanAnswer(refused)).toEqual({ RESULT: '2', message: TOASTS.associated.text });
    const off = await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('STOCK-1', { id: a.id }), activo: 0 });
    expect(off.activo).toBe(0);
  });

  it('averages round half-up to the ten-thousandth', async () => {
    const db = t.app.manager.db;
    const a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('STOCK-2'));
    const principal = await db.selectFrom('almacenes').select('id').where('codigo', '=', 'PRINCIPAL').executeTakeFirstOrThrow();
    const base = { articulo_id: a.id, almacen_id: principal.id, ubicacion: 'A-01', documento_tipo: 'albaran_compra', documento_id: 1, fecha: '2026-03-02' };
    // 1 at 1,0000 and 2 at 1,0001: 3,0002 / 3 = 1,000066… → 1,0001.
    await db
      .insertInto('stock_movimientos')
      .values([
        { ...base, cantidad: 1_000, causa: 'compra', precio: 10_000 },
        { ...base, cantidad: 2_000, causa: 'compra', precio: 10_001 },
      ])
      .execute();
    expect(await articulo(t, t.cookie, a.id)).toMatchObject({ precio_medio_compra: 10_001, unidades_compradas: 3_000, stock_total: 3_000 });
  });
});
