import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

import { ADMIN } from './admin';

export { ADMIN };
export const baseUrl = () => inject('baseUrl');
export const dataDir = () => inject('dataDir');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export type Browser = { context: BrowserContext; page: Page; close(): Promise<void> };

/** Debian's Chromium through playwright-core, a fresh profile each time (`baseURL`: another server than the suite's). */
export async function openBrowser(viewport = { width: 1280, height: 800 }, baseURL = baseUrl()): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'mtpv-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    viewport,
    locale: 'es-ES',
    baseURL,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function login(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: path.join(process.env.E2E_SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Clicks a switch as a person would: scrolled to the middle of the screen first, so the sticky
 * action bar of a form never sits on top of it (its input is visually hidden, hence force).
 */
export async function toggle(locator: import('playwright-core').Locator): Promise<void> {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await locator.click({ force: true });
}

/**
 * Switches modules on in /config, as an administrator would, when any of the probed op.asp actions answers 403
 * (another test left one off). `probes`: `ac` values, with their query where they need one
 * (`hfapropuesta&desde=…`); `labels`: the switches to turn on, by the start of their label.
 */
export async function encenderModulos(page: Page, probes: string[], labels: string[]): Promise<void> {
  const status = await page.evaluate(async (acs) => Promise.all(acs.map(async (ac) => (await fetch(`/api/op.asp?ac=${ac}`)).status)), probes);
  if (!status.includes(403)) return;
  await page.goto('/config');
  for (const label of labels) {
    const sw = page.getByRole('switch', { name: new RegExp(`^${label}\\b`) });
    await sw.waitFor();
    if (!(await sw.isChecked())) await toggle(sw);
  }
  await page.getByRole('button', { name: 'Guardar' }).click();
  await page.getByText('Se ha completado la acción correctamente.').first().waitFor();
}
