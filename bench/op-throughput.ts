// Throughput of the op.asp dispatcher (authenticated: cookie, session, input check, answer) against
// a bare Fastify route answering the same JSON, in the same run, on loopback: `pnpm bench:api`.
// autocannon runs as a child process so the server's CPU time per request can be measured apart
// from the load generator's; on a shared machine that figure is steadier than req/s.
// BENCH_SECONDS (per target, default 8) and BENCH_CONNECTIONS (default 10) tune the load.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from 'server';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUND_SECONDS = 2;
const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

type Target = { name: string; url: string; headers: Record<string, string> };
type Run = { requests: number; seconds: number; p50: number; p99: number; errors: number; non2xx: number; cpuUs: number };

/** One bounded autocannon run against a loopback URL; `cpuUs` is this (server) process's CPU time. */
function run(target: Target, duration: number): Promise<Run> {
  const args = [autocannonBin, '-c', String(connections), '-d', String(duration), '-j'];
  for (const [k, v] of Object.entries(target.headers)) args.push('-H', `${k}=${v}`);
  args.push(target.url);
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => {
      const cpu = process.cpuUsage(cpuBefore);
      const r = JSON.parse(out);
      resolve({
        requests: r.requests.total,
        seconds: r.duration,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors,
        non2xx: r.non2xx,
        cpuUs: cpu.user + cpu.system,
      });
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Alternates short runs of each target so both see the same machine noise, then sums them up. */
async function compare(targets: Target[], total: number) {
  const rounds = Math.max(1, Math.round(total / ROUND_SECONDS));
  const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const t of targets) runs.get(t.name)!.push(await run(t, total / rounds));
  }
  return targets.map(({ name }) => {
    const rs = runs.get(name)!;
    const sum = (f: (r: Run) => number) => rs.reduce((s, r) => s + f(r), 0);
    return {
      name,
      rps: sum((r) => r.requests) / sum((r) => r.seconds),
      p50: median(rs.map((r) => r.p50)),
      p99: Math.max(...rs.map((r) => r.p99)),
      cpuPerReq: Math.min(...rs.map((r) => r.cpuUs / Math.max(1, r.requests))),
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
  `op.asp vs bare Fastify: ${connections} connections, ${seconds} s each in alternating ${ROUND_SECONDS} s rounds after a warm-up; ` +
    `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
);
const targets: Target[] = [
  { name: 'bare Fastify route', url: `${bareUrl}/bare`, headers: {} },
  { name: 'op.asp listadoconfiguraciones', url: opUrl, headers: { cookie } },
];
await compare(targets, ROUND_SECONDS * 2);
const [b, o] = await compare(targets, seconds);

console.table(
  [b, o].map((r) => ({
    route: r.name,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'server CPU µs/req': Number(r.cpuPerReq.toFixed(1)),
    errors: r.errors,
    non2xx: r.non2xx,
  })),
);
console.log(`dispatcher / bare throughput: ${((o.rps / b.rps) * 100).toFixed(1)} % (aim ≥ 50 %)`);
console.log(`bare / dispatcher server CPU per request: ${((b.cpuPerReq / o.cpuPerReq) * 100).toFixed(1)} %`);

await bare.close();
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
if (o.errors || o.non2xx || b.errors || b.non2xx) process.exitCode = 1;
