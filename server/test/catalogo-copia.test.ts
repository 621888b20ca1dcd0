import { describe, expect, it } from 'vitest';
import { backends, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import type { TestApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';

async function download(t: TestApp, cookie: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res;
}

function restore(t: TestApp, cookie: string, content: string) {
  const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(content));
  return t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie } });
}

/** What a user sees of the catalogue: every list, and the full record of a few articles. */
async function catalogue(t: TestApp, cookie: string, ids: number[]) {
  const all = async (ac: string) => (await list(t, cookie, ac, { porPagina: 100, orden: 'codigo' })).rows;
  return {
    familias: await all('listadofamilias'),
    subfamilias: await all('listadosubfamilias'),
    marcas: await all('listadomarcas'),
    materiales: await all('listadomateriales'),
    procesos: await all('listadoprocesos'),
    articulos: await all('listadoarticulos'),
    records: await Promise.all(ids.map((id) => articulo(t, cookie, id))),
    search: (await list(t, cookie, 'listadoarticulos', { q: 'kit montaje' })).rows,
  };
}

describe.each(backends())('catálogo: copia de seguridad ($name)', (backend) => {
  const t = useTestApp(backend);

  it('backs up the whole catalogue and its ledger and restores it as it was, derived columns recomputed', async () => {
    await setFlags(t, t.cookie, { proporciones: 1 });
    const db = t.app.manager.db;
    const [tornillo] = (await list(t, t.cookie, 'listadoarticulos', { barras: 'TOR-M4-20' })).rows;
    const inox = (await list(t, t.cookie, 'listadomateriales', { q: 'INOX' })).rows[0];
    const llave = (await list(t, t.cookie, 'listadoprocesos', { q: 'LLAVE' })).rows[0];
    const kit = await save(t, t.cookie, 'editararticulo', {
      ...nuevoArticulo('KIT-MONTAJE', { descripcion: 'Kit de montaje en pared', precio_venta: 50000 }),
      materiales: [inox.id],
      procesos: [llave.id],
      componentes: [{ componente_id: tornillo.id, cantidad: 8000 }],
      proporciones: [{ material_id: inox.id, porcentaje: 10000 }],
    });
    const almacen = await db.selectFrom('almacenes').select('id').executeTakeFirstOrThrow();
    await db
      .insertInto('stock_movimientos')
      .values([
        { articulo_id: tornillo.id, almacen_id: almacen.id, ubicacion: 'B-2', cantidad: 12_000, causa: 'compra', documento_tipo: null, documento_id: null, fecha: '2026-02-01', precio: 4_000 },
        { articulo_id: tornillo.id, almacen_id: almacen.id, ubicacion: 'B-2', cantidad: -2_000, causa: 'venta', documento_tipo: null, documento_id: null, fecha: '2026-02-03', precio: 4_100 },
      ])
      .execute();
    const before = await catalogue(t, t.cookie, [kit.id, tornillo.id]);
    expect(before.records[1]).toMatchObject({ stock_total: 10_000, precio_medio_compra: 4_000, unidades_vendidas: 2_000 });

    const backup = (await download(t, t.cookie)).body;
    const tablas = JSON.parse(backup).tablas;
    expect(tablas.articulos[0]).not.toHaveProperty('stock_total');
    expect(tablas.articulos[0]).not.toHaveProperty('busqueda');
    expect(tablas.stock_movimientos).toHaveLength(2);
    expect(tablas.articulo_componentes).toEqual([{ articulo_id: kit.id, componente_id: tornillo.id, cantidad: 8000 }]);

    // Changes after the backup: gone once it is restored.
    await t.op('eliminararticulo', { cookie: t.cookie, body: { id: kit.id } });
    await save(t, t.cookie, 'editarfamilia', { codigo: 'DESPUES', nombre: 'Después de la copia' });
    await db.insertInto('stock_movimientos').values({ articulo_id: tornillo.id, almacen_id: almacen.id, ubicacion: null, cantidad: 5_000, causa: 'ajuste', documento_tipo: null, documento_id: null, fecha: '2026-02-04', precio: 0 }).execute();

    expect(expectCleanAnswer(await restore(t, t.cookie, backup)).RESULT).toBe('0');
    expect(await catalogue(t, t.cookie, [kit.id, tornillo.id])).toEqual(before);

    // New rows get fresh ids (PostgreSQL sequences follow the restored ones).
    const nuevo = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TRAS-COPIA'));
    expect(nuevo.id).toBeGreaterThan(kit.id);
    await save(t, t.cookie, 'editarfamilia', { codigo: 'TRAS', nombre: 'Tras la copia' });
  });

  it('restores a backup made before the catalogue existed: an empty catalogue with its default warehouse', async () => {
    const doc = JSON.parse((await download(t, t.cookie)).body);
    for (const table of ['almacenes', 'familias', 'subfamilias', 'marcas', 'materiales', 'procesos', 'articulos', 'articulo_materiales', 'articulo_procesos', 'articulo_componentes', 'articulo_proporciones', 'stock_movimientos', 'ubicaciones', 'articulo_ubicaciones', 'documento_lineas', 'documento_enlaces', 'documento_acciones', 'contadores']) {
      delete doc.tablas[table];
    }
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(doc))).RESULT).toBe('0');
    expect((await list(t, t.cookie, 'listadoarticulos')).total).toBe(0);
    expect((await list(t, t.cookie, 'listadofamilias')).total).toBe(0);
    const a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('PRIMERO'));
    expect((await articulo(t, t.cookie, a.id)).stock).toEqual([{ almacen_id: expect.any(Number), almacen_nombre: 'Almacén principal', stock: 0, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null }]);
  });
});
