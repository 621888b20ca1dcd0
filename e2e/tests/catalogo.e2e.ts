import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { login, openBrowser, screenshot, toggle, type Browser } from '../support/browser';

let b: Browser;
beforeEach(async () => {
  b = await openBrowser();
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async () => {
  await b.close();
});

/** A valid EAN-13 from 12 digits (GS1 check digit). */
function ean13(base: string): string {
  const sum = base.split('').reverse().reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return base + ((10 - (sum % 10)) % 10);
}

const BARCODE = ean13('843700012345');
const saved = (b: Browser) => b.page.getByText('Se ha completado la acción correctamente.').first().waitFor();

async function createMaestro(b: Browser, path: string, codigo: string, nombre: string, familia?: string) {
  const { page } = b;
  await page.goto(`/catalogo/${path}`);
  await page.getByLabel(/^Código/).fill(codigo);
  await page.getByLabel(/^Nombre/).fill(nombre);
  if (familia) await page.getByLabel(/^Familia/).selectOption({ label: familia });
  await page.getByRole('button', { name: 'Guardar' }).click();
  await saved(b);
}

describe('catálogo', () => {
  it('creates a family, a subfamily, a brand and an article with a barcode, finds it by search and by scanning, edits and deactivates it', async () => {
    const { page } = b;
    await createMaestro(b, 'familia/nueva-familia', 'E2EFAM', 'Ferretería e2e');
    await createMaestro(b, 'subfamilia/nueva-subfamilia', 'E2ESUB', 'Tornillería e2e', 'Ferretería e2e');
    await createMaestro(b, 'marca/nueva-marca', 'E2EMAR', 'Marca e2e');

    await page.goto('/catalogo/articulo/nuevo-articulo');
    await page.getByLabel(/^Código\W*$/).fill('E2E-001');
    await page.getByLabel(/^Descripción/).first().fill('Tornillo rosca chapa 4x30 e2e');
    await page.getByLabel(/^Familia/).selectOption({ label: 'Ferretería e2e' });
    await page.getByLabel(/^Subfamilia/).selectOption({ label: 'Tornillería e2e' });
    await page.getByLabel(/^Marca/).selectOption({ label: 'Marca e2e' });
    await page.getByLabel(/^PVP 1/).fill('9,99');
    await page.getByLabel(/^Código de barras/).fill(BARCODE);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await saved(b);
    await page.waitForURL(/\/catalogo\/articulo\/\d+$/);
    // 9,99 € with IVA 21 % is a net price of 8,2562 €, exactly.
    await expect.poll(() => page.getByLabel(/^Precio de venta \(tarifa 1\)/).inputValue()).toMatch(/^8,2562/);
    await screenshot(page, 'articulo');

    await page.goto('/catalogo/articulos');
    const search = page.getByRole('searchbox', { name: 'Buscar' });
    await search.fill('rosca e2e');
    // Words in any order, every one must match: only the new article is left.
    await page.getByText(/^1–1 de 1 resultados$/).waitFor();
    await page.getByRole('cell', { name: 'Tornillo rosca chapa 4x30 e2e' }).waitFor();
    await screenshot(page, 'articulos-busqueda');

    // A scanner types the code and presses Enter.
    await search.fill('');
    await search.pressSequentially(BARCODE, { delay: 5 });
    await search.press('Enter');
    await page.waitForURL(/\/catalogo\/articulo\/\d+$/);
    await expect.poll(() => page.getByLabel(/^Código de barras/).inputValue()).toBe(BARCODE);

    await page.getByLabel(/^Descripción/).first().fill('Tornillo rosca chapa 4x30 e2e zincado');
    await toggle(page.getByRole('switch', { name: /^Activo/ }));
    // An earlier success toast may still be on screen: wait for this save's own answer.
    const answer = page.waitForResponse((r) => r.url().includes('ac=editararticulo'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    const res = await answer;
    expect((await res.json()).RESULT).toBe('0');
    await page.reload();
    await expect.poll(() => page.getByLabel(/^Descripción/).first().inputValue()).toBe('Tornillo rosca chapa 4x30 e2e zincado');
    await expect.poll(() => page.getByRole('switch', { name: /^Activo/ }).isChecked()).toBe(false);
  });

  it('pages through the seeded catalogue and keeps the page when coming back from a record', async () => {
    const { page } = b;
    await page.goto('/catalogo/articulos');
    await page.getByLabel('Resultados por página').selectOption('10');
    await page.getByText(/^1–10 de \d+ resultados$/).waitFor();
    await page.getByRole('button', { name: 'Página siguiente' }).click();
    await page.getByText(/^11–20 de \d+ resultados$/).waitFor();
    await page.getByRole('row').nth(1).getByRole('link').first().click();
    await page.waitForURL(/\/catalogo\/articulo\/\d+$/);
    await page.goBack();
    await page.getByText(/^11–20 de \d+ resultados$/).waitFor();
  });

  it('refuses to delete a family that articles use, with the RESULT 2 toast', async () => {
    const { page } = b;
    await page.goto('/catalogo/familias');
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('E2EFAM');
    await page.getByRole('link', { name: 'E2EFAM' }).click();
    await page.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText('Acción no posible').waitFor();
    await page.getByText('No se ha podido completar la acción debido a que existen datos asociados a este elemento').waitFor();
  });

  it('switching materiales off hides it from the catalogue and its actions are refused', async () => {
    const { page } = b;
    await page.goto('/config');
    const sw = page.getByRole('switch', { name: /^Materiales\b/ });
    await sw.waitFor();
    if (!(await sw.isChecked())) {
      await toggle(sw);
      await page.getByRole('button', { name: 'Guardar' }).click();
      await saved(b);
    }
    await page.goto('/catalogo/articulos');
    const side = page.getByRole('navigation', { name: 'Productos' });
    await side.getByRole('link', { name: 'Materiales', exact: true }).waitFor();

    await page.goto('/config');
    await toggle(page.getByRole('switch', { name: /^Materiales\b/ }));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await saved(b);
    await page.goto('/catalogo/articulos');
    await side.getByRole('link', { name: 'Artículos', exact: true }).waitFor();
    expect(await side.getByRole('link', { name: 'Materiales', exact: true }).count()).toBe(0);
    const status = await page.evaluate(async () => (await fetch('/api/op.asp?ac=listadomateriales')).status);
    expect(status).toBe(403);
  });
});
