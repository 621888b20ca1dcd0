import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encenderModulos, login, openBrowser, screenshot, type Browser } from '../support/browser';
import { filas, post } from '../support/documentos';
import { ok } from '../support/op';

/**
 * Issue 26, a distributor's week of money (one story, in order): a supplier's invoice reconciled with its albarán pays
 * at 30 and 60 days; Compras › Pagos shows it owed and pays its first half by a SEPA transfer file (pain.001.001.03,
 * valid against its schema); the company's SEPA creditor identifier typed in Configuración (a wrong one refused);
 * three customers invoiced by direct debit, one without a mandate; Ventas › Remesas gathers the two that can go,
 * its file (pain.008.001.02) validates against its schema, the remesa is marked paid and one receipt is returned
 * (AM04), its invoice owing again. At each step the home page's «Pendiente» (resumeninicio) shows what waits — the
 * purchase order to receive, the supplier's payment due this week, the customers' overdue receipts — and it changes
 * once done. The data the screens don't make (suppliers, customers, the order, the invoices) is made through op.asp,
 * as the other stories' fixtures are.
 */

const XSD_001 = fileURLToPath(new URL('../../server/src/fiscal/xsd/pain.001.001.03.xsd', import.meta.url));
const XSD_008 = fileURLToPath(new URL('../../server/src/fiscal/xsd/pain.008.001.02.xsd', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'mtpv-sepa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let b: Browser;
beforeEach(async () => {
  b = await openBrowser({ width: 1366, height: 768 });
  await login(b.page);
  await b.page.waitForURL((u) => u.pathname === '/');
});
afterEach(async () => {
  await b.close();
});

/** op.asp that must succeed, its first row (the saved record). */
const uno = async (page: Page, ac: string, body: Record<string, unknown>) => (await ok(page, ac, {}, body))[0] as Record<string, number | string>;
/** The rows of a listado. */
const filasDe = (page: Page, ac: string, query: Record<string, string | number> = {}) => ok(page, ac, query);
const hoy = () => new Date().toISOString().slice(0, 10);
const dias = (n: number) => {
  const d = new Date(`${hoy()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const xmllint = (xsd: string, file: string) => spawnSync('xmllint', ['--noout', '--nonet', '--schema', xsd, file], { encoding: 'utf8' });
/** Cents as the screens write them: «12.100,00 €». */
const euros = (c: number) => `${String(Math.floor(Math.abs(c) / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${String(Math.abs(c) % 100).padStart(2, '0')} €`;

type Pendiente = { clave: string; titulo: string; documentos: number; importe: number | null; detalle?: { nombre: string; importe: number }[] };

/**
 * The home page's «Pendiente» card titled `titulo`, as the clerk sees it, checked against what `resumeninicio` answers
 * for it (other stories may have left their own items waiting: the figures here are the totals, the story checks
 * what it adds and takes away). Nothing waiting: no card at all.
 */
async function pendiente(page: Page, titulo: string): Promise<{ documentos: number; importe: number; texto: string }> {
  const respuesta = page.waitForResponse((r) => r.url().includes('ac=resumeninicio'));
  await page.goto('/');
  const datos = (await (await respuesta).json()).data as Pendiente[];
  const item = datos.find((p) => p.titulo === titulo);
  const seccion = page.getByRole('region', { name: 'Pendiente' });
  if (!item) {
    await page.getByRole('heading', { name: 'Pedidos por mes' }).waitFor();
    expect(await seccion.getByRole('link').filter({ hasText: titulo }).count()).toBe(0);
    return { documentos: 0, importe: 0, texto: '' };
  }
  const tarjeta = seccion.getByRole('link').filter({ hasText: titulo });
  await tarjeta.waitFor();
  const texto = (await tarjeta.textContent()) ?? '';
  if (item.importe !== null) expect(texto).toContain(euros(item.importe));
  expect(texto).toMatch(new RegExp(`\\b${item.documentos} `));
  return { documentos: item.documentos, importe: item.importe ?? 0, texto };
}

const s: { factura?: string; facturas?: number[]; totales?: number[] } = {};

describe('SEPA: paying suppliers and collecting by direct debit', () => {
  it('a supplier invoice at 30 and 60 days is owed in Compras › Pagos; its first half is paid by a SEPA transfer file valid against pain.001.001.03', async () => {
    const { page } = b;
    await encenderModulos(
      page,
      ['listadoproveedores', 'listadopedidoscompra', 'listadoalbaranescompra', 'listadofacturasproveedor', 'listadoclientes', 'listadofacturas'],
      ['Compras', 'Pedidos de compra', 'Albaranes de compra', 'Conciliación de proveedores', 'Ventas', 'Facturas y rectificativas'],
    );
    const almacen = (await filasDe(page, 'listadoalmacenes', { porPagina: 100 }))[0].id;
    const articulo = (await filasDe(page, 'listadoarticulos', { porPagina: 10 }))[0].id;
    const prov = await uno(page, 'editarproveedor', {
      nif: 'B46103834', razon_social: 'Suministros SEPA e2e, S.L.', codigo_postal: '46004', iban: 'ES7620770024003102575766', forma_pago: 'recibo_30_60',
    });
    // A purchase order sent: the home page counts one more to receive; received, one fewer.
    const porRecibir = 'Pedidos de compra por recibir';
    const antes = await pendiente(page, porRecibir);
    // 10 × 10,00 € + 21 % = 121,00 €.
    const pedido = await uno(page, 'editarpedidocompra', { fecha: hoy(), proveedor_id: prov.id, almacen_id: almacen, lineas: [{ articulo_id: articulo, cantidad: 10_000, precio: 100_000 }] });
    await uno(page, 'enviarpedidocompra', { id: pedido.id });
    const enviado = await pendiente(page, porRecibir);
    expect(enviado.documentos).toBe(antes.documentos + 1);
    expect(enviado.importe).toBe(antes.importe + Number(pedido.total));
    await screenshot(page, 'sepa-inicio-pedido');
    const recibido = (await uno(page, 'recibirpedidocompra', { id: pedido.id })) as unknown as { hijos: { id: number }[] };
    const alb = (await filasDe(page, 'listadoalbaranescompra', { id: recibido.hijos[0].id }))[0] as Record<string, number>;
    expect(await pendiente(page, porRecibir)).toMatchObject({ documentos: antes.documentos, importe: antes.importe });
    // Its invoice, its first instalment due today (typed, as the invoice says) and the second in 30 days: the first is
    // a supplier payment of this week on the home page.
    const estaSemana = 'Pagos a proveedores de esta semana';
    const sinFactura = await pendiente(page, estaSemana);
    const fac = await uno(page, 'editarfacturaproveedor', {
      proveedor_id: prov.id, numero_proveedor: 'SE-2026/0042', fecha: hoy(), total: alb.total, albaranes: [alb.id], vencimientos: [hoy(), dias(30)],
    });
    s.factura = String(fac.numero_proveedor);
    // Two equal instalments (the odd cent on the first).
    const total = Number(alb.total);
    const primera = total - Math.floor(total / 2);
    // The company's account and bank for the file.
    const conf = (await filasDe(page, 'listadoconfiguraciones'))[0];
    await uno(page, 'editarconfiguracion', { ...conf, iban: 'ES9121000418450200051332', bic: 'CAIXESBBXXX' });

    const debida = await pendiente(page, estaSemana);
    expect(debida.documentos).toBe(sinFactura.documentos + 1);
    expect(debida.importe).toBe(sinFactura.importe + primera);
    await screenshot(page, 'sepa-inicio-pago-semana');
    // The card leads to what is due this week in Compras › Pagos.
    await page.getByRole('region', { name: 'Pendiente' }).getByRole('link').filter({ hasText: estaSemana }).click();
    await page.waitForURL((u) => u.pathname === '/compras/pagos' && u.searchParams.get('estado') === 'semana');
    await page.getByRole('table', { name: 'Vencimientos pendientes' }).getByRole('row').filter({ hasText: 'SE-2026/0042 (1.º)' }).waitFor();
    await page.goto('/compras');
    await page.getByRole('navigation', { name: 'Compras' }).getByRole('link', { name: 'Pagos', exact: true }).click();
    await page.waitForURL(/\/compras\/pagos$/);
    // The list keeps the filter the card set (this week's): every instalment again.
    await page.getByRole('combobox', { name: 'Vencimiento', exact: true }).selectOption('');
    const lista = page.getByRole('table', { name: 'Vencimientos pendientes' });
    const fila = lista.getByRole('row').filter({ hasText: 'SE-2026/0042 (1.º)' });
    await fila.waitFor();
    expect(await fila.textContent()).toContain(euros(primera));
    await page.getByRole('table', { name: 'Pendiente por proveedor' }).getByRole('row').filter({ hasText: 'Suministros SEPA e2e' }).waitFor();
    await screenshot(page, 'sepa-pagos');

    await fila.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Transferencia SEPA (1)' }).click();
    const dialogo = page.getByRole('dialog', { name: 'Transferencia SEPA' });
    await dialogo.getByLabel(/^Fecha de ejecución/).fill(dias(1));
    const descarga = page.waitForEvent('download');
    const body = await post(page, 'transferenciaproveedores', () => dialogo.getByRole('button', { name: 'Generar fichero' }).click());
    expect(body.data[0].pagos).toBe(1);
    const archivo = await descarga;
    expect(archivo.suggestedFilename()).toBe(`transferencias-${dias(1)}.xml`);
    const file = path.join(dir, 'pain001.xml');
    await archivo.saveAs(file);
    const esquema = xmllint(XSD_001, file);
    expect(esquema.status, esquema.stderr).toBe(0);
    const xml = readFileSync(file, 'utf8');
    expect(xml).toContain(`<CtrlSum>${(primera / 100).toFixed(2)}</CtrlSum>`);
    expect(xml).toContain('<IBAN>ES7620770024003102575766</IBAN>');
    // Paid: only the second half is left.
    await lista.getByRole('row').filter({ hasText: 'SE-2026/0042 (1.º)' }).waitFor({ state: 'detached' });
    await lista.getByRole('row').filter({ hasText: 'SE-2026/0042 (2.º)' }).waitFor();
    await page.goto(`/compras/proveedor/${prov.id}`);
    await expect.poll(() => page.getByTestId('pendiente-pago').textContent()).toBe(euros(total - primera));
    // Paid: no longer waiting on the home page (the second half is due in 30 days, not this week).
    expect(await pendiente(page, estaSemana)).toMatchObject({ documentos: sinFactura.documentos, importe: sinFactura.importe });
  });

  it('the creditor identifier in Configuración; three customers invoiced by direct debit, a remesa of the two with a mandate, its pain.008.001.02 valid, paid, one receipt returned', async () => {
    const { page } = b;
    await page.goto('/config');
    const acreedor = page.getByLabel(/^Identificador de acreedor SEPA/);
    await acreedor.fill('ES00ZZZB12345678');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('El identificador de acreedor SEPA no es válido', { exact: false }).first().waitFor();
    await acreedor.fill('ES97ZZZB12345678');
    await post(page, 'editarconfiguracion', () => page.getByRole('button', { name: 'Guardar' }).click());

    const almacen = (await filasDe(page, 'listadoalmacenes', { porPagina: 100 }))[0].id;
    // A serie of its own: its invoices are dated 40 days ago (due 10 days ago, overdue), before any of today's in A.
    const serie = (await uno(page, 'editarserie', { codigo: 'SEPA', descripcion: 'Remesas e2e', tipo: 'normal' })).id;
    const vencidos = 'Cobros vencidos';
    const antes = await pendiente(page, vencidos);
    const articulo = (await filasDe(page, 'listadoarticulos', { porPagina: 10 }))[0].id;
    const clientes = [
      { nif: 'B91734061', razon_social: 'Reformas SEPA e2e, S.L.', iban: 'ES6000491500051234567892', mandato_referencia: 'RS-E2E-1', mandato_fecha: dias(-30), mandato_esquema: 'CORE' },
      { nif: 'A92885136', razon_social: 'Construcciones Peñalara e2e, S.A.', iban: 'ES1000492352082414205416', mandato_referencia: 'CP-E2E-7', mandato_fecha: '2024-03-01', mandato_secuencia: 'RCUR', mandato_esquema: 'B2B' },
      { nif: 'B93617256', razon_social: 'Talleres sin mandato e2e, S.L.' },
    ];
    s.facturas = [];
    s.totales = [];
    for (const c of clientes) {
      const cli = await uno(page, 'editarcliente', { ...c, codigo_postal: '28020', forma_pago: 'recibo_30' });
      const f = await uno(page, 'editarfactura', { fecha: dias(-40), cliente_id: cli.id, almacen_id: almacen, serie_id: serie, forma_pago: 'recibo_30', lineas: [{ articulo_id: articulo, cantidad: 1_000, precio: 1_000_000 }] });
      const emitida = await uno(page, 'emitirfactura', { id: f.id });
      s.facturas.push(Number(f.id));
      s.totales.push(Number(emitida.total));
    }
    const [t0, t1, t2] = s.totales;
    // The three receipts are overdue: the home page says so, with what they add.
    const debidos = await pendiente(page, vencidos);
    expect(debidos.documentos).toBe(antes.documentos + 3);
    expect(debidos.importe).toBe(antes.importe + t0 + t1 + t2);
    await screenshot(page, 'sepa-inicio-cobros-vencidos');

    await page.goto('/ventas');
    await page.getByRole('navigation', { name: 'Ventas' }).getByRole('link', { name: 'Remesas', exact: true }).click();
    await page.waitForURL(/\/ventas\/remesas$/);
    await page.getByRole('button', { name: 'Nueva remesa' }).click();
    await page.getByLabel(/^Vencimientos hasta/).fill(dias(31));
    await page.getByLabel(/^Fecha de cargo/).fill(dias(2));
    await page.getByRole('button', { name: 'Buscar recibos' }).click();
    const recibos = page.getByRole('table', { name: 'Recibos pendientes' });
    const sinMandato = recibos.getByRole('checkbox', { name: /Talleres sin mandato e2e/ });
    await sinMandato.waitFor();
    expect(await sinMandato.isDisabled()).toBe(true);
    // Others' receipts (another story's customers) out: only this story's two.
    for (const box of await recibos.getByRole('checkbox').all()) {
      const nombre = (await box.getAttribute('aria-label')) ?? '';
      if (!(await box.isDisabled()) && !/SEPA e2e|Peñalara e2e/.test(nombre)) await box.uncheck();
    }
    await expect.poll(() => page.getByTestId('total-remesa').textContent()).toContain('2 recibos');
    await screenshot(page, 'sepa-remesa-nueva');
    await post(page, 'editarremesa', () => page.getByRole('button', { name: 'Crear remesa' }).click());
    await page.waitForURL(/\/ventas\/remesa\/\d+$/);
    const tabla = page.getByRole('table', { name: 'Recibos de la remesa' });
    await tabla.getByRole('row').filter({ hasText: 'RS-E2E-1 · CORE · FRST' }).waitFor();
    await tabla.getByRole('row').filter({ hasText: 'CP-E2E-7 · B2B · RCUR' }).waitFor();

    const descarga = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Descargar fichero SEPA' }).click();
    const file = path.join(dir, 'pain008.xml');
    await (await descarga).saveAs(file);
    const esquema = xmllint(XSD_008, file);
    expect(esquema.status, esquema.stderr).toBe(0);
    const xml = readFileSync(file, 'utf8');
    const suma = ((s.totales[0] + s.totales[1]) / 100).toFixed(2);
    expect(xml).toMatch(new RegExp(`<GrpHdr>[\\s\\S]*<NbOfTxs>2</NbOfTxs>\\s*<CtrlSum>${suma.replace('.', '\\.')}</CtrlSum>`));
    expect(xml).toContain('<Id>ES97ZZZB12345678</Id>');

    await page.getByRole('button', { name: 'Registrar cobro' }).click();
    await post(page, 'pagarremesa', () => page.getByRole('dialog', { name: 'Registrar el cobro de la remesa' }).getByRole('button', { name: 'Registrar cobro' }).click());
    await expect.poll(() => page.getByTestId('estado-remesa').textContent()).toBe('Cobrada');
    const cobrada = await filasDe(page, 'listadofacturas', { id: s.facturas[0] });
    expect(cobrada[0].por_cobrar).toBe(0);
    // Collected: only the customer without a mandate is still overdue.
    expect(await pendiente(page, vencidos)).toMatchObject({ documentos: antes.documentos + 1, importe: antes.importe + t2 });
    await page.goBack();
    await tabla.waitFor();

    await tabla.getByRole('button', { name: 'Devolución del recibo de Reformas SEPA e2e, S.L.' }).click();
    const dev = page.getByRole('dialog', { name: 'Registrar la devolución' });
    await dev.getByLabel(/^Motivo/).selectOption('AM04');
    await post(page, 'devolverrecibo', () => dev.getByRole('button', { name: 'Registrar devolución' }).click());
    await tabla.getByText(/Devuelto el .*: AM04 · Fondos insuficientes/).waitFor();
    await screenshot(page, 'sepa-remesa-devuelta');
    expect((await filas(tabla)).length).toBe(2);
    const reabierta = await filasDe(page, 'listadofacturas', { id: s.facturas[0] });
    expect(reabierta[0].por_cobrar).toBe(s.totales[0]);
    // Returned: its receipt is overdue again on the home page.
    const devuelto = await pendiente(page, vencidos);
    expect(devuelto).toMatchObject({ documentos: antes.documentos + 2, importe: antes.importe + t2 + t0 });
  });
});
