// The lines editor's suggestions at 100.000 articles, on SQLite and on PostgreSQL: `pnpm bench:sugerencias`.
// What the editor asks while a clerk types (shared/src/documentos/EditorLineasImpl.tsx, buscarTexto):
// `listadoarticulos` with q, orden=relevancia (a código, then a description, then any word that starts with the
// text; then the rest), activo=1, the first 10 — each answer with its price and stock. Measured, interleaved
// in a rotating order in the same run: the handler in-process (validate + handler), the whole op.asp request
// (app.inject), and the raw SQL on the driver — the count as the handler counts, and the page that ranks every
// match (the index path, compiled once from the handler's own builder); for the texts most articles match
// («walk» in the note) the handler walks rank by rank instead (server/README.md, Catalogue › Search), so there
// the raw column is the plan it replaced. Beside them, the same search sorted by código (the catalogue list's).
// BENCH_ARTICLES (100000), BENCH_RUNS (200), BENCH_ONLY (sqlite|postgres), DATABASE_URL, BENCH_KEEP=1.
import os from 'node:os';
import { countQuery, pageQuery } from '../server/src/actions/catalogo/consulta.ts';
import { generate } from './catalogo-datos.ts';
import { callHandler, login, onBothEngines, row, stats, type Row, type Runner } from './runners.ts';

const N = Number(process.env.BENCH_ARTICLES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

/** What a clerk types, letter by letter, and the other kinds of text: a broad short word, two words, a code. */
const TEXTOS = ['t', 'to', 'tor', 'torn', 'tornillo', 'de', 'bisagra la', 'm4', 'TOR0001'];

const input = (q: string, orden: 'relevancia' | 'codigo') => ({ q, orden, activo: '1', pagina: '1', porPagina: '10', dir: 'asc' });

/**
 * The raw SQL of the handler's answer: the count and the page, built by the functions `listArticulos` runs
 * (orden=relevancia finds the matches through the indexes: every match ranked), compiled to text once.
 */
function rawSql(r: Runner, q: string) {
  const db = r.app.manager.db;
  const filtro = { q, activo: 1 as const };
  const count = countQuery(r.name, filtro).compile(db);
  const page = pageQuery(r.name, { filtro, orden: 'relevancia', dir: 'asc', limit: 10, offset: 0 }, 'index').compile(db);
  return { count: { sql: count.sql, params: [...count.parameters] }, page: { sql: page.sql, params: [...page.parameters] } };
}

async function bench(r: Runner): Promise<void> {
  const db = r.app.manager.db;
  const t0 = Date.now();
  await generate(db, N);
  const genMs = Date.now() - t0;
  await r.rawQuery(r.name === 'postgres' ? 'vacuum analyze' : 'analyze', []);
  console.log(`\n${r.name}: ${N.toLocaleString('es-ES')} articles generated in ${(genMs / 1000).toFixed(1)} s`);
  const cookie = await login(r.app);
  const rows: Row[] = [];
  for (const q of TEXTOS) {
    const raw = rawSql(r, q);
    const times = { raw: [] as number[], handler: [] as number[], inject: [] as number[], codigo: [] as number[] };
    let answer: { total?: number; data?: { codigo: string; descripcion: string; precio_venta: number; stock_total: number }[] } = {};
    let rawRows: { id: number }[] = [];
    for (let run = -10; run < RUNS; run++) {
      const order = [0, 1, 2, 3].map((k) => (k + run + 40) % 4);
      for (const which of order) {
        const t = process.hrtime.bigint();
        if (which === 0) {
          await r.rawQuery(raw.count.sql, raw.count.params);
          rawRows = (await r.rawQuery(raw.page.sql, raw.page.params)) as { id: number }[];
        } else if (which === 1) {
          answer = (await callHandler(r, 'listadoarticulos', input(q, 'relevancia'))) as typeof answer;
        } else if (which === 2) {
          const res = await r.app.inject({ method: 'GET', url: '/api/op.asp', query: { ac: 'listadoarticulos', ...input(q, 'relevancia') }, headers: { cookie } });
          if (res.statusCode !== 200 || res.json().RESULT !== '0') throw new Error(res.body.slice(0, 300));
        } else {
          await callHandler(r, 'listadoarticulos', input(q, 'codigo'));
        }
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (run >= 0) times[(['raw', 'handler', 'inject', 'codigo'] as const)[which]].push(ms);
      }
      if (run === 0) {
        const ids = (answer.data ?? []).map((a) => (a as unknown as { id: number }).id).join(',');
        if (ids !== rawRows.map((a) => Number(a.id)).join(',')) throw new Error(`${q}: the raw SQL answers other rows than the handler`);
      }
    }
    const first = answer.data?.[0];
    // The handler's own choice (consulta.ts, searchMode): most articles match → the walk rank by rank.
    const total = answer.total ?? 0;
    const camino = r.name === 'sqlite' && total * total > 4 * 10 * N ? 'walk' : 'index';
    const out = row(`"${q}"`, `${camino}; ${answer.data?.length ?? 0}/${total}; 1.º ${first ? `${first.codigo} ${first.descripcion.slice(0, 24)}` : '—'}`, times.raw, times.handler, times.inject);
    const c = stats(times.codigo);
    out['por código p50'] = c.p50.toFixed(3);
    out['por código p95'] = c.p95.toFixed(3);
    rows.push(out);
  }
  console.log(`${r.name}: milliseconds over ${RUNS} runs each (handler = validate + handler in-process; inject = the whole op.asp request; raw = the count and the page ranking every match, on the driver; por código = the same search sorted by código)`);
  console.table(rows);
}

console.log(`Suggestions bench: ${N.toLocaleString('es-ES')} articles, ${RUNS} runs per text (Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)})`);
await onBothEngines('mtpv-bench-sug-', bench);
console.log(`load at the end ${os.loadavg()[0].toFixed(1)}`);
