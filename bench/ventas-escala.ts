// Scale out: two real server processes on one PostgreSQL, emitting invoices of one serie at the same time:
// `pnpm bench:ventas:escala`.
// 1. 200 draft invoices on a new serie, emitted concurrently, half through each instance: the serie must hold
//    200 consecutive numbers (no gap, no duplicate), one registro de alta each, and the chain check must pass.
// 2. The same with instance B killed (SIGKILL to its process group, as `kill -9`) halfway through its share: every
//    emission is either complete (number, state, record) or absent (still a draft, no number, no record), the
//    numbers stay gapless, the chain still verifies; then instance A emits what was left and the serie ends with
//    200 consecutive numbers.
// A throwaway cluster (or DATABASE_URL, in a schema of its own); the servers start as `pnpm --filter server start`
// does. BENCH_EMISIONES (200), BENCH_CONCURRENCIA (4 requests in flight per instance), BENCH_LINEAS (5).
import crypto from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import type { ComprobacionCadena, Documento } from 'shared/domain';
import { startServer } from '../server/scripts/spawn-server.mjs';
import { cif } from './datos.ts';
import { ADMIN, postgresUrl, stats } from './runners.ts';

const EMISIONES = Number(process.env.BENCH_EMISIONES ?? 200);
const CONCURRENCIA = Number(process.env.BENCH_CONCURRENCIA ?? 4);
const LINEAS = Number(process.env.BENCH_LINEAS ?? 5);

type Instancia = { nombre: string; baseUrl: string; cookie: string; kill: () => void; stop: () => Promise<void> };
type Respuesta<T> = { RESULT: string; data?: T[]; message?: string; errors?: Record<string, string> };

async function op<T = Record<string, unknown>>(i: Instancia, ac: string, body?: Record<string, unknown>, query: Record<string, string> = {}): Promise<Respuesta<T>> {
  const url = `${i.baseUrl}/api/op.asp?${new URLSearchParams({ ac, ...query })}`;
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    headers: { cookie: i.cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Respuesta<T>;
}

async function ok<T>(p: Promise<Respuesta<T>>, what: string): Promise<T[]> {
  const r = await p;
  if (r.RESULT !== '0') throw new Error(`${what}: ${r.message} ${JSON.stringify(r.errors ?? {})}`);
  return r.data ?? [];
}

async function arrancar(nombre: string, databaseUrl: string): Promise<Instancia> {
  const s = await startServer({
    quiet: true,
    env: { DATABASE_URL: databaseUrl, MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' },
  });
  const res = await fetch(`${s.baseUrl}/api/op.asp?ac=identificar`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('mtpv_sesion='));
  if (!cookie) throw new Error(`${nombre}: login failed: ${await res.text()}`);
  return { nombre, baseUrl: s.baseUrl, cookie: cookie.split(';')[0], kill: s.kill, stop: s.stop };
}

/** Runs `ids` through emitirfactura on one instance, `concurrencia` requests in flight; `parar` stops sending. */
async function emitir(i: Instancia, ids: number[], concurrencia: number, alTerminar?: (hechas: number) => void) {
  const tiempos: number[] = [];
  const resultado = new Map<number, 'emitida' | 'rechazada' | 'sin respuesta'>();
  let siguiente = 0;
  let hechas = 0;
  let caida = false;
  const trabajador = async () => {
    while (siguiente < ids.length && !caida) {
      const id = ids[siguiente++];
      const t0 = performance.now();
      try {
        const r = await op<Documento>(i, 'emitirfactura', { id });
        tiempos.push(performance.now() - t0);
        resultado.set(id, r.RESULT === '0' ? 'emitida' : 'rechazada');
        if (r.RESULT !== '0') console.log(`  ${i.nombre}: emitirfactura ${id}: ${r.message}`);
      } catch {
        // The instance is gone: the request got no answer.
        resultado.set(id, 'sin respuesta');
        caida = true;
      }
      alTerminar?.(++hechas);
    }
  };
  await Promise.all(Array.from({ length: concurrencia }, trabajador));
  return { tiempos, resultado };
}

/** What the database holds for these drafts after the emissions. */
async function estadoDe(db: pg.Client, serieId: number, ids: number[]) {
  const { rows } = await db.query<{ id: number; estado: string; numero: number | null; tipo_factura: string | null; registros: string; altas: string }>(
    `select d.id, d.estado, d.numero, d.tipo_factura,
       (select count(*) from registros_facturacion r where r.documento_id = d.id) as registros,
       (select count(*) from registros_facturacion r where r.documento_id = d.id and r.tipo = 'alta') as altas
     from documentos d where d.id = any($1::int[]) and d.serie_id = $2 order by d.id`,
    [ids, serieId],
  );
  const completas = rows.filter((r) => r.estado === 'emitida' && r.numero !== null && r.tipo_factura !== null && Number(r.altas) === 1 && Number(r.registros) === 1);
  const ausentes = rows.filter((r) => r.estado === 'borrador' && r.numero === null && Number(r.registros) === 0);
  const numeros = completas.map((r) => Number(r.numero)).sort((a, b) => a - b);
  const consecutivos = numeros.every((n, k) => n === k + 1);
  return { filas: rows.length, completas: completas.length, ausentes: ausentes.length, otras: rows.length - completas.length - ausentes.length, numeros, consecutivos };
}

const si = (b: boolean) => (b ? 'OK' : 'FALLA');

async function main() {
  console.log(`Scale-out bench: ${EMISIONES} emissions on one serie, 2 instances × ${CONCURRENCIA} in flight (Node ${process.version}, ${os.cpus().length} CPUs)`);
  const server = await postgresUrl('mtpv-bench-esc-');
  if (!server) {
    console.log('postgres: SKIPPED (no DATABASE_URL and no initdb/pg_ctl on PATH)');
    return;
  }
  const db = new pg.Client({ connectionString: server.url });
  const instancias: Instancia[] = [];
  let fallos = 0;
  try {
    // A first (migrates and seeds), then B on the same database.
    instancias.push(await arrancar('A', server.url));
    instancias.push(await arrancar('B', server.url));
    const [a, b] = instancias;
    await db.connect();

    // A customer with a NIF (F1 needs it), the demo's articles, the main warehouse.
    const [cliente] = await ok(
      op<{ id: number }>(a, 'editarcliente', { nif: cif(7_654_321), razon_social: 'Cliente Escala, S.L.', codigo_postal: '28001', forma_pago: 'contado' }),
      'editarcliente',
    );
    const articulos = (await ok(op<{ id: number }>(a, 'listadoarticulos', undefined, { porPagina: '100' }), 'listadoarticulos')).map((x) => x.id);
    const [almacen] = await ok(op<{ id: number }>(a, 'listadoalmacenes', undefined, { porPagina: '10' }), 'listadoalmacenes');
    const hoy = new Date().toISOString().slice(0, 10);

    const fase = async (codigo: string, matar: boolean) => {
      const [serie] = await ok(op<{ id: number }>(a, 'editarserie', { codigo, descripcion: `Escala ${codigo}`, tipo: 'normal', activo: 1 }), 'editarserie');
      // The drafts, half through each instance (untimed).
      const ids: number[] = [];
      for (let k = 0; k < EMISIONES; k++) {
        const lineas = Array.from({ length: LINEAS }, (_, j) => ({ articulo_id: articulos[(k * LINEAS + j) % articulos.length], cantidad: 1000 + j * 1000 }));
        const [f] = await ok(
          op<Documento>(k % 2 ? b : a, 'editarfactura', {
            fecha: hoy, cliente_id: cliente.id, almacen_id: almacen.id, serie_id: serie.id, lineas, clave: crypto.randomUUID(),
          }),
          'editarfactura',
        );
        ids.push(f.id);
      }
      const mitadA = ids.filter((_, k) => k % 2 === 0);
      const mitadB = ids.filter((_, k) => k % 2 === 1);
      const t0 = performance.now();
      let muerta = false;
      const [ra, rb] = await Promise.all([
        emitir(a, mitadA, CONCURRENCIA),
        emitir(b, mitadB, CONCURRENCIA, (hechas) => {
          // Halfway through B's share, with requests still in flight: kill -9.
          if (matar && !muerta && hechas >= mitadB.length / 2) {
            muerta = true;
            b.kill();
          }
        }),
      ]);
      const total = performance.now() - t0;
      const tiempos = [...ra.tiempos, ...rb.tiempos];
      const s = stats(tiempos);
      const sinRespuesta = [...rb.resultado].filter(([, v]) => v === 'sin respuesta').map(([id]) => id);
      const noEnviadas = mitadB.filter((id) => !rb.resultado.has(id));
      console.log(
        `\n${codigo}: ${EMISIONES} drafts, emitted concurrently through A (${mitadA.length}) and B (${mitadB.length})${matar ? ', B killed (SIGKILL) halfway' : ''}`,
      );
      console.log(
        `  ${tiempos.length} answers in ${(total / 1000).toFixed(2)} s (${((tiempos.length * 1000) / total).toFixed(0)} emissions/s); ` +
          `emitirfactura p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`,
      );
      if (matar) console.log(`  B: ${sinRespuesta.length} requests without an answer when it died, ${noEnviadas.length} never sent`);

      const e = await estadoDe(db, serie.id, ids);
      const [cadena] = await ok(op<ComprobacionCadena>(a, 'comprobarregistrosfacturacion'), 'comprobarregistrosfacturacion');
      const checks: [string, boolean][] = [
        [`every emission complete or absent (${e.completas} complete, ${e.ausentes} drafts, ${e.otras} other)`, e.otras === 0 && e.filas === EMISIONES],
        [`numbers 1…${e.numeros.length} consecutive, no gap, no duplicate`, e.consecutivos && new Set(e.numeros).size === e.numeros.length],
        [`chain check over ${cadena.total} records: ${cadena.correcto ? 'correcto' : JSON.stringify(cadena.rotura)}`, cadena.correcto],
      ];
      if (!matar) checks.push([`all ${EMISIONES} emitted`, e.completas === EMISIONES]);
      else {
        // What the dead instance left: whatever it was doing either committed whole or not at all.
        const enVuelo = await estadoDe(db, serie.id, sinRespuesta);
        checks.push([`the ${sinRespuesta.length} in flight at the kill: ${enVuelo.completas} complete, ${enVuelo.ausentes} absent`, enVuelo.otras === 0]);
        // A emits the rest: the serie ends with every number once.
        const quedan = (await db.query<{ id: number }>(`select id from documentos where serie_id = $1 and estado = 'borrador' order by id`, [serie.id])).rows.map(
          (r) => r.id,
        );
        await emitir(a, quedan, CONCURRENCIA);
        const fin = await estadoDe(db, serie.id, ids);
        const [cadenaFin] = await ok(op<ComprobacionCadena>(a, 'comprobarregistrosfacturacion'), 'comprobarregistrosfacturacion');
        checks.push([
          `after A emits the ${quedan.length} left: ${fin.completas} emitted, numbers 1…${fin.numeros.length} consecutive, chain ${cadenaFin.correcto ? 'correcto' : 'ROTA'} (${cadenaFin.total} records)`,
          fin.completas === EMISIONES && fin.consecutivos && cadenaFin.correcto,
        ]);
      }
      for (const [texto, bien] of checks) {
        console.log(`  ${si(bien)}  ${texto}`);
        if (!bien) fallos++;
      }
    };
    await fase('ESC1', false);
    await fase('ESC2', true);
  } finally {
    await db.end().catch(() => {});
    for (const i of instancias) await i.stop();
    await server.stop();
  }
  if (fallos) {
    console.log(`\n${fallos} check(s) failed`);
    process.exitCode = 1;
  }
}

await main();
