import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { readerOf } from '../src/db/index.ts';
import { nombresDeConexion } from '../src/db/nombradas.ts';
import { backends, createTestApp } from './helpers.ts';

describe('SQLite: durability, the WAL checkpoint and the caches', () => {
  it('syncs every commit and leaves the checkpoint to its worker: the WAL starts again after it, and closing removes it', async () => {
    const t = await createTestApp({ name: 'sqlite' });
    const db = t.app.manager.db;
    const wal = path.join(t.dataDir, 'manager.sqlite-wal');
    try {
      expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0].synchronous).toBe(2);
      const texto = 'x'.repeat(3000);
      for (let i = 0; i < 40; i++) await sql`update configuracion set razon_social = ${texto + i}`.execute(db);
      // The worker's checkpoint (every second) copied the WAL, so the next write starts it from the beginning.
      await new Promise((r) => setTimeout(r, 1500));
      await sql`update configuracion set razon_social = ${'y'}`.execute(db);
      const [ck] = (await sql<{ log: number }>`pragma wal_checkpoint(PASSIVE)`.execute(db)).rows;
      expect(ck.log).toBeLessThan(10);
    } finally {
      await t.app.close();
    }
    expect(fs.existsSync(wal)).toBe(false);
    expect(fs.existsSync(path.join(t.dataDir, 'manager.sqlite'))).toBe(true);
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('a write of business data keeps the sessions and flags cached; a write of a session changes them, again at its commit', async () => {
    const t = await createTestApp({ name: 'sqlite' });
    try {
      const db = t.app.manager.db;
      const reader = readerOf(db)!;
      const v0 = reader.version();
      await sql`update documentos set observaciones = ${'nota'} where id = 0`.execute(db);
      await db.transaction().execute(async (trx) => {
        await sql`update articulos set activo = activo where id = 0`.execute(trx);
      });
      expect(reader.version()).toBe(v0);
      let dentro = 0;
      await db.transaction().execute(async (trx) => {
        await sql`update sesiones set expira = expira where token_hash = ${'ninguno'}`.execute(trx);
        dentro = reader.version();
        expect(dentro).not.toBe(v0);
      });
      expect(reader.version()).not.toBe(dentro);
    } finally {
      await t.close();
    }
  });
});

describe('PostgreSQL: named statements', () => {
  it('a connection keeps its most recently used texts and drops the oldest beyond the limit', () => {
    const olvidados: string[] = [];
    const nombre = nombresDeConexion((n) => olvidados.push(n), 2);
    const a = nombre('select $1');
    const b = nombre('select $1, 2');
    expect(nombre('select $1')).toBe(a);
    const c = nombre('select $1, 3');
    expect(olvidados).toEqual([b]);
    expect(new Set([a, b, c]).size).toBe(3);
    // A dropped text comes back under a new name, never an old one.
    const b2 = nombre('select $1, 2');
    expect([a, b, c]).not.toContain(b2);
    expect(olvidados).toEqual([b, a]);
  });

  for (const backend of backends().filter((b) => b.name === 'postgres')) {
    it('answers right after more distinct statements than a connection keeps (DEALLOCATE of the oldest)', async () => {
      const t = await createTestApp(backend);
      try {
        await t.app.manager.db.connection().execute(async (c) => {
          for (let i = 0; i < 230; i++) {
            const { rows } = await sql<{ n: number }>`select ${sql.raw(String(i))} + cast(${i} as integer) as n`.execute(c);
            expect(Number(rows[0].n)).toBe(2 * i);
          }
          const { rows } = await sql<{ n: number }>`select ${sql.raw('0')} + cast(${7} as integer) as n`.execute(c);
          expect(Number(rows[0].n)).toBe(7);
          // 231 texts run, at most 200 still prepared on the server (this count is one more text): the others were deallocated.
          const prepared = await sql<{ n: number }>`select count(*) as n from pg_prepared_statements where statement like ${'select % + cast(%'}`.execute(c);
          expect(Number(prepared.rows[0].n)).toBeGreaterThan(150);
          expect(Number(prepared.rows[0].n)).toBeLessThanOrEqual(200);
        });
      } finally {
        await t.close();
      }
    });
  }
});
