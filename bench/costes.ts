// Costs in date order at scale (docs/costes.md), on SQLite and on PostgreSQL: `pnpm bench:costes`.
// Generates a ledger of BENCH_LEDGER rows (1.000.000) over the year in date order, and one article with 5.000 movements
// from its tenth day on: 2.500 purchases and 2.500 sale lines (50 albaranes de venta of 50 lines). Then measures, in
// alternating order so each sees the same machine:
// - handler: a purchase of that article dated before all 5.000 (editaralbarancompra: the document, its ledger row, and
//   the article replayed from that day: 5.000 rows' costs, 2.500 sale lines' costs, its average), then its deletion
//   (eliminaralbarancompra: the opposite row at the same date, the same replay);
// - today: the same purchase dated today (nothing after it to revalue) and its deletion: the document's own cost;
// - raw: the revaluation's SQL by hand on the driver in one transaction (the ledger row, the 5.000 rows read in date
//   order, their costs and the sale lines' written in batches of 500, the article's average).
// BENCH_LEDGER (1000000), BENCH_ARTICLES (1000), BENCH_RUNS (30), BENCH_ONLY (sqlite|postgres), DATABASE_URL, BENCH_KEEP=1.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Documento } from 'shared/domain';
import { CAUSAS_COSTE_VENTA, siguienteCoste } from '../server/src/documentos/coste.ts';
import { sinDisparadores } from '../server/src/demo/index.ts';
import { articulosGenerados, int, semilla } from './datos.ts';
import { callHandler, generarDatos, ms, onBothEngines, param, row, type Row, type Runner } from './runners.ts';

const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000);
const N = Number(process.env.BENCH_ARTICLES ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const ANIO = 2026;

type Admin = { id: number; nombre: string; email: string };
type Gen = { articulo: number; almacen: number; proveedor: number; admin: Admin; dias: string[] };

/** The year's days up to `hoy`. */
function diasHasta(hoy: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${ANIO}-01-01T00:00:00Z`); d.toISOString().slice(0, 10) < hoy; d.setUTCDate(d.getUTCDate() + 1)) out.push(d.toISOString().slice(0, 10));
  return out;
}

async function generate(r: Runner, hoy: string): Promise<Gen> {
  semilla(20261129);
  const db = r.app.manager.db;
  const dias = diasHasta(hoy);
  const almacen = (await db.selectFrom('almacenes').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const admin = await db.selectFrom('usuarios').select(['id', 'nombre', 'email']).orderBy('id').executeTakeFirstOrThrow();
  const arts = articulosGenerados(0, N, 'CST').map(({ id: _, ...a }) => a);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < arts.length; i += 500) await trx.insertInto('articulos').values(arts.slice(i, i + 500) as never).execute();
  });
  const ids = (await db.selectFrom('articulos').select('id').where('codigo', 'like', 'CST%').orderBy('id').execute()).map((a) => a.id);
  const articulo = ids[0]!;
  const otros = ids.slice(1);
  // The year's ledger in date order (as a shop writes it day by day): the other articles, and the article's 2.500
  // purchases from the tenth day on. Written with the per-row triggers off (the demo's way), costs replayed after.
  const deArticulo = 2_500;
  const porDia = Math.ceil(LEDGER / dias.length);
  await sinDisparadores(
    db,
    r.name,
    async () => {
      await db.transaction().execute(async (trx) => {
        let batch: Record<string, unknown>[] = [];
        let hechos = 0;
        let delArticulo = 0;
        for (let k = 0; k < dias.length && hechos < LEDGER; k++) {
          for (let j = 0; j < porDia && hechos < LEDGER; j++, hechos++) {
            const propio = k >= 10 && delArticulo < deArticulo && int(LEDGER) < deArticulo * 2;
            const compra = propio || int(3) === 0;
            if (propio) delArticulo++;
            batch.push({
              articulo_id: propio ? articulo : otros[int(otros.length)],
              almacen_id: almacen,
              ubicacion: null,
              cantidad: (compra ? 1 : -1) * (1 + int(10)) * 1000 * (propio ? 2 : 1),
              causa: compra ? 'compra' : 'venta',
              documento_tipo: null,
              documento_id: null,
              fecha: dias[k],
              precio: 10_000 + int(100_000),
            });
            if (batch.length === 1000) {
              await trx.insertInto('stock_movimientos').values(batch as never).execute();
              batch = [];
            }
          }
        }
        if (batch.length) await trx.insertInto('stock_movimientos').values(batch as never).execute();
      });
    },
    { agregados: false },
  );
  // The seed's first supplier and customer.
  const proveedor = (await db.selectFrom('proveedores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const cliente = (await db.selectFrom('clientes').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  // 2.500 sale lines of the article: 50 albaranes of 50 lines, spread over the year from its tenth day.
  for (let i = 0; i < 50; i++) {
    const fecha = dias[10 + Math.floor(((dias.length - 11) * i) / 50)]!;
    // Each line its own price: one ledger row per line (stock on save groups a document's rows by article and price).
    const lineas = Array.from({ length: 50 }, (_, k) => ({ articulo_id: articulo, cantidad: 1000, precio: 200_000 + k }));
    const res = await callHandler(r, 'editaralbaranventa', { fecha, cliente_id: cliente, almacen_id: almacen, lineas, clave: randomUUID() }, admin);
    if (res.RESULT !== '0') throw new Error(`editaralbaranventa: ${res.message}`);
  }
  return { articulo, almacen, proveedor, admin, dias };
}

/** The revaluation by hand on the driver: one purchase row dated `fecha`, then the article's rows from it replayed. */
async function rawRevaluar(r: Runner, g: Gen, fecha: string, cantidad: number, precio: number): Promise<void> {
  const d = r.name;
  await r.rawTransaction(async () => {
    await r.rawQuery(
      `insert into stock_movimientos (articulo_id, almacen_id, cantidad, causa, fecha, precio) values (${param(d, 1)}, ${param(d, 2)}, ${param(d, 3)}, 'compra', ${param(d, 4)}, ${param(d, 5)})`,
      [g.articulo, g.almacen, cantidad, fecha, precio],
    );
    const previo = (await r.rawQuery(
      `select coste from stock_movimientos where articulo_id = ${param(d, 1)} and fecha < ${param(d, 2)} order by fecha desc, id desc limit 1`,
      [g.articulo, fecha],
    )) as { coste: string | number | null }[];
    const filas = (await r.rawQuery(
      `select id, cantidad, causa, precio, coste, documento_linea_id from stock_movimientos where articulo_id = ${param(d, 1)} and fecha >= ${param(d, 2)} order by fecha, id`,
      [g.articulo, fecha],
    )) as { id: number; cantidad: string | number; causa: string; precio: string | number; coste: string | number | null; documento_linea_id: number | null }[];
    const total = (await r.rawQuery(`select stock_total from articulos where id = ${param(d, 1)}`, [g.articulo])) as { stock_total: string | number }[];
    let stock = BigInt(total[0]!.stock_total);
    for (const f of filas) stock -= BigInt(f.cantidad);
    let coste: bigint | null = previo[0]?.coste == null ? null : BigInt(previo[0].coste);
    const cambios: [number, string | null][] = [];
    const lineas = new Set<number>();
    const venta = new Set<string>(CAUSAS_COSTE_VENTA);
    for (const f of filas) {
      const fila = { cantidad: BigInt(f.cantidad), causa: f.causa, precio: BigInt(f.precio) };
      coste = siguienteCoste(stock, coste, fila);
      stock += fila.cantidad;
      if ((f.coste === null ? null : BigInt(f.coste)) !== coste) {
        cambios.push([f.id, coste === null ? null : coste.toString()]);
        if (f.documento_linea_id !== null && venta.has(f.causa)) lineas.add(f.documento_linea_id);
      }
    }
    for (let i = 0; i < cambios.length; i += 500) {
      const lote = cambios.slice(i, i + 500);
      if (d === 'postgres') {
        await r.rawQuery('update stock_movimientos set coste = v.c from unnest($1::bigint[], $2::bigint[]) as v(id, c) where stock_movimientos.id = v.id', [
          lote.map((c) => c[0]),
          lote.map((c) => c[1]),
        ]);
      } else {
        await r.rawQuery(
          'update stock_movimientos set coste = v.c from (select value ->> 0 as id, cast(value ->> 1 as integer) as c from json_each(?)) as v where stock_movimientos.id = v.id',
          [JSON.stringify(lote)],
        );
      }
    }
    const ids = [...lineas];
    for (let i = 0; i < ids.length; i += 500) {
      const lote = ids.slice(i, i + 500);
      await r.rawQuery(
        `update documento_lineas set coste_libro = (select sum(-m.cantidad * m.coste) from stock_movimientos m where m.documento_linea_id = documento_lineas.id)
         where id in (${lote.map((_, k) => param(d, k + 1)).join(', ')})`,
        lote,
      );
    }
    await r.rawQuery(`update articulos set coste_medio = ${param(d, 1)} where id = ${param(d, 2)}`, [coste === null ? null : coste.toString(), g.articulo]);
    // The mark the ledger's trigger left for this back-dated row, taken as the replay is done.
    await r.rawQuery(`delete from costes_pendientes where articulo_id = ${param(d, 1)}`, [g.articulo]);
  });
}

async function bench(r: Runner) {
  const { hoy, gen: g, tiempo } = await generarDatos(r, generate);
  const d = r.name;
  const uno = async (q: string, params: unknown[] = []) => Number(((await r.rawQuery(q, params)) as { n: string | number }[])[0]!.n);
  const contar = (fecha: string) => uno(`select count(*) as n from stock_movimientos where articulo_id = ${param(d, 1)} and fecha > ${param(d, 2)}`, [g.articulo, fecha]);
  const total = await uno('select count(*) as n from stock_movimientos');
  const fecha = g.dias[5]!;
  console.log(`\n${r.name}: ${total.toLocaleString('es-ES')} ledger rows, the article's after ${fecha}: ${(await contar(fecha)).toLocaleString('es-ES')}; ${tiempo}`);
  const times = { raw: [] as number[], handler: [] as number[], hoy: [] as number[], borrar: [] as number[], borrarHoy: [] as number[] };
  const comprar = async (dia: string) => {
    const res = await callHandler<Documento>(
      r,
      'editaralbarancompra',
      { fecha: dia, proveedor_id: g.proveedor, almacen_id: g.almacen, lineas: [{ articulo_id: g.articulo, cantidad: 10_000, precio: 50_000 + int(50_000) }], clave: randomUUID() },
      g.admin,
    );
    if (res.RESULT !== '0') throw new Error(`editaralbarancompra: ${res.message}`);
    return res.data![0]!.id;
  };
  const borrar = async (id: number) => {
    const res = await callHandler(r, 'eliminaralbarancompra', { id }, g.admin);
    if (res.RESULT !== '0') throw new Error(`eliminaralbarancompra: ${res.message}`);
  };
  for (let i = 0; i < RUNS; i++) {
    const orden = [0, 1, 2];
    for (let k = 0; k < i % 3; k++) orden.push(orden.shift()!);
    for (const which of orden) {
      if (which === 0) {
        const q = 10_000;
        const p = 50_000 + int(50_000);
        let t0 = process.hrtime.bigint();
        await rawRevaluar(r, g, fecha, q, p);
        times.raw.push(ms(t0));
        // Untimed: the opposite row and the same replay, so every run starts from the same ledger.
        t0 = process.hrtime.bigint();
        await rawRevaluar(r, g, fecha, -q, p);
      } else if (which === 1) {
        let t0 = process.hrtime.bigint();
        const id = await comprar(fecha);
        times.handler.push(ms(t0));
        t0 = process.hrtime.bigint();
        await borrar(id);
        times.borrar.push(ms(t0));
      } else {
        let t0 = process.hrtime.bigint();
        const id = await comprar(hoy);
        times.hoy.push(ms(t0));
        t0 = process.hrtime.bigint();
        await borrar(id);
        times.borrarHoy.push(ms(t0));
      }
    }
  }
  const pendientes = await uno('select count(*) as n from costes_pendientes');
  if (pendientes) throw new Error(`${pendientes} articles left marked`);
  const out: Row[] = [
    row('back-dated purchase, 5.000 later movements', `${RUNS} runs; third: the same purchase dated today`, times.raw, times.handler, times.hoy, 'today'),
    row('its deletion (the same replay)', `${RUNS} runs; third: deleting the one dated today`, times.raw, times.borrar, times.borrarHoy, 'today'),
  ];
  console.log(`${r.name}: milliseconds (handler = validate + handler in-process, the whole save; raw = the revaluation's SQL by hand in one transaction)`);
  console.table(out);
}

console.log(
  `Costs in date order: ${LEDGER.toLocaleString('es-ES')} ledger rows, ${N.toLocaleString('es-ES')} articles (Node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''}, load ${os.loadavg()[0]!.toFixed(1)})`,
);
await onBothEngines('mtpv-bench-cst-', bench);
