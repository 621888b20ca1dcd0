import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/index.ts';
import type { Db } from '../src/db/index.ts';
import { MigracionFallida, STEPS, migrate } from '../src/db/migrations/index.ts';
import type { Step } from '../src/db/migrations/index.ts';
import { backends, freshDatabase } from './helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: the migrations run on an untyped database, as the migrator does.
type AnyDb = Kysely<any>;

/** A step of a next version that changes schema and data, then fails halfway. */
const ROTA: Step = {
  async up(db) {
    await db.schema.createTable('tabla_nueva').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
    await db.schema.alterTable('clientes').addColumn('columna_nueva', 'text').execute();
    await db.updateTable('clientes').set({ razon_social: 'CAMBIADA' }).execute();
    await db.deleteFrom('articulos').execute();
    throw new Error('la migración falla a medias');
  },
};

/** Everything a version sees of the database: its tables and columns, the steps done, and the rows of the tables the tests fill. */
async function foto(database: Db) {
  const db = database.db as AnyDb;
  const columnas =
    database.dialect === 'postgres'
      ? (
          await sql<{ t: string; c: string }>`select table_name as t, column_name as c from information_schema.columns
            where table_schema = current_schema() order by table_name, column_name`.execute(db)
        ).rows.map((r) => `${r.t}.${r.c}`)
      : (
          await sql<{ t: string; c: string }>`select m.name as t, p.name as c from sqlite_master m, pragma_table_info(m.name) p
            where m.type = 'table' order by m.name, p.name`.execute(db)
        ).rows.map((r) => `${r.t}.${r.c}`);
  const indices =
    database.dialect === 'postgres'
      ? (await sql<{ n: string }>`select indexname as n from pg_indexes where schemaname = current_schema() order by 1`.execute(db)).rows.map((r) => r.n)
      : (await sql<{ n: string }>`select name as n from sqlite_master where type in ('index', 'trigger') order by 1`.execute(db)).rows.map((r) => r.n);
  return {
    columnas,
    indices,
    pasos: (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name),
    clientes: await db.selectFrom('clientes').select(['id', 'codigo', 'razon_social']).orderBy('id').execute(),
    articulos: await db.selectFrom('articulos').select(['id', 'codigo', 'tipo_iva']).orderBy('id').execute(),
    movimientos: await db.selectFrom('stock_movimientos').select(['articulo_id', 'cantidad']).orderBy('id').execute(),
  };
}

async function rellenar(database: Db) {
  const db = database.db as AnyDb;
  const almacen = (await db.selectFrom('almacenes').select('id').executeTakeFirstOrThrow()).id as number;
  await db
    .insertInto('articulos')
    .values([
      { id: 7, codigo: 'TOR-1', descripcion: 'Tornillo', busqueda: 'tor 1 tornillo', tipo_iva: '10' },
      { id: 9, codigo: 'ARA-2', descripcion: 'Arandela', busqueda: 'ara 2 arandela', tipo_iva: 'exento' },
    ])
    .execute();
  await db.insertInto('stock_movimientos').values({ articulo_id: 9, almacen_id: almacen, cantidad: 5_000, causa: 'ajuste', fecha: '2026-11-01' }).execute();
  await db.insertInto('clientes').values({ codigo: 'C1', nif: 'B12345674', razon_social: 'Ferretería Guanche SL' }).execute();
}

describe.each(backends())('upgrades: a failed migration leaves the previous version untouched ($name)', (backend) => {
  let cerrar: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cerrar?.();
    cerrar = undefined;
  });

  async function abrir() {
    const fresh = await freshDatabase(backend);
    const database = openDatabase({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl });
    cerrar = async () => {
      await database.close();
      await fresh.drop();
    };
    return database;
  }

  it('several pending steps (the 0024 rebuild of articulos among them) and a failing last one: none of them stays', async () => {
    const database = await abrir();
    const i = STEPS.findIndex(([n]) => n === '0024_impuesto_empresa');
    // The previous version: everything up to 0023, with articles, a stock movement pointing at one, and a customer.
    expect(await migrate(database.db, database.dialect, { steps: STEPS.slice(0, i) })).toHaveLength(i);
    await rellenar(database);
    const antes = await foto(database);

    const avisos: { pendientes: string[]; hechas: number }[] = [];
    await expect(
      migrate(database.db, database.dialect, {
        steps: [...STEPS, ['9999_rota', ROTA]],
        antes: async (info) => {
          avisos.push(info);
        },
      }),
    ).rejects.toThrow(MigracionFallida);
    // The upgrade's backup was asked for once, before anything ran, naming every pending step.
    expect(avisos).toEqual([{ pendientes: [...STEPS.slice(i).map(([n]) => n), '9999_rota'], hechas: i }]);
    expect(await foto(database)).toEqual(antes);
    if (database.dialect === 'sqlite') {
      expect((await sql<{ fk: number }>`pragma foreign_keys`.execute(database.db)).rows[0]).toEqual({ foreign_keys: 1 });
    }

    // The fixed version migrates the same database: every step, the rows kept, the keys whole.
    const hechos = await migrate(database.db, database.dialect);
    expect(hechos).toEqual(STEPS.slice(i).map(([n]) => n));
    const despues = await foto(database);
    expect(despues.articulos).toEqual(antes.articulos);
    expect(despues.movimientos).toEqual(antes.movimientos);
    expect(despues.clientes).toEqual(antes.clientes);
    expect(despues.pasos).toEqual(STEPS.map(([n]) => n).sort());
    // 0024 widened the articles' tax check: a rate of IGIC is accepted now.
    await (database.db as AnyDb).updateTable('articulos').set({ tipo_iva: 'igic_7' }).where('id', '=', 7).execute();
    await expect((database.db as AnyDb).insertInto('stock_movimientos').values({ articulo_id: 99, almacen_id: 1, cantidad: 1, causa: 'ajuste', fecha: '2026-11-01' }).execute()).rejects.toThrow(/foreign key/i);
  });

  it('nothing pending: no backup asked for and nothing run', async () => {
    const database = await abrir();
    // A new database: every step runs, and no backup is asked for (there is nothing to keep yet).
    const avisos: unknown[] = [];
    expect(await migrate(database.db, database.dialect, { antes: async (i) => void avisos.push(i) })).toHaveLength(STEPS.length);
    expect(await migrate(database.db, database.dialect, { antes: async (i) => void avisos.push(i) })).toEqual([]);
    expect(avisos).toEqual([]);
  });

  it('a backup that fails stops the upgrade before any step', async () => {
    const database = await abrir();
    await migrate(database.db, database.dialect, { steps: STEPS.slice(0, -1) });
    await rellenar(database);
    const antes = await foto(database);
    await expect(
      migrate(database.db, database.dialect, {
        antes: async () => {
          throw new Error('sin espacio');
        },
      }),
    ).rejects.toThrow('sin espacio');
    expect(await foto(database)).toEqual(antes);
  });
});
