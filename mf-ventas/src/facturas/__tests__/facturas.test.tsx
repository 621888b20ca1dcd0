import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type Cobro } from 'shared';
import { bodiesOf, currentPath, fakeListado, type FakeCall } from 'shared/testing';
import { ARTICULOS, SERIES, documentoCobrable, emitida, factura, fakeVentas, linea, listadoDocs, renderFacturas } from './fake';

// jsPDF's Node build saves a download with fs.writeFileSync: the PDF is kept here (a byte a character, as its
// strings are written: WinAnsi) instead of written to disk.
type Fs = { writeFileSync: (nombre: string, datos: Uint8Array) => void };
const fs = (globalThis as unknown as { process: { getBuiltinModule: (m: string) => Fs } }).process.getBuiltinModule('fs');
const texto = (datos: Uint8Array | ArrayBuffer) => Array.from(new Uint8Array(datos), (b) => String.fromCharCode(b)).join('');
const guardados: { nombre: string; texto: string }[] = [];
beforeEach(() => {
  guardados.length = 0;
  vi.spyOn(fs, 'writeFileSync').mockImplementation((nombre, datos) => {
    guardados.push({ nombre: String(nombre), texto: texto(datos) });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement | HTMLSelectElement;

async function elegirCliente(texto: string, nombre: RegExp) {
  const input = screen.getByRole('combobox', { name: /^Cliente/ });
  await userEvent.type(input, texto);
  await screen.findByRole('option', { name: nombre });
  await userEvent.keyboard('{Enter}');
}

describe('Lista de facturas', () => {
  it('filters by payment and serie; shows the customer, the due dates and where each stands with its payment', async () => {
    const hoy = new Date().toISOString().slice(0, 10);
    const fake = fakeVentas({
      listadofacturas: listadoDocs([
        emitida({ id: 41, numero: 'A 2026/000041', fecha: '2020-01-10', forma_pago: 'transferencia_30' }),
        emitida({ id: 42, numero: 'A 2026/000042', fecha: '2026-03-02', forma_pago: 'recibo_30_60', cobro_fecha: '2026-03-05', cobro_forma: 'transferencia' }),
        emitida({ id: 43, numero: 'A 2026/000043', fecha: hoy, forma_pago: 'transferencia_30' }),
        factura({ id: 44 }),
      ]),
    });
    renderFacturas('/ventas/facturas', { api: fake.api });
    const vencida = (await screen.findByText('A 2026/000041')).closest('tr')!;
    expect(within(vencida).getByText('Droguería Sol SL')).toBeTruthy();
    expect(within(vencida).getByText('09/02/2020')).toBeTruthy();
    expect(within(vencida).getByText('Vencida')).toBeTruthy();
    const cobrada = screen.getByText('A 2026/000042').closest('tr')!;
    expect(within(cobrada).getByText('01/04/2026, 01/05/2026')).toBeTruthy();
    expect(within(cobrada).getByText('Cobrada')).toBeTruthy();
    expect(within(screen.getByText('A 2026/000043').closest('tr')!).getByText('Pendiente')).toBeTruthy();

    await userEvent.selectOptions(await screen.findByLabelText('Cobro'), 'vencida');
    await waitFor(() => expect(fake.calls.filter((c) => c.ac === 'listadofacturas').at(-1)?.params).toMatchObject({ cobro: 'vencida' }));
    expect(within(screen.getByLabelText('Cobro')).getByRole('option', { name: 'Pendientes de cobro' })).toBeTruthy();
    expect(within(screen.getByLabelText('Cobro')).getByRole('option', { name: 'Cobradas' })).toBeTruthy();
    // Only the invoice kinds' series.
    const serie = screen.getByLabelText('Serie');
    await waitFor(() => expect(within(serie).getByRole('option', { name: 'T' })).toBeTruthy());
    expect(within(serie).queryByRole('option', { name: 'R' })).toBeNull();
    await userEvent.selectOptions(serie, '2');
    await waitFor(() => expect(fake.calls.filter((c) => c.ac === 'listadofacturas').at(-1)?.params).toMatchObject({ cobro: 'vencida', serie_id: '2' }));
  });
});

describe('Lista de facturas en el teléfono (issue 26)', () => {
  it('each row keeps its number, customer and total on a phone; the filters fold under «Filtros»', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([emitida({ id: 41, numero: 'A 2026/000041', fecha: '2020-01-10', forma_pago: 'transferencia_30' })]) });
    renderFacturas('/ventas/facturas', { api: fake.api });
    const fila = (await screen.findByText('A 2026/000041')).closest('tr')!;
    // Below phone width the cells marked phone-hide go: only the number, the customer and the total stay.
    const enTelefono = Array.from(fila.querySelectorAll('td')).filter((td) => !td.classList.contains('phone-hide') && !td.querySelector('input[type="checkbox"]'));
    expect(enTelefono.map((td) => td.textContent)).toEqual(['A 2026/000041', 'Droguería Sol SL', expect.stringMatching(/€$/)]);
    // The filters (selects, dates and customer) fold on a phone under one button, closed at first.
    // (jsdom applies no media query: the button is the phone's, hidden at desktop width, so found by its text.)
    const filtros = screen.getByText('Filtros', { selector: 'button' });
    expect(filtros.getAttribute('aria-expanded')).toBe('false');
    const plegados = filtros.getAttribute('aria-controls')!.split(' ').map((id) => document.getElementById(id)!);
    expect(plegados).toHaveLength(2);
    expect(plegados.some((el) => el.contains(screen.getByLabelText('Cobro')))).toBe(true);
    expect(plegados.some((el) => el.contains(screen.getByRole('combobox', { name: /^Cliente/ })))).toBe(true);
    for (const el of plegados) expect(el.classList.contains('abierto')).toBe(false);
    await userEvent.click(filtros);
    expect(filtros.getAttribute('aria-expanded')).toBe('true');
    for (const el of plegados) expect(el.classList.contains('abierto')).toBe(true);
    // It says how many filters are set.
    await userEvent.selectOptions(screen.getByLabelText('Cobro'), 'vencida');
    expect(await screen.findByText('Filtros (1)', { selector: 'button' })).toBe(filtros);
  });
});

describe('Factura', () => {
  it('issue 23: an F3 names the ticket it replaces, never «Rectifica»', async () => {
    const f3 = emitida({ id: 40, numero: 'A 2026/000013', tipo_factura: 'F3', factura_id: 5, factura_numero: 'T 2026/000002' });
    const fake = fakeVentas({ listadofacturas: listadoDocs([f3]) });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    const fiscal = await screen.findByLabelText('Situación fiscal');
    expect(fiscal.textContent).toContain('Sustituye a la factura simplificada');
    expect(fiscal.textContent).not.toContain('Rectifica');
    expect(within(fiscal).getByRole('link', { name: 'T 2026/000002' }).getAttribute('href')).toBe('/ventas/ticket/5');
  });

  it('issue 23: a TPV terminal\'s series are not offered to a back-office invoice (the list still filters by them)', async () => {
    const conTerminal = SERIES.map((s) => (s.codigo === 'T' ? { ...s, terminal: 'Mostrador' } : s));
    const fake = fakeVentas({ listadoseries: fakeListado([{ id: 5, codigo: 'S', descripcion: 'Simplificadas de la oficina', tipo: 'simplificada', activo: 1 }, ...conTerminal], ['activo', 'tipo']) });
    renderFacturas('/ventas/factura/nueva-factura', { api: fake.api });
    await waitFor(() => expect(field('Serie').value).toBe('1'));
    const serie = field('Serie');
    expect(within(serie).getByRole('option', { name: /^S · Simplificadas de la oficina/ })).toBeTruthy();
    expect(within(serie).queryByRole('option', { name: /^T · / })).toBeNull();
  });

  it('a new one starts in the normal serie; the customer brings its terms, its tariff, discount and recargo; one body', async () => {
    const fake = fakeVentas({
      editarfactura: (call: FakeCall) => ({ RESULT: '0', data: [factura({ id: 45, ...(call.body as object), lineas: [] })] }),
    });
    renderFacturas('/ventas/factura/nueva-factura', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nueva factura' })).toBeTruthy();
    // The first active normal serie; the simplified one is offered too, the rectificativa one and inactive ones are not.
    await waitFor(() => expect(field('Serie').value).toBe('1'));
    const serie = field('Serie');
    expect(within(serie).getByRole('option', { name: /^T · Tickets/ })).toBeTruthy();
    expect(within(serie).queryByRole('option', { name: /^R / })).toBeNull();
    expect(within(serie).queryByRole('option', { name: /^V / })).toBeNull();

    await elegirCliente('Drog', /Droguería Sol SL/);
    expect(screen.getByTestId('tercero').textContent).toBe('Droguería Sol SL');
    expect(field('Forma de pago').value).toBe('recibo_30');
    await waitFor(() => expect(field('Almacén').value).toBe('1'));

    await userEvent.click(await screen.findByRole('combobox', { name: 'Añadir artículo' }));
    await userEvent.keyboard('TOR-M4{Tab}');
    const cantidad = await screen.findByLabelText('Cantidad de la línea 1');
    await waitFor(() => expect(document.activeElement).toBe(cantidad));
    await userEvent.keyboard('{Control>}a{/Control}10{Enter}');
    // Tariff 2 (0,18 €), the customer's 5 % discount: 10 × 0,18 × 0,95 = 1,71 at 21 % with recargo 5,2 %.
    expect((screen.getByLabelText('Precio de la línea 1') as HTMLInputElement).value).toMatch(/^0,18/);
    expect((screen.getByLabelText('Descuento de la línea 1') as HTMLInputElement).value).toBe('5');
    const totales = screen.getByLabelText('Totales');
    expect(totales.textContent).toContain('1,71 € · IVA 0,36 € · R.E. 0,09 €');
    expect(screen.getByTestId('total').textContent).toBe('2,16 €');

    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarfactura')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editarfactura')[0];
    expect(body).toMatchObject({ serie_id: 1, cliente_id: 3, almacen_id: 1, forma_pago: 'recibo_30', retencion: 0 });
    expect(typeof body.clave).toBe('string');
    expect(body.lineas).toEqual([{ articulo_id: 7, cantidad: 10000, precio: 1800, descuento: 500, descripcion: 'Tornillo M4', ubicacion_id: null, operacion: 'S1' }]);
    await waitFor(() => expect(currentPath()).toBe('/ventas/factura/45'));
  });

  it('a draft prints «BORRADOR», the company and the customer; «Emitir» asks first, then it is read-only with its registro and «Rectificar»', async () => {
    const borrador = factura({ padres: [{ tipo: 'albaranventa', id: 30, numero: 'AV 2026/000030' }] });
    const fake = fakeVentas({
      listadofacturas: listadoDocs([borrador]),
      emitirfactura: () => ({ RESULT: '0', data: [emitida({ padres: borrador.padres })] }),
    });
    const r = renderFacturas('/ventas/factura/40', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Factura Borrador' })).toBeTruthy();
    // From an albarán: linked, and its customer stays.
    expect(screen.getByRole('link', { name: 'Albarán de venta AV 2026/000030' }).getAttribute('href')).toBe('/ventas/albaran/30');
    expect(screen.queryByRole('combobox', { name: /cliente/i })).toBeNull();
    // A draft has neither payment nor e-mail.
    expect(screen.queryByRole('button', { name: 'Registrar cobro' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enviar por correo' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Imprimir' }));
    await waitFor(() => expect(guardados).toHaveLength(1));
    // A draft: no QR, the warning instead; the company and the customer's full address.
    expect(guardados[0].nombre).toBe('Borrador.pdf');
    expect(guardados[0].texto).toContain('(BORRADOR \x97 sin validez fiscal)');
    expect(guardados[0].texto).not.toContain('QR tributario');
    expect(guardados[0].texto).toContain('NIF B98765432');
    expect(guardados[0].texto).toContain('46001 Valencia \\(Valencia\\)');

    await userEvent.click(screen.getByRole('button', { name: 'Emitir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Emitir' });
    expect(within(dialog).getByText(/siguiente número de su serie/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Emitir' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'emitirfactura')).toEqual([{ id: 40 }]));

    expect(await screen.findByRole('heading', { name: 'Factura A 2026/000012' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Añadir artículo' })).toBeNull();
    const fiscal = screen.getByLabelText('Situación fiscal');
    expect(within(fiscal).getByText(/02\/03\/2026 19:20:30 \(\+01:00\)/)).toBeTruthy();
    const huella = within(fiscal).getByRole('button', { name: /^Huella 3C464DAF…2F60/ });
    expect(huella.getAttribute('title')).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
    await userEvent.click(huella);
    expect(within(fiscal).getByText('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60')).toBeTruthy();
    expect(within(fiscal).getByTestId('cobro').textContent).toMatch(/Pendiente de cobro|Vencida/);
    expect(r.toasts.some((t) => t.startsWith('success'))).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Rectificar' }));
    await waitFor(() => expect(currentPath()).toBe('/ventas/rectificativa/nueva-rectificativa'));
  });

  it('«Registrar cobro» sends date and method; «Quitar cobro» sends an empty date', async () => {
    const cobrable = documentoCobrable(emitida());
    const fake = fakeVentas({ listadofacturas: cobrable.listado, cobrarfactura: cobrable.cobrarfactura });
    const r = renderFacturas('/ventas/factura/40', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Registrar cobro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Registrar el cobro' });
    // The invoice's payment method first.
    // How it is paid, not the terms: the invoice's «Recibo domiciliado a 30 y 60 días» proposes a recibo; the list is ways of paying.
    const forma = within(dialog).getByLabelText(/^Forma de cobro/) as HTMLSelectElement;
    expect(forma.value).toBe('recibo');
    expect(Array.from(forma.options).map((o) => o.textContent)).toEqual(['Seleccione…', 'Efectivo', 'Tarjeta', 'Transferencia bancaria', 'Recibo domiciliado', 'Cheque o pagaré', 'Confirming']);
    const fecha = within(dialog).getByLabelText(/^Fecha de cobro/);
    await userEvent.clear(fecha);
    await userEvent.type(fecha, '2026-03-20');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Forma de cobro/), 'transferencia');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Registrar cobro' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cobrarfactura')).toEqual([{ id: 40, fecha: '2026-03-20', forma: 'transferencia' }]));
    expect((await screen.findByTestId('cobro')).textContent).toContain('Cobrada el 20/03/2026 (Transferencia bancaria)');
    expect(r.toasts).toContain(`success:${MESSAGES.cobroRegistrado}`);

    // «Quitar cobro» undoes: the toolbar's last button, never its first.
    const botonQuitar = screen.getByRole('button', { name: 'Quitar cobro' });
    const barra = Array.from(botonQuitar.parentElement!.querySelectorAll('button, a'));
    expect(barra.map((b) => b.textContent)).toEqual(['Enviar por correo', 'Rectificar', 'Quitar cobro', 'Imprimir']);
    await userEvent.click(botonQuitar);
    const quitar = await screen.findByRole('dialog', { name: 'Quitar el cobro' });
    await userEvent.click(within(quitar).getByRole('button', { name: 'Quitar el cobro' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cobrarfactura')[1]).toEqual({ id: 40, fecha: '', forma: '' }));
    await waitFor(() => expect(screen.getByTestId('cobro').textContent).not.toContain('Cobrada'));
  });

  it('a partial cobro: the amount proposed is the next instalment, the server gets `importe`; the history lists the cobros and «Quitar» removes one', async () => {
    // 227,16 € in two instalments; R 2026/000001 took 27,16 € off: 200,00 € to collect, 100,00 € each.
    const cuenta = (cobros: Cobro[]) => {
      const cobrado = cobros.reduce((s, c) => s + c.importe, 0);
      const primero = Math.max(0, 10000 - cobrado);
      const segundo = Math.max(0, 10000 - Math.max(0, cobrado - 10000));
      return {
        factura_id: 40, factura_numero: 'A 2026/000012', importe: 20000, cobrado, saldo: 20000 - cobrado,
        plazos: [{ fecha: '2026-04-01', importe: 10000, pendiente: primero }, { fecha: '2026-05-01', importe: 10000, pendiente: segundo }],
        cobros, rectificativas: [{ id: 70, numero: 'R 2026/000001', total: -2716, modo: 'diferencias' }],
      };
    };
    let actual = emitida({ por_cobrar: 20000, plazos_cubiertos: 0, cuenta: cuenta([]) });
    const fake = fakeVentas({
      listadofacturas: () => ({ RESULT: '0', data: [actual], total: 1 }),
      cobrarfactura: ({ body }) => {
        const b = body as { fecha: string; forma: string; importe?: number };
        const cobros = [...actual.cuenta!.cobros, { id: 900 + actual.cuenta!.cobros.length, documento_id: 40, documento_numero: 'A 2026/000012', fecha: b.fecha, importe: b.importe ?? actual.por_cobrar!, forma: b.forma }];
        const c = cuenta(cobros);
        actual = { ...actual, cuenta: c, por_cobrar: c.saldo, plazos_cubiertos: c.plazos.filter((p) => !p.pendiente).length };
        return { RESULT: '0', message: MESSAGES.cobroRegistrado, data: [actual] };
      },
      eliminarcobro: ({ body }) => {
        const c = cuenta(actual.cuenta!.cobros.filter((x) => x.id !== (body as { id: number }).id));
        actual = { ...actual, cuenta: c, por_cobrar: c.saldo, plazos_cubiertos: c.plazos.filter((p) => !p.pendiente).length };
        return { RESULT: '0', message: MESSAGES.cobroEliminado, data: [actual] };
      },
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    const estado = await screen.findByTestId('cobro');
    expect(estado.textContent).toContain('200,00');
    const cobros = screen.getByLabelText('Cobros');
    expect(within(cobros).getByText(/R 2026\/000001/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Registrar cobro' }));
    let dialog = await screen.findByRole('dialog', { name: 'Registrar el cobro' });
    const importe = within(dialog).getByLabelText(/^Importe/) as HTMLInputElement;
    expect(importe.value).toBe('100,00');
    // More than what is left: said in the field, nothing sent.
    await userEvent.clear(importe);
    await userEvent.type(importe, '250');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Registrar cobro' }));
    expect(await within(dialog).findByText(MESSAGES.cobroSuperaPendiente.replace('{importe}', '200,00 €'))).toBeTruthy();
    expect(bodiesOf(fake.calls, 'cobrarfactura')).toEqual([]);
    await userEvent.clear(importe);
    await userEvent.type(importe, '60,5');
    const fecha = within(dialog).getByLabelText(/^Fecha de cobro/);
    await userEvent.clear(fecha);
    await userEvent.type(fecha, '2026-03-20');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Registrar cobro' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cobrarfactura')).toEqual([{ id: 40, fecha: '2026-03-20', forma: 'recibo', importe: 6050 }]));
    await waitFor(() => expect(screen.getByTestId('cobro').textContent).toContain('139,50'));
    const historial = screen.getByLabelText('Cobros');
    expect(within(historial).getByText('20/03/2026')).toBeTruthy();
    expect(within(historial).getByText('60,50 €')).toBeTruthy();

    // What is left, without an amount: the server pays it all.
    await userEvent.click(screen.getByRole('button', { name: 'Registrar cobro' }));
    dialog = await screen.findByRole('dialog', { name: 'Registrar el cobro' });
    expect((within(dialog).getByLabelText(/^Importe/) as HTMLInputElement).value).toBe('39,50');
    await userEvent.clear(within(dialog).getByLabelText(/^Importe/));
    await userEvent.type(within(dialog).getByLabelText(/^Importe/), '139,50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Registrar cobro' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'cobrarfactura')[1]).toEqual({ id: 40, fecha: expect.any(String), forma: 'recibo' }));

    await userEvent.click(await screen.findByRole('button', { name: 'Quitar el cobro del 20/03/2026' }));
    const quitar = await screen.findByRole('dialog', { name: 'Quitar el cobro' });
    await userEvent.click(within(quitar).getByRole('button', { name: 'Quitar el cobro' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'eliminarcobro')).toEqual([{ id: 900 }]));
    await waitFor(() => expect(screen.getByTestId('cobro').textContent).toContain('60,50'));
  });

  it('«Enviar por correo» shows recipient, subject and message first, editable, then uploads the PDF made here (with the company for its QR)', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([emitida()]), enviarfactura: () => ({ RESULT: '0', data: [], message: MESSAGES.facturaEnviadaPorCorreo }) });
    const r = renderFacturas('/ventas/factura/40', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Enviar por correo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar la factura por correo' });
    const email = within(dialog).getByLabelText(/^Para/) as HTMLInputElement;
    await waitFor(() => expect(email.value).toBe('compras@drogueriasol.es'));
    // What will be sent, before it is: the subject and the message, each editable.
    const asunto = within(dialog).getByLabelText(/^Asunto/) as HTMLInputElement;
    const mensaje = within(dialog).getByLabelText(/^Mensaje/) as HTMLTextAreaElement;
    expect(asunto.value).toMatch(/^Factura A 2026\/000012 de /);
    expect(mensaje.value).toContain('Les adjuntamos la factura A 2026/000012 con fecha');
    await userEvent.clear(asunto);
    await userEvent.type(asunto, 'Su factura de marzo');
    await userEvent.type(mensaje, 'Gracias por su compra.');
    await userEvent.clear(email);
    await userEvent.type(email, 'no es un correo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText(MESSAGES.invalidEmail)).toBeTruthy();
    await userEvent.clear(email);
    await userEvent.type(email, 'admin@drogueriasol.es');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fake.calls.filter((c) => c.method === 'UPLOAD')).toHaveLength(1));
    const call = fake.calls.find((c) => c.method === 'UPLOAD')!;
    expect(call.ac).toBe('enviarfactura');
    expect(call.fields).toMatchObject({ id: 40, email: 'admin@drogueriasol.es', asunto: 'Su factura de marzo' });
    expect(String((call.fields as Record<string, unknown>).mensaje)).toMatch(/Les adjuntamos la factura A 2026\/000012[\s\S]*Gracias por su compra\.$/);
    expect(call.fileName).toBe('A-2026-000012.pdf');
    // The emitted invoice's PDF, with its fiscal QR.
    const enviado = texto(await (call.body as Blob).arrayBuffer());
    expect(enviado.startsWith('%PDF-')).toBe(true);
    expect(enviado).toContain('(QR tributario:)');
    expect(enviado).toContain('NIF B98765432');
    expect(guardados).toHaveLength(0);
    await waitFor(() => expect(r.toasts).toContain(`success:${MESSAGES.facturaEnviadaPorCorreo}`));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('«Anular» explains that it is not a correction before it records the cancellation', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      anularfactura: () => ({ RESULT: '0', data: [emitida({ estado: 'anulada', registro: { id: 4, tipo: 'anulacion', huella: 'ABCDEF0123456789', fecha_hora_huso: '2026-03-03T09:00:00+01:00' } })] }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    // «Rectificar» is the emitted invoice's primary action; «Anular» a secondary one, guarded by its explanation.
    expect((await screen.findByRole('button', { name: 'Rectificar' })).getAttribute('data-variant')).toBe('primary');
    expect(screen.getByRole('button', { name: 'Anular' }).getAttribute('data-variant')).toBe('secondary');
    await userEvent.click(await screen.findByRole('button', { name: 'Anular' }));
    const dialog = await screen.findByRole('dialog', { name: 'Anular' });
    expect(within(dialog).getByText(/nunca debió existir/).textContent).toMatch(/no la anule: haga una rectificativa con «Rectificar»/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Anular' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'anularfactura')).toEqual([{ id: 40 }]));
    expect(await screen.findByText('Anulación')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rectificar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Registrar cobro' })).toBeNull();
  });

  it('a saved draft prices new lines at its customer’s tariff too', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([factura({ lineas: [linea(51, ARTICULOS[1], 1000, { precio: 240000 })] })]) });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    await userEvent.click(await screen.findByRole('combobox', { name: 'Añadir artículo' }));
    await waitFor(() => expect(fake.calls.some((c) => c.ac === 'listadoclientes' && String(c.params?.id) === '3')).toBe(true));
    await userEvent.keyboard('TOR-M4{Tab}');
    await screen.findByLabelText('Cantidad de la línea 2');
    expect((screen.getByLabelText('Precio de la línea 2') as HTMLInputElement).value).toMatch(/^0,18/);
  });
});

describe('Factura: stock disponible', () => {
  it('a draft shows beside its direct-sale lines what would be left once emitted (below zero: a warning); emitted, what is left', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([factura({ lineas: [linea(51, ARTICULOS[0], 10000), linea(52, ARTICULOS[1], 2000)] })]) });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    // Central: 25 of TOR-M4 (10 invoiced: 15 left), none of LIB-01 (2 invoiced: −2).
    expect(await within(await screen.findByTestId('linea-1')).findByText('Disponible: 15')).toBeTruthy();
    const falta = await within(screen.getByTestId('linea-2')).findByText('Disponible: -2');
    expect(falta.className).toMatch(/neg/);
    expect(fake.calls.filter((c) => c.ac === 'disponibleventa').map((c) => c.params)).toEqual([{ almacen_id: '1', ids: '7,8' }]);
  });

  it('emitted, the stock already left: what is left as it is', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([emitida({ lineas: [linea(51, ARTICULOS[0], 10000)] })]) });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    expect(await within(await screen.findByTestId('linea-1')).findByText('Disponible: 25')).toBeTruthy();
  });

  it('lines invoicing an albarán (their goods left with it) ask for nothing', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([factura({ lineas: [linea(51, ARTICULOS[0], 10000, { origen_linea_id: 21 })] })]) });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    await screen.findByTestId('linea-1');
    await new Promise((r) => setTimeout(r, 400));
    expect(screen.queryByText(/^Disponible:/)).toBeNull();
    expect(fake.calls.some((c) => c.ac === 'disponibleventa')).toBe(false);
  });
});
