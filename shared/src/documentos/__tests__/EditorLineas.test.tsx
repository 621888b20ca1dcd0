import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LineaModo } from '../../domain/documentos';
import type { Operacion } from '../../domain/operaciones';
import { createFakeApi, renderWithShell } from '../../testing';
import { ARTICULOS, articulosHandler } from './fixtures';
// The implementation itself (the public EditorLineas is its lazy wrapper, tested in documentos.test.tsx).
import { useLineas } from '../EditorLineas';
import EditorLineas from '../EditorLineasImpl';
import { lineaDesdeArticulo, type LineaEditable } from '../lineas';

afterEach(cleanup);

let state: LineaEditable[] = [];

function Harness({ modo, readOnly, operacion }: { modo: LineaModo; readOnly?: boolean; operacion?: Operacion }) {
  const [lineas, dispatch] = useLineas();
  state = lineas;
  return <EditorLineas modo={modo} lineas={lineas} dispatch={dispatch} readOnly={readOnly} operacionPorDefecto={operacion} />;
}

function setup(modo: LineaModo = 'coste', operacion?: Operacion) {
  const fake = createFakeApi({ listadoarticulos: articulosHandler });
  renderWithShell(<Harness modo={modo} operacion={operacion} />, { api: fake.api });
  return { fake, entry: screen.getByRole('combobox', { name: 'Añadir artículo' }) as HTMLInputElement };
}

const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const press = (el: HTMLElement, key: string, extra: object = {}) => fireEvent.keyDown(el, { key, ...extra });
const input = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('EditorLineas', () => {
  it('a code + Intro picks the article at once and stays in the entry for the next one', async () => {
    const { entry, fake } = setup();
    entry.focus();
    type(entry, 'TOR-6');
    press(entry, 'Enter');
    await waitFor(() => expect(screen.getByTestId('linea-1').textContent).toContain('Tornillo hexagonal 6 mm'));
    expect(fake.calls.at(-1)?.params).toMatchObject({ barras: 'TOR-6' });
    expect(entry.value).toBe('');
    expect(document.activeElement).toBe(entry);
    // The search is over: no «Buscando…» left behind once the article is picked.
    expect(entry.getAttribute('aria-busy')).toBe('false');
    expect(screen.queryByText('Buscando…')).toBeNull();
    expect(input('Cantidad de la línea 1').value).toBe('1');
    // A scanned barcode works the same way.
    type(entry, '8412345678905');
    press(entry, 'Enter');
    await waitFor(() => expect(screen.getByTestId('linea-2')).toBeTruthy());
    expect(state.map((l) => [l.codigo, l.cantidad])).toEqual([
      ['TOR-6', 1000n],
      ['TOR-6', 1000n],
    ]);
  });

  it('each scan brings the entry back into view (the new row pushes it down, towards the sticky action bar)', async () => {
    const scrolled: Element[] = [];
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this);
    });
    try {
      const { entry } = setup();
      entry.focus();
      type(entry, 'TOR-6');
      press(entry, 'Enter');
      await waitFor(() => expect(screen.getByTestId('linea-1')).toBeTruthy());
      expect(document.activeElement).toBe(entry);
      expect(scrolled).toContain(entry);
    } finally {
      spy.mockRestore();
    }
  });

  it('Tab picks and goes to the quantity; Intro on the last field goes back to the next line', async () => {
    const { entry } = setup();
    entry.focus();
    type(entry, 'TUE-6');
    press(entry, 'Tab');
    await waitFor(() => expect(document.activeElement).toBe(input('Cantidad de la línea 1')));
    const cantidad = input('Cantidad de la línea 1');
    type(cantidad, '2,5');
    expect(state[0].cantidad).toBe(2500n);
    press(cantidad, 'Enter');
    expect(document.activeElement).toBe(entry);
    // Quantities are exact scaled integers; an invalid text is kept and marked, never a float.
    type(cantidad, '1,2x');
    expect(state[0].cantidad).toBe('1,2x');
    expect(cantidad.getAttribute('aria-invalid')).toBe('true');
    // Not only a red border: a message under the box, named by it.
    const aviso = within(screen.getByTestId('linea-1')).getByRole('alert');
    expect(aviso.textContent).toBe('Debe ser un número válido');
    expect(cantidad.getAttribute('aria-describedby')).toBe(aviso.id);
    type(cantidad, '3');
    expect(within(screen.getByTestId('linea-1')).queryByRole('alert')).toBeNull();
  });

  it('suggests as the user types, without Intro, ranked by relevance; Intro takes the highlighted suggestion the first time', async () => {
    const { entry, fake } = setup();
    entry.focus();
    type(entry, 'arandela');
    // No Intro: the suggestions come by themselves, and nothing is added yet.
    const list = await screen.findByRole('listbox', { name: 'Artículos encontrados' });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['ARA-6Arandela plana 6 mm0,02']);
    // The server ranks them: a code or a name that starts with the text first.
    expect(fake.calls.at(-1)?.params).toMatchObject({ q: 'arandela', orden: 'relevancia' });
    expect(state).toHaveLength(0);
    press(entry, 'Enter');
    await waitFor(() => expect(state.map((l) => l.codigo)).toEqual(['ARA-6']));
    // Several matches: the first is highlighted, and Intro takes it at once (no second Intro).
    type(entry, 'tor');
    type(entry, '6 mm');
    await waitFor(() => expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(3));
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0].getAttribute('aria-selected')).toBe('true');
    press(entry, 'Enter');
    await waitFor(() => expect(state.map((l) => l.codigo)).toEqual(['ARA-6', 'TOR-6']));
    expect(screen.queryByRole('listbox')).toBeNull();
    // Picked from the list: its quantity is next.
    await waitFor(() => expect(document.activeElement).toBe(input('Cantidad de la línea 2')));
  });

  it('each suggestion shows the price the line would take and the stock', async () => {
    const fake = createFakeApi({
      listadoarticulos: (call) => {
        if (call.params?.barras !== undefined) return { RESULT: '0', data: [], total: 0 };
        return {
          RESULT: '0',
          data: [
            { ...ARTICULOS[0], stock_total: 12500 },
            { ...ARTICULOS[3], stock_total: -2000 },
          ],
          total: 2,
        };
      },
    });
    renderWithShell(<Harness modo="venta" />, { api: fake.api });
    const entry = screen.getByRole('combobox', { name: 'Añadir artículo' });
    type(entry, 'to');
    const opciones = within(await screen.findByRole('listbox')).getAllByRole('option');
    // Sale lines: the sale price (ten-thousandths: 2500 → 0,25), the stock in units (thousandths).
    expect(within(opciones[0]).getByTitle('Precio unitario').textContent).toBe('0,25');
    expect(within(opciones[0]).getByTitle('Stock').textContent).toBe('Stock 12,5');
    expect(within(opciones[1]).getByTitle('Precio unitario').textContent).toBe('20,00');
    expect(within(opciones[1]).getByTitle('Stock').textContent).toBe('Stock -2');
  });

  it('Ctrl+Intro adds the line and stays in the entry, from the list or from a line', async () => {
    const { entry } = setup();
    entry.focus();
    type(entry, '6 mm');
    await waitFor(() => expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(3));
    press(entry, 'ArrowDown');
    press(entry, 'ArrowDown');
    // Intro from the list would go to the quantity; Ctrl+Intro adds and stays here.
    press(entry, 'Enter', { ctrlKey: true });
    await waitFor(() => expect(state.map((l) => l.codigo)).toEqual(['TUE-6']));
    expect(document.activeElement).toBe(entry);
    expect(entry.value).toBe('');
    // From a line's field (not its last): Ctrl+Intro ends the line, back to the entry.
    const cantidad = input('Cantidad de la línea 1');
    cantidad.focus();
    press(cantidad, 'Enter', { ctrlKey: true });
    expect(document.activeElement).toBe(entry);
    // ⌘+Intro on a Mac too.
    type(entry, 'ARA-6');
    press(entry, 'Enter', { metaKey: true });
    await waitFor(() => expect(state.map((l) => l.codigo)).toEqual(['TUE-6', 'ARA-6']));
    expect(document.activeElement).toBe(entry);
  });

  it('a scanner typing a code and Intro at once adds that article, not a suggestion', async () => {
    const { entry } = setup();
    entry.focus();
    type(entry, '6 mm');
    await screen.findByRole('listbox');
    type(entry, 'TUE-6');
    press(entry, 'Enter');
    await waitFor(() => expect(state.map((l) => l.codigo)).toEqual(['TUE-6']));
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('words of the description open a list to choose with the arrows', async () => {
    const { entry, fake } = setup();
    entry.focus();
    type(entry, '6 mm');
    press(entry, 'Enter');
    const list = await screen.findByRole('listbox', { name: 'Artículos encontrados' });
    expect(within(list).getAllByRole('option')).toHaveLength(3);
    expect(fake.calls.at(-1)?.params).toMatchObject({ q: '6 mm', porPagina: 10 });
    // Opened with the first option highlighted: ↓ lands on it, the next ↓ on the second.
    expect(within(list).getAllByRole('option')[0].getAttribute('aria-selected')).toBe('true');
    press(entry, 'ArrowDown');
    expect(within(list).getAllByRole('option')[0].getAttribute('aria-selected')).toBe('true');
    press(entry, 'ArrowDown');
    expect(within(list).getAllByRole('option')[1].getAttribute('aria-selected')).toBe('true');
    press(entry, 'Enter');
    await waitFor(() => expect(state.map((l) => l.codigo)).toEqual(['TUE-6']));
    expect(screen.queryByRole('listbox')).toBeNull();
    // Chosen from the list: the quantity is next.
    await waitFor(() => expect(document.activeElement).toBe(input('Cantidad de la línea 1')));
  });

  it('says so in Spanish when nothing matches', async () => {
    const { entry } = setup();
    type(entry, 'zzz');
    press(entry, 'Enter');
    expect((await screen.findByRole('alert')).textContent).toBe('No se ha encontrado ningún artículo con «zzz»');
    expect(state).toHaveLength(0);
  });

  it('recuento: scanning the same article twice counts 2, and typing a count overrides it', async () => {
    const { entry } = setup('recuento');
    for (let i = 0; i < 2; i++) {
      type(entry, '8412345678905');
      press(entry, 'Enter');
      await waitFor(() => expect(state[0]?.cantidad).toBe(BigInt((i + 1) * 1000)));
    }
    expect(state).toHaveLength(1);
    const contado = input('Contado de la línea 1');
    expect(contado.value).toBe('2');
    type(contado, '7');
    expect(state[0].cantidad).toBe(7000n);
    type(entry, 'TOR-6');
    press(entry, 'Enter');
    await waitFor(() => expect(state[0].cantidad).toBe(8000n));
    expect(input('Contado de la línea 1').value).toBe('8');
  });

  it('pastes rows from a spreadsheet and reports the unknown codes', async () => {
    const { entry } = setup();
    fireEvent.paste(entry, { clipboardData: { getData: () => 'Código\tCantidad\nTOR-6\t3\nNOEXISTE\t2\nARA-6;1,5\n' } });
    await waitFor(() => expect(state).toHaveLength(2));
    expect(state.map((l) => [l.codigo, l.cantidad])).toEqual([
      ['TOR-6', 3000n],
      ['ARA-6', 1500n],
    ]);
    expect(screen.getByRole('alert').textContent).toBe('Se han añadido 2 líneas. No se ha encontrado el código NOEXISTE.');
  });

  it('deletes and moves lines', async () => {
    const { entry } = setup();
    for (const code of ['TOR-6', 'TUE-6', 'ARA-6']) {
      type(entry, code);
      press(entry, 'Enter');
      await waitFor(() => expect(state.at(-1)?.codigo).toBe(code));
    }
    fireEvent.click(screen.getByRole('button', { name: 'Bajar la línea 1' }));
    expect(state.map((l) => l.codigo)).toEqual(['TUE-6', 'TOR-6', 'ARA-6']);
    fireEvent.click(screen.getByRole('button', { name: 'Subir la línea 3' }));
    expect(state.map((l) => l.codigo)).toEqual(['TUE-6', 'ARA-6', 'TOR-6']);
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar la línea 1' }));
    expect(state.map((l) => l.codigo)).toEqual(['ARA-6', 'TOR-6']);
    expect((screen.getByRole('button', { name: 'Subir la línea 1' }) as HTMLButtonElement).disabled).toBe(true);
    // Alt+↓ moves the line from the keyboard and keeps the focus on it.
    input('Cantidad de la línea 1').focus();
    press(input('Cantidad de la línea 1'), 'ArrowDown', { altKey: true });
    expect(state.map((l) => l.codigo)).toEqual(['TOR-6', 'ARA-6']);
    await waitFor(() => expect(document.activeElement).toBe(input('Cantidad de la línea 2')));
  });

  it('totals at cost update as the quantity is typed', async () => {
    const { entry } = setup();
    type(entry, 'TOR-6');
    press(entry, 'Enter');
    await waitFor(() => expect(screen.getByTestId('total').textContent).toBe('0,13 €'));
    type(input('Cantidad de la línea 1'), '10');
    expect(screen.getByTestId('total').textContent).toBe('1,25 €');
    // A price with more than two decimals shows its four ('0,1250'), never three beside two-decimal amounts.
    expect(screen.getByTestId('linea-1').textContent).toContain('0,12501,25 €');
    expect(screen.getByTestId('linea-1').textContent).not.toMatch(/0,125(?!0)/);
  });

  it('venta: price, discount and IVA per line, totals by rate', async () => {
    const { entry } = setup('venta');
    type(entry, 'TOR-6');
    press(entry, 'Enter');
    await waitFor(() => expect(state).toHaveLength(1));
    type(entry, 'LIB-1');
    press(entry, 'Enter');
    await waitFor(() => expect(state).toHaveLength(2));
    type(input('Cantidad de la línea 1'), '4');
    type(input('Descuento de la línea 1'), '10');
    // 4 × 0,25 − 10 % = 0,90 at 21 %; 20,00 at 4 %: IVA 0,19 + 0,80.
    const totales = screen.getByLabelText('Totales');
    expect(totales.textContent).toContain('Base imponible20,90 €');
    expect(screen.getByTestId('total').textContent).toBe('21,89 €');
    fireEvent.change(screen.getByLabelText('IVA de la línea 2'), { target: { value: '21' } });
    expect(screen.getByTestId('total').textContent).toBe('25,29 €');
    // Prices read like the amounts: two decimals ('0,25', '20,00'), four only when they have them.
    fireEvent.blur(input('Precio de la línea 1'));
    expect(input('Precio de la línea 1').value).toBe('0,25');
    expect(input('Precio de la línea 2').value).toBe('20,00');
    type(input('Precio de la línea 1'), '0,125');
    fireEvent.blur(input('Precio de la línea 1'));
    expect(input('Precio de la línea 1').value).toBe('0,1250');
  });

  it('venta: each line says its operation (S1 by default); an S2 or E5 line charges no IVA and the totals name it', async () => {
    const { entry } = setup('venta');
    type(entry, 'LIB-1');
    press(entry, 'Enter');
    await waitFor(() => expect(state).toHaveLength(1));
    const op = screen.getByLabelText('Operación de la línea 1') as HTMLSelectElement;
    expect(op.value).toBe('S1');
    // 20,00 at 4 %: 20,80 €; as a reverse charge (S2) the customer pays the tax: 20,00 €.
    expect(screen.getByTestId('total').textContent).toBe('20,80 €');
    fireEvent.change(op, { target: { value: 'S2' } });
    expect(state[0].operacion).toBe('S2');
    expect(screen.getByTestId('total').textContent).toBe('20,00 €');
    expect(screen.getByLabelText('Totales').textContent).toContain('Base Inversión del sujeto pasivo20,00 €');
    fireEvent.change(op, { target: { value: 'E5' } });
    expect(screen.getByLabelText('Totales').textContent).toContain('Base Exenta art. 25 (intracomunitaria)20,00 €');
  });

  it("venta: a new line takes the customer's operation when its article has none (an export customer: E2)", async () => {
    const { entry } = setup('venta', 'E2');
    type(entry, 'LIB-1');
    press(entry, 'Enter');
    await waitFor(() => expect(state).toHaveLength(1));
    expect(state[0].operacion).toBe('E2');
    expect((screen.getByLabelText('Operación de la línea 1') as HTMLSelectElement).value).toBe('E2');
    expect(screen.getByTestId('total').textContent).toBe('20,00 €');
  });

  it('a negative line (a rectificativa by differences): its recargo and retención are shown, so the figures add up to the total', () => {
    // −4 × 10,00 at 21 %: IVA −8,40, R.E. −2,08; retención 15 % of −40,00 gives back 6,00: −44,48 €.
    const l = lineaDesdeArticulo(ARTICULOS[0], 'venta', { cantidad: -4000n, precio: 100000n });
    renderWithShell(<EditorLineas modo="venta" lineas={[l]} dispatch={() => {}} readOnly opcionesTotales={{ recargo: true, retencion: 1500 }} />);
    const totales = screen.getByLabelText('Totales');
    expect(totales.textContent).toContain('Recargo de equivalencia-2,08 €');
    expect(totales.textContent).toContain('Retención6,00 €');
    expect(screen.getByTestId('total').textContent).toBe('-44,48 €');
  });

  it("a line's error about what has no cell (the line it comes from) shows on its row", () => {
    const l = lineaDesdeArticulo(ARTICULOS[0], 'compra');
    renderWithShell(
      <EditorLineas modo="compra" lineas={[l]} dispatch={() => {}} errores={{ 'lineas.0.origen_linea_id': 'La línea de origen es de otro proveedor', 'lineas.0.cantidad': 'Cantidad no válida' }} />,
    );
    const row = screen.getByTestId('linea-1');
    expect(within(row).getByText('La línea de origen es de otro proveedor').getAttribute('role')).toBe('alert');
    // Each error once: the quantity's stays under its own input.
    expect(within(row).getAllByRole('alert').map((e) => e.textContent)).toEqual(['La línea de origen es de otro proveedor', 'Cantidad no válida']);
  });

  it('read-only: no inputs, no entry', () => {
    renderWithShell(<EditorLineas modo="coste" lineas={[]} dispatch={() => {}} readOnly />);
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getByText('No hay líneas')).toBeTruthy();
  });
});

describe('EditorLineas without «ver precios de compra, costes y márgenes» (issue 24)', () => {
  const almacen = { id: 1, nombre: 'Ana', email: 'ana@demo.es', rol: { id: 3, nombre: 'Almacén', clave: 'almacen' as const, derechos: { areas: { compras: ['ver', 'acciones'] as const, almacenes: ['ver'] as const }, especiales: [], descuento_maximo: 0 } } };
  const montar = (modo: LineaModo, user?: typeof almacen) => {
    const fake = createFakeApi({ listadoarticulos: articulosHandler });
    renderWithShell(<Harness modo={modo} />, { api: fake.api, ...(user ? { user } : {}) });
    return screen.getByRole('combobox', { name: 'Añadir artículo' }) as HTMLInputElement;
  };
  const cabeceras = () => screen.getAllByRole('columnheader').map((th) => th.textContent);

  for (const modo of ['compra', 'coste'] as const) {
    it(`${modo}: no price, discount, amount nor totals; quantities still typed`, async () => {
      const entry = montar(modo, almacen);
      type(entry, 'TOR-6');
      press(entry, 'Enter');
      await waitFor(() => expect(screen.getByTestId('linea-1')).toBeTruthy());
      expect(cabeceras().filter((h) => ['Precio', 'Dto. %', 'Coste', 'Importe'].includes(h ?? ''))).toEqual([]);
      expect(screen.queryByLabelText('Precio de la línea 1')).toBeNull();
      expect(input('Cantidad de la línea 1').value).toBe('1');
      expect(screen.queryByTestId('total')).toBeNull();
      cleanup();
      // The administrator (no role: everything) sees them.
      const e2 = montar(modo);
      type(e2, 'TOR-6');
      press(e2, 'Enter');
      await waitFor(() => expect(screen.getByTestId('linea-1')).toBeTruthy());
      expect(cabeceras()).toContain('Importe');
      expect(screen.getByTestId('total')).toBeTruthy();
    });
  }

  it('venta: a sale\'s prices are not costs (shown to the same role)', () => {
    montar('venta', almacen);
    expect(cabeceras()).toEqual(expect.arrayContaining(['Precio', 'Importe']));
  });
});
