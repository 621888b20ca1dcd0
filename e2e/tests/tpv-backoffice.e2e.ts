import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';
import { post } from '../support/documentos';
import { ok } from '../support/op';

/**
 * The back office's TPV as a shop's owner uses it (issue 13), on the real server: a terminal created in Ventas ›
 * Terminales with its own free series and «Vincular TPV»'s one-time code; the till's buttons arranged by keyboard
 * and saved; a day at that terminal driven through op.asp as the till speaks it (open the caja, two tickets, a
 * withdrawal, the closing with a counted difference); then the closing in Ventas › Cierres TPV (expected, counted,
 * the difference, by method and by IVA, its tickets linked, the Z report downloaded) and the ticket's record with
 * its VERI*FACTU QR. At 1280 px and 390 px. The tests run in order and build on each other.
 */

let b: Browser;
beforeEach(async () => {
  b = await openBrowser();
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await screenshot(b.page, `fallo-tpv-${ctx.task.name.slice(0, 20)}`);
  await b.close();
});

const SUFIJO = String(Date.now()).slice(-5);
const TERMINAL = `Caja e2e ${SUFIJO}`;
const SERIE_T = `TE${SUFIJO}`;
const SERIE_R = `RE${SUFIJO}`;
let terminalId = 0;

describe('TPV en el back office', () => {
  it('crea un terminal con sus series libres y muestra el código de vinculación', async () => {
    const { page } = b;
    await encenderModulos(page, ['listadoterminales'], ['TPV']);
    await ok(page, 'editarserie', {}, { codigo: SERIE_T, descripcion: `Tickets ${TERMINAL}`, tipo: 'simplificada', activo: 1 });
    await ok(page, 'editarserie', {}, { codigo: SERIE_R, descripcion: `Devoluciones ${TERMINAL}`, tipo: 'rectificativa', activo: 1 });

    await page.goto('/ventas/terminales');
    await page.getByRole('button', { name: 'Nuevo terminal' }).click();
    await page.getByLabel(/^Nombre/).fill(TERMINAL);
    await page.getByRole('button', { name: 'Guardar' }).click();
    // Nothing sent: what is missing is named in Spanish under each field.
    await expect.poll(() => page.getByText('Este campo es necesario').count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel(/^Almacén/).selectOption({ label: 'Almacén principal' });
    await page.getByLabel(/^Serie de tickets/).selectOption({ label: `${SERIE_T} · Tickets ${TERMINAL}` });
    await page.getByLabel(/^Serie de devoluciones/).selectOption({ label: `${SERIE_R} · Devoluciones ${TERMINAL}` });
    await page.getByLabel(/^Fondo de caja/).fill('150,00');
    await page.getByRole('checkbox', { name: 'Bizum' }).check();
    const saved = await post(page, 'editarterminal', () => page.getByRole('button', { name: 'Guardar' }).click());
    terminalId = saved.data[0].id;
    expect(saved.data[0]).toMatchObject({ nombre: TERMINAL, fondo: 15000, formas_pago: ['efectivo', 'tarjeta', 'bizum'] });
    await page.waitForURL(`**/ventas/terminal/${terminalId}`);

    const codigo = await post(page, 'codigoterminal', () => page.getByRole('button', { name: 'Vincular TPV' }).click());
    const dialog = page.getByRole('dialog', { name: `Vincular TPV · ${TERMINAL}` });
    await expect.poll(() => dialog.getByLabel('Código de vinculación').textContent()).toBe(codigo.data[0].codigo);
    expect(codigo.data[0].codigo).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await dialog.getByText(/Caduca a las \d\d:\d\d/).waitFor();
    await screenshot(page, 'tpv-vincular');
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await screenshot(page, 'tpv-terminal');

    // The series are now this terminal's: another new terminal is not offered them.
    await page.goto('/ventas/terminal/nuevo-terminal');
    await page.getByLabel(/^Nombre/).waitFor();
    await expect.poll(() => page.getByLabel(/^Serie de tickets/).locator('option').allTextContents()).not.toContain(`${SERIE_T} · Tickets ${TERMINAL}`);
  });

  it('ordena los botones de la caja con el teclado y los guarda', async () => {
    const { page } = b;
    await page.goto('/ventas/botones-tpv');
    await page.getByLabel('Botones de').selectOption({ label: TERMINAL });
    await page.getByRole('button', { name: 'Nueva página' }).click();
    await page.getByLabel(/^Nombre de la página/).fill('Mostrador');
    const grid = page.getByRole('listbox', { name: 'Botones de la página Mostrador' });
    // Its label: the article's «Nombre en el TPV» (issue 23: the demo's are readable, made from the description).
    const nombres: Record<string, string> = { 'MAR-500': 'Martillo de carp. 500 g mango', 'ALI-180': 'Alicate universal 180 mm', 'CIN-5M': 'Cinta métrica 5 m x 19 mm' };
    for (const [i, q] of ['MAR-500', 'ALI-180', 'CIN-5M'].entries()) {
      await page.getByLabel('Añadir un artículo').fill(q);
      await page.getByRole('option', { name: new RegExp(q) }).first().click();
      await grid.getByRole('option', { name: new RegExp(`^${nombres[q].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, posición ${i + 1}`) }).waitFor();
    }
    const orden = async () => (await grid.getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map((t) => t.replace(/, posición.*$/, ''));
    const antes = await orden();
    expect(antes).toHaveLength(3);
    // The last one picked up with Espacio, moved to the start with the arrows, dropped.
    await grid.getByRole('option').nth(2).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Space');
    expect(await orden()).toEqual([antes[2], antes[0], antes[1]]);
    await screenshot(page, 'tpv-botones');
    const saved = await post(page, 'editarbotonestpv', () => page.getByRole('button', { name: 'Guardar' }).click());
    expect(saved.data[0].terminal_id).toBe(terminalId);
    await page.reload();
    await page.getByLabel('Botones de').selectOption({ label: TERMINAL });
    await expect.poll(orden).toEqual([antes[2], antes[0], antes[1]]);
  });

  it('el cierre del día: esperado, contado y diferencia, sus tickets, el informe Z y el QR del ticket', async () => {
    const { page } = b;
    // A day at the till, as it speaks op.asp: open with the float, two tickets (one split cash + card), a withdrawal, the closing.
    await ok(page, 'abrircajatpv', {}, { terminal_id: terminalId });
    const arts = await ok(page, 'articulostpv', { limite: 50 });
    const art = (codigo: string) => arts.find((a) => a.codigo === codigo) as { id: number; precio: number };
    const martillo = art('MAR-500');
    const cinta = art('CIN-5M');
    const hoy = new Date().toISOString();
    const tickets = await ok(page, 'subirtickets', {}, {
      terminal_id: terminalId,
      tickets: [
        { uuid: crypto.randomUUID(), fecha_hora: hoy, lineas: [{ articulo_id: martillo.id, cantidad: 1000, precio: martillo.precio }], pagos: [{ forma: 'efectivo', importe: 2000 }] },
        {
          uuid: crypto.randomUUID(),
          fecha_hora: hoy,
          lineas: [{ articulo_id: cinta.id, cantidad: 2000, precio: cinta.precio }],
          pagos: [
            { forma: 'efectivo', importe: 500 },
            { forma: 'tarjeta', importe: Math.round((2 * cinta.precio) / 100) - 500 },
          ],
        },
      ],
    });
    expect(tickets).toHaveLength(2);
    await ok(page, 'movimientocajatpv', {}, { terminal_id: terminalId, importe: -1000, motivo: 'Pago al cristalero' });
    const caja = (await ok(page, 'cajatpv', { terminal_id: terminalId }))[0] as { efectivo: { esperado: number }; formas: { forma: string; esperado: number }[] };
    // One euro less than expected in the drawer.
    const contado = caja.formas.map((f) => ({ forma: f.forma, importe: f.forma === 'efectivo' ? f.esperado - 100 : f.esperado }));
    const [cierre] = await ok(page, 'editarcierretpv', {}, { terminal_id: terminalId, contado });
    expect(cierre.diferencia).toBe(-100);

    await page.goto('/ventas/cierres-tpv');
    await page.getByLabel('Terminal').selectOption({ label: TERMINAL });
    const link = page.getByRole('link', { name: String(cierre.codigo), exact: true });
    // The terminal's filter leaves its closing alone (other files' terminals have a closing nº 1 too).
    await expect.poll(() => link.count()).toBe(1);
    await link.click();
    await page.getByRole('heading', { name: `Cierre ${cierre.codigo} · ${TERMINAL}` }).waitFor();
    const plano = (t: string | null) => (t ?? '').replace(/\s/g, ' ');
    const euros = (c: number) => plano(`${(c / 100).toLocaleString('es-ES', { minimumFractionDigits: 2, useGrouping: true })} €`);
    expect(plano(await page.getByTestId('esperado').textContent())).toBe(euros(caja.efectivo.esperado));
    expect(plano(await page.getByTestId('contado').textContent())).toBe(euros(caja.efectivo.esperado - 100));
    expect(plano(await page.getByTestId('diferencia').textContent())).toBe('-1,00 € (falta)');
    await page.getByRole('table', { name: 'Por forma de pago' }).getByRole('rowheader', { name: 'Tarjeta' }).waitFor();
    await page.getByRole('table', { name: 'Por tipo de IVA' }).getByRole('rowheader', { name: 'General 21 %' }).waitFor();
    await page.getByText('Pago al cristalero').waitFor();
    await page.getByRole('link', { name: String(tickets[1].numero) }).waitFor();
    await screenshot(page, 'tpv-cierre');

    const descarga = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Informe Z' }).click();
    const z = await descarga;
    expect(z.suggestedFilename()).toBe(`informe-z-${TERMINAL.replace(/[^\w-]+/g, '-')}-${cierre.codigo}.pdf`);
    const pdf = readFileSync((await z.path())!, 'latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);
    expect(pdf).toContain('(Informe Z)');

    await page.getByRole('link', { name: String(tickets[0].numero) }).click();
    await page.waitForURL(`**/ventas/ticket/${tickets[0].id}`);
    const qr = page.getByRole('img', { name: `QR tributario del ticket ${tickets[0].numero}` });
    await expect.poll(() => qr.getAttribute('data-qr')).toBe(tickets[0].qr_url);
    // Issue 22: the legend of what its record was made for (the answer's `emision`): the e2e company is live.
    const emision = tickets[0].emision as { entorno: string; demo: number; verifactu: number };
    expect(emision).toMatchObject({ entorno: 'produccion', demo: 0 });
    if (emision.verifactu === 1) await page.getByTestId('ticket-leyenda').getByText('Factura verificable en la sede electrónica de la AEAT').waitFor();
    else expect(await page.getByTestId('ticket-leyenda').count()).toBe(0);
    await screenshot(page, 'tpv-ticket');

    // The phone: the closing still reads, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/ventas/cierre-tpv/${cierre.id}`);
    await page.getByTestId('diferencia').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'tpv-cierre-390');
    await page.goto(`/ventas/terminal/${terminalId}`);
    await page.getByLabel(/^Fondo de caja/).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'tpv-terminal-390');
    await page.goto('/ventas/botones-tpv');
    await page.getByLabel('Botones de').selectOption({ label: TERMINAL });
    await page.getByRole('listbox', { name: 'Botones de la página Mostrador' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'tpv-botones-390');
  });
});
