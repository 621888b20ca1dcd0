import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from 'shared';
import { allFlags, bodiesOf, currentPath, renderSection, type FakeCall } from 'shared/testing';
import { ARTICULOS, doc, fakeVentas, linea, listadoDocs } from '../../fakeVentas';
import { AVISOS_DEVOLUCION } from '../../facturas/devolucion';
import menu from '../../menu.json';
import Section from '../../section';

vi.mock('shared', async (orig) => ({
  ...(await orig<object>()),
  downloadDocumentosPdf: async () => {},
}));

const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;

/** Picks a customer in a TerceroField by typing and Intro. */
async function elegirCliente(texto: string, nombre = /Droguería Sol SL/) {
  const input = screen.getByRole('combobox', { name: /^Cliente/ });
  await userEvent.type(input, texto);
  await screen.findByRole('option', { name: nombre });
  await userEvent.keyboard('{Enter}');
}

/** The editor's entry box: a code and Tab adds the article and goes to its quantity. */
async function anadir(codigo: string, n: number) {
  await userEvent.click(await screen.findByRole('combobox', { name: 'Añadir artículo' }));
  await userEvent.keyboard(`${codigo}{Tab}`);
  return screen.findByLabelText(`Cantidad de la línea ${n}`);
}

describe('Listas de documentos de venta', () => {
  it('filter by customer, show the customer and the filter total', async () => {
    const fake = fakeVentas({
      listadopedidosventa: listadoDocs([doc({}), doc({ id: 6, numero: 'PV 2026/000006', cliente_id: 4, cliente_nombre: 'Talleres Norte', total: 5000 })]),
    });
    renderSection(Section, menu.prefix, '/ventas/pedidos', { api: fake.api });
    const row = (await screen.findByText('PV 2026/000006')).closest('tr')!;
    expect(within(row).getByText('Talleres Norte')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Totales del filtro' }).textContent).toContain('171,00 €');
    await elegirCliente('Drog');
    await waitFor(() => expect(screen.queryByText('PV 2026/000006')).toBeNull());
    expect(fake.calls.filter((c) => c.ac === 'listadopedidosventa').at(-1)?.params).toMatchObject({ cliente_id: '3' });
  });
});

describe('Pedido de venta', () => {
  it('is created with the keyboard: the customer brings its terms, lines at its tarifa with its discount, recargo in the totals, the stock available beside', async () => {
    const fake = fakeVentas({
      editarpedidoventa: (call: FakeCall) => ({ RESULT: '0', data: [doc({ id: 9, numero: 'PV 2026/000009', ...(call.body as object), lineas: [] })] }),
    });
    renderSection(Section, menu.prefix, '/ventas/pedido/nuevo-pedido', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nuevo pedido' })).toBeTruthy();
    // Issue 26: the new document opens with the focus on its customer.
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: /^Cliente/ }));
    await elegirCliente('Drog');
    expect(screen.getByTestId('tercero').textContent).toBe('Droguería Sol SL');
    expect(field('Forma de pago').value).toBe('recibo_30');
    expect(field('% Retención').value).toBe('0');
    expect(screen.getByRole('note', { name: 'Condiciones del cliente' }).textContent).toBe('Tarifa 2 · Dto. 5 % · Recargo de equivalencia');
    await waitFor(() => expect(field('Almacén').value).toBe('1'));

    const cantidad1 = await anadir('TOR-M4', 1);
    await waitFor(() => expect(document.activeElement).toBe(cantidad1));
    await userEvent.keyboard('{Control>}a{/Control}100{Enter}');
    // Tarifa 2 of TOR-M4: 0,18 €; the customer's 5 % discount.
    expect((document.activeElement as HTMLInputElement).value).toBe('0,18');
    expect((screen.getByLabelText('Descuento de la línea 1') as HTMLInputElement).value).toBe('5');
    // Central has 25 available.
    expect(await within(screen.getByTestId('linea-1')).findByText('Disponible: 25')).toBeTruthy();
    await anadir('LIB-01', 2);
    expect(await within(screen.getByTestId('linea-2')).findByText('Disponible: 0')).toBeTruthy();
    // Each article is asked about once.
    expect(fake.calls.filter((c) => c.ac === 'disponibleventa').map((c) => c.params)).toEqual([
      { almacen_id: '1', ids: '7' },
      { almacen_id: '1', ids: '8' },
    ]);

    const totales = screen.getByLabelText('Totales');
    // 100 × 0,18 − 5 % = 17,10 at 21 % (IVA 3,59, R.E. 5,2 % 0,89); 1 × 25,00 − 5 % = 23,75 at 4 % (IVA 0,95, R.E. 0,5 % 0,12).
    expect(totales.textContent).toContain('17,10 € · IVA 3,59 € · R.E. 0,89 €');
    expect(totales.textContent).toContain('23,75 € · IVA 0,95 € · R.E. 0,12 €');
    expect(screen.getByTestId('total').textContent).toBe('46,40 €');

    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarpedidoventa')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editarpedidoventa')[0];
    expect(body).toMatchObject({ cliente_id: 3, almacen_id: 1, forma_pago: 'recibo_30', retencion: 0, fecha_entrega: null });
    expect(typeof body.clave).toBe('string');
    expect(body.lineas).toEqual([
      { articulo_id: 7, cantidad: 100000, precio: 1800, descuento: 500, descripcion: 'Tornillo M4', ubicacion_id: null, operacion: 'S1' },
      { articulo_id: 8, cantidad: 1000, precio: 250000, descuento: 500, descripcion: 'Libro técnico', ubicacion_id: null, operacion: 'S1' },
    ]);
    await waitFor(() => expect(currentPath()).toBe('/ventas/pedido/9'));
  });

  it('another warehouse asks for its stock available again', async () => {
    const fake = fakeVentas({ listadopedidosventa: listadoDocs([doc({ lineas: [linea(51, ARTICULOS[0], 10000)] })]) });
    renderSection(Section, menu.prefix, '/ventas/pedido/5', { api: fake.api });
    expect(await screen.findByText('Disponible: 25')).toBeTruthy();
    await userEvent.selectOptions(field('Almacén'), '2');
    expect(await screen.findByText('Disponible: 3')).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'disponibleventa').map((c) => c.params)).toEqual([
      { almacen_id: '1', ids: '7' },
      { almacen_id: '2', ids: '7' },
    ]);
  });

  it('«Servir» offers the pending units of each line with the stock available, sends what goes and links the albarán it made', async () => {
    const pedido = doc({
      estado: 'confirmado',
      lineas: [linea(51, ARTICULOS[0], 10000, { pendiente: 10000 }), linea(52, ARTICULOS[1], 2000, { pendiente: 2000 })],
    });
    const fake = fakeVentas({
      listadopedidosventa: listadoDocs([pedido]),
      servirpedidoventa: () => ({
        RESULT: '0',
        data: [{ ...pedido, estado: 'enviado_parcial', hijos: [{ tipo: 'albaranventa', id: 20, numero: 'AV 2026/000020' }] }],
      }),
    });
    renderSection(Section, menu.prefix, '/ventas/pedido/5', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Servir' }));
    const dialog = await screen.findByRole('dialog');
    const tabla = within(dialog).getByRole('table', { name: 'Líneas a servir' });
    const tor = within(tabla).getByText('TOR-M4').closest('tr')!;
    // Pending 10, available 25.
    expect(within(tor).getByText('10')).toBeTruthy();
    expect(await within(tor).findByText('25')).toBeTruthy();
    const cantidad = within(dialog).getByLabelText('Cantidad servida de TOR-M4');
    fireEvent.change(cantidad, { target: { value: '11' } });
    expect(within(dialog).getByText(MESSAGES.servirMasDePendiente)).toBeTruthy();
    fireEvent.change(cantidad, { target: { value: '4' } });
    await userEvent.click(within(dialog).getByLabelText('No servir LIB-01'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Servir' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'servirpedidoventa')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'servirpedidoventa')[0]).toEqual({
      id: 5,
      lineas: [
        { id: 51, cantidad: 4000 },
        { id: 52, cantidad: 0 },
      ],
    });
    const link = await screen.findByRole('link', { name: 'Albarán de venta AV 2026/000020' });
    expect(link.getAttribute('href')).toBe('/ventas/albaran/20');
    expect(screen.getByText('Enviado parcial')).toBeTruthy();
  });
});

describe('Albarán de venta', () => {
  const albaran = doc({
    id: 20,
    tipo: 'albaranventa',
    numero: 'AV 2026/000020',
    estado: 'pendiente',
    lineas: [linea(61, ARTICULOS[0], 10000, { pendiente: 10000 }), linea(62, ARTICULOS[1], 1000, { pendiente: 1000 })],
  });

  it('«Facturar» makes the draft invoice and links it; the albarán is finalizado', async () => {
    const fake = fakeVentas({
      listadoalbaranesventa: listadoDocs([albaran]),
      facturaralbaranventa: () => ({
        RESULT: '0',
        data: [{ ...albaran, estado: 'finalizado', hijos: [{ tipo: 'factura', id: 70, numero: 'Borrador' }] }],
      }),
    });
    renderSection(Section, menu.prefix, '/ventas/albaran/20', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Facturar' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Se creará una factura en borrador con las líneas del albarán.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Facturar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'facturaralbaranventa')).toEqual([{ id: 20 }]));
    expect((await screen.findByRole('link', { name: 'Factura Borrador' })).getAttribute('href')).toBe('/ventas/factura/70');
    expect(screen.getByText('Finalizado')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Deshacer facturación' })).toBeTruthy();
  });

  it('without ventas_facturas there is no «Facturar»', async () => {
    const fake = fakeVentas({ listadoalbaranesventa: listadoDocs([albaran]) });
    renderSection(Section, menu.prefix, '/ventas/albaran/20', { api: fake.api, flags: { ...allFlags(1), ventas_facturas: 0 } });
    await screen.findByRole('heading', { name: 'Albarán de venta AV 2026/000020' });
    expect(screen.queryByRole('button', { name: 'Facturar' })).toBeNull();
  });

  it('«Devolver…» chooses lines up to what was sold and not returned, creates the devolución with origen_linea_id and opens it', async () => {
    const conDevolucion = { ...albaran, hijos: [{ tipo: 'devolucionventa' as const, id: 30, numero: 'DV 2026/000030' }] };
    const previa = doc({ id: 30, tipo: 'devolucionventa', numero: 'DV 2026/000030', lineas: [linea(70, ARTICULOS[0], 2000, { origen_linea_id: 61 })] });
    const fake = fakeVentas({
      listadoalbaranesventa: listadoDocs([conDevolucion]),
      listadodevolucionesventa: listadoDocs([previa]),
      editardevolucionventa: () => ({ RESULT: '0', data: [doc({ id: 31, tipo: 'devolucionventa', numero: 'DV 2026/000031' })] }),
    });
    renderSection(Section, menu.prefix, '/ventas/albaran/20', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Devolver…' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Devolver mercancía del albarán de venta AV 2026/000020');
    const row = (await within(dialog).findByText('TOR-M4')).closest('tr')!;
    // 10 sold, 2 already returned.
    expect(within(row).getByText('8')).toBeTruthy();
    await userEvent.click(within(dialog).getByLabelText('Devolver TOR-M4'));
    const cantidad = within(dialog).getByLabelText('Cantidad a devolver de TOR-M4');
    fireEvent.change(cantidad, { target: { value: '9' } });
    expect(within(dialog).getByText(MESSAGES.devolverMasDeVendido)).toBeTruthy();
    fireEvent.change(cantidad, { target: { value: '3' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear devolución' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editardevolucionventa')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editardevolucionventa')[0];
    expect(body).toMatchObject({ cliente_id: 3, almacen_id: 1, forma_pago: 'recibo_30', observaciones: 'Devolución del albarán de venta AV 2026/000020' });
    expect(body.lineas).toEqual([{ articulo_id: 7, cantidad: 3000, precio: 2000, descuento: 0, descripcion: 'Tornillo M4', origen_linea_id: 61 }]);
    await waitFor(() => expect(currentPath()).toBe('/ventas/devolucion/31'));
  });
});

describe('Devolución de venta', () => {
  it('a new one «Desde un albarán o una factura…»: find the invoice, choose its lines, the devolución is created from them', async () => {
    const factura = doc({
      id: 70,
      tipo: 'factura',
      numero: 'A 2026/000070',
      estado: 'emitida',
      lineas: [linea(81, ARTICULOS[0], 5000, { devuelto: 1000 }), linea(82, ARTICULOS[1], -1000)],
    });
    const fake = fakeVentas({
      listadofacturas: listadoDocs([factura]),
      editardevolucionventa: () => ({ RESULT: '0', data: [doc({ id: 32, tipo: 'devolucionventa', numero: 'DV 2026/000032' })] }),
    });
    renderSection(Section, menu.prefix, '/ventas/devolucion/nueva-devolucion', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Desde un albarán o una factura…' }));
    const buscar = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(buscar).getByLabelText('Documento'), 'factura');
    await userEvent.type(within(buscar).getByRole('combobox', { name: 'Buscar factura' }), 'A 2026');
    await userEvent.click(await within(buscar).findByRole('option', { name: /A 2026\/000070/ }));
    expect(fake.calls.filter((c) => c.ac === 'listadofacturas' && c.params?.q).at(-1)?.params).toMatchObject({ estado: 'emitida' });

    const dialog = await screen.findByRole('dialog', { name: 'Devolver mercancía de la factura A 2026/000070' });
    // The negative line (units already returned) is not offered; 5 sold, 1 returned.
    expect(within(dialog).queryByText('LIB-01')).toBeNull();
    const row = (await within(dialog).findByText('TOR-M4')).closest('tr')!;
    expect(within(row).getByText('4')).toBeTruthy();
    await userEvent.click(within(dialog).getByLabelText('Devolver TOR-M4'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear devolución' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editardevolucionventa')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editardevolucionventa')[0].lineas).toEqual([
      { articulo_id: 7, cantidad: 4000, precio: 2000, descuento: 0, descripcion: 'Tornillo M4', origen_linea_id: 81 },
    ]);
    await waitFor(() => expect(currentPath()).toBe('/ventas/devolucion/32'));
  });

  it('shows no stock available beside its lines (goods come back)', async () => {
    const fake = fakeVentas({ listadodevolucionesventa: listadoDocs([doc({ id: 30, tipo: 'devolucionventa', numero: 'DV 2026/000030' })]) });
    renderSection(Section, menu.prefix, '/ventas/devolucion/30', { api: fake.api });
    await screen.findByRole('heading', { name: 'Devolución de venta DV 2026/000030' });
    await screen.findByTestId('linea-1');
    expect(screen.queryByText(/^Disponible:/)).toBeNull();
    expect(fake.calls.some((c) => c.ac === 'disponibleventa')).toBe(false);
  });

  it('of goods already invoiced (an invoiced albarán, an invoice): «Rectificar la factura» opens the rectificativa of the devolución', async () => {
    const dev = (id: number, estadoAlbaran: string) =>
      doc({
        id,
        tipo: 'devolucionventa',
        numero: `DV 2026/0000${id}`,
        estado: 'pendiente',
        lineas: [linea(80 + id, ARTICULOS[0], 1000, { origen_linea_id: 21 })],
        padres: [{ tipo: 'albaranventa', id: 20, numero: 'AV 2026/000020', estado: estadoAlbaran }],
      });
    const fake = fakeVentas({ listadodevolucionesventa: listadoDocs([dev(30, 'finalizado')]) });
    const r = renderSection(Section, menu.prefix, '/ventas/devolucion/30', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Rectificar la factura' }));
    await waitFor(() => expect(currentPath()).toBe('/ventas/rectificativa/nueva-rectificativa'));
    // It reads the devolución it was opened for (here its albarán's invoice isn't in the fake: it says so).
    await waitFor(() => expect(r.toasts).toContain(`error:${AVISOS_DEVOLUCION.sinFactura}`));
  });

  it('of goods not invoiced yet (hfa invoices it) has no «Rectificar la factura»', async () => {
    const dev = doc({
      id: 31,
      tipo: 'devolucionventa',
      numero: 'DV 2026/000031',
      estado: 'pendiente',
      lineas: [linea(81, ARTICULOS[0], 1000, { origen_linea_id: 21 })],
      padres: [{ tipo: 'albaranventa', id: 20, numero: 'AV 2026/000020', estado: 'pendiente' }],
    });
    const fake = fakeVentas({ listadodevolucionesventa: listadoDocs([dev]) });
    renderSection(Section, menu.prefix, '/ventas/devolucion/31', { api: fake.api });
    await screen.findByRole('heading', { name: 'Devolución de venta DV 2026/000031' });
    expect(screen.queryByRole('button', { name: 'Rectificar la factura' })).toBeNull();
  });
});

describe('Parte de trabajo', () => {
  it('is created with customer, date, worker, description, hours per proceso (time × cost) and materials', async () => {
    const fake = fakeVentas({
      editarparte: (call: FakeCall) => ({ RESULT: '0', data: [doc({ id: 40, tipo: 'parte', numero: 'PT 2026/000040', ...(call.body as object), lineas: [] })] }),
    });
    renderSection(Section, menu.prefix, '/ventas/partes-de-trabajo/nuevo-parte', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nuevo parte' })).toBeTruthy();
    await elegirCliente('Drog');
    // The session's user did the work, unless another is chosen.
    await waitFor(() => expect(within(field('Trabajador')).getByRole('option', { name: 'Lucía Pérez' })).toBeTruthy());
    expect(field('Trabajador').value).toBe('1');
    await userEvent.selectOptions(field('Trabajador'), '2');
    await userEvent.type(screen.getByLabelText('Descripción del trabajo'), 'Montaje de estanterías');

    await userEvent.click(screen.getByRole('button', { name: 'Añadir horas' }));
    const horas1 = screen.getByRole('group', { name: 'Horas 1' });
    await waitFor(() => expect(within(horas1).getByRole('option', { name: 'Montaje' })).toBeTruthy());
    await userEvent.selectOptions(within(horas1).getByLabelText(/^Proceso/), '1');
    // Montaje: 90 minutes at 25,00 € an hour.
    expect((within(horas1).getByLabelText('Horas') as HTMLInputElement).value).toBe('1,5');
    expect((within(horas1).getByLabelText('Precio por hora') as HTMLInputElement).value).toBe('25,00');
    expect(within(horas1).getByText('37,50 €')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Añadir horas' }));
    const horas2 = screen.getByRole('group', { name: 'Horas 2' });
    await userEvent.selectOptions(within(horas2).getByLabelText(/^Proceso/), '2');
    const h2 = within(horas2).getByLabelText('Horas');
    await userEvent.clear(h2);
    await userEvent.type(h2, '2');
    expect(screen.getByRole('status', { name: 'Total de horas' }).textContent).toBe('Horas: 3,5Mano de obra: 77,50 €');

    // Materials: the lines editor, with the stock available.
    await anadir('TOR-M4', 1);
    expect(await screen.findByText('Disponible: 25')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarparte')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editarparte')[0];
    expect(body).toMatchObject({ cliente_id: 3, usuario_id: 2, almacen_id: 1, observaciones: 'Montaje de estanterías' });
    expect(body.horas).toEqual([
      { proceso_id: 1, horas: 1500, precio: 250000 },
      { proceso_id: 2, horas: 2000, precio: 200000 },
    ]);
    expect(body.lineas).toEqual([{ articulo_id: 7, cantidad: 1000, precio: 1800, descuento: 500, descripcion: 'Tornillo M4', ubicacion_id: null, operacion: 'S1' }]);
    await waitFor(() => expect(currentPath()).toBe('/ventas/partes-de-trabajo/40'));
  });

  it('an hours row without proceso is not sent', async () => {
    const fake = fakeVentas();
    renderSection(Section, menu.prefix, '/ventas/partes-de-trabajo/nuevo-parte', { api: fake.api });
    await screen.findByRole('heading', { name: 'Nuevo parte' });
    await elegirCliente('Drog');
    await userEvent.click(screen.getByRole('button', { name: 'Añadir horas' }));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Elija el proceso')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarparte')).toHaveLength(0);
  });

  it('a finished parte shows its hours and materials read-only, and «Facturar»', async () => {
    const parte = doc({
      id: 40,
      tipo: 'parte',
      numero: 'PT 2026/000040',
      estado: 'finalizado',
      usuario_id: 2,
      usuario_nombre: 'Lucía Pérez',
      observaciones: 'Montaje de estanterías',
      horas: [{ id: 1, proceso_id: 1, proceso_nombre: 'Montaje', horas: 2000, precio: 250000 }],
    });
    const fake = fakeVentas({ listadopartes: listadoDocs([parte]) });
    renderSection(Section, menu.prefix, '/ventas/partes-de-trabajo/40', { api: fake.api });
    await screen.findByRole('heading', { name: 'Parte de trabajo PT 2026/000040' });
    const tabla = await screen.findByRole('table', { name: 'Horas del parte' });
    const fila = (await within(tabla).findByText('Montaje')).closest('tr')!;
    expect(within(fila).getByText('2')).toBeTruthy();
    expect(within(fila).getByText('50,00 €')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Materiales del parte de trabajo' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Añadir horas' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Facturar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Deshacer finalización' })).toBeTruthy();
  });
});
