// The article list at 100.000 articles, on SQLite and on PostgreSQL: `pnpm bench:catalogo`.
// Generates a realistic catalogue, then measures each operation through the real action handler
// (called in-process: validate() of its input schema + handler(), as the dispatcher does, without
// HTTP) and through app.inject() (the whole op.asp request: cookie, session, flags, JSON), against
// the raw SQL of the same answer run straight on the driver, interleaved in the same run; then the
// bulk operations (price change of every article, a 20.000-row import), timed once.
// BENCH_ARTICLES (100000), BENCH_RUNS (300), BENCH_ONLY (sqlite|postgres), DATABASE_URL;
// BENCH_KEEP=1 leaves the databases (and the throwaway cluster) in place and prints where they are.
import os from 'node:os';
import { validate } from 'shared/domain';
import { createRegistry } from '../server/src/actions/index.ts';
import { ean13 } from '../server/src/demo/seed-catalogo.ts';
import { ATRIBUTOS, MATERIALES, generate, pick, rand } from './catalogo-datos.ts';
import { param as p } from './datos.ts';
import { login, onBothEngines, stats, type Runner } from './runners.ts';

const N = Number(process.env.BENCH_ARTICLES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

// ---------------------------------------------------------------------------------------------
// The operations: each as op.asp input and as the raw SQL of the same answer.

type Raw = { count?: { sql: string; params: unknown[] }; rows: { sql: string; params: unknown[] } };
type Op = { name: string; input: () => Record<string, string>; raw: (dialect: 'sqlite' | 'postgres', input: Record<string, string>) => Raw };

const ROW = `a.id, a.codigo, a.referencia, a.descripcion, f.nombre as familia_nombre, s.nombre as subfamilia_nombre, m.nombre as marca_nombre,
  a.precio_compra, a.precio_venta, a.pvp_1, a.tipo_iva, a.codigo_barras, a.stock_total, a.activo`;
const JOINS = 'left join familias f on f.id = a.familia_id left join subfamilias s on s.id = a.subfamilia_id left join marcas m on m.id = a.marca_id';
/** The page's ids from an index walk, then only those rows joined (CROSS JOIN fixes that order on SQLite). */
const page = (where: string, keys: string, limit: string, offset: string) =>
  `select ${ROW} from (select a.id from articulos a ${where} order by ${keys} limit ${limit} offset ${offset}) p
   cross join articulos a ${JOINS} where a.id = p.id order by ${keys}`;

function pageOp(name: string, pagina: number, orden: 'codigo' | 'descripcion'): Op {
  const keys = orden === 'codigo' ? 'a.codigo asc' : 'a.orden_descripcion asc, a.id asc';
  return {
    name,
    input: () => ({ pagina: String(pagina), porPagina: '25', orden, dir: 'asc' }),
    raw: (d) => ({
      // PostgreSQL keeps the number of articles in a one-row table (a count(*) reads every row there).
      count: { sql: d === 'sqlite' ? 'select count(*) as total from articulos a' : 'select n as total from articulos_cuenta where id = 1', params: [] },
      rows: { sql: page('', keys, p(d, 1), p(d, 2)), params: [25, (pagina - 1) * 25] },
    }),
  };
}

/**
 * A search, page 1 by código, as the handler runs it (catalogo/busqueda.ts): fragments of 3+
 * characters inside words through the trigram index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL),
 * shorter words as word starts. On SQLite the count comes from one FTS5 table alone when the words
 * allow it, and the page through the index when few rows match, or walking the código index testing
 * each row when many do (`scan`).
 */
function searchOp(name: string, q: string, scan: boolean): Op {
  return {
    name,
    input: () => ({ pagina: '1', porPagina: '25', orden: 'codigo', dir: 'asc', q }),
    raw: (d) => {
      const words = q.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
      const fragments = words.filter((w) => w.length >= 3);
      const short = words.filter((w) => w.length < 3);
      if (d === 'postgres') {
        const conds = fragments.map((_, i) => `a.busqueda like $${i + 1}`);
        const params: unknown[] = fragments.map((w) => `%${w}%`);
        if (short.length) {
          const i = params.length + 1;
          conds.push(scan ? short.map((_, k) => `(' ' || a.busqueda) like $${i + k}`).join(' and ') : `array_to_tsvector(string_to_array(a.busqueda, ' ')) @@ $${i}::tsquery`);
          params.push(...(scan ? short.map((w) => `% ${w}%`) : [short.map((w) => `'${w}':*`).join(' & ')]));
        }
        const cond = `where ${conds.join(' and ')}`;
        const limit = `$${params.length + 1}`;
        const offset = `$${params.length + 2}`;
        // Few matches: fetched first (OFFSET 0 fences the subquery), then sorted; many: the código index walked.
        const rows = scan
          ? page(cond, 'a.codigo asc', limit, offset)
          : `select ${ROW} from (select a.id from (select * from articulos a ${cond} offset 0) a order by a.codigo asc limit ${limit} offset ${offset}) p
             cross join articulos a ${JOINS} where a.id = p.id order by a.codigo asc`;
        return { count: { sql: `select count(*) as total from articulos a ${cond}`, params }, rows: { sql: rows, params: [...params, 25, 0] } };
      }
      const tri = fragments.map((w) => `"${w}"`).join(' ');
      const prefix = short.map((w) => `"${w}"*`).join(' ');
      const starts = short.map(() => `(' ' || a.busqueda) like ?`);
      let cond: string;
      let params: unknown[];
      if (scan) {
        cond = `where ${[...fragments.map(() => 'a.busqueda like ?'), ...starts].join(' and ')}`;
        params = [...fragments.map((w) => `%${w}%`), ...short.map((w) => `% ${w}%`)];
      } else if (fragments.length) {
        cond = `where ${['a.id in (select rowid from articulos_tri where articulos_tri match ?)', ...starts].join(' and ')}`;
        params = [tri, ...short.map((w) => `% ${w}%`)];
      } else {
        cond = 'where a.id in (select rowid from articulos_fts where articulos_fts match ?)';
        params = [prefix];
      }
      const count = !short.length
        ? { sql: 'select count(*) as total from articulos_tri where articulos_tri match ?', params: [tri] }
        : !fragments.length
          ? { sql: 'select count(*) as total from articulos_fts where articulos_fts match ?', params: [prefix] }
          : { sql: `select count(*) as total from articulos a where a.id in (select rowid from articulos_tri where articulos_tri match ?) and ${starts.join(' and ')}`, params: [tri, ...short.map((w) => `% ${w}%`)] };
      return { count, rows: { sql: page(cond, 'a.codigo asc', '?', '?'), params: [...params, 25, 0] } };
    },
  };
}

function barcodeOp(barcodes: string[]): Op {
  let i = 0;
  return {
    name: 'barcode lookup (barras)',
    input: () => ({ barras: barcodes[i++ % barcodes.length] }),
    raw: (d, input) => ({
      rows: {
        sql: `select ${ROW} from articulos a ${JOINS} where a.id = coalesce((select id from articulos where codigo_barras = ${p(d, 1)}), (select id from articulos where codigo = ${p(d, 2)}))`,
        params: [input.barras, input.barras],
      },
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring.

const registry = createRegistry();
const action = registry.get('listadoarticulos')!;

async function measure(r: Runner, cookie: string, ops: Op[]) {
  const results: Record<string, string | number>[] = [];
  for (const op of ops) {
    const times = { raw: [] as number[], handler: [] as number[], inject: [] as number[] };
    let answer: { total?: number; data?: unknown[] } = {};
    let rawRows = 0;
    for (let run = -20; run < RUNS; run++) {
      const input = op.input();
      const raw = op.raw(r.name, input);
      // Interleaved, in a rotating order, so the three see the same machine.
      const order = [0, 1, 2].map((k) => (k + run + 30) % 3);
      for (const which of order) {
        const t0 = process.hrtime.bigint();
        if (which === 0) {
          if (raw.count) await r.rawQuery(raw.count.sql, raw.count.params);
          rawRows = (await r.rawQuery(raw.rows.sql, raw.rows.params)).length;
        } else if (which === 1) {
          const checked = validate(action.input!, input);
          if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
          answer = (await action.handler({
            input: checked.value,
            raw: input,
            user: null,
            request: undefined as never,
            reply: undefined as never,
            app: r.app.manager,
          })) as typeof answer;
        } else {
          const res = await r.app.inject({ method: 'GET', url: '/api/op.asp', query: { ac: 'listadoarticulos', ...input }, headers: { cookie } });
          if (res.statusCode !== 200) throw new Error(res.body);
        }
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (run >= 0) times[(['raw', 'handler', 'inject'] as const)[which]].push(ms);
      }
      if (run === 0 && rawRows !== (answer.data?.length ?? 0)) throw new Error(`${op.name}: raw ${rawRows} rows, handler ${answer.data?.length}`);
    }
    const raw = stats(times.raw);
    const handler = stats(times.handler);
    const inject = stats(times.inject);
    results.push({
      operation: op.name,
      'rows/total': `${answer.data?.length ?? 0}/${answer.total ?? 0}`,
      'raw p50': raw.p50.toFixed(3),
      'raw p95': raw.p95.toFixed(3),
      'handler p50': handler.p50.toFixed(3),
      'handler p95': handler.p95.toFixed(3),
      'ratio p50': (handler.p50 / raw.p50).toFixed(2),
      'ratio p95': (handler.p95 / raw.p95).toFixed(2),
      'inject p50': inject.p50.toFixed(3),
      'inject p95': inject.p95.toFixed(3),
    });
  }
  return results;
}

/** The search op, knowing as the handler does whether SQLite walks or goes through the index for it. */
async function searchFor(r: Runner, name: string, q: string): Promise<Op> {
  const checked = validate(action.input!, { q });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  const answer = (await action.handler({
    input: checked.value,
    raw: { q },
    user: null,
    request: undefined as never,
    reply: undefined as never,
    app: r.app.manager,
  })) as { total: number };
  const n = Number(((await r.rawQuery('select count(*) as n from articulos', [])) as { n: number }[])[0].n);
  const scan = answer.total * answer.total > 4 * 25 * n;
  return searchOp(`${name} ${scan ? '(walk)' : '(index)'}`, q, scan);
}

async function bench(r: Runner) {
  const db = r.app.manager.db;
  let t0 = Date.now();
  const gen = await generate(db, N);
  const genMs = Date.now() - t0;
  t0 = Date.now();
  if (r.name === 'postgres') {
    // As autovacuum would: statistics, and the visibility map that index-only scans need.
    await r.rawQuery('vacuum analyze', []);
    const vm = (await r.rawQuery(`select relpages, relallvisible from pg_class where relname = 'articulos'`, [])) as { relpages: number; relallvisible: number }[];
    console.log(`postgres: articulos ${vm[0].relallvisible}/${vm[0].relpages} pages all-visible after vacuum`);
  }
  else await r.rawQuery('analyze', []);
  const analyzeMs = Date.now() - t0;
  const total = (await r.rawQuery('select count(*) as n from articulos', [])) as { n: number | string }[];
  console.log(`\n${r.name}: ${Number(total[0].n).toLocaleString('es-ES')} articles generated in ${(genMs / 1000).toFixed(1)} s (analyze ${(analyzeMs / 1000).toFixed(1)} s)`);
  const cookie = await login(r.app);
  const ops = [
    pageOp('page 1 by código', 1, 'codigo'),
    pageOp('page 3.000 by código', 3000, 'codigo'),
    pageOp('page 1 by descripción', 1, 'descripcion'),
    pageOp('page 3.000 by descripción', 3000, 'descripcion'),
    await searchFor(r, `search "${gen.words.selective}"`, gen.words.selective),
    await searchFor(r, `search "${gen.words.broad}"`, gen.words.broad),
    await searchFor(r, `search "${gen.words.fragment}"`, gen.words.fragment),
    await searchFor(r, `search "${gen.words.broadFragment}"`, gen.words.broadFragment),
    barcodeOp(gen.barcodes.sort(() => rand() - 0.5).slice(0, 1000)),
  ];
  const rows = await measure(r, cookie, ops);
  console.log(`${r.name}: milliseconds over ${RUNS} runs each (handler = validate + handler in-process; inject = full op.asp request in-process; raw = the same SQL on the driver)`);
  console.table(rows);
  console.log(`${r.name}: bulk operations, once each, through app.inject`);
  console.table(await bulk(r, cookie));
  return rows;
}

/** The bulk operations, timed once: they scale with the catalogue, not with a page. */
async function bulk(r: Runner, cookie: string) {
  const post = async (ac: string, payload: unknown) => {
    const t0 = Date.now();
    const res = await r.app.inject({ method: 'POST', url: `/api/op.asp?ac=${ac}`, payload: payload as object, headers: { cookie } });
    const ms = Date.now() - t0;
    const body = res.json();
    if (body.RESULT !== '0') throw new Error(`${ac}: ${res.body.slice(0, 300)}`);
    return { ms, body };
  };
  const change = { filtro: {}, campo: 'precio_venta', modo: 'porcentaje', valor: 250, redondeo: 'x9' };
  const preview = await post('cambiarprecios', { ...change, aplicar: 0 });
  const apply = await post('cambiarprecios', { ...change, aplicar: 1 });
  const filas = Array.from({ length: 20_000 }, (_, i) => ({
    codigo: `CSV${String(i).padStart(6, '0')}`,
    descripcion: `Artículo importado ${pick(ATRIBUTOS)} ${pick(MATERIALES)} ${i}`,
    familia_codigo: 'BIMP',
    familia_nombre: 'Importados',
    marca_codigo: 'BM001',
    precio_venta: `${(i % 500) + 1},${String(i % 100).padStart(2, '0')}`,
    codigo_barras: ean13(`85${String(i).padStart(10, '0')}`),
  }));
  const check = await post('importararticulos', { filas, aplicar: 0 });
  const imported = await post('importararticulos', { filas, aplicar: 1 });
  return [
    { operation: `cambiarprecios preview (${preview.body.total} articles, first 100 rows)`, ms: preview.ms },
    { operation: `cambiarprecios apply (${apply.body.data[0].actualizados} articles, one transaction)`, ms: apply.ms },
    { operation: `importararticulos check (${filas.length} rows)`, ms: check.ms },
    { operation: `importararticulos apply (${imported.body.data[0].creados} created, one transaction)`, ms: imported.ms },
  ];
}

console.log(`Catalogue bench: ${N.toLocaleString('es-ES')} articles, ${RUNS} runs per operation (Node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''})`);
await onBothEngines('mtpv-bench-cat-', async (r) => {
  await bench(r);
});
