import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodiesOf, renderSection } from 'shared/testing';
import { doc, fakeCompras, listadoDocs } from '../../fakeCompras';
import menu from '../../menu.json';
import Section from '../../section';

const albaran1 = doc({
  id: 20,
  tipo: 'albarancompra',
  numero: 'AC 2026/000020',
  estado: 'pendiente',
  base: 10000,
  iva: 2100,
  total: 12100,
  desglose: [{ tipo_iva: '21', base: 10000, iva: 2100, recargo: 0 }],
});
const albaran2 = doc({
  id: 21,
  tipo: 'albarancompra',
  numero: 'AC 2026/000021',
  estado: 'pendiente',
  base: 5000,
  iva: 200,
  total: 5200,
  desglose: [{ tipo_iva: '4', base: 5000, iva: 200, recargo: 0 }],
});
const devolucion = doc({
  id: 30,
  tipo: 'devolucioncompra',
  numero: 'DC 2026/000030',
  estado: 'pendiente',
  base: 1000,
  iva: 210,
  total: 1210,
  desglose: [{ tipo_iva: '21', base: 1000, iva: 210, recargo: 0 }],
});

describe('hcp', () => {
  it('compares the chosen documents per rate with the invoice, shows the difference and records it', async () => {
    const fake = fakeCompras({
      listadoalbaranescompra: listadoDocs([albaran1, albaran2]),
      listadodevolucionescompra: listadoDocs([devolucion]),
      listadofacturasproveedor: () => ({ RESULT: '0', data: [{ id: 40, proveedor_id: 3, numero_proveedor: 'F-099', fecha: '2026-02-28', total: 5000, diferencia: 0 }], total: 1 }),
      editarfacturaproveedor: () => ({ RESULT: '0', data: [{ id: 41 }] }),
      eliminarfacturaproveedor: () => ({ RESULT: '0', data: [] }),
    });
    renderSection(Section, menu.prefix, '/compras/hcp', { api: fake.api });
    const input = screen.getByRole('combobox', { name: /^Proveedor/ });
    await userEvent.type(input, 'Ferre');
    await screen.findByRole('option', { name: /Ferretería Levante SL/ });
    await userEvent.keyboard('{Enter}');
    await userEvent.type(screen.getByLabelText('Desde'), '2026-03-01');

    const docs = await screen.findByRole('table', { name: 'Documentos pendientes' });
    expect(within(docs).getByText('AC 2026/000021')).toBeTruthy();
    // A devolución counts negative.
    expect(within(within(docs).getByText('DC 2026/000030').closest('tr')!).getByText('-12,10 €')).toBeTruthy();
    const listado = fake.calls.filter((c) => c.ac === 'listadoalbaranescompra').at(-1)?.params;
    expect(listado).toMatchObject({ proveedor_id: '3', estado: 'pendiente', desde: '2026-03-01' });

    await userEvent.click(screen.getByLabelText('Incluir AC 2026/000020'));
    await userEvent.click(screen.getByLabelText('Incluir DC 2026/000030'));
    const tabla = screen.getByRole('table', { name: 'Comparación por tipo de IVA' });
    const fila21 = within(tabla).getByText('General 21 %').closest('tr')!;
    expect(within(fila21).getByText('90,00 €')).toBeTruthy();
    expect(within(fila21).getByText('18,90 €')).toBeTruthy();
    expect(screen.getByTestId('total-seleccion').textContent).toBe('108,90 €');

    await userEvent.type(screen.getByLabelText(/^Total de la factura/), '110,00');
    expect(screen.getByTestId('diferencia').textContent).toBe('1,10 €');
    expect(screen.getByTestId('diferencia-fila').className).toBe('diff');
    await userEvent.clear(screen.getByLabelText(/^Total de la factura/));
    await userEvent.type(screen.getByLabelText(/^Total de la factura/), '108,90');
    expect(screen.getByTestId('diferencia').textContent).toBe('0,00 €');
    expect(screen.getByTestId('diferencia-fila').className).toBe('ok');

    await userEvent.click(screen.getByRole('button', { name: 'Conciliar' }));
    expect(await screen.findByText('Este campo es necesario')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarfacturaproveedor')).toHaveLength(0);
    await userEvent.type(screen.getByLabelText(/^Número de factura/), 'F-123');
    await userEvent.clear(screen.getByLabelText(/^Fecha de la factura/));
    await userEvent.type(screen.getByLabelText(/^Fecha de la factura/), '2026-03-31');
    // An invoice that doesn't match its documents asks first.
    await userEvent.clear(screen.getByLabelText(/^Total de la factura/));
    await userEvent.type(screen.getByLabelText(/^Total de la factura/), '110,00');
    await userEvent.click(screen.getByRole('button', { name: 'Conciliar' }));
    const aviso = await screen.findByRole('dialog', { name: 'La factura no cuadra' });
    expect(within(aviso).getByText(/es de 1,10 €/)).toBeTruthy();
    await userEvent.click(within(aviso).getByRole('button', { name: 'Cancelar' }));
    expect(bodiesOf(fake.calls, 'editarfacturaproveedor')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText(/^Total de la factura/));
    await userEvent.type(screen.getByLabelText(/^Total de la factura/), '108,90');
    await userEvent.click(screen.getByRole('button', { name: 'Conciliar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarfacturaproveedor')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarfacturaproveedor')[0]).toEqual({
      proveedor_id: 3,
      numero_proveedor: 'F-123',
      fecha: '2026-03-31',
      total: 10890,
      albaranes: [20],
      devoluciones: [30],
    });

    // Undo a recorded invoice.
    const facturas = await screen.findByRole('table', { name: 'Facturas registradas' });
    await userEvent.click(within(facturas).getByRole('button', { name: 'Deshacer F-099' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deshacer' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'eliminarfacturaproveedor')).toEqual([{ id: 40 }]));
  });
});
