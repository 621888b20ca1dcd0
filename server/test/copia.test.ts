import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { ADMIN, PNG_1X1, backends, createTestApp, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import type { Backend, TestApp } from './helpers.ts';

async function download(t: TestApp, cookie: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res;
}

function restore(t: TestApp, cookie: string, content: Buffer | string) {
  const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(content));
  return t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie } });
}

/** What a user sees of an installation: configuration, users, series, files and the chart. */
async function snapshot(t: TestApp, cookie: string) {
  const conf = (await t.op('listadoconfiguraciones', { cookie })).json().data;
  const usuarios = (await t.op('listadousuarios', { cookie, query: { porPagina: '100' } })).json().data.map(
    ({ ultimo_acceso: _u, ...u }: Record<string, unknown>) => u,
  );
  const series = (await t.op('listadoseries', { cookie, query: { porPagina: '100' } })).json().data;
  const grafico = (await t.op('graficoinicio', { cookie })).json().data;
  return { conf, usuarios, series, grafico };
}

async function populate(t: TestApp, cookie: string) {
  await t.op('editarusuario', { cookie, body: { nombre: 'Marta Vidal', email: 'marta@demo.es', password: 'Clave-marta-1' } });
  await t.op('editarserie', { cookie, body: { codigo: 'B', descripcion: 'Tienda 2', tipo: 'normal' } });
  const { payload, headers } = multipart('archivo', 'logo.png', 'image/png', PNG_1X1);
  const up = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subirarchivo', payload, headers: { ...headers, cookie } });
  const logo = up.json().data[0].url as string;
  const conf = (await t.op('listadoconfiguraciones', { cookie })).json().data[0];
  await t.op('editarconfiguracion', { cookie, body: { ...conf, razon_social: 'Copias Ñandú, S.L.', logo, conf_seo: 1 } });
  const serieA = (await t.op('listadoseries', { cookie })).json().data.find((s: { codigo: string }) => s.codigo === 'A');
  const mes = new Date().toISOString().slice(0, 7);
  await t.app.manager.db
    .insertInto('documentos')
    .values({ tipo: 'pedido_venta', serie_id: serieA.id, numero: 7, fecha: `${mes}-02`, estado: 'Pendiente', total: 4242, creado: new Date().toISOString() })
    .execute();
  return logo;
}

describe.each(backends())('copia de seguridad ($name)', (backend) => {
  const t = useTestApp(backend);

  it('downloads a dated JSON attachment with the data tables and no sessions', async () => {
    await populate(t, t.cookie);
    const res = await download(t, t.cookie);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="manager-tpv-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['content-type']).toContain('application/json');
    const backup = res.json();
    expect(backup).toMatchObject({ formato: 'manager-tpv-backup', version: 1 });
    expect(Object.keys(backup.tablas).sort()).toEqual([
      'almacenes',
      'archivos',
      'articulo_componentes',
      'articulo_materiales',
      'articulo_procesos',
      'articulo_proporciones',
      'articulo_ubicaciones',
      'articulos',
      'clientes',
      'configuracion',
      'contadores',
      'demo_datos',
      'documento_acciones',
      'documento_enlaces',
      'documento_lineas',
      'documentos',
      'facturas_proveedor',
      'facturas_proveedor_documentos',
      'familias',
      'marcas',
      'materiales',
      'parte_horas',
      'procesos',
      'proveedores',
      'registros_cadena',
      'registros_facturacion',
      'series',
      'stock_movimientos',
      'subfamilias',
      'ubicaciones',
      'usuarios',
      'verifactu_envios',
    ]);
    expect(backup.tablas.archivos[0].datos).toBe(PNG_1X1.toString('base64'));
    expect(backup.tablas.documentos[0].total).toBe(4242);
    expect(res.body).not.toContain('token_hash');
  });

  it('restores it: changes made after the backup are gone, this session survives, others end', async () => {
    const before = await snapshot(t, t.cookie);
    const backup = (await download(t, t.cookie)).body;
    const other = await t.login('marta@demo.es', 'Clave-marta-1');

    await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'Z', descripcion: 'Después', tipo: 'normal' } });
    await t.op('editarusuario', { cookie: t.cookie, body: { nombre: 'Nuevo', email: 'nuevo@demo.es', password: 'Clave-nuevo-1' } });
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, razon_social: 'Cambiada, S.A.', conf_ventas: 0 } });

    const res = await restore(t, t.cookie, backup);
    expect(expectCleanAnswer(res)).toMatchObject({ RESULT: '0', message: MESSAGES.backupRestored });
    expect(await snapshot(t, t.cookie)).toEqual(before);
    expect((await t.op('listadoconfiguraciones', { cookie: other })).statusCode).toBe(401);

    // New rows after a restore get fresh ids (PostgreSQL sequences follow the restored ids).
    const created = await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'N', descripcion: 'Nueva', tipo: 'normal' } });
    expect(created.json().RESULT).toBe('0');
  });

  it('refuses something that is not a backup with 400 and changes nothing', async () => {
    const before = await snapshot(t, t.cookie);
    for (const bad of [
      'esto no es json',
      JSON.stringify({ formato: 'otra-cosa', version: 1, tablas: {} }),
      JSON.stringify({ formato: 'manager-tpv-backup', version: 1, tablas: { configuracion: [] } }),
    ]) {
      const res = await restore(t, t.cookie, bad);
      expect(res.statusCode).toBe(400);
      expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.invalidBackup });
    }
    // Well-formed but inconsistent (a document pointing at a missing serie): refused whole, in one transaction.
    const backup = (await download(t, t.cookie)).json();
    backup.tablas.documentos.push({ ...backup.tablas.documentos[0], id: 999, serie_id: 12345 });
    const res = await restore(t, t.cookie, JSON.stringify(backup));
    expect(res.statusCode).toBe(400);
    expect(await snapshot(t, t.cookie)).toEqual(before);
  });
});

const pg = backends().find((b) => b.name === 'postgres');

describe.runIf(pg)('copia entre bases de datos', () => {
  const pairs: { from: Backend; to: Backend }[] = pg
    ? [
        { from: { name: 'sqlite' }, to: pg },
        { from: pg, to: { name: 'sqlite' } },
      ]
    : [];
  it.each(pairs)('a backup taken on $from.name restores into $to.name', async ({ from, to }) => {
    const a = await createTestApp(from);
    const b = await createTestApp(to);
    try {
      const ca = await a.login();
      const logo = await populate(a, ca);
      const backup = (await download(a, ca)).body;
      const expected = await snapshot(a, ca);

      const cb = await b.login();
      expect(expectCleanAnswer(await restore(b, cb, backup)).RESULT).toBe('0');
      // The restoring user existed in both with the same id and email: still logged in.
      expect(await snapshot(b, cb)).toEqual(expected);
      const img = await b.app.inject({ method: 'GET', url: logo });
      expect(img.rawPayload.equals(PNG_1X1)).toBe(true);
      await b.login('marta@demo.es', 'Clave-marta-1');
      await b.login(ADMIN.email, ADMIN.password);
      const created = await b.op('editarusuario', { cookie: cb, body: { nombre: 'Tras', email: 'tras@demo.es', password: 'Clave-tras-11' } });
      expect(created.json().RESULT).toBe('0');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
