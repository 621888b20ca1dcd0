import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, type ReciboPendiente, type Remesa } from 'shared';
import { bodiesOf } from 'shared/testing';
import { fakeVentas, renderFacturas } from '../../__tests__/fake';

const PENDIENTES: ReciboPendiente[] = [
  { clave: '50:0', documento_id: 50, documento_numero: 'A 2026/000050', cliente_id: 1, cliente_nombre: 'Droguería Sol', plazo: 0, vencimiento: '2026-03-01', importe: 12100, forma_pago: 'recibo_30', problema: null },
  { clave: '51:0', documento_id: 51, documento_numero: 'A 2026/000051', cliente_id: 2, cliente_nombre: 'Talleres Ebro', plazo: 0, vencimiento: '2026-03-02', importe: 5000, forma_pago: 'recibo_30', problema: MESSAGES.clienteSinMandato },
  { clave: '52:1', documento_id: 52, documento_numero: 'A 2026/000052', cliente_id: 1, cliente_nombre: 'Droguería Sol', plazo: 1, vencimiento: '2026-03-03', importe: 3000, forma_pago: 'recibo_30_60', problema: null },
];

const REMESA: Remesa = {
  id: 7, fecha_cargo: '2099-03-05', hasta: '2099-03-03', estado: 'pagada', pagada_fecha: '2099-03-05', creado: '2026-03-01T10:00:00.000Z', num_recibos: 2, total: 15100, devueltos: 0,
  recibos: [
    { id: 70, remesa_id: 7, documento_id: 50, documento_numero: 'A 2026/000050', cliente_id: 1, cliente_nombre: 'Droguería Sol', plazo: 0, vencimiento: '2026-03-01', importe: 12100, secuencia: 'FRST', esquema: 'CORE', mandato_referencia: 'DS-1', mandato_fecha: '2026-01-01', iban: 'ES7620770024003102575766', cobro_id: 9, devuelto_fecha: null, devuelto_motivo: null },
    { id: 71, remesa_id: 7, documento_id: 52, documento_numero: 'A 2026/000052', cliente_id: 1, cliente_nombre: 'Droguería Sol', plazo: 1, vencimiento: '2026-03-03', importe: 3000, secuencia: 'FRST', esquema: 'CORE', mandato_referencia: 'DS-1', mandato_fecha: '2026-01-01', iban: 'ES7620770024003102575766', cobro_id: 10, devuelto_fecha: null, devuelto_motivo: null },
  ],
};

describe('Ventas › Remesas', () => {
  it('a new remesa offers the due receipts, the ones without a mandate can\'t go, and sends the chosen ones', async () => {
    const fake = fakeVentas({
      listadoremesas: ({ params }) => (params?.id ? { RESULT: '0', data: [{ ...REMESA, estado: 'emitida', pagada_fecha: null }], total: 1 } : { RESULT: '0', data: [], total: 0 }),
      listadorecibospendientes: () => ({ RESULT: '0', data: PENDIENTES, total: PENDIENTES.length }),
      editarremesa: () => ({ RESULT: '0', message: MESSAGES.remesaCreada, data: [{ ...REMESA, estado: 'emitida' }] }),
    });
    renderFacturas('/ventas/remesas', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Nueva remesa' }));
    const hasta = screen.getByLabelText(/^Vencimientos hasta/);
    await userEvent.clear(hasta);
    await userEvent.type(hasta, '2026-03-03');
    const cargo = screen.getByLabelText(/^Fecha de cargo/);
    await userEvent.clear(cargo);
    await userEvent.type(cargo, '2099-03-05');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar recibos' }));
    const tabla = await screen.findByRole('table', { name: 'Recibos pendientes' });
    const sinMandato = (await within(tabla).findByLabelText('Incluir A 2026/000051 de Talleres Ebro')) as HTMLInputElement;
    expect(sinMandato.disabled).toBe(true);
    expect(within(tabla).getByText(MESSAGES.clienteSinMandato)).toBeTruthy();
    // Both that can go are chosen: 151,00 €; one left out: 121,00 €.
    expect(screen.getByTestId('total-remesa').textContent).toContain('151,00 €');
    await userEvent.click(within(tabla).getByLabelText('Incluir A 2026/000052 de Droguería Sol'));
    expect(screen.getByTestId('total-remesa').textContent).toContain('121,00 €');
    await userEvent.click(screen.getByRole('button', { name: 'Crear remesa' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarremesa')).toEqual([{ fecha_cargo: '2099-03-05', hasta: '2026-03-03', recibos: ['50:0'] }]));
    // The new remesa's screen: its SEPA file is a plain download.
    const descarga = await screen.findByRole('link', { name: 'Descargar fichero SEPA' });
    expect(descarga.getAttribute('href')).toBe('/api/op.asp?ac=descargarremesa&id=7');
  });

  it('a paid remesa\'s receipt is returned with its date and reason code', async () => {
    const devuelta: Remesa = { ...REMESA, devueltos: 1, recibos: [{ ...REMESA.recibos![0], cobro_id: null, devuelto_fecha: '2099-03-10', devuelto_motivo: 'AM04' }, REMESA.recibos![1]] };
    const fake = fakeVentas({
      listadoremesas: () => ({ RESULT: '0', data: [REMESA], total: 1 }),
      devolverrecibo: () => ({ RESULT: '0', message: MESSAGES.reciboDevuelto, data: [devuelta] }),
    });
    const { toasts } = renderFacturas('/ventas/remesa/7', { api: fake.api });
    expect((await screen.findByTestId('estado-remesa')).textContent).toBe('Cobrada');
    expect(screen.queryByRole('button', { name: 'Registrar cobro' })).toBeNull();
    await userEvent.click((await screen.findAllByRole('button', { name: 'Devolución del recibo de Droguería Sol' }))[0]);
    const dialogo = await screen.findByRole('dialog', { name: 'Registrar la devolución' });
    const fecha = within(dialogo).getByLabelText(/^Fecha de la devolución/);
    await userEvent.clear(fecha);
    await userEvent.type(fecha, '2099-03-10');
    await userEvent.selectOptions(within(dialogo).getByLabelText(/^Motivo/), 'AM04');
    await userEvent.click(within(dialogo).getByRole('button', { name: 'Registrar devolución' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'devolverrecibo')).toEqual([{ id: 70, fecha: '2099-03-10', motivo: 'AM04' }]));
    expect(await screen.findByText('Devuelto el 10/03/2099: AM04 · Fondos insuficientes')).toBeTruthy();
    await waitFor(() => expect(toasts).toContain(`success:${MESSAGES.reciboDevuelto}`));
  });
});
