import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiHttpError, CONF_FIELDS, FLAG_GROUPS, FLAG_INFO, FLAG_NAMES, MESSAGES, type Configuracion } from 'shared';
import { bodiesOf, createFakeApi, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

function config(overrides: Partial<Record<string, unknown>> = {}): Configuracion {
  const flags = Object.fromEntries(CONF_FIELDS.map((f) => [f, 0]));
  return {
    id: 1,
    razon_social: 'Ferretería Martínez S.L.',
    nombre_comercial: 'Ferretería Martínez',
    nif: 'B12345674',
    direccion: 'Calle Mayor 1',
    codigo_postal: '28013',
    poblacion: 'Madrid',
    provincia: 'Madrid',
    telefono: '910000000',
    email: 'hola@ferreteria.es',
    logo: null,
    favicon: null,
    ...flags,
    conf_compras: 1,
    conf_compras_pedidos: 1,
    ...overrides,
  } as Configuracion;
}

function setup(current = config()) {
  const fake = createFakeApi({
    listadoconfiguraciones: () => ({ RESULT: '0', data: [current] }),
    editarconfiguracion: (call) => ({ RESULT: '0', data: [{ ...current, ...(call.body as object) }] }),
    subirarchivo: () => ({ RESULT: '0', data: [{ id: 'abc', url: '/archivos/abc', nombre: 'logo.png', tipo: 'image/png' }] }),
  });
  const reloadConfig = vi.fn(async () => {});
  const view = renderSection(Section, menu.prefix, '/config', { api: fake.api, reloadConfig });
  return { ...view, calls: fake.calls, reloadConfig };
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar' }));

describe('Configuración', () => {
  it('shows the company data and every module flag in its group, with its label', async () => {
    setup();
    expect(await screen.findByDisplayValue('Ferretería Martínez S.L.')).toBeTruthy();
    for (const group of FLAG_GROUPS) {
      const fieldset = screen.getByRole('group', { name: new RegExp(`^${group}`) });
      const inGroup = FLAG_NAMES.filter((f) => FLAG_INFO[f].group === group);
      expect(within(fieldset).getAllByRole('switch')).toHaveLength(inGroup.length);
      for (const f of inGroup) expect(within(fieldset).getByRole('switch', { name: (n) => n.startsWith(FLAG_INFO[f].label) })).toBeTruthy();
    }
    // Every module flag, plus the company's «Comercio minorista u hostelería» (the simplified invoices' limit) and
    // «Permitir vender sin stock» (on unless the configuration says otherwise).
    expect(screen.getAllByRole('switch')).toHaveLength(FLAG_NAMES.length + 2);
    expect((screen.getByRole('switch', { name: /^Comercio minorista/ }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('switch', { name: /^Permitir vender sin stock/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: /^Compras/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: /^Materiales/ }) as HTMLInputElement).checked).toBe(false);
  });

  it('sends the toggled flag with the others unchanged, then makes the shell re-read the configuration', async () => {
    const { calls, reloadConfig, toasts } = setup();
    await userEvent.click(await screen.findByRole('switch', { name: /^Materiales/ }));
    expect(screen.getByText('Cambios sin guardar')).toBeTruthy();
    await save();
    await waitFor(() => expect(reloadConfig).toHaveBeenCalledTimes(1));
    const [body] = bodiesOf(calls, 'editarconfiguracion');
    expect(body.conf_materiales).toBe(1);
    expect(body.conf_compras).toBe(1);
    expect(body.conf_compras_pedidos).toBe(1);
    expect(body.conf_ventas).toBe(0);
    expect(body.id).toBe(1);
    expect(body.razon_social).toBe('Ferretería Martínez S.L.');
    for (const f of CONF_FIELDS) expect([0, 1]).toContain(body[f]);
    expect(toasts).toContain('success:');
  });

  it('nests the document flags under their section: disabled while it is off, but their values are still sent', async () => {
    const { calls } = setup(config({ conf_compras: 1, conf_compras_pedidos: 1 }));
    const pedidos = (await screen.findByRole('switch', { name: /^Pedidos de compra/ })) as HTMLInputElement;
    expect(pedidos.disabled).toBe(false);
    await userEvent.click(screen.getByRole('switch', { name: /^Compras/ }));
    expect(pedidos.disabled).toBe(true);
    expect(pedidos.checked).toBe(true);
    expect(screen.getAllByText('Requiere activar «Compras»').length).toBeGreaterThan(0);
    await save();
    await waitFor(() => expect(bodiesOf(calls, 'editarconfiguracion')).toHaveLength(1));
    const [body] = bodiesOf(calls, 'editarconfiguracion');
    expect(body.conf_compras).toBe(0);
    expect(body.conf_compras_pedidos).toBe(1);
  });

  it('the company tax: IVA unless it says otherwise; choosing IGIC (Canarias) sends impuesto igic', async () => {
    const { calls, reloadConfig } = setup();
    const select = (await screen.findByLabelText(/^Impuesto indirecto/)) as HTMLSelectElement;
    expect(select.value).toBe('iva');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['IVA (península y Baleares)', 'IGIC (Canarias)', 'IPSI (Ceuta y Melilla)']);
    await userEvent.selectOptions(select, 'igic');
    await save();
    await waitFor(() => expect(reloadConfig).toHaveBeenCalledTimes(1));
    expect(bodiesOf(calls, 'editarconfiguracion')[0]).toMatchObject({ impuesto: 'igic' });
  });

  it('an invalid NIF shows the message and sends nothing', async () => {
    const { calls, reloadConfig } = setup();
    const nif = await screen.findByLabelText(/^NIF/);
    await userEvent.clear(nif);
    await userEvent.type(nif, '12345678A');
    await save();
    expect(await screen.findByText(MESSAGES.invalidNif)).toBeTruthy();
    expect(bodiesOf(calls, 'editarconfiguracion')).toHaveLength(0);
    expect(reloadConfig).not.toHaveBeenCalled();
  });

  it('a required company field left empty shows "Este campo es necesario"', async () => {
    const { calls } = setup();
    await userEvent.clear(await screen.findByLabelText(/^Razón social/));
    await save();
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    expect(bodiesOf(calls, 'editarconfiguracion')).toHaveLength(0);
  });

  it("shows the server's field errors (HTTP 400) on the fields", async () => {
    const fake = createFakeApi({
      listadoconfiguraciones: () => ({ RESULT: '0', data: [config()] }),
      editarconfiguracion: () => {
        throw new ApiHttpError(400, { RESULT: '1', message: MESSAGES.invalidFields, errors: { email: MESSAGES.invalidEmail } });
      },
    });
    const reloadConfig = vi.fn(async () => {});
    renderSection(Section, menu.prefix, '/config', { api: fake.api, reloadConfig });
    await screen.findByDisplayValue('Ferretería Martínez S.L.');
    await save();
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(reloadConfig).not.toHaveBeenCalled();
  });

  it('RESULT 2 on save is a plain failure (spec §8): the error toast, no reload', async () => {
    const fake = createFakeApi({
      listadoconfiguraciones: () => ({ RESULT: '0', data: [config()] }),
      editarconfiguracion: () => ({ RESULT: '2' }),
    });
    const reloadConfig = vi.fn(async () => {});
    const { toasts } = renderSection(Section, menu.prefix, '/config', { api: fake.api, reloadConfig });
    await screen.findByDisplayValue('Ferretería Martínez S.L.');
    await save();
    await waitFor(() => expect(toasts).toContain('error:'));
    expect(toasts.some((t) => t.startsWith('associated'))).toBe(false);
    expect(reloadConfig).not.toHaveBeenCalled();
  });

  it('with no configuration yet (RESULT 3) shows an empty form', async () => {
    const fake = createFakeApi({ listadoconfiguraciones: () => ({ RESULT: '3' }) });
    renderSection(Section, menu.prefix, '/config', { api: fake.api });
    const razon = (await screen.findByLabelText(/^Razón social/)) as HTMLInputElement;
    expect(razon.value).toBe('');
    // Every module off; selling without stock is allowed, as the product's default.
    const encendidos = screen.getAllByRole('switch').filter((s) => (s as HTMLInputElement).checked);
    expect(encendidos.map((s) => s.getAttribute('name'))).toEqual(['stock_negativo']);
  });

  it('uploads the logo through the multipart client, previews it, and sends its URL; Quitar sends null', async () => {
    const { calls } = setup();
    const input = await screen.findByLabelText('Logotipo');
    await userEvent.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    const upload = await waitFor(() => {
      const c = calls.find((x) => x.method === 'UPLOAD');
      expect(c).toBeTruthy();
      return c!;
    });
    expect(upload.ac).toBe('subirarchivo');
    const img = (await screen.findByAltText('Vista previa: Logotipo')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/archivos/abc');
    await save();
    await waitFor(() => expect(bodiesOf(calls, 'editarconfiguracion')).toHaveLength(1));
    expect(bodiesOf(calls, 'editarconfiguracion')[0].logo).toBe('/archivos/abc');

    await userEvent.click(screen.getByRole('button', { name: 'Quitar' }));
    expect(screen.queryByAltText('Vista previa: Logotipo')).toBeNull();
    await save();
    await waitFor(() => expect(bodiesOf(calls, 'editarconfiguracion')).toHaveLength(2));
    expect(bodiesOf(calls, 'editarconfiguracion')[1].logo).toBeNull();
  });

  it('refuses an image over 2 MB before uploading it', async () => {
    const { calls } = setup();
    const input = await screen.findByLabelText('Logotipo');
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'grande.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText(MESSAGES.fileTooLarge)).toBeTruthy();
    expect(calls.some((c) => c.method === 'UPLOAD')).toBe(false);
  });
});
