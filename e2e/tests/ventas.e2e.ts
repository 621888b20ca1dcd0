import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, toggle, type Browser } from '../support/browser';
import { enEstado, enlaces, estado, filas as celdas, get, post, valor } from '../support/documentos';

/** Tables read as the clerk sees them: the typed values of the lines editor's boxes. */
const filas = (table: Locator) => celdas(table, { valores: true });

/**
 * Sales end to end, as a shop's clerk does them, on the demo company: a new customer under recargo de
 * equivalencia; an order of four lines typed with the keyboard, confirmed (it reserves: «Disponible» is stock −
 * reserved) and served in two parts (each serving makes its albarán, linked both ways); hfa of both albaranes
 * into one invoice in serie A, emitted with its registro de facturación (the albaranes Finalizado, the totals
 * with recargo as computed by hand, and the article's units sold in the catalogue); the invoice's PDF
 * from «Imprimir», its fiscal QR decoded (pdftoppm + zbarimg) back to the AEAT's URL; a rectificativa R1 by
 * differences in serie R with one negative line, emitted; and the VERI*FACTU records with their chained
 * huellas, the chain check green. The tests run in order and build on each other (one story), on demo
 * articles with stock (seed-catalogo.ts gives it to the first twelve) that no other test touches.
 */

let b: Browser;
beforeEach(async () => {
  b = await openBrowser();
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async (ctx) => {
  // With E2E_SHOTS, the screen a step failed on.
  if (ctx.task.result?.state === 'fail') await screenshot(b.page, `fallo-${ctx.task.name.slice(0, 20)}`);
  await b.close();
});

const tmp = mkdtempSync(path.join(tmpdir(), 'mtpv-ventas-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CLIENTE = {
  nif: 'B45712395',
  razon: 'Droguería Olmos e2e, S.L.',
  comercial: 'OlmosE2E',
  cp: '45002',
  provincia: 'Toledo',
  iban: 'ES6000491500051234567892',
};
const PRINCIPAL = 'Almacén principal';
/** The article followed in the catalogue (15 in the principal, none elsewhere); MAR-500 is the one rectified. */
const ALICATE = 'ALI-180';
const MARTILLO = 'MAR-500';
/** código, cantidad, precio, descuento as typed; all at 21 % IVA. Stock in the principal: 21, 15, 22, 8. */
const LINEAS: [string, string, string, string?][] = [
  [MARTILLO, '4', '12,00'],
  [ALICATE, '6', '8,00'],
  ['CIN-5M', '5', '5,50'],
  ['DES-PH2', '3', '3,40', '10'],
];
const STOCK: Record<string, number> = { [MARTILLO]: 21, [ALICATE]: 15, 'CIN-5M': 22, 'DES-PH2': 8 };

/*
 * By hand (docs/fiscal.md: one group per rate, base to cents, IVA and recargo half-up):
 * 4 × 12,00 + 6 × 8,00 + 5 × 5,50 + 3 × 3,40 × 0,90 = 48,00 + 48,00 + 27,50 + 9,18 = 132,68 €;
 * IVA 21 % 27,8628 → 27,86 €; R.E. 5,2 % 6,89936 → 6,90 €; total 167,44 €.
 * First albarán (4 MAR-500, 2 ALI-180, 3 DES-PH2): 73,18 € + 15,37 € + 3,81 € = 92,36 €.
 * Second albarán (4 ALI-180, 5 CIN-5M): 59,50 € + 12,50 € (12,495) + 3,09 € = 75,09 €.
 * The invoice is computed on its lines, not added up from the albaranes (92,36 + 75,09 = 167,45).
 * Rectificativa: −1 MAR-500: −12,00 € − 2,52 € − 0,62 € (0,624) = −15,14 €.
 */
const TOTAL = { base: '132,68 €', iva: '27,86 €', recargo: '6,90 €', total: '167,44 €', importeQr: '167.44' };

/** Filled by the earlier steps, read by the later ones. */
const s: {
  clienteId?: number;
  pedido?: string;
  pedidoUrl?: string;
  albaran1?: string;
  albaran2?: string;
  factura?: string;
  facturaUrl?: string;
  huellaFactura?: string;
  rectificativa?: string;
} = {};

const opcionElegida = (select: Locator) => select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
const re = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));



/** The code of the order's article a line's article cell (code and description) starts with. */
const codigoDe = (celda: string) => LINEAS.map(([c]) => c).find((c) => celda.startsWith(c)) ?? celda;

/** «Disponible: n» beside each line's quantity, in the lines' order (— while unknown). */
const disponibles = (page: Page) =>
  page.locator('tr[data-testid^="linea-"]').evaluateAll((rows) => rows.map((r) => /^Disponible: (-?[\d.]+)$/.exec(r.querySelector('.disp')?.textContent ?? '')?.[1] ?? '—'));

type Ficha = { stock: Record<string, string>; precioMedioVenta: string; vendidas: string };

/** The article's record in the catalogue: stock per warehouse (those holding something) and in total, its sales figures. */
async function fichaArticulo(page: Page, codigo: string): Promise<Ficha> {
  const res = await page.evaluate(async (c) => (await fetch(`/api/op.asp?ac=listadoarticulos&barras=${encodeURIComponent(c)}`)).json(), codigo);
  await page.goto(`/catalogo/articulo/${res.data[0].id}`);
  const cifra = (label: string) => page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');
  await cifra('Unidades vendidas').waitFor();
  const table = page.getByRole('table', { name: 'Stock por almacén' });
  await table.waitFor();
  // Per warehouse and the total (the rows of its locations aside: a sale's lines carry none).
  const stock = Object.fromEntries((await filas(table)).filter(([almacen, n]) => n !== '0' && !almacen.startsWith('Ubicación ')).map(([almacen, n]) => [almacen, n]));
  return { stock, precioMedioVenta: (await cifra('Precio medio de venta').textContent()) ?? '', vendidas: (await cifra('Unidades vendidas').textContent()) ?? '' };
}

/** Opens the serving dialog from the order's bar. */
async function abrirServir(page: Page) {
  await estado(page).getByRole('button', { name: 'Servir', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Servir' });
  await dialog.getByRole('table', { name: 'Líneas a servir' }).waitFor();
  return dialog;
}

/** Picks a party in a search box by typing its trade name. */
async function elegirCliente(page: Page, combobox: Locator) {
  await combobox.pressSequentially(CLIENTE.comercial, { delay: 5 });
  await page.getByRole('option', { name: re(CLIENTE.razon) }).waitFor();
  await combobox.press('Enter');
}

describe('ventas', () => {
  it('the demo company has ventas, its documents and hfa on (switches them on in the configuration otherwise)', async () => {
    const { page } = b;
    await encenderModulos(
      page,
      ['listadoclientes', 'listadopedidosventa', 'listadoalbaranesventa', 'listadofacturas', 'hfapropuesta&desde=2026-01-01&hasta=2026-01-01'],
      ['Ventas', 'Pedidos de venta', 'Albaranes de venta', 'Facturas y rectificativas', 'Facturar albaranes'],
    );
    await page.goto('/ventas');
    await page.waitForURL(/\/ventas\/clientes$/);
    const side = page.getByRole('navigation', { name: 'Ventas' });
    for (const entrada of ['Clientes', 'Pedidos', 'Albaranes', 'Facturas', 'Rectificativas', 'Facturar albaranes', 'Registros de facturación'])
      await side.getByRole('link', { name: entrada, exact: true }).waitFor();
    // Nothing sold yet of the article followed.
    expect(await fichaArticulo(page, ALICATE)).toEqual({ stock: { [PRINCIPAL]: '15', Total: '15' }, precioMedioVenta: expect.stringMatching(/ €$/), vendidas: '0' });
  });

  it('creates a customer under recargo de equivalencia: NIF checked, the postal code fills the province', async () => {
    const { page } = b;
    await page.goto('/ventas/clientes');
    await page.getByRole('link', { name: 'Nuevo cliente' }).or(page.getByRole('button', { name: 'Nuevo cliente' })).click();
    await page.waitForURL(/\/ventas\/cliente\/nuevo-cliente$/);
    // A wrong control letter: not saved.
    await page.getByLabel(/^NIF/).fill('B45712396');
    await page.getByLabel(/^Razón social/).fill(CLIENTE.razon);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('El NIF no es válido').waitFor();
    expect(page.url()).toMatch(/\/nuevo-cliente$/);

    await page.getByLabel(/^NIF/).fill(CLIENTE.nif);
    await page.getByLabel(/^Nombre comercial/).fill(CLIENTE.comercial);
    await page.getByLabel(/^Dirección/).fill('Calle de la Plata, 9');
    await page.getByLabel(/^Código postal/).fill(CLIENTE.cp);
    await valor(page.getByLabel(/^Provincia/), CLIENTE.provincia);
    await page.getByLabel(/^Población/).fill('Toledo');
    await page.getByLabel(/^Email/).fill('compras@drogueria-olmos-e2e.es');
    await page.getByLabel(/^IBAN/).fill(CLIENTE.iban);
    await page.getByLabel(/^Forma de pago/).selectOption({ label: 'Recibo domiciliado a 30 días' });
    await toggle(page.getByRole('switch', { name: /^Recargo de equivalencia/ }));
    await expect.poll(() => page.getByRole('switch', { name: /^Recargo de equivalencia/ }).isChecked()).toBe(true);
    await screenshot(page, 'ventas-cliente');
    const body = await post(page, 'editarcliente', () => page.getByRole('button', { name: 'Guardar' }).click());
    await page.waitForURL(/\/ventas\/cliente\/\d+$/);
    s.clienteId = body.data[0].id;
    expect(body.data[0]).toMatchObject({ recargo: 1, nif: CLIENTE.nif });
    const codigo: string = body.data[0].codigo;
    expect(codigo).toMatch(/^C\d{4}$/);
    await page.getByRole('heading', { name: `Cliente ${codigo}` }).waitFor();
    await page.getByText('Todavía no hay ventas a este cliente.').waitFor();
    expect(await page.getByRole('switch', { name: /^Recargo de equivalencia/ }).isChecked()).toBe(true);

    // In the list, found by its trade name.
    await page.goto('/ventas/clientes');
    await page.getByRole('searchbox', { name: 'Buscar' }).fill(CLIENTE.comercial);
    const fila = page.getByRole('row').filter({ has: page.getByRole('link', { name: codigo }) });
    await fila.getByText(CLIENTE.razon).waitFor();
    await fila.getByText(CLIENTE.nif).waitFor();
  });

  it('types an order of four lines with the keyboard; confirmed, it reserves: «Disponible» is stock − reserved', async () => {
    const { page } = b;
    await page.goto('/ventas/pedidos');
    await page.getByRole('link', { name: 'Nuevo pedido' }).or(page.getByRole('button', { name: 'Nuevo pedido' })).click();
    await page.waitForURL(/\/ventas\/pedido\/nuevo-pedido$/);
    await elegirCliente(page, page.getByRole('combobox', { name: /^Cliente/ }));
    await page.getByTestId('tercero').getByText(CLIENTE.razon).waitFor();
    // The customer's terms come with it.
    await page.getByRole('note', { name: 'Condiciones del cliente' }).getByText('Tarifa 1 · Recargo de equivalencia').waitFor();
    await expect.poll(() => opcionElegida(page.getByLabel(/^Forma de pago/))).toBe('Recibo domiciliado a 30 días');
    await page.getByLabel(/^Almacén/).selectOption({ label: PRINCIPAL });

    // Code, Tab to its quantity, Intro to the price, Intro to the discount, Intro through IVA back to the entry.
    const entry = page.getByRole('combobox', { name: 'Añadir artículo' });
    const foco = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    for (const [i, [codigo, cantidad, precio, descuento]] of LINEAS.entries()) {
      const n = i + 1;
      await entry.pressSequentially(codigo, { delay: 2 });
      await entry.press('Tab');
      await expect.poll(foco).toBe(`Cantidad de la línea ${n}`);
      await page.keyboard.type(cantidad);
      await page.keyboard.press('Enter');
      await expect.poll(foco).toBe(`Precio de la línea ${n}`);
      await page.keyboard.type(precio);
      await page.keyboard.press('Enter');
      await expect.poll(foco).toBe(`Descuento de la línea ${n}`);
      if (descuento) await page.keyboard.type(descuento);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await expect.poll(foco).toBe('Añadir artículo');
    }
    await expect.poll(() => entry.getAttribute('aria-busy')).toBe('false');
    const totales = page.getByLabel('Totales');
    await totales.getByText(`${TOTAL.base} · IVA ${TOTAL.iva} · R.E. ${TOTAL.recargo}`).waitFor();
    await totales.getByText(TOTAL.total).waitFor();
    // Nothing reserved yet: what there is.
    await expect.poll(() => disponibles(page)).toEqual(LINEAS.map(([c]) => String(STOCK[c])));
    await screenshot(page, 'ventas-pedido-lineas');

    const body = await post(page, 'editarpedidoventa', () => page.getByRole('button', { name: 'Guardar' }).click());
    s.pedido = body.data[0].numero;
    await page.waitForURL(/\/ventas\/pedido\/\d+$/);
    s.pedidoUrl = page.url();
    await page.getByRole('heading', { name: `Pedido de venta ${s.pedido}` }).waitFor();
    await enEstado(page, 'Pendiente');
    await expect.poll(() => disponibles(page)).toEqual(LINEAS.map(([c]) => String(STOCK[c])));

    await post(page, 'confirmarpedidoventa', () => estado(page).getByRole('button', { name: 'Confirmar', exact: true }).click());
    await enEstado(page, 'Confirmado');
    // Its own units are reserved now: 21 − 4, 15 − 6, 22 − 5, 8 − 3.
    await expect.poll(() => disponibles(page)).toEqual(['17', '9', '17', '5']);
    await screenshot(page, 'ventas-pedido-confirmado');
  });

  it('serves part of it: Enviado parcial, its albarán linked both ways', async () => {
    const { page } = b;
    await page.goto(s.pedidoUrl!);
    await enEstado(page, 'Confirmado');
    const dialog = await abrirServir(page);
    // Everything pending is offered, with what is available beside.
    await expect.poll(async () => (await filas(dialog.getByRole('table', { name: 'Líneas a servir' }))).map((f) => [codigoDe(f[0]), f[1], f[2]])).toEqual([
      [MARTILLO, '4', '17'],
      [ALICATE, '6', '9'],
      ['CIN-5M', '5', '17'],
      ['DES-PH2', '3', '5'],
    ]);
    await valor(dialog.getByLabel(`Cantidad servida de ${ALICATE}`), '6');
    // More than pending is refused on the spot.
    await dialog.getByLabel(`Cantidad servida de ${ALICATE}`).fill('7');
    await dialog.getByText('No se puede servir más de lo pendiente').waitFor();
    await expect.poll(() => dialog.getByRole('button', { name: 'Servir', exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel(`Cantidad servida de ${ALICATE}`).fill('2');
    await dialog.getByLabel('No servir CIN-5M').check();
    await screenshot(page, 'ventas-servir-parcial');
    const body = await post(page, 'servirpedidoventa', () => dialog.getByRole('button', { name: 'Servir', exact: true }).click());
    s.albaran1 = body.data[0].hijos.at(-1).numero;
    await enEstado(page, 'Enviado parcial');
    // # · artículo · cantidad · pendiente …
    const lineas = page.getByRole('table', { name: 'Líneas del pedido de venta' });
    await expect.poll(async () => (await filas(lineas)).map((f) => [codigoDe(f[1]), f[3]])).toEqual([
      [MARTILLO, '0'],
      [ALICATE, '4'],
      ['CIN-5M', '5'],
      ['DES-PH2', '0'],
    ]);
    // What left is no longer in stock, what is pending stays reserved: 17 − 0, 13 − 4, 22 − 5, 5 − 0.
    await expect.poll(() => disponibles(page)).toEqual(['17', '9', '17', '5']);
    await enlaces(page).getByRole('link', { name: `Albarán de venta ${s.albaran1}` }).click();
    await page.waitForURL(/\/ventas\/albaran\/\d+$/);
    await page.getByRole('heading', { name: `Albarán de venta ${s.albaran1}` }).waitFor();
    await enEstado(page, 'Pendiente');
    await enlaces(page).getByRole('link', { name: `Pedido de venta ${s.pedido}` }).waitFor();
    await page.getByTestId('tercero').getByText(CLIENTE.razon).waitFor();
    const albaran = page.getByRole('table', { name: 'Líneas del albarán de venta' });
    await expect.poll(async () => (await filas(albaran)).map((f) => [codigoDe(f[1]), f[2]])).toEqual([
      [MARTILLO, '4'],
      [ALICATE, '2'],
      ['DES-PH2', '3'],
    ]);
    // 48,00 + 16,00 + 9,18 = 73,18 €; IVA 15,37 €; R.E. 3,81 €.
    await page.getByLabel('Totales').getByText('73,18 € · IVA 15,37 € · R.E. 3,81 €').waitFor();
    await page.getByLabel('Totales').getByText('92,36 €').waitFor();
    await screenshot(page, 'ventas-albaran-1');
  });

  it('serves the rest: Enviado total, a second albarán', async () => {
    const { page } = b;
    await page.goto(s.pedidoUrl!);
    await enEstado(page, 'Enviado parcial');
    const dialog = await abrirServir(page);
    // Only what is still pending, all of it by default.
    await valor(dialog.getByLabel(`Cantidad servida de ${ALICATE}`), '4');
    await valor(dialog.getByLabel('Cantidad servida de CIN-5M'), '5');
    expect(await dialog.getByLabel(`Cantidad servida de ${MARTILLO}`).count()).toBe(0);
    const body = await post(page, 'servirpedidoventa', () => dialog.getByRole('button', { name: 'Servir', exact: true }).click());
    s.albaran2 = body.data[0].hijos.at(-1).numero;
    expect(s.albaran2).not.toBe(s.albaran1);
    await enEstado(page, 'Enviado total');
    expect(await estado(page).getByRole('button', { name: 'Servir', exact: true }).count()).toBe(0);
    await enlaces(page).getByRole('link', { name: `Albarán de venta ${s.albaran1}` }).waitFor();
    await enlaces(page).getByRole('link', { name: `Albarán de venta ${s.albaran2}` }).waitFor();
    // Nothing reserved any more: the stock left, 21 − 4, 15 − 6, 22 − 5, 8 − 3.
    await expect.poll(() => disponibles(page)).toEqual(['17', '9', '17', '5']);
    await screenshot(page, 'ventas-pedido-enviado');

    await enlaces(page).getByRole('link', { name: `Albarán de venta ${s.albaran2}` }).click();
    await page.waitForURL(/\/ventas\/albaran\/\d+$/);
    await page.getByRole('heading', { name: `Albarán de venta ${s.albaran2}` }).waitFor();
    await enlaces(page).getByRole('link', { name: `Pedido de venta ${s.pedido}` }).waitFor();
    // 32,00 + 27,50 = 59,50 €; IVA 12,495 → 12,50 €; R.E. 3,094 → 3,09 €.
    await page.getByLabel('Totales').getByText('59,50 € · IVA 12,50 € · R.E. 3,09 €').waitFor();
    await page.getByLabel('Totales').getByText('75,09 €').waitFor();
  });

  it('invoices both albaranes with hfa: one invoice in serie A with recargo, emitted; the albaranes Finalizado; units sold in the catalogue', async () => {
    const { page } = b;
    await page.goto('/ventas/hfa');
    await page.getByRole('heading', { name: 'Facturar albaranes' }).waitFor();
    const hoy = await page.getByLabel(/^Hasta/).inputValue();
    expect(hoy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.getByLabel(/^Desde/).fill(hoy);
    await expect.poll(() => opcionElegida(page.getByLabel(/^Serie/))).toMatch(/^A · /);
    await page.getByRole('radio', { name: 'Solo los elegidos' }).check();
    await elegirCliente(page, page.getByRole('combobox', { name: /^Añadir cliente/ }));
    await page.getByRole('list', { name: 'Clientes elegidos' }).getByText(CLIENTE.razon).waitFor();
    await get(page, 'hfapropuesta', () => page.getByRole('button', { name: 'Previsualizar' }).click());
    const propuesta = page.getByRole('table', { name: 'Propuesta de facturación' });
    await propuesta.waitFor();
    const [fila, pie, ...resto] = await filas(propuesta);
    expect(resto).toEqual([]);
    // One invoice: the customer with both albaranes (each with its own total), computed on their lines.
    expect(fila[1]).toContain(CLIENTE.razon);
    expect(fila[1]).toContain(`Albarán ${s.albaran1}`);
    expect(fila[1]).toContain('92,36 €');
    expect(fila[1]).toContain(`Albarán ${s.albaran2}`);
    expect(fila[1]).toContain('75,09 €');
    expect(fila.slice(2)).toEqual([TOTAL.base, TOTAL.iva, TOTAL.recargo, TOTAL.total]);
    expect(pie.slice(1)).toEqual(['1 factura', TOTAL.base, TOTAL.iva, TOTAL.recargo, TOTAL.total]);
    await screenshot(page, 'ventas-hfa-propuesta');

    await page.getByRole('button', { name: 'Facturar (1)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Facturar' });
    await confirm.getByText(`Se harán y emitirán 1 factura por ${TOTAL.total}`).waitFor();
    const body = await post(page, 'facturarhfa', () => confirm.getByRole('button', { name: 'Facturar', exact: true }).click());
    expect(body.data).toHaveLength(1);
    s.factura = body.data[0].numero;
    expect(s.factura).toMatch(new RegExp(`^A ${hoy.slice(0, 4)}/\\d{6}$`));
    await page.getByText('Se ha emitido 1 factura con sus registros de facturación.').waitFor();
    const hechas = page.getByRole('table', { name: 'Facturas emitidas' });
    expect(await filas(hechas)).toEqual([[s.factura!, CLIENTE.razon, TOTAL.total]]);
    await screenshot(page, 'ventas-hfa-hecha');

    // The invoice: emitted, its record and huella, from both albaranes; the figures by hand.
    await hechas.getByRole('link', { name: s.factura }).click();
    await page.waitForURL(/\/ventas\/factura\/\d+$/);
    s.facturaUrl = page.url();
    await page.getByRole('heading', { name: `Factura ${s.factura}` }).waitFor();
    await enEstado(page, 'Emitida');
    const fiscal = page.getByRole('region', { name: 'Situación fiscal' });
    await fiscal.getByRole('link', { name: 'Alta' }).waitFor();
    s.huellaFactura = (await fiscal.getByRole('button', { name: /^Huella / }).getAttribute('title')) ?? '';
    expect(s.huellaFactura).toMatch(/^[0-9A-F]{64}$/);
    await enlaces(page).getByRole('link', { name: `Albarán de venta ${s.albaran1}` }).waitFor();
    await enlaces(page).getByRole('link', { name: `Albarán de venta ${s.albaran2}` }).waitFor();
    const totales = page.getByLabel('Totales');
    await totales.getByText(`${TOTAL.base} · IVA ${TOTAL.iva} · R.E. ${TOTAL.recargo}`).waitFor();
    await totales.getByText('Recargo de equivalencia').waitFor();
    await totales.getByText(TOTAL.total).waitFor();
    // Emitted: nothing to edit.
    expect(await page.getByRole('combobox', { name: 'Añadir artículo' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Guardar' }).count()).toBe(0);
    await screenshot(page, 'ventas-factura');

    // Both albaranes are invoiced.
    await page.goto('/ventas/albaranes');
    const filaDe = (n: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: n }) });
    await filaDe(s.albaran1!).getByText('Finalizado').waitFor();
    await filaDe(s.albaran2!).getByText('Finalizado').waitFor();

    // The catalogue: six alicates sold at 8,00 €, nine left.
    expect(await fichaArticulo(page, ALICATE)).toEqual({ stock: { [PRINCIPAL]: '9', Total: '9' }, precioMedioVenta: '8,00 €', vendidas: '6' });
  });

  it("prints the invoice: its PDF's fiscal QR decodes to the AEAT's URL with the company's NIF, number, date and total", async () => {
    const { page } = b;
    await page.goto('/config');
    const nif = await page.getByLabel(/^NIF/).inputValue();
    expect(nif).toMatch(/^[A-Z0-9]{9}$/);

    await page.goto(s.facturaUrl!);
    await page.getByRole('heading', { name: `Factura ${s.factura}` }).waitFor();
    await enEstado(page, 'Emitida');
    const fecha = await page.getByLabel(/^Fecha/).inputValue();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Imprimir' }).click();
    const pdf = await download;
    expect(pdf.suggestedFilename()).toBe(`${s.factura!.replace(/[^\w-]+/g, '-')}.pdf`);
    const file = path.join(tmp, 'factura.pdf');
    await pdf.saveAs(file);

    // Page 1 at 200 dpi, its QR read back.
    execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-l', '1', '-singlefile', file, path.join(tmp, 'factura')]);
    const qr = execFileSync('zbarimg', ['-q', '--raw', '-S*.disable', '-Sqrcode.enable', path.join(tmp, 'factura.png')], { encoding: 'utf8' }).trim();
    const [a, m, d] = fecha.split('-');
    // Issue 22: the QR's host and the legend are what the invoice's record was made for (stored on it), never the
    // setting of the day. The e2e company is live (MANAGER_DEMO=0): its records are made for «Producción»; «verificable»
    // only when sending was on when it was made (a live company not sending yet prints the QR alone).
    const texto = execFileSync('pdftotext', ['-layout', '-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' });
    const id = Number(new URL(s.facturaUrl!).pathname.split('/').pop());
    const registro = await page.evaluate(async (id) => (await (await fetch(`/api/op.asp?ac=listadofacturas&id=${id}`)).json()).data[0].registro, id);
    expect(registro).toMatchObject({ entorno: 'produccion', demo: 0 });
    const esperado =
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR' +
      `?nif=${encodeURIComponent(nif)}&numserie=${encodeURIComponent(s.factura!)}&fecha=${encodeURIComponent(`${d}-${m}-${a}`)}&importe=${encodeURIComponent(TOTAL.importeQr)}`;
    expect(qr).toBe(esperado);

    // And the PDF prints what the record shows: the QR first, before the company and the title.
    expect(texto).toContain('QR tributario:');
    expect(texto.indexOf('QR tributario:')).toBeLessThan(texto.indexOf(s.factura!));
    if (registro.verifactu === 1) expect(texto).toContain('Factura verificable en la sede electrónica de la AEAT');
    else expect(texto).not.toContain('verificable');
    expect(texto).not.toMatch(/PRUEBA|DEMOSTRACI|enviado/);
    expect(texto).toContain(s.factura!);
    expect(texto).toContain(CLIENTE.razon);
    expect(texto).toMatch(new RegExp(`Recargo de equivalencia\\s+${TOTAL.recargo}`));
    expect(texto).toMatch(new RegExp(`Total\\s+${TOTAL.total}`));
  });

  it('the invoice record reads well on a phone (390 px)', async () => {
    const phone = await openBrowser({ width: 390, height: 844 });
    try {
      const { page } = phone;
      await login(page);
      await page.waitForURL((u) => u.pathname === '/');
      await page.goto(s.facturaUrl!);
      await page.getByRole('heading', { name: `Factura ${s.factura}` }).waitFor();
      await page.getByLabel('Totales').getByText(TOTAL.total).waitFor();
      await screenshot(page, 'ventas-factura-390');
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });

  it('rectifies the invoice: R1 by differences in serie R, one unit back as a negative line, emitted', async () => {
    const { page } = b;
    await page.goto(s.facturaUrl!);
    await enEstado(page, 'Emitida');
    await page.getByRole('button', { name: 'Rectificar' }).click();
    await page.waitForURL(/\/ventas\/rectificativa\/nueva-rectificativa\?factura=\d+$/);
    const rectificada = page.getByRole('table', { name: 'Líneas de la factura rectificada' });
    await rectificada.waitFor();
    // The invoice preselected with its customer; R1 first, by differences, in serie R.
    await page.getByTestId('tercero').getByText(CLIENTE.razon).waitFor();
    await expect.poll(() => opcionElegida(page.getByLabel(/^Factura rectificada/))).toMatch(new RegExp(`^${s.factura!.replace('/', '\\/')} · `));
    await expect.poll(() => opcionElegida(page.getByLabel(/^Tipo de rectificativa/))).toMatch(/^R1 · /);
    expect(await opcionElegida(page.getByLabel(/^Modo/))).toBe('Por diferencias');
    await expect.poll(() => opcionElegida(page.getByLabel(/^Serie/))).toMatch(/^R · /);

    await rectificada.getByRole('button', { name: `Rectificar ${MARTILLO}` }).click();
    await valor(page.getByLabel('Cantidad de la línea 1'), '-4');
    await page.getByLabel('Cantidad de la línea 1').fill('-1');
    const totales = page.getByLabel('Totales');
    await totales.getByText('-12,00 € · IVA -2,52 € · R.E. -0,62 €').waitFor();
    // Every figure the total adds up, the negative recargo too.
    await expect.poll(() => totales.evaluate((el) => el.textContent)).toContain('Base imponible-12,00 €IVA-2,52 €Recargo de equivalencia-0,62 €Total-15,14 €');
    await screenshot(page, 'ventas-rectificativa-borrador');
    const guardada = await post(page, 'editarrectificativa', () => page.getByRole('button', { name: 'Guardar' }).click());
    expect(guardada.data[0]).toMatchObject({ tipo_factura: 'R1', modo_rectificacion: 'diferencias', total: -1514 });
    await page.waitForURL(/\/ventas\/rectificativa\/\d+$/);
    await enEstado(page, 'Borrador');

    await estado(page).getByRole('button', { name: 'Emitir', exact: true }).click();
    const emitida = await post(page, 'emitirrectificativa', () => page.getByRole('dialog', { name: 'Emitir' }).getByRole('button', { name: 'Emitir', exact: true }).click());
    s.rectificativa = emitida.data[0].numero;
    expect(s.rectificativa).toMatch(/^R \d{4}\/\d{6}$/);
    await enEstado(page, 'Emitida');
    await page.getByRole('heading', { name: `Factura rectificativa ${s.rectificativa}` }).waitFor();
    const fiscal = page.getByRole('region', { name: 'Situación fiscal' });
    await fiscal.getByRole('link', { name: s.factura }).waitFor();
    await fiscal.getByRole('link', { name: 'Alta' }).waitFor();
    await screenshot(page, 'ventas-rectificativa');

    // The unit is back in stock.
    const ficha = await fichaArticulo(page, MARTILLO);
    expect(ficha.stock).toEqual({ [PRINCIPAL]: '18', Total: '18' });
  });

  it('lists both records with their huellas, chained, and «Comprobar cadena» finds the chain correct', async () => {
    const { page } = b;
    const listado = get(page, 'listadoregistrosfacturacion', () => page.goto('/ventas/registros'));
    const body = await listado;
    const tabla = page.getByRole('table', { name: 'Registros de facturación' });
    const fila = (n: string) => tabla.getByRole('row').filter({ has: page.getByRole('link', { name: n, exact: true }) });
    await fila(s.factura!).waitFor();
    await fila(s.rectificativa!).waitFor();
    type Registro = { num_serie: string; tipo: string; tipo_factura: string; huella: string; huella_anterior: string; importe_total: string; orden: number };
    const registros: Registro[] = body.data;
    const alta = registros.find((r) => r.num_serie === s.factura)!;
    const rect = registros.find((r) => r.num_serie === s.rectificativa)!;
    expect(alta).toMatchObject({ tipo: 'alta', tipo_factura: 'F1', importe_total: TOTAL.importeQr, huella: s.huellaFactura });
    expect(rect).toMatchObject({ tipo: 'alta', tipo_factura: 'R1', importe_total: '-15.14', huella_anterior: alta.huella });
    expect(rect.orden).toBe(alta.orden + 1);
    // Each row shows its invoice, type, amount and huella (shortened, whole on a click).
    await fila(s.factura!).getByText(TOTAL.total).waitFor();
    await fila(s.rectificativa!).getByText('-15,14 €').waitFor();
    const corta = (h: string) => `${h.slice(0, 8)}…${h.slice(-4)}`;
    await fila(s.factura!).getByRole('button', { name: `Huella ${corta(alta.huella)}: ver entera` }).waitFor();
    await fila(s.rectificativa!).getByRole('button', { name: `Huella ${corta(rect.huella)}: ver entera` }).click();
    await fila(s.rectificativa!).getByText(rect.huella).waitFor();

    await get(page, 'comprobarregistrosfacturacion', () => page.getByRole('button', { name: 'Comprobar cadena' }).click());
    await page.getByRole('status').getByText('La cadena de registros es correcta').waitFor();
    await screenshot(page, 'ventas-registros');
  });
});
