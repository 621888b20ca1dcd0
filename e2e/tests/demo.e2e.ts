import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with bench/
import { startServer } from '../../server/scripts/spawn-server.mjs';
import { ADMIN } from '../support/admin';
import { login, openBrowser, screenshot, type Browser } from '../support/browser';
import { leerPdf } from '../support/pdf';
import { api } from '../support/op';

/**
 * «Empezar con mis datos» end to end (issue 22), on a server of its own started as `pnpm start` does with the demo
 * (MANAGER_DEMO=1: its generated year): the suite's shared server is a live company (MANAGER_DEMO=0) the other files
 * build their stories on, and removing a demo there would take their documents with it. The band says the company is
 * the demo on every screen (phone width too); the dialog says what goes with the server's counts; after it the books
 * are empty, the band goes, and the first invoice is number 1 of its serie.
 */

/** An invoice of today in serie A to the demo's C0001, emitted through op.asp as the invoice screen does: its number. */
async function emitirFactura(page: Page): Promise<string> {
  const id = async (ac: string, pick: (r: Record<string, unknown>) => boolean, query: Record<string, string | number> = {}) => {
    const res = await api(page, ac, { porPagina: 100, ...query });
    const row = res.data.find(pick);
    expect(row, `${ac}: ${JSON.stringify(res).slice(0, 300)}`).toBeDefined();
    return row!.id as number;
  };
  const fecha = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' });
  const borrador = await api(page, 'editarfactura', {}, {
    fecha,
    cliente_id: await id('listadoclientes', (r) => r.codigo === 'C0001'),
    almacen_id: await id('listadoalmacenes', (r) => r.codigo === 'PRINCIPAL'),
    serie_id: await id('listadoseries', (r) => r.codigo === 'A'),
    lineas: [{ articulo_id: await id('listadoarticulos', () => true), cantidad: 1_000 }],
  });
  expect(borrador.RESULT, JSON.stringify(borrador)).toBe('0');
  const emitida = await api(page, 'emitirfactura', {}, { id: borrador.data[0].id });
  expect(emitida.RESULT, JSON.stringify(emitida)).toBe('0');
  return emitida.data[0].numero as string;
}

const banda = (page: Page) => page.getByRole('note', { name: 'Empresa de demostración' });
const es = (n: unknown) => Number(n).toLocaleString('es-ES');

let server: { baseUrl: string; stop(): Promise<void> };
let b: Browser;

beforeAll(async () => {
  server = await startServer({ quiet: true, env: { MANAGER_DEMO: '1', MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password } });
  b = await openBrowser(undefined, server.baseUrl);
});
afterAll(async () => {
  await b?.close();
  await server?.stop();
});

describe('Empezar con mis datos', () => {
  it('the demo says so on every screen, at phone width too', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await banda(page).waitFor();
    expect((await banda(page).textContent())?.replace(/\s+/g, ' ').trim()).toBe('Empresa de demostración · Empezar con mis datos');
    await page.goto('/catalogo/articulos');
    await banda(page).waitFor();

    const movil = await openBrowser({ width: 390, height: 844 }, server.baseUrl);
    try {
      await login(movil.page);
      await movil.page.waitForURL((u) => u.pathname === '/');
      const caja = await banda(movil.page).boundingBox();
      expect(caja).not.toBeNull();
      expect(caja!.x).toBeGreaterThanOrEqual(0);
      expect(caja!.x + caja!.width).toBeLessThanOrEqual(390);
      expect(caja!.height).toBeLessThan(60);
      // Nothing wider than the phone: the page never scrolls sideways.
      expect(await movil.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(movil.page, 'demo-banda-movil');
    } finally {
      await movil.close();
    }
  });

  it('the band leads to Utilidades; the dialog says what goes and stays with the counts; afterwards the books are empty and the band is gone', async () => {
    const { page } = b;
    await banda(page).getByRole('link', { name: 'Empezar con mis datos' }).click();
    await page.waitForURL((u) => u.pathname === '/config/utilidades');
    const estado = (await api(page, 'listadodemo')).data[0] as { demo: boolean; borra: Record<string, number>; conserva: Record<string, number> };
    expect(estado.demo).toBe(true);
    expect(estado.borra.documentos).toBeGreaterThan(1000);

    await page.getByRole('button', { name: 'Empezar con mis datos…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Empezar con mis datos' });
    const borra = dialog.getByRole('region', { name: 'Se elimina' });
    await borra.getByText(`${es(estado.borra.documentos)} documentos de compra, venta y almacén (${es(estado.borra.facturas)} facturas y rectificativas, ${es(estado.borra.tickets)} tickets)`).waitFor();
    await borra.getByText(`${es(estado.borra.registros)} registros de facturación VERI*FACTU`).waitFor();
    const conserva = dialog.getByRole('region', { name: 'Se conserva' });
    const maestros = `${es(estado.conserva.articulos)} artículos, ${es(estado.conserva.clientes)} clientes y ${es(estado.conserva.proveedores)} proveedores`;
    await conserva.getByText(maestros).waitFor();
    await screenshot(page, 'demo-dialogo');
    await dialog.getByRole('button', { name: 'Empezar con mis datos' }).click();

    await page.getByText(/^Se han eliminado \d+ documentos/).waitFor();
    await page.getByText(/La empresa trabaja con sus datos/).waitFor();
    await banda(page).waitFor({ state: 'detached' });
    // The books: no invoice, ticket or record left; the masters kept.
    for (const ac of ['listadofacturas', 'listadotickets', 'listadoalbaranesventa', 'listadoregistrosfacturacion']) {
      const res = await api(page, ac);
      expect(res.total ?? res.data.length, ac).toBe(0);
    }
    const informe = await api(page, 'informeventas', { desde: '2000-01-01', hasta: '2100-12-31' });
    expect(informe.data).toEqual([]);
    expect((await api(page, 'listadodemo')).data[0]).toMatchObject({ demo: false, conserva: { articulos: estado.conserva.articulos, clientes: estado.conserva.clientes } });

    // Another screen, and a fresh load: still no band.
    await page.goto('/ventas/facturas');
    await page.getByRole('heading', { name: /Facturas/ }).first().waitFor();
    expect(await banda(page).count()).toBe(0);
  });

  it('the first invoice emitted is number 1 of its serie, the first of the chain, for production', async () => {
    const { page } = b;
    const numero = await emitirFactura(page);
    expect(numero).toMatch(/^A \d{4}\/000001$/);
    await page.goto('/ventas/facturas');
    await page.getByRole('cell', { name: numero, exact: true }).first().waitFor();
    const registros = await api(page, 'listadoregistrosfacturacion');
    expect(registros.data).toHaveLength(1);
    expect(String(registros.data[0].xml)).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
    expect(registros.data[0]).toMatchObject({ entorno: 'produccion', demo: 0 });
    // Its PDF, read back: the production QR with its number, nothing of the demo's legend; «verificable» only if sending
    // was on when it was made (docs/fiscal-impresion.md) — here it is not yet, so the QR alone.
    const [f] = (await api(page, 'listadofacturas', { porPagina: 10 })).data.filter((x) => x.numero === numero);
    await page.goto(`/ventas/factura/${f.id}`);
    await page.getByRole('heading', { name: `Factura ${numero}` }).waitFor();
    const pdf = await leerPdf(page, () => page.getByRole('button', { name: 'Imprimir' }).click());
    expect(pdf.qr.startsWith('https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?')).toBe(true);
    expect(pdf.qr).toContain(`numserie=${encodeURIComponent(numero)}`);
    expect(pdf.texto).toContain(numero);
    expect(pdf.texto).not.toMatch(/DEMOSTRACIÓN|PRUEBA|enviado/);
    expect(pdf.texto).toContain(registros.data[0].verifactu === 1 ? 'Factura verificable en la sede electrónica de la AEAT' : 'QR tributario');
  });
});
