import { describe, expect, it } from 'vitest';
import { MESSAGES, bloqueEmpresa } from 'shared/domain';
import type { EmisionDocumento } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, leerDocumento } from './documentos-fixtures.ts';
import { validarXml } from './xsd.ts';

/** Issue 16: invoices that stand — what was issued is what a reprint shows; the dates the AEAT admits. */

const HOY = todayIn('Europe/Madrid');
const ANIO = HOY.slice(0, 4);
const diaMas = (fecha: string, n: number) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const aeat = (f: string) => `${f.slice(8, 10)}-${f.slice(5, 7)}-${f.slice(0, 4)}`;

type Doc = Row & {
  estado: string;
  numero: string;
  serie_codigo: string | null;
  fecha_operacion: string | null;
  emision: EmisionDocumento | null;
  lineas: (Row & { id: number })[];
  padres: { tipo: string; id: number; numero: string; fecha: string }[];
  hijos: { tipo: string; id: number }[];
  registro: { tipo: string; id_emisor: string; num_serie: string; fecha_expedicion: string; importe_total: string | null } | null;
};

const post = enviar<Doc>;
const ok = guardar<Doc>;
const leer = leerDocumento<Doc>;

describe.each(backends())('issued means fixed ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieA: Row;
  let cliente: Row;
  let art: Row;

  it('setup', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    serieA = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!;
    cliente = await save(t, t.cookie, 'editarcliente', {
      nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', direccion: 'Calle Alcalá 10', codigo_postal: '28020', poblacion: 'Madrid', provincia: 'Madrid',
    });
    art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FIJ-A', { precio_venta: 100_000 }));
    await t.app.manager.db.updateTable('configuracion').set({ direccion: 'Calle Mayor 1', codigo_postal: '46001', poblacion: 'Valencia' }).execute();
  });

  let f: Doc;
  it('a reprint shows the parties, the serie code and the number as issued, whatever changes after', async () => {
    const borrador = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA.id, lineas: [{ articulo_id: art.id, cantidad: 1_000, precio: 100_000 }] });
    f = await ok(t, 'emitirfactura', { id: borrador.id });
    const antes = await t.app.manager.db.selectFrom('configuracion').selectAll().executeTakeFirstOrThrow();
    expect(f.emision).toEqual({
      emisor: bloqueEmpresa(antes),
      destinatario: { nombre: 'Reformas Hernández, S.L.', nif: 'B85612349', lineas: ['Calle Alcalá 10', '28020 Madrid (Madrid)'] },
      // Both parties as data too (the Facturae's, issue 16).
      partes: {
        emisor: expect.objectContaining({ nombre: antes.razon_social, nif: antes.nif, direccion: 'Calle Mayor 1', codigo_postal: '46001', poblacion: 'Valencia' }),
        destinatario: expect.objectContaining({ nombre: 'Reformas Hernández, S.L.', nif: 'B85612349', direccion: 'Calle Alcalá 10', codigo_postal: '28020', administracion_publica: 0 }),
      },
    });
    expect(f.emision!.emisor.lineas).toContain('Calle Mayor 1');
    expect(f).toMatchObject({ numero: `A ${ANIO}/000001`, serie_codigo: 'A', fecha_operacion: null });

    // Today the company and the customer move, and the serie's code is changed under the application's feet.
    await save(t, t.cookie, 'editarcliente', { id: cliente.id, nif: 'B85612349', razon_social: 'Otro Nombre SL', direccion: 'Calle Nueva 2', codigo_postal: '28001' });
    await t.app.manager.db.updateTable('configuracion').set({ razon_social: 'Empresa Renombrada SL', nombre_comercial: 'Renombrada', direccion: 'Polígono 3' }).execute();
    await t.app.manager.db.updateTable('series').set({ codigo: 'FA' }).where('id', '=', serieA.id).execute();
    const hoy = await leer(t, 'facturas', f.id);
    expect(hoy.emision).toEqual(f.emision);
    expect(hoy).toMatchObject({ numero: `A ${ANIO}/000001`, serie_codigo: 'A' });
    expect(hoy.registro).toMatchObject({ num_serie: `A ${ANIO}/000001`, importe_total: '12.10', fecha_expedicion: aeat(HOY) });
    // The list finds it by what it was issued as.
    expect((await list(t, t.cookie, 'listadofacturas', { id: f.id })).rows[0]).toMatchObject({ numero: `A ${ANIO}/000001` });
    await t.app.manager.db.updateTable('series').set({ codigo: 'A' }).where('id', '=', serieA.id).execute();
    await t.app.manager.db.updateTable('configuracion').set({ razon_social: antes.razon_social, nombre_comercial: antes.nombre_comercial }).execute();
  });

  it('a used serie keeps its code and its kind; an unused one may change both', async () => {
    const renombrar = await post(t, 'editarserie', { id: serieA.id, codigo: 'FA', descripcion: 'Facturas', tipo: 'normal' });
    expect(renombrar).toMatchObject({ status: 400, body: { errors: { codigo: MESSAGES.serieUsadaNoCambia } } });
    const tipo = await post(t, 'editarserie', { id: serieA.id, codigo: 'A', descripcion: 'Facturas', tipo: 'rectificativa' });
    expect(tipo.body.errors).toEqual({ tipo: MESSAGES.serieUsadaNoCambia });
    // Its description can change.
    expect((await post(t, 'editarserie', { id: serieA.id, codigo: 'A', descripcion: 'Facturas de 2026', tipo: 'normal' })).status).toBe(200);
    expect((await list(t, t.cookie, 'listadoseries', { id: serieA.id })).rows[0]).toMatchObject({ codigo: 'A', tipo: 'normal' });
    const nueva = await save(t, t.cookie, 'editarserie', { codigo: 'NUEVA', descripcion: 'Sin usar', tipo: 'normal' });
    expect(await save(t, t.cookie, 'editarserie', { id: nueva.id, codigo: 'NV', descripcion: 'Sin usar', tipo: 'simplificada' })).toMatchObject({ codigo: 'NV', tipo: 'simplificada' });
  });

  it('Validaciones 3.1.3.1: an invoice dated before 28-10-2024 is refused and nothing changes', async () => {
    const vieja = await ok(t, 'editarfactura', { fecha: '2024-10-01', cliente_id: cliente.id, almacen_id: principal, serie_id: serieA.id, lineas: [{ articulo_id: art.id, cantidad: 1_000, precio: 100_000 }] });
    const registros = await t.app.manager.db.selectFrom('registros_facturacion').select('id').execute();
    const r = await post(t, 'emitirfactura', { id: vieja.id });
    expect(r).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.fechaFacturaAnteriorVerifactu } });
    expect(await leer(t, 'facturas', vieja.id)).toMatchObject({ estado: 'borrador', numero: 'Borrador' });
    expect(await t.app.manager.db.selectFrom('registros_facturacion').select('id').execute()).toEqual(registros);
    await ok(t, 'eliminarfactura', { id: vieja.id });
  });

  it('an invoice of earlier albaranes carries FechaOperacion (the latest delivery) in its record, and the albaranes it invoices', async () => {
    const d1 = diaMas(HOY, -5);
    const d2 = diaMas(HOY, -3);
    const alb1 = await ok(t, 'editaralbaranventa', { fecha: d1, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 1_000, precio: 100_000 }] });
    const alb2 = await ok(t, 'editaralbaranventa', { fecha: d2, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 2_000, precio: 100_000 }] });
    const r = await ok(t, 'facturaralbaranventa', { id: alb1.id });
    const borrador = await leer(t, 'facturas', r.hijos[0].id);
    const lineas = [
      { articulo_id: art.id, cantidad: 1_000, precio: 100_000, origen_linea_id: alb1.lineas[0].id },
      { articulo_id: art.id, cantidad: 2_000, precio: 100_000, origen_linea_id: alb2.lineas[0].id },
    ];
    await ok(t, 'editarfactura', { id: borrador.id, fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA.id, lineas });
    const emitida = await ok(t, 'emitirfactura', { id: borrador.id });
    expect(emitida.fecha_operacion).toBe(d2);
    expect(emitida.padres.map((p) => [p.id, p.fecha])).toEqual([
      [alb1.id, d1],
      [alb2.id, d2],
    ]);
    const [reg] = await t.app.manager.db.selectFrom('registros_facturacion').select('xml').where('documento_id', '=', emitida.id).execute();
    expect(reg.xml).toContain(`<sf:FechaOperacion>${aeat(d2)}</sf:FechaOperacion><sf:DescripcionOperacion>`);
    validarXml([reg.xml]);
    // An invoice of today's goods has none.
    const hoy = await t.app.manager.db.selectFrom('registros_facturacion').select('xml').where('documento_id', '=', f.id).executeTakeFirstOrThrow();
    expect(hoy.xml).not.toContain('FechaOperacion');
  });

  it('an annulled invoice still reads its registro de alta (the QR it printed)', async () => {
    const borrador = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA.id, lineas: [{ articulo_id: art.id, cantidad: 1_000, precio: 50_000 }] });
    const emitida = await ok(t, 'emitirfactura', { id: borrador.id });
    const anulada = await ok(t, 'anularfactura', { id: emitida.id });
    expect(anulada).toMatchObject({ estado: 'anulada', numero: emitida.numero, emision: emitida.emision });
    expect(anulada.registro).toMatchObject({ tipo: 'anulacion', num_serie: emitida.numero, importe_total: '6.05', id_emisor: emitida.registro!.id_emisor });
  });
});

describe.each(backends())('parties from anywhere ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieA: Row;
  let art: Row;

  it('setup', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    serieA = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!;
    art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ANY-A', { precio_venta: 100_000 }));
  });

  it('a customer gets a country and an identifier type: each checked as the AEAT will, postal codes in Spain only', async () => {
    const mal = async (body: Record<string, unknown>) => (await post(t, 'editarcliente', { razon_social: 'X', ...body })).body.errors;
    // A French NIF-IVA: FR + 2 characters + the SIREN's 9 digits.
    expect(await mal({ pais: 'FR', tipo_id: '02', nif: 'FR123' })).toEqual({ nif: MESSAGES.nifIvaNoValido.replace('{ejemplo}', 'FR12345678901') });
    // Abroad, a Spanish NIF is not an option; a NIF-IVA only in the EU; in Spain only a passport besides the NIF.
    expect(await mal({ pais: 'FR', nif: 'B85612349' })).toEqual({ tipo_id: MESSAGES.tipoIdExtranjero });
    expect(await mal({ pais: 'US', tipo_id: '02', nif: '123456789' })).toEqual({ pais: MESSAGES.nifIvaSoloUe });
    expect(await mal({ pais: 'ES', tipo_id: '04', nif: 'ABC123' })).toEqual({ tipo_id: MESSAGES.tipoIdEspana });
    expect(await mal({ nif: 'B85612349', codigo_postal: '99999' })).toEqual({ codigo_postal: MESSAGES.invalidPostalCode });
    expect(await mal({ nif: 'B85612340' })).toEqual({ nif: MESSAGES.invalidNif });
    expect(await mal({ pais: 'XX', tipo_id: '03', nif: 'P1' })).toEqual({ pais: MESSAGES.selectOption });

    // The prefix is added when left out; the postal code is free abroad and gives no province.
    const fr = await save(t, t.cookie, 'editarcliente', { razon_social: 'Bricolage du Midi SARL', pais: 'FR', tipo_id: '02', nif: '40 303265045', codigo_postal: '31000', poblacion: 'Toulouse' });
    expect(fr).toMatchObject({ pais: 'FR', tipo_id: '02', nif: 'FR40303265045', codigo_postal: '31000', provincia: null });
    const us = await save(t, t.cookie, 'editarcliente', { razon_social: 'Acme Hardware Inc.', pais: 'US', tipo_id: '03', nif: 'X12345678', codigo_postal: '10001-1234' });
    expect(us).toMatchObject({ pais: 'US', tipo_id: '03', nif: 'X12345678', codigo_postal: '10001-1234' });
    // Spanish ones as always (stored as Spain, a NIF).
    const es = await save(t, t.cookie, 'editarcliente', { razon_social: 'Local SL', nif: 'es b85612349', codigo_postal: '28020' });
    expect(es).toMatchObject({ pais: 'ES', tipo_id: null, nif: 'B85612349', provincia: 'Madrid' });
    // A change that leaves the country out is checked with the stored one.
    expect((await post(t, 'editarcliente', { id: fr.id, razon_social: 'Bricolage du Midi SARL', nif: '123' })).body.errors).toEqual({
      nif: MESSAGES.nifIvaNoValido.replace('{ejemplo}', 'FR12345678901'),
    });
    // Suppliers too.
    const pt = await save(t, t.cookie, 'editarproveedor', { razon_social: 'Ferragens do Porto Lda', pais: 'PT', tipo_id: '02', nif: 'PT501234567', codigo_postal: '4000-123' });
    expect(pt).toMatchObject({ pais: 'PT', tipo_id: '02', nif: 'PT501234567' });
  });

  it('the record names a foreign customer by IDOtro (CodigoPais, IDType, ID), valid against the XSD; the PDF block says which identifier', async () => {
    const clientes = (await list(t, t.cookie, 'listadoclientes', { porPagina: 100 })).rows;
    const xmls: string[] = [];
    for (const [razon, idOtro, linea] of [
      ['Bricolage du Midi SARL', '<sf:IDOtro><sf:CodigoPais>FR</sf:CodigoPais><sf:IDType>02</sf:IDType><sf:ID>FR40303265045</sf:ID></sf:IDOtro>', 'NIF-IVA FR40303265045'],
      ['Acme Hardware Inc.', '<sf:IDOtro><sf:CodigoPais>US</sf:CodigoPais><sf:IDType>03</sf:IDType><sf:ID>X12345678</sf:ID></sf:IDOtro>', 'Pasaporte X12345678'],
    ] as const) {
      const c = clientes.find((x) => x.razon_social === razon)!;
      const b = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c.id, almacen_id: principal, serie_id: serieA.id, lineas: [{ articulo_id: art.id, cantidad: 1_000, precio: 100_000 }] });
      const f = await ok(t, 'emitirfactura', { id: b.id });
      const { xml } = await t.app.manager.db.selectFrom('registros_facturacion').select('xml').where('documento_id', '=', f.id).executeTakeFirstOrThrow();
      expect(xml).toContain(`<sf:IDDestinatario><sf:NombreRazon>${razon}</sf:NombreRazon>${idOtro}</sf:IDDestinatario>`);
      xmls.push(xml);
      expect(f.emision!.destinatario).toMatchObject({ nombre: razon, nif: null });
      expect(f.emision!.destinatario!.lineas![0]).toBe(linea);
    }
    validarXml(xmls);
    expect(clientes.find((x) => x.razon_social === 'Bricolage du Midi SARL')).toMatchObject({ pais: 'FR' });
  });
});

describe.each(backends())('the producer of the system ($name)', (backend) => {
  const t = useTestApp(backend);

  it('SistemaInformatico names the producer the installation sets (MANAGER_PRODUCTOR_*), shown in Configuración › VERI*FACTU; without one, the company', async () => {
    const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serieA = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!;
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.' });
    const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('PROD-A', { precio_venta: 100_000 }));
    const emitir = async () => {
      const b = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA.id, lineas: [{ articulo_id: art.id, cantidad: 1_000 }] });
      const f = await ok(t, 'emitirfactura', { id: b.id });
      return (await t.app.manager.db.selectFrom('registros_facturacion').select('xml').where('documento_id', '=', f.id).executeTakeFirstOrThrow()).xml;
    };
    const empresa = await t.app.manager.db.selectFrom('configuracion').select(['razon_social', 'nif']).executeTakeFirstOrThrow();
    const sinProductor = await emitir();
    expect(sinProductor).toContain(`<sf:SistemaInformatico><sf:NombreRazon>${empresa.razon_social}</sf:NombreRazon><sf:NIF>${empresa.nif}</sf:NIF>`);
    process.env.MANAGER_PRODUCTOR_NOMBRE = 'Distribuciones Informáticas Levante SL';
    process.env.MANAGER_PRODUCTOR_NIF = 'B12345674';
    try {
      const xml = await emitir();
      expect(xml).toContain('<sf:SistemaInformatico><sf:NombreRazon>Distribuciones Informáticas Levante SL</sf:NombreRazon><sf:NIF>B12345674</sf:NIF><sf:NombreSistemaInformatico>Manager TPV</sf:NombreSistemaInformatico>');
      // The issuer is still the company.
      expect(xml).toContain(`<sf:ObligadoEmision><sf:NombreRazon>${empresa.razon_social}</sf:NombreRazon><sf:NIF>${empresa.nif}</sf:NIF>`);
      validarXml([xml, sinProductor]);
      const info = (await list(t, t.cookie, 'listadoverifactu')).rows[0] as Row & { sistema: Row; declaracion: string };
      expect(info.sistema).toMatchObject({ nombre_razon: 'Distribuciones Informáticas Levante SL', nif: 'B12345674', productor_configurado: 1 });
      expect(info.declaracion).toContain('Distribuciones Informáticas Levante SL (NIF B12345674), como productor');
    } finally {
      delete process.env.MANAGER_PRODUCTOR_NOMBRE;
      delete process.env.MANAGER_PRODUCTOR_NIF;
    }
    const info = (await list(t, t.cookie, 'listadoverifactu')).rows[0] as Row & { sistema: Row };
    expect(info.sistema).toMatchObject({ nif: empresa.nif, productor_configurado: 0 });
  });
});
