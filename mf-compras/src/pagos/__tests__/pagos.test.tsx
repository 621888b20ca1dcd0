import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from 'shared';
import { bodiesOf, renderSection, type FakeHandler } from 'shared/testing';
import { fakeCompras } from '../../fakeCompras';
import menu from '../../menu.json';
import Section from '../../section';
import type { ResumenPagos, Vencimiento } from '../PagosPage';

const V: Vencimiento[] = [
  { clave: '40:0', factura_id: 40, numero_proveedor: 'F-099', proveedor_id: 3, proveedor_nombre: 'Ferretería Levante SL', proveedor_iban: 'ES9121000418450200051332', iban_valido: true, plazo: 0, fecha: '2026-01-10', importe: 6050, pendiente: 6050 },
  { clave: '41:1', factura_id: 41, numero_proveedor: 'PS-7', proveedor_id: 4, proveedor_nombre: 'Pinturas Sur', proveedor_iban: null, iban_valido: false, plazo: 1, fecha: '2099-01-01', importe: 2000, pendiente: 1500 },
];
const RESUMEN: ResumenPagos = {
  hoy: '2026-02-01',
  fin_semana: '2026-02-01',
  vencido: 6050,
  semana: 0,
  total: 7550,
  por_proveedor: [
    { proveedor_id: 3, proveedor_nombre: 'Ferretería Levante SL', pendiente: 6050, vencido: 6050, semana: 0 },
    { proveedor_id: 4, proveedor_nombre: 'Pinturas Sur', pendiente: 1500, vencido: 0, semana: 0 },
  ],
};
const listado: FakeHandler = () => ({ RESULT: '0', data: V, total: V.length, resumen: RESUMEN });

describe('Compras › Pagos', () => {
  it('shows overdue, this week and total, by supplier; pays one instalment with the exact body', async () => {
    const fake = fakeCompras({
      listadovencimientosproveedor: listado,
      pagarfacturaproveedor: () => ({ RESULT: '0', message: MESSAGES.pagoRegistrado, data: [] }),
    });
    const { toasts } = renderSection(Section, menu.prefix, '/compras/pagos', { api: fake.api });
    expect((await screen.findByTestId('total-vencido')).textContent).toBe('60,50 €');
    expect(screen.getByTestId('total-pendiente').textContent).toBe('75,50 €');
    const porProveedor = screen.getByRole('table', { name: 'Pendiente por proveedor' });
    expect(within(within(porProveedor).getByText('Pinturas Sur').closest('tr')!).getByText('15,00 €')).toBeTruthy();
    const lista = await screen.findByRole('table', { name: 'Vencimientos pendientes' });
    const fila = (await within(lista).findByText('F-099 (1.º)')).closest('tr')!;
    expect(within(fila).getByText('Vencido')).toBeTruthy();
    expect(within(within(lista).getByText('PS-7 (2.º)').closest('tr')!).getByText('Sin IBAN válido')).toBeTruthy();

    await userEvent.click(within(fila).getByRole('button', { name: /^Pagar F-099/ }));
    const dialogo = await screen.findByRole('dialog', { name: 'Registrar el pago' });
    // How it is paid: the medios de pago of a cobro, not payment terms.
    const forma = within(dialogo).getByLabelText(/^Forma de pago/) as HTMLSelectElement;
    const ofrecidas = [...forma.options].map((o) => o.textContent);
    expect(ofrecidas).toContain('Cheque o pagaré');
    expect(ofrecidas).not.toContain('Recibo domiciliado a 30 días');
    const importe = within(dialogo).getByLabelText(/^Importe/);
    await userEvent.clear(importe);
    await userEvent.type(importe, '20,50');
    await userEvent.click(within(dialogo).getByRole('button', { name: 'Registrar pago' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'pagarfacturaproveedor')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'pagarfacturaproveedor')[0]).toMatchObject({ id: 40, forma: 'transferencia', importe: 2050 });
    await waitFor(() => expect(toasts).toContain(`success:${MESSAGES.pagoRegistrado}`));
  });

  it('the chosen instalments go into a SEPA transfer file that the browser saves', async () => {
    const fake = fakeCompras({
      listadovencimientosproveedor: listado,
      transferenciaproveedores: () => ({ RESULT: '0', message: 'Se han registrado 1 pagos por transferencia', data: [{ nombre: 'transferencias-2099-01-01.xml', xml: '<Document/>' }] }),
    });
    const crear = vi.fn(() => 'blob:x');
    URL.createObjectURL = crear as never;
    URL.revokeObjectURL = vi.fn() as never;
    renderSection(Section, menu.prefix, '/compras/pagos', { api: fake.api });
    const lista = await screen.findByRole('table', { name: 'Vencimientos pendientes' });
    await userEvent.click(await within(lista).findByLabelText(/^Incluir F-099/));
    await userEvent.click(screen.getByRole('button', { name: 'Transferencia SEPA (1)' }));
    const dialogo = await screen.findByRole('dialog', { name: 'Transferencia SEPA' });
    const fecha = within(dialogo).getByLabelText(/^Fecha de ejecución/);
    await userEvent.clear(fecha);
    await userEvent.type(fecha, '2099-01-01');
    await userEvent.click(within(dialogo).getByRole('button', { name: 'Generar fichero' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'transferenciaproveedores')).toEqual([{ fecha: '2099-01-01', plazos: ['40:0'] }]));
    await waitFor(() => expect(crear).toHaveBeenCalled());
  });

  it('the menu entry follows hcp', async () => {
    expect(menu.entries.find((e) => e.path === 'pagos')).toMatchObject({ label: 'Pagos', module: 'hcp' });
  });
});
