import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, type ApiResponse } from 'shared';
import { allFlags, bodiesOf, currentPath, renderSection } from 'shared/testing';
import { ALMACENES, STOCK_CENTRAL, fakeAlmacenes } from '../../fakeAlmacenes';
import menu from '../../menu.json';
import Section from '../../section';

const echo = (id: number) => (call: { body?: unknown }) => ({ RESULT: '0' as const, data: [{ id, es_furgoneta: 0, ...(call.body as object) }] });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;
const sinFurgonetas = { ...allFlags(1), furgonetas: 0 as const };

describe('Almacenes', () => {
  it('lists the almacenes at the section root and opens one', async () => {
    renderSection(Section, menu.prefix, '/almacenes', { api: fakeAlmacenes().api, flags: sinFurgonetas });
    expect(screen.getByRole('heading', { name: 'Almacenes' })).toBeTruthy();
    const row = (await screen.findByText('CEN')).closest('tr')!;
    expect(within(row).getByText('Central')).toBeTruthy();
    expect(within(row).getByText('Calle Mayor 1, Valencia')).toBeTruthy();
    expect(within(row).getByText('Activo')).toBeTruthy();
    expect(within(screen.getByText('VIE').closest('tr')!).getByText('Inactivo')).toBeTruthy();
    // Without the flag, no van column and no type filter.
    expect(screen.queryByRole('columnheader', { name: /Furgoneta/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Tipo' })).toBeNull();
    await userEvent.click(within(row).getByText('Central'));
    await waitFor(() => expect(currentPath()).toBe('/almacenes/almacen/1'));
    expect(await screen.findByDisplayValue('Central')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Almacén CEN' })).toBeTruthy();
  });

  it('filters by state', async () => {
    const fake = fakeAlmacenes();
    renderSection(Section, menu.prefix, '/almacenes', { api: fake.api, flags: sinFurgonetas });
    await screen.findByText('VIE');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), '1');
    await waitFor(() => expect(screen.queryByText('VIE')).toBeNull());
    expect(fake.calls.filter((c) => c.ac === 'listadoalmacenes').at(-1)?.params).toMatchObject({ activo: '1', orden: 'codigo', dir: 'asc' });
  });

  it('the record shows the stock it holds, valued, with links to the articles', async () => {
    const fake = fakeAlmacenes();
    renderSection(Section, menu.prefix, '/almacenes/almacen/1', { api: fake.api, flags: sinFurgonetas });
    const row = (await screen.findByText('TOR-M4')).closest('tr')!;
    expect(within(row).getByText('Tornillo M4')).toBeTruthy();
    expect(within(row).getByText('12,5')).toBeTruthy();
    expect(within(row).getByText('0,85 €')).toBeTruthy();
    expect(within(row).getByText('10,63 €')).toBeTruthy();
    expect(within(screen.getByText('PIN-01').closest('tr')!).getByText('10,2345 €')).toBeTruthy();
    expect(screen.getByText('TOR-M4').closest('a')?.getAttribute('href')).toBe('/catalogo/articulo/7');
    await waitFor(() => expect(screen.getByText('41,33 €')).toBeTruthy());
    expect(fake.calls.filter((c) => c.ac === 'listadostockalmacen').every((c) => c.params?.almacen_id === 1)).toBe(true);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'esmalte');
    await waitFor(() => expect(screen.queryByText('TOR-M4')).toBeNull());
    expect(fake.calls.filter((c) => c.ac === 'listadostockalmacen').at(-1)?.params).toMatchObject({ almacen_id: 1, q: 'esmalte' });
    expect(screen.getByRole('button', { name: 'CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'PDF' })).toBeTruthy();
  });

  it('issue 24: without «ver precios de compra, costes y márgenes», the stock without average cost, value nor total value', async () => {
    const fake = fakeAlmacenes();
    const user = {
      id: 4, nombre: 'Mozo', email: 'mozo@demo.es',
      rol: { id: 3, nombre: 'Almacén', clave: 'almacen' as const, derechos: { areas: { almacenes: ['ver'] as const, catalogo: ['ver'] as const }, especiales: [], descuento_maximo: 0 } },
    };
    renderSection(Section, menu.prefix, '/almacenes/almacen/1', { api: fake.api, flags: sinFurgonetas, user });
    const row = (await screen.findByText('TOR-M4')).closest('tr')!;
    expect(within(row).getByText('12,5')).toBeTruthy();
    const cabeceras = screen.getAllByRole('columnheader').map((th) => th.textContent ?? '');
    expect(cabeceras.filter((h) => /Coste|Valor/.test(h))).toEqual([]);
    expect(within(row).queryByText('0,85 €')).toBeNull();
    expect(screen.queryByText(/Valor total/)).toBeNull();
  });

  it('negative stock stands out in the warehouse screen (issue 17)', async () => {
    const negativo = { articulo_id: 9, codigo: 'CAB-01', descripcion: 'Cable 3x1,5', stock: -4000, coste_medio: 5000, valor: -2000 };
    const fake = fakeAlmacenes({
      listadostockalmacen: () => ({ RESULT: '0', data: [...STOCK_CENTRAL, negativo], total: 3, valor_total: 2133 }) as ApiResponse,
    });
    renderSection(Section, menu.prefix, '/almacenes/almacen/1', { api: fake.api, flags: sinFurgonetas });
    const row = (await screen.findByText('CAB-01')).closest('tr')!;
    const stock = within(row).getByText('-4');
    expect(stock.hasAttribute('data-negativo')).toBe(true);
    expect(stock.getAttribute('title')).toMatch(/Stock negativo/);
    expect(within(screen.getByText('TOR-M4').closest('tr')!).getByText('12,5').hasAttribute('data-negativo')).toBe(false);
  });

  it('an empty almacén says so', async () => {
    renderSection(Section, menu.prefix, '/almacenes/almacen/3', { api: fakeAlmacenes().api, flags: sinFurgonetas });
    expect(await screen.findByText('No hay resultados')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('0,00 €')).toBeTruthy());
  });

  it('creates an almacén: validates, sends the fields and moves to its record', async () => {
    const fake = fakeAlmacenes({ editaralmacen: echo(9) });
    renderSection(Section, menu.prefix, '/almacenes/almacen/nuevo-almacen', { api: fake.api, flags: sinFurgonetas });
    expect(screen.getByRole('heading', { name: 'Nuevo almacén' })).toBeTruthy();
    // No stock panel before it exists.
    expect(screen.queryByRole('heading', { name: 'Stock' })).toBeNull();
    await save();
    expect(screen.getAllByText(MESSAGES.required)).toHaveLength(2);
    expect(bodiesOf(fake.calls, 'editaralmacen')).toHaveLength(0);
    await userEvent.type(field('Código'), 'TDA');
    await userEvent.type(field('Nombre'), 'Tienda centro');
    await userEvent.type(field('Dirección'), 'Plaza del Ayuntamiento 3');
    await save();
    await waitFor(() => expect(currentPath()).toBe('/almacenes/almacen/9'));
    expect(bodiesOf(fake.calls, 'editaralmacen')).toEqual([{ codigo: 'TDA', nombre: 'Tienda centro', direccion: 'Plaza del Ayuntamiento 3', activo: 1 }]);
  });

  it('shows the server error of a duplicated code on its field', async () => {
    const fake = fakeAlmacenes({ editaralmacen: () => ({ RESULT: '1', message: 'Datos no válidos', errors: { codigo: MESSAGES.duplicated } }) });
    renderSection(Section, menu.prefix, '/almacenes/almacen/nuevo-almacen', { api: fake.api, flags: sinFurgonetas });
    await userEvent.type(field('Código'), 'CEN');
    await userEvent.type(field('Nombre'), 'Otro');
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editaralmacen')).toHaveLength(1));
    expect(currentPath()).toBe('/almacenes/almacen/nuevo-almacen');
  });

  it('without the flag furgonetas there are no van fields, nor users loaded', async () => {
    const fake = fakeAlmacenes({ editaralmacen: echo(2) });
    renderSection(Section, menu.prefix, '/almacenes/almacen/2', { api: fake.api, flags: sinFurgonetas });
    expect(await screen.findByDisplayValue('Furgoneta norte')).toBeTruthy();
    expect(screen.queryByRole('switch', { name: /Es furgoneta/ })).toBeNull();
    expect(screen.queryByLabelText(/^Matrícula/)).toBeNull();
    expect(screen.queryByLabelText(/^Conductor/)).toBeNull();
    expect(fake.calls.filter((c) => c.ac === 'listadousuarios')).toHaveLength(0);
    await save();
    // The van's fields are not sent: the server keeps them.
    await waitFor(() => expect(bodiesOf(fake.calls, 'editaralmacen')).toEqual([{ id: 2, codigo: 'F01', nombre: 'Furgoneta norte', direccion: null, activo: 1 }]));
  });

  it('with the flag furgonetas, a van has its number plate and its driver', async () => {
    const fake = fakeAlmacenes({ editaralmacen: echo(9) });
    renderSection(Section, menu.prefix, '/almacenes/almacen/nuevo-almacen', { api: fake.api });
    const furgoneta = screen.getByRole('switch', { name: /Es furgoneta/ });
    expect(screen.queryByLabelText(/^Matrícula/)).toBeNull();
    await userEvent.click(furgoneta);
    await userEvent.type(field('Código'), 'F02');
    await userEvent.type(field('Nombre'), 'Furgoneta sur');
    await save();
    // A van needs its plate.
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editaralmacen')).toHaveLength(0);
    await userEvent.type(field('Matrícula'), '5678fgh');
    await waitFor(() => expect(within(field('Conductor')).getByRole('option', { name: 'Ana Ruiz' })).toBeTruthy());
    await userEvent.selectOptions(field('Conductor'), '2');
    await save();
    await waitFor(() => expect(currentPath()).toBe('/almacenes/almacen/9'));
    expect(bodiesOf(fake.calls, 'editaralmacen')).toEqual([
      { codigo: 'F02', nombre: 'Furgoneta sur', direccion: null, activo: 1, es_furgoneta: 1, matricula: '5678FGH', conductor_id: 2 },
    ]);
  });

  it('with the flag, the list shows the vans and turning one into a fixed warehouse clears its plate and driver', async () => {
    const fake = fakeAlmacenes({ editaralmacen: echo(2) });
    renderSection(Section, menu.prefix, '/almacenes', { api: fake.api });
    const row = (await screen.findByText('F01')).closest('tr')!;
    expect(within(row).getByText('Furgoneta · 1234BCD · Ana Ruiz')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Tipo' })).toBeTruthy();
    await userEvent.click(within(row).getByText('Furgoneta norte'));
    expect(await screen.findByDisplayValue('1234BCD')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Furgoneta F01' })).toBeTruthy();
    await waitFor(() => expect(field('Conductor').value).toBe('2'));
    await userEvent.click(screen.getByRole('switch', { name: /Es furgoneta/ }));
    expect(screen.queryByLabelText(/^Matrícula/)).toBeNull();
    await save();
    await waitFor(() =>
      expect(bodiesOf(fake.calls, 'editaralmacen')).toEqual([
        { id: 2, codigo: 'F01', nombre: 'Furgoneta norte', direccion: null, activo: 1, es_furgoneta: 0, matricula: null, conductor_id: null },
      ]),
    );
  });

  it('deleting an almacén in use shows the associated-data toast and the record stays', async () => {
    const fake = fakeAlmacenes({ eliminaralmacen: () => ({ RESULT: '2' }) });
    const { toasts } = renderSection(Section, menu.prefix, '/almacenes/almacen/1', { api: fake.api });
    await screen.findByDisplayValue('Central');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Eliminar almacén' })).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(toasts).toContain('associated:'));
    expect(bodiesOf(fake.calls, 'eliminaralmacen')).toEqual([{ id: 1 }]);
    expect(currentPath()).toBe('/almacenes/almacen/1');
  });

  it('an unknown almacén and an unknown address show their 404', async () => {
    renderSection(Section, menu.prefix, '/almacenes/almacen/99', { api: fakeAlmacenes().api });
    expect(await screen.findByText('Almacén no encontrado')).toBeTruthy();
  });

  it('an unknown address inside the section shows the section 404', () => {
    renderSection(Section, menu.prefix, '/almacenes/no-existe', { api: fakeAlmacenes().api });
    expect(screen.getByText('Página no encontrada')).toBeTruthy();
    expect(ALMACENES).toHaveLength(3);
  });
});
