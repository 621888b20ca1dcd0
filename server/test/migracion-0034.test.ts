import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { STEPS } from '../src/db/migrations/index.ts';

/**
 * Migration 0034 (issue 22): a till's NumeroInstalacion becomes the installation's own number and its id — for the
 * terminals that have made no record yet; one whose chain has records keeps the number they say (docs/verifactu.md).
 */
describe('migration 0034 on a database with terminals', () => {
  it('renames the terminals without records to <installation>-TPV<id>; keeps the one whose chain has records', async () => {
    const file = new SQLite(':memory:');
    // biome-ignore lint/suspicious/noExplicitAny: the migrations run on an untyped database, as the migrator does.
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: file }) });
    const i = STEPS.findIndex(([n]) => n === '0034_registro');
    for (const [, step] of STEPS.slice(0, i)) await step.up(db, 'sqlite');
    const instalacion = (await db.selectFrom('verifactu').select('numero_instalacion').where('id', '=', 1).executeTakeFirstOrThrow()).numero_instalacion as string;
    expect(instalacion).toMatch(/^MT-\d{14}-[0-9A-F]{8}$/);
    const almacen = (await db.selectFrom('almacenes').select('id').executeTakeFirstOrThrow()).id as number;
    const serie = async (codigo: string, tipo: string) =>
      (await db.insertInto('series').values({ codigo, descripcion: codigo, tipo, activo: 1 }).returning('id').executeTakeFirstOrThrow()).id as number;
    const terminal = async (id: number, numero: string) =>
      db
        .insertInto('tpv_terminales')
        .values({
          id, nombre: `Caja ${id}`, almacen_id: almacen, serie_id: await serie(`T${id}`, 'simplificada'), serie_rectificativa_id: await serie(`R${id}`, 'rectificativa'),
          cliente_id: null, numero_instalacion: numero, formas_pago: '["efectivo"]', fondo: 0, activo: 1, creado: '2026-11-01T08:00:00.000Z',
        })
        .execute();
    await terminal(1, 'B86420973-TPV001');
    await terminal(2, 'B86420973-TPV002');
    // Caja 1 has made records: its chain is keyed by the NIF and its number.
    await db.insertInto('registros_cadena').values({ emisor: 'B86420973:B86420973-TPV001', ultimo_orden: 3, ultima_huella: 'A'.repeat(64) }).execute();

    await STEPS[i][1].up(db, 'sqlite');

    expect(await db.selectFrom('tpv_terminales').select(['id', 'numero_instalacion']).orderBy('id').execute()).toEqual([
      { id: 1, numero_instalacion: 'B86420973-TPV001' },
      { id: 2, numero_instalacion: `${instalacion}-TPV002` },
    ]);
    const v = await db.selectFrom('verifactu').select(['declaracion_version', 'declaracion_fecha']).executeTakeFirstOrThrow();
    expect(v).toEqual({ declaracion_version: null, declaracion_fecha: null });
    await db.destroy();
  });
});
