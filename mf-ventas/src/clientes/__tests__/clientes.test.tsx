import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, visibleEntries, type SectionMenu } from 'shared';
import { allFlags, bodiesOf, currentPath, renderSection } from 'shared/testing';
import { doc, fakeVentas, listadoDocs } from '../../fakeVentas';
import menu from '../../menu.json';
import Section from '../../section';

const echo = (id: number) => (call: { body?: unknown }) => ({ RESULT: '0' as const, data: [{ id, codigo: 'C0009', ...(call.body as object) }] });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;

describe('Clientes', () => {
  it('the section root opens the customers list: código, razón social, NIF, población, teléfono and state', async () => {
    const fake = fakeVentas();
    renderSection(Section, menu.prefix, '/ventas', { api: fake.api });
    await waitFor(() => expect(currentPath()).toBe('/ventas/clientes'));
    const row = (await screen.findByText('C0003')).closest('tr')!;
    expect(within(row).getByText('Droguería Sol SL')).toBeTruthy();
    expect(within(row).getByText('B12345674')).toBeTruthy();
    expect(within(row).getByText('Valencia')).toBeTruthy();
    expect(within(row).getByText('963000000')).toBeTruthy();
    expect(within(row).getByText('Activo')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'C0003' }).getAttribute('href')).toBe('/ventas/cliente/3');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), '1');
    await waitFor(() => expect(screen.queryByText('C0004')).toBeNull());
    expect(fake.calls.filter((c) => c.ac === 'listadoclientes').at(-1)?.params).toMatchObject({ activo: '1', orden: 'codigo' });
  });

  it('creates a customer with its terms: recargo, tarifa (as the flags allow) and discount; NIF and IBAN checked; every field in the body', async () => {
    const fake = fakeVentas({ editarcliente: echo(9) });
    renderSection(Section, menu.prefix, '/ventas/cliente/nuevo-cliente', { api: fake.api, flags: { ...allFlags(1), tarifa_3: 0 } });
    expect(await screen.findByRole('heading', { name: 'Nuevo cliente' })).toBeTruthy();
    expect(screen.getByText('Vacío: se asigna el siguiente (C0001, C0002…)')).toBeTruthy();
    // Tarifa 3 is off: only tarifas 1 and 2.
    expect(within(field('Tarifa')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Tarifa 1', 'Tarifa 2']);
    await userEvent.type(field('NIF'), '12345678A');
    await userEvent.type(field('Razón social'), 'Ferretería Centro SL');
    await userEvent.type(field('IBAN'), 'ES9121000418450200051333');
    await save();
    expect(await screen.findByText(MESSAGES.invalidNif)).toBeTruthy();
    expect(screen.getByText(MESSAGES.invalidIban)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarcliente')).toHaveLength(0);

    await userEvent.clear(field('NIF'));
    await userEvent.type(field('NIF'), 'b12345674');
    await userEvent.clear(field('IBAN'));
    await userEvent.type(field('Código postal'), '28001');
    expect(field('Provincia').value).toBe('Madrid');
    await userEvent.selectOptions(field('Forma de pago'), 'recibo_30_60');
    await userEvent.selectOptions(field('Tarifa'), '2');
    await userEvent.type(field('% Descuento'), '7,5');
    await userEvent.click(screen.getByRole('switch', { name: /^Recargo de equivalencia/ }));
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarcliente')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarcliente')[0]).toEqual({
      codigo: null,
      nif: 'B12345674',
      pais: 'ES',
      tipo_id: 'NIF',
      razon_social: 'Ferretería Centro SL',
      nombre_comercial: null,
      direccion: null,
      codigo_postal: '28001',
      poblacion: null,
      provincia: 'Madrid',
      telefono: null,
      email: null,
      iban: null,
      forma_pago: 'recibo_30_60',
      retencion: 0,
      observaciones: null,
      activo: 1,
      recargo: 1,
      tarifa: 2,
      descuento: 750,
      administracion_publica: 0,
      dir3_oficina_contable: null,
      dir3_organo_gestor: null,
      dir3_unidad_tramitadora: null,
      dir3_organo_proponente: null,
      // Issue 26: no SEPA mandate yet.
      bic: null,
      mandato_referencia: null,
      mandato_fecha: null,
      mandato_secuencia: null,
      mandato_esquema: null,
      // Issue 16: none of its own (its lines are S1 unless the article says otherwise).
      operacion: null,
    });
    await waitFor(() => expect(currentPath()).toBe('/ventas/cliente/9'));
  });

  it('a public administration (issue 16): its DIR3 codes required and checked as the server does, typed in capitals', async () => {
    const fake = fakeVentas({ editarcliente: echo(11) });
    renderSection(Section, menu.prefix, '/ventas/cliente/nuevo-cliente', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nuevo cliente' })).toBeTruthy();
    expect(screen.queryByLabelText(/^Oficina contable/)).toBeNull();
    await userEvent.type(field('NIF'), 'P2807900B');
    await userEvent.type(field('Razón social'), 'Ayuntamiento de Villaejemplo');
    await userEvent.click(screen.getByRole('switch', { name: /^Es una administración pública/ }));
    await userEvent.type(field('Oficina contable'), 'l0128-796');
    expect(field('Oficina contable').value).toBe('L0128-796');
    await save();
    expect(await screen.findByText(MESSAGES.dir3NoValido)).toBeTruthy();
    expect(screen.getAllByText(MESSAGES.dir3Requerido)).toHaveLength(2);
    expect(bodiesOf(fake.calls, 'editarcliente')).toHaveLength(0);
    await userEvent.clear(field('Oficina contable'));
    await userEvent.type(field('Oficina contable'), 'l01280796');
    await userEvent.type(field('Órgano gestor'), 'L01280796');
    await userEvent.type(field('Unidad tramitadora'), 'LA0001234');
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarcliente')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarcliente')[0]).toMatchObject({
      administracion_publica: 1,
      dir3_oficina_contable: 'L01280796',
      dir3_organo_gestor: 'L01280796',
      dir3_unidad_tramitadora: 'LA0001234',
      dir3_organo_proponente: null,
    });
  }, 40_000);

  it('a customer from another country: its NIF-IVA checked with the country prefix, the postal code free, no province from it', async () => {
    const fake = fakeVentas({ editarcliente: echo(10) });
    renderSection(Section, menu.prefix, '/ventas/cliente/nuevo-cliente', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nuevo cliente' })).toBeTruthy();
    expect(field('País').value).toBe('ES');
    expect(field('Tipo de identificación').value).toBe('NIF');
    // Outside the EU a passport by default.
    await userEvent.selectOptions(field('País'), 'US');
    expect(field('Tipo de identificación').value).toBe('03');
    await userEvent.selectOptions(field('País'), 'PT');
    // An EU country: a NIF-IVA by default, with its example.
    expect(field('Tipo de identificación').value).toBe('02');
    expect(screen.getByText('Con el prefijo del país (p. ej. PT123456789)')).toBeTruthy();
    // Issue 25: without an operation of its own, its sales are an intra-EU delivery (E5), and the form says so.
    expect(within(field('Operación')).getByRole('option', { name: /^Según su país: E5/ })).toBeTruthy();
    expect(screen.getByText(/Sus líneas serán E5: empresa de otro país de la UE con NIF-IVA/)).toBeTruthy();
    await userEvent.type(field('Identificador'), 'PT5012');
    await userEvent.type(field('Razón social'), 'Ferragens do Porto Lda');
    await userEvent.type(field('Código postal'), '4000-123');
    expect(field('Provincia').value).toBe('');
    await save();
    expect(await screen.findByText(MESSAGES.nifIvaNoValido.replace('{ejemplo}', 'PT123456789'))).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarcliente')).toHaveLength(0);
    await userEvent.type(field('Identificador'), '34567');
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarcliente')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarcliente')[0]).toMatchObject({ pais: 'PT', tipo_id: '02', nif: 'PT501234567', codigo_postal: '4000-123', provincia: null });
  }, 40_000);

  it('the record shows its terms, what it owes, the sales per year and its documents, each a link', async () => {
    const fake = fakeVentas({
      listadopedidosventa: listadoDocs([doc({ id: 5 }), doc({ id: 6, cliente_id: 4, numero: 'PV 2026/000006' })]),
      listadoalbaranesventa: listadoDocs([doc({ id: 20, tipo: 'albaranventa', numero: 'AV 2026/000020' })]),
      listadopartes: listadoDocs([doc({ id: 40, tipo: 'parte', numero: 'PT 2026/000040' })]),
    });
    renderSection(Section, menu.prefix, '/ventas/cliente/3', { api: fake.api });
    expect(await screen.findByDisplayValue('ES91 2100 0418 4502 0005 1332')).toBeTruthy();
    expect(field('Tarifa').value).toBe('2');
    expect(field('% Descuento').value).toBe('5');
    expect((screen.getByRole('switch', { name: /^Recargo de equivalencia/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('pendiente-cobro').textContent).toBe('1.512,50 €');
    expect(screen.getByTestId('vencido').textContent).toBe('300,00 €');
    const ventas = screen.getByRole('table', { name: 'Ventas por ejercicio' });
    expect(within(ventas).getByText('8.000,00 €')).toBeTruthy();
    expect(within(ventas).getByText('1.512,50 €')).toBeTruthy();
    expect((await screen.findByText('PV 2026/000005')).closest('a')?.getAttribute('href')).toBe('/ventas/pedido/5');
    expect(screen.queryByText('PV 2026/000006')).toBeNull();
    expect((await screen.findByText('AV 2026/000020')).closest('a')?.getAttribute('href')).toBe('/ventas/albaran/20');
    expect((await screen.findByText('PT 2026/000040')).closest('a')?.getAttribute('href')).toBe('/ventas/partes-de-trabajo/40');
    expect(screen.getByRole('heading', { name: 'Facturas' })).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'listadopedidosventa').every((c) => c.params?.cliente_id === 3)).toBe(true);
  });

  it('«Nuevo pedido» and «Nueva factura» start a document from the customer, preselected with its terms (issue 26)', async () => {
    const fake = fakeVentas();
    renderSection(Section, menu.prefix, '/ventas/cliente/3', { api: fake.api });
    await screen.findByDisplayValue('Droguería Sol SL');
    expect(screen.getByRole('link', { name: 'Nueva factura' }).getAttribute('href')).toBe('/ventas/factura/nueva-factura?cliente_id=3');
    await userEvent.click(screen.getByRole('link', { name: 'Nuevo pedido' }));
    await waitFor(() => expect(currentPath()).toBe('/ventas/pedido/nuevo-pedido'));
    // The customer is there, as if picked: its name in the party field and its forma de pago.
    await waitFor(() => expect(screen.getByTestId('tercero').textContent).toBe('Droguería Sol SL'));
    expect(fake.calls.some((c) => c.ac === 'listadoclientes' && c.params?.id === 3)).toBe(true);
    await waitFor(() => expect(field('Forma de pago').value).not.toBe(''));
  });

  it('without ventas_facturas: no «Nueva factura» on the customer', async () => {
    const fake = fakeVentas();
    renderSection(Section, menu.prefix, '/ventas/cliente/3', { api: fake.api, flags: { ...allFlags(1), ventas_facturas: 0 } });
    await screen.findByDisplayValue('Droguería Sol SL');
    expect(screen.getByRole('link', { name: 'Nuevo pedido' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Nueva factura' })).toBeNull();
  });

  it('without ventas_facturas nor partes_trabajo: no debt panel, no invoices nor partes among its documents', async () => {
    const fake = fakeVentas();
    renderSection(Section, menu.prefix, '/ventas/cliente/3', { api: fake.api, flags: { ...allFlags(1), ventas_facturas: 0, partes_trabajo: 0 } });
    await screen.findByDisplayValue('Droguería Sol SL');
    expect(await screen.findByRole('heading', { name: 'Pedidos de venta' })).toBeTruthy();
    expect(screen.queryByText('Pendiente de cobro')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Facturas' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Rectificativas' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Partes de trabajo' })).toBeNull();
    expect(fake.calls.some((c) => c.ac === 'listadofacturas' || c.ac === 'listadopartes')).toBe(false);
  });

  it('deleting a customer with documents is refused with the RESULT 2 toast and the record stays', async () => {
    const fake = fakeVentas({ eliminarcliente: () => ({ RESULT: '2' }) });
    const r = renderSection(Section, menu.prefix, '/ventas/cliente/3', { api: fake.api });
    await screen.findByDisplayValue('Droguería Sol SL');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(r.toasts).toContain('associated:'));
    expect(bodiesOf(fake.calls, 'eliminarcliente')).toEqual([{ id: 3 }]);
    expect(currentPath()).toBe('/ventas/cliente/3');
  });
});

describe('Menu', () => {
  const section = menu as SectionMenu;
  const labels = (flags: Parameters<typeof visibleEntries>[1]) => visibleEntries(section, flags).map((e) => e.label);

  it('each document type, hfa and partes hide with their flag; everything hides without ventas', () => {
    expect(labels({ ...allFlags(1), ventas_pedidos: 0, partes_trabajo: 0 })).toEqual([
      'Clientes',
      'Albaranes',
      'Facturas',
      'Devoluciones',
      'Rectificativas',
      'Facturar albaranes',
      'Remesas',
      'Registros de facturación',
      'Terminales TPV',
      'Botones TPV',
      'Cierres TPV',
      'Tickets',
    ]);
    // Rectificativas, hfa and the records make or read invoices: they hide with them; the TPV's with the flag tpv.
    expect(labels({ ...allFlags(1), ventas_facturas: 0, tpv: 0 })).toEqual(['Clientes', 'Pedidos', 'Albaranes', 'Devoluciones', 'Partes de trabajo']);
    expect(labels({ ...allFlags(1), ventas: 0 })).toEqual([]);
  });

  it('a screen whose flag is off says the module is off', async () => {
    renderSection(Section, menu.prefix, '/ventas/partes-de-trabajo', { api: fakeVentas().api, flags: { ...allFlags(1), partes_trabajo: 0 } });
    expect(await screen.findByText(MESSAGES.moduleOff)).toBeTruthy();
  });
});
