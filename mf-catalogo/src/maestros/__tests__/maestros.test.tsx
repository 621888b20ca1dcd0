import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared';
import { allFlags, bodiesOf, currentPath, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';
import { FAMILIAS, PROCESOS, SUBFAMILIAS, fakeCatalogo } from '../../fakeCatalogo';

const echo = (id: number) => (call: { body?: unknown }) => ({ RESULT: '0' as const, data: [{ id, ...(call.body as object) }] });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;

describe('Familias, subfamilias, marcas, materiales y procesos', () => {
  it('lists familias with code, name and state, and opens one', async () => {
    renderSection(Section, menu.prefix, '/catalogo/familias', { api: fakeCatalogo().api });
    const row = (await screen.findByText('TOR')).closest('tr')!;
    expect(within(row).getByText('Tornillería')).toBeTruthy();
    expect(within(row).getByText('Activo')).toBeTruthy();
    await userEvent.click(within(row).getByText('Tornillería'));
    await waitFor(() => expect(currentPath()).toBe('/catalogo/familia/1'));
    expect(await screen.findByDisplayValue('Tornillería')).toBeTruthy();
  });

  it('creates a familia and moves to its record', async () => {
    const fake = fakeCatalogo({ editarfamilia: echo(3) });
    renderSection(Section, menu.prefix, '/catalogo/familia/nueva-familia', { api: fake.api });
    expect(screen.getByRole('heading', { name: 'Nueva familia' })).toBeTruthy();
    await save();
    expect(screen.getAllByText(MESSAGES.required)).toHaveLength(2);
    expect(bodiesOf(fake.calls, 'editarfamilia')).toHaveLength(0);
    await userEvent.type(field('Código'), 'FER');
    await userEvent.type(field('Nombre'), 'Ferretería');
    await save();
    await waitFor(() => expect(currentPath()).toBe('/catalogo/familia/3'));
    expect(bodiesOf(fake.calls, 'editarfamilia')).toEqual([{ codigo: 'FER', nombre: 'Ferretería', activo: 1 }]);
  });

  it('a subfamilia needs its familia, chosen from the familias', async () => {
    const fake = fakeCatalogo({ editarsubfamilia: echo(12) });
    renderSection(Section, menu.prefix, '/catalogo/subfamilia/nueva-subfamilia', { api: fake.api });
    await userEvent.type(field('Código'), 'PLA');
    await userEvent.type(field('Nombre'), 'Planos');
    await save();
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarsubfamilia')).toHaveLength(0);
    await waitFor(() => expect(within(field('Familia')).getByRole('option', { name: 'Tornillería' })).toBeTruthy());
    await userEvent.selectOptions(field('Familia'), '1');
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarsubfamilia')).toEqual([{ codigo: 'PLA', nombre: 'Planos', activo: 1, familia_id: 1 }]));
  });

  it('lists subfamilias with their familia, filtered by familia', async () => {
    const fake = fakeCatalogo();
    renderSection(Section, menu.prefix, '/catalogo/subfamilias', { api: fake.api });
    const row = (await screen.findByText('ESM')).closest('tr')!;
    expect(within(row).getByText('Pintura')).toBeTruthy();
    const filtro = screen.getByRole('combobox', { name: 'Familia' });
    await waitFor(() => expect(within(filtro).getByRole('option', { name: 'Pintura' })).toBeTruthy());
    await userEvent.selectOptions(filtro, '2');
    await waitFor(() => expect(screen.queryByText('HEX')).toBeNull());
    expect(screen.getByText('ESM')).toBeTruthy();
    expect(SUBFAMILIAS).toHaveLength(3);
  });

  it('a proceso has a time in minutes and an exact cost', async () => {
    const fake = fakeCatalogo({ editarproceso: echo(40) });
    renderSection(Section, menu.prefix, '/catalogo/proceso/40', { api: fake.api });
    expect(await screen.findByDisplayValue('Corte')).toBeTruthy();
    expect(field('Tiempo \\(minutos\\)').value).toBe('15');
    expect(field('Coste').value).toBe('12,50');
    await userEvent.clear(field('Coste'));
    await userEvent.type(field('Coste'), '18,3333');
    await userEvent.clear(field('Tiempo \\(minutos\\)'));
    await userEvent.type(field('Tiempo \\(minutos\\)'), '20');
    await save();
    await waitFor(() =>
      expect(bodiesOf(fake.calls, 'editarproceso')).toEqual([{ id: 40, codigo: 'COR', nombre: 'Corte', activo: 1, tiempo: 20, coste: 183333 }]),
    );
    expect(PROCESOS[0].coste).toBe(125000);
  });

  it('deactivating is always possible; deleting a marca in use shows the associated-data toast', async () => {
    const fake = fakeCatalogo({ editarmarca: echo(5), eliminarmarca: () => ({ RESULT: '2' }) });
    const { toasts } = renderSection(Section, menu.prefix, '/catalogo/marca/5', { api: fake.api });
    await userEvent.click(await screen.findByRole('switch', { name: /^Activa/ }));
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarmarca')[0]).toMatchObject({ id: 5, activo: 0 }));
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Eliminar marca' })).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(toasts).toContain('associated:'));
    expect(currentPath()).toBe('/catalogo/marca/5');
  });

  it('materiales and procesos need their flag', async () => {
    const fake = fakeCatalogo();
    renderSection(Section, menu.prefix, '/catalogo/materiales', { api: fake.api, flags: { ...allFlags(1), materiales: 0 } });
    expect(screen.getByText(MESSAGES.moduleOff)).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'listadomateriales')).toHaveLength(0);
  });

  it('with the flag on, materiales list and create like the others', async () => {
    const fake = fakeCatalogo({ editarmaterial: echo(32) });
    renderSection(Section, menu.prefix, '/catalogo/material/nuevo-material', { api: fake.api });
    expect(screen.getByRole('heading', { name: 'Nuevo material' })).toBeTruthy();
    await userEvent.type(field('Código'), 'LIN');
    await userEvent.type(field('Nombre'), 'Lino');
    await save();
    await waitFor(() => expect(currentPath()).toBe('/catalogo/material/32'));
  });

  it('an unknown address inside the section shows the section 404', () => {
    renderSection(Section, menu.prefix, '/catalogo/no-existe', { api: fakeCatalogo().api });
    expect(screen.getByText('Página no encontrada')).toBeTruthy();
    expect(FAMILIAS).toHaveLength(2);
  });
});
