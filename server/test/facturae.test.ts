import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { firmanteDePkcs12 } from '../src/fiscal/xades.ts';
import { crearPki } from './aeat-double.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { backends, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { necesita } from './herramientas.ts';

/**
 * Facturae 3.2.2 for public administrations (issue 16): a town hall with its DIR3 units, an invoice and a
 * rectificativa of it downloaded as Facturae — valid against Facturaev3_2_2.xsd (xmllint), the XAdES-EPES signature
 * verified by xmlsec1 with the certificate's CA (an independent canonicaliser and verifier), the amounts the
 * invoice's to the cent, the parties as they were at emission.
 */

const HOY = todayIn('Europe/Madrid');
const ANIO = HOY.slice(0, 4);
const PKI = crearPki('B86420973', 'COMERCIAL DEMO SL');
const XSD = fileURLToPath(new URL('../src/fiscal/xsd/Facturaev3_2_2.xsd', import.meta.url));
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-facturae-'));
const CA = path.join(TMP, 'ca.pem');
fs.writeFileSync(CA, PKI.caPem);
const CERT = path.join(TMP, 'cert.pem');
fs.writeFileSync(CERT, firmanteDePkcs12(PKI.p12, PKI.password).cert.toString());

function run(cmd: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => resolve({ ok: !err, out: `${stdout}${stderr}` }));
  });
}

let n = 0;
async function comprobar(xml: string) {
  necesita('xmllint', 'xmlsec1');
  const file = path.join(TMP, `f${++n}.xsig`);
  fs.writeFileSync(file, xml);
  const esquema = await run('xmllint', ['--noout', '--nonet', '--schema', XSD, file]);
  expect(esquema.out).toContain('validates');
  expect(esquema.ok).toBe(true);
  const idAttr = ['--id-attr:Id', 'http://uri.etsi.org/01903/v1.3.2#:SignedProperties'];
  // The chain from the file's own certificate to the CA, and the certificate given apart.
  const cadena = await run('xmlsec1', ['--verify', '--trusted-pem', CA, ...idAttr, file]);
  expect(cadena.out).toContain('SignedInfo References (ok/all): 3/3');
  expect(cadena.ok).toBe(true);
  const clave = await run('xmlsec1', ['--verify', '--pubkey-cert-pem', CERT, ...idAttr, file]);
  expect(clave.ok).toBe(true);
  // Any byte changed in the invoice breaks it.
  const alterado = path.join(TMP, `f${n}-alterado.xsig`);
  fs.writeFileSync(alterado, xml.replace(/<InvoiceTotal>(-?)(\d)/, (_m, s, d) => `<InvoiceTotal>${s}${(Number(d) + 1) % 10}`));
  expect((await run('xmlsec1', ['--verify', '--trusted-pem', CA, ...idAttr, alterado])).ok).toBe(false);
}

/** Every text of `tag` in the file, in order. */
const todos = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);
const uno = (xml: string, tag: string) => todos(xml, tag)[0];
const euros = (c: number) => (c / 100).toFixed(2);

async function subirCertificado(t: SuiteApp) {
  const { payload, headers } = multipart('archivo', 'empresa.p12', 'application/x-pkcs12', PKI.p12, { password: PKI.password });
  const res = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subircertificadoverifactu', payload, headers: { ...headers, cookie: t.cookie } });
  expect(expectCleanAnswer(res).RESULT).toBe('0');
}

const AYUNTAMIENTO = {
  nif: 'P2807900B',
  razon_social: 'Ayuntamiento de Villaejemplo',
  direccion: 'Plaza Mayor, 1',
  codigo_postal: '28001',
  poblacion: 'Villaejemplo',
  administracion_publica: 1,
  dir3_oficina_contable: 'l01280796',
  dir3_organo_gestor: 'L01280796',
  dir3_unidad_tramitadora: 'LA0001234',
  dir3_organo_proponente: 'LA0005678',
};

describe.each(backends())('Facturae 3.2.2 ($name)', (backend) => {
  const t = useTestApp(backend);
  let ayto: Row;
  let factura: Row;
  let rectificativa: Row;

  it('a public administration needs its three DIR3 units, each 9 letters and digits; kept in capitals', async () => {
    const sin = await t.op('editarcliente', { cookie: t.cookie, body: { ...AYUNTAMIENTO, dir3_organo_gestor: '', dir3_unidad_tramitadora: null } });
    expect(sin.statusCode).toBe(400);
    expect(sin.json().errors).toEqual({ dir3_organo_gestor: MESSAGES.dir3Requerido, dir3_unidad_tramitadora: MESSAGES.dir3Requerido });
    const mal = await t.op('editarcliente', { cookie: t.cookie, body: { ...AYUNTAMIENTO, dir3_oficina_contable: 'L0128-796', dir3_organo_proponente: '123456789' } });
    expect(mal.json().errors).toEqual({ dir3_oficina_contable: MESSAGES.dir3NoValido, dir3_organo_proponente: MESSAGES.dir3NoValido });
    expect((await list(t, t.cookie, 'listadoclientes', { q: 'Villaejemplo' })).total).toBe(0);
    ayto = await save(t, t.cookie, 'editarcliente', AYUNTAMIENTO);
    expect(ayto).toMatchObject({ administracion_publica: 1, dir3_oficina_contable: 'L01280796', dir3_unidad_tramitadora: 'LA0001234', provincia: 'Madrid' });
    // A change that leaves the codes out keeps them; one that clears a required code while still an administration is refused.
    expect(await save(t, t.cookie, 'editarcliente', { id: ayto.id, nif: AYUNTAMIENTO.nif, razon_social: AYUNTAMIENTO.razon_social, telefono: '910 111 222' })).toMatchObject({ dir3_organo_gestor: 'L01280796' });
    const borrar = await t.op('editarcliente', { cookie: t.cookie, body: { id: ayto.id, nif: AYUNTAMIENTO.nif, razon_social: AYUNTAMIENTO.razon_social, dir3_organo_gestor: '' } });
    expect(borrar.json().errors).toEqual({ dir3_organo_gestor: MESSAGES.dir3Requerido });
  });

  it('an emitted invoice without a certificate: comprobarfacturae says why, descargarfacturae refuses with the same message', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const a21 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FAE-21', { descripcion: 'Papel A4 & sobres <caja>', precio_venta: 123_456 }));
    const a10 = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FAE-10', { tipo_iva: '10', precio_venta: 50_000 }));
    const borrador = await save(t, t.cookie, 'editarfactura', {
      fecha: HOY, cliente_id: ayto.id, almacen_id: almacen, serie_id: serie, forma_pago: 'transferencia_30',
      lineas: [
        { articulo_id: a21.id, cantidad: 3_500, precio: 123_456, descuento: 550 },
        { articulo_id: a10.id, cantidad: 2_000, precio: 50_000 },
      ],
    });
    const antes = await t.op('comprobarfacturae', { cookie: t.cookie, query: { id: String(borrador.id) } });
    expect(antes.json().data[0]).toMatchObject({ disponible: false, motivo: MESSAGES.facturaNoEmitida, administracion_publica: 1 });
    factura = await save(t, t.cookie, 'emitirfactura', { id: borrador.id });
    const c = await t.op('comprobarfacturae', { cookie: t.cookie, query: { id: String(factura.id) } });
    expect(c.json().data[0]).toMatchObject({ disponible: false, motivo: MESSAGES.facturaeSinCertificado });
    const d = await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(factura.id) } });
    expect(d.json()).toMatchObject({ RESULT: '1', message: MESSAGES.facturaeSinCertificado });
    const nada = await t.op('descargarfacturae', { cookie: t.cookie, query: { id: '999999' } });
    expect(nada.json().RESULT).toBe('3');
  });

  it('the invoice: schema-valid, signed XAdES-EPES (policy v3.1) and verified by xmlsec1; DIR3 centres; amounts to the cent', async () => {
    await subirCertificado(t);
    expect((await t.op('comprobarfacturae', { cookie: t.cookie, query: { id: String(factura.id) } })).json().data[0]).toMatchObject({ disponible: true, motivo: null });
    // Issued means fixed: the town hall moves after the invoice was issued; its Facturae keeps the address it had.
    await save(t, t.cookie, 'editarcliente', { id: ayto.id, nif: AYUNTAMIENTO.nif, razon_social: AYUNTAMIENTO.razon_social, direccion: 'Calle Nueva, 9', codigo_postal: '28002' });
    const res = await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(factura.id) } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Facturae A-${ANIO}-000001.xsig"`);
    const xml = res.body;
    await comprobar(xml);

    // The invoice's amounts: 3,5 × 12,3456 = 43,2096, − 5,5 % = 40,833072 → 40,83 at 21 %; 2 × 5 = 10,00 at 10 %.
    expect(factura).toMatchObject({ base: 5_083, iva: 957, total: 6_040 });
    expect(uno(xml, 'InvoiceNumber')).toBe(`${ANIO}/000001`);
    expect(uno(xml, 'InvoiceSeriesCode')).toBe('A');
    expect(uno(xml, 'InvoiceClass')).toBe('OO');
    expect(uno(xml, 'TotalGrossAmount')).toBe(euros(Number(factura.base)));
    expect(uno(xml, 'TotalTaxOutputs')).toBe(euros(Number(factura.iva)));
    expect(uno(xml, 'InvoiceTotal')).toBe(euros(Number(factura.total)));
    expect(uno(xml, 'TotalExecutableAmount')).toBe('60.40');
    const desglose = factura.desglose as { tipo_iva: string; base: number; iva: number }[];
    const impuestos = xml.slice(xml.indexOf('<TaxesOutputs>'), xml.indexOf('</TaxesOutputs>'));
    expect(todos(impuestos, 'TaxRate')).toEqual(['21.00', '10.00']);
    expect(todos(impuestos, 'TotalAmount')).toEqual(desglose.flatMap((g) => [euros(g.base), euros(g.iva)]));
    // The lines: quantity, price, discount and gross amount as stored.
    expect(todos(xml, 'ItemDescription')).toEqual(['Papel A4 &amp; sobres &lt;caja&gt;', 'Artículo FAE-10']);
    expect(todos(xml, 'Quantity')).toEqual(['3.500', '2.000']);
    expect(todos(xml, 'UnitPriceWithoutTax')).toEqual(['12.3456', '5.0000']);
    expect(todos(xml, 'DiscountRate')).toEqual(['5.50']);
    // Gross amounts to the cent, adding up to TotalGrossAmount (issue 22: FACe sums them); the discount takes the cost
    // (3,5 × 12,3456 = 43,2096) to it exactly.
    expect(todos(xml, 'GrossAmount')).toEqual(['40.83', '10.00']);
    expect(todos(xml, 'TotalCost')).toEqual(['43.20960000', '10.00000000']);
    expect(todos(xml, 'DiscountAmount')).toEqual(['2.37960000']);
    // The town hall: its DIR3 units in the roles FACe reads, and the address it had at emission.
    const comprador = xml.slice(xml.indexOf('<BuyerParty>'), xml.indexOf('</BuyerParty>'));
    expect(uno(comprador, 'TaxIdentificationNumber')).toBe('P2807900B');
    expect(todos(comprador, 'CentreCode')).toEqual(['L01280796', 'L01280796', 'LA0001234', 'LA0005678']);
    expect(todos(comprador, 'RoleTypeCode')).toEqual(['01', '02', '03', '04']);
    expect(todos(comprador, 'Address')).toContain('Plaza Mayor, 1');
    expect(comprador).not.toContain('Calle Nueva');
    const vendedor = xml.slice(xml.indexOf('<SellerParty>'), xml.indexOf('</SellerParty>'));
    expect(uno(vendedor, 'CorporateName')).toBe('Comercial Demo, S.L.');
    expect(vendedor).not.toContain('AdministrativeCentres');
    // The policy, the signing certificate.
    expect(xml).toContain('<xades:Identifier>http://www.facturae.es/politica_de_firma_formato_facturae/politica_de_firma_formato_facturae_v3_1.pdf</xades:Identifier>');
    expect(xml).toContain('<ds:DigestValue>Ohixl6upD6av8N7pEvDABhEL6hM=</ds:DigestValue>');
    expect(xml).not.toContain('<Corrective>');
    // Paid by transfer in 30 days: one instalment of the whole total.
    const vence = new Date(`${HOY}T00:00:00Z`);
    vence.setUTCDate(vence.getUTCDate() + 30);
    expect(uno(xml, 'InstallmentDueDate')).toBe(vence.toISOString().slice(0, 10));
    expect(uno(xml, 'InstallmentAmount')).toBe('60.40');
    expect(uno(xml, 'PaymentMeans')).toBe('04');
  });

  it('a rectificativa: Corrective with the reason, the corrected invoice number, serie and period; valid and verified', async () => {
    const linea = (factura.lineas as Row[])[1];
    const serieR = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'R')!.id;
    const b = await save(t, t.cookie, 'editarrectificativa', {
      fecha: HOY, cliente_id: ayto.id, almacen_id: factura.almacen_id, serie_id: serieR, factura_id: factura.id, tipo: 'R1', modo: 'diferencias',
      lineas: [{ articulo_id: linea.articulo_id, cantidad: -1_000, precio: 50_000, origen_linea_id: linea.id }],
    });
    rectificativa = await save(t, t.cookie, 'emitirrectificativa', { id: b.id });
    expect(rectificativa).toMatchObject({ total: -550 });
    const res = await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(rectificativa.id) } });
    const xml = res.body;
    await comprobar(xml);
    expect(uno(xml, 'InvoiceClass')).toBe('OR');
    const c = xml.slice(xml.indexOf('<Corrective>'), xml.indexOf('</Corrective>'));
    expect(uno(c, 'InvoiceNumber')).toBe(`${ANIO}/000001`);
    expect(uno(c, 'InvoiceSeriesCode')).toBe('A');
    expect(uno(c, 'ReasonCode')).toBe('16');
    expect(uno(c, 'ReasonDescription')).toBe('Base imponible');
    expect(uno(c, 'StartDate')).toBe(`${HOY.slice(0, 7)}-01`);
    expect(uno(c, 'CorrectionMethod')).toBe('02');
    expect(uno(c, 'InvoiceIssueDate')).toBe(factura.fecha);
    expect(uno(xml, 'InvoiceSeriesCode')).toBe('R');
    expect(uno(xml, 'InvoiceTotal')).toBe('-5.50');
    expect(uno(xml, 'TotalTaxOutputs')).toBe('-0.50');
    expect(todos(xml, 'Quantity')).toEqual(['-1.000']);
    // A refund has no instalments to pay.
    expect(xml).not.toContain('PaymentDetails');
  });

  it('an invoice issued before the parties were stored as data: its stored name, today\'s address; DIR3 units of a customer marked after', async () => {
    const empresa = await save(t, t.cookie, 'editarcliente', { nif: 'Q2826000H', razon_social: 'Consorcio Antiguo', direccion: 'Calle Vieja, 1', codigo_postal: '28005', poblacion: 'Madrid' });
    const b = await save(t, t.cookie, 'editarfactura', {
      fecha: HOY, cliente_id: empresa.id, almacen_id: factura.almacen_id, serie_id: factura.serie_id, lineas: [{ articulo_id: (factura.lineas as Row[])[0].articulo_id, cantidad: 1_000, precio: 10_000 }],
    });
    const f = await save(t, t.cookie, 'emitirfactura', { id: b.id });
    // As migration 0018's invoices are: the printed blocks only.
    const fila = await t.app.manager.db.selectFrom('documentos').select('emision').where('id', '=', f.id).executeTakeFirstOrThrow();
    const { partes: _p, ...antigua } = JSON.parse(fila.emision!);
    await t.app.manager.db.updateTable('documentos').set({ emision: JSON.stringify(antigua) }).where('id', '=', f.id).execute();
    // Today it is renamed, has moved and is marked as a public administration.
    await save(t, t.cookie, 'editarcliente', {
      id: empresa.id, nif: 'Q2826000H', razon_social: 'Consorcio Renombrado', direccion: 'Calle Nueva, 5', codigo_postal: '28006', poblacion: 'Madrid',
      administracion_publica: 1, dir3_oficina_contable: 'E00003301', dir3_organo_gestor: 'E00003301', dir3_unidad_tramitadora: 'E00003302',
    });
    const xml = (await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(f.id) } })).body;
    await comprobar(xml);
    const comprador = xml.slice(xml.indexOf('<BuyerParty>'), xml.indexOf('</BuyerParty>'));
    expect(uno(comprador, 'CorporateName')).toBe('Consorcio Antiguo');
    expect(todos(comprador, 'Address')).toContain('Calle Nueva, 5');
    expect(todos(comprador, 'CentreCode')).toEqual(['E00003301', 'E00003301', 'E00003302']);
  });

  it('a customer that is not an administration gets a Facturae without centres; an incomplete address is refused', async () => {
    const empresa = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', direccion: 'Calle Luna, 3', codigo_postal: '28004', poblacion: 'Madrid' });
    const sinDireccion = await save(t, t.cookie, 'editarcliente', { nif: 'A58818501', razon_social: 'Sin Señas, S.A.' });
    const emitir = async (cliente: number, retencion = 0) => {
      const b = await save(t, t.cookie, 'editarfactura', {
        fecha: HOY, cliente_id: cliente, almacen_id: factura.almacen_id, serie_id: factura.serie_id, retencion,
        lineas: [{ articulo_id: (factura.lineas as Row[])[0].articulo_id, cantidad: 1_000, precio: 1_000_000 }],
      });
      return save(t, t.cookie, 'emitirfactura', { id: b.id });
    };
    // With a 15 % retención: 100,00 + 21,00 − 15,00.
    const f = await emitir(empresa.id, 1500);
    expect(f).toMatchObject({ base: 10_000, iva: 2_100, retencion_importe: 1_500, total: 10_600 });
    const c = (await t.op('comprobarfacturae', { cookie: t.cookie, query: { id: String(f.id) } })).json().data[0];
    expect(c).toMatchObject({ disponible: true, administracion_publica: 0 });
    const xml = (await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(f.id) } })).body;
    await comprobar(xml);
    expect(xml).not.toContain('AdministrativeCentres');
    const retenidos = xml.slice(xml.indexOf('<TaxesWithheld>'), xml.indexOf('</TaxesWithheld>'));
    expect(uno(retenidos, 'TaxTypeCode')).toBe('04');
    expect(uno(retenidos, 'TaxRate')).toBe('15.00');
    expect(todos(retenidos, 'TotalAmount')).toEqual(['100.00', '15.00']);
    expect(uno(xml, 'TotalTaxesWithheld')).toBe('15.00');
    expect(uno(xml, 'InvoiceTotal')).toBe('106.00');
    // Under recargo de equivalencia: 5,2 % beside the 21 %, both in the tax outputs.
    const minorista = await save(t, t.cookie, 'editarcliente', { nif: 'B12345674', razon_social: 'Droguería Sol, S.L.', direccion: 'Calle Sol, 2', codigo_postal: '46001', poblacion: 'Valencia', recargo: 1 });
    const r = await emitir(minorista.id);
    expect(r).toMatchObject({ base: 10_000, iva: 2_100, recargo: 520, total: 12_620 });
    const xr = (await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(r.id) } })).body;
    await comprobar(xr);
    const impuesto = xr.slice(xr.indexOf('<TaxesOutputs>'), xr.indexOf('</TaxesOutputs>'));
    expect(uno(impuesto, 'EquivalenceSurcharge')).toBe('5.20');
    expect(todos(impuesto, 'TotalAmount')).toEqual(['100.00', '21.00', '5.20']);
    expect(uno(xr, 'TotalTaxOutputs')).toBe('26.20');
    expect(uno(xr, 'InvoiceTotal')).toBe('126.20');

    // An exempt line: rate 0, no tax, its SpecialTaxableEvent (sujeta y exenta, art. 20 by default).
    const libro = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FAE-EX', { tipo_iva: 'exento', precio_venta: 200_000 }));
    const be = await save(t, t.cookie, 'editarfactura', {
      fecha: HOY, cliente_id: empresa.id, almacen_id: factura.almacen_id, serie_id: factura.serie_id, lineas: [{ articulo_id: libro.id, cantidad: 1_000, precio: 200_000 }],
    });
    const ex = await save(t, t.cookie, 'emitirfactura', { id: be.id });
    const xe = (await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(ex.id) } })).body;
    await comprobar(xe);
    expect(todos(xe, 'TaxRate')).toEqual(['0.00', '0.00']);
    expect(uno(xe, 'SpecialTaxableEventCode')).toBe('01');
    // The reason starts with the tax it speaks of (01, IVA), as the field's description asks; the legal literal for the invoice.
    expect(uno(xe, 'SpecialTaxableEventReason')).toBe('01 Exenta por el artículo 20 de la Ley 37/1992 del IVA');
    expect(todos(xe, 'LegalReference')).toEqual(['Operación exenta por aplicación del artículo 20 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido']);
    expect(uno(xe, 'InvoiceTotal')).toBe('20.00');

    const g = await emitir(sinDireccion.id);
    const sin = await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(g.id) } });
    expect(sin.json()).toMatchObject({ RESULT: '1', message: MESSAGES.facturaeSinDireccion.replace('{parte}', 'el cliente') });
  });

  it('customers abroad (U and E, OverseasAddress, the identifier with its country), the IBAN for a transfer, S2 and E5/E2 at 0 % with their literals, the reason code chosen', async () => {
    const almacen = factura.almacen_id;
    const serie = factura.serie_id;
    const articulo = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FAE-UE', { precio_venta: 1_000_000 }));
    const emitir = async (cliente: number, lineas: Record<string, unknown>[], forma_pago?: string) => {
      const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: cliente, almacen_id: almacen, serie_id: serie, lineas, ...(forma_pago ? { forma_pago } : {}) });
      return save(t, t.cookie, 'emitirfactura', { id: b.id });
    };
    const bajar = async (id: unknown, extra: Record<string, string> = {}) => {
      const res = await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(id), ...extra } });
      expect(res.statusCode).toBe(200);
      await comprobar(res.body);
      return res.body;
    };
    // A transfer before the company has an IBAN: the file, without the account, and the notice.
    const frances = await save(t, t.cookie, 'editarcliente', {
      pais: 'FR', tipo_id: '02', nif: 'FR40303265045', razon_social: 'Quincaillerie Dupont SARL', direccion: '12 rue de la Paix', codigo_postal: '75002', poblacion: 'Paris',
    });
    const fr = await emitir(frances.id, [{ articulo_id: articulo.id, cantidad: 2_000, precio: 1_000_000, operacion: 'E5' }], 'transferencia_30');
    expect(fr).toMatchObject({ base: 20_000, iva: 0, total: 20_000 });
    expect((await t.op('comprobarfacturae', { cookie: t.cookie, query: { id: String(fr.id) } })).json().data[0]).toMatchObject({ disponible: true, aviso: MESSAGES.facturaeSinIban });
    expect(await bajar(fr.id)).not.toContain('AccountToBeCredited');
    const conf = (await list(t, t.cookie, 'listadoconfiguraciones')).rows[0];
    const malIban = await t.op('editarconfiguracion', { cookie: t.cookie, body: { razon_social: conf.razon_social, nif: conf.nif, iban: 'ES00 1234' } });
    expect(malIban.json().errors).toEqual({ iban: MESSAGES.invalidIban });
    await save(t, t.cookie, 'editarconfiguracion', { razon_social: conf.razon_social, nif: conf.nif, iban: 'ES91 2100 0418 4502 0005 1332' });
    expect((await t.op('comprobarfacturae', { cookie: t.cookie, query: { id: String(fr.id) } })).json().data[0].aviso).toBeNull();
    const xfr = await bajar(fr.id);
    const comprador = xfr.slice(xfr.indexOf('<BuyerParty>'), xfr.indexOf('</BuyerParty>'));
    expect(uno(comprador, 'PersonTypeCode')).toBe('J');
    expect(uno(comprador, 'ResidenceTypeCode')).toBe('U');
    expect(uno(comprador, 'TaxIdentificationNumber')).toBe('FR40303265045');
    expect(comprador).toContain('<OverseasAddress><Address>12 rue de la Paix</Address><PostCodeAndTown>75002 Paris</PostCodeAndTown><Province>Paris</Province><CountryCode>FRA</CountryCode></OverseasAddress>');
    expect(uno(xfr, 'IBAN')).toBe('ES9121000418450200051332');
    expect(todos(xfr, 'TaxRate')).toEqual(['0.00', '0.00']);
    expect(uno(xfr, 'SpecialTaxableEventReason')).toBe('01 Exenta por el artículo 25 de la Ley 37/1992 del IVA (entrega intracomunitaria)');
    expect(todos(xfr, 'LegalReference')).toEqual(['Operación exenta por aplicación del artículo 25 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido']);
    expect(uno(xfr, 'InvoiceTotal')).toBe('200.00');

    // A US customer with a passport: a person, resident elsewhere (E), an export (E2).
    const americano = await save(t, t.cookie, 'editarcliente', { pais: 'US', tipo_id: '03', nif: 'P1234567', razon_social: 'John Smith', direccion: '1 Main Street', codigo_postal: '10001', poblacion: 'New York', provincia: 'NY' });
    const us = await emitir(americano.id, [{ articulo_id: articulo.id, cantidad: 1_000, precio: 1_000_000, operacion: 'E2' }]);
    const xus = await bajar(us.id);
    const c2 = xus.slice(xus.indexOf('<BuyerParty>'), xus.indexOf('</BuyerParty>'));
    expect([uno(c2, 'PersonTypeCode'), uno(c2, 'ResidenceTypeCode'), uno(c2, 'TaxIdentificationNumber')]).toEqual(['F', 'E', 'USP1234567']);
    expect([uno(c2, 'Name'), uno(c2, 'FirstSurname'), uno(c2, 'CountryCode'), uno(c2, 'Province')]).toEqual(['John', 'Smith', 'USA', 'NY']);
    expect(todos(xus, 'LegalReference')).toEqual(['Operación exenta por aplicación del artículo 21 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido']);
    // Without a town abroad: refused with the message for a foreign customer.
    const sinPoblacion = await save(t, t.cookie, 'editarcliente', { pais: 'PT', tipo_id: '02', nif: 'PT501964843', razon_social: 'Ferragens Lda', direccion: 'Rua Augusta, 1' });
    const pt = await emitir(sinPoblacion.id, [{ articulo_id: articulo.id, cantidad: 1_000, precio: 1_000_000, operacion: 'E5' }]);
    expect((await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(pt.id) } })).json()).toMatchObject({ RESULT: '1', message: MESSAGES.facturaeSinDireccionExtranjera });

    // An S2 line beside an S1 line: the S2 at 0 % with no quota, «Inversión del sujeto pasivo» as the literal.
    const obra = await save(t, t.cookie, 'editarcliente', { nif: 'B08934127', razon_social: 'Construcciones Norte, S.L.', direccion: 'Calle Obra, 4', codigo_postal: '28010', poblacion: 'Madrid' });
    const s2 = await emitir(obra.id, [
      { articulo_id: articulo.id, cantidad: 1_000, precio: 1_000_000 },
      { articulo_id: articulo.id, cantidad: 3_000, precio: 1_000_000, operacion: 'S2' },
    ]);
    expect(s2).toMatchObject({ base: 40_000, iva: 2_100, total: 42_100 });
    const xs2 = await bajar(s2.id);
    const resumen = xs2.slice(xs2.indexOf('<TaxesOutputs>'), xs2.indexOf('</TaxesOutputs>'));
    expect(todos(resumen, 'TaxRate').sort()).toEqual(['0.00', '21.00']);
    expect(todos(resumen, 'TotalAmount').sort()).toEqual(['0.00', '100.00', '21.00', '300.00']);
    expect(todos(xs2, 'LegalReference')).toEqual(['Inversión del sujeto pasivo']);
    expect(uno(xs2, 'TotalTaxOutputs')).toBe('21.00');

    // The rectificativa of the French invoice: the reason the user chose (83, discounts) instead of the derived 16.
    const serieR = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((x) => x.codigo === 'R')!.id;
    const lf = (fr.lineas as Row[])[0];
    const br = await save(t, t.cookie, 'editarrectificativa', {
      fecha: HOY, cliente_id: frances.id, almacen_id: almacen, serie_id: serieR, factura_id: fr.id, tipo: 'R1', modo: 'diferencias',
      lineas: [{ articulo_id: articulo.id, cantidad: -1_000, precio: 1_000_000, operacion: 'E5', origen_linea_id: lf.id }],
    });
    const rf = await save(t, t.cookie, 'emitirrectificativa', { id: br.id });
    const cr = (await t.op('comprobarfacturae', { cookie: t.cookie, query: { id: String(rf.id) } })).json().data[0];
    expect(cr.rectificacion.motivo).toBe('16');
    expect(cr.rectificacion.motivos).toHaveLength(22);
    expect(uno(await bajar(rf.id), 'ReasonCode')).toBe('16');
    const x83 = await bajar(rf.id, { motivo: '83' });
    expect([uno(x83, 'ReasonCode'), uno(x83, 'ReasonDescription')]).toEqual(['83', 'Base imponible modificada por descuentos y bonificaciones']);
    const mal = await t.op('descargarfacturae', { cookie: t.cookie, query: { id: String(rf.id), motivo: '99' } });
    expect(mal.statusCode).toBe(400);
  });
});
