import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared';
import { bodiesOf, currentPath, type FakeCall } from 'shared/testing';
import { doc } from '../../fakeVentas';
import { AVISOS_DEVOLUCION } from '../devolucion';
import { ARTICULOS, documentoCobrable, emitida, factura, fakeVentas, linea, listadoDocs, renderFacturas } from './fake';

const select = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLSelectElement;
const opciones = (el: HTMLSelectElement) => [...el.options].map((o) => o.value).filter(Boolean);

const completa = emitida({
  id: 40,
  lineas: [linea(51, ARTICULOS[0], 10000, { precio: 1800 }), linea(52, ARTICULOS[1], 2000, { precio: 240000, descuento: 1000 })],
});
const ticket = emitida({ id: 60, numero: 'T 2026/000003', serie_id: 2, serie_codigo: 'T', tipo_factura: 'F2', fecha: '2026-02-01', total: 1210, lineas: [linea(61, ARTICULOS[0], 5000)] });

const rectificativa = (over: Parameters<typeof factura>[0]) =>
  factura({ id: 70, tipo: 'rectificativa', serie_id: 3, serie_codigo: 'R', factura_id: 40, factura_numero: 'A 2026/000012', tipo_factura: 'R1', modo_rectificacion: 'diferencias', ...over });

describe('Rectificativa', () => {
  it('«Rectificar» preselects the invoice: customer, kind R1-R4, by differences empty; lines of the invoice enter negative; one body', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([completa, ticket]),
      editarrectificativa: (call: FakeCall) => ({ RESULT: '0', data: [rectificativa({ ...(call.body as object), lineas: [] })] }),
    });
    renderFacturas('/ventas/rectificativa/nueva-rectificativa?factura=40', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nueva rectificativa' })).toBeTruthy();
    await waitFor(() => expect(select('Factura rectificada').value).toBe('40'));
    expect(screen.getByTestId('tercero').textContent).toBe('Droguería Sol SL');
    // Only the customer's emitted invoices; a full invoice takes R1-R4.
    expect(within(select('Factura rectificada')).getByRole('option', { name: /^T 2026\/000003 · 01\/02\/2026/ })).toBeTruthy();
    expect(select('Tipo de rectificativa').value).toBe('R1');
    expect(opciones(select('Tipo de rectificativa'))).toEqual(['R1', 'R2', 'R3', 'R4']);
    await waitFor(() => expect(select('Serie').value).toBe('3'));
    expect(opciones(select('Serie'))).toEqual(['3']);
    expect(select('Modo').value).toBe('diferencias');
    expect(screen.queryByLabelText('Cantidad de la línea 1')).toBeNull();

    const lineas = await screen.findByRole('table', { name: 'Líneas de la factura rectificada' });
    await userEvent.click(within(lineas).getByRole('button', { name: 'Rectificar LIB-01' }));
    expect(within(lineas).getByText('Añadida')).toBeTruthy();
    const cantidad = screen.getByLabelText('Cantidad de la línea 1') as HTMLInputElement;
    expect(cantidad.value).toBe('-2');
    // The clerk types what changes next: the focus is on the new line's quantity.
    await waitFor(() => expect(document.activeElement).toBe(cantidad));
    // One unit returned instead of two.
    await userEvent.clear(cantidad);
    await userEvent.type(cantidad, '-1');
    // −1 × 24,00 × 0,90 = −21,60 at 4 % (IVA −0,86), recargo 0,5 % (−0,11).
    expect(screen.getByTestId('total').textContent).toBe('-22,57 €');

    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarrectificativa')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editarrectificativa')[0];
    expect(body).toMatchObject({ serie_id: 3, cliente_id: 3, factura_id: 40, tipo: 'R1', modo: 'diferencias', almacen_id: 1, forma_pago: 'recibo_30_60' });
    expect(body.lineas).toEqual([{ articulo_id: 8, cantidad: -1000, precio: 240000, descuento: 1000, descripcion: 'Libro técnico', ubicacion_id: null, origen_linea_id: 52 }]);
    await waitFor(() => expect(currentPath()).toBe('/ventas/rectificativa/70'));
  });

  it('issue 16: a rappel corrects several invoices of the customer: the others are ticked and travel with it', async () => {
    const otra = emitida({ id: 41, numero: 'A 2026/000013', fecha: '2026-03-05', lineas: [linea(53, ARTICULOS[0], 1000)] });
    const fake = fakeVentas({
      listadofacturas: listadoDocs([completa, otra]),
      editarrectificativa: (call: FakeCall) => ({ RESULT: '0', data: [rectificativa({ ...(call.body as object), lineas: [] })] }),
    });
    renderFacturas('/ventas/rectificativa/nueva-rectificativa?factura=40', { api: fake.api });
    await waitFor(() => expect(select('Factura rectificada').value).toBe('40'));
    const caja = await screen.findByRole('checkbox', { name: /^A 2026\/000013/ });
    // The invoice already chosen is not offered again.
    expect(screen.queryByRole('checkbox', { name: /^A 2026\/000012/ })).toBeNull();
    await userEvent.click(caja);
    const lineas = await screen.findByRole('table', { name: 'Líneas de la factura rectificada' });
    await userEvent.click(within(lineas).getByRole('button', { name: 'Rectificar LIB-01' }));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarrectificativa')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarrectificativa')[0]).toMatchObject({ factura_id: 40, modo: 'diferencias', facturas_rectificadas: '41' });
  });

  it('by differences, «2» typed on a line offered as «−2» asks whether the customer returns them or is charged more (issue 17)', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([completa, ticket]),
      editarrectificativa: (call: FakeCall) => ({ RESULT: '0', data: [rectificativa({ ...(call.body as object), lineas: [] })] }),
    });
    renderFacturas('/ventas/rectificativa/nueva-rectificativa?factura=40', { api: fake.api });
    const lineas = await screen.findByRole('table', { name: 'Líneas de la factura rectificada' });
    await userEvent.click(within(lineas).getByRole('button', { name: 'Rectificar LIB-01' }));
    const cantidad = screen.getByLabelText('Cantidad de la línea 1') as HTMLInputElement;
    expect(cantidad.value).toBe('-2');
    await userEvent.clear(cantidad);
    await userEvent.type(cantidad, '2');
    let dialog = await screen.findByRole('dialog', { name: '¿Devuelve o se le cobra más?' }, { timeout: 3000 });
    expect(dialog.textContent).toContain('LIB-01');
    // The usual answer: a return — the line becomes −2.
    await userEvent.click(within(dialog).getByRole('button', { name: 'El cliente devuelve 2 (−2)' }));
    await waitFor(() => expect((screen.getByLabelText('Cantidad de la línea 1') as HTMLInputElement).value).toBe('-2'));
    expect(screen.queryByRole('dialog', { name: '¿Devuelve o se le cobra más?' })).toBeNull();

    // Charged more: asked once, then it stays 3 and is saved as such.
    await userEvent.clear(screen.getByLabelText('Cantidad de la línea 1'));
    await userEvent.type(screen.getByLabelText('Cantidad de la línea 1'), '3');
    dialog = await screen.findByRole('dialog', { name: '¿Devuelve o se le cobra más?' }, { timeout: 3000 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Se le cobran 3 más' }));
    await new Promise((r) => setTimeout(r, 900));
    expect(screen.queryByRole('dialog', { name: '¿Devuelve o se le cobra más?' })).toBeNull();
    expect((screen.getByLabelText('Cantidad de la línea 1') as HTMLInputElement).value).toBe('3');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarrectificativa')).toHaveLength(1));
    expect((bodiesOf(fake.calls, 'editarrectificativa')[0].lineas as { cantidad: number }[])[0].cantidad).toBe(3000);
  });

  it('a simplified invoice takes only R5; by substitution it starts from the invoice’s lines, asking before it replaces lines', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([completa, ticket]) });
    renderFacturas('/ventas/rectificativa/nueva-rectificativa?factura=40', { api: fake.api });
    await waitFor(() => expect(select('Factura rectificada').value).toBe('40'));
    await screen.findByRole('table', { name: 'Líneas de la factura rectificada' });
    await userEvent.click(screen.getByRole('button', { name: 'Añadir todas' }));
    expect(screen.getByLabelText('Cantidad de la línea 2')).toBeTruthy();

    // Another invoice replaces the lines: asked first.
    await userEvent.selectOptions(select('Factura rectificada'), '60');
    const aviso = await screen.findByRole('dialog', { name: 'Cambiar la factura rectificada' });
    await userEvent.click(within(aviso).getByRole('button', { name: 'Cambiar' }));
    await waitFor(() => expect(select('Tipo de rectificativa').value).toBe('R5'));
    expect(opciones(select('Tipo de rectificativa'))).toEqual(['R5']);
    expect(screen.queryByLabelText('Cantidad de la línea 1')).toBeNull();

    await userEvent.selectOptions(select('Modo'), 'sustitucion');
    await waitFor(() => expect((screen.getByLabelText('Cantidad de la línea 1') as HTMLInputElement).value).toBe('5'));
    expect(screen.queryByRole('table', { name: 'Líneas de la factura rectificada' })).toBeNull();
    expect(screen.getByText(/Por sustitución: las líneas de la factura rectificada/)).toBeTruthy();
  });

  it('an unknown invoice in ?factura= says so', async () => {
    const fake = fakeVentas();
    const r = renderFacturas('/ventas/rectificativa/nueva-rectificativa?factura=99', { api: fake.api });
    await screen.findByRole('heading', { name: 'Nueva rectificativa' });
    await waitFor(() => expect(r.toasts).toContain(`error:${MESSAGES.facturaARectificarNoValida}`));
  });

  it('its credit taken from an unpaid invoice: «Descontada de la factura», nothing to refund; the invoice asks what is left (issue 17)', async () => {
    const cuenta = {
      factura_id: 40, factura_numero: 'A 2026/000012', importe: 5242 - 511, cobrado: 0, saldo: 4731,
      plazos: [{ fecha: '2026-04-01', importe: 4731, pendiente: 4731 }], cobros: [], rectificativas: [{ id: 70, numero: 'R 2026/000001', total: -511, modo: 'diferencias' }],
    };
    const r70 = rectificativa({
      numero: 'R 2026/000001', estado: 'emitida', total: -511, por_cobrar: 0, cuenta,
      registro: { id: 9, tipo: 'alta', huella: 'AB12CD34EF56AB12CD34', fecha_hora_huso: '2026-03-04T10:00:00+01:00' },
    });
    const fake = fakeVentas({ listadofacturas: listadoDocs([completa]), listadorectificativas: listadoDocs([r70]) });
    renderFacturas('/ventas/rectificativa/70', { api: fake.api });
    expect((await screen.findByTestId('cobro')).textContent).toContain('Descontada de la factura A 2026/000012');
    expect(screen.queryByRole('button', { name: 'Reembolsar' })).toBeNull();
    expect(screen.getByLabelText('Cobros').textContent).toContain('a cobrar 47,31 €');
  });

  it('emitted, it shows the invoice it corrects as a link; «Reembolsar» records the refund paid out, «Quitar reembolso» undoes it', async () => {
    const cobrable = documentoCobrable(rectificativa({
      numero: 'R 2026/000001',
      estado: 'emitida',
      total: -1210,
      forma_pago: 'transferencia',
      registro: { id: 9, tipo: 'alta', huella: 'AB12CD34EF56AB12CD34', fecha_hora_huso: '2026-03-04T10:00:00+01:00' },
    }), MESSAGES.reembolsoRegistrado);
    const fake = fakeVentas({ listadofacturas: listadoDocs([completa]), listadorectificativas: cobrable.listado, cobrarfactura: cobrable.cobrarfactura });
    const r = renderFacturas('/ventas/rectificativa/70', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Factura rectificativa R 2026/000001' })).toBeTruthy();
    const fiscal = screen.getByLabelText('Situación fiscal');
    expect(within(fiscal).getByRole('link', { name: 'A 2026/000012' }).getAttribute('href')).toBe('/ventas/factura/40');
    expect(within(fiscal).getByTestId('cobro').textContent).toMatch(/^Reembolso(Pendiente de reembolso|Vencida)/);
    expect(screen.queryByRole('button', { name: 'Registrar cobro' })).toBeNull();
    expect(select('Factura rectificada').value).toBe('40');
    expect(select('Tipo de rectificativa').value).toBe('R1');
    expect(screen.getByRole('button', { name: 'Rectificar' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Reembolsar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Registrar el reembolso' });
    // Money paid out to the customer: the amount reads positive.
    expect(within(dialog).getByText(/^Rectificativa R 2026\/000001 de .* por 12,10 €\.$/)).toBeTruthy();
    const fecha = within(dialog).getByLabelText(/^Fecha de reembolso/);
    await userEvent.clear(fecha);
    await userEvent.type(fecha, '2026-03-20');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Registrar reembolso' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cobrarfactura')).toEqual([{ id: 70, fecha: '2026-03-20', forma: 'transferencia' }]));
    expect((await screen.findByTestId('cobro')).textContent).toContain('Reembolsada el 20/03/2026 (Transferencia bancaria)');
    expect(r.toasts).toContain(`success:${MESSAGES.reembolsoRegistrado}`);

    await userEvent.click(screen.getByRole('button', { name: 'Quitar reembolso' }));
    const quitar = await screen.findByRole('dialog', { name: 'Quitar el reembolso' });
    expect(within(quitar).getByText('La rectificativa R 2026/000001 volverá a estar pendiente de reembolso.')).toBeTruthy();
    await userEvent.click(within(quitar).getByRole('button', { name: 'Quitar el reembolso' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cobrarfactura')[1]).toEqual({ id: 70, fecha: '', forma: '' }));
    await waitFor(() => expect(screen.getByTestId('cobro').textContent).not.toContain('Reembolsada'));
  }, 20_000);

  it('the list shows each one’s refund and filters pending, overdue and refunded (`cobro`)', async () => {
    const fake = fakeVentas({
      listadorectificativas: listadoDocs([
        rectificativa({ id: 71, numero: 'R 2026/000002', estado: 'emitida', total: -500, fecha: '2026-03-02', cobro_fecha: '2026-03-05', cobro_forma: 'efectivo' }),
        rectificativa({ id: 72, numero: 'R 2026/000003', estado: 'emitida', total: -800, fecha: '2020-01-02', forma_pago: null }),
      ]),
    });
    renderFacturas('/ventas/rectificativa', { api: fake.api });
    const reembolsada = (await screen.findByText('R 2026/000002')).closest('tr')!;
    expect(within(reembolsada).getByText('Reembolsada')).toBeTruthy();
    expect(within(screen.getByText('R 2026/000003').closest('tr')!).getByText('Vencida')).toBeTruthy();
    const filtro = screen.getByLabelText('Reembolso') as HTMLSelectElement;
    expect([...filtro.options].map((o) => o.text)).toEqual(['Reembolso: todos', 'Pendientes de reembolso', 'Vencidas', 'Reembolsadas']);
    await userEvent.selectOptions(filtro, 'vencida');
    await waitFor(() => expect(fake.calls.filter((c) => c.ac === 'listadorectificativas').at(-1)?.params).toMatchObject({ cobro: 'vencida' }));
  });

  describe('de una devolución de mercancía ya facturada (?devolucion=)', () => {
    // Albarán 20 (invoiced in factura 40), its LIB-01 line returned by devolución 30 (at another price).
    const albaran = doc({
      id: 20,
      tipo: 'albaranventa',
      numero: 'AV 2026/000020',
      estado: 'finalizado',
      lineas: [linea(21, ARTICULOS[0], 10000), linea(22, ARTICULOS[1], 2000)],
      hijos: [
        { tipo: 'factura', id: 40, numero: 'A 2026/000012' },
        { tipo: 'devolucionventa', id: 30, numero: 'DV 2026/000030' },
      ],
    });
    const facturaAlbaran = emitida({
      id: 40,
      lineas: [linea(51, ARTICULOS[0], 10000, { precio: 1800, origen_linea_id: 21 }), linea(52, ARTICULOS[1], 2000, { precio: 240000, descuento: 1000, origen_linea_id: 22 })],
    });
    const devolucion = (over: Parameters<typeof doc>[0]) =>
      doc({ id: 30, tipo: 'devolucionventa', numero: 'DV 2026/000030', estado: 'pendiente', almacen_id: 2, ...over });

    it('from an invoiced albarán: its invoice, R1, by differences, serie R, its warehouse; the lines negative with their origin at the invoice’s price', async () => {
      const dev = devolucion({
        lineas: [linea(80, ARTICULOS[1], 1000, { precio: 300000, origen_linea_id: 22 })],
        padres: [{ tipo: 'albaranventa', id: 20, numero: 'AV 2026/000020', estado: 'finalizado' }],
      });
      const fake = fakeVentas({
        listadofacturas: listadoDocs([facturaAlbaran, ticket]),
        listadoalbaranesventa: listadoDocs([albaran]),
        listadodevolucionesventa: listadoDocs([dev]),
        editarrectificativa: (call: FakeCall) => ({ RESULT: '0', data: [rectificativa({ ...(call.body as object), lineas: [] })] }),
      });
      renderFacturas('/ventas/rectificativa/nueva-rectificativa?devolucion=30', { api: fake.api });
      await waitFor(() => expect(select('Factura rectificada').value).toBe('40'));
      expect(screen.getByTestId('tercero').textContent).toBe('Droguería Sol SL');
      expect(select('Tipo de rectificativa').value).toBe('R1');
      expect(select('Modo').value).toBe('diferencias');
      await waitFor(() => expect(select('Serie').value).toBe('3'));
      expect(select('Almacén').value).toBe('2');
      expect((screen.getByLabelText('Cantidad de la línea 1') as HTMLInputElement).value).toBe('-1');
      expect(screen.queryByLabelText('Cantidad de la línea 2')).toBeNull();
      // The invoice line it stands for shows as added; the other one can still be corrected.
      const lineas = await screen.findByRole('table', { name: 'Líneas de la factura rectificada' });
      expect(within(lineas).getByText('Añadida')).toBeTruthy();
      expect(within(lineas).queryByRole('button', { name: 'Rectificar LIB-01' })).toBeNull();
      expect(within(lineas).getByRole('button', { name: 'Rectificar TOR-M4' })).toBeTruthy();

      await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
      await waitFor(() => expect(bodiesOf(fake.calls, 'editarrectificativa')).toHaveLength(1));
      const body = bodiesOf(fake.calls, 'editarrectificativa')[0];
      expect(body).toMatchObject({ serie_id: 3, cliente_id: 3, factura_id: 40, tipo: 'R1', modo: 'diferencias', almacen_id: 2, observaciones: 'Devolución DV 2026/000030' });
      expect(body.lineas).toEqual([{ articulo_id: 8, cantidad: -1000, precio: 240000, descuento: 1000, descripcion: 'Libro técnico', ubicacion_id: null, origen_linea_id: 80 }]);
      await waitFor(() => expect(currentPath()).toBe('/ventas/rectificativa/70'));
    });

    it('from a simplified invoice’s lines: R5', async () => {
      const dev = devolucion({
        lineas: [linea(81, ARTICULOS[0], 2000, { origen_linea_id: 61 })],
        padres: [{ tipo: 'factura', id: 60, numero: 'T 2026/000003' }],
      });
      const fake = fakeVentas({ listadofacturas: listadoDocs([facturaAlbaran, ticket]), listadodevolucionesventa: listadoDocs([dev]) });
      renderFacturas('/ventas/rectificativa/nueva-rectificativa?devolucion=30', { api: fake.api });
      await waitFor(() => expect(select('Factura rectificada').value).toBe('60'));
      expect(select('Tipo de rectificativa').value).toBe('R5');
      expect((screen.getByLabelText('Cantidad de la línea 1') as HTMLInputElement).value).toBe('-2');
    });

    it('goods not in an emitted invoice yet (a draft) say so', async () => {
      const dev = devolucion({
        lineas: [linea(80, ARTICULOS[1], 1000, { origen_linea_id: 22 })],
        padres: [{ tipo: 'albaranventa', id: 20, numero: 'AV 2026/000020', estado: 'finalizado' }],
      });
      const fake = fakeVentas({
        listadofacturas: listadoDocs([factura({ id: 40, lineas: facturaAlbaran.lineas })]),
        listadoalbaranesventa: listadoDocs([albaran]),
        listadodevolucionesventa: listadoDocs([dev]),
      });
      const r = renderFacturas('/ventas/rectificativa/nueva-rectificativa?devolucion=30', { api: fake.api });
      await screen.findByRole('heading', { name: 'Nueva rectificativa' });
      await waitFor(() => expect(r.toasts).toContain(`error:${AVISOS_DEVOLUCION.sinFactura}`));
      expect(screen.queryByLabelText('Cantidad de la línea 1')).toBeNull();
    });
  });
});
