import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';

/**
 * The till (issue 13) in Chromium against the real server, at a 1024×768 touch screen and at a phone's 390×844:
 * a terminal made in the back office (op.asp), paired on a fresh browser with its one-time code, the cashier by
 * PIN, the caja opened; three tickets sold by scanning, by a button and by searching (one paid cash + card); the
 * network taken away, two more sold, the page reloaded with the server still unreachable, the network back: all five
 * arrive once, in order, with valid records (the last two made by the till); a return of one line; a cash
 * full invoice (F3) of a ticket for a new customer, made at the till with its PDF; a cash withdrawal; the closing with
 * a counted difference and its Z report PDF; a ticket's PDF whose QR (at the top) decodes to the AEAT's URL for the environment its record was made for, with its legend.
 */

type Api = { RESULT: string; message?: string; data: Record<string, unknown>[] };

function api(page: Page, ac: string, query: Record<string, string | number> = {}, body?: object): Promise<Api> {
  return page.evaluate(
    async ({ ac, query, body }) => {
      const qs = new URLSearchParams({ ac, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
      const init: RequestInit = body ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {};
      return (await fetch(`/api/op.asp?${qs}`, init)).json();
    },
    { ac, query, body },
  );
}

async function ok(page: Page, ac: string, query: Record<string, string | number> = {}, body?: object) {
  const res = await api(page, ac, query, body);
  expect(res.RESULT, `${ac}: ${JSON.stringify(res).slice(0, 400)}`).toBe('0');
  return res.data;
}

/** EAN-13 with its check digit. */
function ean13(doce: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(doce[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return doce + ((10 - (sum % 10)) % 10);
}

let tmp: string;
let admin: Browser;
beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mtpv-tpv-'));
  admin = await openBrowser();
  await login(admin.page);
  await admin.page.waitForURL((u) => u.pathname === '/');
  await encenderModulos(admin.page, ['listadoterminales', 'listadoclientes'], ['Ventas', 'TPV']);
  // The cashier's PIN at the till (the administrator sells here).
  await ok(admin.page, 'editarpintpv', {}, { pin: '2468' });
});
afterAll(async () => {
  await admin?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A terminal of its own (serie, articles, buttons) for one screen size; its one-time pairing code. */
async function montarTerminal(sfx: string) {
  const page = admin.page;
  const almacen = (await ok(page, 'listadoalmacenes', { porPagina: 100 })).find((r) => r.codigo === 'PRINCIPAL')!.id as number;
  const serie = (await ok(page, 'editarserie', {}, { codigo: `T${sfx}`, descripcion: `Tickets caja ${sfx}`, tipo: 'simplificada', activo: 1 }))[0].id as number;
  const rect = (await ok(page, 'editarserie', {}, { codigo: `TR${sfx}`, descripcion: `Devoluciones caja ${sfx}`, tipo: 'rectificativa', activo: 1 }))[0].id as number;
  const articulo = async (codigo: string, descripcion: string, precio_venta: number, tipo_iva: string, codigo_barras: string | null, nombre_tpv?: string) =>
    (await ok(page, 'editararticulo', {}, { codigo, descripcion, unidad_medida: 'ud', precio_venta, tipo_iva, codigo_barras, nombre_tpv: nombre_tpv ?? null, activo: 1 }))[0].id as number;
  const barrasCafe = ean13(`84${sfx.padStart(3, '0')}0000001`.slice(0, 12));
  // Prices without IVA (ten-thousandths): café 2,99 € with 21 % → 2,4711; pan 1,10 € with 4 % → 1,0577; queso 6,60 € with 10 % → 6,00.
  const cafe = await articulo(`TPVCAF${sfx}`, `Café molido natural ${sfx}`, 24711, '21', barrasCafe, `Café ${sfx}`);
  const pan = await articulo(`TPVPAN${sfx}`, `Pan de barra ${sfx}`, 10577, '4', null, `Barra ${sfx}`);
  await articulo(`TPVQUE${sfx}`, `Queso manchego ${sfx}`, 60000, '10', null);
  const terminal = (await ok(page, 'editarterminal', {}, { nombre: `Caja ${sfx}`, almacen_id: almacen, serie_id: serie, serie_rectificativa_id: rect, formas_pago: ['efectivo', 'tarjeta', 'bizum'], fondo: 10000, activo: 1 }))[0];
  await ok(page, 'editarbotonestpv', {}, { terminal_id: terminal.id, paginas: [{ nombre: 'Panadería', botones: [{ posicion: 0, articulo_id: pan, color: '#fde68a' }] }] });
  const codigo = (await ok(page, 'codigoterminal', {}, { id: terminal.id }))[0].codigo as string;
  return { terminal: terminal.id as number, nombre: `Caja ${sfx}`, codigo, cafe, pan, barrasCafe, serie: `T${sfx}` };
}

const ANCHOS = [
  { width: 1024, height: 768, sfx: '24' },
  { width: 390, height: 844, sfx: '39' },
];

describe.each(ANCHOS)('la caja a $width×$height', ({ width, height, sfx }) => {
  it('empareja, vende, sigue sin conexión sin perder ni duplicar, devuelve, cierra con diferencia y el informe Z; el QR del ticket lleva a la AEAT', async () => {
    const t = await montarTerminal(sfx);
    const caja = await openBrowser({ width, height });
    const { page, context } = caja;
    try {
      // Pairing on a fresh browser: no staff login, only the one-time code.
      await page.goto('/tpv');
      await page.getByLabel('Código de emparejamiento').fill(t.codigo);
      await page.getByRole('button', { name: 'Emparejar' }).click();
      // The cashier by PIN.
      await page.getByRole('heading', { name: `${t.nombre}: ¿quién vende?` }).waitFor();
      const radios = page.getByRole('radio');
      if ((await radios.count()) > 1) await radios.filter({ hasText: /Administrador|admin/i }).first().click();
      await page.getByLabel('PIN').fill('2468');
      await page.getByRole('button', { name: 'Entrar', exact: true }).click();
      await page.getByLabel('Fondo de caja (€)').fill('100');
      await page.getByRole('button', { name: 'Abrir caja' }).click();
      const buscador = page.getByLabel('Escanear o buscar artículo');
      await buscador.waitFor();
      await expect.poll(() => buscador.evaluate((el) => el === document.activeElement)).toBe(true);
      await screenshot(page, `tpv-${width}-venta-vacia`);

      const numero = () => page.getByTestId('ticket-numero').textContent();
      const nuevo = async () => {
        await page.keyboard.press('Enter');
        await page.getByRole('dialog', { name: 'Ticket' }).waitFor({ state: 'detached' });
      };

      // 1. By scanning: the scanner types the barcode and Enter; Enter pays, 10 € in cash → 7,01 € change.
      await page.keyboard.type(t.barrasCafe);
      await page.keyboard.press('Enter');
      await page.getByLabel('Total del ticket').getByText('2,99 €').waitFor();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Cobrar' }).waitFor();
      await page.keyboard.type('10');
      await page.keyboard.press('Enter');
      await page.getByTestId('cambio').getByText('7,01 €').waitFor();
      const n1 = await numero();
      expect(n1).toMatch(new RegExp(`^${t.serie} \\d{4}/000001$`));
      await screenshot(page, `tpv-${width}-ticket`);

      // Its PDF (80 mm): the QR decodes to the AEAT's URL with the number and total.
      const descarga = page.waitForEvent('download');
      await page.getByRole('button', { name: 'PDF' }).click();
      const pdf = path.join(tmp, `ticket-${sfx}.pdf`);
      await (await descarga).saveAs(pdf);
      execFileSync('pdftoppm', ['-r', '300', '-png', '-f', '1', '-l', '1', '-singlefile', pdf, path.join(tmp, `ticket-${sfx}`)]);
      const qr = execFileSync('zbarimg', ['-q', '--raw', '-S*.disable', '-Sqrcode.enable', path.join(tmp, `ticket-${sfx}.png`)], { encoding: 'utf8' }).trim();
      // Issue 22: the till prints what the terminal said its records are made for — the e2e company is live
      // (MANAGER_DEMO=0): «Producción»; «verificable» only while sending is on (the record stored says which).
      const guardado = (await ok(admin.page, 'listadotickets', { terminal_id: t.terminal, porPagina: 100 })).find((r) => r.numero === n1)!;
      const registro = (await ok(admin.page, 'listadotickets', { id: guardado.id as number }))[0].registro as { entorno: string; demo: number; verifactu: number };
      expect(registro).toMatchObject({ entorno: 'produccion', demo: 0 });
      expect(qr).toMatch(/^https:\/\/www2\.agenciatributaria\.gob\.es\/wlpl\/TIKE-CONT\/ValidarQR\?nif=/);
      expect(qr).toContain(`numserie=${encodeURIComponent(n1!)}`);
      expect(qr).toContain('importe=2.99');
      const texto = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
      expect(texto).toContain('Factura simplificada');
      // The QR first (DetalleEspecificacTecnCodigoQRfactura §3), before the ticket's content.
      expect(texto.indexOf('QR tributario:')).toBeLessThan(texto.indexOf('Factura simplificada'));
      const plano = texto.replace(/\s+/g, ' ');
      if (registro.verifactu === 1) expect(plano).toContain('Factura verificable en la sede electrónica de la AEAT');
      else expect(plano).not.toContain('verificable');
      expect(plano).not.toMatch(/PRUEBA|DEMOSTRACI|enviado/);
      expect(texto).toContain(n1!);
      await nuevo();

      // 2. By a button, paid 1 € by card and the rest in cash.
      await page.getByRole('button', { name: new RegExp(`Barra ${sfx}`) }).click();
      await page.getByRole('button', { name: new RegExp(`Barra ${sfx}`) }).click();
      await page.getByLabel('Total del ticket').getByText('2,20 €').waitFor();
      await page.keyboard.press('F12');
      await page.getByRole('dialog', { name: 'Cobrar' }).waitFor();
      await page.getByRole('radio', { name: 'Tarjeta' }).click();
      await page.keyboard.type('1');
      await page.keyboard.press('Enter');
      await page.getByTestId('cobro-pendiente').getByText('1,20 €').waitFor();
      await page.getByRole('radio', { name: 'Efectivo' }).click();
      await page.keyboard.press('Enter');
      expect(await numero()).toMatch(/\/000002$/);
      await nuevo();

      // 3. By searching, without the accent.
      await page.keyboard.type(`queso manchego ${sfx}`);
      await page.getByRole('listbox', { name: 'Resultados de la búsqueda' }).waitFor();
      await page.keyboard.press('Enter');
      await page.getByLabel('Total del ticket').getByText('6,60 €').waitFor();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Cobrar' }).waitFor();
      await page.keyboard.press('Enter');
      expect(await numero()).toMatch(/\/000003$/);
      await nuevo();

      // Offline: two more tickets, each with the record the till makes itself.
      await context.setOffline(true);
      await page.getByTestId('estado-conexion').getByText('Sin conexión').waitFor();
      for (const n of ['000004', '000005']) {
        await page.keyboard.type(t.barrasCafe);
        await page.keyboard.press('Enter');
        await page.keyboard.press('Enter');
        await page.getByRole('dialog', { name: 'Cobrar' }).waitFor();
        await page.keyboard.press('Enter');
        expect(await numero()).toMatch(new RegExp(`/${n}$`));
        await page.getByText('Sin conexión: ticket guardado en este terminal').waitFor();
        await nuevo();
      }
      await page.getByTestId('estado-conexion').getByText('2 por enviar').waitFor();
      await screenshot(page, `tpv-${width}-sin-conexion`);

      // The page reloads while the server is still unreachable (the network is back but op.asp isn't): nothing lost.
      await page.route('**/api/op.asp*', (r) => r.abort('internetdisconnected'));
      await context.setOffline(false);
      await page.reload();
      await buscador.waitFor();
      await page.getByTestId('estado-conexion').getByText('2 por enviar').waitFor();
      // The server is back: the queue empties by itself.
      await page.unroute('**/api/op.asp*');
      await page.getByTestId('estado-conexion').getByText('2 por enviar').waitFor({ state: 'detached', timeout: 30_000 });

      // All five arrived once, in order, each with its record; the last two made by the till and verified.
      const tickets = (await ok(admin.page, 'listadotickets', { terminal_id: t.terminal, porPagina: 50, orden: 'numero', dir: 'asc' })).sort((a, b) => String(a.numero).localeCompare(String(b.numero)));
      expect(tickets.map((x) => String(x.numero).slice(-6))).toEqual(['000001', '000002', '000003', '000004', '000005']);
      const detalles = [];
      for (const x of tickets) detalles.push((await ok(admin.page, 'listadotickets', { id: x.id as number }))[0] as { uuid: string; offline: number; registro: { huella: string; qr_url: string } });
      expect(new Set(detalles.map((x) => x.uuid)).size).toBe(5);
      expect(detalles.map((x) => Number(x.offline))).toEqual([0, 0, 0, 1, 1]);
      for (const d of detalles) expect(d.registro.huella).toMatch(/^[0-9A-F]{64}$/);
      const segundo = (await ok(admin.page, 'listadotickets', { id: tickets[1].id as number }))[0] as { pagos: { forma: string }[] };
      expect(segundo.pagos.map((p) => p.forma).sort()).toEqual(['efectivo', 'tarjeta']);

      // A return of one line: ticket 1's coffee, refunded in cash.
      await page.getByRole('button', { name: 'Devolución' }).click();
      await page.getByLabel('Número del ticket (escríbalo o escanéelo)').fill(n1!);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Todo' }).first().click();
      await page.getByTestId('devolucion-importe').getByText('2,99 €').waitFor();
      await page.getByRole('button', { name: 'Devolver', exact: true }).click();
      await expect.poll(() => page.getByTestId('devolucion-numero').textContent()).toMatch(new RegExp(`^TR${sfx} `));
      await page.getByRole('button', { name: 'Terminar' }).click();

      // Offline again: a return of ticket 5 (sold here offline, so the till knows it). Its R5 is made on the till, in
      // the terminal's rectificativa serie, queued, and verified by the server when the network is back.
      const n5 = String(tickets[4].numero);
      await context.setOffline(true);
      await page.getByTestId('estado-conexion').getByText('Sin conexión').waitFor();
      await page.getByRole('button', { name: 'Devolución' }).click();
      await page.getByLabel('Número del ticket (escríbalo o escanéelo)').fill(n5);
      await page.keyboard.press('Enter');
      await page.getByTestId('devolucion-sin-conexion').waitFor();
      await page.getByRole('button', { name: 'Todo' }).first().click();
      await page.getByTestId('devolucion-importe').getByText('2,99 €').waitFor();
      await page.getByRole('button', { name: 'Devolver', exact: true }).click();
      await expect.poll(() => page.getByTestId('devolucion-numero').textContent()).toMatch(new RegExp(`^TR${sfx} \\d{4}/000002$`));
      await page.getByText(/Hecha sin conexión: pendiente de envío/).waitFor();
      await page.getByRole('button', { name: 'Terminar' }).click();
      await page.getByTestId('estado-conexion').getByText('1 por enviar').waitFor();
      await screenshot(page, `tpv-${width}-devolucion-sin-conexion`);
      await context.setOffline(false);
      await page.getByTestId('estado-conexion').getByText('1 por enviar').waitFor({ state: 'detached', timeout: 30_000 });
      const t5 = (await ok(admin.page, 'listadotickets', { id: tickets[4].id as number }))[0] as { estado: string; devoluciones: { id: number; numero: string; total: number }[] };
      expect(t5.estado).toBe('devuelto');
      expect(t5.devoluciones).toHaveLength(1);
      expect(t5.devoluciones[0]).toMatchObject({ total: -299 });
      const r5 = (await ok(admin.page, 'listadorectificativas', { id: t5.devoluciones[0].id }))[0] as { tipo_factura: string; estado: string };
      expect(r5).toMatchObject({ tipo_factura: 'R5', estado: 'emitida' });

      // A customer asks for a full invoice of ticket 3 («Factura completa», F3): found by its number, a new customer
      // (its NIF checked on the till), the F3 that replaces the ticket, and its PDF.
      const n3 = String(tickets[2].numero);
      const dni = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
      const nif = dni + 'TRWAGMYFPDXBNJZSQVHLCKE'[Number(dni) % 23];
      await page.getByRole('button', { name: /Factura completa/ }).click();
      const f3 = page.getByRole('dialog', { name: 'Factura completa' });
      await f3.getByLabel('Número del ticket (escríbalo o escanéelo)').fill(n3);
      await page.keyboard.press('Enter');
      await f3.getByTestId('f3-ticket').getByText(`Ticket ${n3}`, { exact: false }).waitFor();
      await f3.getByLabel('Cliente (NIF o nombre)').fill(nif);
      await f3.getByRole('button', { name: 'Buscar cliente' }).click();
      await f3.getByText(/Ningún cliente con NIF coincide/).waitFor();
      await f3.getByRole('button', { name: 'Cliente nuevo' }).click();
      expect(await f3.getByLabel('NIF').inputValue()).toBe(nif);
      await f3.getByLabel('Nombre o razón social').fill(`Cliente F3 ${sfx}`);
      await f3.getByLabel('Población').fill('Madrid');
      await f3.getByRole('button', { name: 'Dar de alta' }).click();
      await f3.getByTestId('f3-cliente').getByText(`Cliente F3 ${sfx}`, { exact: false }).waitFor();
      await f3.getByRole('button', { name: 'Hacer la factura' }).click();
      await f3.getByTestId('factura-numero').waitFor();
      const nf = (await f3.getByTestId('factura-numero').textContent())!;
      await screenshot(page, `tpv-${width}-factura-completa`);
      const descargaF3 = page.waitForEvent('download');
      await f3.getByRole('button', { name: 'PDF de la factura' }).click();
      const f3pdf = path.join(tmp, `f3-${sfx}.pdf`);
      await (await descargaF3).saveAs(f3pdf);
      const f3texto = execFileSync('pdftotext', ['-layout', f3pdf, '-'], { encoding: 'utf8' });
      expect(f3texto).toContain(nf);
      expect(f3texto).toContain(nif);
      expect(f3texto).toContain(`Cliente F3 ${sfx}`);
      await f3.getByRole('button', { name: 'Terminar' }).click();
      // The server: the ticket is Facturado, the F3 (the customer's) names it.
      expect((await ok(admin.page, 'listadotickets', { id: tickets[2].id as number }))[0]).toMatchObject({ estado: 'facturado' });
      const factura = (await ok(admin.page, 'listadofacturas', { q: nf }))[0] as { id: number };
      const f3doc = (await ok(admin.page, 'listadofacturas', { id: factura.id }))[0] as { tipo_factura: string; cliente_nif?: string; factura_id: number; total: number };
      expect(f3doc).toMatchObject({ tipo_factura: 'F3', factura_id: tickets[2].id, total: 660 });

      // A withdrawal of 5 € to the safe.
      await page.getByRole('button', { name: 'Entrada / salida de caja' }).click();
      await page.getByLabel('Importe (€)').fill('5');
      await page.getByLabel('Motivo').fill('Retirada a caja fuerte');
      await page.getByRole('button', { name: 'Anotar' }).click();
      await page.getByText('Salida de 5,00 € anotada.').waitFor();
      await page.getByRole('button', { name: 'Terminar' }).click();

      // The closing: cash expected = 100 + 2,99 + 1,20 + 6,60 + 2 × 2,99 − 2,99 (online return) − 2,99 (offline return) − 5
      // = 105,79 €; counted 105,70 € → −0,09 €.
      await page.getByRole('button', { name: 'Cerrar caja' }).click();
      const cierre = page.getByRole('dialog', { name: 'Cerrar caja' });
      await cierre.getByRole('table', { name: 'Esperado y contado' }).getByRole('cell', { name: '105,79 €', exact: true }).waitFor();
      await cierre.getByLabel('Unidades de 100,00 €').fill('1');
      await cierre.getByLabel('Unidades de 5,00 €').fill('1');
      await cierre.getByLabel('Unidades de 0,50 €').fill('1');
      await cierre.getByLabel('Unidades de 0,20 €').fill('1');
      await cierre.getByTestId('arqueo-diferencia').getByText('-0,09 €').waitFor();
      await screenshot(page, `tpv-${width}-cierre`);
      await cierre.getByRole('button', { name: 'Cerrar caja' }).click();
      await page.getByTestId('cierre-diferencia').getByText('-0,09 €').waitFor();
      const codigo = await page.getByTestId('cierre-codigo').textContent();
      expect(codigo).toBe('1');
      const z = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Informe Z (PDF)' }).click();
      const zpdf = path.join(tmp, `z-${sfx}.pdf`);
      await (await z).saveAs(zpdf);
      const zt = execFileSync('pdftotext', ['-layout', zpdf, '-'], { encoding: 'utf8' });
      expect(zt).toContain('Informe Z');
      expect(zt).toContain('Cierre nº 1');
      expect(zt).toContain('105,79 €');
      expect(zt).toContain('-0,09 €');
      // The reason wraps on the roll (never cut): its words in order, the amount beside its first line.
      expect(zt).toMatch(/Retirada[\s\S]*caja[\s\S]*fuerte/);
      await page.getByRole('button', { name: 'Terminar' }).click();
      await page.getByRole('button', { name: 'Abrir caja' }).waitFor();
      expect(height).toBeGreaterThan(0);
    } finally {
      await caja.close();
    }
  });
});
