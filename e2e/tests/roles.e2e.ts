import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';

/**
 * Roles in the browser: an administrator makes a Caja user through the user screen and a Consulta and a Gestión one
 * through op.asp; each logs in and sees what the issue says — Caja only the till (no section at all, the server
 * refuses the back office), Consulta no save button anywhere, Gestión no Usuarios, Copias or VERI*FACTU.
 */

const CLAVE = 'Clave-roles-e2e-2026';
const USUARIOS = {
  caja: { nombre: 'Cajera e2e', email: 'caja-e2e@demo.es' },
  consulta: { nombre: 'Consulta e2e', email: 'consulta-e2e@demo.es' },
  gestion: { nombre: 'Gestión e2e', email: 'gestion-e2e@demo.es' },
} as const;

type Api = { status: number; RESULT: string; message?: string; derecho?: string; data: Record<string, unknown>[] };

/** op.asp from the page, with its session: GET with a query, or POST with a JSON body. */
function api(page: Page, ac: string, query: Record<string, string | number> = {}, body?: object): Promise<Api> {
  return page.evaluate(
    async ({ ac, query, body }) => {
      const qs = new URLSearchParams({ ac, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
      const init: RequestInit = body ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {};
      const res = await fetch(`/api/op.asp?${qs}`, init);
      return { status: res.status, ...(await res.json()) };
    },
    { ac, query, body },
  );
}

/** The addresses of every menu entry the user sees: the header's section menus and the configuration's. */
async function entradasDelMenu(page: Page, { secciones = true } = {}): Promise<string[]> {
  const hrefs = new Set<string>();
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  await nav.waitFor({ state: 'attached' });
  if (secciones) await nav.getByRole('button').first().waitFor();
  for (const boton of await nav.getByRole('button').all()) {
    await boton.click();
    for (const a of await page.getByRole('menu').getByRole('menuitem').all()) hrefs.add((await a.getAttribute('href')) ?? '');
    await page.keyboard.press('Escape');
  }
  await page.getByRole('button', { name: 'Configuración' }).click();
  for (const a of await page.getByRole('menu').getByRole('menuitem').all()) hrefs.add((await a.getAttribute('href')) ?? '');
  await page.keyboard.press('Escape');
  return [...hrefs].filter(Boolean);
}

/** The buttons of the page as it is now that would change something. */
const BOTONES_QUE_CAMBIAN =
  /^(Guardar|Nuev[oa]|Eliminar|Copiar|Importar|Aplicar|Conciliar|Subir certificado|Enviar|Restaurar copia|Cambiar precios|Registrar cobro|Quitar cobro|Rectificar|Devolver|Desde un|Subsanar|Facturar|Deshacer|Emitir|Anular|Confirmar|Servir|Recibir|Finalizar|Corregir|Cargar stock)/;
async function botonesQueCambian(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const b of await page.getByRole('button').all()) {
    const name = ((await b.textContent()) ?? '').trim();
    if (BOTONES_QUE_CAMBIAN.test(name)) names.push(name);
  }
  for (const a of await page.getByRole('link').all()) {
    const name = ((await a.textContent()) ?? '').trim();
    if (/^Copiar$/.test(name)) names.push(`enlace ${name}`);
  }
  return names;
}

/** A section's page once its content has arrived (its heading, and no list still loading). */
async function cargada(page: Page) {
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.getByText('Cargando…').count()).toBe(0);
  await expect.poll(() => page.locator('main [role="status"][aria-label="Cargando"]').count()).toBe(0);
}

let b: Browser;
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await screenshot(b.page, `fallo-roles-${ctx.task.name.slice(0, 20)}`);
  await b.close();
});

beforeAll(async () => {
  // As the administrator: the modules on, and the three users (Caja through the user screen).
  const admin = await openBrowser();
  try {
    const { page } = admin;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await encenderModulos(
      page,
      ['listadoclientes', 'listadofacturas', 'listadoproveedores', 'listadoalmacenes', 'listadoverifactu'],
      ['Ventas', 'Facturas y rectificativas', 'Compras', 'Almacenes'],
    );
    const roles = (await api(page, 'listadoroles')).data;
    const rol = (clave: string) => roles.find((r) => r.clave === clave)!.id as number;

    await page.goto('/config/usuario/nuevo-usuario');
    await page.getByLabel(/^Nombre/).fill(USUARIOS.caja.nombre);
    await page.getByLabel(/^Email/).fill(USUARIOS.caja.email);
    await page.getByLabel(/^Rol/).selectOption({ label: 'Caja' });
    await page.getByLabel(/^Contraseña/).first().fill(CLAVE);
    await page.getByLabel(/^Repetir contraseña/).fill(CLAVE);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Se ha completado la acción correctamente.').waitFor();
    const caja = (await api(page, 'listadousuarios', { q: USUARIOS.caja.email })).data[0];
    expect(caja).toMatchObject({ rol_id: rol('caja'), rol_nombre: 'Caja' });

    for (const clave of ['consulta', 'gestion'] as const) {
      const res = await api(page, 'editarusuario', {}, { ...USUARIOS[clave], password: CLAVE, rol_id: rol(clave) });
      expect(res.RESULT, JSON.stringify(res)).toBe('0');
    }
  } finally {
    await admin.close();
  }
});

async function entrarComo(clave: keyof typeof USUARIOS) {
  b = await openBrowser();
  await login(b.page, USUARIOS[clave].email, CLAVE);
  await b.page.waitForURL((u) => u.pathname === '/');
  return b.page;
}

describe('roles', () => {
  it('the Roles screen: the built-in roles read-only, «Copiar» makes one of the shop\'s', async () => {
    b = await openBrowser();
    const { page } = b;
    await login(page);
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/config/roles');
    for (const nombre of ['Administrador', 'Gestión', 'Almacén', 'Caja', 'Consulta']) await page.getByRole('link', { name: nombre, exact: true }).waitFor();
    await screenshot(page, 'roles');
    // A built-in role is read-only; «Copiar» makes one's own from it.
    await page.getByRole('link', { name: 'Gestión', exact: true }).click();
    await page.getByText('Es un rol predefinido: no se puede modificar ni eliminar.', { exact: false }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Eliminar en Catálogo' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Ver en Usuarios y roles' }).isChecked()).toBe(false);
    expect(await page.getByRole('button', { name: 'Guardar' }).count()).toBe(0);
    await screenshot(page, 'rol-gestion');
    await page.getByRole('link', { name: 'Copiar' }).click();
    await expect.poll(() => page.getByLabel(/^Nombre/).inputValue()).toBe('Gestión (copia)');
    await page.getByRole('checkbox', { name: 'Eliminar en Catálogo' }).click();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Se ha completado la acción correctamente.').waitFor();
    await page.waitForURL((u) => /^\/config\/rol\/\d+$/.test(u.pathname));
    const copia = (await api(page, 'listadoroles', { q: 'copia' })).data[0];
    expect(copia).toMatchObject({ nombre: 'Gestión (copia)', predefinido: 0, derechos: { areas: { catalogo: ['ver', 'editar', 'acciones'] } } });
  });

  it('Caja: only the till — the home says so, no section in the menu, the back office refused by the server', async () => {
    const page = await entrarComo('caja');
    await page.getByText('Su rol (Caja) solo trabaja en el TPV: no tiene acceso a las secciones de gestión.').waitFor();
    await screenshot(page, 'roles-caja');
    // Only the till (issue 13): the back office's TPV screens (terminals, buttons, closings, tickets) are Ventas'.
    expect(await entradasDelMenu(page, { secciones: false })).toEqual(['/tpv']);
    // At most the Ventas group that holds the till.
    for (const t of await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('button').allTextContents()) expect(t).toMatch(/Ventas/);
    expect(await page.getByText('Nuevo artículo').count()).toBe(0);
    // Typed by hand, an address of the back office is not entered either.
    await page.goto('/catalogo/articulos');
    await page.getByText('Su rol no permite entrar en esta sección.').waitFor();
    await page.goto('/ventas/tickets');
    await page.getByText('Su rol no permite entrar en esta sección.').waitFor();
    for (const ac of ['listadoarticulos', 'listadoclientes', 'listadousuarios', 'copiaseguridad', 'graficoinicio', 'listadoterminales', 'listadocierrestpv']) {
      const res = await api(page, ac);
      expect([ac, res.status, res.RESULT]).toEqual([ac, 403, '1']);
      expect(res.message).toMatch(/^Su rol no permite /);
    }
  });

  it('Consulta: every screen of its menu, and a record of each list, without a button that would change anything', async () => {
    const page = await entrarComo('consulta');
    const entradas = await entradasDelMenu(page);
    expect(entradas).toEqual(expect.arrayContaining(['/catalogo/articulos', '/compras/proveedores', '/ventas/clientes', '/almacenes', '/config', '/config/usuarios', '/config/roles']));
    // Nothing it couldn't use.
    for (const fuera of ['/catalogo/cambio-precios', '/catalogo/importar', '/ventas/hfa', '/config/utilidades']) expect(entradas).not.toContain(fuera);
    // Its quick links only read: the reports (issue 14) and, where the role may look at it, the till.
    for (const l of await page.getByTestId('accesos').getByRole('link').all()) expect(await l.getAttribute('href')).toMatch(/^\/(informes|tpv)$/);

    const encontrados: string[] = [];
    for (const href of entradas) {
      await page.goto(href);
      await cargada(page);
      encontrados.push(...(await botonesQueCambian(page)).map((n) => `${href}: ${n}`));
      // The first record of a list, read-only.
      const registro = page.locator('main table tbody a').first();
      // A report's rows are not records: they open the report one level down (informes.e2e.ts follows them).
      if (!href.startsWith('/informes') && (await registro.count())) {
        const destino = (await registro.getAttribute('href')) ?? '';
        await registro.click();
        // A report's rows open the report one level down: their links carry a query.
        await page.waitForURL((u) => u.pathname === new URL(destino, u.href).pathname);
        await cargada(page);
        encontrados.push(...(await botonesQueCambian(page)).map((n) => `${destino}: ${n}`));
      }
    }
    await screenshot(page, 'roles-consulta');
    expect(encontrados).toEqual([]);
    // The server agrees.
    const res = await api(page, 'editarfamilia', {}, { codigo: 'X', nombre: 'X' });
    expect(res).toMatchObject({ status: 403, RESULT: '1', message: 'Su rol no permite crear ni modificar en Catálogo.' });
  }, 240_000);

  it('Gestión: everything else, but no Usuarios, Roles, Copias or VERI*FACTU', async () => {
    const page = await entrarComo('gestion');
    const entradas = await entradasDelMenu(page);
    expect(entradas).toEqual(expect.arrayContaining(['/catalogo/articulos', '/compras/pedidos', '/ventas/facturas', '/almacenes', '/config', '/config/series', '/config/utilidades']));
    for (const fuera of ['/config/usuarios', '/config/roles', '/config/verifactu']) expect(entradas).not.toContain(fuera);
    await page.getByRole('button', { name: 'Configuración' }).click();
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitem', { name: 'Usuarios' }).count()).toBe(0);
    expect(await menu.getByRole('menuitem', { name: 'VERI*FACTU' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // Utilidades: the stock check, not the backups.
    await page.goto('/config/utilidades');
    await page.getByRole('button', { name: 'Comprobar stock' }).waitFor();
    expect(await page.getByText('Descargar copia de seguridad').count()).toBe(0);
    expect(await page.getByText('Restaurar una copia').count()).toBe(0);
    // The company data, not the modules.
    await page.goto('/config');
    await page.getByRole('button', { name: 'Guardar' }).waitFor();
    expect(await page.getByRole('switch', { name: /^Ventas\b/ }).isDisabled()).toBe(true);
    await page.goto('/config/usuarios');
    await page.getByText('Su rol no permite entrar en esta sección.').waitFor();
    await page.goto('/config/verifactu');
    await page.getByText('Su rol no permite entrar en esta sección.').waitFor();
    await screenshot(page, 'roles-gestion');

    for (const ac of ['copiaseguridad', 'listadoverifactu', 'listadoroles']) {
      const res = await api(page, ac);
      expect([ac, res.status]).toEqual([ac, 403]);
    }
    expect((await api(page, 'listadoclientes')).status).toBe(200);
  });
});
