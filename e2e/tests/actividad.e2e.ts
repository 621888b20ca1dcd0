import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { login, openBrowser, screenshot, type Browser } from '../support/browser';

let b: Browser;
beforeEach(async () => {
  b = await openBrowser({ width: 390, height: 844 });
});
afterEach(async () => {
  await b.close();
});

describe('Configuración › Actividad', () => {
  it('on a phone: a master changed shows who, what (a link to its record) and the fields before and after', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    const codigo = `E2E${Date.now() % 100000}`;
    // A familia created and renamed, as its screen would send them.
    const id = await page.evaluate(async (codigo) => {
      const post = (ac: string, body: object) =>
        fetch(`/api/op.asp?ac=${ac}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
      const creada = await post('editarfamilia', { codigo, nombre: 'Jardinería' });
      await post('editarfamilia', { id: creada.data[0].id, codigo, nombre: 'Jardín y riego' });
      return creada.data[0].id as number;
    }, codigo);

    await page.goto('/config/actividad');
    await page.getByRole('heading', { name: 'Actividad' }).waitFor();
    // On a phone the list's filters fold under «Filtros» (issue 26).
    await page.getByRole('button', { name: /^Filtros/ }).click();
    await page.getByLabel('Entidad').selectOption('familia');
    const enlace = page.getByRole('link', { name: `Familia ${codigo}` }).first();
    await enlace.waitFor();
    expect(await enlace.getAttribute('href')).toBe(`/catalogo/familia/${id}`);
    const fila = page.getByRole('row').filter({ has: page.getByText('Ver cambios (1)') });
    await fila.getByText('Ver cambios (1)').click();
    await fila.getByRole('cell', { name: 'Jardín y riego' }).waitFor();
    expect(await fila.getByRole('cell', { name: 'Jardinería', exact: true }).count()).toBe(1);
    await screenshot(page, 'config-actividad-390');
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
