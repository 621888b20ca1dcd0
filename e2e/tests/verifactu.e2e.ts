import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { login, openBrowser, screenshot, type Browser } from '../support/browser';

/**
 * VERI*FACTU settings as an owner meets them (issue 9), in Chromium against the real server: the company's
 * certificate uploaded as PKCS#12 — a wrong password is refused under its field, one expiring within 30 days
 * is taken with a warning, a good one shows its holder, NIF and expiry (and never comes back to the browser) —
 * then removed. Sending stays off: nothing leaves the machine (the queue against a double of the AEAT is
 * server/test/verifactu.test.ts). The certificates are made here with openssl.
 */

let dir: string;
/** A self-signed PKCS#12 for the demo company, valid `dias` days from now. */
function p12(nombre: string, password: string, dias: number): string {
  const key = path.join(dir, `${nombre}.key`);
  const pem = path.join(dir, `${nombre}.pem`);
  const out = path.join(dir, `${nombre}.p12`);
  const subject = '/CN=COMERCIAL DEMO SL/serialNumber=IDCES-B86420973/C=ES';
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', pem, '-subj', subject, '-days', String(dias)], { stdio: 'ignore' });
  execFileSync('openssl', ['pkcs12', '-export', '-in', pem, '-inkey', key, '-out', out, '-passout', `pass:${password}`], { stdio: 'ignore' });
  return out;
}

let b: Browser;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mtpv-cert-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  b = await openBrowser();
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async () => {
  await b.close();
});

describe('VERI*FACTU: the company certificate', () => {
  it('refuses a wrong password, warns of one about to expire, keeps a good one (holder, NIF, expiry shown, never returned), and removes it', async () => {
    const { page } = b;
    await page.goto('/config/verifactu');
    await page.getByRole('heading', { name: 'VERI*FACTU', exact: true }).waitFor();
    await page.getByText('No hay certificado: sin él no se puede enviar a la AEAT.').waitFor();
    // Issue 22: the obligation date defaults from the company's NIF (an S.L.: 1 January 2027), and says so.
    expect(await page.getByLabel('Obligada a enviar desde').inputValue()).toBe('2027-01-01');
    await page.getByText('Por el NIF de la empresa (B86420973): una sociedad o entidad que tributa por el Impuesto sobre Sociedades.', { exact: false }).waitFor();
    const subir = async (archivo: string, password: string) => {
      await page.locator('input[type=file]').setInputFiles(archivo);
      await page.getByLabel('Contraseña del certificado').fill(password);
      const answer = page.waitForResponse((r) => r.url().includes('ac=subircertificadoverifactu'));
      await page.getByRole('button', { name: 'Subir certificado' }).click();
      return (await answer).json();
    };

    const bueno = p12('bueno', 'Clave-cert-1', 400);
    expect((await subir(bueno, 'otra')).RESULT).not.toBe('0');
    await page.getByText('La contraseña del certificado no es correcta').first().waitFor();

    // A certificate about to expire is taken, with its warning (an expired one is refused: server/test/verifactu.test.ts).
    const proximo = p12('proximo', 'Clave-cert-1', 10);
    expect((await subir(proximo, 'Clave-cert-1')).RESULT).toBe('0');
    await page.getByText(/^El certificado caduca el \d{2}\/\d{2}\/\d{4}\. Renuévelo/).waitFor();
    await page.getByText(/quedan (9|10) días/).waitFor();

    const ok = await subir(bueno, 'Clave-cert-1');
    expect(ok.RESULT, JSON.stringify(ok)).toBe('0');
    await page.getByText('COMERCIAL DEMO SL').first().waitFor();
    await page.getByText('B86420973').first().waitFor();
    // The settings as any client reads them: holder and expiry, never the certificate or its password.
    const leido = await page.evaluate(async () => (await fetch('/api/op.asp?ac=listadoverifactu')).text());
    expect(leido).toContain('"nif":"B86420973"');
    expect(leido).not.toContain('Clave-cert-1');
    expect(leido).not.toMatch(/MII[A-Za-z0-9+/]{40}/);
    await screenshot(page, 'verifactu-certificado');

    await page.getByRole('button', { name: 'Eliminar certificado' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar', exact: true }).click();
    await page.getByText('No hay certificado: sin él no se puede enviar a la AEAT.').waitFor();
  });
});
