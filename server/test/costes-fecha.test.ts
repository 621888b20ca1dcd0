import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CONF_FIELDS } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar } from './documentos-fixtures.ts';
import type { SuiteApp } from './helpers.ts';

/**
 * Issue 25, costs in date order (docs/costes.md): a purchase dated between two sales, entered after both, revalues the
 * later sale's cost, the stock value at every date after it and the margins; moving its date or deleting it puts them
 * back. Hand-computed: 10 bought at 5 € (D0), 4 sold (D1), [10 bought at 8 € (D2)], 4 sold (D3).
 */
const HOY = todayIn('Europe/Madrid');
const dia = (n: number) => {
  const d = new Date(`${HOY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const [D0, D1, D2, D3, D4] = [dia(-40), dia(-30), dia(-20), dia(-10), dia(-5)];

type Doc = Row & { lineas: (Row & { id: number })[] };
type Informe = { RESULT: string; data: Row[]; total: number; totales: Record<string, number | null> };

describe.each(backends())('average cost in date order ($name)', (backend) => {
  const t = useTestApp(backend);
  const ok = guardar<Doc>;
  const informe = async (ac: string, q: Record<string, string | number>): Promise<Informe> => {
    const res = await t.op(ac, { cookie: t.cookie, query: Object.fromEntries(Object.entries({ porPagina: 1000, ...q }).map(([k, v]) => [k, String(v)])) });
    expect(res.statusCode).toBe(200);
    return expectCleanAnswer(res) as unknown as Informe;
  };
  let principal: number;
  let tienda: number;
  let x: Row;
  let venta2: Doc;
  let compra: Doc;
  let proveedor: number;

  /** What a user checks: the later sale's cost (cents), the average now, the stock value today and at two dates. */
  const estado = async () => {
    const linea = await t.app.manager.db.selectFrom('documento_lineas').select('coste_libro').where('documento_id', '=', venta2.id).executeTakeFirstOrThrow();
    const art = await articulo(t, t.cookie, x.id);
    const valor = async (fecha: string) =>
      (await informe('informeinventario', { fecha, agrupar: 'articulo' })).data.find((r) => r.clave === String(x.id))?.valor ?? null;
    const ventas = await informe('informeventas', { desde: D3, hasta: D3, agrupar: 'documento' });
    return {
      costeVenta2: Math.round(Number(linea.coste_libro) / 100_000),
      medio: art.precio_medio_compra,
      hoy: await valor(HOY),
      enD2: await valor(D2),
      enD1: await valor(D1),
      margenD3: ventas.totales.margen,
    };
  };

  async function dbCheck(t: SuiteApp) {
    // Every row's stored cost equals the ledger replayed in date order by hand (the test's own arithmetic).
    const rows = (await sql<{ fecha: string; cantidad: string; coste: string | null }>`select fecha, cast(cantidad as text) as cantidad,
      cast(coste as text) as coste from stock_movimientos where articulo_id = ${x.id} order by fecha, id`.execute(t.app.manager.db)).rows;
    return rows.map((r) => [String(r.fecha).slice(0, 10), Number(r.cantidad), r.coste === null ? null : Number(r.coste)]);
  }

  it('setup: bought at 5 € on D0, sold 4 on D1 and 4 on D3', async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, ...Object.fromEntries(CONF_FIELDS.map((f) => [f, 1])) } });
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    tienda = (await save(t, t.cookie, 'editaralmacen', { codigo: 'TIENDA', nombre: 'Tienda centro' })).id;
    x = await save(t, t.cookie, 'editararticulo', nuevoArticulo('CF-X', { precio_venta: 100_000, precio_compra: 50_000 }));
    const p = await save(t, t.cookie, 'editarproveedor', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005' });
    proveedor = p.id;
    const c = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    await ok(t, 'editaralbarancompra', { fecha: D0, proveedor_id: p.id, almacen_id: principal, lineas: [{ articulo_id: x.id, cantidad: 10_000, precio: 50_000 }] });
    await ok(t, 'editaralbaranventa', { fecha: D1, cliente_id: c.id, almacen_id: principal, lineas: [{ articulo_id: x.id, cantidad: 4_000, precio: 100_000 }] });
    venta2 = await ok(t, 'editaralbaranventa', { fecha: D3, cliente_id: c.id, almacen_id: principal, lineas: [{ articulo_id: x.id, cantidad: 4_000, precio: 100_000 }] });
    // 4 × 5 € = 20,00 €; 2 left at 5 € = 10,00 € (6 at D1 and D2: 30,00 €); the sale of D3: 40,00 € − 20,00 €.
    expect(await estado()).toEqual({ costeVenta2: 2000, medio: 50_000, hoy: 1000, enD2: 3000, enD1: 3000, margenD3: 2000 });
  });

  it('a purchase dated D2, entered last, revalues the sale of D3, the stock value from D2 on and the margin', async () => {
    const p = proveedor;
    compra = await ok(t, 'editaralbarancompra', { fecha: D2, proveedor_id: p, almacen_id: principal, lineas: [{ articulo_id: x.id, cantidad: 10_000, precio: 80_000 }] });
    // In date order: 6 left at 5 € when 10 arrive at 8 €: (6 × 5 + 10 × 8) / 16 = 6,875 €. The sale of D3 costs
    // 4 × 6,875 = 27,50 € (not 20,00 €), 12 left at 6,875 € = 82,50 € (not the 90,00 € of entry order: (2 × 5 + 10 × 8) / 12
    // = 7,50 €); at D2 16 units = 110,00 €; D1 is before it and stays 6 × 5 €.
    expect(await estado()).toEqual({ costeVenta2: 2750, medio: 68_750, hoy: 8250, enD2: 11_000, enD1: 3000, margenD3: 1250 });
    expect(await dbCheck(t)).toEqual([
      [D0, 10_000, 50_000],
      [D1, -4_000, 50_000],
      [D2, 10_000, 68_750],
      [D3, -4_000, 68_750],
    ]);
    // Nothing is left marked for later.
    expect((await sql<{ n: number }>`select count(*) as n from costes_pendientes`.execute(t.app.manager.db)).rows[0]!.n).toEqual(0);
  });

  it('the movements report runs its balance in date order', async () => {
    const r = await informe('informemovimientos', { desde: D0, hasta: HOY, articulo_id: x.id, dir: 'asc' });
    expect(r.data.map((m) => [m.fecha, m.unidades, m.saldo, m.coste])).toEqual([
      [D0, 10_000, 10_000, 50_000],
      [D1, -4_000, 6_000, 50_000],
      [D2, 10_000, 16_000, 68_750],
      [D3, -4_000, 12_000, 68_750],
    ]);
    // Newest first by default: the same rows reversed, the first page's first row the latest date.
    const desc = await informe('informemovimientos', { desde: D0, hasta: HOY, articulo_id: x.id, porPagina: 2 });
    expect(desc.data.map((m) => [m.fecha, m.saldo])).toEqual([[D3, 12_000], [D2, 16_000]]);
    // The article record's movements too, page by page.
    const pagina = async (n: number) =>
      (await list(t, t.cookie, 'listadomovimientosarticulo', { articulo_id: x.id, porPagina: 10, pagina: n })).rows.map((m) => [m.fecha, m.cantidad, m.saldo]);
    expect(await pagina(1)).toEqual([
      [D3, -4_000, 12_000],
      [D2, 10_000, 16_000],
      [D1, -4_000, 6_000],
      [D0, 10_000, 10_000],
    ]);
  });

  it('moving the purchase to D4 (after the sale) and then deleting it puts the costs back', async () => {
    const p = proveedor;
    await ok(t, 'editaralbarancompra', { id: compra.id, fecha: D4, proveedor_id: p, almacen_id: principal, lineas: [{ articulo_id: x.id, cantidad: 10_000, precio: 80_000 }] });
    // Now after the sale: it cost 20,00 € again; 2 at 5 € + 10 at 8 € = 7,50 €, 90,00 € today; at D2 6 × 5 €.
    expect(await estado()).toEqual({ costeVenta2: 2000, medio: 75_000, hoy: 9000, enD2: 3000, enD1: 3000, margenD3: 2000 });
    expect(await dbCheck(t)).toEqual([
      [D0, 10_000, 50_000],
      [D1, -4_000, 50_000],
      [D2, 10_000, 68_750],
      [D2, -10_000, 50_000],
      [D3, -4_000, 50_000],
      [D4, 10_000, 75_000],
    ]);
    const borrado = await enviar(t, 'eliminaralbarancompra', { id: compra.id });
    expect(borrado.body.RESULT).toBe('0');
    // The opposite rows are dated as the rows they take back: the history is as it was before the purchase.
    expect(await estado()).toEqual({ costeVenta2: 2000, medio: 50_000, hoy: 1000, enD2: 3000, enD1: 3000, margenD3: 2000 });
  });

  it('a transfer moves goods at their average cost, and so keeps it', async () => {
    const y = await save(t, t.cookie, 'editararticulo', nuevoArticulo('CF-Y', { precio_compra: 67_900 }));
    const p = proveedor;
    // 21 at 6,79 € and 10 at 6,50 €: 6,6965 € (README's example); the catalogue's last price is 6,50 €.
    await ok(t, 'editaralbarancompra', { fecha: D0, proveedor_id: p, almacen_id: principal, lineas: [{ articulo_id: y.id, cantidad: 21_000, precio: 67_900 }] });
    await ok(t, 'editaralbarancompra', { fecha: D1, proveedor_id: p, almacen_id: principal, lineas: [{ articulo_id: y.id, cantidad: 10_000, precio: 65_000 }] });
    expect((await articulo(t, t.cookie, y.id)).precio_medio_compra).toBe(66_965);
    const mov = await ok(t, 'editarmovimiento', { fecha: HOY, almacen_id: principal, almacen_destino_id: tienda, lineas: [{ articulo_id: y.id, cantidad: 5_000, precio: 65_000 }] });
    const enviado = (await enviar<Doc>(t, 'enviarmovimiento', { id: mov.id })).body.data![0]!;
    // Its «Coste» is the cost it moved at, and so is its total: 5 × 6,6965 € = 33,48 €.
    expect(enviado.lineas.map((l) => l.precio)).toEqual([66_965]);
    expect(enviado.total).toBe(3348);
    await enviar(t, 'recibirmovimiento', { id: mov.id });
    expect((await articulo(t, t.cookie, y.id)).precio_medio_compra).toBe(66_965);
    const filas = (await sql<{ almacen_id: number; cantidad: string; precio: string }>`select almacen_id, cast(cantidad as text) as cantidad,
      cast(precio as text) as precio from stock_movimientos where articulo_id = ${y.id} and causa = 'traspaso' order by id`.execute(t.app.manager.db)).rows;
    expect(filas.map((f) => [f.almacen_id, Number(f.cantidad), Number(f.precio)])).toEqual([
      [principal, -5_000, 66_965],
      [tienda, 5_000, 66_965],
    ]);
  });
});

/**
 * The demo's year is written purchases first (out of date order): its costs are those of the ledger replayed by date,
 * as an auditor would replay it from the raw rows (this test's own arithmetic, docs/motor-documentos.md "The average cost"), and the
 * inventory's value today is the stock at those costs.
 */
describe.each(backends())('the demo year valued in date order ($name)', (backend) => {
  const t = useTestApp(backend, { demo: true, demoStock: true });
  it('every row, every average and the inventory today equal a replay by date', async () => {
    const db = t.app.manager.db;
    const filas = (await sql<{ id: number; articulo_id: number; cantidad: string; causa: string; precio: string; coste: string | null }>`
      select id, articulo_id, cast(cantidad as text) as cantidad, causa, cast(precio as text) as precio, cast(coste as text) as coste
      from stock_movimientos order by articulo_id, fecha, id`.execute(db)).rows;
    expect(filas.length).toBeGreaterThan(1000);
    // Written out of date order: some row has a later id than a row dated after it.
    const porId = (await sql<{ n: number }>`select count(*) as n from stock_movimientos a where exists (select 1 from stock_movimientos b
      where b.articulo_id = a.articulo_id and b.id < a.id and b.fecha > a.fecha)`.execute(db)).rows[0]!.n;
    expect(Number(porId)).toBeGreaterThan(0);
    const valoradas = new Set(['compra', 'inicial', 'inventario', 'ajuste', 'traspaso']);
    const mitad = (a: bigint, b: bigint) => (2n * a + b) / (2n * b); // half-up, a ≥ 0, b > 0
    const medio = new Map<number, bigint | null>();
    const stock = new Map<number, bigint>();
    let distintas = 0;
    for (const f of filas) {
      const s = stock.get(f.articulo_id) ?? 0n;
      let a = medio.get(f.articulo_id) ?? null;
      const q = BigInt(f.cantidad);
      const p = BigInt(f.precio);
      if (p > 0n && valoradas.has(f.causa)) {
        if (q > 0n) a = s <= 0n || a === null ? p : mitad(s * a + q * p, s + q);
        else if (f.causa === 'compra' && a !== null && s + q > 0n && s * a + q * p >= 0n) a = mitad(s * a + q * p, s + q);
      }
      medio.set(f.articulo_id, a);
      stock.set(f.articulo_id, s + q);
      if ((f.coste === null ? null : BigInt(f.coste)) !== a) distintas++;
    }
    expect(distintas).toBe(0);
    const articulos = (await sql<{ id: number; coste_medio: string | null }>`select id, cast(coste_medio as text) as coste_medio from articulos`.execute(db)).rows;
    for (const art of articulos) if (medio.has(art.id)) expect(art.coste_medio === null ? null : BigInt(art.coste_medio)).toBe(medio.get(art.id) ?? null);
    // Today's value: each position's units × its article's replayed average (else precio_compra), half-up to cents.
    const posiciones = (await sql<{ articulo_id: number; unidades: string; precio_compra: string }>`select m.articulo_id, cast(sum(m.cantidad) as text) as unidades,
      cast(max(a.precio_compra) as text) as precio_compra from stock_movimientos m join articulos a on a.id = m.articulo_id
      group by m.articulo_id, m.almacen_id`.execute(db)).rows;
    // Issue 25 (goods in transit): what a sent transfer has not yet delivered is the company's stock too, valued alike.
    const enTransito = (await sql<{ articulo_id: number; unidades: string; precio_compra: string }>`select l.articulo_id,
      cast(sum(l.pendiente) as text) as unidades, cast(max(a.precio_compra) as text) as precio_compra
      from documento_lineas l join documentos d on d.id = l.documento_id join articulos a on a.id = l.articulo_id
      where d.tipo = 'movimiento' and d.estado in ('enviado', 'recibido_parcial') and l.pendiente <> 0
      group by l.articulo_id`.execute(db)).rows;
    posiciones.push(...enTransito);
    let esperado = 0n;
    for (const p of posiciones) {
      const u = BigInt(p.unidades);
      const c = medio.get(p.articulo_id) ?? BigInt(p.precio_compra);
      const v = u * c;
      esperado += v >= 0n ? (v + 50_000n) / 100_000n : -((-v + 50_000n) / 100_000n);
    }
    const res = await t.op('informeinventario', { cookie: t.cookie, query: { fecha: HOY, agrupar: 'almacen', porPagina: '100' } });
    const body = expectCleanAnswer(res) as unknown as Informe;
    expect(BigInt(Number(body.totales.valor))).toBe(esperado);
  }, 300_000);
});
