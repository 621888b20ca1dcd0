import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { STEPS } from '../src/db/migrations/index.ts';

/**
 * Migration 0024 on a SQLite database that already has articles: `articulos` is rebuilt to widen its tipo_iva check
 * (IGIC, IPSI, tabaco). Its rows keep their ids, the tables pointing at it keep their rows and valid foreign keys, its
 * indexes and the FTS5 triggers are back, and both search indexes (words and trigrams) answer old and new articles.
 * (PostgreSQL alters the constraint in place; impuesto.test.ts runs the search on both databases.)
 */
describe('migration 0024 on a populated SQLite database', () => {
  it('rebuilds articulos keeping rows, ids, foreign keys, indexes, triggers and the FTS search', async () => {
    const file = new SQLite(':memory:');
    file.pragma('foreign_keys = ON');
    // biome-ignore lint/suspicious/noExplicitAny: the migrations run on an untyped database, as the migrator does.
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: file }) });
    const i = STEPS.findIndex(([n]) => n === '0024_impuesto_empresa');
    for (const [, step] of STEPS.slice(0, i)) await step.up(db, 'sqlite');
    const almacen = (await db.selectFrom('almacenes').select('id').executeTakeFirstOrThrow()).id as number;
    await db
      .insertInto('articulos')
      .values([
        { id: 7, codigo: 'TOR-1', descripcion: 'Tornillo guanchinesco', busqueda: 'tor 1 tornillo guanchinesco', tipo_iva: '10' },
        { id: 9, codigo: 'ARA-2', descripcion: 'Arandela majorera', busqueda: 'ara 2 arandela majorera', tipo_iva: 'exento' },
      ])
      .execute();
    await db.insertInto('stock_movimientos').values({ articulo_id: 9, almacen_id: almacen, cantidad: 5_000, causa: 'ajuste', fecha: '2026-11-01' }).execute();
    const esquema = async () =>
      (await sql<{ type: string; name: string }>`select type, name from sqlite_master where tbl_name = 'articulos' and type in ('index', 'trigger') order by name`.execute(db)).rows;
    const antes = await esquema();
    expect(antes.filter((x) => x.type === 'trigger').length).toBeGreaterThanOrEqual(6);
    await expect(sql`insert into articulos (codigo, descripcion, tipo_iva) values ('X', 'x', 'igic_7')`.execute(db)).rejects.toThrow(/CHECK/);

    await STEPS[i][1].up(db, 'sqlite');

    expect(await esquema()).toEqual(antes);
    expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
    expect(file.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(await db.selectFrom('articulos').select(['id', 'codigo', 'tipo_iva']).orderBy('id').execute()).toEqual([
      { id: 7, codigo: 'TOR-1', tipo_iva: '10' },
      { id: 9, codigo: 'ARA-2', tipo_iva: 'exento' },
    ]);
    expect((await db.selectFrom('stock_movimientos').select('articulo_id').execute()).map((r) => r.articulo_id)).toEqual([9]);
    await db.insertInto('articulos').values({ id: 11, codigo: 'TAB-3', descripcion: 'Cigarro palmero', busqueda: 'tab 3 cigarro palmero', tipo_iva: 'igic_9_5' }).execute();
    await expect(sql`insert into articulos (codigo, descripcion, tipo_iva) values ('Y', 'y', '7')`.execute(db)).rejects.toThrow(/CHECK/);
    // A row of another table still can't name an article that doesn't exist.
    await expect(db.insertInto('stock_movimientos').values({ articulo_id: 99, almacen_id: almacen, cantidad: 1, causa: 'ajuste', fecha: '2026-11-01' }).execute()).rejects.toThrow(/FOREIGN KEY/);
    const fts = async (tabla: 'articulos_fts' | 'articulos_tri', q: string) =>
      (await sql<{ rowid: number }>`select rowid from ${sql.table(tabla)} where ${sql.table(tabla)} match ${q} order by rowid`.execute(db)).rows.map((r) => r.rowid);
    expect(await fts('articulos_fts', 'guanchinesco')).toEqual([7]);
    expect(await fts('articulos_fts', 'palmero')).toEqual([11]);
    expect(await fts('articulos_tri', 'jorer')).toEqual([9]);
    expect(await fts('articulos_tri', 'almer')).toEqual([11]);
    await db.updateTable('articulos').set({ busqueda: 'tor 1 tornillo herreno' }).where('id', '=', 7).execute();
    expect(await fts('articulos_tri', 'chinesc')).toEqual([]);
    expect(await fts('articulos_tri', 'herren')).toEqual([7]);
    await db.destroy();
  });
});
