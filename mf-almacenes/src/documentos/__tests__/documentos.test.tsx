import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LINEA_MENSAJES, type Documento, type DocumentoLinea } from 'shared';
import { bodiesOf, currentPath, fakeArticulos, fakeDocumento, fakeLinea, fakeListadoDocs, renderSection, type FakeCall, type FakeHandler } from 'shared/testing';
import { fakeAlmacenes } from '../../fakeAlmacenes';
import menu from '../../menu.json';
import Section from '../../section';
import { DESTINO_DISTINTO } from '../pantallas';

const pdf = vi.hoisted(() => ({ calls: [] as unknown[][] }));
vi.mock('shared', async (orig) => ({
  ...(await orig<object>()),
  downloadDocumentosPdf: async (...args: unknown[]) => {
    pdf.calls.push(args);
  },
}));

const ARTICULOS = [
  { id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', tipo_iva: '21', precio_compra: 8500, codigo_barras: '8412345678905' },
  { id: 8, codigo: 'PIN-01', descripcion: 'Bote de esmalte', tipo_iva: '21', precio_compra: 102345, codigo_barras: null },
];

const articulos: FakeHandler = fakeArticulos(ARTICULOS);

const linea = (id: number, art: (typeof ARTICULOS)[number], cantidad: number, over: Partial<DocumentoLinea> = {}): DocumentoLinea =>
  fakeLinea(id, { ...art, tipo_iva: '21' }, cantidad, art.precio_compra, over);

function doc(over: Partial<Documento>): Documento {
  return fakeDocumento({
    id: 5,
    tipo: 'movimiento',
    numero: 'MOV 2026/000005',
    estado: 'creado',
    almacen_destino_id: 2,
    almacen_destino_nombre: 'Furgoneta norte',
    base: 0,
    iva: 0,
    total: 4250,
    desglose: [],
    num_lineas: 1,
    lineas: [linea(51, ARTICULOS[0], 5000)],
    ...over,
  });
}

/** listado<plural>: one document with `id`, else the list (without lines) and its totales. */
const listado = (docs: Documento[]): FakeHandler => fakeListadoDocs(docs, []);

const saved = (over: Partial<Documento>) => (call: FakeCall) => {
  const body = call.body as { lineas: { articulo_id: number; cantidad: number; motivo?: string }[] };
  return {
    RESULT: '0' as const,
    data: [doc({ ...over, lineas: body.lineas.map((l, i) => linea(60 + i, ARTICULOS.find((a) => a.id === l.articulo_id)!, l.cantidad, { motivo: (l.motivo ?? null) as never })) })],
  };
};

const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`)) as HTMLInputElement;
const scan = async (code: string, n: number) => {
  // The lines editor loads lazily with the first document screen.
  const entry = await screen.findByRole('combobox', { name: 'Añadir artículo' });
  fireEvent.change(entry, { target: { value: code } });
  fireEvent.keyDown(entry, { key: 'Enter' });
  await screen.findByTestId(`linea-${n}`);
};
const almacenesLoaded = (label = 'Almacén') => waitFor(() => expect(within(field(label)).getByRole('option', { name: 'Central' })).toBeTruthy());

describe('Movimientos', () => {
  it('lists movimientos with origin, destination, state and value, and opens one', async () => {
    const fake = fakeAlmacenes({ listadomovimientos: listado([doc({}), doc({ id: 6, numero: 'MOV 2026/000006', estado: 'enviado', total: 1000 })]) });
    renderSection(Section, menu.prefix, '/almacenes/movimientos', { api: fake.api });
    const row = (await screen.findByText('MOV 2026/000006')).closest('tr')!;
    expect(within(row).getByText('Enviado')).toBeTruthy();
    expect(within(row).getByText('Furgoneta norte')).toBeTruthy();
    expect(within(row).getByText('10,00 €')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Totales del filtro' }).textContent).toContain('52,50 €');
    fireEvent.click(within(row).getByText('MOV 2026/000006'));
    await waitFor(() => expect(currentPath()).toBe('/almacenes/movimiento/6'));
    expect(await screen.findByRole('heading', { name: 'Traspaso MOV 2026/000006' })).toBeTruthy();
  });

  it('creates a movimiento: origin and destination must differ, lines by code, one clave', async () => {
    const fake = fakeAlmacenes({ listadoarticulos: articulos, listadomovimientos: listado([]), editarmovimiento: saved({ id: 9, numero: 'MOV 2026/000009' }) });
    renderSection(Section, menu.prefix, '/almacenes/movimiento/nuevo-movimiento', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nuevo traspaso' })).toBeTruthy();
    await almacenesLoaded('Almacén de origen');
    // A new document starts in the main warehouse (the first active one), without counting as a change.
    await waitFor(() => expect(field('Almacén de origen').value).toBe('1'));
    expect(field('Almacén de destino').value).toBe('');
    expect(screen.queryByText('Cambios sin guardar')).toBeNull();
    fireEvent.change(field('Almacén de destino'), { target: { value: '1' } });
    await scan('TOR-M4', 1);
    fireEvent.change(screen.getByLabelText('Cantidad de la línea 1'), { target: { value: '12,5' } });
    expect(screen.getByTestId('total').textContent).toBe('10,63 €');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(DESTINO_DISTINTO)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarmovimiento')).toHaveLength(0);
    fireEvent.change(field('Almacén de destino'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(currentPath()).toBe('/almacenes/movimiento/9'));
    const [body] = bodiesOf(fake.calls, 'editarmovimiento');
    expect(body).toMatchObject({ almacen_id: 1, almacen_destino_id: 2, lineas: [{ articulo_id: 7, cantidad: 12500, ubicacion_id: null }] });
    expect(body.fecha).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof body.clave).toBe('string');
  });

  it('a sent movimiento is read-only and is received by lines', async () => {
    const enviado = doc({ id: 6, numero: 'MOV 2026/000006', estado: 'enviado', lineas: [linea(51, ARTICULOS[0], 5000, { pendiente: 5000 }), linea(52, ARTICULOS[1], 2000, { pendiente: 2000 })] });
    const fake = fakeAlmacenes({
      listadomovimientos: listado([enviado]),
      recibirmovimiento: () => ({ RESULT: '0', data: [{ ...enviado, estado: 'recibido_parcial' }] }),
    });
    renderSection(Section, menu.prefix, '/almacenes/movimiento/6', { api: fake.api });
    const bar = await screen.findByRole('group', { name: 'Estado y acciones del documento' });
    expect(within(bar).getAllByRole('button').map((b) => b.textContent)).toEqual(['Deshacer envío', 'Recibir']);
    expect(screen.queryByRole('combobox', { name: 'Añadir artículo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    fireEvent.click(within(bar).getByRole('button', { name: 'Recibir' }));
    const dialog = screen.getByRole('dialog', { name: 'Recibir' });
    fireEvent.change(within(dialog).getByLabelText('Cantidad recibida de TOR-M4'), { target: { value: '4' } });
    fireEvent.click(within(dialog).getByLabelText('Ausente PIN-01'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Recibir' }));
    await waitFor(() => expect(within(bar).getByText('Recibido parcial')).toBeTruthy());
    expect(bodiesOf(fake.calls, 'recibirmovimiento')).toEqual([
      {
        id: 6,
        lineas: [
          { id: 51, cantidad: 4000 },
          { id: 52, cantidad: 0 },
        ],
      },
    ]);
  });

  it('prints the movimiento', async () => {
    pdf.calls.length = 0;
    const fake = fakeAlmacenes({ listadomovimientos: listado([doc({})]) });
    renderSection(Section, menu.prefix, '/almacenes/movimiento/5', { api: fake.api });
    fireEvent.click(await screen.findByRole('button', { name: 'Imprimir' }));
    await waitFor(() => expect(pdf.calls).toHaveLength(1));
    const [docs, opts] = pdf.calls[0] as [Documento[], { fileName: string; variante: string }];
    expect(docs[0].numero).toBe('MOV 2026/000005');
    expect(opts).toMatchObject({ fileName: 'MOV-2026-000005.pdf', variante: 'documento' });
  });
});

describe('Inventarios', () => {
  const teoricas = [
    { articulo_id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', teorico: 12500 },
    { articulo_id: 8, codigo: 'PIN-01', descripcion: 'Bote de esmalte', teorico: 3000 },
  ];

  it('starts from the theoretical stock, counts by scanning and saves the counts', async () => {
    const fake = fakeAlmacenes({
      listadoarticulos: articulos,
      listadoinventarios: listado([]),
      listadofamilias: () => ({ RESULT: '0', data: [{ id: 3, codigo: 'TOR', nombre: 'Tornillería', activo: 1 }], total: 1 }),
      lineasteoricasinventario: () => ({ RESULT: '0', data: teoricas }),
      editarinventario: saved({ id: 12, tipo: 'inventario', numero: 'INV 2026/000012', estado: 'pendiente', almacen_destino_id: null }),
    });
    renderSection(Section, menu.prefix, '/almacenes/inventario/nuevo-inventario', { api: fake.api });
    await almacenesLoaded();
    await waitFor(() => expect(field('Almacén').value).toBe('1'));
    fireEvent.change(field('Almacén'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cargar stock teórico' }));
    expect(await screen.findByText('Elija el almacén antes de cargar su stock')).toBeTruthy();
    fireEvent.change(field('Almacén'), { target: { value: '1' } });
    await waitFor(() => expect(within(field('Familia')).getByRole('option', { name: 'Tornillería' })).toBeTruthy());
    fireEvent.change(field('Familia'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cargar stock teórico' }));
    await screen.findByTestId('linea-2');
    expect(fake.calls.find((c) => c.ac === 'lineasteoricasinventario')?.params).toMatchObject({ almacen_id: '1', familia_id: '3' });
    expect(screen.getByTestId('linea-1').textContent).toContain('12,5');
    // Issue 17: «Contado» starts empty beside the theoretical stock, so a scan counts from nothing — never 12,5 + 1.
    const contado = (n: number) => (screen.getByLabelText(`Contado de la línea ${n}`) as HTMLInputElement).value;
    expect([contado(1), contado(2)]).toEqual(['', '']);
    await scan('8412345678905', 1);
    await waitFor(() => expect(contado(1)).toBe('1'));
    await scan('8412345678905', 1);
    await waitFor(() => expect(contado(1)).toBe('2'));
    expect(screen.getByTestId('linea-1').textContent).toContain('-10,5');
    // A line not counted yet is not saved as if it were: it says so.
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(LINEA_MENSAJES.sinContar)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarinventario')).toEqual([]);
    fireEvent.change(screen.getByLabelText('Contado de la línea 2'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(currentPath()).toBe('/almacenes/inventario/12'));
    expect(bodiesOf(fake.calls, 'editarinventario')[0]).toMatchObject({
      almacen_id: 1,
      familia_id: 3,
      lineas: [
        { articulo_id: 7, cantidad: 2000 },
        { articulo_id: 8, cantidad: 3000 },
      ],
    });
  });

  it('prints the blank count sheet from the theoretical articles when there are no lines yet', async () => {
    pdf.calls.length = 0;
    const fake = fakeAlmacenes({ listadoinventarios: listado([]), lineasteoricasinventario: () => ({ RESULT: '0', data: teoricas }) });
    renderSection(Section, menu.prefix, '/almacenes/inventario/nuevo-inventario', { api: fake.api });
    await almacenesLoaded();
    fireEvent.change(field('Almacén'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Imprimir hoja de recuento' }));
    await waitFor(() => expect(pdf.calls).toHaveLength(1));
    const [docs, opts] = pdf.calls[0] as [Documento[], { variante: string }];
    expect(opts.variante).toBe('recuento');
    expect(docs[0].lineas?.map((l) => l.codigo)).toEqual(['TOR-M4', 'PIN-01']);
    expect(docs[0].almacen_nombre).toBe('Central');
  });

  it('a finished inventory offers its differences as a PDF and the undo', async () => {
    pdf.calls.length = 0;
    const fin = doc({ id: 12, tipo: 'inventario', numero: 'INV 2026/000012', estado: 'finalizado', almacen_destino_id: null, lineas: [linea(70, ARTICULOS[0], 11000, { teorico: 12500 })] });
    const fake = fakeAlmacenes({ listadoinventarios: listado([fin]) });
    renderSection(Section, menu.prefix, '/almacenes/inventario/12', { api: fake.api });
    const bar = await screen.findByRole('group', { name: 'Estado y acciones del documento' });
    expect(within(bar).getAllByRole('button').map((b) => b.textContent)).toEqual(['Deshacer finalización']);
    expect(screen.queryByRole('button', { name: 'Cargar stock teórico' })).toBeNull();
    expect(screen.getByTestId('linea-1').textContent).toContain('-1,5');
    fireEvent.click(screen.getByRole('button', { name: 'Diferencias (PDF)' }));
    await waitFor(() => expect(pdf.calls).toHaveLength(1));
    expect(pdf.calls[0][1]).toMatchObject({ variante: 'diferencias', fileName: 'INV-2026-000012-diferencias.pdf' });
    // Issue 17: its undo asks first, like the count it undoes; cancelling sends nothing.
    fireEvent.click(within(bar).getByRole('button', { name: 'Deshacer finalización' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deshacer finalización' });
    expect(dialog.textContent).toContain('Se anulará el ajuste del recuento');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deshacer finalización' })).toBeNull());
    expect(fake.calls.some((c) => c.ac === 'deshacerfinalizacioninventario')).toBe(false);
  });
});

describe('Pérdidas', () => {
  it('a pérdida needs the motivo of each line', async () => {
    const fake = fakeAlmacenes({
      listadoarticulos: articulos,
      listadoperdidas: listado([]),
      editarperdida: saved({ id: 20, tipo: 'perdida', numero: 'PER 2026/000020', estado: 'pendiente', almacen_destino_id: null }),
    });
    renderSection(Section, menu.prefix, '/almacenes/perdida/nueva-perdida', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Nueva pérdida' })).toBeTruthy();
    await almacenesLoaded();
    fireEvent.change(field('Almacén'), { target: { value: '1' } });
    await scan('PIN-01', 1);
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Indique el motivo de la pérdida')).toBeTruthy();
    // The almacén's locations are offered per line.
    await waitFor(() => expect(within(screen.getByLabelText('Ubicación de la línea 1')).getByRole('option', { name: 'A-03-2' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText('Ubicación de la línea 1'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Motivo de la línea 1'), { target: { value: 'caducidad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(currentPath()).toBe('/almacenes/perdida/20'));
    expect(bodiesOf(fake.calls, 'editarperdida')[0]).toMatchObject({ almacen_id: 1, lineas: [{ articulo_id: 8, cantidad: 1000, motivo: 'caducidad', ubicacion_id: 20 }] });
  });

  it('every document route has its screen', async () => {
    const fake = fakeAlmacenes({ listadoperdidas: listado([]), listadoinventarios: listado([]), listadomovimientos: listado([]) });
    for (const [route, heading] of [
      ['/almacenes/perdidas', 'Pérdidas'],
      ['/almacenes/inventario', 'Inventarios'],
      ['/almacenes/movimientos', 'Traspasos'],
      ['/almacenes/inventario/nuevo-inventario', 'Nuevo inventario'],
      ['/almacenes/perdida/99', 'Pérdida no encontrada'],
    ]) {
      const { unmount } = renderSection(Section, menu.prefix, route, { api: fake.api });
      expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
      unmount();
    }
  });
});
