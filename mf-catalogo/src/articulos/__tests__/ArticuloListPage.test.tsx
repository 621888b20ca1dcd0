import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { visibleEntries, type SectionMenu } from 'shared';
import { allFlags, bodiesOf, currentPath, type FakeCall, renderSection } from 'shared/testing';
import Section from '../../section';
import menu from '../../menu.json';
import { ARTICULO, fakeCatalogo } from '../../fakeCatalogo';
import type { ArticuloFila } from '../types';

const fila = (id: number, codigo: string, descripcion: string, extra: Partial<ArticuloFila> = {}): ArticuloFila => ({
  id,
  codigo,
  referencia: null,
  descripcion,
  familia_nombre: 'Tornillería',
  subfamilia_nombre: 'Hexagonales',
  marca_nombre: 'Acme',
  precio_compra: 850,
  precio_venta: 82562,
  pvp_1: 999,
  tipo_iva: '21',
  codigo_barras: null,
  stock_total: 12500,
  activo: 1,
  ...extra,
});

const PAGE = Array.from({ length: 100 }, (_, i) => fila(i + 1, `A-${String(i + 1).padStart(3, '0')}`, `Artículo ${i + 1}`));

/** listadoarticulos: `barras` finds one exact code; otherwise a page of rows. */
function articulos({ params }: FakeCall) {
  if (params?.barras !== undefined) {
    const hit = params.barras === '8412345678905' ? [fila(7, 'TOR-M4', 'Tornillo M4', { codigo_barras: '8412345678905' })] : [];
    return { RESULT: '0' as const, data: hit, total: hit.length };
  }
  if (params?.id !== undefined) return { RESULT: '0' as const, data: [ARTICULO], total: 1 };
  return { RESULT: '0' as const, data: PAGE.slice(0, Number(params?.porPagina ?? 25)), total: 100000 };
}

describe('Listado de artículos', () => {
  it('/catalogo opens the articles list', async () => {
    renderSection(Section, menu.prefix, '/catalogo', { api: fakeCatalogo({ listadoarticulos: articulos }).api });
    await waitFor(() => expect(currentPath()).toBe('/catalogo/articulos'));
    expect(screen.getByRole('heading', { name: 'Artículos' })).toBeTruthy();
  });

  it('shows code, description, family, brand, PVP, stock and state, with the count of 100.000', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fakeCatalogo({ listadoarticulos: articulos }).api });
    const row = (await screen.findByText('A-001')).closest('tr')!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      '', 'A-001', 'Artículo 1', '', 'Tornillería', 'Acme', '9,99 €', '12,5', 'Activo',
    ]);
    expect(screen.getByText('1–25 de 100.000 resultados')).toBeTruthy();
  });

  it('shows the net price when the PVP flag is off', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fakeCatalogo({ listadoarticulos: articulos }).api, flags: { ...allFlags(1), pvp: 0 } });
    const row = (await screen.findByText('A-001')).closest('tr')!;
    expect(within(row).getByText('8,2562 €')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Precio/ })).toBeTruthy();
  });

  it('renders 100 rows per page', async () => {
    const fake = fakeCatalogo({ listadoarticulos: articulos });
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fake.api });
    await screen.findByText('A-001');
    await userEvent.selectOptions(screen.getByLabelText('Resultados por página'), '100');
    await waitFor(() => expect(screen.getByText('A-100')).toBeTruthy());
    expect(screen.getAllByRole('row')).toHaveLength(101);
    expect(fake.calls.at(-1)?.params).toMatchObject({ porPagina: 100, pagina: 1, orden: 'codigo', dir: 'asc' });
  });

  it('a scanned barcode and Enter open that article', async () => {
    const fake = fakeCatalogo({ listadoarticulos: articulos });
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fake.api });
    await screen.findByText('A-001');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Buscar' }), '8412345678905{Enter}');
    await waitFor(() => expect(currentPath()).toBe('/catalogo/articulo/7'));
    expect(fake.calls.some((c) => c.params?.barras === '8412345678905')).toBe(true);
  });

  it('Enter with no exact match stays on the list and searches', async () => {
    const fake = fakeCatalogo({ listadoarticulos: articulos });
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fake.api });
    await screen.findByText('A-001');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'tornillo{Enter}');
    await waitFor(() => expect(fake.calls.some((c) => c.params?.q === 'tornillo')).toBe(true));
    expect(fake.calls.some((c) => c.params?.barras === 'tornillo')).toBe(true);
    expect(currentPath()).toBe('/catalogo/articulos');
  });

  it('filters by familia and by a subfamilia of that familia', async () => {
    const fake = fakeCatalogo({ listadoarticulos: articulos });
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fake.api });
    await screen.findByText('A-001');
    const familia = screen.getByRole('combobox', { name: 'Familia' });
    await waitFor(() => expect(within(familia).getByRole('option', { name: 'Pintura' })).toBeTruthy());
    await userEvent.selectOptions(familia, '2');
    const sub = screen.getByRole('combobox', { name: 'Subfamilia' }) as HTMLSelectElement;
    expect([...sub.options].map((o) => o.textContent)).toEqual(['Subfamilia: todos', 'Esmaltes']);
    await userEvent.selectOptions(sub, '20');
    await waitFor(() => expect(fake.calls.at(-1)?.params).toMatchObject({ familia_id: '2', subfamilia_id: '20', pagina: 1 }));
  });

  it('sends the rows chosen by hand to the bulk price change', async () => {
    const fake = fakeCatalogo({ listadoarticulos: articulos, cambiarprecios: () => ({ RESULT: '0', data: [], total: 2 }) });
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fake.api });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Seleccionar A-002' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar A-005' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cambiar precios (2)' }));
    await waitFor(() => expect(currentPath()).toBe('/catalogo/cambio-precios'));
    expect(screen.getByText(/artículos seleccionados en el listado/).textContent).toBe('2 artículos seleccionados en el listado.');
    await userEvent.type(screen.getByLabelText(/^Porcentaje a aplicar/), '-5');
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cambiarprecios')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'cambiarprecios')[0]).toEqual({ ids: [2, 5], campo: 'precio_venta', modo: 'porcentaje', valor: -500, redondeo: 'ninguno', aplicar: 0 });
  });

  it('or every article of the filter', async () => {
    const fake = fakeCatalogo({ listadoarticulos: articulos, cambiarprecios: () => ({ RESULT: '0', data: [], total: 0 }) });
    renderSection(Section, menu.prefix, '/catalogo/articulos', { api: fake.api });
    await screen.findByText('A-001');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), '0');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Marca' }).querySelectorAll('option')).toHaveLength(2));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Marca' }), '5');
    await userEvent.click(await screen.findByRole('button', { name: 'Cambiar precios de los 100.000 del filtro' }));
    await waitFor(() => expect(currentPath()).toBe('/catalogo/cambio-precios'));
    expect((screen.getByLabelText('Estado') as HTMLSelectElement).value).toBe('0');
    await userEvent.type(screen.getByLabelText(/^Porcentaje a aplicar/), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cambiarprecios')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'cambiarprecios')[0]).toMatchObject({ filtro: { marca_id: 5, activo: 0 }, valor: 300 });
    expect(await screen.findByText('Ningún artículo cumple la selección.')).toBeTruthy();
  });
});

describe('Menú del catálogo', () => {
  it('hides materiales, procesos and listado when their flags are off', () => {
    const off = visibleEntries(menu as SectionMenu, allFlags(0)).map((e) => e.path);
    expect(off).toEqual(['articulos', 'familias', 'subfamilias', 'marcas', 'cambio-precios', 'importar']);
    const on = visibleEntries(menu as SectionMenu, allFlags(1)).map((e) => e.path);
    expect(on).toEqual(expect.arrayContaining(['materiales', 'procesos', 'listado-precios']));
  });
});
