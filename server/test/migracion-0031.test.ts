import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { STEPS } from '../src/db/migrations/index.ts';

/**
 * Migration 0031 (issue 22) on a database that already has records: each keeps what it most likely was made for — the
 * demo's are demo and for «Pruebas»; one already sent, its envío's environment and VERI*FACTU; the rest, today's
 * setting — and the company is the demo only while the generated year is there.
 */
describe('migration 0031 on a populated SQLite database', () => {
  it('freezes each record’s environment and marks the demo', async () => {
    const file = new SQLite(':memory:');
    file.pragma('foreign_keys = OFF');
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: file }) });
    const i = STEPS.findIndex(([n]) => n === '0031_en_vivo');
    for (const [, step] of STEPS.slice(0, i)) await step.up(db, 'sqlite');
    await db.updateTable('verifactu').set({ entorno: 'pruebas', activo: 1 }).where('id', '=', 1).execute();
    await db.insertInto('demo_datos').values({ tabla: 'documentos', desde: 1, hasta: 1 }).execute();
    const { id: envio } = await db
      .insertInto('verifactu_envios')
      .values({ fecha: '2026-10-01T10:00:00Z', emisor: 'B86420973', entorno: 'produccion', registros: 1, estado: 'Correcto' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const registro = (orden: number, estado_envio: string, envio_id: number | null) => ({
      emisor: 'B86420973', orden, tipo: 'alta', documento_id: orden, num_serie: `A 2026/00000${orden}`, fecha_expedicion: '01-10-2026', tipo_factura: 'F1',
      cuota_total: '2.10', importe_total: '12.10', huella_anterior: '', huella: `H${orden}`, fecha_hora_huso: '2026-10-01T10:00:00+02:00', xml: '<x/>',
      estado_envio, creado: '2026-10-01T08:00:00Z', envio_id,
    });
    for (const id of [1, 2, 3]) await sql`insert into documentos (id, tipo, fecha, estado, creado) values (${id}, 'factura', '2026-10-01', 'emitida', '2026-10-01T08:00:00Z')`.execute(db);
    await db.insertInto('registros_facturacion').values([registro(1, 'demo', null), registro(2, 'correcto', envio), registro(3, 'pendiente', null)]).execute();

    await STEPS[i][1].up(db, 'sqlite');

    expect(await db.selectFrom('verifactu').select('demo').executeTakeFirst()).toEqual({ demo: 1 });
    expect(await db.selectFrom('registros_facturacion').select(['orden', 'entorno', 'demo', 'verifactu']).orderBy('orden').execute()).toEqual([
      { orden: 1, entorno: 'pruebas', demo: 1, verifactu: 0 },
      { orden: 2, entorno: 'produccion', demo: 0, verifactu: 1 },
      { orden: 3, entorno: 'pruebas', demo: 0, verifactu: 1 },
    ]);
    await db.destroy();
  });
});
