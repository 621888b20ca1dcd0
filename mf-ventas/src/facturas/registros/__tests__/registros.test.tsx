import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES, type ComprobacionCadena, type RegistroFacturacion } from 'shared';
import { bodiesOf, currentPath } from 'shared/testing';
import { fakeVentas, renderFacturas } from '../../__tests__/fake';

const files = vi.hoisted(() => [] as { blob: Blob; name: string }[]);
vi.mock('shared', async (orig) => ({
  ...(await orig<object>()),
  downloadBlob: (blob: Blob, name: string) => {
    files.push({ blob, name });
  },
}));

const HUELLA_1 = '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60';
const HUELLA_2 = 'F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97';

const registro = (over: Partial<RegistroFacturacion>): RegistroFacturacion => ({
  id: 1,
  orden: 1,
  tipo: 'alta',
  documento_id: 40,
  documento_tipo: 'factura',
  num_serie: 'A 2026/000012',
  id_emisor: 'B98765432',
  fecha_expedicion: '02-03-2026',
  tipo_factura: 'F1',
  cuota_total: '47.16',
  importe_total: '227.16',
  huella_anterior: '',
  huella: HUELLA_1,
  fecha_hora_huso: '2026-03-02T19:20:30+01:00',
  xml: '<sum1:RegistroAlta>…</sum1:RegistroAlta>',
  estado_envio: 'pendiente',
  ...over,
});

const REGISTROS = [
  registro({}),
  registro({
    id: 2,
    orden: 2,
    documento_id: 70,
    documento_tipo: 'rectificativa',
    num_serie: 'R 2026/000001',
    tipo_factura: 'R1',
    importe_total: '-22.57',
    huella_anterior: HUELLA_1,
    huella: HUELLA_2,
  }),
  registro({ id: 3, orden: 3, tipo: 'anulacion', tipo_factura: null, cuota_total: null, importe_total: null, huella_anterior: HUELLA_2, huella: 'ABCDEF0123456789ABCD' }),
];

describe('Registros de facturación', () => {
  it('lists the chain with links, types, amounts and shortened huellas; downloads a record’s XML; filters and pages', async () => {
    const fake = fakeVentas({
      listadoregistrosfacturacion: ({ params }) => {
        const rows = REGISTROS.filter((r) => !params?.tipo || r.tipo === params.tipo);
        return { RESULT: '0', data: rows, total: rows.length };
      },
    });
    renderFacturas('/ventas/registros', { api: fake.api });
    const tabla = await screen.findByRole('table');
    // Its registro de alta, and later its anulación.
    const [altaLink, anulacionLink] = await within(tabla).findAllByRole('link', { name: 'A 2026/000012' });
    const alta = altaLink.closest('tr')!;
    expect(altaLink.getAttribute('href')).toBe('/ventas/factura/40');
    expect(within(anulacionLink.closest('tr')!).getByText('Anulación')).toBeTruthy();
    expect(within(alta).getByText('Alta')).toBeTruthy();
    expect(within(alta).getByText('F1')).toBeTruthy();
    expect(within(alta).getByText('227,16 €')).toBeTruthy();
    expect(within(alta).getByText('Pendiente de envío')).toBeTruthy();
    const rect = within(tabla).getByRole('link', { name: 'R 2026/000001' }).closest('tr')!;
    expect(within(rect).getByRole('link', { name: 'R 2026/000001' }).getAttribute('href')).toBe('/ventas/rectificativa/70');
    expect(within(rect).getByText('-22,57 €')).toBeTruthy();
    expect(within(within(tabla).getByText('Anulación').closest('tr')!).getByText('—')).toBeTruthy();

    const huella = within(alta).getByRole('button', { name: 'Huella 3C464DAF…2F60: ver entera' });
    expect(huella.getAttribute('title')).toBe(HUELLA_1);
    await userEvent.click(huella);
    expect(within(alta).getByText(HUELLA_1)).toBeTruthy();

    await userEvent.click(within(alta).getByRole('button', { name: 'Descargar XML de A 2026/000012 (Alta)' }));
    expect(files).toHaveLength(1);
    expect(files[0].name).toBe('registro-000001-A-2026-000012.xml');
    expect(await files[0].blob.text()).toBe('<sum1:RegistroAlta>…</sum1:RegistroAlta>');

    await userEvent.selectOptions(screen.getByLabelText('Tipo de registro'), 'anulacion');
    await waitFor(() => expect(fake.calls.filter((c) => c.ac === 'listadoregistrosfacturacion').at(-1)?.params).toMatchObject({ tipo: 'anulacion', pagina: 1 }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'R 2026/000001' })).toBeNull());
    expect(screen.getByText(/1–1 de 1 resultados/)).toBeTruthy();
  });

  it('«Comprobar cadena» says the chain is correct, or where it first breaks', async () => {
    // One chain per issuer: a NIF changed once leaves two.
    let respuesta: ComprobacionCadena[] = [
      { total: 1, correcto: true, rotura: null },
      { total: 2, correcto: true, rotura: null },
    ];
    const fake = fakeVentas({
      listadoregistrosfacturacion: () => ({ RESULT: '0', data: REGISTROS, total: 3 }),
      comprobarregistrosfacturacion: () => ({ RESULT: '0', data: respuesta }),
    });
    renderFacturas('/ventas/registros', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Comprobar cadena' }));
    const ok = (await screen.findByText(MESSAGES.cadenaCorrecta)).closest('[role="status"]')!;
    expect(ok.textContent).toContain(MESSAGES.cadenaCorrecta);
    expect(ok.textContent).toContain('3 registros');

    respuesta = [
      { total: 1, correcto: true, rotura: null },
      { total: 2, correcto: false, rotura: { id: 2, orden: 2, num_serie: 'R 2026/000001', motivo: 'La huella no coincide con sus datos' } },
    ];
    await userEvent.click(screen.getByRole('button', { name: 'Comprobar cadena' }));
    const mal = await screen.findByRole('alert');
    expect(mal.textContent).toContain('nº 2 (R 2026/000001): La huella no coincide con sus datos');
    expect(mal.textContent).not.toContain(MESSAGES.cadenaCorrecta);
  });
});

describe('Registros de facturación: envío a la AEAT', () => {
  const ENVIADOS = [
    registro({ estado_envio: 'correcto', csv: 'A-Y23JP3582934', enviado: '2026-03-02T19:21:40Z' }),
    registro({
      id: 2,
      orden: 2,
      documento_id: 41,
      num_serie: 'A 2026/000013',
      huella_anterior: HUELLA_1,
      huella: HUELLA_2,
      estado_envio: 'incorrecto',
      csv: 'A-Y23JP3582934',
      codigo_error: '1110',
      descripcion_error: 'El NIF no está identificado en el censo de la AEAT.',
    }),
    registro({
      id: 3,
      orden: 3,
      documento_id: 42,
      num_serie: 'A 2026/000014',
      huella_anterior: HUELLA_2,
      huella: 'ABCDEF0123456789ABCD',
      estado_envio: 'aceptado_con_errores',
      codigo_error: '2004',
      descripcion_error: 'El valor del campo FechaHoraHusoGenRegistro debe ser la fecha actual del sistema de la AEAT',
      subsanado_por: 9,
    }),
    registro({ id: 4, orden: 4, tipo: 'anulacion', documento_id: 43, num_serie: 'A 2026/000015', estado_envio: 'incorrecto', codigo_error: '3002', descripcion_error: 'No existe el registro de facturación.' }),
  ];

  it('shows each record’s state, CSV and the AEAT’s answer; «Subsanar» only on uncorrected altas; a link to the record that corrected one', async () => {
    const fake = fakeVentas({ listadoregistrosfacturacion: () => ({ RESULT: '0', data: ENVIADOS, total: ENVIADOS.length }) });
    renderFacturas('/ventas/registros', { api: fake.api });
    const tabla = await screen.findByRole('table');
    const fila = async (n: string) => (await within(tabla).findByRole('link', { name: n })).closest('tr')!;

    const correcto = await fila('A 2026/000012');
    expect(within(correcto).getByText('Correcto')).toBeTruthy();
    expect(within(correcto).getByText('A-Y23JP3582934')).toBeTruthy();
    expect(within(correcto).queryByRole('button', { name: /Subsanar/ })).toBeNull();

    const incorrecto = await fila('A 2026/000013');
    expect(within(incorrecto).getByText('Incorrecto')).toBeTruthy();
    expect(within(incorrecto).getByText('1110')).toBeTruthy();
    expect(within(incorrecto).getByText(/El NIF no está identificado en el censo/)).toBeTruthy();
    expect(within(incorrecto).getByRole('button', { name: 'Subsanar el registro de A 2026/000013' })).toBeTruthy();

    const subsanado = await fila('A 2026/000014');
    expect(within(subsanado).getByText('Aceptado con errores')).toBeTruthy();
    expect(within(subsanado).queryByRole('button', { name: /Subsanar/ })).toBeNull();
    await userEvent.click(within(subsanado).getByRole('link', { name: 'Ver el registro que lo subsana' }));
    expect(currentPath()).toBe('/ventas/registros');
    await waitFor(() => expect(fake.calls.at(-1)?.params).toEqual({ id: '9' }));
    expect(screen.getByText(/Se muestra un solo registro/)).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Ver todos los registros' }));
    await waitFor(() => expect(fake.calls.at(-1)?.params).toMatchObject({ pagina: 1 }));
    expect(screen.queryByText(/Se muestra un solo registro/)).toBeNull();

    // A cancellation is not corrected by a subsanación.
    const anulacion = within(screen.getByRole('table')).getByText('3002').closest('tr')!;
    expect(within(anulacion).queryByRole('button', { name: /Subsanar/ })).toBeNull();
  });

  it('filters by submission state, also from ?estado_envio=', async () => {
    const fake = fakeVentas({
      listadoregistrosfacturacion: ({ params }) => {
        const rows = ENVIADOS.filter((r) => !params?.estado_envio || r.estado_envio === params.estado_envio);
        return { RESULT: '0', data: rows, total: rows.length };
      },
    });
    const r = renderFacturas('/ventas/registros', { api: fake.api });
    await screen.findByRole('link', { name: 'A 2026/000012' });
    const filtro = screen.getByLabelText('Estado de envío') as HTMLSelectElement;
    expect([...filtro.options].map((o) => o.textContent)).toEqual(['Todos', 'Pendiente de envío', 'Enviado', 'Correcto', 'Aceptado con errores', 'Incorrecto', 'De demostración (no se envía)']);
    await userEvent.selectOptions(filtro, 'incorrecto');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'A 2026/000012' })).toBeNull());
    expect(fake.calls.at(-1)?.params).toMatchObject({ estado_envio: 'incorrecto', pagina: 1 });
    await userEvent.selectOptions(filtro, '');
    r.unmount();
    sessionStorage.clear();

    renderFacturas('/ventas/registros?estado_envio=aceptado_con_errores', { api: fake.api });
    await waitFor(() => expect(fake.calls.at(-1)?.params).toMatchObject({ estado_envio: 'aceptado_con_errores' }));
    expect(((await screen.findByLabelText('Estado de envío')) as HTMLSelectElement).value).toBe('aceptado_con_errores');
    await screen.findByRole('link', { name: 'A 2026/000014' });
    expect(screen.queryByRole('link', { name: 'A 2026/000012' })).toBeNull();
  });

  it('«Subsanar» asks first, then writes a new record and reloads; cancelling sends nothing', async () => {
    let rows = ENVIADOS.slice(0, 2);
    const fake = fakeVentas({
      listadoregistrosfacturacion: () => ({ RESULT: '0', data: rows, total: rows.length }),
      subsanarregistrofacturacion: () => {
        rows = [
          rows[0],
          { ...rows[1], subsanado_por: 5 },
          registro({ id: 5, orden: 5, documento_id: 41, num_serie: 'A 2026/000013', huella: 'FFFF0123456789ABCDEF', estado_envio: 'pendiente' }),
        ];
        return { RESULT: '0', data: [rows[2]] };
      },
    });
    const { toasts } = renderFacturas('/ventas/registros', { api: fake.api });
    const boton = await screen.findByRole('button', { name: 'Subsanar el registro de A 2026/000013' });
    await userEvent.click(boton);
    let dialog = screen.getByRole('dialog', { name: 'Subsanar el registro' });
    expect(within(dialog).getByText(/registro de alta nuevo de la factura A 2026\/000013.*El registro rechazado no se modifica/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(bodiesOf(fake.calls, 'subsanarregistrofacturacion')).toHaveLength(0);

    await userEvent.click(boton);
    dialog = screen.getByRole('dialog', { name: 'Subsanar el registro' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Subsanar' }));
    expect(await screen.findByRole('link', { name: 'Ver el registro que lo subsana' })).toBeTruthy();
    expect(bodiesOf(fake.calls, 'subsanarregistrofacturacion')).toEqual([{ id: 2 }]);
    expect(toasts).toContain(`success:${MESSAGES.registroSubsanado}`);
    expect(screen.queryByRole('button', { name: /Subsanar el registro/ })).toBeNull();
    expect(within(screen.getByRole('table')).getAllByText('Pendiente de envío')).toHaveLength(1);
  });

  it('issue 16: the subsanación corrects the description and how the recipient is coded (only what changed travels); a refused anulación is sent again', async () => {
    const xml =
      '<sf:RegistroAlta><sf:DescripcionOperacion>Venta</sf:DescripcionOperacion><sf:Destinatarios><sf:IDDestinatario><sf:NombreRazon>Quincaillerie Dupont</sf:NombreRazon>' +
      '<sf:NIF>FR40303265045</sf:NIF></sf:IDDestinatario></sf:Destinatarios></sf:RegistroAlta>';
    const rows = [
      registro({ id: 2, orden: 2, num_serie: 'A 2026/000013', estado_envio: 'incorrecto', codigo_error: '1110', xml }),
      registro({ id: 3, orden: 3, tipo: 'anulacion', tipo_factura: null, num_serie: 'A 2026/000011', estado_envio: 'incorrecto', codigo_error: '1100', xml: '<sf:RegistroAnulacion/>' }),
    ];
    let primera = true;
    const fake = fakeVentas({
      listadoregistrosfacturacion: () => ({ RESULT: '0', data: rows, total: rows.length }),
      subsanarregistrofacturacion: () => {
        // The first attempt: the server refuses the country.
        if (primera) {
          primera = false;
          return { RESULT: '1', message: MESSAGES.invalidFields, errors: { destinatario_pais: MESSAGES.nifIvaSoloUe } };
        }
        return { RESULT: '0', message: MESSAGES.registroSubsanado, data: [] };
      },
    });
    renderFacturas('/ventas/registros', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Subsanar el registro de A 2026/000013' }));
    const dialog = screen.getByRole('dialog', { name: 'Subsanar el registro' });
    expect((within(dialog).getByLabelText('Descripción de la operación') as HTMLInputElement).value).toBe('Venta');
    // Printed on the invoice: shown, not editable.
    const nombre = within(dialog).getByLabelText('Destinatario') as HTMLInputElement;
    expect([nombre.value, nombre.readOnly]).toEqual(['Quincaillerie Dupont', true]);
    const nif = within(dialog).getByLabelText(/^Identificación del destinatario/) as HTMLInputElement;
    expect([nif.value, nif.readOnly]).toEqual(['FR40303265045', true]);
    await userEvent.clear(within(dialog).getByLabelText('Descripción de la operación'));
    await userEvent.type(within(dialog).getByLabelText('Descripción de la operación'), 'Entrega intracomunitaria');
    await userEvent.selectOptions(within(dialog).getByLabelText('Tipo de identificación'), '02');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Subsanar' }));
    // The field's error is shown in the dialog, which stays open.
    expect(await within(dialog).findByText(MESSAGES.nifIvaSoloUe)).toBeTruthy();
    await userEvent.selectOptions(within(dialog).getByLabelText('País del destinatario'), 'FR');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Subsanar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const recodificado = { destinatario_nombre: 'Quincaillerie Dupont', destinatario_nif: 'FR40303265045', destinatario_tipo_id: '02' };
    expect(bodiesOf(fake.calls, 'subsanarregistrofacturacion')).toEqual([
      { id: 2, descripcion: 'Entrega intracomunitaria', ...recodificado, destinatario_pais: 'ES' },
      { id: 2, descripcion: 'Entrega intracomunitaria', ...recodificado, destinatario_pais: 'FR' },
    ]);

    await userEvent.click(await screen.findByRole('button', { name: 'Volver a enviar la anulación de A 2026/000011' }));
    const otra = screen.getByRole('dialog', { name: 'Volver a enviar la anulación' });
    expect(within(otra).getByText(/registro de anulación nuevo de la factura A 2026\/000011/)).toBeTruthy();
    await userEvent.click(within(otra).getByRole('button', { name: 'Volver a enviar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'subsanarregistrofacturacion').at(-1)).toEqual({ id: 3 }));
  });
});
