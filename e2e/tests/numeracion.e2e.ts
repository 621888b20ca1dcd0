import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with bench/
import { startServer } from '../../server/scripts/spawn-server.mjs';
import { ADMIN } from '../support/admin';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';
import { ok } from '../support/op';

/**
 * Issue 25, «every number accounted for», end to end on the demo's year (a server of its own started as `pnpm start`
 * does, MANAGER_DEMO=1, like demo.e2e.ts: the suite's shared server has no generated past). «Numeración de
 * facturas» shows, per serie, the numbers the demo cancelled as «Números anulados» and no number without a document;
 * its CSV says the same; its row opens the libro de facturas expedidas, where a cancelled invoice keeps its row as
 * «Anulada» with zero amounts.
 */

let server: { baseUrl: string; stop(): Promise<void> };
let b: Browser;
const tmp = mkdtempSync(path.join(tmpdir(), 'mtpv-numeracion-'));

beforeAll(async () => {
  server = await startServer({ quiet: true, env: { MANAGER_DEMO: '1', MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password } });
  b = await openBrowser(undefined, server.baseUrl);
}, 300_000);
afterAll(async () => {
  await b?.close();
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Waits for a report's answer for the screen (not the CSV's whole selection): its JSON. */
async function respuesta(page: Page, ac: string, accion: () => Promise<unknown>): Promise<{ RESULT: string; data: Record<string, unknown>[] }> {
  const res = page.waitForResponse((r) => {
    if (!r.url().includes('/op.asp')) return false;
    const u = new URL(r.url());
    return u.searchParams.get('ac') === ac && u.searchParams.get('porPagina') !== '10000';
  });
  await accion();
  return (await res).json();
}

const anio = () => Number(new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' }).slice(0, 4));

describe('Numeración de facturas', () => {
  it('the demo year: the cancelled numbers per serie, no number without a document, the CSV, and «Anulada» in the libro', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await encenderModulos(page, ['listadofacturas'], ['Ventas', 'Facturas y rectificativas']);

    // What the server answers for this year: serie A has cancelled invoices and every number 1..último is a document.
    const ejercicio = anio();
    const esperado = await ok(page, 'numeracionfacturas', { ejercicio, porPagina: 100 });
    const a = esperado.find((r) => r.serie === 'A');
    expect(a, JSON.stringify(esperado)).toBeDefined();
    expect(Number(a!.anuladas)).toBeGreaterThan(0);
    expect(a!.numeros_anulados).toMatch(/^\d/);
    for (const r of esperado) expect({ serie: r.serie, huecos: r.huecos }).toEqual({ serie: r.serie, huecos: 0 });

    // The screen: this year by default, one row per serie with its cancelled numbers.
    const body = await respuesta(page, 'numeracionfacturas', () => page.goto('/informes/numeracion-facturas'));
    expect(body.RESULT).toBe('0');
    await page.getByRole('heading', { name: 'Numeración de facturas', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('ejercicio')).toBe(String(ejercicio));
    const fila = page.locator('table tbody tr').filter({ has: page.getByRole('cell', { name: 'A', exact: true }) }).first();
    await fila.waitFor();
    const celdas = await fila.locator('td').allTextContents();
    expect(celdas).toContain(String(a!.numeros_anulados));
    expect(celdas).toContain(Number(a!.anuladas).toLocaleString('es-ES'));
    expect(celdas).toContain(Number(a!.emitidas).toLocaleString('es-ES'));
    await screenshot(page, 'informes-numeracion');

    // The CSV of the whole selection says the same.
    const descarga = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV' }).click();
    const csv = await descarga;
    expect(csv.suggestedFilename()).toMatch(/^numeracion-facturas_.*\.csv$/);
    const fichero = path.join(tmp, 'numeracion.csv');
    await csv.saveAs(fichero);
    const lineas = readFileSync(fichero, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    const cabecera = lineas[0]!.split(';');
    expect(cabecera.slice(0, 2)).toEqual(['Serie', 'Ejercicio']);
    for (const h of ['Anuladas', 'Números anulados', 'Huecos', 'Números sin documento']) expect(cabecera).toContain(h);
    const filaA = lineas.find((l) => l.startsWith('A;'));
    expect(filaA, lineas.join('\n')).toBeDefined();
    const campos = filaA!.split(';');
    expect(campos[cabecera.indexOf('Anuladas')]).toBe(String(a!.anuladas));
    expect(campos[cabecera.indexOf('Números anulados')]!.replace(/^"|"$/g, '')).toBe(String(a!.numeros_anulados));
    expect(campos[cabecera.indexOf('Huecos')]).toBe('0');

    // A cancelled invoice of the year, in the libro de facturas expedidas of its day: «Anulada», amounts 0.
    const libro = await ok(page, 'librofacturasexpedidas', { desde: `${ejercicio}-01-01`, hasta: `${ejercicio}-12-31`, serie_id: String(a!.serie_id), porPagina: 10000 });
    const anulada = libro.find((r) => r.estado === 'Anulada');
    expect(anulada, 'una factura anulada en el libro del año').toBeDefined();
    expect(anulada).toMatchObject({ base: 0, iva: 0, total: 0 });
    const dia = String(anulada!.fecha_expedicion).slice(0, 10);
    await respuesta(page, 'librofacturasexpedidas', () => page.goto(`/informes/libro-expedidas?desde=${dia}&hasta=${dia}&serie_id=${a!.serie_id}`));
    await page.getByRole('heading', { name: 'Libro de facturas expedidas', exact: true }).waitFor();
    const suya = page.locator('table tbody tr').filter({ hasText: String(anulada!.numero_factura) }).first();
    await suya.waitFor();
    const textos = await suya.locator('td').allTextContents();
    expect(textos).toContain('Anulada');
    expect(textos.filter((t) => /^0,00\s?€$/.test(t.trim())).length).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'informes-libro-anulada');
  }, 300_000);
});
