import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from 'shared';
import { bodiesOf, currentPath, renderSection, type FakeCall } from 'shared/testing';
import { ARTICULOS, doc, fakeCompras, linea, listadoDocs } from '../../fakeCompras';
import menu from '../../menu.json';
import Section from '../../section';

const pdf = vi.hoisted(() => ({ downloads: [] as unknown[][], blobs: [] as unknown[][] }));
vi.mock('shared', async (orig) => ({
  ...(await orig<object>()),
  downloadDocumentosPdf: async (...args: unknown[]) => {
    pdf.downloads.push(args);
  },
  documentosPdfBlob: async (...args: unknown[]) => {
    pdf.blobs.push(args);
    return new Blob(['%PDF'], { type: 'application/pdf' });
  },
}));

const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;

/** Picks a supplier in a TerceroField by typing and Intro. */
async function elegirProveedor(texto: string, label = 'Proveedor') {
  const input = screen.getByRole('combobox', { name: new RegExp(`^${label}`) });
  await userEvent.type(input, texto);
  await screen.findByRole('option', { name: /Ferretería Levante SL/ });
  await userEvent.keyboard('{Enter}');
}

describe('Listas de documentos de compra', () => {
  it('filter by supplier, show the supplier and the filter total', async () => {
    const fake = fakeCompras({
      listadopedidoscompra: listadoDocs([doc({}), doc({ id: 6, numero: 'PC 2026/000006', proveedor_id: 4, proveedor_nombre: 'Pinturas Sur', total: 5000 })]),
    });
    renderSection(Section, menu.prefix, '/compras/pedidos', { api: fake.api });
    const row = (await screen.findByText('PC 2026/000006')).closest('tr')!;
    expect(within(row).getByText('Pinturas Sur')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Totales del filtro' }).textContent).toContain('171,00 €');
    await elegirProveedor('Ferre');
    await waitFor(() => expect(screen.queryByText('PC 2026/000006')).toBeNull());
    expect(screen.getByText('PC 2026/000005')).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'listadopedidoscompra').at(-1)?.params).toMatchObject({ proveedor_id: '3' });
    expect(screen.getByTestId('tercero').textContent).toBe('Ferretería Levante SL');
    await userEvent.click(screen.getByRole('button', { name: 'Quitar proveedor' }));
    expect(await screen.findByText('PC 2026/000006')).toBeTruthy();
  });
});

describe('Pedido de compra', () => {
  it('is created with the keyboard: supplier (its terms), two lines, totals by rate with IVA and retención, one body', async () => {
    const fake = fakeCompras({
      editarpedidocompra: (call: FakeCall) => ({ RESULT: '0', data: [doc({ id: 9, numero: 'PC 2026/000009', ...(call.body as object), lineas: [] })] }),
    });
    renderSection(Section, menu.prefix, '/compras/pedido/nuevo-pedido', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nuevo pedido' })).toBeTruthy();
    await elegirProveedor('Ferre');
    expect(screen.getByTestId('tercero').textContent).toBe('Ferretería Levante SL');
    // The supplier's terms: transfer at 30 days, 15 % retención.
    expect(field('Forma de pago').value).toBe('transferencia_30');
    expect(field('% Retención').value).toBe('1500');
    await waitFor(() => expect(within(field('Almacén')).getByRole('option', { name: 'Central' })).toBeTruthy());
    await userEvent.selectOptions(field('Almacén'), '1');

    // Code + Tab picks it and goes to its quantity; Intro walks quantity → price → discount → IVA → the entry.
    // The lines editor loads lazily with the first document screen.
    await userEvent.click(await screen.findByRole('combobox', { name: 'Añadir artículo' }));
    await userEvent.keyboard('TOR-M4{Tab}');
    const cantidad1 = await screen.findByLabelText('Cantidad de la línea 1');
    await waitFor(() => expect(document.activeElement).toBe(cantidad1));
    await userEvent.keyboard('{Control>}a{/Control}100{Enter}');
    // Price defaults to the article's last purchase price (0,1000 €).
    expect((document.activeElement as HTMLInputElement).value).toMatch(/^0,1/);
    await userEvent.keyboard('{Enter}{Enter}{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Añadir artículo' })));
    await userEvent.keyboard('LIB-01{Enter}');
    await screen.findByLabelText('Cantidad de la línea 2');

    const totales = screen.getByLabelText('Totales');
    // 100 × 0,10 = 10,00 at 21 % (IVA 2,10); 1 × 20,00 at 4 % (IVA 0,80); retención 15 % of 30,00 = 4,50.
    expect(totales.textContent).toContain('10,00 € · IVA 2,10 €');
    expect(totales.textContent).toContain('20,00 € · IVA 0,80 €');
    expect(totales.textContent).toContain('Retención−4,50 €');
    expect(screen.getByTestId('total').textContent).toBe('28,40 €');

    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarpedidocompra')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editarpedidocompra')[0];
    expect(body).toMatchObject({ proveedor_id: 3, almacen_id: 1, forma_pago: 'transferencia_30', retencion: 1500, fecha_entrega: null });
    expect(typeof body.clave).toBe('string');
    expect(body.lineas).toEqual([
      { articulo_id: 7, cantidad: 100000, precio: 1000, descuento: 0, descripcion: 'Tornillo M4', ubicacion_id: null },
      { articulo_id: 8, cantidad: 1000, precio: 200000, descuento: 0, descripcion: 'Libro técnico', ubicacion_id: null },
    ]);
    await waitFor(() => expect(currentPath()).toBe('/compras/pedido/9'));
  });

  it('«Recibir» in part sends the lines and quantities and shows the albarán it created as a link', async () => {
    const pedido = doc({
      estado: 'enviado',
      lineas: [linea(51, ARTICULOS[0], 10000, { pendiente: 10000 }), linea(52, ARTICULOS[1], 2000, { pendiente: 2000 })],
    });
    const fake = fakeCompras({
      listadopedidoscompra: listadoDocs([pedido]),
      recibirpedidocompra: () => ({
        RESULT: '0',
        data: [{ ...pedido, estado: 'recibido_parcial', hijos: [{ tipo: 'albarancompra', id: 20, numero: 'AC 2026/000020' }] }],
      }),
    });
    renderSection(Section, menu.prefix, '/compras/pedido/5', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Recibir' }));
    const dialog = await screen.findByRole('dialog');
    const cantidad = within(dialog).getByLabelText('Cantidad recibida de TOR-M4');
    fireEvent.change(cantidad, { target: { value: '4' } });
    await userEvent.click(within(dialog).getByLabelText('Ausente LIB-01'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Recibir' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'recibirpedidocompra')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'recibirpedidocompra')[0]).toEqual({
      id: 5,
      lineas: [
        { id: 51, cantidad: 4000 },
        { id: 52, cantidad: 0 },
      ],
    });
    const link = await screen.findByRole('link', { name: 'Albarán de compra AC 2026/000020' });
    expect(link.getAttribute('href')).toBe('/compras/albaran/20');
    expect(screen.getByText('Recibido parcial')).toBeTruthy();
  });

  it('«Recibir» takes the supplier’s delivery-note number; more than ordered asks first and is sent as `exceso` (issue 17)', async () => {
    const pedido = doc({ estado: 'enviado', lineas: [linea(51, ARTICULOS[0], 10000, { pendiente: 10000 })] });
    const fake = fakeCompras({
      listadopedidoscompra: listadoDocs([pedido]),
      recibirpedidocompra: () => ({ RESULT: '0', data: [{ ...pedido, estado: 'recibido', hijos: [{ tipo: 'albarancompra', id: 21, numero: 'AC 2026/000021' }] }] }),
    });
    renderSection(Section, menu.prefix, '/compras/pedido/5', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Recibir' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Albarán del proveedor/), 'ALB-5531');
    fireEvent.change(within(dialog).getByLabelText('Cantidad recibida de TOR-M4'), { target: { value: '12' } });
    expect(within(dialog).getByRole('status').textContent).toContain('Se reciben más unidades de las pedidas: TOR-M4 12 de 10');
    // The first click asks; nothing is sent yet.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Recibir' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('¿Las recibe igualmente?');
    expect(bodiesOf(fake.calls, 'recibirpedidocompra')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Recibir de más' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'recibirpedidocompra')).toEqual([{ id: 5, albaran_proveedor: 'ALB-5531', exceso: 1, lineas: [{ id: 51, cantidad: 12000 }] }]));
  });

  it('undoing a reception asks first, like the reception (issue 17)', async () => {
    const pedido = doc({ estado: 'recibido', lineas: [linea(51, ARTICULOS[0], 10000, { pendiente: 0 })] });
    const fake = fakeCompras({
      listadopedidoscompra: listadoDocs([pedido]),
      deshacerrecepcionpedidocompra: () => ({ RESULT: '0', data: [{ ...pedido, estado: 'enviado' }] }),
    });
    renderSection(Section, menu.prefix, '/compras/pedido/5', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Deshacer recepción' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deshacer recepción' });
    expect(dialog.textContent).toContain('se eliminará el albarán que creó');
    expect(bodiesOf(fake.calls, 'deshacerrecepcionpedidocompra')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deshacer recepción' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'deshacerrecepcionpedidocompra')).toEqual([{ id: 5 }]));
  });

  it('«Enviar por correo» shows the supplier’s address, the subject and the message first, then uploads the PDF made here with the order id', async () => {
    const fake = fakeCompras({ listadopedidoscompra: listadoDocs([doc({})]), enviarcorreopedidocompra: () => ({ RESULT: '0', data: [] }) });
    const r = renderSection(Section, menu.prefix, '/compras/pedido/5', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Enviar por correo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar el pedido por correo' });
    expect((within(dialog).getByLabelText(/^Para/) as HTMLInputElement).value).toBe('pedidos@ferrelevante.es');
    expect((within(dialog).getByLabelText(/^Asunto/) as HTMLInputElement).value).toMatch(/^Pedido PC 2026\/000005 de /);
    expect((within(dialog).getByLabelText(/^Mensaje/) as HTMLTextAreaElement).value).toContain('Les adjuntamos nuestro pedido PC 2026/000005');
    // Nothing leaves before the clerk says so.
    expect(fake.calls.filter((c) => c.method === 'UPLOAD')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fake.calls.filter((c) => c.method === 'UPLOAD')).toHaveLength(1));
    const call = fake.calls.find((c) => c.method === 'UPLOAD')!;
    expect(call.ac).toBe('enviarcorreopedidocompra');
    expect(call.fields).toMatchObject({ id: 5, email: 'pedidos@ferrelevante.es' });
    expect(call.fileName).toBe('PC-2026-000005.pdf');
    expect(call.body).toBeInstanceOf(Blob);
    // The PDF carries the supplier's full data.
    const enviado = new TextDecoder('latin1').decode(await (call.body as Blob).arrayBuffer());
    expect(enviado.startsWith('%PDF-')).toBe(true);
    expect(enviado).toContain('46001 Valencia \\(Valencia\\)');
    await waitFor(() => expect(r.toasts.some((t) => t.startsWith('success:Se ha enviado el pedido'))).toBe(true));
  });
});

describe('Albarán de compra', () => {
  it('«Devolver…» chooses lines up to what is left to return, creates the devolución with origen_linea_id and opens it', async () => {
    const albaran = doc({
      id: 20,
      tipo: 'albarancompra',
      numero: 'AC 2026/000020',
      estado: 'pendiente',
      padres: [{ tipo: 'pedidocompra', id: 5, numero: 'PC 2026/000005' }],
      hijos: [{ tipo: 'devolucioncompra', id: 30, numero: 'DC 2026/000030' }],
      lineas: [linea(61, ARTICULOS[0], 10000), linea(62, ARTICULOS[1], 1000)],
    });
    const previa = doc({ id: 30, tipo: 'devolucioncompra', numero: 'DC 2026/000030', estado: 'pendiente', lineas: [linea(70, ARTICULOS[0], 2000, { origen_linea_id: 61 })] });
    const fake = fakeCompras({
      listadoalbaranescompra: listadoDocs([albaran]),
      listadodevolucionescompra: listadoDocs([previa]),
      editardevolucioncompra: () => ({ RESULT: '0', data: [doc({ id: 31, tipo: 'devolucioncompra', numero: 'DC 2026/000031', estado: 'pendiente' })] }),
    });
    renderSection(Section, menu.prefix, '/compras/albaran/20', { api: fake.api });
    expect((await screen.findByRole('link', { name: 'Pedido de compra PC 2026/000005' })).getAttribute('href')).toBe('/compras/pedido/5');
    await userEvent.click(screen.getByRole('button', { name: 'Devolver…' }));
    const dialog = await screen.findByRole('dialog');
    const row = (await within(dialog).findByText('TOR-M4')).closest('tr')!;
    // 10 received, 2 already returned.
    expect(within(row).getByText('8')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Crear devolución' })).toHaveProperty('disabled', true);
    await userEvent.click(within(dialog).getByLabelText('Devolver TOR-M4'));
    const cantidad = within(dialog).getByLabelText('Cantidad a devolver de TOR-M4');
    fireEvent.change(cantidad, { target: { value: '9' } });
    expect(within(dialog).getByText(MESSAGES.devolverMasDeRecibido)).toBeTruthy();
    fireEvent.change(cantidad, { target: { value: '3' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear devolución' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editardevolucioncompra')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editardevolucioncompra')[0];
    expect(body).toMatchObject({ proveedor_id: 3, almacen_id: 1, forma_pago: 'transferencia_30', retencion: 0 });
    expect(body.lineas).toEqual([{ articulo_id: 7, cantidad: 3000, precio: 1000, descuento: 0, descripcion: 'Tornillo M4', origen_linea_id: 61 }]);
    await waitFor(() => expect(currentPath()).toBe('/compras/devolucion/31'));
  });

  it('from a receipt its supplier stays (its lines are linked to the order); the supplier\'s delivery-note number shows and is saved (issue 17)', async () => {
    const recibido = doc({
      id: 21,
      tipo: 'albarancompra',
      numero: 'AC 2026/000021',
      estado: 'pendiente',
      albaran_proveedor: 'ALB-5531',
      padres: [{ tipo: 'pedidocompra', id: 5, numero: 'PC 2026/000005' }],
      lineas: [linea(63, ARTICULOS[0], 1000, { origen_linea_id: 50 })],
    });
    const fake = fakeCompras({
      listadoalbaranescompra: listadoDocs([recibido]),
      editaralbarancompra: (call: FakeCall) => ({ RESULT: '0', data: [{ ...recibido, albaran_proveedor: (call.body as { albaran_proveedor: string }).albaran_proveedor }] }),
    });
    renderSection(Section, menu.prefix, '/compras/albaran/21', { api: fake.api });
    await screen.findByRole('heading', { name: 'Albarán de compra AC 2026/000021' });
    expect(screen.getByTestId('tercero').textContent).toBe('Ferretería Levante SL');
    expect(screen.queryByRole('combobox', { name: /proveedor/i })).toBeNull();
    // The lines stay editable.
    expect(await screen.findByRole('combobox', { name: 'Añadir artículo' })).toBeTruthy();
    const ref = screen.getByLabelText(/^Albarán del proveedor/) as HTMLInputElement;
    await waitFor(() => expect(ref.value).toBe('ALB-5531'));
    await userEvent.clear(ref);
    await userEvent.type(ref, 'ALB-5532');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editaralbarancompra')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editaralbarancompra')[0]).toMatchObject({ id: 21, albaran_proveedor: 'ALB-5532' });
  });

  it('with a devolución it is read-only (the server refuses to rewrite it): no entry, no Eliminar', async () => {
    const devuelto = doc({
      id: 22,
      tipo: 'albarancompra',
      numero: 'AC 2026/000022',
      estado: 'pendiente',
      hijos: [{ tipo: 'devolucioncompra', id: 30, numero: 'DC 2026/000030' }],
      lineas: [linea(64, ARTICULOS[0], 1000)],
    });
    const fake = fakeCompras({ listadoalbaranescompra: listadoDocs([devuelto]) });
    renderSection(Section, menu.prefix, '/compras/albaran/22', { api: fake.api });
    await screen.findByRole('heading', { name: 'Albarán de compra AC 2026/000022' });
    expect(screen.queryByRole('combobox', { name: 'Añadir artículo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Devolver…' })).toBeTruthy();
  });

  it('without compras_devoluciones there is no «Devolver…»', async () => {
    const { allFlags } = await import('shared/testing');
    const fake = fakeCompras({ listadoalbaranescompra: listadoDocs([doc({ id: 20, tipo: 'albarancompra', numero: 'AC 2026/000020', estado: 'pendiente' })]) });
    renderSection(Section, menu.prefix, '/compras/albaran/20', { api: fake.api, flags: { ...allFlags(1), compras_devoluciones: 0 } });
    await screen.findByRole('heading', { name: 'Albarán de compra AC 2026/000020' });
    expect(screen.queryByRole('button', { name: 'Devolver…' })).toBeNull();
  });
});
