import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, type ApiResponse } from 'shared';
import { allFlags, bodiesOf, type FakeCall } from 'shared/testing';
import { fakeVentas, renderFacturas } from '../../__tests__/fake';
import type { Propuesta } from '../HfaPage';

const PROPUESTA: Propuesta[] = [
  {
    cliente_id: 3,
    cliente_nombre: 'Droguería Sol SL',
    documentos: [
      { tipo: 'albaranventa', id: 30, numero: 'AV 2026/000030', fecha: '2026-03-02', total: 12100 },
      { tipo: 'albaranventa', id: 31, numero: 'AV 2026/000031', fecha: '2026-03-09', total: 6050 },
      { tipo: 'devolucionventa', id: 35, numero: 'DV 2026/000035', fecha: '2026-03-10', total: -1210 },
    ],
    base: 14000,
    iva: 2940,
    recargo: 0,
    total: 16940,
  },
  {
    cliente_id: 4,
    cliente_nombre: 'Talleres Norte',
    documentos: [
      { tipo: 'albaranventa', id: 32, numero: 'AV 2026/000032', fecha: '2026-03-15', total: 1210 },
      { tipo: 'parte', id: 33, numero: 'PT 2026/000033', fecha: '2026-03-16', total: 1210 },
    ],
    base: 2000,
    iva: 420,
    recargo: 0,
    total: 2420,
  },
];

/** A fake answer held until `release` (the progress bar shows meanwhile). */
function retenida(answer: ApiResponse) {
  let release: () => void = () => {};
  const done = new Promise<void>((r) => {
    release = r;
  });
  const handler = async () => {
    await done;
    return answer;
  };
  return { handler, release: () => release() };
}

async function periodo() {
  await userEvent.clear(screen.getByLabelText(/^Desde/));
  await userEvent.type(screen.getByLabelText(/^Desde/), '2026-03-01');
  const hasta = screen.getByLabelText(/^Hasta/);
  await userEvent.clear(hasta);
  await userEvent.type(hasta, '2026-03-31');
  await waitFor(() => expect((screen.getByLabelText(/^Serie/) as HTMLSelectElement).value).toBe('1'));
}

describe('hfa', () => {
  it('previews one invoice per customer, invoices the chosen ones in one call with a key, with a progress bar, and links them', async () => {
    const hechas = retenida({
      RESULT: '0',
      data: [{ id: 80, numero: 'A 2026/000080', cliente_nombre: 'Droguería Sol SL', total: 16940 }],
    });
    const fake = fakeVentas({
      hfapropuesta: () => ({ RESULT: '0', data: PROPUESTA }),
      facturarhfa: hechas.handler,
    });
    renderFacturas('/ventas/hfa', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Facturar albaranes' })).toBeTruthy();
    // The period starts on the first day of last month; without a start date nothing is asked.
    expect((screen.getByLabelText(/^Desde/) as HTMLInputElement).value).toMatch(/^\d{4}-\d{2}-01$/);
    await userEvent.clear(screen.getByLabelText(/^Desde/));
    await userEvent.click(screen.getByRole('button', { name: 'Previsualizar' }));
    expect(await screen.findByText(MESSAGES.selectDate)).toBeTruthy();
    expect(fake.calls.some((c) => c.ac === 'hfapropuesta')).toBe(false);

    await periodo();
    await userEvent.click(screen.getByRole('button', { name: 'Previsualizar' }));
    const tabla = await screen.findByRole('table', { name: 'Propuesta de facturación' });
    expect(fake.calls.find((c) => c.ac === 'hfapropuesta')?.params).toEqual({ desde: '2026-03-01', hasta: '2026-03-31', serie_id: '1', cliente_id: undefined });
    const pepe = within(tabla).getByText('Droguería Sol SL').closest('tr')!;
    expect(within(pepe).getByRole('link', { name: 'AV 2026/000030' }).getAttribute('href')).toBe('/ventas/albaran/30');
    expect(within(pepe).getByRole('link', { name: 'DV 2026/000035' }).getAttribute('href')).toBe('/ventas/devolucion/35');
    // A devolución subtracts.
    expect(within(pepe).getByText(/-12,10 €/)).toBeTruthy();
    const talleres = within(tabla).getByText('Talleres Norte').closest('tr')!;
    expect(within(talleres).getByRole('link', { name: 'PT 2026/000033' }).getAttribute('href')).toBe('/ventas/partes-de-trabajo/33');
    expect(screen.getByTestId('hfa-total').textContent).toBe('193,60 €');

    // Talleres Norte's invoice is left out.
    await userEvent.click(within(tabla).getByLabelText('Incluir Talleres Norte'));
    expect(screen.getByTestId('hfa-total').textContent).toBe('169,40 €');
    await userEvent.click(screen.getByRole('button', { name: 'Facturar (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Facturar' });
    expect(within(dialog).getByText(/Se harán y emitirán 1 factura por 169,40 €/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Facturar' }));

    expect(await screen.findByRole('progressbar', { name: 'Facturando' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previsualizar' })).toHaveProperty('disabled', true);
    const body = bodiesOf(fake.calls, 'facturarhfa')[0];
    expect(body).toMatchObject({ desde: '2026-03-01', hasta: '2026-03-31', cliente_ids: [3], serie_id: 1 });
    expect(body.fecha).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof body.clave).toBe('string');
    hechas.release();

    const emitidas = await screen.findByRole('table', { name: 'Facturas emitidas' });
    expect(within(emitidas).getByRole('link', { name: 'A 2026/000080' }).getAttribute('href')).toBe('/ventas/factura/80');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('table', { name: 'Propuesta de facturación' })).toBeNull();
  });

  it('chosen customers: one proposal per customer; on a refusal nothing is made and the Spanish message shows', async () => {
    const fake = fakeVentas({
      hfapropuesta: ({ params }: FakeCall) => ({ RESULT: '0', data: PROPUESTA.filter((p) => String(p.cliente_id) === String(params?.cliente_id)) }),
      facturarhfa: () => ({ RESULT: '1', message: MESSAGES.clienteSinNif }),
    });
    const r = renderFacturas('/ventas/hfa', { api: fake.api });
    await screen.findByRole('heading', { name: 'Facturar albaranes' });
    await periodo();
    await userEvent.click(screen.getByLabelText('Solo los elegidos'));
    await userEvent.click(screen.getByRole('button', { name: 'Previsualizar' }));
    expect(await screen.findByText('Elija algún cliente o marque «Todos»')).toBeTruthy();
    await userEvent.type(screen.getByRole('combobox', { name: /^Añadir cliente/ }), 'Taller');
    await screen.findByRole('option', { name: /Talleres Norte/ });
    await userEvent.keyboard('{Enter}');
    expect(within(screen.getByRole('list', { name: 'Clientes elegidos' })).getByText('Talleres Norte')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Previsualizar' }));
    const tabla = await screen.findByRole('table', { name: 'Propuesta de facturación' });
    expect(fake.calls.filter((c) => c.ac === 'hfapropuesta').map((c) => c.params?.cliente_id)).toEqual([4]);
    expect(within(tabla).queryByText('Droguería Sol SL')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Facturar (1)' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Facturar' })).getByRole('button', { name: 'Facturar' }));
    const alerta = await screen.findByText(/No se ha hecho ninguna factura/);
    expect(alerta.closest('[role="alert"]')?.textContent).toContain(MESSAGES.clienteSinNif);
    expect(r.toasts).toContain(`error:${MESSAGES.clienteSinNif}`);
    expect(screen.queryByRole('table', { name: 'Facturas emitidas' })).toBeNull();
    // The same proposal can be sent again with the same key.
    await userEvent.click(screen.getByRole('button', { name: 'Facturar (1)' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Facturar' })).getByRole('button', { name: 'Facturar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'facturarhfa')).toHaveLength(2));
    const [a, b] = bodiesOf(fake.calls, 'facturarhfa');
    expect(a.clave).toBe(b.clave);
  });

  it('needs the flag hfa', async () => {
    renderFacturas('/ventas/hfa', { api: fakeVentas().api, flags: { ...allFlags(1), hfa: 0 } });
    expect(await screen.findByText(MESSAGES.moduleOff)).toBeTruthy();
  });
});
