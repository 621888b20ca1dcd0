import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../support/documentos';
import { api } from '../support/op';
import { login, openBrowser, screenshot, toggle, type Browser } from '../support/browser';

/**
 * Facturae for a town hall (issue 16), in Chromium against the real server: a customer marked as a public
 * administration with its DIR3 codes (a malformed one refused under its field), an invoice issued to it, its
 * «Descargar Facturae» disabled with the reason while there is no certificate, then — the company's certificate
 * uploaded in Configuración › VERI*FACTU — the downloaded file: valid against Facturaev3_2_2.xsd, its signature
 * verified by xmlsec1 with the certificate, the DIR3 centres and the invoice's total in it. The certificate is
 * removed at the end (sending stays off: nothing leaves the machine).
 */

const XSD = fileURLToPath(new URL('../../server/src/fiscal/xsd/Facturaev3_2_2.xsd', import.meta.url));
const PASSWORD = 'Clave-facturae-1';

let dir: string;
let b: Browser;
let p12: string;
let certPem: string;
const s: { clienteId?: number; facturaId?: number; total?: number } = {};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mtpv-facturae-'));
  const key = path.join(dir, 'empresa.key');
  certPem = path.join(dir, 'empresa.pem');
  p12 = path.join(dir, 'empresa.p12');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', certPem, '-subj', '/CN=COMERCIAL DEMO SL/serialNumber=IDCES-B86420973/C=ES', '-days', '200'], { stdio: 'ignore' });
  execFileSync('openssl', ['pkcs12', '-export', '-in', certPem, '-inkey', key, '-out', p12, '-passout', `pass:${PASSWORD}`], { stdio: 'ignore' });
  b = await openBrowser();
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterAll(async () => {
  // Leave the installation as it was: no certificate.
  if (b) {
    await api(b.page, 'eliminarcertificadoverifactu', {}, {}).catch(() => undefined);
    await b.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('Facturae for a town hall', () => {
  it('a customer marked as a public administration carries its DIR3 codes (a malformed one refused under its field)', async () => {
    const { page } = b;
    await page.goto('/ventas/cliente/nuevo-cliente');
    await page.getByLabel(/^NIF/).fill('P2807900B');
    await page.getByLabel(/^Razón social/).fill('Ayuntamiento de Villaejemplo');
    await page.getByLabel(/^Dirección/).fill('Plaza Mayor, 1');
    await page.getByLabel(/^Código postal/).fill('28001');
    await page.getByLabel(/^Población/).fill('Villaejemplo');
    await toggle(page.getByRole('switch', { name: /^Es una administración pública/ }));
    await page.getByLabel(/^Oficina contable/).fill('l0128079');
    await page.getByLabel(/^Órgano gestor/).fill('L01280796');
    await page.getByRole('button', { name: 'Guardar' }).click();
    // Too short, and the unidad tramitadora missing: both said under their fields, nothing saved.
    await page.getByText('Código DIR3 no válido: 9 caracteres, letras y números, empezando por una letra (p. ej. L01280796)').waitFor();
    await page.getByText('Obligatorio para una administración pública (código DIR3 de FACe)').waitFor();
    expect(page.url()).toMatch(/\/nuevo-cliente$/);
    await page.getByLabel(/^Oficina contable/).fill('l01280796');
    expect(await page.getByLabel(/^Oficina contable/).inputValue()).toBe('L01280796');
    await page.getByLabel(/^Unidad tramitadora/).fill('LA0001234');
    await screenshot(page, 'facturae-cliente');
    const body = await post(page, 'editarcliente', () => page.getByRole('button', { name: 'Guardar' }).click());
    await page.waitForURL(/\/ventas\/cliente\/\d+$/);
    expect(body.data[0]).toMatchObject({ administracion_publica: 1, dir3_oficina_contable: 'L01280796', dir3_unidad_tramitadora: 'LA0001234', dir3_organo_proponente: null });
    s.clienteId = body.data[0].id;
    // Read again, the section shows what was saved.
    await page.reload();
    expect(await page.getByRole('switch', { name: /^Es una administración pública/ }).isChecked()).toBe(true);
    expect(await page.getByLabel(/^Unidad tramitadora/).inputValue()).toBe('LA0001234');
  });

  it('its invoice: «Descargar Facturae» disabled with the reason until the certificate is stored, then a signed, schema-valid file', async () => {
    const { page } = b;
    const verifactu = (await api(page, 'listadoverifactu')).data![0] as { activo: number };
    // Nothing may be sent to the AEAT by this test.
    expect(verifactu.activo).toBe(0);
    const almacen = (await api(page, 'listadoalmacenes')).data!.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serie = (await api(page, 'listadoseries')).data!.find((r) => r.codigo === 'A')!.id;
    const articulo = (await api(page, 'editararticulo', {}, { codigo: 'FAE-E2E', descripcion: 'Material de oficina', unidad_medida: 'ud', tipo_iva: '21', precio_venta: 123_450 })).data![0];
    const hoy = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' });
    const borrador = await api(page, 'editarfactura', {}, {
      fecha: hoy, cliente_id: s.clienteId, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: articulo.id, cantidad: 2_000, precio: 123_450 }],
    });
    expect(borrador.RESULT, JSON.stringify(borrador)).toBe('0');
    const emitida = await api(page, 'emitirfactura', {}, { id: borrador.data![0].id });
    expect(emitida.RESULT, JSON.stringify(emitida)).toBe('0');
    s.facturaId = emitida.data![0].id as number;
    s.total = emitida.data![0].total as number;

    await page.goto(`/ventas/factura/${s.facturaId}`);
    await page.getByText('Facturae no disponible: No hay certificado de la empresa para firmar la Facturae: súbalo en Configuración › VERI*FACTU').waitFor();
    expect(await page.getByRole('button', { name: 'Descargar Facturae' }).isDisabled()).toBe(true);

    // The company's certificate, as the owner uploads it.
    await page.goto('/config/verifactu');
    await page.locator('input[type=file]').setInputFiles(p12);
    await page.getByLabel('Contraseña del certificado').fill(PASSWORD);
    const subida = page.waitForResponse((r) => r.url().includes('ac=subircertificadoverifactu'));
    await page.getByRole('button', { name: 'Subir certificado' }).click();
    expect((await (await subida).json()).RESULT).toBe('0');

    await page.goto(`/ventas/factura/${s.facturaId}`);
    const boton = page.getByRole('link', { name: 'Descargar Facturae' });
    await boton.waitFor();
    await screenshot(page, 'facturae-factura');
    const descarga = page.waitForEvent('download');
    await boton.click();
    const archivo = await descarga;
    expect(archivo.suggestedFilename()).toMatch(/^Facturae A-\d{4}-\d{6}\.xsig$/);
    const file = path.join(dir, 'factura.xsig');
    await archivo.saveAs(file);
    const xml = readFileSync(file, 'utf8');

    const esquema = spawnSync('xmllint', ['--noout', '--nonet', '--schema', XSD, file], { encoding: 'utf8' });
    expect(esquema.status, esquema.stderr).toBe(0);
    const firma = spawnSync('xmlsec1', ['--verify', '--pubkey-cert-pem', certPem, '--id-attr:Id', 'http://uri.etsi.org/01903/v1.3.2#:SignedProperties', file], { encoding: 'utf8' });
    expect(firma.status, firma.stderr).toBe(0);
    expect(firma.stderr).toContain('SignedInfo References (ok/all): 3/3');

    expect(xml).toContain('<TaxIdentificationNumber>P2807900B</TaxIdentificationNumber>');
    expect([...xml.matchAll(/<CentreCode>([^<]*)<\/CentreCode><RoleTypeCode>([^<]*)<\/RoleTypeCode>/g)].map((m) => `${m[2]} ${m[1]}`)).toEqual([
      '01 L01280796',
      '02 L01280796',
      '03 LA0001234',
    ]);
    // 2 × 12,345 € = 24,69 € + 21 % = 29,87 €: the invoice's total to the cent.
    expect(s.total).toBe(2_987);
    expect(xml).toContain('<InvoiceTotal>29.87</InvoiceTotal>');
  });
});
