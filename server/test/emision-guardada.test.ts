import { describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';

const HOY = todayIn('Europe/Madrid');

type Emision = { emisor: { nombre: string; nif: string; lineas: string[] }; destinatario: { nombre: string; nif: string | null; lineas: string[] } | null };

/**
 * Issue 22: a document with a VERI*FACTU record and no issued data stored (an invoice from before issue 16, a ticket)
 * prints what it was issued with: reconstructed once from its record and the audited history, then stored.
 */
describe.each(backends())('issued data stored once for documents that lack them ($name)', (backend) => {
  const t: SuiteApp = useTestApp(backend);
  const db = () => t.app.manager.db;
  const conf = async () => (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0] as Record<string, unknown>;
  const leer = async (id: number) => (await list(t, t.cookie, 'listadofacturas', { id })).rows[0] as unknown as { emision: Emision | null };

  it('an invoice without `emision`: the issuer and the recipient as the record and the history say they were, stored at the first read', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const cliente = await save(t, t.cookie, 'editarcliente', {
      nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', direccion: 'Calle Mayor, 1', codigo_postal: '28013', poblacion: 'Madrid', provincia: 'Madrid',
    });
    const articulo = await save(t, t.cookie, 'editararticulo', nuevoArticulo('EMI-1', { precio_venta: 100_000 }));
    const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: articulo.id, cantidad: 1_000, precio: 100_000 }] });
    await save(t, t.cookie, 'emitirfactura', { id: b.id });
    const original = (await leer(b.id)).emision!;
    expect(original.emisor).toMatchObject({ nombre: 'Comercial Demo', nif: 'B86420973' });
    // As an invoice made before issue 16: nothing stored.
    await db().updateTable('documentos').set({ emision: null }).where('id', '=', b.id).execute();
    // A moment later the company moves and renames itself; the customer too.
    await new Promise((r) => setTimeout(r, 5));
    expect(
      expectCleanAnswer(await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...(await conf()), razon_social: 'Comercial Nueva, S.L.', nombre_comercial: 'Nueva', direccion: 'Paseo del Prado, 5' } })).RESULT,
    ).toBe('0');
    await save(t, t.cookie, 'editarcliente', { id: cliente.id, nif: 'B85612349', razon_social: 'Hernández Obras, S.L.', direccion: 'Avenida de América, 9', codigo_postal: '28002', poblacion: 'Madrid', provincia: 'Madrid' });

    const leida = (await leer(b.id)).emision!;
    // What it was issued with, not today's.
    expect(leida).toEqual(original);
    expect(leida.emisor.lineas).toContain('Calle de Alcalá, 120');
    expect(leida.emisor.lineas).toContain('Comercial Demo, S.L.');
    expect(leida.destinatario).toMatchObject({ nombre: 'Reformas Hernández, S.L.', nif: 'B85612349' });
    expect(leida.destinatario!.lineas).toContain('Calle Mayor, 1');
    // Stored once: in the row, and the same at every later read.
    const fila = await db().selectFrom('documentos').select('emision').where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(JSON.parse(fila.emision!)).toEqual(original);
    await save(t, t.cookie, 'editarcliente', { id: cliente.id, nif: 'B85612349', razon_social: 'Otro Nombre, S.L.' });
    expect((await leer(b.id)).emision).toEqual(original);
  });

  it('a draft has no record: nothing is made up for it', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const cliente = (await list(t, t.cookie, 'listadoclientes', { porPagina: 100 })).rows[0];
    const articulo = await save(t, t.cookie, 'editararticulo', nuevoArticulo('EMI-2', { precio_venta: 100_000 }));
    const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: articulo.id, cantidad: 1_000, precio: 100_000 }] });
    expect((await leer(b.id)).emision).toBeNull();
    expect((await db().selectFrom('documentos').select('emision').where('id', '=', b.id).executeTakeFirstOrThrow()).emision).toBeNull();
  });
});

/** Issue 22: a ticket has never stored its issued data; reprinted from the back office it prints the issued ones. */
describe.each(backends())('a ticket reprinted from the back office ($name)', (backend) => {
  const t: SuiteApp = useTestApp(backend, { demo: true, demoStock: true });
  const db = () => t.app.manager.db;

  it('its issuer as its F2 record says, stored at the first read; the company renamed later does not change it', async () => {
    const fila = await db()
      .selectFrom('documentos as d')
      .innerJoin('registros_facturacion as r', 'r.documento_id', 'd.id')
      .select(['d.id', 'd.emision', 'r.xml'])
      .where('d.tipo', '=', 'ticket')
      .where('r.tipo', '=', 'alta')
      .orderBy('d.id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db().updateTable('documentos').set({ emision: null }).where('id', '=', fila.id).execute();
    const nombre = /<sf:NombreRazonEmisor>([^<]*)</.exec(fila.xml)![1];
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0] as Record<string, unknown>;
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, razon_social: 'Otra Razón, S.L.', nombre_comercial: '', direccion: 'Calle Distinta, 7' } })).json().RESULT).toBe('0');
    const leido = (await list(t, t.cookie, 'listadotickets', { id: fila.id })).rows[0] as unknown as { emision: Emision };
    expect(leido.emision.emisor.nif).toBe('B86420973');
    // The trade name and address as they were when it was issued; the razón social as its record says it.
    expect(leido.emision.emisor.nombre).toBe(String(conf.nombre_comercial || nombre));
    expect(leido.emision.emisor.lineas).toContain(String(conf.direccion));
    expect(leido.emision.emisor.lineas).not.toContain('Calle Distinta, 7');
    const guardada = await db().selectFrom('documentos').select('emision').where('id', '=', fila.id).executeTakeFirstOrThrow();
    expect(JSON.parse(guardada.emision!)).toEqual(leido.emision);
  });
});
