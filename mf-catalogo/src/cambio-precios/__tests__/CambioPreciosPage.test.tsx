import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { cambiarPrecio, type Redondeo } from 'shared';
import { allFlags, bodiesOf, type FakeCall, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';
import { fakeCatalogo } from '../../fakeCatalogo';

const ARTS = [
  { id: 1, codigo: 'A-001', descripcion: 'Tornillo', precio_venta: 123400 },
  { id: 2, codigo: 'A-002', descripcion: 'Tuerca', precio_venta: 50000 },
];

/** cambiarprecios as the server answers: the preview computed with the shared rule, or the count applied. */
function cambiarprecios({ body }: FakeCall) {
  const b = body as { modo: 'porcentaje' | 'importe'; valor: number; redondeo: Redondeo; aplicar: 0 | 1 };
  if (b.aplicar === 1) return { RESULT: '0' as const, data: [{ actualizados: 250 }] };
  const data = ARTS.map((a) => ({ ...a, antes: a.precio_venta, despues: Number(cambiarPrecio(BigInt(a.precio_venta), b.modo, BigInt(b.valor), b.redondeo)) }));
  return { RESULT: '0' as const, data, total: 250 };
}

describe('Cambio de precios', () => {
  it('previews before and after, then applies after confirming', async () => {
    const fake = fakeCatalogo({ cambiarprecios });
    const { toasts } = renderSection(Section, menu.prefix, '/catalogo/cambio-precios', { api: fake.api });
    await userEvent.type(screen.getByLabelText(/^Porcentaje a aplicar/), '10');
    await userEvent.selectOptions(screen.getByLabelText('Redondeo'), 'x9');
    expect((screen.getByRole('button', { name: 'Aplicar cambio' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));

    const table = await screen.findByRole('table', { name: 'Vista previa del cambio de precios' });
    const row = within(table).getByText('A-001').closest('tr')!;
    // 12,34 € + 10 % = 13,574 → ending in ,x9: 13,59 €.
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['A-001', 'Tornillo', '12,34 €', '13,59 €', '1,25 €']);
    expect(screen.getByText(/Cambiará el precio de venta \(tarifa 1\) de 250 artículos; se muestran los 2 primeros/)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'cambiarprecios')).toEqual([
      { filtro: { activo: 1 }, campo: 'precio_venta', modo: 'porcentaje', valor: 1000, redondeo: 'x9', aplicar: 0 },
    ]);
    expect(toasts).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Aplicar cambio' }));
    const dialog = screen.getByRole('dialog', { name: 'Aplicar el cambio de precios' });
    expect(dialog.textContent).toContain('250 artículos');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Aplicar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cambiarprecios')).toHaveLength(2));
    expect(bodiesOf(fake.calls, 'cambiarprecios')[1]).toMatchObject({ aplicar: 1, valor: 1000, redondeo: 'x9', filtro: { activo: 1 } });
    expect(await screen.findByText('Se ha cambiado el precio de venta (tarifa 1) de 250 artículos.')).toBeTruthy();
    expect(toasts).toEqual(['success:']);
  });

  it('lowers by an amount, on the purchase price, for a familia; any change asks for a new preview', async () => {
    const fake = fakeCatalogo({ cambiarprecios });
    renderSection(Section, menu.prefix, '/catalogo/cambio-precios', { api: fake.api });
    await waitFor(() => expect(within(screen.getByLabelText('Familia')).getByRole('option', { name: 'Pintura' })).toBeTruthy());
    await userEvent.selectOptions(screen.getByLabelText('Familia'), '2');
    await userEvent.selectOptions(screen.getByLabelText(/^Precio que cambia/), 'precio_compra');
    await userEvent.click(screen.getByRole('radio', { name: 'Importe' }));
    await userEvent.type(screen.getByLabelText(/^Importe a aplicar/), '-0,5');
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));
    await screen.findByRole('table', { name: 'Vista previa del cambio de precios' });
    expect(bodiesOf(fake.calls, 'cambiarprecios')[0]).toEqual({
      filtro: { familia_id: 2, activo: 1 },
      campo: 'precio_compra',
      modo: 'importe',
      valor: -5000,
      redondeo: 'ninguno',
      aplicar: 0,
    });
    await userEvent.selectOptions(screen.getByLabelText('Redondeo'), 'centimos');
    expect(screen.queryByRole('table', { name: 'Vista previa del cambio de precios' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Aplicar cambio' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks for a value before previewing', async () => {
    const fake = fakeCatalogo({ cambiarprecios });
    renderSection(Section, menu.prefix, '/catalogo/cambio-precios', { api: fake.api });
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));
    expect(screen.getByText('Indique un valor distinto de cero')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'cambiarprecios')).toHaveLength(0);
  });

  it('offers tarifa 2 and 3 only with their flags', async () => {
    const { unmount } = renderSection(Section, menu.prefix, '/catalogo/cambio-precios', { api: fakeCatalogo().api, flags: allFlags(0) });
    const options = () => [...(screen.getByLabelText(/^Precio que cambia/) as HTMLSelectElement).options].map((o) => o.value);
    expect(options()).toEqual(['precio_compra', 'precio_venta']);
    unmount();
    renderSection(Section, menu.prefix, '/catalogo/cambio-precios', { api: fakeCatalogo().api, flags: allFlags(1) });
    expect(options()).toEqual(['precio_compra', 'precio_venta', 'tarifa_2', 'tarifa_3']);
  });
});
