import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';
import { enEstado, estado, post } from '../support/documentos';

/**
 * Issue 16, each line says what operation it is: a Portuguese company with a NIF-IVA, whose lines default to an
 * intra-EU delivery (E5); an invoice to it typed in the screen takes E5 on its line, charges no IVA, is emitted, and
 * its PDF prints the exemption's legal ground (art. 25 of the IVA law). The tests build on each other.
 */

let b: Browser;
beforeEach(async () => {
  b = await openBrowser();
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await screenshot(b.page, `fallo-${ctx.task.name.slice(0, 20)}`);
  await b.close();
});

const tmp = mkdtempSync(path.join(tmpdir(), 'mtpv-operaciones-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CLIENTE = { nif: 'PT501964843', razon: 'Ferragens Lisboa e2e, Lda.', direccion: 'Rua Augusta 120', cp: '1100-053', poblacion: 'Lisboa' };
/** 2 × 3,50 € of a demo article at 21 % no other test touches: as E5, 7,00 € and no IVA. */
const ARTICULO = 'TAC-8';
const TOTAL = '7,00 €';
const LEYENDA = 'Entrega intracomunitaria exenta (art. 25 de la Ley 37/1992 del IVA)';

const s: { clienteId?: number; facturaUrl?: string; factura?: string } = {};

describe('operaciones', () => {
  it('creates a Portuguese customer with a NIF-IVA whose lines are intra-EU deliveries (E5)', async () => {
    const { page } = b;
    await encenderModulos(page, ['listadoclientes', 'listadofacturas'], ['Ventas', 'Facturas y rectificativas']);
    await page.goto('/ventas/cliente/nuevo-cliente');
    await page.getByLabel(/^País/).selectOption('PT');
    await page.getByLabel(/^Tipo de identificación/).selectOption('02');
    await page.getByLabel(/^Identificador/).fill(CLIENTE.nif);
    await page.getByLabel(/^Razón social/).fill(CLIENTE.razon);
    await page.getByLabel(/^Dirección/).fill(CLIENTE.direccion);
    await page.getByLabel(/^Código postal/).fill(CLIENTE.cp);
    await page.getByLabel(/^Población/).fill(CLIENTE.poblacion);
    await page.getByLabel(/^Operación/).selectOption('E5');
    const body = await post(page, 'editarcliente', () => page.getByRole('button', { name: 'Guardar' }).click());
    await page.waitForURL(/\/ventas\/cliente\/\d+$/);
    expect(body.data[0]).toMatchObject({ pais: 'PT', tipo_id: '02', nif: CLIENTE.nif, operacion: 'E5' });
    s.clienteId = body.data[0].id;
    // Read back, the form shows it.
    await page.reload();
    await expect.poll(() => page.getByLabel(/^Operación/).inputValue()).toBe('E5');
  });

  it('invoices it: the line takes E5, no IVA; emitted, its PDF prints the legend of art. 25', async () => {
    const { page } = b;
    await page.goto('/ventas/factura/nueva-factura');
    const cliente = page.getByRole('combobox', { name: /^Cliente/ });
    await cliente.pressSequentially('Ferragens', { delay: 5 });
    await page.getByRole('option', { name: /Ferragens Lisboa e2e/ }).waitFor();
    await cliente.press('Enter');
    await page.getByTestId('tercero').getByText(CLIENTE.razon).waitFor();
    await page.getByLabel(/^Almacén/).selectOption({ label: 'Almacén principal' });
    const entry = page.getByRole('combobox', { name: 'Añadir artículo' });
    await entry.pressSequentially(ARTICULO, { delay: 2 });
    await entry.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Cantidad de la línea 1');
    await page.keyboard.type('2');
    await page.getByLabel('Precio de la línea 1').fill('3,50');
    await expect.poll(() => page.getByLabel('Operación de la línea 1').inputValue()).toBe('E5');
    const totales = page.getByLabel('Totales');
    await totales.getByText('Base Exenta art. 25 (intracomunitaria)').waitFor();
    await expect.poll(async () => (await page.getByTestId('total').textContent())?.trim()).toBe(TOTAL);
    await screenshot(page, 'operaciones-factura-e5');

    const guardada = await post(page, 'editarfactura', () => page.getByRole('button', { name: 'Guardar' }).click());
    expect(guardada.data[0].lineas[0]).toMatchObject({ operacion: 'E5' });
    expect(guardada.data[0]).toMatchObject({ base: 700, iva: 0, total: 700 });
    await page.waitForURL(/\/ventas\/factura\/\d+$/);
    s.facturaUrl = page.url();
    await estado(page).getByRole('button', { name: 'Emitir', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Emitir' });
    const emitida = await post(page, 'emitirfactura', () => dialog.getByRole('button', { name: 'Emitir', exact: true }).click());
    s.factura = emitida.data[0].numero;
    await enEstado(page, 'Emitida');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Imprimir' }).click();
    const pdf = await download;
    const file = path.join(tmp, 'factura-e5.pdf');
    await pdf.saveAs(file);
    const texto = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(texto).toContain(s.factura!);
    expect(texto).toContain(CLIENTE.razon);
    expect(texto).toContain(LEYENDA);
    expect(texto).toMatch(/Exenta art\. 25 \(intracomunitaria\)\s+7,00 €\s+Exenta\s+0,00 €/);
    expect(texto).toMatch(new RegExp(`Total\\s+${TOTAL}`));
  });
});
