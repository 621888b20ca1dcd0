import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AXE, seriousViolations } from '../support/axe';
import { login, openBrowser, screenshot, type Browser } from '../support/browser';
import { facturaEmitida, ventasEncendidas } from '../support/documentos';

/** Only the axe rules `ids` on the page as it is now: the ones that passed (applied and held) and the violations. */
async function reglas(page: Page, ids: string[]): Promise<{ passes: string[]; violations: string[] }> {
  await page.evaluate(AXE);
  return page.evaluate(async (ids) => {
    type Result = { id: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ passes: Result[]; violations: Result[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ids }, resultTypes: ['passes', 'violations'] });
    return {
      passes: result.passes.map((r) => r.id).sort(),
      violations: result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`)),
    };
  }, ids);
}

let b: Browser;
beforeEach(async () => {
  b = await openBrowser();
});
afterEach(async () => {
  await b.close();
});

describe('accessibility (axe-core): no serious or critical violation', () => {
  it('login page', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // A back office is not for search engines.
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.evaluate(async () => (await fetch('/robots.txt')).text())).toBe('User-agent: *\nDisallow: /\n');
  });

  it('home, articles list, article record, configuration and usuarios', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('Nueva compra').waitFor();
    const found: Record<string, string[]> = {};
    found.inicio = await seriousViolations(page);

    await page.goto('/catalogo/articulos');
    await page.getByText(/^1–\d+ de \d+ resultados$/).waitFor();
    found.articulos = await seriousViolations(page);

    await page.getByRole('row').nth(1).getByRole('link').first().click();
    await page.waitForURL(/\/catalogo\/articulo\/\d+$/);
    await expect.poll(() => page.getByLabel(/^Descripción/).first().inputValue()).not.toBe('');
    found.articulo = await seriousViolations(page);

    await page.goto('/config');
    await page.getByRole('switch', { name: /^Ventas\b/ }).waitFor();
    found.configuracion = await seriousViolations(page);

    await page.goto('/config/usuarios');
    await page.getByText(/^1–\d+ de \d+ resultados$/).waitFor();
    found.usuarios = await seriousViolations(page);
    await screenshot(page, 'a11y-usuarios');

    expect(found).toEqual({ inicio: [], articulos: [], articulo: [], configuracion: [], usuarios: [] });
  });

  it('sales: clientes, a cliente, facturas, an emitted factura, new factura, pedido and parte, hfa, registros; VERI*FACTU configuration', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await ventasEncendidas(page);
    const factura = await facturaEmitida(page);
    const found: Record<string, string[]> = {};
    const nuevo = async (name: string, path: string) => {
      await page.goto(path);
      await page.getByRole('combobox', { name: 'Añadir artículo' }).waitFor();
      await page.getByRole('combobox', { name: /^Cliente/ }).waitFor();
      found[name] = await seriousViolations(page);
    };

    await page.goto('/ventas/clientes');
    await page.getByText(/^1–\d+ de \d+ resultados$/).waitFor();
    found.clientes = await seriousViolations(page);

    await page.getByRole('row').filter({ has: page.getByRole('link', { name: 'C0001', exact: true }) }).getByRole('link', { name: 'C0001', exact: true }).click();
    await page.waitForURL(/\/ventas\/cliente\/\d+$/);
    await expect.poll(() => page.getByLabel(/^Razón social/).inputValue()).not.toBe('');
    found.cliente = await seriousViolations(page);

    await page.goto('/ventas/facturas');
    await page.getByRole('link', { name: factura.numero, exact: true }).waitFor();
    found.facturas = await seriousViolations(page);

    await page.goto(`/ventas/factura/${factura.id}`);
    await page.getByRole('heading', { name: `Factura ${factura.numero}` }).waitFor();
    await page.getByRole('region', { name: 'Situación fiscal' }).getByRole('link', { name: 'Alta' }).waitFor();
    found.factura = await seriousViolations(page);
    await screenshot(page, 'a11y-factura');

    await nuevo('nuevaFactura', '/ventas/factura/nueva-factura');
    await nuevo('nuevoPedido', '/ventas/pedido/nuevo-pedido');
    await nuevo('nuevoParte', '/ventas/partes-de-trabajo/nuevo-parte');

    await page.goto('/ventas/hfa');
    await page.getByRole('heading', { name: 'Facturar albaranes' }).waitFor();
    await page.getByRole('button', { name: 'Previsualizar' }).waitFor();
    found.hfa = await seriousViolations(page);

    await page.goto('/ventas/registros');
    await page.getByRole('table', { name: 'Registros de facturación' }).getByRole('link', { name: factura.numero, exact: true }).waitFor();
    found.registros = await seriousViolations(page);

    await page.goto('/config/verifactu');
    await page.getByRole('switch', { name: /^Enviar los registros a la AEAT/ }).waitFor();
    found.verifactu = await seriousViolations(page);

    expect(found).toEqual({
      clientes: [],
      cliente: [],
      facturas: [],
      factura: [],
      nuevaFactura: [],
      nuevoPedido: [],
      nuevoParte: [],
      hfa: [],
      registros: [],
      verifactu: [],
    });
  });

  it('on a phone (390 px): the registros table scrolls by keyboard, a list’s checkbox column has a header name', async () => {
    const phone = await openBrowser({ width: 390, height: 844 });
    try {
      const { page } = phone;
      await login(page);
      await page.waitForURL((u) => u.pathname === '/');
      await ventasEncendidas(page);
      const factura = await facturaEmitida(page);
      const found: Record<string, unknown> = {};

      // No record refused by the AEAT (sending is off): an empty table, still wider than the phone, with nothing focusable in it.
      await page.goto('/ventas/registros?estado_envio=incorrecto');
      await page.getByText('Todavía no hay registros', { exact: false }).waitFor();
      found.registrosVacio = await reglas(page, ['scrollable-region-focusable']);

      await page.goto('/ventas/registros');
      await page.getByRole('combobox', { name: 'Estado de envío' }).selectOption('');
      await page.getByRole('table', { name: 'Registros de facturación' }).getByRole('link', { name: factura.numero, exact: true }).waitFor();
      // Wider than the phone: a region the keyboard can reach and scroll.
      const region = page.getByRole('region', { name: 'Registros de facturación' });
      expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      found.registros = await reglas(page, ['scrollable-region-focusable']);
      found.registrosGraves = await seriousViolations(page);
      await region.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

      await page.goto('/catalogo/articulos');
      await page.getByText(/^1–\d+ de \d+ resultados$/).waitFor();
      found.articulos = await reglas(page, ['empty-table-header', 'scrollable-region-focusable']);
      found.articulosGraves = await seriousViolations(page);
      expect(await page.getByRole('columnheader', { name: 'Selección' }).count()).toBe(1);

      expect(found).toEqual({
        registrosVacio: { passes: ['scrollable-region-focusable'], violations: [] },
        registros: { passes: ['scrollable-region-focusable'], violations: [] },
        registrosGraves: [],
        articulos: { passes: ['empty-table-header', 'scrollable-region-focusable'], violations: [] },
        articulosGraves: [],
      });
    } finally {
      await phone.close();
    }
  });

  it('in every application colour: home, a list with its side menu and a record', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'Configuración' }).click();
    await page.getByRole('button', { name: 'Color Azul' }).waitFor();
    const colours = await page.getByRole('button', { name: /^Color / }).evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? el.textContent ?? ''));
    await page.keyboard.press('Escape');
    expect(colours.length).toBe(6);
    const found: Record<string, string[]> = {};
    for (const colour of colours) {
      await page.goto('/');
      await page.getByRole('button', { name: 'Configuración' }).click();
      await page.getByRole('button', { name: colour }).click();
      await page.keyboard.press('Escape');
      await page.getByText('Nueva compra').waitFor();
      found[`${colour}: inicio`] = await seriousViolations(page);
      await page.goto('/catalogo/familias');
      await page.getByText(/^1–\d+ de \d+ resultados$/).waitFor();
      found[`${colour}: familias`] = await seriousViolations(page);
      await page.getByRole('row').nth(1).getByRole('link').first().click();
      await page.waitForURL(/\/catalogo\/familia\/\d+$/);
      await expect.poll(() => page.getByLabel(/^Nombre/).first().inputValue()).not.toBe('');
      found[`${colour}: familia`] = await seriousViolations(page);
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });
});
