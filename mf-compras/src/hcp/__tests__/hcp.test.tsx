import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Documento } from 'shared';
import { bodiesOf, renderSection, type FakeHandler } from 'shared/testing';
import { doc, fakeCompras } from '../../fakeCompras';
import menu from '../../menu.json';
import Section from '../../section';

const albaran1 = doc({
  id: 20,
  tipo: 'albarancompra',
  numero: 'AC 2026/000020',
  // Issue 17: the supplier's own delivery-note number.
  albaran_proveedor: 'ALB-5531',
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

/** `listadopendienteshcp`: the supplier's documents, paged as the server does, devoluciones with signo -1. */
const pendientes =
  (docs: Documento[]): FakeHandler =>
  ({ params }) => {
    const pagina = Number(params?.pagina ?? 1);
    const porPagina = Number(params?.porPagina ?? 25);
    const suyos = docs.filter((d) => String(d.proveedor_id) === String(params?.proveedor_id)).map((d) => ({ ...d, signo: d.tipo === 'devolucioncompra' ? -1 : 1 }));
    return { RESULT: '0', data: suyos.slice((pagina - 1) * porPagina, pagina * porPagina), total: suyos.length };
  };

async function elegirProveedor() {
  const input = screen.getByRole('combobox', { name: /^Proveedor/ });
  await userEvent.type(input, 'Ferre');
  await screen.findByRole('option', { name: /Ferretería Levante SL/ });
  await userEvent.keyboard('{Enter}');
}

describe('hcp', () => {
  it('compares the chosen documents per rate with the invoice, shows the difference and records it', async () => {
    const fake = fakeCompras({
      listadopendienteshcp: pendientes([albaran1, albaran2, devolucion]),
      listadofacturasproveedor: () => ({ RESULT: '0', data: [{ id: 40, proveedor_id: 3, numero_proveedor: 'F-099', fecha: '2026-02-28', total: 5000, diferencia: 0 }], total: 1 }),
      editarfacturaproveedor: () => ({ RESULT: '0', data: [{ id: 41 }] }),
      eliminarfacturaproveedor: () => ({ RESULT: '0', data: [] }),
    });
    renderSection(Section, menu.prefix, '/compras/hcp', { api: fake.api });
    await elegirProveedor();
    await userEvent.type(screen.getByLabelText('Desde'), '2026-03-01');

    const docs = await screen.findByRole('table', { name: 'Documentos pendientes' });
    expect(await within(docs).findByText('AC 2026/000021')).toBeTruthy();
    // The supplier's delivery-note number beside ours (issue 17).
    expect(within(within(docs).getByText('AC 2026/000020').closest('tr')!).getByText('ALB-5531')).toBeTruthy();
    // A devolución counts negative.
    expect(within(within(docs).getByText('DC 2026/000030').closest('tr')!).getByText('-12,10 €')).toBeTruthy();
    await waitFor(() => expect(fake.calls.filter((c) => c.ac === 'listadopendienteshcp').at(-1)?.params).toMatchObject({ proveedor_id: '3', desde: '2026-03-01' }));

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
    // Issue 26: the supplier's forma de pago is proposed; due dates typed as the invoice says them.
    expect((screen.getByLabelText(/^Forma de pago/) as HTMLSelectElement).value).toBe('transferencia_30');
    await userEvent.type(screen.getByLabelText(/^Vencimientos/), '31/04/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Conciliar' }));
    expect(await screen.findByText('Indique fechas de vencimiento válidas, no anteriores a la de la factura')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText(/^Vencimientos/));
    await userEvent.type(screen.getByLabelText(/^Vencimientos/), '15/04/2026, 30/04/2026');
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
      forma_pago: 'transferencia_30',
      vencimientos: ['2026-04-15', '2026-04-30'],
    });

    // Undo a recorded invoice.
    const facturas = await screen.findByRole('table', { name: 'Facturas registradas' });
    await userEvent.click(within(facturas).getByRole('button', { name: 'Deshacer F-099' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deshacer' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'eliminarfacturaproveedor')).toEqual([{ id: 40 }]));
  }, 20_000);
  it('pages the pending documents (more than a page) and keeps what was chosen on each page', async () => {
    const muchos = Array.from({ length: 30 }, (_, i) =>
      doc({
        id: 100 + i,
        tipo: 'albarancompra',
        numero: `AC 2026/${String(100 + i).padStart(6, '0')}`,
        estado: 'pendiente',
        base: 1000,
        iva: 210,
        total: 1210,
        desglose: [{ tipo_iva: '21', base: 1000, iva: 210, recargo: 0 }],
      }),
    );
    const fake = fakeCompras({ listadopendienteshcp: pendientes(muchos), editarfacturaproveedor: () => ({ RESULT: '0', data: [{ id: 41 }] }) });
    renderSection(Section, menu.prefix, '/compras/hcp', { api: fake.api });
    await elegirProveedor();
    await screen.findByLabelText('Incluir AC 2026/000100');
    expect(screen.getByText('1–25 de 30 resultados')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('Incluir AC 2026/000100'));
    await userEvent.click(screen.getByRole('button', { name: 'Página siguiente' }));
    await userEvent.click(await screen.findByLabelText('Incluir AC 2026/000129'));
    expect(screen.getByText('2 seleccionados')).toBeTruthy();
    // Both pages' documents add up: 2 × 12,10 €.
    expect(screen.getByTestId('total-seleccion').textContent).toBe('24,20 €');
    await userEvent.type(screen.getByLabelText(/^Número de factura/), 'F-200');
    await userEvent.type(screen.getByLabelText(/^Total de la factura/), '24,20');
    await userEvent.click(screen.getByRole('button', { name: 'Conciliar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarfacturaproveedor')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarfacturaproveedor')[0]).toMatchObject({ albaranes: [100, 129], devoluciones: [] });
  }, 20_000);
});
