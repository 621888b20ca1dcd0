import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, SERIE_TIPO_LABEL, TOASTS, type Serie } from 'shared';
import { allFlags, bodiesOf, createFakeApi, currentPath, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

const SERIES: Serie[] = [
  { id: 1, codigo: 'A', descripcion: 'Facturas ordinarias', tipo: 'normal', activo: 1 },
  { id: 2, codigo: 'R', descripcion: 'Rectificativas', tipo: 'rectificativa', activo: 1 },
  { id: 3, codigo: 'T', descripcion: 'Tickets TPV', tipo: 'simplificada', activo: 0 },
  { id: 5, codigo: 'TR', descripcion: 'Devoluciones del TPV', tipo: 'rectificativa', activo: 1, terminal: 'Mostrador' },
];

function seriesApi(eliminar: 'ok' | 'associated' = 'ok') {
  return createFakeApi({
    listadoseries: ({ params = {} }) => {
      if (params.id !== undefined) {
        const s = SERIES.find((x) => x.id === Number(params.id));
        return s ? { RESULT: '0', data: [s], total: 1 } : { RESULT: '3' };
      }
      return { RESULT: '0', data: SERIES, total: SERIES.length };
    },
    editarserie: ({ body }) => ({ RESULT: '0', data: [{ id: 4, ...(body as object) }] }),
    eliminarserie: () => (eliminar === 'ok' ? { RESULT: '0', data: [] } : { RESULT: '2', message: TOASTS.associated.text }),
  });
}

describe('Series', () => {
  it('lists code, description, the label of the kind and the state', async () => {
    renderSection(Section, menu.prefix, '/config/series', { api: seriesApi().api });
    const row = (await screen.findByText('Tickets TPV')).closest('tr')!;
    expect(within(row).getByText('T')).toBeTruthy();
    expect(within(row).getByText(SERIE_TIPO_LABEL.simplificada)).toBeTruthy();
    expect(within(row).getByText('Inactivo')).toBeTruthy();
    expect(within(screen.getByText('Rectificativas').closest('tr')!).getByText(SERIE_TIPO_LABEL.rectificativa)).toBeTruthy();
  });

  it('issue 23: a terminal\'s serie says it is the till\'s own', async () => {
    renderSection(Section, menu.prefix, '/config/serie/5', { api: seriesApi().api });
    expect((await screen.findByTestId('serie-terminal')).textContent).toContain('Serie del terminal «Mostrador» del TPV');
  });

  it('a serie of no terminal says nothing of it', async () => {
    renderSection(Section, menu.prefix, '/config/serie/1', { api: seriesApi().api });
    await screen.findByDisplayValue('Facturas ordinarias');
    expect(screen.queryByTestId('serie-terminal')).toBeNull();
  });

  it('needs the ventas module', async () => {
    const fake = seriesApi();
    renderSection(Section, menu.prefix, '/config/series', { api: fake.api, flags: { ...allFlags(1), ventas: 0 } });
    expect(screen.getByText(MESSAGES.moduleOff)).toBeTruthy();
    expect(fake.calls).toHaveLength(0);
  });

  it('RESULT 2 on delete (documents use the serie) shows "Acción no posible" and the serie stays', async () => {
    const fake = seriesApi('associated');
    const { toasts } = renderSection(Section, menu.prefix, '/config/serie/1', { api: fake.api });
    await screen.findByDisplayValue('Facturas ordinarias');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(toasts).toContain('associated:'));
    expect(bodiesOf(fake.calls, 'eliminarserie')).toEqual([{ id: 1 }]);
    expect(currentPath()).toBe('/config/serie/1');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('creates a serie: code in capitals, a kind must be chosen', async () => {
    const fake = seriesApi();
    renderSection(Section, menu.prefix, '/config/serie/nueva-serie', { api: fake.api });
    await userEvent.type(await screen.findByLabelText(/^Código/), 'b2');
    await userEvent.type(screen.getByLabelText(/^Descripción/), 'Segunda tienda');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(MESSAGES.selectOption)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarserie')).toHaveLength(0);

    await userEvent.selectOptions(screen.getByLabelText(/^Tipo/), 'normal');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(currentPath()).toBe('/config/serie/4'));
    expect(bodiesOf(fake.calls, 'editarserie')).toEqual([{ codigo: 'B2', descripcion: 'Segunda tienda', tipo: 'normal', activo: 1 }]);
  });

  it('a code with spaces is refused before sending', async () => {
    const fake = seriesApi();
    renderSection(Section, menu.prefix, '/config/serie/2', { api: fake.api });
    const codigo = await screen.findByDisplayValue('R');
    await userEvent.type(codigo, ' 2');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Solo letras, números, guion y guion bajo')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarserie')).toHaveLength(0);
  });
});
