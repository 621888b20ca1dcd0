import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { login, openBrowser, screenshot, type Browser } from '../support/browser';

// axe-core's browser bundle, evaluated in the page through the DevTools protocol (the app's CSP
// allows no inline or foreign script, and needs not to).
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };

/** The serious and critical axe violations of the page as it is now, one line per element. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}): ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`));
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
