import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiHttpError } from '../../api/client';
import { DOCUMENTO_TIPOS, type Documento, type DocumentoLinea } from '../../domain/documentos';
import { clearListStates } from '../../hooks/useApi';
import { bodiesOf, createFakeApi, fakeDocumento, renderWithShell } from '../../testing';
// The implementations themselves; the public components are their lazy wrappers (last test).
import { DocumentActions as LazyDocumentActions } from '../DocumentActions';
import DocumentActions from '../DocumentActionsImpl';
import DocumentListPage from '../DocumentListPageImpl';
import { DocumentRecordPage as LazyDocumentRecordPage } from '../DocumentRecordPage';
import DocumentRecordPage from '../DocumentRecordPageImpl';
import { EditorLineas as EditorLineasDiferido } from '../EditorLineas';
import EditorLineas from '../EditorLineasImpl';
import { lineaDesdeArticulo } from '../lineas';
import type { PantallaDocumento } from '../pantalla';
import { TERCEROS, TerceroField } from '../terceros';
import { useDocumentEditor, type DocumentEditor } from '../useDocumentEditor';
import { ARTICULOS, articulosHandler } from './fixtures';

const pdf = vi.hoisted(() => ({ calls: [] as unknown[][] }));
vi.mock('../../io/documentosPdf', async (orig) => ({
  ...(await orig<object>()),
  downloadDocumentosPdf: async (...args: unknown[]) => {
    pdf.calls.push(args);
  },
}));

afterEach(() => {
  cleanup();
  clearListStates();
});

const linea = (id: number, articulo: number, cantidad: number, pendiente: number): DocumentoLinea => ({
  id,
  orden: id,
  articulo_id: articulo,
  codigo: ARTICULOS[articulo - 1].codigo,
  descripcion: ARTICULOS[articulo - 1].descripcion,
  tipo_iva: '21',
  cantidad,
  precio: 1250,
  descuento: 0,
  pendiente,
  ubicacion_id: null,
  motivo: null,
  teorico: null,
});

function documento(over: Partial<Documento> = {}): Documento {
  return fakeDocumento({
    id: 7,
    tipo: 'movimiento',
    numero: 'MOV 2026/000007',
    estado: 'creado',
    almacen_destino_id: 2,
    almacen_destino_nombre: 'Tienda',
    base: 1250,
    iva: 0,
    total: 1250,
    desglose: [],
    lineas: [linea(11, 1, 5000, 0), linea(12, 2, 2000, 0)],
    ...over,
  });
}

describe('DocumentActions', () => {
  it('shows the state and exactly the actions the table allows from it', () => {
    const mov = DOCUMENTO_TIPOS.movimiento;
    const { unmount } = renderWithShell(<DocumentActions def={mov} documento={documento()} onChange={() => {}} />);
    const bar = screen.getByRole('group', { name: 'Estado y acciones del documento' });
    expect(within(bar).getByText('Creado')).toBeTruthy();
    expect(within(bar).getAllByRole('button').map((b) => b.textContent)).toEqual(['Enviar']);
    unmount();
    renderWithShell(<DocumentActions def={mov} documento={documento({ estado: 'recibido_parcial' })} onChange={() => {}} />);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Recibir', 'Deshacer recepción']);
    expect(screen.getByText('Recibido parcial')).toBeTruthy();
  });

  it('asks before an action with a confirmation, then hands back the document the server returns', async () => {
    const enviado = documento({ estado: 'enviado' });
    const fake = createFakeApi({ enviarmovimiento: () => ({ RESULT: '0', data: [enviado] }) });
    const onChange = vi.fn();
    const { toasts } = renderWithShell(<DocumentActions def={DOCUMENTO_TIPOS.movimiento} documento={documento()} onChange={onChange} />, { api: fake.api });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    const dialog = screen.getByRole('dialog', { name: 'Enviar' });
    expect(dialog.textContent).toContain('El stock saldrá del almacén de origen y quedará en tránsito.');
    expect(bodiesOf(fake.calls, 'enviarmovimiento')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(enviado));
    expect(bodiesOf(fake.calls, 'enviarmovimiento')).toEqual([{ id: 7 }]);
    expect(toasts).toEqual(['success:']);
  });

  it('waits while there are unsaved changes', () => {
    renderWithShell(<DocumentActions def={DOCUMENTO_TIPOS.movimiento} documento={documento()} onChange={() => {}} disabled disabledReason="Guarde los cambios antes." />);
    expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Guarde los cambios antes.')).toBeTruthy();
  });

  it('receives by lines: all pending by default, some, or Ausente (0)', async () => {
    const enviado = documento({ estado: 'enviado', lineas: [linea(11, 1, 5000, 5000), linea(12, 2, 2000, 2000), linea(13, 3, 1000, 0)] });
    const fake = createFakeApi({ recibirmovimiento: () => ({ RESULT: '0', data: [documento({ estado: 'recibido_parcial' })] }) });
    const onChange = vi.fn();
    renderWithShell(<DocumentActions def={DOCUMENTO_TIPOS.movimiento} documento={enviado} onChange={onChange} />, { api: fake.api });
    fireEvent.click(screen.getByRole('button', { name: 'Recibir' }));
    const dialog = screen.getByRole('dialog', { name: 'Recibir' });
    // The line with nothing pending is not offered.
    expect(within(dialog).getAllByRole('row')).toHaveLength(3);
    const tor = within(dialog).getByLabelText('Cantidad recibida de TOR-6') as HTMLInputElement;
    expect(tor.value).toBe('5');
    // It opens on its first field, the first quantity; the page behind is inert while it is open.
    expect(document.activeElement).toBe(tor);
    const detras = screen.getAllByRole('button', { name: 'Recibir', hidden: true }).find((b) => !dialog.contains(b));
    expect(detras?.closest('[inert]')).not.toBeNull();
    expect(dialog.closest('[inert]')).toBeNull();
    fireEvent.change(tor, { target: { value: '6' } });
    expect(within(dialog).getByRole('alert').textContent).toBe('No se puede recibir más de lo pendiente');
    expect((within(dialog).getByRole('button', { name: 'Recibir' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(tor, { target: { value: '3,5' } });
    fireEvent.click(within(dialog).getByLabelText('Ausente TUE-6'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Recibir' }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(bodiesOf(fake.calls, 'recibirmovimiento')).toEqual([
      {
        id: 7,
        lineas: [
          { id: 11, cantidad: 3500 },
          { id: 12, cantidad: 0 },
        ],
      },
    ]);
  });

  it('"Recibir todo" puts every pending quantity back', async () => {
    const enviado = documento({ estado: 'enviado', lineas: [linea(11, 1, 5000, 5000)] });
    const fake = createFakeApi({ recibirmovimiento: () => ({ RESULT: '0', data: [documento({ estado: 'recibido' })] }) });
    renderWithShell(<DocumentActions def={DOCUMENTO_TIPOS.movimiento} documento={enviado} onChange={() => {}} />, { api: fake.api });
    fireEvent.click(screen.getByRole('button', { name: 'Recibir' }));
    fireEvent.click(screen.getByLabelText('Ausente TOR-6'));
    fireEvent.click(screen.getByRole('button', { name: 'Recibir todo' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Recibir' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'recibirmovimiento')).toEqual([{ id: 7, lineas: [{ id: 11, cantidad: 5000 }] }]));
  });
});

let editor: ReturnType<typeof useDocumentEditor> | null = null;

function EditorHarness({ id }: { id?: string }) {
  const e = useDocumentEditor(DOCUMENTO_TIPOS.perdida, id);
  editor = e;
  if (e.loading) return <p>Cargando</p>;
  return (
    <>
      <input aria-label="Almacén" value={e.form.values.almacen_id ?? ''} onChange={(ev) => e.form.set('almacen_id', ev.target.value)} />
      {e.form.errors.almacen_id && <span>{e.form.errors.almacen_id}</span>}
      <EditorLineas modo="perdida" lineas={e.lineas} dispatch={e.dispatch} errores={e.lineErrors} readOnly={!e.editable} />
      <button type="button" onClick={() => void e.save()}>
        Guardar
      </button>
      <output data-testid="dirty">{e.dirty ? 'sí' : 'no'}</output>
    </>
  );
}

const perdida = (over: Partial<Documento> = {}) =>
  documento({ id: 30, tipo: 'perdida', numero: 'PER 2026/000030', estado: 'pendiente', almacen_destino_id: null, almacen_destino_nombre: null, ...over });

describe('useDocumentEditor', () => {
  it('a new document keeps one clave: a retry after a failure and a double click make one document', async () => {
    let attempts = 0;
    const fake = createFakeApi({
      listadoarticulos: articulosHandler,
      editarperdida: () => {
        attempts++;
        // The first attempt is lost on the network (the client answers RESULT 1).
        return attempts === 1 ? { RESULT: '1' } : { RESULT: '0', data: [perdida({ lineas: [{ ...linea(90, 1, 2000, 0), motivo: 'rotura' }] })] };
      },
    });
    renderWithShell(<EditorHarness />, { api: fake.api });
    fireEvent.change(screen.getByLabelText('Almacén'), { target: { value: '1' } });
    const entry = screen.getByRole('combobox', { name: 'Añadir artículo' });
    fireEvent.change(entry, { target: { value: 'TOR-6' } });
    fireEvent.keyDown(entry, { key: 'Enter' });
    await screen.findByTestId('linea-1');
    fireEvent.change(screen.getByLabelText('Cantidad de la línea 1'), { target: { value: '2' } });
    // Motivo is required for pérdidas: checked before sending.
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Indique el motivo de la pérdida')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarperdida')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Motivo de la línea 1'), { target: { value: 'rotura' } });
    expect(screen.getByTestId('dirty').textContent).toBe('sí');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(attempts).toBe(1));
    // The retry, clicked twice: one more request.
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(editor?.documento?.id).toBe(30));
    const bodies = bodiesOf(fake.calls, 'editarperdida');
    expect(bodies).toHaveLength(2);
    expect(typeof bodies[0].clave).toBe('string');
    expect(bodies[1].clave).toBe(bodies[0].clave);
    expect(bodies[1]).toMatchObject({ almacen_id: 1, lineas: [{ articulo_id: 1, cantidad: 2000, motivo: 'rotura', ubicacion_id: null }] });
    expect(bodies[1]).not.toHaveProperty('precio');
    expect(screen.getByTestId('dirty').textContent).toBe('no');
  });

  it('loads a document, saves it with its id, and shows the server’s errors on the lines', async () => {
    const fake = createFakeApi({
      listadoperdidas: () => ({ RESULT: '0', data: [perdida({ lineas: [{ ...linea(90, 1, 2000, 0), motivo: 'robo' }] })] }),
      editarperdida: () => {
        throw new ApiHttpError(400, { RESULT: '1', errors: { 'lineas.0.articulo_id': 'El artículo no existe', almacen_id: 'El almacén no existe' } });
      },
    });
    renderWithShell(<EditorHarness id="30" />, { api: fake.api });
    await screen.findByTestId('linea-1');
    expect(fake.calls[0]).toMatchObject({ ac: 'listadoperdidas', params: { id: '30' } });
    expect((screen.getByLabelText('Motivo de la línea 1') as HTMLSelectElement).value).toBe('robo');
    expect(screen.getByTestId('dirty').textContent).toBe('no');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El artículo no existe')).toBeTruthy();
    expect(screen.getByText('El almacén no existe')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarperdida')[0]).toMatchObject({ id: 30, lineas: [{ articulo_id: 1, cantidad: 2000, motivo: 'robo' }] });
    expect(bodiesOf(fake.calls, 'editarperdida')[0]).not.toHaveProperty('clave');
  });

  it('a finished document is read-only', async () => {
    const fake = createFakeApi({ listadoperdidas: () => ({ RESULT: '0', data: [perdida({ estado: 'finalizado' })] }) });
    renderWithShell(<EditorHarness id="30" />, { api: fake.api });
    await screen.findByTestId('linea-1');
    expect(editor?.editable).toBe(false);
    expect(editor?.eliminable).toBe(false);
    expect(screen.queryByRole('combobox', { name: 'Añadir artículo' })).toBeNull();
  });

  it('a pending document other documents come from (its hijos) is read-only: the server refuses to rewrite or remove it', async () => {
    const fake = createFakeApi({
      listadoperdidas: () => ({ RESULT: '0', data: [perdida({ hijos: [{ tipo: 'perdida', id: 31, numero: 'PER 2026/000002' }] })] }),
    });
    renderWithShell(<EditorHarness id="30" />, { api: fake.api });
    await screen.findByTestId('linea-1');
    expect(editor?.documento?.estado).toBe('pendiente');
    expect(editor?.editable).toBe(false);
    expect(editor?.eliminable).toBe(false);
  });
});

const ALMACENES = { options: [{ value: '1', label: 'Central' }, { value: '2', label: 'Tienda' }], loading: false };
const pantallaDe = <C extends string>(tipo: 'movimiento' | 'pedidocompra', campos: readonly C[]): PantallaDocumento<C> => ({
  def: DOCUMENTO_TIPOS[tipo],
  list: '/lista',
  nuevo: '/lista/nuevo',
  record: (id) => `/lista/${id}`,
  nuevoLabel: 'Nuevo documento',
  description: '',
  campos,
});

function Pagina<C extends string>({ p, id, sinGuardar }: { p: PantallaDocumento<C>; id?: string; sinGuardar?: boolean }) {
  const e = useDocumentEditor(p.def, id);
  editor = e;
  return (
    <DocumentRecordPage
      pantalla={p}
      editor={e}
      almacenes={ALMACENES}
      imprimir={{ onClick: () => {}, sinGuardar }}
      renderCampo={(campo, disabled) => <input aria-label={`Propio ${campo}`} disabled={disabled} />}
    />
  );
}

describe('DocumentRecordPage', () => {
  it("draws the common header fields from campos, in order, with the section's own in their place", () => {
    const p = pantallaDe('pedidocompra', ['proveedor_id', 'serie_id', 'almacen_id', 'fecha', 'fecha_entrega', 'forma_pago', 'retencion', 'observaciones']);
    renderWithShell(<Pagina p={p} />);
    expect(screen.getByRole('heading', { name: 'Nuevo documento' })).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Nuevo documento' });
    // A required field's label ends in an asterisk (hidden from its accessible name).
    const campo = (l: string) => within(form).getByLabelText(new RegExp(`^${l}\\*?$`));
    const labels = ['Propio serie_id', 'Almacén', 'Fecha', 'Fecha de entrega', 'Forma de pago', '% Retención', 'Observaciones'];
    // The party is a common field: a search of suppliers.
    const fields = [within(form).getByRole('combobox', { name: /^Proveedor/ }), ...labels.map(campo)];
    for (let i = 1; i < fields.length; i++) expect(fields[i - 1].compareDocumentPosition(fields[i]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect((campo('Fecha de entrega') as HTMLInputElement).type).toBe('date');
    expect((campo('% Retención') as HTMLSelectElement).value).toBe('0');
    expect(screen.queryByRole('button', { name: 'Imprimir' })).toBeNull();
    expect(within(form).getByRole('heading', { name: 'Datos del pedido de compra' })).toBeTruthy();
    expect(within(form).getByRole('combobox', { name: 'Añadir artículo' })).toBeTruthy();
  });

  it('a saved document: its state bar, «Imprimir» that waits for the changes to be saved (unless it prints the screen), deletion', async () => {
    const fake = createFakeApi({ listadomovimientos: () => ({ RESULT: '0', data: [documento()] }) });
    const p = pantallaDe('movimiento', ['almacen_id', 'almacen_destino_id', 'fecha']);
    const { unmount } = renderWithShell(<Pagina p={p} id="7" />, { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Traspaso MOV 2026/000007' })).toBeTruthy();
    expect(screen.getByLabelText(/^Almacén de origen/)).toBeTruthy();
    expect(screen.getByLabelText(/^Almacén de destino/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enviar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Eliminar' })).toBeTruthy();
    const imprimir = () => screen.getByRole('button', { name: 'Imprimir' }) as HTMLButtonElement;
    expect(imprimir().disabled).toBe(false);
    fireEvent.change(screen.getByLabelText(/^Fecha\*?$/), { target: { value: '2026-03-05' } });
    expect(imprimir().disabled).toBe(true);
    expect(imprimir().title).toBe('Guarde los cambios antes.');
    unmount();
    renderWithShell(<Pagina p={p} id="7" sinGuardar />, { api: fake.api });
    await screen.findByRole('heading', { name: 'Traspaso MOV 2026/000007' });
    fireEvent.change(screen.getByLabelText(/^Fecha\*?$/), { target: { value: '2026-03-05' } });
    expect(imprimir().disabled).toBe(false);
  });
});

describe('DocumentListPage', () => {
  const filas = [documento({ lineas: undefined }), documento({ id: 8, numero: 'MOV 2026/000008', estado: 'enviado', total: 99900, lineas: undefined })];

  it('lists número, fecha, estado and value, the filtered total, and prints the selection as one PDF', async () => {
    pdf.calls.length = 0;
    const fake = createFakeApi({
      listadomovimientos: (call) =>
        call.params?.id ? { RESULT: '0', data: [documento({ id: Number(call.params.id) })] } : { RESULT: '0', data: filas, total: 2, totales: { total: 101150 } } as never,
    });
    renderWithShell(
      <DocumentListPage
        def={DOCUMENTO_TIPOS.movimiento}
        recordPath={(id) => `/almacenes/movimiento/${id}`}
        newPath="/almacenes/movimiento/nuevo-movimiento"
        almacenes={[{ value: '1', label: 'Central' }]}
      />,
      { api: fake.api },
    );
    const row = (await screen.findByText('MOV 2026/000008')).closest('tr')!;
    expect(within(row).getByText('Enviado')).toBeTruthy();
    expect(within(row).getByText('02/03/2026')).toBeTruthy();
    expect(within(row).getByText('999,00 €')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Totales del filtro' }).textContent).toContain('1.011,50 €');
    expect(screen.getByRole('button', { name: 'Nuevo traspaso' })).toBeTruthy();
    const estado = screen.getByRole('combobox', { name: 'Estado' });
    expect(within(estado).getAllByRole('option').map((o) => o.textContent)).toEqual(['Estado: todos', 'Creado', 'Enviado', 'Recibido parcial', 'Recibido']);
    fireEvent.change(estado, { target: { value: 'enviado' } });
    await waitFor(() => expect(fake.calls.at(-1)?.params).toMatchObject({ estado: 'enviado' }));
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-03-01' } });
    await waitFor(() => expect(fake.calls.at(-1)?.params).toMatchObject({ estado: 'enviado', desde: '2026-03-01' }));
    fireEvent.click(await screen.findByLabelText('Seleccionar MOV 2026/000007'));
    fireEvent.click(screen.getByLabelText('Seleccionar MOV 2026/000008'));
    fireEvent.click(screen.getByRole('button', { name: 'Imprimir selección (2)' }));
    await waitFor(() => expect(pdf.calls).toHaveLength(1));
    const [docs, opts] = pdf.calls[0] as [Documento[], { fileName: string }];
    expect(docs.map((d) => d.id)).toEqual([7, 8]);
    expect(docs[0].lineas).toHaveLength(2);
    expect(opts.fileName).toBe('movimientos.pdf');
  });

  it("from a section's pantalla: its title, description and paths; columnaLineas adds how many lines each has", async () => {
    const fake = createFakeApi({ listadomovimientos: () => ({ RESULT: '0', data: [{ ...filas[1], num_lineas: 12345 }], total: 1 }) as never });
    const p = { ...pantallaDe('movimiento', []), description: 'Traspasos entre almacenes.' };
    renderWithShell(<DocumentListPage pantalla={p} columnaLineas />, { api: fake.api });
    const link = await screen.findByRole('link', { name: 'MOV 2026/000008' });
    expect(link.getAttribute('href')).toBe('/lista/8');
    expect(screen.getByRole('heading', { name: 'Traspasos' })).toBeTruthy();
    expect(screen.getByText('Traspasos entre almacenes.')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Líneas/ })).toBeTruthy();
    expect(within(link.closest('tr')!).getByText('12.345')).toBeTruthy();
  });
});

describe('lines model', () => {
  it('a new line copies the article and values it at its cost', () => {
    const l = lineaDesdeArticulo(ARTICULOS[0], 'coste');
    expect(l).toMatchObject({ articulo_id: 1, codigo: 'TOR-6', cantidad: 1000n, precio: 1250n, tipo_iva: '21' });
    expect(lineaDesdeArticulo(ARTICULOS[0], 'venta').precio).toBe(2500n);
  });
});

describe('TerceroField', () => {
  it("an error marks the search box itself invalid and describes it (the form's first error takes the focus)", () => {
    renderWithShell(<TerceroField tercero={TERCEROS.proveedor} required value="" onPick={() => {}} error="Este campo es necesario" />, {
      api: createFakeApi({}).api,
    });
    const box = screen.getByRole('combobox', { name: /Proveedor/ });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(box.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Este campo es necesario');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});

describe('the public document components', () => {
  it('load their implementation on first use (not with the login) and then render it', async () => {
    const doc = { id: 3, tipo: 'movimiento', estado: 'creado', numero: 'MOV 2026/000003', lineas: [] } as unknown as Documento;
    renderWithShell(
      <>
        <LazyDocumentActions def={DOCUMENTO_TIPOS.movimiento} documento={doc} onChange={() => {}} />
        <EditorLineasDiferido modo="coste" lineas={[]} dispatch={() => {}} />
        <LazyDocumentRecordPage
          pantalla={{ def: DOCUMENTO_TIPOS.perdida, list: '/l', nuevo: '/n', record: String, nuevoLabel: 'Nueva pérdida', description: '', campos: ['fecha'] }}
          editor={{ loading: true } as DocumentEditor}
          almacenes={{ options: [], loading: false }}
        />
      </>,
    );
    expect(await screen.findByRole('button', { name: 'Enviar' })).toBeTruthy();
    expect(await screen.findByPlaceholderText(/Código de barras/)).toBeTruthy();
    // The record page while its document loads: the spinner.
    expect(await screen.findByRole('status', { name: 'Cargando' })).toBeTruthy();
  });
});

describe('DocumentHistory', () => {
  it('shows each step of the record with who did it: created, every action (undone marked), the last change', async () => {
    const doc = documento({
      estado: 'enviado',
      creado: '2026-03-01T09:00:00.000Z',
      creado_por_nombre: 'Marta Vidal',
      modificado: '2026-03-03T10:00:00.000Z',
      modificado_por_nombre: 'Luis Gómez',
      historial: [
        { id: 1, accion: 'enviar', fecha: '2026-03-02T09:00:00.000Z', usuario_nombre: 'Luis Gómez', deshecha_por: 2 },
        { id: 2, accion: 'deshacerenvio', fecha: '2026-03-02T11:00:00.000Z', usuario_nombre: null, deshecha_por: null },
      ],
    });
    const fake = createFakeApi({ listadomovimientos: () => ({ RESULT: '0', data: [doc] }) });
    renderWithShell(<Pagina p={pantallaDe('movimiento', ['almacen_id', 'almacen_destino_id', 'fecha'])} id="7" />, { api: fake.api });
    await screen.findByRole('heading', { name: 'Traspaso MOV 2026/000007' });
    const pasos = within(screen.getByRole('list', { name: 'Historial del documento' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(pasos).toEqual([
      expect.stringMatching(/^Creado · .* · Marta Vidal$/),
      expect.stringMatching(/^Enviar \(deshecha\) · .* · Luis Gómez$/),
      expect.stringMatching(/^Deshacer envío · .* · usuario eliminado$/),
      expect.stringMatching(/^Última modificación · .* · Luis Gómez$/),
    ]);
  });
});
