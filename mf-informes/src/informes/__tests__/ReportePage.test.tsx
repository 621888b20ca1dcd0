import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from 'shared';
import type { Derechos } from 'shared/domain';
import { allFlags, renderWithShell, type FakeCall } from 'shared/testing';
import { fakeInformes } from '../../fakeInformes';
import Section from '../../section';
import { rangoPeriodo } from '../periodo';

// The chart library draws SVG a DOM without layout can't; the test checks what it is given.
vi.mock('react-apexcharts', () => ({
  default: (props: { type: string; series: unknown }) => <div data-testid="apex" data-type={props.type} data-series={JSON.stringify(props.series)} />,
}));

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname + l.search}</output>;
}
const where = () => screen.getByTestId('where').textContent ?? '';
const search = () => new URLSearchParams(where().split('?')[1] ?? '');

type Sesion = { rol: { id: number; nombre: string; clave: null; derechos: Derechos }; acciones: Record<string, string> };

function render(route: string, opts: { fake?: ReturnType<typeof fakeInformes>; userId?: number; flags?: ReturnType<typeof allFlags>; sesion?: Sesion } = {}) {
  const fake = opts.fake ?? fakeInformes();
  const r = renderWithShell(
    <>
      <Routes>
        <Route path="/informes/*" element={<Section />} />
        <Route path="*" element={<p>fuera</p>} />
      </Routes>
      <Where />
    </>,
    {
      route,
      api: fake.api,
      flags: opts.flags ?? allFlags(1),
      user: { id: opts.userId ?? 1, nombre: 'Ana', email: 'ana@demo.es', ...(opts.sesion ? { rol: opts.sesion.rol } : {}) },
      ...(opts.sesion ? { acciones: opts.sesion.acciones } : {}),
    },
  );
  return { ...r, fake };
}
const llamadas = (calls: FakeCall[], ac = 'informeventas') => calls.filter((c) => c.ac === ac);

describe('a report', () => {
  it('starts with this month grouped by month, written into the address', async () => {
    const { fake } = render('/informes/info-ventas');
    const mes = rangoPeriodo('este-mes');
    await waitFor(() => expect(search().get('desde')).toBe(mes.desde));
    expect(search().get('hasta')).toBe(mes.hasta);
    expect(search().get('agrupar')).toBe('mes');
    await waitFor(() => expect(llamadas(fake.calls).find((c) => c.params?.porPagina === 25)?.params).toMatchObject({ desde: mes.desde, hasta: mes.hasta, agrupar: 'mes', pagina: 1 }));
    expect(screen.getByRole('button', { name: 'Este mes' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('reads its filters from the address and sends them', async () => {
    const { fake } = render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente&cliente_id=7&familia_id=3');
    await screen.findByText('Ferretería Sol');
    expect(llamadas(fake.calls)[0].params).toMatchObject({ desde: '2026-01-01', hasta: '2026-01-31', agrupar: 'cliente', cliente_id: '7', familia_id: '3' });
    expect((screen.getByLabelText('Desde') as HTMLInputElement).value).toBe('2026-01-01');
    expect((screen.getByRole('combobox', { name: 'Agrupar por' }) as HTMLSelectElement).value).toBe('cliente');
    // The party picked is named, not numbered; the family select shows it.
    expect(await screen.findByText('Construcciones Norte SL')).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Familia' }) as HTMLSelectElement).value).toBe('3'));
    expect(screen.getByText('Más filtros (2 aplicados)')).toBeTruthy();
  });

  it('an address without a period gets this month, keeping what it says', async () => {
    const { fake } = render('/informes/info-ventas?agrupar=cliente');
    const mes = rangoPeriodo('este-mes');
    await waitFor(() => expect(search().get('desde')).toBe(mes.desde));
    expect(search().get('agrupar')).toBe('cliente');
    await screen.findByText('Ferretería Sol');
    expect(llamadas(fake.calls).every((c) => c.params?.desde === mes.desde)).toBe(true);
  });

  it('a quick choice sets the period and goes back to page 1', async () => {
    const { fake } = render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente&pagina=3');
    await screen.findByText('Ferretería Sol');
    await userEvent.click(screen.getByRole('button', { name: 'Año pasado' }));
    const ano = rangoPeriodo('ano-pasado');
    await waitFor(() => expect(llamadas(fake.calls).at(-1)?.params).toMatchObject({ ...ano, agrupar: 'cliente', pagina: 1 }));
    expect(search().get('desde')).toBe(ano.desde);
    expect(search().get('pagina')).toBeNull();
  });

  it('remembers the last filters per user', async () => {
    const first = render('/informes/info-ventas?desde=2026-02-01&hasta=2026-02-28&agrupar=cliente');
    await screen.findByText('Ferretería Sol');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Agrupar por' }), 'articulo');
    await waitFor(() => expect(search().get('agrupar')).toBe('articulo'));
    first.unmount();

    render('/informes/info-ventas', { userId: 1 });
    await waitFor(() => expect(search().get('agrupar')).toBe('articulo'));
    expect(search().get('desde')).toBe('2026-02-01');
    await screen.findByText('BRO-50 · Brocha 50 mm');
  });

  it("another user doesn't get them", async () => {
    const first = render('/informes/info-ventas?desde=2026-02-01&hasta=2026-02-28&agrupar=cliente', { userId: 1 });
    await screen.findByText('Ferretería Sol');
    first.unmount();
    render('/informes/info-ventas', { userId: 2 });
    await waitFor(() => expect(search().get('agrupar')).toBe('mes'));
    expect(search().get('desde')).toBe(rangoPeriodo('este-mes').desde);
  });

  it('shows the totals of the whole selection, with the margin worked out', async () => {
    render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente');
    await screen.findByText('Ferretería Sol');
    const foot = document.querySelector('tfoot tr') as HTMLElement;
    expect(within(foot).getByText('Total')).toBeTruthy();
    expect(within(foot).getByText('1.500,50 €')).toBeTruthy();
    expect(within(foot).getByText('1.815,60 €')).toBeTruthy();
    expect(within(foot).getByText('40,02 %')).toBeTruthy();
    // A negative amount (a return) is marked.
    expect(within(screen.getByText('Ferretería Sol').closest('tr')!).getByText('-25,00 €').className).toBe('neg');
  });

  it('a row drills down: a customer opens its articles over the same period', async () => {
    const { fake } = render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente');
    const link = await screen.findByRole('link', { name: 'Ferretería Sol' });
    const href = new URL(link.getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/informes/info-ventas');
    expect(Object.fromEntries(href.searchParams)).toMatchObject({ desde: '2026-01-01', hasta: '2026-01-31', agrupar: 'articulo', cliente_id: '9' });
    await userEvent.click(screen.getByText('Ferretería Sol').closest('tr')!.querySelectorAll('td')[2]);
    await waitFor(() => expect(search().get('cliente_id')).toBe('9'));
    await screen.findByText('BRO-50 · Brocha 50 mm');
    expect(llamadas(fake.calls).at(-1)?.params).toMatchObject({ agrupar: 'articulo', cliente_id: '9' });
    // An article opens its record in the catalogue.
    expect(screen.getByRole('link', { name: 'BRO-50 · Brocha 50 mm' }).getAttribute('href')).toBe('/catalogo/articulo/15');
  });

  it('a month opens that month by customer', async () => {
    render('/informes/info-ventas?desde=2026-10-01&hasta=2026-11-30&agrupar=mes');
    const link = await screen.findByRole('link', { name: 'nov 2026' });
    const href = new URL(link.getAttribute('href')!, 'http://x');
    expect(Object.fromEntries(href.searchParams)).toMatchObject({ desde: '2026-11-01', hasta: '2026-11-30', agrupar: 'cliente' });
  });

  it('by month, charts each month against the same month of last year', async () => {
    const { fake } = render('/informes/info-ventas?desde=2026-10-01&hasta=2026-11-30&agrupar=mes');
    const chart = await screen.findByTestId('apex');
    const series = JSON.parse(chart.getAttribute('data-series')!);
    expect(series).toHaveLength(2);
    expect(series[0].data).toEqual([100000, 50050]);
    expect(series[1].name).toBe('Mismos meses del año anterior');
    expect(llamadas(fake.calls).some((c) => c.params?.desde === '2025-10-01' && c.params?.hasta === '2025-11-30')).toBe(true);
  });

  it('grouped by a party, charts the top ten sorted by the figure', async () => {
    const { fake } = render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente');
    const chart = await screen.findByTestId('apex');
    expect(chart.getAttribute('data-type')).toBe('bar');
    expect(llamadas(fake.calls).some((c) => c.params?.orden === 'base' && c.params?.dir === 'desc' && c.params?.porPagina === 10)).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Reparto' }));
    expect((await screen.findByTestId('apex')).getAttribute('data-type')).toBe('donut');
  });

  it('sorting is kept in the address and sent', async () => {
    const { fake } = render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente');
    await screen.findByText('Ferretería Sol');
    await userEvent.click(screen.getByRole('button', { name: /^Total/ }));
    await waitFor(() => expect(search().get('orden')).toBe('total'));
    expect(llamadas(fake.calls).at(-1)?.params).toMatchObject({ orden: 'total', dir: 'asc' });
  });

  it('subtotals per family in the stock at a date sorted by family', async () => {
    const { fake } = render('/informes/info-inventario?fecha=2026-06-30&agrupar=articulo&vista=negativo&orden=familia&dir=asc');
    const sub = (await screen.findByText('Subtotal Ferretería')).closest('tr')!;
    expect(sub.className).toContain('subtotal');
    expect(within(sub).getByText('7,00 €')).toBeTruthy();
    expect(llamadas(fake.calls, 'informeinventario').find((c) => c.params?.porPagina === 25)?.params).toMatchObject({ fecha: '2026-06-30', agrupar: 'articulo', vista: 'negativo', orden: 'familia' });
    expect((screen.getByLabelText('Stock a fecha') as HTMLInputElement).value).toBe('2026-06-30');
    // An article's stock opens its movements.
    const link = screen.getAllByRole('link', { name: 'A1' })[0];
    expect(link.getAttribute('href')).toContain('/informes/info-movimientos?');
    expect(link.getAttribute('href')).toContain('articulo_id=1');
  });

  it('«Bajo mínimo» lists what to order and from whom, by article whatever the grouping', async () => {
    const { fake } = render('/informes/info-inventario?agrupar=almacen');
    await screen.findByLabelText('Ver');
    await userEvent.selectOptions(screen.getByLabelText('Ver'), 'bajo_minimo');
    const fila = (await screen.findByText('Suministros Levante SL')).closest('tr')!;
    // 10 minimum, 2 in stock: 8 to order at 0,12 € = 0,96 €.
    expect(within(fila).getByText('8')).toBeTruthy();
    expect(within(fila).getByText('0,96 €')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /A pedir/ })).toBeTruthy();
    expect(search().get('vista')).toBe('bajo_minimo');
    expect(search().get('agrupar')).toBe('articulo');
    expect(within(fila).getAllByRole('link', { name: 'A1' }).length).toBeGreaterThan(0);
    expect(llamadas(fake.calls, 'informeinventario').at(-1)?.params).toMatchObject({ vista: 'bajo_minimo', agrupar: 'articulo' });
  });

  it('is gated by its module', async () => {
    render('/informes/info-inventario', { flags: { ...allFlags(1), almacenes: 0 } });
    expect(await screen.findByText(MESSAGES.moduleOff)).toBeTruthy();
  });

  it('the section root opens the first report the user can see', async () => {
    render('/informes', { flags: { ...allFlags(1), ventas: 0 } });
    await waitFor(() => expect(where().startsWith('/informes/info-compras')).toBe(true));
    await act(async () => {});
  });
});

describe('the terminal filter', () => {
  it('picks a terminal by name from listadoterminales, kept in the address and sent', async () => {
    const { fake } = render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&terminal_id=5');
    const select = (await screen.findByRole('combobox', { name: 'Terminal' })) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('5'));
    expect(within(select).getByRole('option', { name: 'Caja mostrador' })).toBeTruthy();
    expect(llamadas(fake.calls)[0].params).toMatchObject({ terminal_id: '5' });
    await userEvent.selectOptions(select, '2');
    await waitFor(() => expect(search().get('terminal_id')).toBe('2'));
    await waitFor(() => expect(llamadas(fake.calls).at(-1)?.params).toMatchObject({ terminal_id: '2' }));
  });

  it('a role that cannot list the terminals types the number (nothing asked that the server would refuse)', async () => {
    const derechos: Derechos = { areas: { informes: ['ver'], ventas: ['ver'] }, especiales: [], descuento_maximo: 0 };
    const sesion: Sesion = { rol: { id: 9, nombre: 'Informes', clave: null, derechos }, acciones: { listadoterminales: 'tpv.ver' } };
    const { fake } = render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&terminal_id=5', { sesion });
    const campo = (await screen.findByRole('textbox', { name: 'Terminal' })) as HTMLInputElement;
    expect(campo.value).toBe('5');
    expect(screen.queryByRole('combobox', { name: 'Terminal' })).toBeNull();
    expect(llamadas(fake.calls, 'listadoterminales')).toHaveLength(0);
  });
});

describe('without «ver precios de compra, costes y márgenes» (issue 24)', () => {
  it('the sales report has no cost nor margin column (nor in its totals); the administrator\'s has', async () => {
    const derechos: Derechos = { areas: { informes: ['ver'], ventas: ['ver'] }, especiales: [], descuento_maximo: 0 };
    const sesion: Sesion = { rol: { id: 9, nombre: 'Informes', clave: null, derechos }, acciones: {} };
    render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente', { sesion });
    await screen.findByText('Ferretería Sol');
    const cabeceras = screen.getAllByRole('columnheader').map((th) => th.textContent ?? '');
    expect(cabeceras.filter((h) => /Margen|Coste/.test(h))).toEqual([]);
    expect(cabeceras.some((h) => /Base/.test(h))).toBe(true);
  });

  it('the administrator (no role: everything) sees the margin', async () => {
    render('/informes/info-ventas?desde=2026-01-01&hasta=2026-01-31&agrupar=cliente');
    await screen.findByText('Ferretería Sol');
    expect(screen.getAllByRole('columnheader').some((th) => /Margen/.test(th.textContent ?? ''))).toBe(true);
  });
});

describe('Modelo 349 (issue 16)', () => {
  it('«Rectificaciones»: the quarter corrected, the base declared before and the corrected one', async () => {
    const { fake } = render('/informes/modelo-349?desde=2026-10-01&hasta=2026-12-31&agrupar=rectificacion');
    await screen.findByRole('columnheader', { name: /Periodo rectificado/ }, { timeout: 5000 });
    screen.getByRole('columnheader', { name: /Base declarada anteriormente/ });
    screen.getByRole('columnheader', { name: /Base rectificada/ });
    await waitFor(() => expect(llamadas(fake.calls, 'modelo349').some((c) => c.params?.agrupar === 'rectificacion')).toBe(true));
    const fila = (await screen.findAllByText('2026 3T'))[0].closest('tr')!;
    expect(within(fila).getAllByText(/400,00/).length).toBeGreaterThan(0);
    expect(within(fila).getAllByText(/200,00/).length).toBeGreaterThan(0);
    expect(screen.queryByRole('columnheader', { name: /^Base imponible/ })).toBeNull();
  });
});
