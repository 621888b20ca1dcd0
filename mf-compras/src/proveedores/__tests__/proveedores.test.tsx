import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, visibleEntries, type SectionMenu } from 'shared';
import { allFlags, bodiesOf, currentPath, renderSection } from 'shared/testing';
import { fakeCompras, listadoDocs, doc } from '../../fakeCompras';
import menu from '../../menu.json';
import Section from '../../section';

const echo = (id: number) => (call: { body?: unknown }) => ({ RESULT: '0' as const, data: [{ id, codigo: 'P0009', ...(call.body as object) }] });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;

describe('Proveedores', () => {
  it('the section root opens the suppliers list: código, razón social, NIF, población, teléfono and state', async () => {
    const fake = fakeCompras();
    renderSection(Section, menu.prefix, '/compras', { api: fake.api });
    await waitFor(() => expect(currentPath()).toBe('/compras/proveedores'));
    const row = (await screen.findByText('P0003')).closest('tr')!;
    expect(within(row).getByText('Ferretería Levante SL')).toBeTruthy();
    expect(within(row).getByText('B12345674')).toBeTruthy();
    expect(within(row).getByText('Valencia')).toBeTruthy();
    expect(within(row).getByText('963000000')).toBeTruthy();
    expect(within(row).getByText('Activo')).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), '1');
    await waitFor(() => expect(screen.queryByText('P0004')).toBeNull());
    expect(fake.calls.filter((c) => c.ac === 'listadoproveedores').at(-1)?.params).toMatchObject({ activo: '1', orden: 'codigo' });
  });

  it('creates a supplier: the NIF and IBAN are checked, the postal code fills the province, the body carries every field', async () => {
    const fake = fakeCompras({ editarproveedor: echo(9) });
    renderSection(Section, menu.prefix, '/compras/proveedor/nuevo-proveedor', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nuevo proveedor' })).toBeTruthy();
    await userEvent.type(field('NIF'), '12345678A');
    await userEvent.type(field('Razón social'), 'Maderas del Norte SA');
    await userEvent.type(field('Código postal'), '28001');
    expect(field('Provincia').value).toBe('Madrid');
    await userEvent.type(field('IBAN'), 'ES9121000418450200051333');
    expect(field('IBAN').value).toBe('ES91 2100 0418 4502 0005 1333');
    await save();
    expect(await screen.findByText(MESSAGES.invalidNif)).toBeTruthy();
    expect(screen.getByText(MESSAGES.invalidIban)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarproveedor')).toHaveLength(0);

    await userEvent.clear(field('NIF'));
    await userEvent.type(field('NIF'), '12345678z');
    await userEvent.clear(field('IBAN'));
    await userEvent.type(field('IBAN'), 'es91 2100 0418 4502 0005 1332');
    await userEvent.type(field('Población'), 'Madrid');
    await userEvent.type(field('Email'), 'compras@maderas.es');
    await userEvent.selectOptions(field('Forma de pago'), 'recibo_30_60');
    await userEvent.selectOptions(field('% Retención'), '700');
    expect(screen.getAllByRole('option', { name: /%$/ }).map((o) => o.textContent)).toEqual(['0 %', '1 %', '7 %', '15 %', '19 %']);
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarproveedor')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarproveedor')[0]).toEqual({
      codigo: null,
      nif: '12345678Z',
      pais: 'ES',
      tipo_id: 'NIF',
      razon_social: 'Maderas del Norte SA',
      nombre_comercial: null,
      direccion: null,
      codigo_postal: '28001',
      poblacion: 'Madrid',
      provincia: 'Madrid',
      telefono: null,
      email: 'compras@maderas.es',
      iban: 'ES9121000418450200051332',
      forma_pago: 'recibo_30_60',
      retencion: 700,
      observaciones: null,
      activo: 1,
    });
    await waitFor(() => expect(currentPath()).toBe('/compras/proveedor/9'));
  });

  it('the record shows the IBAN grouped, the purchases per year and the supplier documents, each a link', async () => {
    const fake = fakeCompras({
      listadopedidoscompra: listadoDocs([doc({ id: 5, numero: 'PC 2026/000005' }), doc({ id: 6, proveedor_id: 4, numero: 'PC 2026/000006' })]),
      listadoalbaranescompra: listadoDocs([doc({ id: 20, tipo: 'albarancompra', numero: 'AC 2026/000020', estado: 'pendiente' })]),
    });
    renderSection(Section, menu.prefix, '/compras/proveedor/3', { api: fake.api });
    expect(await screen.findByDisplayValue('ES91 2100 0418 4502 0005 1332')).toBeTruthy();
    const compras = screen.getByRole('table', { name: 'Compras por ejercicio' });
    expect(within(compras).getByText('1.250,00 €')).toBeTruthy();
    expect(within(compras).getByText('1.512,50 €')).toBeTruthy();
    expect((await screen.findByText('PC 2026/000005')).closest('a')?.getAttribute('href')).toBe('/compras/pedido/5');
    expect(screen.queryByText('PC 2026/000006')).toBeNull();
    expect((await screen.findByText('AC 2026/000020')).closest('a')?.getAttribute('href')).toBe('/compras/albaran/20');
    expect(fake.calls.filter((c) => c.ac === 'listadopedidoscompra').every((c) => c.params?.proveedor_id === 3)).toBe(true);
  });

  it('«Nuevo pedido» starts a purchase order from the supplier, preselected (issue 26)', async () => {
    const fake = fakeCompras();
    renderSection(Section, menu.prefix, '/compras/proveedor/3', { api: fake.api });
    await screen.findByDisplayValue('ES91 2100 0418 4502 0005 1332');
    await userEvent.click(screen.getByRole('link', { name: 'Nuevo pedido' }));
    await waitFor(() => expect(currentPath()).toBe('/compras/pedido/nuevo-pedido'));
    await waitFor(() => expect(screen.getByTestId('tercero').textContent).not.toBe(''));
    expect(fake.calls.some((c) => c.ac === 'listadoproveedores' && c.params?.id === 3)).toBe(true);
  });

  it('«Nueva factura» registers the supplier’s invoice in hcp with the supplier chosen and its forma de pago (issue 26)', async () => {
    const fake = fakeCompras();
    renderSection(Section, menu.prefix, '/compras/proveedor/3', { api: fake.api });
    await screen.findByDisplayValue('ES91 2100 0418 4502 0005 1332');
    await userEvent.click(screen.getByRole('link', { name: 'Nueva factura' }));
    await waitFor(() => expect(currentPath()).toBe('/compras/hcp'));
    // The supplier is already chosen: its pending documents and the invoice's form show, with its forma de pago.
    expect(await screen.findByRole('heading', { name: 'Documentos pendientes' })).toBeTruthy();
    expect(screen.getByText('Ferretería Levante SL')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Forma de pago' }) as HTMLSelectElement).value).toBe('transferencia_30');
    await waitFor(() => expect(fake.calls.some((c) => c.ac === 'listadopendienteshcp' && String(c.params?.proveedor_id) === '3')).toBe(true));
    expect(fake.calls.some((c) => c.ac === 'listadoproveedores' && c.params?.id === 3)).toBe(true);
  });

  it('«Nueva factura» is offered only with hcp on and to a role that sees purchase amounts (issue 26)', async () => {
    const fake = fakeCompras();
    const { unmount } = renderSection(Section, menu.prefix, '/compras/proveedor/3', { api: fake.api, flags: { ...allFlags(1), hcp: 0 } });
    await screen.findByDisplayValue('ES91 2100 0418 4502 0005 1332');
    expect(screen.getByRole('link', { name: 'Nuevo pedido' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Nueva factura' })).toBeNull();
    unmount();
    const user = {
      id: 4, nombre: 'Mozo', email: 'mozo@demo.es',
      rol: { id: 3, nombre: 'Almacén', clave: 'almacen' as const, derechos: { areas: { compras: ['ver', 'acciones', 'editar'] as const }, especiales: [], descuento_maximo: 0 } },
    };
    renderSection(Section, menu.prefix, '/compras/proveedor/3', { api: fakeCompras().api, user });
    await screen.findByDisplayValue('ES91 2100 0418 4502 0005 1332');
    expect(screen.getByRole('link', { name: 'Nuevo pedido' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Nueva factura' })).toBeNull();
  });

  it('a refusal shows the server’s reason, not only the generic words (issue 26)', async () => {
    const motivo = 'Está conciliado en la factura de proveedor FT-2026/1187: deshaga primero la conciliación';
    const fake = fakeCompras({ eliminarproveedor: () => ({ RESULT: '2', message: motivo }) });
    const r = renderSection(Section, menu.prefix, '/compras/proveedor/3', { api: fake.api });
    await screen.findByDisplayValue('Ferretería Levante SL');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(r.toasts).toContain(`associated:${motivo}`));
  });

  it('deleting a supplier with documents is refused with the RESULT 2 toast and the record stays', async () => {
    const fake = fakeCompras({ eliminarproveedor: () => ({ RESULT: '2' }) });
    const r = renderSection(Section, menu.prefix, '/compras/proveedor/3', { api: fake.api });
    await screen.findByDisplayValue('Ferretería Levante SL');
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(r.toasts).toContain('associated:'));
    expect(bodiesOf(fake.calls, 'eliminarproveedor')).toEqual([{ id: 3 }]);
    expect(currentPath()).toBe('/compras/proveedor/3');
  });
});

describe('Menu', () => {
  const section = menu as SectionMenu;
  const labels = (flags: Parameters<typeof visibleEntries>[1]) => visibleEntries(section, flags).map((e) => e.label);

  it('each document type, hcp and Pagos (issue 26) hide with their flag; everything hides without compras', () => {
    expect(labels(allFlags(1))).toEqual(['Proveedores', 'Pedidos', 'Albaranes', 'Devoluciones', 'Facturas de proveedor', 'Pagos']);
    expect(labels({ ...allFlags(1), compras_pedidos: 0, hcp: 0 })).toEqual(['Proveedores', 'Albaranes', 'Devoluciones']);
    expect(labels({ ...allFlags(1), compras_albaranes: 0, compras_devoluciones: 0 })).toEqual(['Proveedores', 'Pedidos', 'Facturas de proveedor', 'Pagos']);
    expect(labels({ ...allFlags(1), compras: 0 })).toEqual([]);
  });

  it('a screen whose flag is off says the module is off', async () => {
    renderSection(Section, menu.prefix, '/compras/pedidos', { api: fakeCompras().api, flags: { ...allFlags(1), compras_pedidos: 0 } });
    expect(await screen.findByText(MESSAGES.moduleOff)).toBeTruthy();
  });
});
