// Throughput of the op.asp dispatcher (authenticated: cookie, session read, input check, query)
// against a bare Fastify route answering the same JSON, in the same run, on loopback:
// `pnpm bench:api`. BENCH_SECONDS and BENCH_CONNECTIONS tune the load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from 'server';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };

type Row = { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };
type Run = { requests: number; seconds: number; p50: number; p99: number; errors: number; non2xx: number };

async function run(url: string, headers: Record<string, string>, duration: number): Promise<Run> {
  // The load generator runs in a worker thread so it doesn't share the server's event loop.
  const r = await autocannon({ url, connections, duration, headers, workers: 1 });
  return { requests: r.requests.total, seconds: r.duration, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Alternates short runs of each target so both see the same machine noise; sums them up. */
async function compare(targets: { name: string; url: string; headers: Record<string, string> }[], total: number): Promise<Row[]> {
  const rounds = Math.max(1, Math.round(total / 2));
  const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const t of targets) runs.get(t.name)!.push(await run(t.url, t.headers, total / rounds));
  }
  return targets.map(({ name }) => {
    const rs = runs.get(name)!;
    const sum = (f: (r: Run) => number) => rs.reduce((s, r) => s + f(r), 0);
    return {
      name,
      rps: sum((r) => r.requests) / sum((r) => r.seconds),
      p50: median(rs.map((r) => r.p50)),
      p99: Math.max(...rs.map((r) => r.p99)),
      errors: sum((r) => r.errors),
      non2xx: sum((r) => r.non2xx),
    };
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-bench-'));
const app = await buildApp({ dataDir, staticRoot: dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
const appUrl = await app.listen({ host: '127.0.0.1', port: 0 });

const login = await fetch(`${appUrl}/api/op.asp?ac=identificar`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(ADMIN),
});
const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
const opUrl = `${appUrl}/api/op.asp?ac=listadoconfiguraciones`;
const answer = await (await fetch(opUrl, { headers: { cookie } })).json();
if (answer.RESULT !== '0') throw new Error(`login or listado failed: ${JSON.stringify(answer)}`);

const bare = Fastify();
bare.get('/bare', async () => answer);
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

console.log(
  `op.asp vs bare Fastify: ${connections} connections, ${seconds} s each in alternating 2 s rounds, after a warm-up (Node ${process.version}, ${os.cpus().length} CPUs)`,
);
const bareTarget = { name: 'bare Fastify route', url: `${bareUrl}/bare`, headers: {} };
const opTarget = { name: 'op.asp listadoconfiguraciones', url: opUrl, headers: { cookie } };
await compare([bareTarget, opTarget], 2);
const rows = await compare([bareTarget, opTarget], seconds);

console.table(
  rows.map((r) => ({ route: r.name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50, 'p99 ms': r.p99, errors: r.errors, non2xx: r.non2xx })),
);
const ratio = rows[1].rps / rows[0].rps;
console.log(`dispatcher / bare throughput: ${(ratio * 100).toFixed(1)} % (aim ≥ 50 %)`);

await bare.close();
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
if (rows.some((r) => r.errors || r.non2xx)) process.exitCode = 1;
