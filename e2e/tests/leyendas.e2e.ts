
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with bench/
import { startServer } from '../../server/scripts/spawn-server.mjs';
import { ADMIN, login, openBrowser, type Browser } from '../support/browser';
import { leerPdf as leer } from '../support/pdf';
import { ean13, ok } from '../support/op';

/**
 * Issue 22, «every printed word true», on the demo company (a server of its own started with MANAGER_DEMO=1: the
 * suite's is live): a demo invoice printed from the back office, a demo closing's Z, and a ticket sold at the demo's
 * till — each PDF read back (pdftotext) and its QR decoded (pdftoppm + zbarimg): «DEMOSTRACIÓN — sin validez fiscal»
 * and the AEAT's test host, never «verificable». (The live company's prints: tpv.e2e.ts, ventas.e2e.ts.)
 */

const DEMO = 'DEMOSTRACIÓN — sin validez fiscal';
const PRUEBAS = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?';

let server: { baseUrl: string; stop(): Promise<void> };
let admin: Browser;
beforeAll(async () => {
  server = await startServer({ quiet: true, env: { MANAGER_DEMO: '1', MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password } });
  admin = await openBrowser(undefined, server.baseUrl);
  await login(admin.page);
  await admin.page.waitForURL((u) => u.pathname === '/');
}, 180_000);
afterAll(async () => {
  await admin?.close();
  await server?.stop();
});

describe('the demo company prints «DEMOSTRACIÓN — sin validez fiscal» with the test QR', () => {
  it('an invoice printed from the back office', async () => {
    const page = admin.page;
    const [f] = await ok(page, 'listadofacturas', { estado: 'emitida', porPagina: 10 });
    await page.goto(`/ventas/factura/${f.id}`);
    await page.getByRole('heading', { name: `Factura ${f.numero}` }).waitFor();
    const p = await leer(page, () => page.getByRole('button', { name: 'Imprimir' }).click());
    expect(p.qr.startsWith(PRUEBAS)).toBe(true);
    expect(p.qr).toContain(`numserie=${encodeURIComponent(String(f.numero))}`);
    expect(p.texto).toContain(DEMO);
    expect(p.texto).not.toMatch(/verificable|enviado/);
  });

  it("a closing's Z from the back office", async () => {
    const page = admin.page;
    const [c] = await ok(page, 'listadocierrestpv', { porPagina: 10 });
    expect(c.demo).toBe(1);
    await page.goto(`/ventas/cierre-tpv/${c.id}`);
    await page.getByTestId('diferencia').waitFor();
    const z = await leer(page, () => page.getByRole('button', { name: 'Informe Z' }).click(), false);
    expect(z.texto).toContain('Informe Z');
    expect(z.texto).toContain(DEMO);
  });

  it("a ticket sold at the demo's till: on screen and in its 80 mm PDF, the QR first", async () => {
    const page = admin.page;
    const terminal = (await ok(page, 'listadoterminales', { porPagina: 100 })).find((t) => t.nombre === 'Mostrador')!;
    const barras = ean13('842200000001');
    await ok(page, 'editararticulo', {}, { codigo: 'LEYDEMO', descripcion: 'Artículo de la leyenda', unidad_medida: 'ud', precio_venta: 10_000, tipo_iva: '21', codigo_barras: barras, activo: 1 });
    await ok(page, 'editarpintpv', {}, { pin: '2468' });
    const codigo = (await ok(page, 'codigoterminal', {}, { id: terminal.id }))[0].codigo as string;

    const caja = await openBrowser({ width: 1024, height: 768 }, server.baseUrl);
    try {
      const tpv = caja.page;
      await tpv.goto('/tpv');
      await tpv.getByLabel('Código de emparejamiento').fill(codigo);
      await tpv.getByRole('button', { name: 'Emparejar' }).click();
      await tpv.getByRole('heading', { name: 'Mostrador: ¿quién vende?' }).waitFor();
      const radios = tpv.getByRole('radio');
      if ((await radios.count()) > 1) await radios.filter({ hasText: /Administrador|admin/i }).first().click();
      await tpv.getByLabel('PIN').fill('2468');
      await tpv.getByRole('button', { name: 'Entrar', exact: true }).click();
      const buscador = tpv.getByLabel('Escanear o buscar artículo');
      const fondo = tpv.getByLabel('Fondo de caja (€)');
      await Promise.race([buscador.waitFor(), fondo.waitFor()]);
      if (await fondo.isVisible()) {
        await fondo.fill('100');
        await tpv.getByRole('button', { name: 'Abrir caja' }).click();
      }
      await buscador.waitFor();
      await buscador.click();
      await tpv.keyboard.type(barras);
      await tpv.keyboard.press('Enter');
      await tpv.getByLabel('Total del ticket').getByText('1,21 €').waitFor();
      await tpv.keyboard.press('Enter');
      await tpv.getByRole('dialog', { name: 'Cobrar' }).waitFor();
      await tpv.keyboard.press('Enter');
      const impreso = tpv.getByTestId('ticket-impreso');
      await impreso.getByTestId('ticket-numero').waitFor();
      expect(await impreso.getByTestId('ticket-leyenda').textContent()).toBe(DEMO);
      expect(await impreso.textContent()).not.toContain('verificable');
      const numero = (await impreso.getByTestId('ticket-numero').textContent())!;
      const p = await leer(tpv, () => tpv.getByRole('button', { name: 'PDF' }).click());
      expect(p.qr.startsWith(PRUEBAS)).toBe(true);
      expect(p.qr).toContain(`numserie=${encodeURIComponent(numero)}`);
      expect(p.texto).toContain(DEMO);
      expect(p.texto.indexOf('QR tributario:')).toBeLessThan(p.texto.indexOf('Factura simplificada'));
      expect(p.texto).not.toContain('verificable');
    } finally {
      await caja.close();
    }
  });
});
