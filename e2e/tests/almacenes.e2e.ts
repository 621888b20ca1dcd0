import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';
import { enEstado, estado, filas, valor } from '../support/documentos';

/**
 * The warehouse section end to end, on the demo company (flag `almacenes` on): a new warehouse and a
 * location; a stock count by scanning; a transfer received in part, the receipt undone and received
 * in full; a loss; and all of it on the article's record in the catalogue. The tests run in order
 * and build on each other (one story), on two demo articles that have no stock anywhere at first,
 * so every figure is known: BAR-NOG750 and BRO-50 (seed-catalogo.ts, articles 13 and 15).
 */

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
  const sum = base
    .split('')
    .reverse()
    .reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return base + ((10 - (sum % 10)) % 10);
}
/** The demo articles' barcodes: 84123450 + the article's position (seed-catalogo.ts). */
const barras = (n: number) => ean13(`84123450${String(n).padStart(4, '0')}`);

const BARNIZ = { codigo: 'BAR-NOG750', barras: barras(13) };
const BROCHA = { codigo: 'BRO-50', barras: barras(15) };
const ALMACEN = { codigo: 'E2EALM', nombre: 'Almacén e2e' };
const TIENDA = 'Tienda centro';

/** Filled by the earlier steps, read by the later ones. */
const numeros: { inventario?: string; movimiento?: string; perdida?: string } = {};


/** Runs a state action from the bar, answering its confirmation when it asks one. */
async function accion(page: Page, label: string, opts: { confirmar?: boolean } = {}) {
  const answer = page.waitForResponse((r) => r.url().includes('/op.asp') && r.request().method() === 'POST');
  await estado(page).getByRole('button', { name: label, exact: true }).click();
  if (opts.confirmar) await page.getByRole('dialog').getByRole('button', { name: label, exact: true }).click();
  const res = await answer;
  expect((await res.json()).RESULT).toBe('0');
}

/** Saves the document on screen and waits for its record's address; answers its number («MOV 2026/000001»). */
async function guardarDocumento(page: Page, ruta: RegExp): Promise<string> {
  const answer = page.waitForResponse((r) => /ac=editar(movimiento|inventario|perdida)\b/.test(r.url()));
  await page.getByRole('button', { name: 'Guardar' }).click();
  const res = await answer;
  const body = await res.json();
  expect(body.RESULT, JSON.stringify(body)).toBe('0');
  await page.waitForURL(ruta);
  const numero: string = body.data[0].numero;
  await page.getByRole('heading', { name: numero }).waitFor();
  return numero;
}

/** Scans a barcode into the lines editor's entry box: the code and Intro, as a scanner types it. */
async function escanear(page: Page, codigo: string) {
  const entry = page.getByRole('combobox', { name: 'Añadir artículo' });
  await entry.pressSequentially(codigo, { delay: 2 });
  await entry.press('Enter');
}

/** A negative quantity as es-ES shows it (hyphen or minus sign). */
const cantidad = (n: number) => expect.stringMatching(new RegExp(`^[-−]${Math.abs(n)}$`));

/** Waits for an input to show exactly `value`. */


/** The id of a demo article by its code, as the lines editor finds it. */
async function articuloId(page: Page, codigo: string): Promise<number> {
  const res = await page.evaluate(async (c) => (await fetch(`/api/op.asp?ac=listadoarticulos&barras=${encodeURIComponent(c)}`)).json(), codigo);
  return res.data[0].id;
}

/**
 * The article's record in the catalogue, «Stock por almacén»: warehouse → [stock, en tránsito], and
 * the «Total» row. Warehouses listed with 0 and nothing on its way are left out (the record may list
 * every warehouse); empty when the article has no stock anywhere.
 */
async function stockDelArticulo(page: Page, codigo: string): Promise<Record<string, [string, string]>> {
  await page.goto(`/catalogo/articulo/${await articuloId(page, codigo)}`);
  const table = page.getByRole('table', { name: 'Stock por almacén' });
  await table.or(page.getByText('Sin existencias en ningún almacén.')).waitFor();
  if (!(await table.isVisible())) return {};
  return Object.fromEntries(
    (await filas(table)).filter(([, stock, transito]) => stock !== '0' || !!transito).map(([almacen, stock, transito]) => [almacen, [stock, transito ?? '']]),
  );
}

describe('almacenes', () => {
  it('the demo company has the almacenes section on (switches it on in the configuration otherwise)', async () => {
    const { page } = b;
    await encenderModulos(page, ['listadoalmacenes'], ['Almacenes']);
    await page.goto('/almacenes');
    await page.getByRole('link', { name: 'PRINCIPAL' }).waitFor();
    await page.getByRole('link', { name: 'TIENDA' }).waitFor();
    // Neither article of the story has stock yet.
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({});
    expect(await stockDelArticulo(page, BROCHA.codigo)).toEqual({});
  });

  it('creates a warehouse and a location inside it', async () => {
    const { page } = b;
    await page.goto('/almacenes');
    await page.getByRole('link', { name: 'Nuevo almacén' }).or(page.getByRole('button', { name: 'Nuevo almacén' })).click();
    await page.waitForURL(/\/almacenes\/almacen\/nuevo-almacen$/);
    await page.getByLabel(/^Código/).fill(ALMACEN.codigo);
    await page.getByLabel(/^Nombre/).fill(ALMACEN.nombre);
    await page.getByLabel(/^Dirección/).fill('Polígono Las Mercedes, nave 4, Madrid');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/almacenes\/almacen\/\d+$/);
    await page.getByRole('heading', { name: `Almacén ${ALMACEN.codigo}` }).waitFor();
    // A new warehouse holds nothing.
    await page.getByText('Valor total: 0,00 €').waitFor();

    await page.getByRole('link', { name: 'Nueva ubicación' }).or(page.getByRole('button', { name: 'Nueva ubicación' })).click();
    await page.waitForURL(/\/almacenes\/ubicacion\/nueva-ubicacion/);
    // The warehouse comes chosen from its record.
    await expect.poll(() => page.getByLabel(/^Almacén/).evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toContain(ALMACEN.nombre);
    await page.getByLabel(/^Código/).fill('E2E-01-1');
    await page.getByLabel(/^Descripción/).fill('Pasillo e2e, estantería 1, balda 1');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/almacenes\/ubicacion\/\d+$/);

    await page.goto('/almacenes/ubicaciones');
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('E2E-01');
    const fila = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'E2E-01-1' }) });
    await fila.getByText(ALMACEN.nombre).waitFor();
    await screenshot(page, 'almacenes-ubicaciones');
  });

  it('counts stock by scanning: each scan adds one, a typed count overrides; finishing sets the stock to what was counted', async () => {
    const { page } = b;
    await page.goto('/almacenes/inventario/nuevo-inventario');
    await page.getByLabel(/^Almacén/).first().selectOption({ label: ALMACEN.nombre });
    const contado = (n: number) => page.getByLabel(`Contado de la línea ${n}`);
    for (let i = 1; i <= 4; i++) {
      await escanear(page, BARNIZ.barras);
      await valor(contado(1), String(i));
    }
    await escanear(page, BROCHA.barras);
    await valor(contado(2), '1');
    await escanear(page, BROCHA.barras);
    await valor(contado(2), '2');
    // Still two lines: a second scan adds to its article's line.
    expect(await page.getByTestId('linea-3').count()).toBe(0);
    // Typing the count overrides the scans.
    await contado(2).fill('5');
    const totales = page.getByLabel('Totales');
    await totales.getByText('9', { exact: true }).waitFor();
    await screenshot(page, 'almacenes-inventario-escaneo');

    numeros.inventario = await guardarDocumento(page, /\/almacenes\/inventario\/\d+$/);
    await enEstado(page, 'Pendiente');
    await accion(page, 'Finalizar', { confirmar: true });
    await enEstado(page, 'Finalizado');
    // The adjustment is counted − theoretical (nothing was there).
    const lineas = page.getByRole('table', { name: 'Líneas' });
    await expect.poll(() => filas(lineas)).toEqual([
      ['1', `${BARNIZ.codigo}Barniz para madera color nogal 750 ml`, '', '0', '4', '+4'],
      ['2', `${BROCHA.codigo}Brocha plana 50 mm cerda natural`, '', '0', '5', '+5'],
    ]);
    await estado(page).getByRole('button', { name: 'Deshacer finalización' }).waitFor();
    await screenshot(page, 'almacenes-inventario-finalizado');

    // The warehouse's record shows what it holds now.
    await page.goto('/almacenes');
    await page.getByRole('link', { name: ALMACEN.codigo }).click();
    await page.waitForURL(/\/almacenes\/almacen\/\d+$/);
    const stock = page.getByRole('row').filter({ has: page.getByRole('link', { name: BARNIZ.codigo }) });
    await expect.poll(async () => (await stock.getByRole('cell').allInnerTexts()).slice(0, 3)).toEqual([BARNIZ.codigo, 'Barniz para madera color nogal 750 ml', '4']);
    const brocha = page.getByRole('row').filter({ has: page.getByRole('link', { name: BROCHA.codigo }) });
    await expect.poll(async () => (await brocha.getByRole('cell').allInnerTexts())[2]).toBe('5');
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({ [ALMACEN.nombre]: ['4', ''], Total: ['4', ''] });
  });

  it('transfers two lines to another warehouse, receives part of it, undoes the receipt exactly and receives the rest', async () => {
    const { page } = b;
    await page.goto('/almacenes/movimiento/nuevo-movimiento');
    await page.getByLabel(/^Almacén de origen/).selectOption({ label: ALMACEN.nombre });
    await page.getByLabel(/^Almacén de destino/).selectOption({ label: TIENDA });
    // Tab picks the article and goes to its quantity.
    const entry = page.getByRole('combobox', { name: 'Añadir artículo' });
    await entry.pressSequentially(BARNIZ.barras, { delay: 2 });
    await entry.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Cantidad de la línea 1');
    await page.getByLabel('Cantidad de la línea 1').fill('3');
    await page.getByLabel('Cantidad de la línea 1').press('Enter');
    await escanear(page, BROCHA.barras);
    await page.getByLabel('Cantidad de la línea 2').fill('4');
    await page.getByLabel('Totales').getByText('7', { exact: true }).waitFor();
    await screenshot(page, 'almacenes-movimiento-lineas');

    numeros.movimiento = await guardarDocumento(page, /\/almacenes\/movimiento\/\d+$/);
    const ficha = page.url();
    await enEstado(page, 'Creado');
    await accion(page, 'Enviar', { confirmar: true });
    await enEstado(page, 'Enviado');
    // The stock left the origin and is on its way to the destination.
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['0', '3'], Total: ['1', '3'] });

    // A partial receipt: 2 of the 3 varnishes arrive, the brushes are missing.
    await page.goto(ficha);
    await enEstado(page, 'Enviado');
    await estado(page).getByRole('button', { name: 'Recibir', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Recibir' });
    await valor(dialog.getByLabel(`Cantidad recibida de ${BARNIZ.codigo}`), '3');
    await valor(dialog.getByLabel(`Cantidad recibida de ${BROCHA.codigo}`), '4');
    await dialog.getByLabel(`Cantidad recibida de ${BARNIZ.codigo}`).fill('2');
    await dialog.getByLabel(`Ausente ${BROCHA.codigo}`).check();
    await screenshot(page, 'almacenes-recibir-parcial');
    const recibir = page.waitForResponse((r) => r.url().includes('ac=recibirmovimiento'));
    await dialog.getByRole('button', { name: 'Recibir', exact: true }).click();
    expect((await (await recibir).json()).RESULT).toBe('0');
    await enEstado(page, 'Recibido parcial');
    const lineas = page.getByRole('table', { name: 'Líneas' });
    // # · artículo · cantidad · pendiente · ...
    await expect.poll(async () => (await filas(lineas)).map((f) => [f[2], f[3]])).toEqual([
      ['3', '1'],
      ['4', '4'],
    ]);
    await screenshot(page, 'almacenes-recibido-parcial');
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['2', '1'], Total: ['3', '1'] });
    expect(await stockDelArticulo(page, BROCHA.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['0', '4'], Total: ['1', '4'] });

    // Undoing the receipt leaves exactly what there was after sending.
    await page.goto(ficha);
    await enEstado(page, 'Recibido parcial');
    await accion(page, 'Deshacer recepción', { confirmar: true });
    await enEstado(page, 'Enviado');
    await expect.poll(async () => (await filas(lineas)).map((f) => [f[2], f[3]])).toEqual([
      ['3', '3'],
      ['4', '4'],
    ]);
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['0', '3'], Total: ['1', '3'] });

    // Then everything arrives.
    await page.goto(ficha);
    await enEstado(page, 'Enviado');
    await estado(page).getByRole('button', { name: 'Recibir', exact: true }).click();
    await dialog.getByRole('button', { name: 'Recibir todo' }).click();
    const todo = page.waitForResponse((r) => r.url().includes('ac=recibirmovimiento'));
    await dialog.getByRole('button', { name: 'Recibir', exact: true }).click();
    expect((await (await todo).json()).RESULT).toBe('0');
    await enEstado(page, 'Recibido');
    await estado(page).getByRole('button', { name: 'Deshacer recepción' }).waitFor();
    expect(await estado(page).getByRole('button', { name: 'Recibir', exact: true }).count()).toBe(0);
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['3', ''], Total: ['4', ''] });
    expect(await stockDelArticulo(page, BROCHA.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['4', ''], Total: ['5', ''] });
  });

  it('records a loss with its reason and finishes it', async () => {
    const { page } = b;
    await page.goto('/almacenes/perdidas');
    await page.getByRole('link', { name: 'Nueva pérdida' }).or(page.getByRole('button', { name: 'Nueva pérdida' })).click();
    await page.waitForURL(/\/almacenes\/perdida\/nueva-perdida$/);
    await page.getByLabel(/^Almacén/).first().selectOption({ label: TIENDA });
    await escanear(page, BARNIZ.barras);
    await valor(page.getByLabel('Cantidad de la línea 1'), '1');
    // Without its reason the loss is not saved.
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByLabel('Motivo de la línea 1').getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toMatch(/\/nueva-perdida$/);
    await page.getByLabel('Motivo de la línea 1').selectOption({ label: 'Caducidad' });
    await page.getByLabel('Observaciones').fill('Lote caducado (e2e)');
    numeros.perdida = await guardarDocumento(page, /\/almacenes\/perdida\/\d+$/);
    await enEstado(page, 'Pendiente');
    await accion(page, 'Finalizar', { confirmar: true });
    await enEstado(page, 'Finalizado');
    await page.getByRole('table', { name: 'Líneas' }).getByText('Caducidad').waitFor();
    await screenshot(page, 'almacenes-perdida');
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['2', ''], Total: ['3', ''] });
  });

  it("shows it all on the article's record: stock per warehouse and its movements with the running balance, each linking to its document", async () => {
    const { page } = b;
    expect(await stockDelArticulo(page, BARNIZ.codigo)).toEqual({ [ALMACEN.nombre]: ['1', ''], [TIENDA]: ['2', ''], Total: ['3', ''] });
    const panel = page.getByRole('table', { name: 'Movimientos de stock del artículo' });
    await panel.getByText('Pérdida').waitFor();
    await screenshot(page, 'almacenes-articulo-movimientos');
    const { inventario, movimiento, perdida } = numeros;
    // Newest first: fecha (today, dd/mm/aaaa) · almacén · causa · documento · cantidad · saldo (all warehouses).
    const hoy = expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(await filas(panel)).toEqual([
      [hoy, TIENDA, 'Pérdida', perdida, cantidad(-1), '3'],
      [hoy, TIENDA, 'Traspaso', movimiento, '+3', '4'],
      // The reception undone reads as such (issue 17), not as another transfer.
      [hoy, TIENDA, 'Traspaso · Deshacer recepción', movimiento, cantidad(-2), '1'],
      [hoy, TIENDA, 'Traspaso', movimiento, '+2', '3'],
      [hoy, ALMACEN.nombre, 'Traspaso', movimiento, cantidad(-3), '1'],
      [hoy, ALMACEN.nombre, 'Inventario', inventario, '+4', '4'],
    ]);

    // Filtered by one warehouse, the balance is that warehouse's.
    await page.locator('select').filter({ has: page.getByRole('option', { name: 'Todos los almacenes' }) }).selectOption({ label: TIENDA });
    await expect
      .poll(async () => (await filas(panel)).map((f) => [f[2], f[4], f[5]]))
      .toEqual([
        ['Pérdida', cantidad(-1), '2'],
        ['Traspaso', '+3', '3'],
        ['Traspaso · Deshacer recepción', cantidad(-2), '0'],
        ['Traspaso', '+2', '2'],
      ]);

    // Each row opens its document.
    await panel.getByRole('link', { name: perdida }).click();
    await page.waitForURL(/\/almacenes\/perdida\/\d+$/);
    await page.getByRole('heading', { name: `Pérdida ${perdida}` }).waitFor();
    await enEstado(page, 'Finalizado');
    await page.goBack();
    await panel.getByRole('link', { name: inventario }).first().click();
    await page.waitForURL(/\/almacenes\/inventario\/\d+$/);
    await page.getByRole('heading', { name: `Inventario ${inventario}` }).waitFor();
    await page.goBack();
    await panel.getByRole('link', { name: movimiento }).first().click();
    await page.waitForURL(/\/almacenes\/movimiento\/\d+$/);
    await page.getByRole('heading', { name: `Traspaso ${movimiento}` }).waitFor();
    await enEstado(page, 'Recibido');
  });
});
