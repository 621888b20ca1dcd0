import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';
import { facturaEmitida, ventasEncendidas } from '../support/documentos';
import { ok } from '../support/op';

/**
 * Issue 26, a clerk on a phone (390 × 844) with data: the invoice list shows Número, Cliente and Total on every row,
 * whole and inside the screen, and its filters fold under «Filtros»; Compras › Pagos shows each instalment's date,
 * supplier and amount, and its totals by supplier, inside the screen; the home page's «Pendiente» cards too.
 */

const ANCHO = 390;
let b: Browser;
beforeEach(async () => {
  b = await openBrowser({ width: ANCHO, height: 844 });
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async () => {
  await b.close();
});

/** Nothing wider than the phone: the page does not scroll sideways. */
const sinDesplazamiento = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(ANCHO);

/**
 * The element is shown, has text and lies whole inside the phone's width and inside the box that scrolls it sideways
 * (a table wider than its card: what is past the card's edge is not seen without scrolling).
 */
async function dentro(celda: Locator, que: string) {
  expect(await celda.isVisible(), `${que} visible`).toBe(true);
  expect(((await celda.textContent()) ?? '').trim(), `${que} con texto`).not.toBe('');
  const { izquierda, derecha, visibleDesde, visibleHasta } = await celda.evaluate((el) => {
    // Its content box: what is seen (a cell's padding may touch the scroll box's edge).
    const b = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const r = { left: b.left + Number.parseFloat(cs.paddingLeft), right: b.right - Number.parseFloat(cs.paddingRight) };
    let desde = 0;
    let hasta = window.innerWidth;
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) {
        const c = p.getBoundingClientRect();
        desde = Math.max(desde, c.left);
        hasta = Math.min(hasta, c.right);
      }
    }
    return { izquierda: r.left, derecha: r.right, visibleDesde: desde, visibleHasta: hasta };
  });
  expect(izquierda, `${que} empieza dentro`).toBeGreaterThanOrEqual(visibleDesde - 0.5);
  expect(derecha, `${que} acaba dentro`).toBeLessThanOrEqual(Math.min(visibleHasta, ANCHO) + 0.5);
}

/** The table's visible column headers, by name, and for each data row its cells under the headers named. */
async function celdas(tabla: Locator, nombres: string[]): Promise<Locator[][]> {
  const cabeceras = tabla.locator('thead th');
  const n = await cabeceras.count();
  const indices: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const th = cabeceras.nth(i);
    // Its name without the sort arrow.
    const texto = ((await th.textContent()) ?? '').replace(/[^\p{L}\p{N} ]/gu, '').trim();
    if (nombres.includes(texto) && (await th.isVisible())) indices[texto] = i;
  }
  expect(Object.keys(indices).sort(), 'columnas visibles').toEqual([...nombres].sort());
  const filas = tabla.locator('tbody tr');
  const m = await filas.count();
  expect(m, 'filas').toBeGreaterThan(0);
  const out: Locator[][] = [];
  for (let r = 0; r < m; r++) out.push(nombres.map((nombre) => filas.nth(r).locator('td, th').nth(indices[nombre])));
  return out;
}

describe('a phone (390 px) with data', () => {
  it('the invoice list: Número, Cliente and Total on each row, inside the screen; the filters fold under «Filtros»', async () => {
    const { page } = b;
    await ventasEncendidas(page);
    const factura = await facturaEmitida(page);
    await page.goto('/ventas/facturas');
    const tabla = page.getByRole('table', { name: /Facturas/ });
    await tabla.getByRole('link', { name: factura.numero, exact: true }).first().waitFor();
    await screenshot(page, 'telefono-facturas');
    await sinDesplazamiento(page);
    for (const [numero, cliente, total] of await celdas(tabla, ['Número', 'Cliente', 'Total'])) {
      await dentro(numero, 'Número');
      await dentro(cliente, 'Cliente');
      await dentro(total, 'Total');
      expect(await total.textContent()).toMatch(/\d,\d{2} €$/);
    }
    // Folded: only the search and «Filtros» above the list; opened, the filters show, inside the screen.
    const filtros = page.getByRole('button', { name: /^Filtros/ });
    expect(await filtros.getAttribute('aria-expanded')).toBe('false');
    const estado = page.getByRole('combobox', { name: 'Estado', exact: true });
    expect(await estado.isVisible()).toBe(false);
    await filtros.click();
    await estado.waitFor();
    await dentro(estado, 'Filtro Estado');
    await screenshot(page, 'telefono-facturas-filtros');
    await sinDesplazamiento(page);
  });

  it('Compras › Pagos: each instalment’s date, supplier and amount, and the totals by supplier, inside the screen; the home page’s «Pendiente» too', async () => {
    const { page } = b;
    await encenderModulos(
      page,
      ['listadoproveedores', 'listadoalbaranescompra', 'listadofacturasproveedor'],
      ['Compras', 'Albaranes de compra', 'Conciliación de proveedores'],
    );
    const almacen = (await ok(page, 'listadoalmacenes', { porPagina: 100 }))[0].id;
    const articulo = (await ok(page, 'listadoarticulos', { porPagina: 10 }))[0].id;
    const hoy = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' });
    const prov = (await ok(page, 'editarproveedor', {}, { nif: 'B63272603', razon_social: 'Almacenes del Teléfono e2e, S.L.', codigo_postal: '08005', forma_pago: 'transferencia' }))[0];
    const alb = (await ok(page, 'editaralbarancompra', {}, { fecha: hoy, proveedor_id: prov.id, almacen_id: almacen, lineas: [{ articulo_id: articulo, cantidad: 3_000, precio: 250_000 }] }))[0];
    // Due today: on Pagos and, this week's, on the home page.
    await ok(page, 'editarfacturaproveedor', {}, { proveedor_id: prov.id, numero_proveedor: 'TEL-390', fecha: hoy, total: alb.total, albaranes: [alb.id], vencimientos: [hoy] });
    // And one overdue, of four figures: its row carries «Vencido» beside the date, the widest a row gets.
    const ayer = new Date(Date.now() - 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' });
    const alb2 = (await ok(page, 'editaralbarancompra', {}, { fecha: ayer, proveedor_id: prov.id, almacen_id: almacen, lineas: [{ articulo_id: articulo, cantidad: 500_000, precio: 250_000 }] }))[0];
    await ok(page, 'editarfacturaproveedor', {}, { proveedor_id: prov.id, numero_proveedor: 'TEL-391', fecha: ayer, total: alb2.total, albaranes: [alb2.id], vencimientos: [ayer] });

    await page.goto('/compras/pagos');
    const lista = page.getByRole('table', { name: 'Vencimientos pendientes' });
    await lista.getByRole('row').filter({ hasText: 'TEL-390' }).waitFor();
    await lista.getByRole('row').filter({ hasText: 'TEL-391' }).getByText('Vencido').waitFor();
    await screenshot(page, 'telefono-pagos');
    await sinDesplazamiento(page);
    for (const [fecha, proveedor, pendiente] of await celdas(lista, ['Vencimiento', 'Proveedor', 'Pendiente'])) {
      await dentro(fecha, 'Vencimiento');
      await dentro(proveedor, 'Proveedor');
      await dentro(pendiente, 'Pendiente');
    }
    // «Pagar» sits under what is left, on the screen: one visible per row, inside the table's box.
    for (const numero of ['TEL-390', 'TEL-391']) {
      const pagar = lista.getByRole('button', { name: new RegExp(`^Pagar ${numero} `) }).locator('visible=true');
      expect(await pagar.count(), numero).toBe(1);
      await dentro(pagar, `Pagar ${numero}`);
    }
    const porProveedor = page.getByRole('table', { name: 'Pendiente por proveedor' });
    await porProveedor.scrollIntoViewIfNeeded();
    for (const [nombre, pendiente] of await celdas(porProveedor, ['Proveedor', 'Pendiente'])) {
      await dentro(nombre, 'Proveedor (por proveedor)');
      await dentro(pendiente, 'Pendiente (por proveedor)');
    }
    for (const cifra of await page.locator('dl[aria-label="Totales"] dd').all()) await dentro(cifra, 'Total');

    await page.goto('/');
    const seccion = page.getByRole('region', { name: 'Pendiente' });
    const tarjeta = seccion.getByRole('link').filter({ hasText: 'Pagos a proveedores de esta semana' });
    await tarjeta.waitFor();
    await screenshot(page, 'telefono-inicio');
    await sinDesplazamiento(page);
    const tarjetas = await seccion.getByRole('link').all();
    for (const t of tarjetas) await dentro(t, `Tarjeta ${((await t.textContent()) ?? '').slice(0, 30)}`);
    // One under the other, none over the next nor past the section (the chart comes after it).
    const cajas = await Promise.all(tarjetas.map((t) => t.boundingBox()));
    for (let i = 1; i < cajas.length; i++) expect(cajas[i]!.y, 'tarjeta sobre la siguiente').toBeGreaterThanOrEqual(cajas[i - 1]!.y + cajas[i - 1]!.height);
    const fin = (await seccion.boundingBox())!;
    expect(cajas.at(-1)!.y + cajas.at(-1)!.height, 'tarjeta fuera de su sección').toBeLessThanOrEqual(fin.y + fin.height + 0.5);
  });
});
