// Warehouses and the document engine at scale, on SQLite and on PostgreSQL: `pnpm bench:almacenes`.
// Generates 100.000 articles, 10 warehouses and 1.000.000 ledger rows, then measures, each against the
// raw SQL of the same answer run straight on the driver in the same run:
// - the stock of one article per warehouse (what the article record shows: per warehouse, per location, in transit);
// - a page of an article's movements with its running balance (listadomovimientosarticulo);
// - sending a 50-line transfer (enviarmovimiento: 50 ledger rows, pending, state, action log);
// - finishing an inventory of 10.000 lines (finalizarinventario: theoretical stock, 10.000 adjustments).
// A write's answer is the document after it, so its raw counterpart also reads the document back.
// BENCH_ARTICLES (100000), BENCH_LEDGER (1000000), BENCH_RUNS (300), BENCH_ONLY (sqlite|postgres), DATABASE_URL, BENCH_KEEP=1.
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Documento } from 'shared/domain';
import { stockPorAlmacen } from '../server/src/actions/catalogo/stock.ts';
import { guardarCostesPorFecha } from '../server/src/documentos/coste.ts';
import type { Database } from '../server/src/db/schema.ts';
import { articulosGenerados, int, rand, semilla } from './datos.ts';
import { callHandler, login, ms, onBothEngines, param, rawReadBack, row, type Row, type Runner } from './runners.ts';

const N = Number(process.env.BENCH_ARTICLES ?? 100_000);
const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const WRITE_RUNS = Math.min(RUNS, 100);
// Even, and alternating which goes first: the second of a pair finds the warehouse's ledger pages in
// the cache, so each side must be second equally often for the medians to compare.
const INVENTORY_RUNS = Number(process.env.BENCH_INVENTORY_RUNS ?? 6);
const ALMACENES = 10;

const CAUSAS = ['inicial', 'traspaso', 'traspaso', 'ajuste', 'inventario', 'perdida', 'compra', 'venta', 'venta', 'venta'];

type Generated = { almacenes: number[]; articulos: number; ids: number[]; admin: { id: number; nombre: string; email: string } };

async function generate(db: Kysely<Database>): Promise<Generated> {
  semilla(20261123);
  const almacenes = (await db.selectFrom('almacenes').select('id').execute()).map((a) => a.id);
  for (let i = almacenes.length; i < ALMACENES; i++) {
    const a = await db.insertInto('almacenes').values({ codigo: `B${i}`, nombre: `Almacén ${i}`, activo: 1 } as never).returning('id').executeTakeFirstOrThrow();
    almacenes.push(a.id);
  }
  const first = (await db.selectFrom('articulos').select(db.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0;
  await db.transaction().execute(async (trx) => {
    const arts = articulosGenerados(0, N, 'ALM').map(({ id: _, ...a }) => a);
    for (let i = 0; i < arts.length; i += 500) await trx.insertInto('articulos').values(arts.slice(i, i + 500) as never).execute();
  });
  const ids = (await db.selectFrom('articulos').select('id').where('id', '>', Number(first)).orderBy('id').execute()).map((a) => a.id);
  // 1.000.000 ledger rows over the year, spread over articles and warehouses; some articles are busy.
  await db.transaction().execute(async (trx) => {
    let batch: Record<string, unknown>[] = [];
    for (let i = 0; i < LEDGER; i++) {
      const articulo_id = ids[rand() < 0.2 ? int(100) : int(ids.length)];
      const causa = CAUSAS[int(CAUSAS.length)];
      const signo = causa === 'venta' || causa === 'perdida' ? -1 : 1;
      const mes = String(1 + int(11)).padStart(2, '0');
      const dia = String(1 + int(28)).padStart(2, '0');
      batch.push({
        articulo_id,
        almacen_id: almacenes[int(almacenes.length)],
        ubicacion: null,
        cantidad: signo * (1 + int(20)) * 1000,
        causa,
        documento_tipo: null,
        documento_id: null,
        fecha: `2026-${mes}-${dia}`,
        precio: 10_000 + int(100_000),
      });
      if (batch.length === 1000 || i === LEDGER - 1) {
        await trx.insertInto('stock_movimientos').values(batch as never).execute();
        batch = [];
      }
    }
  });
  // Written out of date order: every article's costs replayed by date once (docs/costes.md), nothing left marked.
  await guardarCostesPorFecha(db);
  const admin = await db.selectFrom('usuarios').select(['id', 'nombre', 'email']).orderBy('id').executeTakeFirstOrThrow();
  return { almacenes, articulos: ids.length, ids, admin };
}

/** Reads: interleaved raw / handler / inject, in a rotating order, so the three see the same machine. */
async function reads(r: Runner, gen: Generated, cookie: string): Promise<Row[]> {
  const d = r.name;
  const busy = (await r.rawQuery('select articulo_id, count(*) as n from stock_movimientos group by articulo_id order by n desc limit 1', [])) as { articulo_id: number; n: number }[];
  const pickArticulo = (k: number) => (k % 10 === 0 ? busy[0].articulo_id : gen.ids[(k * 7919) % gen.articulos]);
  const out: Row[] = [];

  // Stock of one article per warehouse, per location and in transit (the article record's stock block).
  {
    const times = { raw: [] as number[], handler: [] as number[] };
    for (let run = -20; run < RUNS; run++) {
      const id = pickArticulo(run + 20);
      for (const which of run % 2 ? [0, 1] : [1, 0]) {
        const t0 = process.hrtime.bigint();
        if (which === 0) {
          await r.rawQuery(
            `select al.id, al.nombre, al.activo, au.ubicacion_id, u.codigo,
               (select cast(sum(l.pendiente) as text) from documento_lineas l join documentos d on d.id = l.documento_id
                 where l.articulo_id = ${param(d, 1)} and l.pendiente > 0 and d.tipo = 'movimiento' and d.almacen_destino_id = al.id) as transito
             from almacenes al left join articulo_ubicaciones au on au.almacen_id = al.id and au.articulo_id = ${param(d, 2)}
             left join ubicaciones u on u.id = au.ubicacion_id order by al.id`,
            [id, id],
          );
          await r.rawQuery(
            `select sm.almacen_id, sm.ubicacion_id, u.codigo, cast(sum(sm.cantidad) as text) as stock from stock_movimientos sm
             left join ubicaciones u on u.id = sm.ubicacion_id where sm.articulo_id = ${param(d, 1)} group by sm.almacen_id, sm.ubicacion_id, u.codigo`,
            [id],
          );
        } else await stockPorAlmacen(r.app.manager.db, id);
        if (run >= 0) times[which === 0 ? 'raw' : 'handler'].push(ms(t0));
      }
    }
    out.push(row('stock of one article per warehouse', `${gen.almacenes.length} warehouses`, times.raw, times.handler));
  }

  // A page of an article's movements with the running balance, page 1 and a deeper page of the busiest article.
  for (const [label, pagina, fixed] of [
    ['movements page 1 (running balance)', 1, false],
    ['movements page 1, busiest article', 1, true],
    ['movements page 20, busiest article', 20, true],
  ] as const) {
    const times = { raw: [] as number[], handler: [] as number[], inject: [] as number[] };
    let total = 0;
    for (let run = -20; run < RUNS; run++) {
      const id = fixed ? busy[0].articulo_id : pickArticulo(run + 21);
      const input = { articulo_id: String(id), pagina: String(pagina), porPagina: '25' };
      const order = [0, 1, 2].map((k) => (k + run + 30) % 3);
      for (const which of order) {
        const t0 = process.hrtime.bigint();
        if (which === 0) {
          await r.rawQuery(`select count(*) as n from stock_movimientos where articulo_id = ${param(d, 1)}`, [id]);
          // The whole balance in one window over the article's rows, then the page: what a hand-written query does.
          await r.rawQuery(
            `select * from (select sm.id, sm.fecha, sm.almacen_id, al.nombre as almacen_nombre, sm.ubicacion_id, u.codigo as ubicacion_codigo, sm.causa,
               sm.documento_tipo, sm.documento_id, d.numero, d.ejercicio, sm.cantidad, sum(sm.cantidad) over (order by sm.id) as saldo
             from stock_movimientos sm join almacenes al on al.id = sm.almacen_id left join ubicaciones u on u.id = sm.ubicacion_id
             left join documentos d on d.id = sm.documento_id and d.tipo = sm.documento_tipo
             where sm.articulo_id = ${param(d, 1)}) m order by id desc limit 25 offset ${param(d, 2)}`,
            [id, (pagina - 1) * 25],
          );
        } else if (which === 1) {
          const res = await callHandler(r, 'listadomovimientosarticulo', input);
          total = res.total ?? 0;
        } else {
          const res = await r.app.inject({ method: 'GET', url: '/api/op.asp', query: { ac: 'listadomovimientosarticulo', ...input }, headers: { cookie } });
          if (res.statusCode !== 200) throw new Error(res.body);
        }
        if (run >= 0) times[(['raw', 'handler', 'inject'] as const)[which]].push(ms(t0));
      }
    }
    out.push(row(label, fixed ? `${total} rows` : 'random article', times.raw, times.handler, times.inject));
  }
  return out;
}

const randomUUID = () => crypto.randomUUID();

/** Writes: each run on a document of its own, created beforehand (untimed). */
async function writes(r: Runner, gen: Generated): Promise<Row[]> {
  const d = r.name;
  const [origen, destino] = gen.almacenes;
  const hoy = new Date().toISOString().slice(0, 10);
  const out: Row[] = [];

  const lineas50 = () => Array.from({ length: 50 }, (_, k) => ({ articulo_id: gen.ids[(int(gen.articulos) + k * 7) % gen.articulos], cantidad: (1 + int(5)) * 1000 }));
  const crear = async (lineas: { articulo_id: number; cantidad: number }[]) => {
    const res = await callHandler<Documento>(r, 'editarmovimiento', { fecha: hoy, almacen_id: origen, almacen_destino_id: destino, lineas, clave: randomUUID() }, gen.admin);
    if (res.RESULT !== '0') throw new Error(`editarmovimiento: ${res.message}`);
    return res.data![0];
  };
  const handlerDocs: Documento[] = [];
  const rawDocs: Documento[] = [];
  for (let i = 0; i < WRITE_RUNS; i++) {
    handlerDocs.push(await crear(lineas50()));
    rawDocs.push(await crear(lineas50()));
  }
  const times = { raw: [] as number[], handler: [] as number[] };
  for (let i = 0; i < WRITE_RUNS; i++) {
    for (const which of i % 2 ? [0, 1] : [1, 0]) {
      const t0 = process.hrtime.bigint();
      if (which === 1) {
        const res = await callHandler(r, 'enviarmovimiento', { id: handlerDocs[i].id }, gen.admin);
        if (res.RESULT !== '0') throw new Error(`enviarmovimiento: ${res.message}`);
      } else {
        const doc = rawDocs[i];
        // The same writes by hand: lock and check the state, log the action, 50 ledger rows, pending, state.
        await r.rawTransaction(async () => {
          await r.rawQuery(`select estado from documentos where id = ${param(d, 1)}${d === 'postgres' ? ' for update' : ''}`, [doc.id]);
          await r.rawQuery(
            `insert into documento_acciones (documento_id, accion, fecha, usuario_id, estado_antes, detalle, deshecha_por) values (${param(d, 1)}, 'enviar', ${param(d, 2)}, ${param(d, 3)}, 'creado', null, null)`,
            [doc.id, new Date().toISOString(), gen.admin.id],
          );
          await r.rawQuery(
            `insert into stock_movimientos (articulo_id, almacen_id, ubicacion_id, cantidad, causa, documento_tipo, documento_id, documento_linea_id, accion_id, fecha, precio)
             select l.articulo_id, ${param(d, 1)}, l.ubicacion_id, -l.cantidad, 'traspaso', 'movimiento', l.documento_id, l.id,
               (select max(id) from documento_acciones where documento_id = ${param(d, 2)}), ${param(d, 3)}, l.precio
             from documento_lineas l where l.documento_id = ${param(d, 4)} order by l.orden`,
            [origen, doc.id, hoy, doc.id],
          );
          await r.rawQuery(`update documento_lineas set pendiente = cantidad where documento_id = ${param(d, 1)}`, [doc.id]);
          await r.rawQuery(`update documentos set estado = 'enviado', modificado = ${param(d, 1)} where id = ${param(d, 2)}`, [new Date().toISOString(), doc.id]);
        });
        await rawReadBack(r, 'movimiento', doc.id);
      }
      times[which === 0 ? 'raw' : 'handler'].push(ms(t0));
    }
  }
  out.push(row('send a 50-line transfer', `${WRITE_RUNS} runs`, times.raw, times.handler));

  // Finishing an inventory of 10.000 lines: counted = theoretical ± a little.
  const inv = { raw: [] as number[], handler: [] as number[] };
  for (let i = 0; i < INVENTORY_RUNS; i++) {
    const almacen = gen.almacenes[2 + (i % (gen.almacenes.length - 2))];
    const lineas = Array.from({ length: 10_000 }, (_, k) => ({ articulo_id: gen.ids[(k * 7 + i * 10_007) % gen.articulos], cantidad: int(30) * 1000 }));
    const make = async () => {
      const res = await callHandler<Documento>(r, 'editarinventario', { fecha: hoy, almacen_id: almacen, lineas, clave: randomUUID() }, gen.admin);
      if (res.RESULT !== '0') throw new Error(`editarinventario: ${res.message}`);
      return res.data![0];
    };
    const a = await make();
    const b = await make();
    for (const which of i % 2 ? [0, 1] : [1, 0]) {
      const t0 = process.hrtime.bigint();
      if (which === 1) {
        const res = await callHandler(r, 'finalizarinventario', { id: a.id }, gen.admin);
        if (res.RESULT !== '0') throw new Error(`finalizarinventario: ${res.message}`);
      } else {
        await r.rawTransaction(async () => {
          await r.rawQuery(`select estado from documentos where id = ${param(d, 1)}${d === 'postgres' ? ' for update' : ''}`, [b.id]);
          await r.rawQuery(
            `insert into documento_acciones (documento_id, accion, fecha, usuario_id, estado_antes, detalle, deshecha_por) values (${param(d, 1)}, 'finalizar', ${param(d, 2)}, ${param(d, 3)}, 'pendiente', null, null)`,
            [b.id, new Date().toISOString(), gen.admin.id],
          );
          // Theoretical stock of every counted article in one grouped read, kept on the lines, then one adjustment each.
          await r.rawQuery(
            `update documento_lineas set teorico = coalesce((select sum(sm.cantidad) from stock_movimientos sm
               where sm.articulo_id = documento_lineas.articulo_id and sm.almacen_id = ${param(d, 1)}), 0) where documento_id = ${param(d, 2)}`,
            [almacen, b.id],
          );
          await r.rawQuery(
            `insert into stock_movimientos (articulo_id, almacen_id, ubicacion_id, cantidad, causa, documento_tipo, documento_id, documento_linea_id, accion_id, fecha, precio)
             select l.articulo_id, ${param(d, 1)}, l.ubicacion_id, l.cantidad - l.teorico, 'inventario', 'inventario', l.documento_id, l.id,
               (select max(id) from documento_acciones where documento_id = ${param(d, 2)}), ${param(d, 3)}, l.precio
             from documento_lineas l where l.documento_id = ${param(d, 4)} and l.cantidad <> l.teorico`,
            [almacen, b.id, hoy, b.id],
          );
          await r.rawQuery(`update documentos set estado = 'finalizado' where id = ${param(d, 1)}`, [b.id]);
        });
        await rawReadBack(r, 'inventario', b.id);
      }
      inv[which === 0 ? 'raw' : 'handler'].push(ms(t0));
    }
  }
  out.push(row('finish a 10.000-line inventory', `${INVENTORY_RUNS} runs`, inv.raw, inv.handler));
  return out;
}

async function bench(r: Runner) {
  let t0 = Date.now();
  const gen = await generate(r.app.manager.db);
  const genMs = Date.now() - t0;
  t0 = Date.now();
  await r.rawQuery(r.name === 'postgres' ? 'vacuum analyze' : 'analyze', []);
  console.log(
    `\n${r.name}: ${gen.articulos.toLocaleString('es-ES')} articles, ${gen.almacenes.length} warehouses, ${LEDGER.toLocaleString('es-ES')} ledger rows generated in ${(genMs / 1000).toFixed(1)} s (analyze ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const cookie = await login(r.app);
  console.log(`${r.name}: reads, milliseconds over ${RUNS} runs (handler = validate + handler in-process; inject = the whole op.asp request; raw = the same SQL on the driver)`);
  console.table(await reads(r, gen, cookie));
  console.log(`${r.name}: writes, milliseconds (each run on a fresh document; raw = the same writes by hand in one transaction)`);
  console.table(await writes(r, gen));
}

console.log(
  `Warehouse bench: ${N.toLocaleString('es-ES')} articles, ${ALMACENES} warehouses, ${LEDGER.toLocaleString('es-ES')} ledger rows (Node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''})`,
);
await onBothEngines('mtpv-bench-alm-', bench);
