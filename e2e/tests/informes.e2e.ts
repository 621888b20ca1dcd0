import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';
import { facturaEmitida } from '../support/documentos';
import { api } from '../support/op';

/**
 * The reports (mf-informes) end to end on the real server: every report opens and answers; a filter is applied
 * and kept in the address; a row drills down; CSV and PDF are exported (the PDF opened as a picture with
 * pdftoppm and read back with pdftotext); a reload and a bare address find the same filters. One emitted invoice
 * of this month (C0001, one LLA-AJ8) makes sure the sales reports have a row.
 */

const hoy = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' });

/** One emitted invoice of today (C0001, one LLA-AJ8): the sales reports have a row of this month. */
const facturaDeHoy = async (page: Page) => (await facturaEmitida(page)).numero;

/** Waits for a report's answer (its action in the request) and answers its JSON. */
function respuesta(page: Page, ac: string, extra?: (u: URL) => boolean) {
  return page.waitForResponse((r) => {
    if (!r.url().includes('/op.asp')) return false;
    const u = new URL(r.url());
    return u.searchParams.get('ac') === ac && u.searchParams.get('porPagina') !== '10' && u.searchParams.get('porPagina') !== '100' && (!extra || extra(u));
  });
}

const filas = (page: Page) => page.locator('main table tbody tr, table tbody tr');

const REPORTES: [slug: string, ac: string, titulo: string][] = [
  ['info-ventas', 'informeventas', 'Ventas'],
  ['info-compras', 'informecompras', 'Compras'],
  ['info-inventario', 'informeinventario', 'Inventario valorado'],
  ['info-movimientos', 'informemovimientos', 'Movimientos de stock'],
  ['info-proveedores', 'informeproveedores', 'Proveedores'],
  ['info-clientes', 'informeclientes', 'Clientes'],
  ['info-articulos', 'informearticulos', 'Artículos'],
  ['info-tarifas', 'informetarifas', 'Tarifas y márgenes'],
  ['info-furgonetas', 'informefurgonetas', 'Furgonetas'],
  ['cierres-tpv', 'informecierrestpv', 'Cierres de TPV'],
  ['libro-expedidas', 'librofacturasexpedidas', 'Libro de facturas expedidas'],
  ['libro-recibidas', 'librofacturasrecibidas', 'Libro de facturas recibidas'],
  ['modelo-303', 'modelo303', 'Modelo 303'],
  ['modelo-347', 'modelo347', 'Modelo 347'],
  ['modelo-349', 'modelo349', 'Modelo 349'],
  ['registros-verifactu', 'informeregistros', 'Registros VERI*FACTU'],
];

let b: Browser;
const tmp = mkdtempSync(path.join(tmpdir(), 'mtpv-informes-'));
const estado: { factura?: string } = {};

beforeEach(async () => {
  b = await openBrowser();
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async () => {
  await b.close();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('Informes', () => {
  it('the menu has the group «Informes» with «Fiscal»; every report opens and answers', async () => {
    const { page } = b;
    await encenderModulos(
      page,
      ['listadoclientes', 'listadofacturas', 'listadoalmacenes', 'listadoproveedores', 'listadofacturasproveedor', 'informefurgonetas', 'informecierrestpv'],
      ['Ventas', 'Facturas y rectificativas', 'Almacenes', 'Compras', 'Conciliación de proveedores', 'Furgonetas', 'TPV'],
    );
    estado.factura = await facturaDeHoy(page);
    await page.goto('/');
    await page.getByRole('button', { name: /^Informes/ }).click();
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    await menu.getByRole('menuitem', { name: 'Ventas' }).first().waitFor();
    expect(await menu.getByText('Fiscal', { exact: true }).count()).toBe(1);

    for (const [slug, ac, titulo] of REPORTES) {
      const res = respuesta(page, ac);
      await page.goto(`/informes/${slug}`);
      await page.getByRole('heading', { name: titulo, exact: true }).waitFor();
      const r = await res;
      const body = await r.json();
      expect(r.status(), `${slug}: ${JSON.stringify(body).slice(0, 200)}`).toBe(200);
      expect(body.RESULT, slug).toBe('0');
      // The address carries the filters it was opened with.
      if (!['info-tarifas'].includes(slug)) expect(page.url(), slug).toMatch(/\?.+=/);
      await page.locator('table').first().waitFor();
      expect(await page.getByRole('alert').filter({ hasText: /No se ha podido|Error/ }).count(), slug).toBe(0);
    }
  });

  it('sales: a filter in the address, a drill-down, CSV and PDF, the same filters after a reload', async () => {
    const { page } = b;
    // This month, by customer.
    let res = respuesta(page, 'informeventas');
    await page.goto('/informes/info-ventas');
    await res;
    await page.getByRole('button', { name: 'Este mes' }).click();
    res = respuesta(page, 'informeventas', (u) => u.searchParams.get('agrupar') === 'cliente');
    await page.getByRole('combobox', { name: 'Agrupar por' }).selectOption('cliente');
    const body = await (await res).json();
    expect(body.data.length).toBeGreaterThan(0);
    expect(new URL(page.url()).searchParams.get('agrupar')).toBe('cliente');
    // The demo's C0001, whom the first test invoiced this month.
    const c0001 = (await api(page, 'listadoclientes', { porPagina: 100 })).data.find((r) => r.codigo === 'C0001');
    const cliente = (body.data as { cliente_id: number; nombre: string }[]).find((r) => r.cliente_id === c0001?.id);
    if (!cliente) throw new Error(`C0001 no está en ${JSON.stringify(body.data).slice(0, 300)}`);
    await page.locator('tfoot').getByText('Total', { exact: true }).waitFor();
    await screenshot(page, 'informes-ventas-cliente');

    // The customer's row opens its articles over the same period.
    const desde = new URL(page.url()).searchParams.get('desde');
    res = respuesta(page, 'informeventas', (u) => u.searchParams.get('agrupar') === 'articulo');
    await page.getByRole('link', { name: cliente.nombre, exact: true }).first().click();
    await res;
    let url = new URL(page.url());
    expect(url.searchParams.get('cliente_id')).toBe(String(cliente.cliente_id));
    expect(url.searchParams.get('desde')).toBe(desde);
    await page.getByText(/Más filtros \(1 aplicado\)/).waitFor();

    // CSV of the whole selection: a Spanish spreadsheet file with the totals.
    let download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV' }).click();
    const csv = await download;
    expect(csv.suggestedFilename()).toMatch(/^info-ventas_articulo_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const csvFile = path.join(tmp, 'ventas.csv');
    await csv.saveAs(csvFile);
    const text = readFileSync(csvFile, 'utf8');
    expect(text.startsWith('\uFEFFArtículo;Documentos;Unidades;Base;')).toBe(true);
    expect(text).toContain('LLA-AJ8');
    expect(text.trim().split('\r\n').at(-1)).toMatch(/^Total;/);

    // PDF: company, title, filters and page numbers, opened as a picture.
    download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF' }).click();
    const pdf = await download;
    const pdfFile = path.join(tmp, 'ventas.pdf');
    await pdf.saveAs(pdfFile);
    execFileSync('pdftoppm', ['-r', '80', '-png', '-f', '1', '-l', '1', '-singlefile', pdfFile, path.join(tmp, 'ventas')]);
    expect(existsSync(path.join(tmp, 'ventas.png'))).toBe(true);
    expect(statSync(path.join(tmp, 'ventas.png')).size).toBeGreaterThan(5_000);
    if (process.env.E2E_SHOTS) copyFileSync(path.join(tmp, 'ventas.png'), path.join(process.env.E2E_SHOTS, 'informes-ventas-pdf.png'));
    const pdfText = execFileSync('pdftotext', ['-layout', '-f', '1', '-l', '1', pdfFile, '-'], { encoding: 'utf8' });
    expect(pdfText).toContain('Comercial Demo');
    expect(pdfText).toContain('Ventas');
    expect(pdfText).toContain('Agrupado por: Artículo');
    expect(pdfText).toMatch(/Cliente: \S/);
    expect(pdfText).toContain('LLA-AJ8');
    expect(pdfText).toContain('Página 1 de 1');

    // A reload finds the same filters; so does the bare address (remembered for this user).
    const antes = page.url();
    await page.reload();
    await page.getByRole('heading', { name: 'Ventas', exact: true }).waitFor();
    expect(page.url()).toBe(antes);
    expect(await page.getByRole('combobox', { name: 'Agrupar por' }).inputValue()).toBe('articulo');
    expect(await page.getByLabel('Desde').inputValue()).toBe(desde);
    await page.getByText(/Más filtros \(1 aplicado\)/).waitFor();
    await page.goto('/informes/info-ventas');
    await page.waitForURL((u) => u.searchParams.get('cliente_id') === String(cliente.cliente_id));
    url = new URL(page.url());
    expect(url.searchParams.get('agrupar')).toBe('articulo');
    await screenshot(page, 'informes-ventas-articulo');
  });

  it('stock at a date drills to the movements, and a movement to its document', async () => {
    const { page } = b;
    const res = respuesta(page, 'informeinventario');
    await page.goto(`/informes/info-inventario?fecha=${hoy()}&agrupar=articulo&vista=todos`);
    await res;
    await page.getByRole('link', { name: 'LLA-AJ8', exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === '/informes/info-movimientos' && !!u.searchParams.get('articulo_id'));
    await page.getByRole('heading', { name: 'Movimientos de stock', exact: true }).waitFor();
    // The invoice of the first test is one of its movements; its row opens the invoice.
    const fila = filas(page).filter({ hasText: estado.factura ?? /FA?/ }).first();
    await fila.waitFor();
    await fila.getByRole('link').first().click();
    await page.waitForURL(/\/ventas\/factura\/\d+$/);
  });

  it('a phone (390 px) reads the sales by month', async () => {
    await b.close();
    b = await openBrowser({ width: 390, height: 844 });
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    const res = respuesta(page, 'informeventas');
    await page.goto('/informes/info-ventas?agrupar=mes');
    await res;
    await page.getByRole('button', { name: 'Este año' }).click();
    await page.locator('tfoot').getByText('Total', { exact: true }).waitFor();
    // Nothing wider than the screen but the table's own scroll box.
    const ancho = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(ancho).toBeLessThanOrEqual(390);
    await screenshot(page, 'informes-ventas-movil');
  });
});
