import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { login, openBrowser, screenshot, toggle, type Browser } from '../support/browser';

let b: Browser;
beforeEach(async () => {
  b = await openBrowser();
});
afterEach(async () => {
  await b.close();
});

async function setFlag(b: Browser, label: string, on: boolean) {
  const { page } = b;
  await page.goto('/config');
  const sw = page.getByRole('switch', { name: new RegExp(`^${label}\\b`) });
  await sw.waitFor();
  if ((await sw.isChecked()) !== on) await toggle(sw);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await page.getByText('Se ha completado la acción correctamente.').waitFor();
}

describe('module flags', () => {
  it('switching ventas off hides its entries at once and the server refuses its actions', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'Configuración' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Series' }).waitFor();
    await page.keyboard.press('Escape');

    await setFlag(b, 'Ventas', false);
    // Without a reload: the header menu and the side list follow the saved configuration.
    await page.getByRole('button', { name: 'Configuración' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Usuarios' }).waitFor();
    expect(await page.getByRole('menu').getByRole('menuitem', { name: 'Series' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('navigation', { name: 'Configuración' }).getByRole('link', { name: 'Series' }).count()).toBe(0);
    await screenshot(page, 'config-ventas-off');

    const refused = await page.evaluate(async () => {
      const r = await fetch('/api/op.asp?ac=listadoseries');
      return { status: r.status, body: await r.json() };
    });
    expect(refused.status).toBe(403);
    expect(refused.body.RESULT).toBe('1');

    await page.goto('/');
    await page.getByText('Nueva compra').waitFor();
    expect(await page.getByText('Nueva venta').count()).toBe(0);

    await setFlag(b, 'Ventas', true);
    const allowed = await page.evaluate(async () => (await fetch('/api/op.asp?ac=listadoseries')).status);
    expect(allowed).toBe(200);
  });
});

describe('users', () => {
  it('creates a user who can then log in', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/config/usuario/nuevo-usuario');
    await page.getByLabel(/^Nombre/).fill('Lucía Martín');
    await page.getByLabel(/^Email/).fill('lucia@demo.es');
    await page.getByLabel(/^Contraseña/).first().fill('Lucia-clave-2026');
    await page.getByLabel(/^Repetir contraseña/).fill('Lucia-clave-2026');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Se ha completado la acción correctamente.').waitFor();
    await page.goto('/config/usuarios');
    await page.getByRole('cell', { name: 'lucia@demo.es' }).waitFor();
    await screenshot(page, 'usuarios');

    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.waitForURL('**/login');
    await login(page, 'lucia@demo.es', 'Lucia-clave-2026');
    await page.waitForURL((u) => u.pathname !== '/login');
  });
});

describe('unsaved changes', () => {
  it('asks before leaving a dirty form through the app: «Seguir editando» stays, «Salir sin guardar» leaves', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    // Into the form by the app's own navigation, so Back stays inside the app.
    await page.goto('/config/usuarios');
    await page.getByRole('button', { name: 'Nuevo usuario' }).click();
    await page.waitForURL('**/config/usuario/nuevo-usuario');
    const inicio = page.getByRole('banner').getByRole('link', { name: 'Inicio', exact: true });
    // Clean: leaves at once.
    await page.getByLabel(/^Nombre/).waitFor();
    await inicio.click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goBack();
    await page.getByLabel(/^Nombre/).fill('Sin guardar');
    await inicio.click();
    const dialog = page.getByRole('dialog', { name: 'Cambios sin guardar' });
    await dialog.getByText('Hay cambios sin guardar. ¿Salir sin guardar?').waitFor();
    await screenshot(page, 'cambios-sin-guardar');
    await dialog.getByRole('button', { name: 'Seguir editando' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/config/usuario/nuevo-usuario');
    expect(await page.getByLabel(/^Nombre/).inputValue()).toBe('Sin guardar');
    // The browser's Back asks too.
    await page.goBack();
    await dialog.getByRole('button', { name: 'Salir sin guardar' }).click();
    await page.waitForURL('**/config/usuarios');
  });
});

describe('a remote that fails to load', () => {
  it('shows a Spanish error inside the layout, the rest keeps working, and retry loads it', async () => {
    const { page, context } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await context.route('**/remotes/mf-config/**', (route) => route.abort());
    await page.goto('/config/usuarios');
    await page.getByText('No se ha podido cargar esta sección.').waitFor();
    await screenshot(page, 'remote-error');
    // The header and the home page still work.
    await page.getByRole('banner').getByRole('link', { name: 'Inicio', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('Nuevo artículo').waitFor();

    await page.goBack();
    await page.getByText('No se ha podido cargar esta sección.').waitFor();
    await context.unroute('**/remotes/mf-config/**');
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByRole('heading', { name: 'Usuarios' }).waitFor();
  });
});

describe('company image', () => {
  it('uploads a logo through the multipart client and the header shows it after saving', async () => {
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/config');
    // A real 1×1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const upload = page.waitForResponse((r) => r.url().includes('ac=subirarchivo'));
    await page.locator('input[type=file]').first().setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    expect((await (await upload).json()).RESULT).toBe('0');
    const save = page.waitForResponse((r) => r.url().includes('ac=editarconfiguracion'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    expect((await (await save).json()).RESULT).toBe('0');
    const brand = page.getByRole('banner').locator('a.brand img');
    await expect.poll(() => brand.getAttribute('src')).toMatch(/^\/archivos\//);
    const served = await page.evaluate(async (src) => (await fetch(src!)).headers.get('content-type'), await brand.getAttribute('src'));
    expect(served).toBe('image/png');
  });
});
