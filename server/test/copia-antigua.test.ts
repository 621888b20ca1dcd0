import { describe, expect, it } from 'vitest';
import { CONF_FIELDS, MESSAGES } from 'shared/domain';
import { NOT_BACKED_UP, TABLES, TABLES_DERIVED, TABLES_NOT_BACKED_UP, TABLE_NAMES } from '../src/db/tablas.ts';
import { backends, createTestApp, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import { list, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import type { TestApp } from './helpers.ts';

/**
 * Issue 27, «backups refuse their own past»: db/tablas.ts is the one declaration of what a backup holds; every column
 * of the migrated database is in it (or named as left out), and a backup made before a column existed restores with
 * the column's default.
 */

function restore(t: Pick<TestApp, 'app'>, cookie: string, content: string) {
  const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(content));
  return t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie } });
}

type Copia = { tablas: Record<string, Row[]> };

describe.each(backends())('copias de antes de una migración ($name)', (backend) => {
  const t = useTestApp(backend);

  it('the migrated database has exactly the declared tables and columns (or those named as left out of a backup)', async () => {
    const tablas = await t.app.manager.db.introspection.getTables();
    // SQLite's full-text indexes keep their own shadow tables.
    const enBase = tablas.filter((x) => !/^articulos_(fts|tri)/.test(x.name));
    const conocidas = new Set<string>([...TABLE_NAMES, ...Object.keys(TABLES_NOT_BACKED_UP), ...TABLES_DERIVED]);
    expect(enBase.map((x) => x.name).filter((n) => !conocidas.has(n))).toEqual([]);
    for (const tabla of TABLE_NAMES) {
      const columnas = enBase.find((x) => x.name === tabla)?.columns.map((c) => c.name).sort();
      const fuera = Object.keys((NOT_BACKED_UP as Record<string, Record<string, string>>)[tabla] ?? {});
      expect({ tabla, columnas }).toEqual({ tabla, columnas: [...Object.keys(TABLES[tabla]), ...fuera].sort() });
    }
  });

  it('a backup made before the latest columns (a blind-count till, a module flag, the company\'s tax, the records\' frozen data) restores with their defaults', async () => {
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows[0].id;
    const terminal = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Caja antigua', almacen_id: almacen, serie_id: series.find((s) => s.codigo === 'T')!.id, serie_rectificativa_id: series.find((s) => s.codigo === 'R')!.id,
      formas_pago: ['efectivo'], arqueo_ciego: 1,
    });
    expect(terminal.arqueo_ciego).toBe(1);
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, conf_ventas_facturas: 1, conf_tpv: 1 } });
    const backup = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } })).body) as Copia;
    // Every column of the declaration travels: the blind count and the company's tax are in today's backup.
    expect(backup.tablas.tpv_terminales[0].arqueo_ciego).toBe(1);
    expect(backup.tablas.configuracion[0]).toMatchObject({ impuesto: 'iva', conf_ventas_facturas: 1 });

    // Today's backup restores as it is.
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(backup))).RESULT).toBe('0');
    const terminalDe = async () => (await list(t, t.cookie, 'listadoterminales', { porPagina: 100 })).rows.find((r) => r.nombre === 'Caja antigua');
    expect(await terminalDe()).toMatchObject({ arqueo_ciego: 1 });

    // As a backup made at 0039 (before tpv_terminales.arqueo_ciego), before 0024 (the company's tax) and before the last
    // module flag, would be.
    const antigua = structuredClone(backup);
    for (const r of antigua.tablas.tpv_terminales) delete r.arqueo_ciego;
    for (const c of antigua.tablas.configuracion) {
      delete c.conf_ventas_facturas;
      delete c.impuesto;
    }
    const res = await restore(t, t.cookie, JSON.stringify(antigua));
    expect(expectCleanAnswer(res)).toMatchObject({ RESULT: '0', message: MESSAGES.backupRestored });
    expect(await terminalDe()).toMatchObject({ arqueo_ciego: 0 });
    const despues = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect(despues).toMatchObject({ conf_ventas_facturas: 0, conf_tpv: 1, impuesto: 'iva' });
    // Every other flag as the backup had it.
    for (const f of CONF_FIELDS.filter((x) => x !== 'conf_ventas_facturas')) expect([f, despues[f]]).toEqual([f, conf[f] === 1 || f === 'conf_tpv' ? 1 : 0]);
  });

  it('a record\'s frozen environment and legend survive a restore; one from before they existed gets what migration 0031 would', async () => {
    const hoy = new Date().toISOString().slice(0, 10);
    // The restore above turned the invoices' flag off (the backup was from before it).
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, conf_ventas_facturas: 1 } });
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    const articulo = await save(t, t.cookie, 'editararticulo', { codigo: 'ANT-1', descripcion: 'Antiguo', unidad_medida: 'ud', tipo_iva: '21', precio_venta: 10_000 });
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows[0].id;
    const borrador = await save(t, t.cookie, 'editarfactura', {
      fecha: hoy, cliente_id: cliente.id, almacen_id: almacen, serie_id: series.find((s) => s.codigo === 'A')!.id, lineas: [{ articulo_id: articulo.id, cantidad: 1_000, precio: 10_000 }],
    });
    await save(t, t.cookie, 'emitirfactura', { id: borrador.id });
    const db = t.app.manager.db;
    // Made for the AEAT's test environment while sending was on.
    await db.updateTable('registros_facturacion').set({ entorno: 'pruebas', verifactu: 1 }).execute();
    const backup = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } })).body) as Copia;
    const registro = async () => db.selectFrom('registros_facturacion').select(['entorno', 'demo', 'verifactu']).executeTakeFirstOrThrow();
    await db.updateTable('registros_facturacion').set({ entorno: 'produccion', verifactu: 0 }).execute();
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(backup))).RESULT).toBe('0');
    expect(await registro()).toEqual({ entorno: 'pruebas', demo: 0, verifactu: 1 });
    // A backup from before 0031, the record never sent: a live company's, not sent to the AEAT.
    for (const r of backup.tablas.registros_facturacion) {
      delete r.entorno;
      delete r.demo;
      delete r.verifactu;
    }
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(backup))).RESULT).toBe('0');
    expect(await registro()).toEqual({ entorno: 'produccion', demo: 0, verifactu: 0 });
  });

  it('a company in IGIC survives a restore on a new machine', async () => {
    await t.app.manager.db.updateTable('configuracion').set({ impuesto: 'igic' }).execute();
    const backup = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } })).body) as Copia;
    const nueva = await createTestApp(backend);
    try {
      const cookie = await nueva.login();
      expect(expectCleanAnswer(await restore(nueva, cookie, JSON.stringify(backup))).RESULT).toBe('0');
      expect((await nueva.op('listadoconfiguraciones', { cookie })).json().data[0]).toMatchObject({ impuesto: 'igic' });
    } finally {
      await nueva.close();
      await t.app.manager.db.updateTable('configuracion').set({ impuesto: 'iva' }).execute();
    }
  });
});
