import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CONF_FIELD, CONF_FIELDS } from 'shared/domain';
import type { FlagName } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { siguienteCoste } from '../src/documentos/coste.ts';
import { informeInventario, modoInventario, valorar } from '../src/informes/almacen.ts';
import { AGRUPAR_COMPRAS, COLUMNAS_COMPRAS, informeCompras } from '../src/informes/compras.ts';
import { AGRUPAR_VENTAS, informeArticulos, informeClientes, informeVentas } from '../src/informes/ventas.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, kitDeDos } from './documentos-fixtures.ts';
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
  ['modelo349', {}],
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

const diaMas = (fecha: string, n: number) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const D1 = diaMas(HOY, -20);
const D2 = diaMas(HOY, -10);

type Doc = Row & { estado: string; numero: string; total: number; lineas: (Row & { id: number; articulo_id: number })[] };
type Informe = { RESULT: string; data: Row[]; total: number; totales: Record<string, number | null>; message?: string };

/**
 * A hand-built month (docs/informes.md): purchases on two days into two warehouses, one returned to the supplier and
 * two recorded by a supplier invoice; sales today: an albarán invoiced (F1), a direct invoice under recargo with a kit
 * (F2) corrected by a rectificativa (R1), an invoice cancelled (F3), a big one (F4, the 347's party), a devolución not
 * yet invoiced, a van loaded and selling; negative stock (B and a kit component in PRINCIPAL, S never bought).
 */
describe.each(backends())('informes over a hand-built month ($name)', (backend) => {
  const t = useTestApp(backend);
  const post = enviar<Doc>;
  const ok = guardar<Doc>;
  const informe = async (ac: string, q: Record<string, string | number> = {}): Promise<Informe> => {
    const res = await t.op(ac, { cookie: t.cookie, query: Object.fromEntries(Object.entries({ porPagina: 10_000, ...q }).map(([k, v]) => [k, String(v)])) });
    const body = expectCleanAnswer(res) as unknown as Informe;
    expect({ ac, status: res.statusCode, message: body.message ?? null }).toMatchObject({ status: 200 });
    return body;
  };
  let principal: number;
  let tienda: number;
  let van: number;
  let serieA: number;
  let serieR: number;
  let a: Row;
  let b: Row;
  let s: Row;
  let kit: { comp1: Row; comp2: Row; kit: Row };
  let p: Row;
  let c1: Row;
  let c2: Row;

  it('setup: the month', async () => {
    await todosLosModulos(t);
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    tienda = (await save(t, t.cookie, 'editaralmacen', { codigo: 'TIENDA', nombre: 'Tienda centro' })).id;
    van = (await save(t, t.cookie, 'editaralmacen', { codigo: 'VAN1', nombre: 'Furgoneta 1', es_furgoneta: 1, matricula: '1234ABC', conductor_id: 1 })).id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieA = series.find((r) => r.codigo === 'A')!.id;
    serieR = series.find((r) => r.codigo === 'R')!.id;
    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('INF-A', { precio_venta: 100_000 }));
    b = await save(t, t.cookie, 'editararticulo', nuevoArticulo('INF-B', { precio_venta: 50_000, tipo_iva: '10' }));
    s = await save(t, t.cookie, 'editararticulo', nuevoArticulo('INF-S', { precio_venta: 10_000_000, precio_compra: 5_000_000 }));
    kit = await kitDeDos(t, 'INF');
    p = await save(t, t.cookie, 'editarproveedor', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005' });
    c1 = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020', forma_pago: 'transferencia_30' });
    c2 = await save(t, t.cookie, 'editarcliente', { nif: '12345678Z', razon_social: 'Ferretería López', codigo_postal: '41001', recargo: 1, forma_pago: 'contado' });

    // Purchases: A 10 at 6 € and 4 kit components at 1,50 € (D1), A 10 at 8 € (D2: average 7 €), B 5 at 3 € in TIENDA.
    const alb1 = await ok(t, 'editaralbarancompra', { fecha: D1, proveedor_id: p.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 10_000, precio: 60_000 }, { articulo_id: kit.comp1.id, cantidad: 4_000, precio: 15_000 }] });
    const alb2 = await ok(t, 'editaralbarancompra', { fecha: D2, proveedor_id: p.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 10_000, precio: 80_000 }] });
    const alb3 = await ok(t, 'editaralbarancompra', { fecha: D1, proveedor_id: p.id, almacen_id: tienda, lineas: [{ articulo_id: b.id, cantidad: 5_000, precio: 30_000 }] });
    // One A back to the supplier (D2), at the price it came at.
    const dev = await ok(t, 'editardevolucioncompra', { fecha: D2, proveedor_id: p.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000, origen_linea_id: alb2.lineas[0]!.id }] });
    // The supplier's invoice for the first and third albaranes and the return: 66 + 15 − 8 = 73 € base, 13,68 € IVA.
    const fp = await post(t, 'editarfacturaproveedor', { proveedor_id: p.id, numero_proveedor: 'FP-1', fecha: HOY, total: 8_668, albaranes: [alb1.id, alb3.id], devoluciones: [dev.id] });
    expect(fp.body.RESULT).toBe('0');

    // F1: an albarán of 3 A invoiced and emitted.
    const av = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 3_000, precio: 100_000 }] });
    const f1 = await ok(t, 'facturaralbaranventa', { id: av.id, serie_id: serieA });
    const f1id = (f1.hijos as { tipo: string; id: number }[] | undefined)?.find((h) => h.tipo === 'factura')?.id ?? (await list(t, t.cookie, 'listadofacturas', { porPagina: 100 })).rows[0]!.id;
    expect((await ok(t, 'emitirfactura', { id: f1id })).estado).toBe('emitida');
    // F2 to the customer under recargo, from PRINCIPAL where B has no stock: 2 B (10 %) and the kit (21 %).
    const f2 = await ok(t, 'emitirfactura', {
      id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: b.id, cantidad: 2_000, precio: 50_000 }, { articulo_id: kit.kit.id, cantidad: 1_000, precio: 60_000 }] })).id,
    });
    expect(f2.total).toBe(1_871);
    // R1: one B less (by differences).
    const r1 = await ok(t, 'emitirrectificativa', {
      id: (await ok(t, 'editarrectificativa', { fecha: HOY, serie_id: serieR, factura_id: f2.id, tipo: 'R1', lineas: [{ articulo_id: b.id, cantidad: -1_000, precio: 50_000, origen_linea_id: f2.lineas[0]!.id }] })).id,
    });
    expect(r1.total).toBe(-557);
    // F3: emitted and cancelled.
    const f3 = await ok(t, 'emitirfactura', { id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 100_000 }] })).id });
    expect((await ok(t, 'anularfactura', { id: f3.id })).estado).toBe('anulada');
    // F4: 4 S at 1.000 € (never bought: precio_compra 500 €).
    await ok(t, 'emitirfactura', { id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: s.id, cantidad: 4_000, precio: 10_000_000 }] })).id });
    // A devolución of one A, not invoiced.
    await ok(t, 'editardevolucionventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 100_000 }] });
    // The van: 2 A loaded, 1 sold on an albarán.
    const mov = await ok(t, 'editarmovimiento', { fecha: HOY, almacen_id: principal, almacen_destino_id: van, lineas: [{ articulo_id: a.id, cantidad: 2_000 }] });
    await ok(t, 'enviarmovimiento', { id: mov.id });
    await ok(t, 'recibirmovimiento', { id: mov.id, lineas: [{ id: mov.lineas[0]!.id, cantidad: 2_000 }] });
    await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c1.id, almacen_id: van, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 100_000 }] });
  });

  it('informeventas: sales netted (rectificativa, devolución), the cancelled invoice out, the margin at the average cost of the moment', async () => {
    const esperado = { base: 404_100, iva: 84_806, recargo: 38, total: 488_944, coste: 202_700, margen: 201_400, unidades: 9_000, facturas: 404_600, rectificativas: -500, devoluciones: -1_000, albaranes: 1_000, tickets: 0, partes: 0 };
    for (const agrupar of ['mes', 'dia', 'cliente', 'articulo', 'familia', 'marca', 'serie', 'usuario', 'almacen', 'tipo', 'documento']) {
      const r = await informe('informeventas', { desde: HOY, hasta: HOY, agrupar });
      expect({ agrupar, ...r.totales }).toMatchObject({ agrupar, ...esperado });
      // The rows add up to the totals.
      expect(r.data.reduce((x, f) => x + Number(f.base), 0)).toBe(esperado.base);
    }
    const porTipo = await informe('informeventas', { desde: HOY, hasta: HOY, agrupar: 'tipo' });
    expect(Object.fromEntries(porTipo.data.map((f) => [f.tipo, [f.base, f.coste]]))).toEqual({
      factura: [404_600, 203_000],
      rectificativa: [-500, -300],
      devolucionventa: [-1_000, -700],
      albaranventa: [1_000, 700],
    });
    const porCliente = await informe('informeventas', { desde: HOY, hasta: HOY, agrupar: 'cliente' });
    expect(Object.fromEntries(porCliente.data.map((f) => [f.cliente_id, f.base]))).toEqual({ [c1.id]: 403_000, [c2.id]: 1_100 });
    const articulos = await informe('informeventas', { desde: HOY, hasta: HOY, agrupar: 'articulo' });
    expect(Object.fromEntries(articulos.data.map((f) => [f.articulo_id, [f.unidades, f.base, f.coste]]))).toEqual({
      [a.id]: [3_000, 3_000, 2_100],
      [b.id]: [1_000, 500, 300],
      [kit.kit.id]: [1_000, 600, 300],
      [s.id]: [4_000, 400_000, 200_000],
    });
    // Filters: one customer, one type, one warehouse (the van).
    expect((await informe('informeventas', { desde: HOY, hasta: HOY, cliente_id: c2.id })).totales).toMatchObject({ base: 1_100, iva: 176, recargo: 38 });
    expect((await informe('informeventas', { desde: HOY, hasta: HOY, tipo: 'rectificativa' })).totales).toMatchObject({ base: -500, iva: -50, recargo: -7 });
    expect((await informe('informeventas', { desde: HOY, hasta: HOY, almacen_id: van })).totales).toMatchObject({ base: 1_000, coste: 700 });
    // Paging keeps the totals of the whole selection.
    const pagina = await informe('informeventas', { desde: HOY, hasta: HOY, agrupar: 'articulo', porPagina: 1, pagina: 2, orden: 'base', dir: 'desc' });
    expect(pagina.data.map((f) => f.articulo_id)).toEqual([a.id]);
    expect(pagina.total).toBe(4);
    expect(pagina.totales.base).toBe(esperado.base);
    // Nothing before the sales.
    expect((await informe('informeventas', { desde: D1, hasta: D2 })).totales.base).toBe(0);
  });

  it('informecompras and informeproveedores: received less returned, what the supplier invoice covers', async () => {
    const r = await informe('informecompras', { desde: D1, hasta: HOY, agrupar: 'proveedor' });
    expect(r.totales).toMatchObject({ base: 15_300, iva: 3_048, total: 18_348, facturado: 7_300, pendiente_facturar: 8_000, devoluciones: -800, documentos: 4 });
    const art = await informe('informecompras', { desde: D1, hasta: HOY, agrupar: 'articulo' });
    expect(art.data.find((f) => f.articulo_id === a.id)).toMatchObject({ unidades: 19_000, base: 13_200, ultimo_precio: 80_000 });
    const prov = await informe('informeproveedores', { desde: D1, hasta: HOY });
    expect(prov.data).toEqual([expect.objectContaining({ proveedor_id: p.id, base: 15_300, facturas: 1, facturado: 8_668, pendiente_facturar: 8_000, nif: 'B08934127' })]);
  });

  it('informeinventario: the value at a past date is the ledger replayed to that date; negative stock; per warehouse', async () => {
    const db = t.app.manager.db;
    const filas: { id: number; articulo_id: number; almacen_id: number; cantidad: number; causa: string; precio: number; fecha: string }[] = await db.selectFrom('stock_movimientos').select(['id', 'articulo_id', 'almacen_id', 'cantidad', 'causa', 'precio', 'fecha']).orderBy('id').execute();
    const compra = new Map((await db.selectFrom('articulos').select(['id', 'precio_compra']).execute()).map((x) => [x.id, BigInt(x.precio_compra)]));
    const replay = (fecha: string, almacen?: number) => {
      const coste = new Map<number, bigint | null>();
      const total = new Map<number, bigint>();
      const stock = new Map<string, bigint>();
      for (const f of filas.filter((x) => String(x.fecha).slice(0, 10) <= fecha)) {
        const q = BigInt(f.cantidad);
        coste.set(f.articulo_id, siguienteCoste(total.get(f.articulo_id) ?? 0n, coste.get(f.articulo_id) ?? null, { cantidad: q, causa: f.causa, precio: BigInt(f.precio) }));
        total.set(f.articulo_id, (total.get(f.articulo_id) ?? 0n) + q);
        const k = `${f.articulo_id}|${f.almacen_id}`;
        stock.set(k, (stock.get(k) ?? 0n) + q);
      }
      let valor = 0n;
      let unidades = 0n;
      for (const [k, q] of stock) {
        const [art, alm] = k.split('|').map(Number) as [number, number];
        if (almacen && alm !== almacen) continue;
        unidades += q;
        valor += valorar(q, coste.get(art) ?? compra.get(art) ?? 0n);
      }
      return { valor: Number(valor), unidades: Number(unidades) };
    };
    // The documents' rows are dated when written (today); a past the ledger holds: 10 X at 6 € (D1), 10 at 8 € and 4
    // sold (D2), 5 counted in at 7 € in TIENDA (today). Between D1 and D2, by hand: 60 €; after D2: 16 at 7 € = 112 €.
    const x = await save(t, t.cookie, 'editararticulo', nuevoArticulo('INF-X', { precio_venta: 100_000 }));
    const fila = (almacen_id: number, cantidad: number, causa: string, precio: number, fecha: string) =>
      db.insertInto('stock_movimientos').values({ articulo_id: x.id, almacen_id, ubicacion: null, cantidad, causa, documento_tipo: null, documento_id: null, fecha, precio }).execute();
    await fila(principal, 10_000, 'inicial', 60_000, D1);
    await fila(principal, 10_000, 'compra', 80_000, D2);
    await fila(principal, -4_000, 'venta', 100_000, `${D2}T10:00:00Z`);
    await fila(tienda, 5_000, 'inventario', 70_000, HOY);
    filas.push(...(await db.selectFrom('stock_movimientos').select(['id', 'articulo_id', 'almacen_id', 'cantidad', 'causa', 'precio', 'fecha']).where('articulo_id', '=', x.id).orderBy('id').execute()));
    compra.set(x.id, 0n);
    const soloX = async (fecha: string) => (await informe('informeinventario', { fecha })).data.find((f) => f.articulo_id === x.id);
    expect(await soloX(diaMas(D1, -1))).toBeUndefined();
    expect(await soloX(diaMas(D2, -1))).toMatchObject({ unidades: 10_000, valor: 6_000, coste_unitario: 60_000 });
    expect(await soloX(D2)).toMatchObject({ unidades: 16_000, valor: 11_200, coste_unitario: 70_000 });
    expect(await soloX(HOY)).toMatchObject({ unidades: 21_000, valor: 14_700 });
    for (const fecha of [diaMas(D1, -1), D1, diaMas(D2, -1), D2, HOY]) {
      expect((await informe('informeinventario', { fecha })).totales).toMatchObject(replay(fecha));
      expect((await informe('informeinventario', { fecha, almacen_id: principal })).totales).toMatchObject(replay(fecha, principal));
      expect((await informe('informeinventario', { fecha, almacen_id: tienda })).totales).toMatchObject(replay(fecha, tienda));
    }
    // Today, per warehouse: the van holds 1 A at 7 €.
    const porAlmacen = await informe('informeinventario', { agrupar: 'almacen' });
    expect(porAlmacen.data.find((f) => f.almacen_id === van)).toMatchObject({ unidades: 1_000, valor: 700 });
    // Negative stock in PRINCIPAL: B (−2 + 1 back), the kit's second component, S.
    const negativos = await informe('informeinventario', { almacen_id: principal, vista: 'negativo' });
    expect(Object.fromEntries(negativos.data.map((f) => [f.articulo_id, f.unidades]))).toEqual({ [b.id]: -1_000, [kit.comp2.id]: -1_000, [s.id]: -4_000 });
  });

  it('informeinventario «Bajo mínimo»: the articles under their minimum stock, with what to order at the last purchase price and from whom', async () => {
    const stockDe = async (id: number) => (await informe('informeinventario', { agrupar: 'articulo' })).data.filter((r) => r.articulo_id === id).reduce((x, r) => x + Number(r.unidades), 0);
    const stockA = await stockDe(a.id);
    expect(stockA).toBeGreaterThan(0);
    // A: minimum 5 units over its stock; B: a minimum it has (5 − 1 − 2 = 2 units in all, minimum 1); S: never bought (−4), minimum 2.
    await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('INF-A', { precio_venta: 100_000 }), id: a.id, stock_minimo: stockA + 5_000 });
    await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('INF-B', { precio_venta: 50_000, tipo_iva: '10' }), id: b.id, stock_minimo: 1_000 });
    await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('INF-S', { precio_venta: 10_000_000, precio_compra: 5_000_000 }), id: s.id, stock_minimo: 2_000 });
    expect((await list(t, t.cookie, 'listadoarticulos', { id: a.id })).rows[0]!.stock_minimo).toBe(stockA + 5_000);
    const r = await informe('informeinventario', { vista: 'bajo_minimo' });
    const porCodigo = Object.fromEntries(r.data.map((x) => [x.codigo, x]));
    expect(Object.keys(porCodigo).sort()).toEqual(['INF-A', 'INF-S']);
    // A: 5 to order at its last purchase price (8 €) from the supplier of that purchase.
    expect(porCodigo['INF-A']).toMatchObject({ stock_minimo: stockA + 5_000, unidades: stockA, a_pedir: 5_000, ultimo_precio: 80_000, importe_pedir: 4_000, proveedor: 'Distribuciones Mediterráneo, S.L.' });
    // S: −4 in stock, 6 to order at its precio_compra (500 €), no purchase yet.
    expect(porCodigo['INF-S']).toMatchObject({ unidades: -4_000, a_pedir: 6_000, ultimo_precio: 5_000_000, importe_pedir: 300_000, proveedor: null });
    expect(r.totales).toMatchObject({ articulos: 2, a_pedir: 11_000, importe_pedir: 304_000 });
    expect(r.data.map((x) => x.codigo)).toEqual(['INF-S', 'INF-A']);
    // Paged in SQL: page 2 of 1 row is A; a page past the end still answers the totals of the whole selection.
    expect((await informe('informeinventario', { vista: 'bajo_minimo', porPagina: 1, pagina: 2 })).data.map((x) => x.codigo)).toEqual(['INF-A']);
    expect(await informe('informeinventario', { vista: 'bajo_minimo', porPagina: 1, pagina: 5 })).toMatchObject({ data: [], total: 2, totales: { articulos: 2, a_pedir: 11_000 } });
    // In one warehouse: B's stock in TIENDA (5) is over its minimum; in PRINCIPAL (−2) under it.
    expect((await informe('informeinventario', { vista: 'bajo_minimo', almacen_id: tienda })).data.map((x) => x.codigo)).not.toContain('INF-B');
    expect((await informe('informeinventario', { vista: 'bajo_minimo', almacen_id: principal })).data.map((x) => x.codigo)).toContain('INF-B');
    // Back to no minimum: the view is empty again.
    for (const [x, cod, extra] of [[a, 'INF-A', { precio_venta: 100_000 }], [b, 'INF-B', { precio_venta: 50_000, tipo_iva: '10' }], [s, 'INF-S', { precio_venta: 10_000_000, precio_compra: 5_000_000 }]] as const) {
      await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo(cod, extra), id: x.id, stock_minimo: 0 });
    }
    expect((await informe('informeinventario', { vista: 'bajo_minimo' })).total).toBe(0);
  });

  it('informemovimientos: the ledger with its running balance', async () => {
    const r = await informe('informemovimientos', { desde: D1, hasta: HOY, articulo_id: a.id, almacen_id: principal });
    const stockA = Number((await db(t).selectFrom('stock_movimientos').select((eb) => eb.fn.sum<number>('cantidad').as('s')).where('articulo_id', '=', a.id).where('almacen_id', '=', principal).executeTakeFirstOrThrow()).s);
    expect(r.data[0]!.saldo).toBe(stockA);
    expect(r.totales.unidades).toBe(stockA);
    expect(r.data.at(-1)).toMatchObject({ causa: 'compra', unidades: 10_000, saldo: 10_000, documento_tipo: 'albarancompra' });
  });

  it('informeclientes: receivables with their ageing; informearticulos: ABC and rotation', async () => {
    const r = await informe('informeclientes', { desde: HOY, hasta: HOY });
    const por = Object.fromEntries(r.data.map((f) => [f.cliente_id, f]));
    expect(por[c1.id]).toMatchObject({ base: 403_000, pendiente_cobro: 487_630, tramo_0_30: 487_630, vencido: 0 });
    // Paid «contado»: collected when emitted (cobros, issue 17), the rectificativa refunded likewise.
    expect(por[c2.id]).toMatchObject({ base: 1_100, pendiente_cobro: 0 });
    const art = await informe('informearticulos', { desde: HOY, hasta: HOY });
    expect(art.data[0]).toMatchObject({ articulo_id: s.id, clase_abc: 'A' });
    expect(art.totales).toMatchObject({ base: 404_100, coste: 202_700 });
  });

  it('informefurgonetas and informetarifas', async () => {
    const r = await informe('informefurgonetas', { desde: HOY, hasta: HOY });
    expect(r.data).toEqual([expect.objectContaining({ almacen_id: van, cargas: 2_000, unidades_vendidas: 1_000, base: 1_000, unidades: 1_000, valor: 700 })]);
    const tar = await informe('informetarifas', {});
    expect(tar.data.find((f) => f.articulo_id === a.id)).toMatchObject({ precio_venta: 100_000, coste: 70_000, margen_1: 3_000 });
  });

  it('libro de facturas expedidas, recibidas, modelo 303 and 347 to the cent', async () => {
    const ex = await informe('librofacturasexpedidas', { desde: HOY, hasta: HOY });
    // Five rows of the four issued invoices, and the cancelled one's number (issue 25: «Anulada», amounts 0, its record).
    expect(ex.total).toBe(6);
    expect(ex.totales).toMatchObject({ base: 404_100, iva: 84_806, recargo: 38, documentos: 4, anuladas: 1 });
    expect(ex.data.filter((f) => f.estado === 'Anulada')).toEqual([expect.objectContaining({ concepto: 'Anulada', base: 0, iva: 0, total: 0, anulacion_fecha: HOY })]);
    const rec = await informe('librofacturasrecibidas', { desde: HOY, hasta: HOY });
    expect(rec.data.map((f) => [f.tipo_iva, f.base, f.iva])).toEqual([[2100, 5_800, 1_218], [1000, 1_500, 150]]);
    expect(rec.totales).toMatchObject({ base: 7_300, iva: 1_368, total: 8_668 });
    const m303 = await informe('modelo303', { desde: HOY, hasta: HOY });
    const cas = Object.fromEntries(m303.data.map((f) => [f.casilla, f.importe ?? f.porcentaje]));
    expect(cas).toMatchObject({
      '01': 0, '03': 0, '04': 1_000, '05': 1000, '06': 100, '07': 403_600, '08': 2100, '09': 84_756, '14': -500, '15': -50,
      '19': 1_000, '20': 140, '21': 14, '22': 600, '23': 520, '24': 31, '25': -500, '26': -7, '27': 84_844, '28': 7_300, '29': 1_368, '45': 1_368, '46': 83_476, '71': 83_476,
    });
    const m347 = await informe('modelo347', { ejercicio: Number(ANIO) });
    const trimestre = Math.floor((Number(HOY.slice(5, 7)) - 1) / 3) + 1;
    expect(m347.data).toEqual([
      expect.objectContaining({ clave_operacion: 'B', cliente_id: c1.id, nif: 'B85612349', provincia: 'Madrid', codigo_provincia: '28', importe: 487_630, [`t${trimestre}`]: 487_630 }),
    ]);
  });

  it('informeregistros: the records by state', async () => {
    const r = await informe('informeregistros', { desde: HOY, hasta: HOY });
    expect(r.totales).toMatchObject({ registros: 6, altas: 5, anulaciones: 1 });
  });

  it('flags off → 403; without «ver» in Facturas the fiscal books are refused', async () => {
    const cuales: [FlagName, string][] = [
      ['almacenes', 'informeinventario'], ['almacenes', 'informemovimientos'], ['compras', 'informecompras'], ['compras', 'informeproveedores'], ['ventas', 'informeventas'],
      ['ventas', 'informeclientes'], ['tpv', 'informecierrestpv'], ['furgonetas', 'informefurgonetas'], ['ventas_facturas', 'librofacturasexpedidas'], ['hcp', 'librofacturasrecibidas'], ['ventas_facturas', 'modelo303'],
    ];
    for (const [nombre, ac] of cuales) {
      const flag = CONF_FIELD[nombre];
      await modulos(t, { [flag]: 0 });
      const res = await t.op(ac, { cookie: t.cookie });
      expect({ ac, flag, status: res.statusCode }).toEqual({ ac, flag, status: 403 });
      await modulos(t, { [flag]: 1 });
      expect((await t.op(ac, { cookie: t.cookie })).statusCode).toBe(200);
    }
    // A role that sees Informes but neither Facturas nor costs: the reports without costs, the fiscal books refused.
    const rol = await save(t, t.cookie, 'editarrol', { nombre: 'Informes sin facturas', derechos: { areas: { informes: ['ver'] }, especiales: [], descuento_maximo: 0 } });
    await save(t, t.cookie, 'editarusuario', { nombre: 'consulta', email: 'consulta@informes.es', password: 'Consulta-2026', rol_id: rol.id });
    const cookie = await t.login('consulta@informes.es', 'Consulta-2026');
    const ventas = await t.op('informeventas', { cookie, query: { desde: HOY, hasta: HOY, agrupar: 'articulo' } });
    expect(ventas.statusCode).toBe(200);
    const body = ventas.json() as Informe;
    expect(body.totales.base).toBe(404_100);
    expect(body.totales).not.toHaveProperty('coste');
    expect(body.data[0]).not.toHaveProperty('margen');
    for (const ac of ['librofacturasexpedidas', 'librofacturasrecibidas', 'modelo303', 'modelo347', 'modelo349', 'informeregistros']) {
      const res = await t.op(ac, { cookie });
      expect({ ac, status: res.statusCode, derecho: res.json().derecho }).toEqual({ ac, status: 403, derecho: 'facturas.ver' });
    }
  });

  it('the aggregates answer as the detailed query, through an undo, an anulación and a rectificativa; Recalcular finds them exact', async () => {
    const app = t.app.manager;
    const paging = { orden: null, dir: null, pagina: 1, porPagina: 10_000 };
    const periodos = [{ desde: HOY, hasta: HOY }, { desde: D1, hasta: D2 }];
    const FILTROS = [{}, { cliente_id: c1.id }, { almacen_id: principal }, { serie_id: serieA }, { tipo: 'factura' }, { articulo_id: a.id }, { familia_id: 1 }, { usuario_id: 1 }];
    const comparar = async (momento: string) => {
      for (const p of periodos) {
        for (const agrupar of AGRUPAR_VENTAS) {
          // Every filter on the default grouping and on the article's; the rest unfiltered and by one customer.
          for (const filtro of agrupar === 'mes' || agrupar === 'articulo' ? FILTROS : FILTROS.slice(0, 2)) {
            const f = { ...p, ...filtro };
            const agregado = await informeVentas(app, f, agrupar, paging, 'agregado');
            const detalle = await informeVentas(app, f, agrupar, paging, 'detalle');
            expect({ momento, agrupar, f, ...agregado }).toEqual({ momento, agrupar, f, ...detalle });
          }
        }
        for (const agrupar of ['cliente', 'mes', 'anio'] as const) {
          expect({ momento, agrupar, ...(await informeClientes(app, { ...p, agrupar }, paging, 'agregado')) }).toEqual({ momento, agrupar, ...(await informeClientes(app, { ...p, agrupar }, paging, 'detalle')) });
        }
        for (const vista of ['todos', 'bajo_coste'] as const) {
          expect({ momento, vista, ...(await informeArticulos(app, { ...p, vista }, paging, 'agregado')) }).toEqual({ momento, vista, ...(await informeArticulos(app, { ...p, vista }, paging, 'detalle')) });
        }
      }
      // The write actions left nothing pending: their transactions brought the aggregates up to date before committing.
      expect(Number((await sql<{ n: number }>`select count(*) as n from informe_pendientes`.execute(app.db)).rows[0]!.n)).toBe(0);
    };
    // The reports read the aggregates (not an empty table that happens to match an empty period).
    expect(Number((await sql<{ n: number }>`select count(*) as n from informe_ventas_dia`.execute(app.db)).rows[0]!.n)).toBeGreaterThan(0);
    await comparar('the month');

    // An albarán invoiced (draft), then the invoicing undone: the albarán counts again, once.
    const alb = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 2_000, precio: 90_000 }] });
    await ok(t, 'facturaralbaranventa', { id: alb.id, serie_id: serieA });
    await comparar('albarán invoiced, draft');
    expect((await ok(t, 'deshacerfacturacionalbaranventa', { id: alb.id })).estado).toBe('pendiente');
    await comparar('invoicing undone');
    // Invoiced again and emitted: the albarán's units move to its invoice; then the invoice is cancelled.
    const fac = await ok(t, 'facturaralbaranventa', { id: alb.id, serie_id: serieA });
    const facId = (fac.hijos as { tipo: string; id: number }[]).find((h) => h.tipo === 'factura')!.id;
    await ok(t, 'emitirfactura', { id: facId });
    await comparar('invoice emitted');
    expect((await ok(t, 'anularfactura', { id: facId })).estado).toBe('anulada');
    await comparar('invoice cancelled');
    // A rectificativa by substitution of a new invoice: its lines replace the invoice's whole.
    const f5 = await ok(t, 'emitirfactura', { id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: b.id, cantidad: 3_000, precio: 50_000 }] })).id });
    await ok(t, 'emitirrectificativa', {
      id: (await ok(t, 'editarrectificativa', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieR, factura_id: f5.id, tipo: 'R1', modo: 'sustitucion', lineas: [{ articulo_id: b.id, cantidad: 2_000, precio: 45_000, origen_linea_id: f5.lineas[0]!.id }] })).id,
    });
    await comparar('rectificativa by substitution');

    // Stock today from the stock per warehouse = the ledger summed; a past date still replays the ledger.
    for (const q of [{}, { agrupar: 'almacen' }, { agrupar: 'familia' }, { almacen_id: principal }, { vista: 'negativo' }, { vista: 'sin_movimiento', dias: 5 }] as const) {
      const f = { fecha: HOY, agrupar: 'articulo', vista: 'todos', dias: 90, ...q } as const;
      expect({ q, ...(await informeInventario(app, f, paging, 'agregado')) }).toEqual({ q, ...(await informeInventario(app, f, paging, 'detalle')) });
    }

    // Recalcular: exact, nothing differs; after a corrupted row it says so, and the answers are right again.
    const recalcular = async () => (await post(t, 'recalcularinformes', {})).body as unknown as { RESULT: string; message: string; data: { filas: number; diferencias: number }[] };
    const exacto = await recalcular();
    expect(exacto).toMatchObject({ RESULT: '0', data: [{ diferencias: 0 }] });
    expect(exacto.message).toContain('sin diferencias');
    await sql`update informe_ventas_dia set base = base + 1`.execute(app.db);
    await sql`update stock_almacen set cantidad = cantidad + 1000 where articulo_id = ${a.id}`.execute(app.db);
    const corregido = await recalcular();
    expect(corregido.data[0]!.diferencias).toBeGreaterThan(0);
    expect(corregido.message).toContain('diferían');
    await comparar('after Recalcular');
  }, 240_000);

  it('random sales actions: the day rows kept by deltas equal the per-document rows summed again, and Recalcular finds nothing to correct', async () => {
    const app = t.app.manager;
    const clave = 'fecha, tipo, serie_id, almacen_id, cliente_id, usuario_id, terminal_id';
    const texto = (rows: Record<string, unknown>[]) => rows.map((r) => Object.values(r).map((x) => (x === null ? '' : String(x).replace(/\.0+$/, ''))).join('|')).sort();
    const dias = async () => texto((await sql<Record<string, unknown>>`select ${sql.raw(clave)}, documentos, lineas, unidades, base, iva, recargo, coste from informe_ventas_dia`.execute(app.db)).rows);
    const resumidos = async () => texto((await sql<Record<string, unknown>>`select ${sql.raw(clave)}, count(distinct documento_id) as documentos, sum(lineas) as lineas, sum(unidades) as unidades, sum(base) as base, sum(iva) as iva, sum(recargo) as recargo, sum(coste) as coste
      from informe_ventas_articulo group by ${sql.raw(clave)}`.execute(app.db)).rows);
    const meses = async () => texto((await sql<Record<string, unknown>>`select mes, articulo_id, almacen_id, documentos, lineas, unidades, base, iva, recargo, coste, bajo_coste,
        base_factura, base_albaran from informe_ventas_articulo_mes`.execute(app.db)).rows);
    const mesesResumidos = async () => texto((await sql<Record<string, unknown>>`select substr(fecha, 1, 7) as mes, articulo_id, coalesce(almacen_id, 0) as almacen_id, count(*) as documentos,
        sum(lineas) as lineas, sum(unidades) as unidades, sum(base) as base, sum(iva) as iva, sum(recargo) as recargo, sum(coste) as coste, sum(bajo_coste) as bajo_coste,
        sum(case when tipo = 'factura' then base else 0 end) as base_factura, sum(case when tipo = 'albaranventa' then base else 0 end) as base_albaran
      from informe_ventas_articulo group by substr(fecha, 1, 7), articulo_id, coalesce(almacen_id, 0)`.execute(app.db)).rows);
    let semilla = 14_2026;
    const azar = (n: number) => {
      semilla = (semilla * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((semilla / 2_147_483_648) * n);
    };
    const lineas = () => Array.from({ length: 1 + azar(3) }, () => ({ articulo_id: [a, b, s][azar(3)]!.id, cantidad: (1 + azar(4)) * 1_000, precio: (1 + azar(9)) * 10_000 }));
    const pendientes: number[] = [];
    const emitidas: number[] = [];
    const hechas: string[] = [];
    for (let i = 0; i < 30; i++) {
      const fecha = [HOY, D1, D2][azar(3)]!;
      const cliente = [c1, c2][azar(2)]!.id;
      const que = azar(6);
      if (que === 0 || pendientes.length === 0) {
        pendientes.push((await ok(t, 'editaralbaranventa', { fecha, cliente_id: cliente, almacen_id: principal, lineas: lineas() })).id);
        hechas.push('albarán');
      } else if (que === 1) {
        const id = pendientes[azar(pendientes.length)]!;
        await ok(t, 'editaralbaranventa', { id, fecha, cliente_id: cliente, almacen_id: principal, lineas: lineas() });
        hechas.push('albarán editado');
      } else if (que === 2) {
        const id = pendientes.splice(azar(pendientes.length), 1)[0]!;
        const fac = await ok(t, 'facturaralbaranventa', { id, serie_id: serieA });
        emitidas.push((await ok(t, 'emitirfactura', { id: (fac.hijos as { tipo: string; id: number }[]).find((h) => h.tipo === 'factura')!.id })).id);
        hechas.push('albarán facturado y emitido');
      } else if (que === 3) {
        emitidas.push((await ok(t, 'emitirfactura', { id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente, almacen_id: principal, serie_id: serieA, lineas: lineas() })).id })).id);
        hechas.push('factura emitida');
      } else if (que === 4 && emitidas.length) {
        await ok(t, 'anularfactura', { id: emitidas.splice(azar(emitidas.length), 1)[0]! });
        hechas.push('factura anulada');
      } else {
        const id = pendientes.splice(azar(pendientes.length), 1)[0]!;
        expect((await post(t, 'eliminaralbaranventa', { id })).body.RESULT).toBe('0');
        hechas.push('albarán eliminado');
      }
      expect({ hechas, dias: await dias() }).toEqual({ hechas, dias: await resumidos() });
      // The month × article rows (migration 0028), moved by the same deltas, equal the per-document rows summed by month.
      expect({ hechas, meses: await meses() }).toEqual({ hechas, meses: await mesesResumidos() });
    }
    expect(new Set(hechas).size).toBeGreaterThanOrEqual(5);
    const r = (await post(t, 'recalcularinformes', {})).body as unknown as { data: { diferencias: number }[] };
    expect(r.data[0]!.diferencias).toBe(0);
  }, 240_000);

  it('informecompras, informeproveedores and the 347 equal the documents summed one by one (every grouping and filter)', async () => {
    const app = t.app.manager;
    const paging = { orden: null, dir: null, pagina: 1, porPagina: 10_000 };
    // A second supplier into TIENDA: a discount and odd prices (each line's rounding counts), two rates; a big receipt
    // recorded by its invoice (the 347's clave A), and one of the first supplier's albaranes returned in part, not invoiced.
    const p2 = await save(t, t.cookie, 'editarproveedor', { nif: 'B46123451', razon_social: 'Suministros del Turia, S.L.', codigo_postal: '46002' });
    const alb4 = await ok(t, 'editaralbarancompra', {
      fecha: D2, proveedor_id: p2.id, almacen_id: tienda,
      lineas: [{ articulo_id: a.id, cantidad: 3_333, precio: 12_345, descuento: 1_250 }, { articulo_id: b.id, cantidad: 7_000, precio: 9_999 }, { articulo_id: a.id, cantidad: 1_001, precio: 7_777, descuento: 333 }],
    });
    const alb5 = await ok(t, 'editaralbarancompra', { fecha: HOY, proveedor_id: p2.id, almacen_id: principal, lineas: [{ articulo_id: s.id, cantidad: 400_000, precio: 100_000 }] });
    expect((await post(t, 'editarfacturaproveedor', { proveedor_id: p2.id, numero_proveedor: 'T-77', fecha: HOY, total: alb5.total, albaranes: [alb5.id] })).body.RESULT).toBe('0');
    await ok(t, 'editardevolucioncompra', { fecha: HOY, proveedor_id: p2.id, almacen_id: tienda, lineas: [{ articulo_id: b.id, cantidad: 2_000, origen_linea_id: alb4.lineas[1]!.id }] });
    // A big invoice to the second customer replaced by a rectificativa by substitution (the 347 counts the difference).
    const f6 = await ok(t, 'emitirfactura', { id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: s.id, cantidad: 8_000, precio: 10_000_000 }] })).id });
    await ok(t, 'emitirrectificativa', {
      id: (await ok(t, 'editarrectificativa', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieR, factura_id: f6.id, tipo: 'R1', modo: 'sustitucion', lineas: [{ articulo_id: s.id, cantidad: 5_000, precio: 10_000_000, origen_linea_id: f6.lineas[0]!.id }] })).id,
    });

    // The purchase lines as stored, each line's base and IVA its share of its document's stored desglose (issue 25):
    // per rate, each line's exact net floored to cents and the cents the rate's base lacks given to the largest
    // remainders (then the lower line id); the IVA likewise over base × rate.
    const lineas = (await sql<Record<string, number | string | null>>`
      select d.id, d.tipo, d.fecha, d.proveedor_id, d.almacen_id, d.desglose, l.id as linea_id, l.articulo_id, ar.familia_id, l.cantidad, l.precio, l.descuento, l.tipo_iva,
        (select count(*) from facturas_proveedor_documentos fd where fd.documento_id = d.id) as facturas
      from documentos d join documento_lineas l on l.documento_id = d.id join articulos ar on ar.id = l.articulo_id
      where d.tipo in ('albarancompra', 'devolucioncompra')`.execute(app.db)).rows;
    const TASA: Record<string, bigint> = { '21': 2100n, '10': 1000n, '4': 400n };
    const repartir = (exactos: { id: number; v: bigint }[], escala: bigint, total: bigint): Map<number, bigint> => {
      const suelos = exactos.map((e) => ({ id: e.id, s: e.v / escala, r: e.v % escala }));
      let falta = total - suelos.reduce((a, e) => a + e.s, 0n);
      const orden = [...suelos].sort((x, y) => (x.r === y.r ? x.id - y.id : x.r > y.r ? -1 : 1));
      const out = new Map(suelos.map((e) => [e.id, e.s]));
      for (let i = 0; falta !== 0n; i = (i + 1) % orden.length) {
        out.set(orden[i]!.id, out.get(orden[i]!.id)! + (falta > 0n ? 1n : -1n));
        falta += falta > 0n ? -1n : 1n;
      }
      return out;
    };
    const importes = new Map<number, { base: bigint; iva: bigint }>();
    for (const id of new Set(lineas.map((l) => Number(l.id)))) {
      const suyas = lineas.filter((l) => Number(l.id) === id);
      for (const g of JSON.parse(String(suyas[0]!.desglose)) as { tipo_iva: string; base: number; iva: number }[]) {
        const del = suyas.filter((l) => l.tipo_iva === g.tipo_iva);
        const bases = repartir(del.map((l) => ({ id: Number(l.linea_id), v: BigInt(l.cantidad!) * BigInt(l.precio!) * (10000n - BigInt(l.descuento!)) })), 1_000_000_000n, BigInt(g.base));
        const ivas = repartir(del.map((l) => ({ id: Number(l.linea_id), v: bases.get(Number(l.linea_id))! * (TASA[g.tipo_iva] ?? 0n) })), 10_000n, BigInt(g.iva));
        for (const l of del) importes.set(Number(l.linea_id), { base: bases.get(Number(l.linea_id))!, iva: ivas.get(Number(l.linea_id))! });
      }
    }
    const esperado = (agrupar: string, filtro: Record<string, number>, desde: string, hasta: string) => {
      const grupos = new Map<string, { documentos: Set<number>; unidades: number; base: number; iva: number; facturado: number; devoluciones: number }>();
      for (const l of lineas) {
        if (String(l.fecha) < desde || String(l.fecha) > hasta) continue;
        if (Object.entries(filtro).some(([k, v]) => Number(l[k]) !== v)) continue;
        const signo = l.tipo === 'devolucioncompra' ? -1 : 1;
        const { base, iva } = importes.get(Number(l.linea_id))!;
        const clave = { mes: String(l.fecha).slice(0, 7), proveedor: l.proveedor_id, articulo: l.articulo_id, familia: l.familia_id, almacen: l.almacen_id, tipo: l.tipo, documento: l.id }[agrupar];
        const k = clave === null || clave === undefined ? 'null' : String(clave);
        const g = grupos.get(k) ?? { documentos: new Set<number>(), unidades: 0, base: 0, iva: 0, facturado: 0, devoluciones: 0 };
        g.documentos.add(Number(l.id));
        g.unidades += signo * Number(l.cantidad);
        g.base += signo * Number(base);
        g.iva += signo * Number(iva);
        if (Number(l.facturas) > 0) g.facturado += signo * Number(base);
        if (signo < 0) g.devoluciones -= Number(base);
        grupos.set(k, g);
      }
      return Object.fromEntries([...grupos].map(([k, g]) => [k, { documentos: g.documentos.size, unidades: g.unidades, base: g.base, iva: g.iva, total: g.base + g.iva, facturado: g.facturado, pendiente_facturar: g.base - g.facturado, devoluciones: g.devoluciones }]));
    };
    const FILTROS: Record<string, number>[] = [{}, { proveedor_id: p2.id }, { almacen_id: tienda }, { articulo_id: a.id }, { familia_id: Number(a.familia_id ?? 1) }, { proveedor_id: p.id, almacen_id: principal }];
    let comparadas = 0;
    for (const [desde, hasta] of [[D1, HOY], [D2, D2], [HOY, HOY]] as const) {
      for (const agrupar of AGRUPAR_COMPRAS) {
        for (const filtro of FILTROS) {
          const r = await informeCompras(app, { desde, hasta, ...filtro }, agrupar, paging);
          const obtenido = Object.fromEntries(r.data.map((f) => [String(f.clave), Object.fromEntries(COLUMNAS_COMPRAS.map((c) => [c, f[c]]))]));
          expect({ desde, hasta, agrupar, filtro, filas: obtenido }).toEqual({ desde, hasta, agrupar, filtro, filas: esperado(agrupar, filtro, desde, hasta) });
          comparadas += r.data.length;
        }
      }
    }
    expect(comparadas).toBeGreaterThan(100);
    // informeproveedores: the same purchases per supplier and per month.
    const prov = await informe('informeproveedores', { desde: D1, hasta: HOY });
    const porProveedor = esperado('proveedor', {}, D1, HOY);
    expect(Object.fromEntries(prov.data.map((f) => [String(f.proveedor_id), [f.documentos, f.base, f.total, f.devoluciones, f.pendiente_facturar]]))).toEqual(
      Object.fromEntries(Object.entries(porProveedor).map(([k, g]) => [k, [g.documentos, g.base, g.total, g.devoluciones, g.pendiente_facturar]])),
    );
    const meses = await informe('informeproveedores', { desde: D1, hasta: HOY, agrupar: 'mes', proveedor_id: p2.id });
    expect(Object.fromEntries(meses.data.map((f) => [f.clave, f.base]))).toEqual(Object.fromEntries(Object.entries(esperado('mes', { proveedor_id: p2.id }, D1, HOY)).map(([k, g]) => [k, g.base])));

    // The 347 from the documents: emitted facturas and rectificativas naming a customer (not F2/R5; by substitution the
    // difference with the invoice replaced), the supplier invoices recorded; parties over 3.005,06 € by quarter.
    const docs = (await sql<Record<string, number | string | null>>`select id, tipo, estado, fecha, cliente_id, tipo_factura, modo_rectificacion, factura_id, base, iva, recargo from documentos`.execute(app.db)).rows;
    const porId = new Map(docs.map((x) => [Number(x.id), x]));
    const partes = new Map<string, number[]>();
    const sumar347 = (k: string, fecha: string, importe: number) => {
      const q = partes.get(k) ?? [0, 0, 0, 0];
      q[Math.floor((Number(fecha.slice(5, 7)) - 1) / 3)]! += importe;
      partes.set(k, q);
    };
    for (const x of docs) {
      if (!['factura', 'rectificativa'].includes(String(x.tipo)) || x.estado !== 'emitida' || x.cliente_id === null || String(x.fecha).slice(0, 4) !== ANIO || ['F2', 'R5'].includes(String(x.tipo_factura))) continue;
      let importe = Number(x.base) + Number(x.iva) + Number(x.recargo);
      const o = x.tipo === 'rectificativa' && x.modo_rectificacion === 'sustitucion' && x.factura_id ? porId.get(Number(x.factura_id)) : undefined;
      if (o) importe -= Number(o.base) + Number(o.iva) + Number(o.recargo);
      sumar347(`B|${x.cliente_id}`, String(x.fecha), importe);
    }
    for (const x of (await sql<Record<string, number | string>>`select proveedor_id, fecha, total from facturas_proveedor`.execute(app.db)).rows) {
      if (String(x.fecha).slice(0, 4) === ANIO) sumar347(`A|${x.proveedor_id}`, String(x.fecha), Number(x.total));
    }
    const declarados = Object.fromEntries([...partes].filter(([, q]) => Math.abs(q.reduce((s, v) => s + v, 0)) > 300_506).map(([k, q]) => [k, [q.reduce((s, v) => s + v, 0), ...q]]));
    const m347 = await informe('modelo347', { ejercicio: Number(ANIO) });
    expect(Object.fromEntries(m347.data.map((f) => [f.clave, [f.importe, f.t1, f.t2, f.t3, f.t4]]))).toEqual(declarados);
    expect(Object.keys(declarados).sort()).toEqual([`A|${p2.id}`, `B|${c1.id}`, `B|${c2.id}`]);
    // Issue 25: the totals row carries the quarters, and they add up to the year.
    const q = [0, 1, 2, 3].map((i) => Object.values(declarados).reduce((s, v) => s + (v as number[])[i + 1]!, 0));
    expect([m347.totales.t1, m347.totales.t2, m347.totales.t3, m347.totales.t4]).toEqual(q);
    expect(q.reduce((a, b) => a + b, 0)).toBe(m347.totales.importe);
    // Only one side when asked.
    expect((await informe('modelo347', { ejercicio: Number(ANIO), clave: 'A' })).data.map((f) => f.clave)).toEqual([`A|${p2.id}`]);
  }, 240_000);

  it('informeinventario at a past date, from today\'s stock less the rows after it or from each position\'s rows before it, answers as the ledger grouped', async () => {
    const app = t.app.manager;
    const db = app.db;
    const paging = { orden: null, dir: null, pagina: 1, porPagina: 10_000 };
    // Y: opening stock a month ago in PRINCIPAL, bought into TIENDA (D1), sold into negative in PRINCIPAL (HOY−5), bought
    // again dearer after (HOY−2: its average and last purchase price change), TIENDA emptied (HOY−1: zero today, not
    // then), and an adjustment dated HOY−4 written last (a document dated in the past).
    const y = await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('INF-Y', { precio_venta: 100_000 }), stock_minimo: 5_000 });
    const fila = (almacen_id: number, cantidad: number, causa: string, precio: number, fecha: string) =>
      db.insertInto('stock_movimientos').values({ articulo_id: y.id, almacen_id, ubicacion: null, cantidad, causa, documento_tipo: null, documento_id: null, fecha, precio }).execute();
    await fila(principal, 10_000, 'inicial', 50_000, diaMas(HOY, -30));
    await fila(tienda, 5_000, 'compra', 40_000, D1);
    await fila(principal, -12_000, 'venta', 100_000, `${diaMas(HOY, -5)}T09:30:00Z`);
    await fila(principal, 20_000, 'compra', 90_000, diaMas(HOY, -2));
    await fila(tienda, -5_000, 'venta', 100_000, diaMas(HOY, -1));
    await fila(principal, -1_000, 'ajuste', 0, diaMas(HOY, -4));
    const extremos = (await sql<{ primera: string; ultima: string }>`select min(fecha) as primera, max(fecha) as ultima from stock_movimientos`.execute(db)).rows[0]!;
    // The ledger starts a month ago and its last row is today's: the last days are read from today's stock back (`desde`),
    // the first ones from each position's rows before the date (`hasta`); `detalle` groups the ledger's rows as defined.
    const fechas = [-29, -20, -16, -6, -5, -4, -3, -2, -1].map((n) => diaMas(HOY, n));
    const modos = fechas.map((fecha) => modoInventario(String(extremos.primera), String(extremos.ultima), diaMas(fecha, 1)));
    expect(modos).toEqual(['hasta', 'hasta', 'hasta', 'desde', 'desde', 'desde', 'desde', 'desde', 'desde']);
    const filtros = [{}, { agrupar: 'almacen' }, { agrupar: 'familia' }, { almacen_id: principal }, { almacen_id: tienda }, { vista: 'negativo' }, { vista: 'sin_movimiento', dias: 3 }, { vista: 'bajo_minimo' }, { vista: 'bajo_minimo', almacen_id: principal }] as const;
    for (const fecha of fechas) {
      for (const q of filtros) {
        const f = { fecha, agrupar: 'articulo', vista: 'todos', dias: 90, ...q } as const;
        expect({ fecha, q, ...(await informeInventario(app, f, paging, 'agregado')) }).toEqual({ fecha, q, ...(await informeInventario(app, f, paging, 'detalle')) });
      }
    }
    // By hand at HOY−5: PRINCIPAL 10 − 12 = −2, TIENDA 5; the average then (10 at 5 € and 5 at 4 €) 4,6667 €; the last
    // purchase 4 €; under its minimum of 5 by 2.
    const yEn = async (q: Record<string, unknown>) => (await informeInventario(app, { fecha: diaMas(HOY, -5), agrupar: 'articulo', vista: 'todos', dias: 90, ...q }, paging)).data.find((r) => r.articulo_id === y.id);
    expect(await yEn({})).toMatchObject({ unidades: 3_000, coste_unitario: 46_667, ultimo_precio: 40_000, valor: Number(valorar(-2_000n, 46_667n) + valorar(5_000n, 46_667n)), ultimo_movimiento: diaMas(HOY, -5) });
    expect(await yEn({ almacen_id: principal, vista: 'negativo' })).toMatchObject({ unidades: -2_000 });
    expect(await yEn({ almacen_id: tienda })).toMatchObject({ unidades: 5_000, ultimo_movimiento: D1 });
    expect(await yEn({ vista: 'bajo_minimo' })).toMatchObject({ unidades: 3_000, a_pedir: 2_000, ultimo_precio: 40_000 });
    // At HOY−1 TIENDA is empty and the adjustment counts; today its average is no longer 4,6667 €.
    expect((await informeInventario(app, { fecha: diaMas(HOY, -1), agrupar: 'articulo', vista: 'todos', dias: 90, almacen_id: tienda }, paging)).data.find((r) => r.articulo_id === y.id)).toBeUndefined();
    expect(await yEn({ fecha: diaMas(HOY, -2), almacen_id: principal })).toMatchObject({ unidades: 17_000, ultimo_precio: 90_000 });
    expect((await yEn({ fecha: HOY }))?.coste_unitario).not.toBe(46_667);
  }, 120_000);
});

const db = (t: SuiteApp) => t.app.manager.db;

describe.each(backends())('informecierrestpv over the till\'s closings ($name)', (backend) => {
  const t = useTestApp(backend);
  it('a closing by closing, day and terminal: cash expected vs counted, payment methods and IVA from its Z report', async () => {
    await todosLosModulos(t);
    const db = t.app.manager.db;
    const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    // The till's rows as its closing writes them (issue TPV: tpv_terminales, tpv_cajas, tpv_cierres).
    const ahora = `${HOY}T08:00:00.000Z`;
    const terminal = Number((await sql<{ id: number }>`insert into tpv_terminales (nombre, almacen_id, serie_id, serie_rectificativa_id, numero_instalacion, formas_pago, fondo, activo, creado)
      values ('Caja 1', ${principal}, ${series.find((s) => s.codigo === 'T')!.id}, ${series.find((s) => s.codigo === 'R')!.id}, 'B86420973-TPV001', '["efectivo","tarjeta"]', 10000, 1, ${ahora}) returning id`.execute(db)).rows[0]!.id);
    const caja = Number((await sql<{ id: number }>`insert into tpv_cajas (terminal_id, usuario_id, apertura, fondo) values (${terminal}, 1, ${ahora}, 10000) returning id`.execute(db)).rows[0]!.id);
    const datos = {
      formas: [
        { forma: 'efectivo', ventas: 3_500, devoluciones: 500, esperado: 13_000, contado: 12_950, diferencia: -50 },
        { forma: 'tarjeta', ventas: 2_000, devoluciones: 0, esperado: 2_000, contado: 2_000, diferencia: 0 },
      ],
      impuestos: [{ tipo_iva: '21', base: 2_479, iva: 521, total: 3_000 }, { tipo_iva: '10', base: 1_818, iva: 182, total: 2_000 }],
    };
    await sql`insert into tpv_cierres (terminal_id, codigo, caja_id, usuario_id, apertura, cierre, fondo, tickets, devoluciones, total, efectivo_esperado, efectivo_contado, diferencia, datos)
      values (${terminal}, 1, ${caja}, 1, ${ahora}, ${`${HOY}T20:00:00.000Z`}, 10000, 3, 1, 5000, 13000, 12950, -50, ${JSON.stringify(datos)})`.execute(db);
    const leer = async (q: Record<string, string>) => expectCleanAnswer(await t.op('informecierrestpv', { cookie: t.cookie, query: { desde: HOY, hasta: HOY, ...q } })) as unknown as Informe;
    const r = await leer({});
    expect(r.message).toBeUndefined();
    expect(r.data).toEqual([
      expect.objectContaining({ terminal_id: terminal, terminal: 'Caja 1', codigo: 1, fecha: HOY, tickets: 3, devoluciones: 1, total: 5_000, efectivo_esperado: 13_000, efectivo_contado: 12_950, diferencia: -50, efectivo: 3_000, tarjeta: 2_000, base: 4_297, iva: 703, base_21: 2_479, iva_10: 182 }),
    ]);
    expect(r.totales).toMatchObject({ tickets: 3, total: 5_000, diferencia: -50 });
    expect((await leer({ agrupar: 'terminal' })).data).toEqual([expect.objectContaining({ nombre: 'Caja 1', cierres: 1, diferencia: -50 })]);
    expect((await leer({ desde: diaMas(HOY, -3), hasta: diaMas(HOY, -1) })).total).toBe(0);
  });
});
