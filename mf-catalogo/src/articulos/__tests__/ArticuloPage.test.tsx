import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Articulo } from 'shared';
import { allFlags, bodiesOf, currentPath, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';
import { ARTICULO, fakeCatalogo, listado } from '../../fakeCatalogo';
import { MSG } from '../articuloForm';

const saved = (call: { body?: unknown }) => ({ RESULT: '0' as const, data: [{ ...ARTICULO, ...(call.body as object), id: 99 }] });

function fillRequired() {
  return (async () => {
    await userEvent.type(await screen.findByLabelText(/^Código\*?$/), 'NUEVO-1');
    await userEvent.type(screen.getByLabelText(/^Descripción\*?$/), 'Camiseta de algodón');
  })();
}

const input = (label: RegExp | string) => screen.getByLabelText(label) as HTMLInputElement;
const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar' }));

describe('Artículo: precios', () => {
  it('typing a PVP of 9,99 with IVA 21 % sends precio_venta 82562 and pvp_1 999', async () => {
    const fake = fakeCatalogo({ editararticulo: saved });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api });
    await fillRequired();
    await userEvent.type(input(/^PVP 1/), '9,99');
    // The net price follows at once, exactly.
    expect(input(/^Precio de venta/).value).toBe('8,2562');
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(1));
    const [body] = bodiesOf(fake.calls, 'editararticulo');
    expect(body).toMatchObject({ codigo: 'NUEVO-1', descripcion: 'Camiseta de algodón', tipo_iva: '21', precio_venta: 82562, pvp_1: 999 });
    expect(body.id).toBeUndefined();
    await waitFor(() => expect(currentPath()).toBe('/catalogo/articulo/99'));
  });

  it('typing the net price updates the PVP, and another IVA recomputes it from the net', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api });
    const net = input(/^Precio de venta/);
    await userEvent.clear(net);
    await userEvent.type(net, '10');
    expect(input(/^PVP 1/).value).toBe('12,10');
    await userEvent.selectOptions(screen.getByLabelText(/^Tipo de IVA/), '10');
    expect(input(/^PVP 1/).value).toBe('11,00');
    await userEvent.selectOptions(screen.getByLabelText(/^Tipo de IVA/), 'exento');
    expect(input(/^PVP 1/).value).toBe('10,00');
    expect(net.value).toBe('10,00');
  });

  it('a price that is not a number shows the message and sends nothing', async () => {
    const fake = fakeCatalogo({ editararticulo: saved });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api });
    await fillRequired();
    await userEvent.clear(input(/^Precio de compra/));
    await userEvent.type(input(/^Precio de compra/), '12,5x');
    await save();
    expect(await screen.findByText('Debe ser un número válido')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(0);
  });
});

describe('Artículo: códigos y clasificación', () => {
  it('a barcode with a wrong check digit shows the message and sends nothing', async () => {
    const fake = fakeCatalogo({ editararticulo: saved });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api });
    await fillRequired();
    await userEvent.type(input(/^Código de barras/), '8412345678901');
    expect(screen.getByText(MSG.ean)).toBeTruthy();
    await save();
    expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(0);
    await userEvent.clear(input(/^Código de barras/));
    await userEvent.type(input(/^Código de barras/), '8412345678905');
    expect(screen.queryByText(MSG.ean)).toBeNull();
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')[0]).toMatchObject({ codigo_barras: '8412345678905' }));
  });

  it('shows the server’s duplicated-code message on the field', async () => {
    const { ApiHttpError } = await import('shared');
    const fake = fakeCatalogo({
      editararticulo: () => {
        throw new ApiHttpError(400, { RESULT: '1', errors: { codigo: 'Ya existe un elemento con este valor' } });
      },
    });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api });
    await fillRequired();
    await save();
    expect(await screen.findByText('Ya existe un elemento con este valor')).toBeTruthy();
  });

  it('the subfamilia select lists only the subfamilias of the chosen familia, and resets with it', async () => {
    const fake = fakeCatalogo({ editararticulo: saved });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api });
    const sub = (await screen.findByLabelText('Subfamilia')) as HTMLSelectElement;
    expect(sub.disabled).toBe(true);
    await waitFor(() => expect(within(screen.getByLabelText('Familia')).getByRole('option', { name: 'Tornillería' })).toBeTruthy());
    await userEvent.selectOptions(screen.getByLabelText('Familia'), '1');
    await waitFor(() => expect([...sub.options].map((o) => o.textContent)).toEqual(['Sin subfamilia', 'Hexagonales', 'Allen']));
    await userEvent.selectOptions(sub, '10');
    await userEvent.selectOptions(screen.getByLabelText('Familia'), '2');
    await waitFor(() => expect([...sub.options].map((o) => o.textContent)).toEqual(['Sin subfamilia', 'Esmaltes']));
    expect(sub.value).toBe('');
    expect(fake.calls.some((c) => c.ac === 'listadosubfamilias' && c.params?.familia_id === '2')).toBe(true);
  });
});

describe('Artículo: módulos', () => {
  it('with almacenes, the minimum stock is typed in units and sent in thousandths', async () => {
    const fake = fakeCatalogo({ editararticulo: saved, listadoarticulos: listado([{ ...ARTICULO, stock_minimo: 2500 }]) });
    renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fake.api, flags: allFlags(1) });
    const minimo = (await screen.findByLabelText(/^Stock mínimo/)) as HTMLInputElement;
    await waitFor(() => expect(minimo.value).toBe('2,5'));
    await userEvent.clear(minimo);
    await userEvent.type(minimo, '12');
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editararticulo')[0]).toMatchObject({ id: 7, stock_minimo: 12000 });
  });

  it('without almacenes there is no minimum stock to type', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api, flags: allFlags(0) });
    expect(await screen.findByLabelText(/^Precio de venta/)).toBeTruthy();
    expect(screen.queryByLabelText(/^Stock mínimo/)).toBeNull();
  });

  it('hides tariffs, PVPs, materials, processes, kits, proportions and seo when their flags are off', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api, flags: allFlags(0) });
    expect(await screen.findByLabelText(/^Precio de venta/)).toBeTruthy();
    expect(screen.getByLabelText(/^Precio de compra/)).toBeTruthy();
    for (const label of [/^Tarifa 2/, /^Tarifa 3/, /^PVP 1/, /^PVP 2/, /^PVP 3/, /^Dirección \(slug\)/, /^Añadir componente/]) {
      expect(screen.queryByLabelText(label)).toBeNull();
    }
    for (const title of ['Materiales y procesos', 'Materiales', 'Procesos', 'Componentes del kit', 'Proporciones de materiales', 'Web (SEO)']) {
      expect(screen.queryByRole('heading', { name: title })).toBeNull();
    }
  });

  it('shows them all when the flags are on', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api, flags: allFlags(1) });
    for (const label of [/^Tarifa 2/, /^Tarifa 3/, /^PVP 1/, /^PVP 2/, /^PVP 3/, /^Dirección \(slug\)/, /^Añadir componente/]) {
      expect(await screen.findByLabelText(label)).toBeTruthy();
    }
    expect(screen.getByRole('heading', { name: 'Materiales y procesos' })).toBeTruthy();
    expect(await screen.findByRole('checkbox', { name: 'Algodón' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Corte' })).toBeTruthy();
  });

  it('only the tarifa 2 flag shows tarifa 2 without its PVP', async () => {
    const flags = { ...allFlags(0), tarifa_2: 1 as const };
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api, flags });
    expect(await screen.findByLabelText(/^Tarifa 2/)).toBeTruthy();
    expect(screen.queryByLabelText(/^PVP 2/)).toBeNull();
    expect(screen.queryByLabelText(/^Tarifa 3/)).toBeNull();
  });

  it('sends the linked materials, processes, kit components and proportions summing 100 %', async () => {
    const fake = fakeCatalogo({
      editararticulo: saved,
      listadoarticulos: listado([ARTICULO, { ...ARTICULO, id: 8, codigo: 'TUE-M4', descripcion: 'Tuerca M4' }]),
    });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api });
    await fillRequired();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Algodón' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Corte' }));

    await userEvent.type(screen.getByRole('combobox', { name: 'Añadir componente' }), 'tuerca');
    await userEvent.click(await screen.findByRole('option', { name: /Tuerca M4/ }));
    const cantidad = input('Cantidad de TUE-M4');
    expect(cantidad.value).toBe('1');
    await userEvent.clear(cantidad);
    await userEvent.type(cantidad, '2,5');

    await userEvent.click(screen.getByRole('button', { name: 'Añadir material' }));
    await userEvent.selectOptions(screen.getByLabelText('Material 1'), '30');
    await userEvent.clear(input('Porcentaje 1'));
    await userEvent.type(input('Porcentaje 1'), '60');
    expect(screen.getByText(/Total: 60 %/).textContent).toContain('faltan 40 %');
    await save();
    expect(await screen.findByText(MSG.proporcionesTotal)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Añadir material' }));
    // The new row proposes what is missing.
    expect(input('Porcentaje 2').value).toBe('40');
    await userEvent.selectOptions(screen.getByLabelText('Material 2'), '31');
    expect(screen.getByText(/Total: 100 %/)).toBeTruthy();
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editararticulo')[0]).toMatchObject({
      materiales: [30],
      procesos: [40],
      componentes: [{ componente_id: 8, cantidad: 2500 }],
      proporciones: [
        { material_id: 30, porcentaje: 6000 },
        { material_id: 31, porcentaje: 4000 },
      ],
    });
  });
});

describe('Artículo: foto y web', () => {
  it('uploads the photo through the multipart client and sends its address', async () => {
    const fake = fakeCatalogo({
      editararticulo: saved,
      subirarchivo: () => ({ RESULT: '0', data: [{ id: 'f1', url: '/archivos/f1', nombre: 'foto.png', tipo: 'image/png' }] }),
    });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api });
    await fillRequired();
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'foto.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Foto'), png);
    expect(await screen.findByRole('img', { name: 'Vista previa: Foto' })).toBeTruthy();
    expect(fake.calls.filter((c) => c.method === 'UPLOAD').map((c) => c.ac)).toEqual(['subirarchivo']);
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')[0]).toMatchObject({ foto: '/archivos/f1' }));
  });

  it('makes the web address from the description', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api });
    await fillRequired();
    await userEvent.click(screen.getByRole('button', { name: 'Generar desde la descripción' }));
    expect(input(/^Dirección \(slug\)/).value).toBe('camiseta-de-algodon');
  });
});

describe('Artículo: ficha existente', () => {
  it('keeps the links on screen when the save answers with the bare row', async () => {
    const withLinks = { ...ARTICULO, materiales: [30], procesos: [40] };
    const fake = fakeCatalogo({
      listadoarticulos: listado([withLinks]),
      editararticulo: (call) => {
        const { materiales: _m, procesos: _p, componentes: _c, proporciones: _pr, ...row } = { ...ARTICULO, ...(call.body as object) } as Articulo;
        return { RESULT: '0', data: [row] };
      },
    });
    renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fake.api });
    const algodon = (await screen.findByRole('checkbox', { name: 'Algodón' })) as HTMLInputElement;
    await waitFor(() => expect(algodon.checked).toBe(true));
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editararticulo')[0]).toMatchObject({ materiales: [30], procesos: [40] });
    await waitFor(() => expect(screen.queryByText('Cambios sin guardar')).toBeNull());
    expect(algodon.checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Corte' }) as HTMLInputElement).checked).toBe(true);
  });

  const conStock: Articulo = {
    ...ARTICULO,
    precio_medio_compra: 812345,
    unidades_vendidas: 1500,
    stock: [
      { almacen_id: 1, almacen_nombre: 'Central', stock: 12000 },
      { almacen_id: 2, almacen_nombre: 'Tienda', stock: 500 },
    ],
  };

  it('loads the record with its prices and the read-only figures', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fakeCatalogo({ listadoarticulos: listado([conStock]) }).api });
    expect(await screen.findByDisplayValue('Tornillo M4')).toBeTruthy();
    expect(input(/^Precio de venta/).value).toBe('0,1736');
    expect(input(/^PVP 1/).value).toBe('0,21');
    expect(input(/^Código de barras/).value).toBe('8412345678905');
    expect(screen.getByText('81,2345 €')).toBeTruthy();
    expect(screen.getByText('1,5')).toBeTruthy();
    const stock = screen.getByRole('table', { name: 'Stock por almacén' });
    expect(within(stock).getByText('Central').nextSibling?.textContent).toBe('12');
    // Nothing in transit: no third column (and no stray «0»).
    expect(within(stock).getByText('Central').parentElement?.children).toHaveLength(2);
    expect(within(stock).getByText('Total').nextSibling?.textContent).toBe('12,5');
  });

  it('with almacenes: stock per location and in transit, the usual location saved at once, and the movements with their balance', async () => {
    const conUbicaciones: Articulo = {
      ...ARTICULO,
      stock: [
        {
          almacen_id: 1,
          almacen_nombre: 'Central',
          stock: 12000,
          en_transito: 0,
          ubicaciones: [
            { ubicacion_id: 5, ubicacion_codigo: 'A-01-1', stock: 10000 },
            { ubicacion_id: null, ubicacion_codigo: null, stock: 2000 },
          ],
          ubicacion_habitual_id: 5,
          ubicacion_habitual_codigo: 'A-01-1',
        },
        { almacen_id: 2, almacen_nombre: 'Tienda', stock: 500, en_transito: 1500, ubicaciones: [], ubicacion_habitual_id: null },
      ],
    };
    const fake = fakeCatalogo({
      listadoarticulos: listado([conUbicaciones]),
      listadoalmacenes: () => ({ RESULT: '0', data: [{ id: 1, nombre: 'Central' }, { id: 2, nombre: 'Tienda' }], total: 2 }),
      listadoubicaciones: () => ({
        RESULT: '0',
        data: [
          { id: 5, almacen_id: 1, codigo: 'A-01-1', descripcion: null, activo: 1 },
          { id: 6, almacen_id: 1, codigo: 'A-01-2', descripcion: 'Pasillo A', activo: 1 },
        ],
        total: 2,
      }),
      editarubicacionarticulo: (call) => ({ RESULT: '0', data: [call.body] }),
      listadomovimientosarticulo: () => ({
        RESULT: '0',
        data: [
          { id: 9, fecha: '2026-11-20', almacen_id: 1, almacen_nombre: 'Central', ubicacion_id: 5, ubicacion_codigo: 'A-01-1', causa: 'traspaso', documento_tipo: 'movimiento', documento_id: 3, documento_numero: 'MOV 2026/000003', cantidad: -1500, saldo: 12500 },
          { id: 8, fecha: '2026-11-02', almacen_id: 1, almacen_nombre: 'Central', ubicacion_id: null, ubicacion_codigo: null, causa: 'inicial', documento_tipo: null, documento_id: null, documento_numero: null, cantidad: 14000, saldo: 14000 },
        ],
        total: 2,
      }),
    });
    renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fake.api, flags: allFlags(1) });
    const stock = await screen.findByRole('table', { name: 'Stock por almacén' });
    expect(within(stock).getByText('Ubicación A-01-1').nextSibling?.textContent).toBe('10');
    expect(within(stock).getByText('Tienda').parentElement?.lastChild?.textContent).toBe('1,5');

    const habitual = (await screen.findByLabelText('Ubicación habitual en Central')) as HTMLSelectElement;
    expect(habitual.value).toBe('5');
    expect(screen.queryByLabelText('Ubicación habitual en Tienda')).toBeNull();
    await userEvent.selectOptions(habitual, '6');
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarubicacionarticulo')).toEqual([{ articulo_id: 7, almacen_id: 1, ubicacion_id: 6 }]));
    expect(screen.queryByText('Cambios sin guardar')).toBeNull();

    const movimientos = await screen.findByRole('table', { name: 'Movimientos de stock del artículo' });
    const link = await within(movimientos).findByRole('link', { name: 'MOV 2026/000003' });
    expect(link.getAttribute('href')).toBe('/almacenes/movimiento/3');
    expect(within(movimientos).getByText('-1,5')).toBeTruthy();
    expect(within(movimientos).getByText('12,5')).toBeTruthy();
    expect(within(movimientos).getByText('Stock inicial')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Almacén'), '2');
    await waitFor(() => expect(fake.calls.filter((c) => c.ac === 'listadomovimientosarticulo').at(-1)?.params).toMatchObject({ articulo_id: 7, almacen_id: '2', pagina: 1 }));
  });

  it('an article without documents shows zeros and no stock', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fakeCatalogo().api });
    expect(await screen.findByText('Sin existencias en ningún almacén.')).toBeTruthy();
    expect(screen.getAllByText('0,00 €')).toHaveLength(2);
  });

  it('deactivating is saved like any change', async () => {
    const fake = fakeCatalogo({ editararticulo: (call) => ({ RESULT: '0', data: [{ ...ARTICULO, ...(call.body as object) }] }) });
    renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fake.api });
    await userEvent.click(await screen.findByRole('switch', { name: /^Activo/ }));
    await save();
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')[0]).toMatchObject({ id: 7, activo: 0, codigo: 'TOR-M4', precio_venta: 1736 }));
  });

  it('a refused delete (RESULT 2) shows the associated-data toast with the server’s reason and the article stays', async () => {
    const fake = fakeCatalogo({ eliminararticulo: () => ({ RESULT: '2', message: 'Usado en documentos' }) });
    const { toasts } = renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Eliminar' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminar artículo' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(toasts).toContain('associated:Usado en documentos'));
    expect(bodiesOf(fake.calls, 'eliminararticulo')).toEqual([{ id: 7 }]);
    expect(currentPath()).toBe('/catalogo/articulo/7');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a deleted article goes back to the list', async () => {
    const fake = fakeCatalogo({ eliminararticulo: () => ({ RESULT: '0', data: [] }) });
    renderSection(Section, menu.prefix, '/catalogo/articulo/7', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Eliminar' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(currentPath()).toBe('/catalogo/articulos'));
  });

  it('an unknown article shows the not-found panel', async () => {
    renderSection(Section, menu.prefix, '/catalogo/articulo/12345', { api: fakeCatalogo().api });
    expect(await screen.findByText('Artículo no encontrado')).toBeTruthy();
  });
});
