import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar } from './documentos-fixtures.ts';

/**
 * «A clerk's day with the documents»: the average cost over every valued entry of the ledger (opening stock included),
 * the ledger naming each document by its real number, rectificativas counting where invoices count, and invoices
 * showing what is available.
 */

const HOY = todayIn('Europe/Madrid');

type Linea = Row & { id: number; articulo_id: number; cantidad: number; precio: number };
type Doc = Row & { id: number; estado: string; numero: string; total: number; lineas: Linea[] };

const post = enviar<Doc>;
const ok = guardar<Doc>;

/** A ledger row written straight into the table (opening stock, a sale outside the documents). */
async function movimiento(t: SuiteApp, articulo_id: number, almacen_id: number, cantidad: number, causa: string, precio: number) {
  await t.app.manager.db
    .insertInto('stock_movimientos')
    .values({ articulo_id, almacen_id, ubicacion: null, cantidad, causa, documento_tipo: null, documento_id: null, fecha: HOY, precio })
    .execute();
}

describe.each(backends())('la jornada de un administrativo con los documentos ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let proveedor: Row;
  let cliente: Row;
  let serieA: number;
  let serieR: number;

  it('setup: the main warehouse, a supplier, a customer, the series', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    proveedor = await save(t, t.cookie, 'editarproveedor', { nif: 'B28456713', razon_social: 'Suministros Castilla, S.L.' });
    cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieA = series.find((s) => s.codigo === 'A')!.id;
    serieR = series.find((s) => s.codigo === 'R')!.id;
  });

  it('the average cost counts the opening stock; returns to the supplier leave it; after negative stock the next entry resets it; Recalcular agrees', async () => {
    const a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('JOR-1', { precio_compra: 67_900 }));
    const coste = async () => (await articulo(t, t.cookie, a.id)).precio_medio_compra;
    const valor = async () => {
      const res = await list(t, t.cookie, 'listadostockalmacen', { almacen_id: principal, q: 'JOR-1' });
      return [res.rows[0].coste_medio, res.rows[0].valor, res.body.valor_total];
    };
    await movimiento(t, a.id, principal, 21_000, 'inicial', 67_900);
    expect(await coste()).toBe(67_900);
    const alb = await ok(t, 'editaralbarancompra', { fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 10_000, precio: 65_000 }] });
    // (21 × 6,79 + 10 × 6,50) / 31 = 6,69645… → 6,6965 €; 31 × 6,6965 = 207,59 €.
    expect(await coste()).toBe(66_965);
    expect(await valor()).toEqual([66_965, 20_759, 20_759]);
    // Its price corrected to 6 € and back: the units leave at the old price and enter at the new one, exactly
    // (21 × 6,79 + 10 × 6) / 31 = 6,5352 €, then 6,6965 € again.
    const corregir = (precio: number) =>
      ok(t, 'editaralbarancompra', { id: alb.id, fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ id: alb.lineas[0].id, articulo_id: a.id, cantidad: 10_000, precio }] });
    await corregir(60_000);
    expect(await coste()).toBe(65_352);
    const recibido = await corregir(65_000);
    expect(await coste()).toBe(66_965);

    // Returned to the supplier: fewer units, the same average.
    await ok(t, 'editardevolucioncompra', { fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 5_000, origen_linea_id: recibido.lineas[0].id }] });
    expect(await coste()).toBe(66_965);
    // Sold below zero (26 − 40 = −14): outflows never move it.
    await movimiento(t, a.id, principal, -40_000, 'venta', 100_000);
    expect(await coste()).toBe(66_965);
    // The next entry, with the stock at or below zero, starts again at its own cost.
    await ok(t, 'editaralbarancompra', { fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 20_000, precio: 70_000 }] });
    expect(await coste()).toBe(70_000);
    // A count found 4 more at 7,30 €: (6 × 7 + 4 × 7,30) / 10 = 7,12 €.
    await movimiento(t, a.id, principal, 4_000, 'inventario', 73_000);
    expect(await coste()).toBe(71_200);
    // Recalcular recomputes it from the ledger: the same value; a damaged one is found and repaired.
    const db = t.app.manager.db;
    expect((await post(t, 'recalcularstock', { aplicar: 0 })).body.data).toEqual([]);
    await sql`update articulos set coste_medio = 1 where id = ${a.id}`.execute(db);
    const check = await post(t, 'recalcularstock', { aplicar: 0 });
    expect(check.body.data).toEqual([expect.objectContaining({ articulo_id: a.id, codigo: 'JOR-1', coste_guardado: 1, coste_libro: 71_200 })]);
    expect((await post(t, 'recalcularstock', { aplicar: 1 })).body.data).toEqual([{ reparados: 1 }]);
    expect(await coste()).toBe(71_200);
  });

  it('entries without a price carry no cost; an article without valued entries is valued at its precio_compra', async () => {
    const a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('JOR-2', { precio_compra: 12_000 }));
    await movimiento(t, a.id, principal, 5_000, 'ajuste', 0);
    expect((await articulo(t, t.cookie, a.id)).precio_medio_compra).toBe(0);
    const res = await list(t, t.cookie, 'listadostockalmacen', { almacen_id: principal, q: 'JOR-2' });
    expect([res.rows[0].coste_medio, res.rows[0].valor]).toEqual([12_000, 600]);
    await movimiento(t, a.id, principal, 5_000, 'traspaso', 10_000);
    expect((await articulo(t, t.cookie, a.id)).precio_medio_compra).toBe(10_000);
  });

  it("the article's movements name an invoice and a rectificativa by their real numbers (serie, year, number)", async () => {
    const a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('JOR-3', { precio_venta: 100_000 }));
    await movimiento(t, a.id, principal, 10_000, 'inicial', 50_000);
    const f = await ok(t, 'emitirfactura', {
      id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: 2_000, precio: 100_000 }] })).id,
    });
    expect(f.numero).toMatch(/^A \d{4}\/\d{6}$/);
    const r = await ok(t, 'emitirrectificativa', {
      id: (await ok(t, 'editarrectificativa', { fecha: HOY, serie_id: serieR, factura_id: f.id, tipo: 'R1', lineas: [{ articulo_id: a.id, cantidad: -1_000, precio: 100_000, origen_linea_id: f.lineas[0].id }] })).id,
    });
    expect(r.numero).toMatch(/^R \d{4}\/\d{6}$/);
    const movs = await list(t, t.cookie, 'listadomovimientosarticulo', { articulo_id: a.id });
    expect(movs.rows.map((m) => [m.causa, m.documento_tipo, m.documento_numero])).toEqual([
      ['rectificativa', 'rectificativa', r.numero],
      ['venta', 'factura', f.numero],
      ['inicial', null, null],
    ]);
  });
});
