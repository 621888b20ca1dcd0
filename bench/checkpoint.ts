// Commit latency of SQLite under the server's durability and checkpoint, against the configuration before them:
// `pnpm --filter bench checkpoint`. Three databases side by side, the same transactions interleaved (60 rows with two
// indexes each, 2 ms apart): NORMAL with SQLite's own autocheckpoint at 1.000 pages (the server before), NORMAL with
// the checkpoint in the server's worker (db/checkpoint.ts), and FULL with the worker (the server now). Prints median,
// p90, p95 and p99 of each commit. BENCH_COMMITS (600).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { startCheckpointer } from '../server/src/db/checkpoint.ts';
import { ms } from './runners.ts';

const N = Number(process.env.BENCH_COMMITS ?? 600);
const configs = [
  { name: 'NORMAL, autocheckpoint 1.000 (before)', sync: 'NORMAL', auto: 1000, worker: false },
  { name: 'NORMAL, checkpoint worker', sync: 'NORMAL', auto: 20_000, worker: true },
  { name: 'FULL, checkpoint worker (now)', sync: 'FULL', auto: 20_000, worker: true },
];
const bases = configs.map((c) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-bench-ck-'));
  const file = path.join(dir, 'x.sqlite');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${c.sync}`);
  db.pragma(`wal_autocheckpoint = ${c.auto}`);
  db.exec('create table t (id integer primary key, a integer, b text); create index t_a on t (a); create index t_b on t (b)');
  const ins = db.prepare('insert into t (a, b) values (?, ?)');
  const tx = db.transaction(() => {
    for (let k = 0; k < 60; k++) ins.run(Math.floor(Math.random() * 1e9), Math.random().toString(36).repeat(8));
  });
  const worker = c.worker ? startCheckpointer(file, 1000, (m) => console.error(m)) : null;
  return { c, db, dir, tx, worker, times: [] as number[] };
});
console.log(`Commit latency: ${N} transactions of 60 rows per configuration, interleaved (Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)})`);
for (let i = 0; i < N; i++) {
  for (const b of i % 2 ? bases : [...bases].reverse()) {
    const t0 = process.hrtime.bigint();
    b.tx();
    b.times.push(ms(t0));
  }
  await new Promise((r) => setTimeout(r, 2));
}
const rows = [];
for (const b of bases) {
  const s = [...b.times].sort((x, y) => x - y);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))].toFixed(2);
  rows.push({ configuration: b.c.name, p50: q(0.5), p90: q(0.9), p95: q(0.95), p99: q(0.99) });
  await b.worker?.stop();
  b.db.close();
  fs.rmSync(b.dir, { recursive: true, force: true });
}
console.table(rows);
