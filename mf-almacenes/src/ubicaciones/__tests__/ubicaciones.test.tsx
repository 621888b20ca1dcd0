import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared';
import { bodiesOf, currentPath, renderSection } from 'shared/testing';
import { fakeAlmacenes } from '../../fakeAlmacenes';
import menu from '../../menu.json';
import Section from '../../section';

const echo = (id: number) => (call: { body?: unknown }) => ({ RESULT: '0' as const, data: [{ id, almacen_nombre: 'Central', ...(call.body as object) }] });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;

describe('Ubicaciones', () => {
  it('lists ubicaciones with their almacén, filtered by almacén, and opens one', async () => {
    const fake = fakeAlmacenes();
    renderSection(Section, menu.prefix, '/almacenes/ubicaciones', { api: fake.api });
    const row = (await screen.findByText('A-03-2')).closest('tr')!;
    expect(within(row).getByText('Central')).toBeTruthy();
    expect(within(row).getByText('Pasillo A, estantería 3, balda 2')).toBeTruthy();
    expect(screen.getByText('Z-99-9')).toBeTruthy();
    const filtro = screen.getByRole('combobox', { name: 'Almacén' });
    await waitFor(() => expect(within(filtro).getByRole('option', { name: 'Nave vieja (inactivo)' })).toBeTruthy());
    await userEvent.selectOptions(filtro, '1');
    await waitFor(() => expect(screen.queryByText('Z-99-9')).toBeNull());
    expect(fake.calls.filter((c) => c.ac === 'listadoubicaciones').at(-1)?.params).toMatchObject({ almacen_id: '1' });
    // The almacenes of the filter are read 100 at a time.
    expect(fake.calls.find((c) => c.ac === 'listadoalmacenes')?.params).toMatchObject({ porPagina: 100 });
    await userEvent.click(within(screen.getByText('A-03-2').closest('tr')!).getByText('Pasillo A, estantería 3, balda 2'));
    await waitFor(() => expect(currentPath()).toBe('/almacenes/ubicacion/20'));
  });

  it('edits a ubicación: its almacén, code, description and state', async () => {
    const fake = fakeAlmacenes({ editarubicacion: echo(20) });
    renderSection(Section, menu.prefix, '/almacenes/ubicacion/20', { api: fake.api });
    expect(await screen.findByDisplayValue('A-03-2')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Ubicación A-03-2' })).toBeTruthy();
    await waitFor(() => expect(field('Almacén').value).toBe('1'));
    await userEvent.clear(field('Código'));
    await userEvent.type(field('Código'), 'A-03-3');
    await userEvent.click(screen.getByRole('switch', { name: /^Activa/ }));
    await save();
    await waitFor(() =>
      expect(bodiesOf(fake.calls, 'editarubicacion')).toEqual([
        { id: 20, almacen_id: 1, codigo: 'A-03-3', descripcion: 'Pasillo A, estantería 3, balda 2', activo: 0 },
      ]),
    );
  });

  it('a new ubicación needs its almacén and moves to its record', async () => {
    const fake = fakeAlmacenes({ editarubicacion: echo(30) });
    renderSection(Section, menu.prefix, '/almacenes/ubicacion/nueva-ubicacion', { api: fake.api });
    expect(screen.getByRole('heading', { name: 'Nueva ubicación' })).toBeTruthy();
    await userEvent.type(field('Código'), 'C-01-1');
    await save();
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarubicacion')).toHaveLength(0);
    await waitFor(() => expect(within(field('Almacén')).getByRole('option', { name: 'Central' })).toBeTruthy());
    await userEvent.selectOptions(field('Almacén'), '1');
    await save();
    await waitFor(() => expect(currentPath()).toBe('/almacenes/ubicacion/30'));
    expect(bodiesOf(fake.calls, 'editarubicacion')).toEqual([{ almacen_id: 1, codigo: 'C-01-1', descripcion: null, activo: 1 }]);
  });

  it("the almacén's 'Nueva ubicación' button opens the form with that almacén chosen", async () => {
    renderSection(Section, menu.prefix, '/almacenes/almacen/1', { api: fakeAlmacenes().api });
    await screen.findByDisplayValue('Central');
    await userEvent.click(screen.getByRole('button', { name: 'Nueva ubicación' }));
    await waitFor(() => expect(currentPath()).toBe('/almacenes/ubicacion/nueva-ubicacion'));
    await waitFor(() => expect(field('Almacén').value).toBe('1'));
  });

  it('an unknown ubicación shows its 404', async () => {
    renderSection(Section, menu.prefix, '/almacenes/ubicacion/999', { api: fakeAlmacenes().api });
    expect(await screen.findByText('Ubicación no encontrada')).toBeTruthy();
  });
});
