import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES, type ComprobacionCadena, type RegistroFacturacion } from 'shared';
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
