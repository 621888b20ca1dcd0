import { afterEach, describe, expect, it } from 'vitest';
import { login, openBrowser, type Browser } from '../support/browser';

/**
 * Issue 26, the clerk's keyboard and screen: at 1366 px a sale's lines show Importe and each row's buttons without
 * side-scrolling (the «Operación» select short), the suggestions ranked («torn» → Tornillo… before Destornillador);
 * at 390 px the invoice list keeps number, customer and total on each row and its filters fold under «Filtros».
 * With E2E_SHOTS, screenshots of both.
 */
let b: Browser;
afterEach(async () => {
  await b.close();
});

const shot = async (name: string) => {
  if (process.env.E2E_SHOTS) await b.page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: false });
};

describe('oficina (issue 26)', () => {
  it('1366 px: a new invoice from its customer, lines ranked and wholly in sight', async () => {
    b = await openBrowser({ width: 1366, height: 768 });
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    const cliente = await page.evaluate(async () => {
      const r = await (await fetch('/api/op.asp?ac=listadoclientes&porPagina=10')).json();
      return r.data[0] as { id: number; razon_social: string };
    });
    await page.goto(`/ventas/factura/nueva-factura?cliente_id=${cliente.id}`);
    await expect.poll(() => page.getByTestId('tercero').textContent()).toBe(cliente.razon_social);
    const entrada = page.getByRole('combobox', { name: 'Añadir artículo' });
    await entrada.fill('torn');
    const opciones = page.getByRole('listbox', { name: 'Artículos encontrados' }).getByRole('option');
    await opciones.first().waitFor();
    const textos = await opciones.allTextContents();
    expect(textos[0]).toMatch(/^TOR-/);
    expect(textos.at(-1)).toMatch(/^DES-PH2/);
    // Price and stock beside each.
    expect(textos[0]).toMatch(/Stock/);
    await entrada.press('Enter');
    await page.getByLabel('Cantidad de la línea 1').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Cantidad de la línea 1');
    // Ctrl+Intro: this line is done, back to the entry.
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Añadir artículo');
    await entrada.fill('ALI-180');
    await entrada.press('Enter');
    await page.getByLabel('Cantidad de la línea 2').waitFor();
    const medidas = await page.evaluate(() => {
      const tabla = document.querySelector('table[aria-label="Líneas"]') ?? document.querySelector('[data-linea]')!.closest('table')!;
      const caja = tabla.parentElement!;
      const th = Array.from(tabla.querySelectorAll('th')).find((t) => /importe/i.test(t.textContent ?? ''))!;
      const botones = Array.from(tabla.querySelectorAll('tbody tr td.acts button'));
      const derecha = Math.max(...botones.map((x) => x.getBoundingClientRect().right));
      return {
        scroll: caja.scrollWidth - caja.clientWidth,
        importe: th.getBoundingClientRect().right,
        botones: derecha,
        ancho: document.documentElement.clientWidth,
        operacion: (document.querySelector('select[data-campo="operacion"]') as HTMLElement).getBoundingClientRect().width,
      };
    });
    console.log('medidas 1366', JSON.stringify(medidas));
    await shot('lineas-1366');
    expect(medidas.scroll).toBeLessThanOrEqual(0);
    expect(medidas.importe).toBeLessThanOrEqual(medidas.ancho);
    expect(medidas.botones).toBeLessThanOrEqual(medidas.ancho);
  });

  it('390 px: the invoice list shows number, customer and total on each row; the filters fold', async () => {
    b = await openBrowser({ width: 390, height: 844 });
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/ventas/facturas');
    const cabeceras = page.locator('thead th');
    await cabeceras.first().waitFor();
    const visibles = await cabeceras.evaluateAll((ths) => ths.filter((t) => (t as HTMLElement).offsetParent !== null).map((t) => (t.textContent ?? '').replace(/[↕▲▼]/g, '').trim()));
    console.log('cabeceras 390', JSON.stringify(visibles));
    expect(visibles).toEqual(expect.arrayContaining(['Número', 'Cliente', 'Total']));
    expect(visibles).not.toContain('Fecha');
    const sinScroll = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    expect(sinScroll).toBe(true);
    // Folded: the Cobro filter hidden until «Filtros» opens them.
    expect(await page.getByLabel('Cobro').isVisible()).toBe(false);
    await shot('facturas-390-plegado');
    await page.getByRole('button', { name: /^Filtros/ }).click();
    expect(await page.getByLabel('Cobro').isVisible()).toBe(true);
    await shot('facturas-390-filtros');
  });
});
