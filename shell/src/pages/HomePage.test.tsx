import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROL_PREDEFINIDO, type DeployInfo, type RolPredefinido } from 'shared';
import { allFlags, createFakeApi, renderWithShell } from 'shared/testing';
import { HomePage } from './HomePage';

// The chart (recharts) is not what these tests look at.
vi.mock('./HomeChart', () => ({ default: () => <p>gráfico</p> }));
afterEach(cleanup);

const deploy: DeployInfo = {
  remotes: [
    { name: 'mf_config', prefix: '/config', group: 'Configuración', entries: [], manifest: '' },
    { name: 'mf_catalogo', prefix: '/catalogo', group: 'Productos', entries: [], manifest: '' },
    { name: 'mf_compras', prefix: '/compras', group: 'Compras', module: 'compras', entries: [], manifest: '' },
    { name: 'mf_ventas', prefix: '/ventas', group: 'Ventas', module: 'ventas', entries: [], manifest: '' },
  ],
  branding: { title: 'Manager TPV', logo: '', favicon: '' },
};
const api = () => createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }) }).api;

describe('HomePage', () => {
  it('«Nueva compra» opens a new pedido de compra', () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: allFlags(1) });
    expect(screen.getByText('Nueva compra').closest('a')?.getAttribute('href')).toBe('/compras/pedido/nuevo-pedido');
  });

  it('without compras_pedidos, «Nueva compra» opens a new albarán de compra', () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), compras_pedidos: 0 } });
    expect(screen.getByText('Nueva compra').closest('a')?.getAttribute('href')).toBe('/compras/albaran/nuevo-albaran');
  });

  it('without compras, no «Nueva compra»', () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), compras: 0 } });
    expect(screen.queryByText('Nueva compra')).toBeNull();
  });

  it('«Nueva venta» opens a new invoice with ventas_facturas', () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: allFlags(1) });
    expect(screen.getByText('Nueva venta').closest('a')?.getAttribute('href')).toBe('/ventas/factura/nueva-factura');
  });

  it('without ventas_facturas «Nueva venta» opens a new albarán, and without albaranes a pedido', () => {
    const r = renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), ventas_facturas: 0 } });
    expect(screen.getByText('Nueva venta').closest('a')?.getAttribute('href')).toBe('/ventas/albaran/nuevo-albaran');
    r.unmount();
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), ventas_facturas: 0, ventas_albaranes: 0 } });
    expect(screen.getByText('Nueva venta').closest('a')?.getAttribute('href')).toBe('/ventas/pedido/nuevo-pedido');
  });

  it('without ventas, or without any sales document, no «Nueva venta»', () => {
    const r = renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), ventas: 0 } });
    expect(screen.queryByText('Nueva venta')).toBeNull();
    r.unmount();
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), ventas_facturas: 0, ventas_albaranes: 0, ventas_pedidos: 0 } });
    expect(screen.queryByText('Nueva venta')).toBeNull();
  });

  it('shows VERI*FACTU’s warnings where invoices are on, with where to solve them', async () => {
    const fake = createFakeApi({
      graficoinicio: () => ({ RESULT: '0', data: [] }),
      listadoverifactu: () => ({
        RESULT: '0',
        data: [
          {
            activo: 1,
            avisos: [
              { nivel: 'error', texto: 'La AEAT ha rechazado 2 registros de facturación que no se han subsanado' },
              { nivel: 'aviso', texto: 'El certificado de la empresa caduca el 01/12/2026' },
            ],
          },
        ],
      }),
    });
    renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1) });
    const avisos = await screen.findByLabelText('Avisos de VERI*FACTU');
    expect(within(avisos).getByRole('alert').textContent).toBe('La AEAT ha rechazado 2 registros de facturación que no se han subsanado');
    expect(within(avisos).getByRole('status').textContent).toBe('El certificado de la empresa caduca el 01/12/2026');
    expect(within(avisos).getByRole('link', { name: 'Ver los registros de facturación' }).getAttribute('href')).toBe('/ventas/registros');
    expect(within(avisos).getByRole('link', { name: 'Configuración de VERI*FACTU' }).getAttribute('href')).toBe('/config/verifactu');
  });

  it('issue 22: a live company\'s records not sent for over an hour, or sending failing, are on the home page with the way out', async () => {
    const FALLA =
      'El envío de los registros de facturación a la AEAT está fallando (No se pudo conectar con la AEAT); queda 1 registro sin enviar. Revise el certificado y la conexión en Configuración › VERI*FACTU y pulse «Enviar ahora».';
    const fake = createFakeApi({
      graficoinicio: () => ({ RESULT: '0', data: [] }),
      listadoverifactu: () => ({ RESULT: '0', data: [{ activo: 1, fecha_obligacion: '2027-01-01', dias_obligacion: 300, avisos: [{ nivel: 'error', clave: 'envio', texto: FALLA }] }] }),
    });
    renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1) });
    const avisos = await screen.findByLabelText('Avisos de VERI*FACTU');
    expect(within(avisos).getByRole('alert').textContent).toBe(FALLA);
    expect(within(avisos).getByRole('link', { name: 'Configuración de VERI*FACTU' }).getAttribute('href')).toBe('/config/verifactu');
  });

  it('without ventas_facturas it does not ask for VERI*FACTU; no warnings, nothing shown', async () => {
    const off = createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }) });
    const r = renderWithShell(<HomePage deploy={deploy} />, { api: off.api, flags: { ...allFlags(1), ventas_facturas: 0 } });
    await screen.findByText('gráfico');
    expect(off.calls.map((c) => c.ac)).not.toContain('listadoverifactu');
    r.unmount();

    const none = createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }), listadoverifactu: () => ({ RESULT: '0', data: [{ avisos: [] }] }) });
    renderWithShell(<HomePage deploy={deploy} />, { api: none.api, flags: allFlags(1) });
    await screen.findByText('gráfico');
    expect(none.calls.map((c) => c.ac)).toContain('listadoverifactu');
    expect(screen.queryByLabelText('Avisos de VERI*FACTU')).toBeNull();
  });

  const con = (clave: RolPredefinido) => ({ id: 2, nombre: 'Ana', email: 'ana@demo.es', rol: { id: 4, nombre: ROL_PREDEFINIDO[clave].nombre, clave, derechos: ROL_PREDEFINIDO[clave].derechos } });

  it('Caja: the role only works at the TPV — a notice, no quick links, no chart, no warnings', () => {
    const fake = createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }), listadoverifactu: () => ({ RESULT: '0', data: [] }) });
    renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1), user: con('caja') });
    expect(screen.getByRole('status').textContent).toBe('Su rol (Caja) solo trabaja en el TPV: no tiene acceso a las secciones de gestión.');
    expect(screen.queryByTestId('accesos')).toBeNull();
    expect(screen.queryByText('Pedidos por mes')).toBeNull();
    expect(fake.calls).toEqual([]);
  });

  it('the till: a «TPV» link where the flag is on, the role sells and mf_tpv is deployed (Caja too)', () => {
    const conTpv: DeployInfo = { ...deploy, remotes: [...deploy.remotes, { name: 'mf_tpv', prefix: '/tpv', group: 'Ventas', module: 'tpv', pantallaCompleta: true, entries: [{ path: '', label: 'TPV' }], manifest: '' }] };
    const fake = createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }), listadoverifactu: () => ({ RESULT: '0', data: [] }) });
    const r = renderWithShell(<HomePage deploy={conTpv} />, { api: fake.api, flags: allFlags(1), user: con('caja') });
    expect(screen.getByRole('status').textContent).toBe('Su rol (Caja) solo trabaja en el TPV: no tiene acceso a las secciones de gestión.');
    expect(within(screen.getByTestId('accesos')).getByRole('link', { name: /TPV/ }).getAttribute('href')).toBe('/tpv');
    r.unmount();
    renderWithShell(<HomePage deploy={conTpv} />, { api: fake.api, flags: allFlags(1) });
    expect(screen.getByText('TPV').closest('a')?.getAttribute('href')).toBe('/tpv');
    cleanup();
    renderWithShell(<HomePage deploy={conTpv} />, { api: fake.api, flags: { ...allFlags(1), tpv: 0 } });
    expect(screen.queryByText('TPV')).toBeNull();
    cleanup();
    renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1) });
    expect(screen.queryByText('TPV')).toBeNull();
  });

  it('Consulta: no «Nuevo…» it could not save; Gestión: no VERI*FACTU warnings it may not see', async () => {
    const fake = createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }), listadoverifactu: () => ({ RESULT: '0', data: [{ avisos: [{ nivel: 'error', texto: 'X' }] }] }) });
    const r = renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1), user: con('consulta') });
    // Only what it may read: the reports.
    expect(within(screen.getByTestId('accesos')).queryAllByRole('link').map((a) => a.querySelector('strong')?.textContent)).toEqual(['Informes']);
    expect(screen.getByText('Pedidos por mes')).toBeTruthy();
    r.unmount();
    fake.calls.length = 0;
    renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1), user: con('gestion') });
    expect(screen.getByText('Nueva venta')).toBeTruthy();
    expect(screen.getByText('Nuevo artículo')).toBeTruthy();
    await screen.findByText('Pedidos por mes');
    // What is waiting is asked of everyone (the server filters it by role); VERI*FACTU's warnings are not.
    expect(fake.calls.map((c) => c.ac).sort()).toEqual(['graficoinicio', 'resumeninicio']);
  });

  it('«Informes» and the chart\'s months open the reports of that month', async () => {
    const conInformes: DeployInfo = { ...deploy, remotes: [...deploy.remotes, { name: 'mf_informes', prefix: '/informes', group: 'Informes', entries: [], manifest: '' }] };
    const fake = createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [{ mes: '2026-02', compras: 100, ventas: 200 }] }) });
    renderWithShell(<HomePage deploy={conInformes} />, { api: fake.api, flags: allFlags(1) });
    expect(screen.getByText('Informes').closest('a')?.getAttribute('href')).toBe('/informes');
    const meses = await screen.findAllByRole('link', { name: 'feb 2026' });
    expect(meses.map((a) => a.getAttribute('href'))).toEqual([
      '/informes/info-ventas?desde=2026-02-01&hasta=2026-02-28&agrupar=cliente',
      '/informes/info-compras?desde=2026-02-01&hasta=2026-02-28&agrupar=proveedor',
    ]);
  });

  it('without the reports deployed, «Informes» says so and the months open nothing', async () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: allFlags(1) });
    expect(screen.getByText('Informes').closest('a')?.getAttribute('aria-disabled')).toBe('true');
    expect(screen.queryByText('Abrir un mes en Informes')).toBeNull();
  });
});

describe('HomePage: what is waiting (issue 26)', () => {
  it('each thing waiting is a link to its filtered list, with its amount and the three customers who owe most', async () => {
    const fake = createFakeApi({
      graficoinicio: () => ({ RESULT: '0', data: [] }),
      resumeninicio: () => ({
        RESULT: '0',
        data: [
          { clave: 'cobros_vencidos', titulo: 'Cobros vencidos', documentos: 2, importe: 36_300, ruta: '/ventas/facturas?cobro=vencida', detalle: [{ nombre: 'Droguería Sol, S.L.', importe: 24_200 }, { nombre: 'Reformas Hernández, S.L.', importe: 12_100 }] },
          { clave: 'pedidocompra_enviado', titulo: 'Pedidos de compra por recibir', documentos: 1, importe: 60_500, ruta: '/compras/pedidos?estado=enviado' },
          { clave: 'registros_pendientes', titulo: 'Registros de facturación sin enviar', documentos: 3, importe: null, ruta: '/ventas/registros?estado_envio=pendiente' },
          // A section not deployed here is not offered.
          { clave: 'bajo_minimo', titulo: 'Artículos bajo su stock mínimo', documentos: 1, importe: null, ruta: '/informes/info-inventario?vista=bajo_minimo' },
        ],
      }),
    });
    renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1) });
    const zona = await screen.findByRole('region', { name: 'Pendiente' });
    const enlaces = within(zona).getAllByRole('link');
    expect(enlaces.map((a) => a.getAttribute('href'))).toEqual(['/ventas/facturas?cobro=vencida', '/compras/pedidos?estado=enviado', '/ventas/registros?estado_envio=pendiente']);
    expect(enlaces[0]!.textContent).toContain('363,00');
    expect(enlaces[0]!.textContent).toContain('2 facturas');
    expect(enlaces[0]!.textContent).toContain('Droguería Sol, S.L.: 242,00');
    expect(enlaces[2]!.textContent).toContain('3 registros');
  });

  it('nothing waiting: no section', async () => {
    const fake = createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }), resumeninicio: () => ({ RESULT: '0', data: [] }) });
    renderWithShell(<HomePage deploy={deploy} />, { api: fake.api, flags: allFlags(1) });
    await vi.waitFor(() => expect(fake.calls.some((c) => c.ac === 'resumeninicio')).toBe(true));
    expect(screen.queryByRole('region', { name: 'Pendiente' })).toBeNull();
  });
});
