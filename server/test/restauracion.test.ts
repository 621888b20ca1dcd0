import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, createTestApp, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import type { TestApp } from './helpers.ts';

/**
 * Issue 24, «a restore that cannot rewrite the past»: a backup edited by hand — an issued invoice with another customer,
 * other lines or another tax with the same total, a record with another amount or XML — is refused naming the first
 * document that differs, and nothing changes; the chain check finds the same edits made on the live database.
 */

function restore(t: Pick<TestApp, 'app'>, cookie: string, content: string) {
  const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(content));
  return t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie } });
}

type Copia = { tablas: Record<string, Row[]> };

describe.each(backends())('una copia no reescribe lo emitido ($name)', (backend) => {
  const t = useTestApp(backend);
  const hoy = todayIn('Europe/Madrid');
  const anio = hoy.slice(0, 4);
  const numero = `A ${anio}/000001`;
  let factura: Row;
  let clienteB: Row;
  let a21: Row;
  let a10: Row;
  let original: string;

  /** What a user checks after a refused restore: the invoice as the list and its record show it. */
  async function facturacion() {
    const facturas = (await list(t, t.cookie, 'listadofacturas', { porPagina: 100 })).rows.map((r) => [r.numero, r.cliente_id, r.base, r.iva, r.total]);
    const doc = (await list(t, t.cookie, 'listadofacturas', { id: factura.id })).rows[0];
    expect(Array.isArray(doc.lineas) && doc.lineas.length).toBe(1);
    const registros = (await list(t, t.cookie, 'listadoregistrosfacturacion', { porPagina: 100 })).rows.map((r) => [r.num_serie, r.importe_total, r.huella]);
    return { facturas, lineas: doc.lineas, desglose: doc.desglose, emision: doc.emision, registros };
  }
  const doc = (c: Copia) => c.tablas.documentos.find((d) => d.id === factura.id)!;
  const editar = (cambiar: (c: Copia) => void) => {
    const c = JSON.parse(original) as Copia;
    cambiar(c);
    return JSON.stringify(c);
  };
  const rechazo = (motivo: string) => MESSAGES.copiaDocumentoAlterado.replace('{documento}', 'la factura').replace('{numero}', numero).replace('{motivo}', motivo);

  it('an untouched backup restores, and the invoice is what it was', async () => {
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    clienteB = await save(t, t.cookie, 'editarcliente', { nif: 'B12345674', razon_social: 'Otra Empresa, S.L.', codigo_postal: '28001' });
    a21 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FIEL-21', { precio_venta: 1_000_000 }));
    a10 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FIEL-10', { precio_venta: 1_100_000, tipo_iva: '10' }));
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows[0].id;
    const borrador = await save(t, t.cookie, 'editarfactura', {
      fecha: hoy, cliente_id: cliente.id, almacen_id: almacen, serie_id: series.find((s) => s.codigo === 'A')!.id,
      lineas: [{ articulo_id: a21.id, cantidad: 1_000, precio: 1_000_000 }],
    });
    factura = await save(t, t.cookie, 'emitirfactura', { id: borrador.id });
    expect(factura).toMatchObject({ numero, base: 10_000, iva: 2_100, total: 12_100 });
    original = (await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } })).body;
    const antes = await facturacion();
    expect(expectCleanAnswer(await restore(t, t.cookie, original))).toMatchObject({ RESULT: '0', message: MESSAGES.backupRestored });
    expect(await facturacion()).toEqual(antes);
  });

  it('refuses the invoice given to another customer (its record, or its printed data, name the first one); nothing changes', async () => {
    const antes = await facturacion();
    // Only the customer it is filed under.
    let res = await restore(t, t.cookie, editar((c) => { doc(c).cliente_id = clienteB.id; }));
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: rechazo('su cliente no es el de su registro') });
    // And what it prints, too.
    res = await restore(
      t,
      t.cookie,
      editar((c) => {
        const d = doc(c);
        d.cliente_id = clienteB.id;
        const e = JSON.parse(String(d.emision));
        e.destinatario = { ...e.destinatario, nombre: 'Otra Empresa, S.L.', nif: 'B12345674' };
        e.partes.destinatario = { ...e.partes.destinatario, nombre: 'Otra Empresa, S.L.', nif: 'B12345674' };
        d.emision = JSON.stringify(e);
      }),
    );
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: rechazo('el cliente que imprime no es el de su registro') });
    expect(await facturacion()).toEqual(antes);
  });

  it('refuses other lines or another tax with the same total; nothing changes', async () => {
    const antes = await facturacion();
    // 110 € at 10 % is 121 € too: the lines alone changed.
    const otraLinea = (c: Copia) => {
      const l = c.tablas.documento_lineas.find((x) => x.documento_id === factura.id)!;
      Object.assign(l, { articulo_id: a10.id, codigo: 'FIEL-10', tipo_iva: '10', precio: 1_100_000 });
    };
    let res = await restore(t, t.cookie, editar(otraLinea));
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: rechazo('sus líneas no suman su desglose de impuestos') });
    // The lines and the header's desglose and amounts agreeing with each other, but not with the record.
    const otroImpuesto = (c: Copia) => {
      otraLinea(c);
      const [g] = JSON.parse(String(doc(c).desglose));
      Object.assign(doc(c), { base: 11_000, iva: 1_100, desglose: JSON.stringify([{ ...g, tipo_iva: '10', base: 11_000, iva: 1_100, recargo: 0 }]) });
    };
    res = await restore(t, t.cookie, editar(otroImpuesto));
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: rechazo('sus importes no son los de su registro') });
    // Another tax, lines and header agreeing, the same total: IGIC 7 % on 113,08 € is 121,00 € too.
    res = await restore(
      t,
      t.cookie,
      editar((c) => {
        const l = c.tablas.documento_lineas.find((x) => x.documento_id === factura.id)!;
        Object.assign(l, { tipo_iva: 'igic_7', precio: 1_130_800 });
        const [g] = JSON.parse(String(doc(c).desglose));
        Object.assign(doc(c), { base: 11_308, iva: 792, desglose: JSON.stringify([{ ...g, tipo_iva: 'igic_7', base: 11_308, iva: 792, recargo: 0 }]) });
      }),
    );
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: rechazo('sus importes no son los de su registro') });
    expect(await facturacion()).toEqual(antes);
  });

  it('refuses a record with another amount or another XML on a new machine too, naming it; an untouched backup restores there', async () => {
    const nueva = await createTestApp(backend);
    try {
      const cookie = await nueva.login();
      const alta = (c: Copia) => c.tablas.registros_facturacion.find((r) => r.documento_id === factura.id)!;
      // The amount column: its huella no longer matches.
      let res = await restore(nueva, cookie, editar((c) => { alta(c).importe_total = '1.00'; }));
      expect(expectCleanAnswer(res)).toEqual({
        RESULT: '1',
        message: MESSAGES.copiaRegistroAlterado
          .replace('{orden}', '1')
          .replace('{emisor}', 'B86420973')
          .replace('{numero}', numero)
          .replace('{motivo}', 'la huella no corresponde a los datos del registro: el registro se ha modificado'),
      });
      // The XML's total: no longer what its columns say.
      res = await restore(nueva, cookie, editar((c) => { alta(c).xml = String(alta(c).xml).replace('<sf:ImporteTotal>121.00<', '<sf:ImporteTotal>1.00<'); }));
      expect(expectCleanAnswer(res).message).toContain('el XML del registro no coincide con sus datos');
      // The XML's recipient: the invoice no longer is what its record says.
      res = await restore(nueva, cookie, editar((c) => { alta(c).xml = String(alta(c).xml).replace('Reformas Hernández, S.L.', 'Otra Empresa, S.L.'); }));
      expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: rechazo('el cliente que imprime no es el de su registro') });
      // The desglose in the XML (another tax, the totals kept).
      res = await restore(nueva, cookie, editar((c) => { alta(c).xml = String(alta(c).xml).replace('<sf:TipoImpositivo>21.00<', '<sf:TipoImpositivo>10.00<'); }));
      expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: rechazo('su desglose de impuestos (bases, tipos, cuotas o recargo) no es el de su registro') });
      // Nothing of it arrived: the new machine has no invoice.
      expect((await list(nueva, cookie, 'listadofacturas')).rows).toEqual([]);
      expect(expectCleanAnswer(await restore(nueva, cookie, original)).RESULT).toBe('0');
      expect((await list(nueva, cookie, 'listadofacturas')).rows.map((r) => [r.numero, r.total])).toEqual([[numero, 12_100]]);
    } finally {
      await nueva.close();
    }
  });

  it('the chain check finds an issued document or record changed behind the product\'s back, naming it', async () => {
    const comprobar = async () => expectCleanAnswer(await t.op('comprobarregistrosfacturacion', { cookie: t.cookie }));
    expect(await comprobar()).toMatchObject({ message: MESSAGES.cadenaCorrecta, data: [{ correcto: true }] });
    const db = t.app.manager.db;
    const roto = async (motivo: string) =>
      expect(await comprobar()).toMatchObject({
        message: MESSAGES.cadenaRota,
        data: [{ correcto: false, rotura: { num_serie: numero, motivo: `La factura ${numero} no es lo que dice su registro: ${motivo}` } }],
      });
    const fila = await db.selectFrom('documentos').selectAll().where('id', '=', factura.id).executeTakeFirstOrThrow();
    const linea = await db.selectFrom('documento_lineas').selectAll().where('documento_id', '=', factura.id).executeTakeFirstOrThrow();
    await db.updateTable('documentos').set({ cliente_id: clienteB.id }).where('id', '=', factura.id).execute();
    await roto('su cliente no es el de su registro');
    await db.updateTable('documentos').set({ cliente_id: fila.cliente_id }).where('id', '=', factura.id).execute();
    await db.updateTable('documento_lineas').set({ tipo_iva: '10', precio: 1_100_000 }).where('id', '=', linea.id).execute();
    await roto('sus líneas no suman su desglose de impuestos');
    await db.updateTable('documento_lineas').set({ tipo_iva: linea.tipo_iva, precio: linea.precio }).where('id', '=', linea.id).execute();
    await db.updateTable('documentos').set({ fecha: `${Number(anio) - 1}-12-31` }).where('id', '=', factura.id).execute();
    await roto(`su fecha no es la de su registro (${hoy.slice(8, 10)}-${hoy.slice(5, 7)}-${anio})`);
    await db.updateTable('documentos').set({ fecha: fila.fecha }).where('id', '=', factura.id).execute();
    const registro = await db.selectFrom('registros_facturacion').selectAll().where('documento_id', '=', factura.id).executeTakeFirstOrThrow();
    await db.updateTable('registros_facturacion').set({ xml: registro.xml.replace('<sf:TipoImpositivo>21.00<', '<sf:TipoImpositivo>10.00<') }).where('id', '=', registro.id).execute();
    await roto('su desglose de impuestos (bases, tipos, cuotas o recargo) no es el de su registro');
    await db.updateTable('registros_facturacion').set({ xml: registro.xml }).where('id', '=', registro.id).execute();
    expect(await comprobar()).toMatchObject({ message: MESSAGES.cadenaCorrecta });
  });

  it('refuses a rectificativa moved onto another invoice than its record names; the chain check finds it too', async () => {
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const base = { fecha: hoy, cliente_id: factura.cliente_id, almacen_id: factura.almacen_id };
    const otra = await save(t, t.cookie, 'emitirfactura', {
      id: (await save(t, t.cookie, 'editarfactura', { ...base, serie_id: factura.serie_id, lineas: [{ articulo_id: a21.id, cantidad: 1_000, precio: 1_000_000 }] })).id,
    });
    const borrador = await save(t, t.cookie, 'editarrectificativa', {
      ...base, serie_id: series.find((s) => s.codigo === 'R')!.id, factura_id: factura.id, tipo: 'R1', modo: 'diferencias',
      lineas: [{ articulo_id: a21.id, cantidad: -1_000, precio: 1_000_000 }],
    });
    const rect = await save(t, t.cookie, 'emitirrectificativa', { id: borrador.id });
    const copia = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } })).body) as Copia;
    copia.tablas.documentos.find((d) => d.id === rect.id)!.factura_id = otra.id;
    expect(expectCleanAnswer(await restore(t, t.cookie, JSON.stringify(copia)))).toEqual({
      RESULT: '1',
      message: MESSAGES.copiaDocumentoAlterado
        .replace('{documento}', 'la factura rectificativa')
        .replace('{numero}', String(rect.numero))
        .replace('{motivo}', 'la factura que rectifica o sustituye no es la que dice su registro'),
    });
    const db = t.app.manager.db;
    await db.updateTable('documentos').set({ factura_id: otra.id }).where('id', '=', rect.id).execute();
    const res = expectCleanAnswer(await t.op('comprobarregistrosfacturacion', { cookie: t.cookie }));
    expect(res).toMatchObject({ message: MESSAGES.cadenaRota, data: [{ correcto: false, rotura: { num_serie: rect.numero } }] });
    await db.updateTable('documentos').set({ factura_id: factura.id }).where('id', '=', rect.id).execute();
    expect(expectCleanAnswer(await t.op('comprobarregistrosfacturacion', { cookie: t.cookie }))).toMatchObject({ message: MESSAGES.cadenaCorrecta });
  });
});
