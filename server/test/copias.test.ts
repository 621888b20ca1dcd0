import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { buildApp } from '../src/app.ts';
import { volcarCopia } from '../src/copias/copia.ts';
import { CopiasProgramadas, comprobarCopia, copiasOf } from '../src/copias/programadas.ts';
import { openDatabase } from '../src/db/index.ts';
import { STEPS, migrate } from '../src/db/migrations/index.ts';
import { ADMIN, backends, createTestApp, freshDatabase, multipart, useTestApp } from './helpers.ts';
import { list } from './catalogo-fixtures.ts';
import { factura, preparar } from './verifactu-fixtures.ts';

/** 03:31 in Madrid (CET, UTC+1) on `dia`, and other local times that day. */
const madrid = (dia: string, hora = '03:31') => new Date(`${dia}T${hora}:00+01:00`);

const carpeta = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-copias-'));
const copiasEn = (dir: string) => fs.readdirSync(dir).filter((f) => !f.startsWith('.')).sort();

describe.each(backends())('backups without a person, and the restore drill ($name)', (backend) => {
  const dir = carpeta();
  const t = useTestApp(backend, { copias: { dir, dias: 3, hora: '03:30', worker: false } });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes the day’s backup once, at its hour, written whole and verified, with its SHA-256 beside it', async () => {
    const f = await preparar(t, t.cookie, 'CP');
    await factura(t, t.cookie, f);
    await factura(t, t.cookie, f, 250_000);
    const worker = copiasOf(t.app.manager);

    expect(await worker.ciclo(madrid('2026-12-01', '03:29'))).toEqual({ hecho: 'antes_de_hora' });
    expect(copiasEn(dir)).toEqual([]);
    const r = await worker.ciclo(madrid('2026-12-01'));
    expect(r.hecho).toBe('copia');
    const archivo = 'manager-tpv-2026-12-01-0331.json';
    expect(copiasEn(dir)).toEqual([archivo, `${archivo}.sha256`]);
    const texto = fs.readFileSync(path.join(dir, archivo));
    // The sidecar is what `sha256sum -c` reads.
    const sha = crypto.createHash('sha256').update(texto).digest('hex');
    expect(fs.readFileSync(path.join(dir, `${archivo}.sha256`), 'utf8')).toBe(`${sha}  ${archivo}\n`);
    expect(execFileSync('sha256sum', ['-c', `${archivo}.sha256`], { cwd: dir, encoding: 'utf8' })).toBe(`${archivo}: OK\n`);
    const contenido = JSON.parse(texto.toString('utf8'));
    expect(contenido.formato).toBe('manager-tpv-backup');
    expect(contenido.tablas.registros_facturacion).toHaveLength(2);
    expect((await comprobarCopia(path.join(dir, archivo))).filas.documentos).toBeGreaterThanOrEqual(2);
    // Only the owner reads it.
    expect(fs.statSync(path.join(dir, archivo)).mode & 0o077).toBe(0);
    const estado = await t.app.manager.db.selectFrom('copias_programadas').selectAll().executeTakeFirstOrThrow();
    expect(estado).toMatchObject({ dia: '2026-12-01', archivo, error: null, lease_id: null });

    // Later the same day, by this instance or another one on the same database: nothing.
    expect(await worker.ciclo(madrid('2026-12-01', '18:00'))).toEqual({ hecho: 'ya_hecha' });
    const otra = new CopiasProgramadas(t.app.manager, { dir, worker: false, hora: '03:30' });
    expect(await otra.ciclo(madrid('2026-12-01', '19:00'))).toEqual({ hecho: 'ya_hecha' });
  });

  it('two instances at the same moment: one backup between them', async () => {
    const a = copiasOf(t.app.manager);
    const b = new CopiasProgramadas(t.app.manager, { dir, worker: false, hora: '03:30' });
    const [ra, rb] = await Promise.all([a.ciclo(madrid('2026-12-02')), b.ciclo(madrid('2026-12-02'))]);
    expect([ra, rb].filter((r) => r.hecho === 'copia')).toHaveLength(1);
    expect(['ocupado', 'ya_hecha']).toContain([ra, rb].find((r) => r.hecho !== 'copia')!.hecho);
    expect(copiasEn(dir).filter((f) => f.endsWith('.json'))).toEqual(['manager-tpv-2026-12-01-0331.json', 'manager-tpv-2026-12-02-0331.json']);
    // Another instance holding the lease (taking it now): this one waits.
    await t.app.manager.db.updateTable('copias_programadas').set({ lease_id: 'otra', lease_hasta: '2999-01-01T00:00:00.000Z' }).execute();
    expect(await a.ciclo(madrid('2026-12-03'))).toEqual({ hecho: 'ocupado' });
    await t.app.manager.db.updateTable('copias_programadas').set({ lease_id: null, lease_hasta: null }).execute();
  });

  it('keeps the last days asked for: older backups and their sums go, never the newest', async () => {
    const w = copiasOf(t.app.manager);
    for (const dia of ['2026-12-03', '2026-12-04', '2026-12-05']) expect((await w.ciclo(madrid(dia))).hecho).toBe('copia');
    const r = await w.ciclo(madrid('2026-12-06', '09:15'));
    expect(r).toMatchObject({ hecho: 'copia', borradas: ['manager-tpv-2026-12-03-0331.json'] });
    expect(copiasEn(dir).filter((f) => f.endsWith('.json'))).toEqual([
      'manager-tpv-2026-12-04-0331.json',
      'manager-tpv-2026-12-05-0331.json',
      'manager-tpv-2026-12-06-0915.json',
    ]);
    expect(copiasEn(dir)).toHaveLength(6);
  });

  // The command reads files only: once (on SQLite) is enough; each run starts tsx (seconds on a busy machine).
  it.runIf(backend.name === 'sqlite')('copias:exportar copies the whole backups off to another folder, once; copias:comprobar checks them there', { timeout: 120_000 }, () => {
    const destino = carpeta();
    const tsx = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
    const script = path.join(import.meta.dirname, '..', 'scripts', 'copias.ts');
    const correr = (...args: string[]) => spawnSync(tsx, [script, ...args], { env: { ...process.env, MANAGER_COPIAS_DIR: dir }, encoding: 'utf8' });
    const primera = correr('exportar', destino);
    expect(primera.status).toBe(0);
    expect(primera.stdout.trim().split('\n').map((l) => l.split(/\s+/)[0])).toEqual(['COPIA', 'COPIA', 'COPIA']);
    expect(copiasEn(destino)).toEqual(copiasEn(dir));
    expect(correr('exportar', destino).stdout).not.toContain('COPIA');
    const comprobada = correr('comprobar', ...copiasEn(destino).filter((f) => f.endsWith('.json')).map((f) => path.join(destino, f)));
    expect(comprobada.status).toBe(0);
    expect(comprobada.stdout).toMatch(/^OK {5}manager-tpv-2026-12-04-0331\.json: \d+ filas \(\d+ documentos, 2 registros VERI\*FACTU\)$/m);
    // A copy damaged at the destination: comprobar says which, with status 1; exportar puts a whole one back.
    const danada = path.join(destino, 'manager-tpv-2026-12-05-0331.json');
    fs.appendFileSync(danada, ' ');
    const mal = correr('comprobar', danada);
    expect(mal.status).toBe(1);
    expect(mal.stdout).toContain('MAL    manager-tpv-2026-12-05-0331.json: la suma SHA-256 no coincide');
    expect(correr('exportar', destino).stdout).toContain('COPIA  manager-tpv-2026-12-05-0331.json');
    expect(correr('comprobar', danada).status).toBe(0);
    fs.rmSync(destino, { recursive: true, force: true });
  });

  it('a backup that changed on the disk, or is cut short, is told apart', async () => {
    const archivo = path.join(dir, 'manager-tpv-2026-12-06-0915.json');
    const copia = path.join(carpeta(), 'copia.json');
    fs.copyFileSync(archivo, copia);
    fs.copyFileSync(`${archivo}.sha256`, `${copia}.sha256`);
    await expect(comprobarCopia(copia)).resolves.toBeTruthy();
    const texto = fs.readFileSync(copia, 'utf8');
    fs.writeFileSync(copia, texto.replace('"formato"', '"formatx"'));
    await expect(comprobarCopia(copia)).rejects.toThrow(/la suma SHA-256 no coincide/);
    fs.rmSync(`${copia}.sha256`);
    await expect(comprobarCopia(copia)).rejects.toThrow(/no es una copia de seguridad válida/);
    fs.writeFileSync(copia, texto.slice(0, texto.length / 2));
    await expect(comprobarCopia(copia)).rejects.toThrow(/no es una copia de seguridad válida/);
  });

  it('a folder it cannot write: the error is recorded, no half file is left, and it tries again later', async () => {
    const malo = path.join(carpeta(), 'no-es-carpeta');
    fs.writeFileSync(malo, 'x');
    const w = new CopiasProgramadas(t.app.manager, { dir: malo, worker: false, reintentoMs: 60_000 });
    const r = await w.ciclo(madrid('2026-12-07'));
    expect(r.hecho).toBe('error');
    const estado = await t.app.manager.db.selectFrom('copias_programadas').selectAll().executeTakeFirstOrThrow();
    expect(estado.dia).toBe('2026-12-06');
    expect(estado.error).toMatch(/EEXIST|ENOTDIR/);
    expect(estado.lease_id).toBeNull();
    expect(await w.ciclo(new Date(madrid('2026-12-07').getTime() + 30_000))).toEqual({ hecho: 'esperando_reintento' });
  });

  it('the drill: the scheduled backup restored into an empty database is the same data', async () => {
    const archivo = path.join(dir, 'manager-tpv-2026-12-06-0915.json');
    const texto = fs.readFileSync(archivo, 'utf8');
    const vacia = await createTestApp(backend);
    try {
      const cookie = await vacia.login();
      expect((await list(vacia, cookie, 'listadofacturas')).rows).toHaveLength(0);
      const { payload, headers } = multipart('archivo', path.basename(archivo), 'application/json', Buffer.from(texto));
      const res = await vacia.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie } });
      expect(res.json()).toMatchObject({ RESULT: '0', message: MESSAGES.backupRestored });
      // Every table the backup holds, row by row, as the original had it.
      const restaurada = JSON.parse((await volcarCopia(vacia.app.manager)).body);
      expect(restaurada.tablas).toEqual(JSON.parse(texto).tablas);
      // And what the owner checks: the invoices with their numbers and totals, the records' chain.
      const original = (await list(t, t.cookie, 'listadofacturas')).rows.map((r) => [r.numero, r.total]);
      expect((await list(vacia, cookie, 'listadofacturas')).rows.map((r) => [r.numero, r.total])).toEqual(original);
      expect(original).toHaveLength(2);
    } finally {
      await vacia.close();
    }
  });
});

describe.each(backends())('an upgrade takes a backup of the previous version first ($name)', (backend) => {
  it('a database left by the previous version: copied whole before the new steps run, then migrated', async () => {
    const fresh = await freshDatabase(backend);
    try {
      const antigua = openDatabase({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl });
      await migrate(antigua.db, antigua.dialect, { steps: STEPS.slice(0, -1) });
      await sql`insert into clientes (codigo, nif, razon_social) values ('C1', 'B12345674', 'Cliente de antes')`.execute(antigua.db);
      await antigua.close();

      const app = await buildApp({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl, staticRoot: fresh.dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
      try {
        const pasos = await app.manager.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
        expect(pasos).toHaveLength(STEPS.length);
      } finally {
        await app.close();
      }
      const dir = path.join(fresh.dataDir, 'copias');
      const [copia, ...otras] = fs.readdirSync(dir);
      expect(otras).toEqual([]);
      expect(copia).toMatch(new RegExp(`^antes-de-migrar-\\d{8}T\\d{6}Z-${STEPS.at(-2)![0]}\\.(sqlite|pgdump)$`));
      if (backend.name === 'sqlite') {
        const file = new SQLite(path.join(dir, copia), { readonly: true });
        expect(file.prepare('select razon_social from clientes').pluck().all()).toEqual(['Cliente de antes']);
        expect(file.prepare('select count(*) from kysely_migration').pluck().get()).toBe(STEPS.length - 1);
        file.close();
      } else {
        const lista = execFileSync('pg_restore', ['--list', path.join(dir, copia)], { encoding: 'utf8' });
        expect(lista).toMatch(/TABLE DATA \S+ clientes/);
        const sqlText = execFileSync('pg_restore', ['--data-only', '--table=clientes', '-f', '-', path.join(dir, copia)], { encoding: 'utf8' });
        expect(sqlText).toContain('Cliente de antes');
      }
    } finally {
      await fresh.drop();
    }
  });

  it('a new database: no backup, nothing to keep', async () => {
    const t = await createTestApp(backend);
    try {
      expect(fs.existsSync(path.join(t.dataDir, 'copias'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
