import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiHttpError, INCIDENCIA_TPV, MESSAGES, ROL_PREDEFINIDO, formatDateTime, visibleEntries, type SectionMenu } from 'shared';
import { allFlags, bodiesOf, currentPath, fakeListado, fakeListadoDocs, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';
import { MENSAJE_FORMAS } from '../datos';
import { CIERRE, TICKETS, tpvApi } from './fake';

const pdf = vi.hoisted(() => ({ calls: [] as { informe: Record<string, unknown>; opts: Record<string, unknown> }[] }));
vi.mock('shared', async (orig) => ({
  ...(await orig<typeof import('shared')>()),
  downloadInformeZPdf: vi.fn(async (informe: Record<string, unknown>, opts: Record<string, unknown>) => {
    pdf.calls.push({ informe, opts });
  }),
}));
beforeEach(() => {
  pdf.calls.length = 0;
});

/** Text with its spaces plain (es-ES money prints a non-breaking one before the euro sign). */
const plano = (s: string | null) => (s ?? '').replace(/\s/g, ' ');
/** Text as es-ES money prints it (a non-breaking space before the euro sign). */
const euros = (t: string) => new RegExp(`^${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s€$`);

describe('Terminales', () => {
  it('lists each terminal with its warehouse, series, payment methods, float and pairing', async () => {
    renderSection(Section, menu.prefix, '/ventas/terminales', { api: tpvApi().api });
    const row = (await screen.findByRole('link', { name: 'Caja 1' })).closest('tr')!;
    expect(within(row).getByText('Tienda')).toBeTruthy();
    expect(within(row).getByText('T1 / R1')).toBeTruthy();
    expect(within(row).getByText('Efectivo, Tarjeta, Bizum')).toBeTruthy();
    expect(within(row).getByText(euros('150,00'))).toBeTruthy();
    expect(within(row).getByText('Sí')).toBeTruthy();
  });

  it('needs the tpv module: the menu hides the entries and the screens say so', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/terminales', { api: fake.api, flags: { ...allFlags(1), tpv: 0 } });
    expect(screen.getByText(MESSAGES.moduleOff)).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'listadoterminales')).toHaveLength(0);
    const tpv = ['terminales', 'botones-tpv', 'cierres-tpv', 'tickets'];
    expect(visibleEntries(menu as SectionMenu, allFlags(1)).map((e) => e.path)).toEqual(expect.arrayContaining(tpv));
    expect(visibleEntries(menu as SectionMenu, { ...allFlags(1), tpv: 0 }).map((e) => e.path).filter((p) => tpv.includes(p))).toEqual([]);
    // Caja works only at the till: none of the back office's TPV screens (nor the section) is in its menu.
    expect(visibleEntries(menu as SectionMenu, allFlags(1), ROL_PREDEFINIDO.caja.derechos)).toEqual([]);
    expect(visibleEntries(menu as SectionMenu, allFlags(1), ROL_PREDEFINIDO.gestion.derechos).map((e) => e.path)).toEqual(expect.arrayContaining(tpv));
  });

  it('a new terminal: Spanish messages before sending, only free series of each kind, then the exact body', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/terminal/nuevo-terminal', { api: fake.api });
    const nombre = await screen.findByLabelText(/^Nombre/);
    // No payment method and a float that is not a number.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Efectivo' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Tarjeta' }));
    const fondo = screen.getByLabelText(/^Fondo de caja/);
    await userEvent.clear(fondo);
    await userEvent.type(fondo, 'cien');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(MENSAJE_FORMAS)).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Nuevo terminal' });
    expect(within(form).getAllByText(MESSAGES.required).length).toBeGreaterThanOrEqual(3);
    expect(within(form).getByText(MESSAGES.invalidNumber)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarterminal')).toHaveLength(0);

    // T1 and R1 belong to Caja 1, TX is inactive, A is not simplified: only T2 and R2 are offered.
    const serie = screen.getByLabelText(/^Serie de tickets/) as HTMLSelectElement;
    await waitFor(() => expect(serie.options.length).toBe(2));
    expect([...serie.options].map((o) => o.text)).toEqual(['Seleccione…', 'T2 · Tickets caja 2']);
    const rect = screen.getByLabelText(/^Serie de devoluciones/) as HTMLSelectElement;
    expect([...rect.options].map((o) => o.text)).toEqual(['Seleccione…', 'R2 · Devoluciones caja 2']);
    expect(screen.getByText(/Ya usadas por otro terminal: T1 \(Caja 1\), R1 \(Caja 1\)/)).toBeTruthy();

    await userEvent.type(nombre, 'Caja 2');
    await userEvent.selectOptions(screen.getByLabelText(/^Almacén/), '2');
    await userEvent.selectOptions(serie, '4');
    await userEvent.selectOptions(rect, '5');
    await userEvent.type(screen.getByLabelText(/^Número de instalación VERI\*FACTU/), 'B12345674-TPV2');
    await userEvent.type(screen.getByLabelText('Cliente de mostrador'), 'Sol');
    await userEvent.click(await screen.findByRole('option', { name: /Droguería Sol SL/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Bizum' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Efectivo' }));
    await userEvent.clear(fondo);
    await userEvent.type(fondo, '120,5');
    expect(screen.queryByText(MENSAJE_FORMAS)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(currentPath()).toBe('/ventas/terminal/2'));
    expect(bodiesOf(fake.calls, 'editarterminal')).toEqual([
      {
        nombre: 'Caja 2',
        almacen_id: 2,
        serie_id: 4,
        serie_rectificativa_id: 5,
        cliente_id: 3,
        numero_instalacion: 'B12345674-TPV2',
        fondo: 12050,
        arqueo_ciego: 0,
        bloqueo_minutos: 5,
        impresora: 'navegador',
        activo: 1,
        formas_pago: ['efectivo', 'bizum'],
      },
    ]);
    // A long form typed key by key: slow on a loaded machine.
  }, 40_000);

  it('a saved terminal keeps its own series on offer and shows the server refusal on the field', async () => {
    const fake = tpvApi({
      editarterminal: () => {
        throw new ApiHttpError(400, { RESULT: '1', message: MESSAGES.invalidFields, errors: { nombre: 'Ya existe un terminal con ese nombre' } });
      },
    });
    renderSection(Section, menu.prefix, '/ventas/terminal/1', { api: fake.api });
    const serie = (await screen.findByLabelText(/^Serie de tickets/)) as HTMLSelectElement;
    await waitFor(() => expect([...serie.options].map((o) => o.value)).toEqual(['', '2', '4']));
    expect(serie.value).toBe('2');
    expect((screen.getByLabelText(/^Fondo de caja/) as HTMLInputElement).value).toBe('150,00');
    expect(screen.getByText('Droguería Sol SL')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Bizum' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Vale' }) as HTMLInputElement).checked).toBe(false);
    await userEvent.type(screen.getByLabelText(/^Nombre/), ' bis');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Ya existe un terminal con ese nombre')).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarterminal')[0]).toMatchObject({ id: 1, nombre: 'Caja 1 bis', serie_id: 2, fondo: 15000, formas_pago: ['efectivo', 'tarjeta', 'bizum'] });
    expect(currentPath()).toBe('/ventas/terminal/1');
  });

  it('issue 23: «Arqueo ciego» is set on the terminal and sent', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/terminal/1', { api: fake.api });
    const ciego = (await screen.findByLabelText(/^Arqueo ciego/)) as HTMLInputElement;
    await waitFor(() => expect((screen.getByLabelText(/^Fondo de caja/) as HTMLInputElement).value).toBe('150,00'));
    expect(ciego.checked).toBe(false);
    expect(screen.getByText(/no ve el efectivo esperado hasta haber anotado lo contado/)).toBeTruthy();
    await userEvent.click(ciego);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarterminal')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarterminal')[0]).toMatchObject({ id: 1, arqueo_ciego: 1 });
  });

  it('issue 23: the till\'s idle lock (minutes, 0 = never) and its printer (browser, ESC/POS by USB or serial) are set and sent', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/terminal/1', { api: fake.api });
    const bloqueo = (await screen.findByLabelText(/^Bloqueo de la caja/)) as HTMLInputElement;
    await waitFor(() => expect((screen.getByLabelText(/^Fondo de caja/) as HTMLInputElement).value).toBe('150,00'));
    expect(bloqueo.value).toBe('5');
    const impresora = screen.getByLabelText(/^Impresora/) as HTMLSelectElement;
    expect(impresora.value).toBe('navegador');
    expect([...impresora.options].map((o) => o.textContent)).toEqual(
      expect.arrayContaining(['Navegador (diálogo de impresión)', 'ESC/POS por USB (WebUSB)', 'ESC/POS por puerto serie (WebSerial)']),
    );
    await userEvent.clear(bloqueo);
    await userEvent.type(bloqueo, '0');
    await userEvent.selectOptions(impresora, 'serie');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarterminal')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarterminal')[0]).toMatchObject({ id: 1, bloqueo_minutos: 0, impresora: 'serie' });
  });

  it('«Vincular TPV» shows the one-time code large, with its expiry', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/terminal/1', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Vincular TPV' }));
    const dialog = await screen.findByRole('dialog', { name: /Vincular TPV · Caja 1/ });
    expect(within(dialog).getByLabelText('Código de vinculación').textContent).toBe('K7PQ-M2XD');
    expect(within(dialog).getByText(/Caduca a las \d\d:\d\d \(quedan 1[45] min/)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'codigoterminal')).toEqual([{ id: 1 }]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generar otro código' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'codigoterminal')).toHaveLength(2));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Botones TPV', () => {
  const orden = (grid: HTMLElement) => within(grid).getAllByRole('option').map((o) => o.getAttribute('aria-label')!.replace(/, posición.*$/, ''));

  it('moves a button with the keyboard (Espacio, flechas, Espacio), Escape puts it back, and saves the order', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/botones-tpv', { api: fake.api });
    const grid = await screen.findByRole('listbox', { name: 'Botones de la página Desayunos' });
    expect(orden(grid)).toEqual(['Café leche', 'Cruasán', 'Zumo']);

    const cafe = within(grid).getByRole('option', { name: /^Café leche/ });
    cafe.focus();
    await userEvent.keyboard(' ');
    expect(screen.getByText(/«Café leche» cogido, en la posición 1 de 3/)).toBeTruthy();
    await userEvent.keyboard('{ArrowRight}');
    expect(orden(grid)).toEqual(['Cruasán', 'Café leche', 'Zumo']);
    expect(screen.getByText('«Café leche» movido a la posición 2 de 3.')).toBeTruthy();
    await userEvent.keyboard('{ArrowRight}');
    expect(orden(grid)).toEqual(['Cruasán', 'Zumo', 'Café leche']);
    // Escape: back where it was picked up.
    await userEvent.keyboard('{Escape}');
    expect(orden(grid)).toEqual(['Café leche', 'Cruasán', 'Zumo']);
    // Picked up again and dropped one place on.
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Café leche/);
    await userEvent.keyboard(' {ArrowRight} ');
    expect(orden(grid)).toEqual(['Cruasán', 'Café leche', 'Zumo']);
    expect(screen.getByText('«Café leche» soltado en la posición 2.'.replace('2.', '2 de 3.'))).toBeTruthy();
    // Without picking up, the arrows only move the focus.
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Zumo/);
    expect(orden(grid)).toEqual(['Cruasán', 'Café leche', 'Zumo']);
    // The preview follows.
    const previa = screen.getByTestId('vista-previa');
    expect(within(previa).getByRole('tabpanel').textContent).toMatch(/^Cruasán1,50\s€Café leche1,80\s€Zumo2,50\s€$/);

    // The buttons' own move buttons: Zumo (focused, so chosen) goes first.
    await userEvent.click(screen.getByRole('button', { name: '← Antes' }));
    await userEvent.click(screen.getByRole('button', { name: '← Antes' }));
    expect(orden(grid)).toEqual(['Zumo', 'Cruasán', 'Café leche']);

    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarbotonestpv')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarbotonestpv')[0]).toEqual({
      terminal_id: null,
      paginas: [
        {
          nombre: 'Desayunos',
          familia_id: null,
          color: '#2563eb',
          botones: [
            // Zumo's label is its own; the others follow the article's «Nombre en el TPV».
            { posicion: 0, articulo_id: 9, color: '#16a34a', etiqueta: 'Zumo' },
            { posicion: 1, articulo_id: 8, color: '#ea580c', etiqueta: null },
            { posicion: 2, articulo_id: 7, color: '#2563eb', etiqueta: null },
          ],
        },
        { nombre: 'Bollería', familia_id: 1, color: '#16a34a', botones: [] },
      ],
    });
  }, 30_000);

  it('issue 23: a family page previews the family\'s active articles by name (the listing is asked a page size it accepts)', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/botones-tpv', { api: fake.api });
    const previa = await screen.findByTestId('vista-previa');
    await userEvent.click(within(previa).getByRole('tab', { name: 'Bollería' }));
    await waitFor(() => expect(plano(within(previa).getByRole('tabpanel').textContent)).toBe('Café leche1,80 €Cruasán1,50 €'));
    expect(within(previa).queryByText('La familia no tiene artículos activos.')).toBeNull();
  });

  it('drag and drop moves a button too', async () => {
    renderSection(Section, menu.prefix, '/ventas/botones-tpv', { api: tpvApi().api });
    const grid = await screen.findByRole('listbox', { name: 'Botones de la página Desayunos' });
    const [cafe, , zumo] = within(grid).getAllByRole('option');
    fireEvent.dragStart(zumo, { dataTransfer: { setData: () => {}, getData: () => '2', effectAllowed: '' } });
    fireEvent.dragOver(cafe, { dataTransfer: { dropEffect: '' } });
    fireEvent.drop(cafe, { dataTransfer: { getData: () => '2' } });
    expect(orden(grid)).toEqual(['Zumo', 'Café leche', 'Cruasán']);
  });

  it('adds an article: its «Nombre en el TPV» is the label, the page colour its colour; a label of its own and another colour', async () => {
    const fake = tpvApi({
      listadobotonestpv: () => ({ RESULT: '0', data: [{ terminal_id: null, paginas: [{ id: 1, orden: 0, nombre: 'Bebidas', familia_id: null, color: '#7c3aed', botones: [] }] }] }),
    });
    renderSection(Section, menu.prefix, '/ventas/botones-tpv', { api: fake.api });
    expect(await screen.findByText('Página sin botones: añada artículos con la búsqueda.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Añadir un artículo'), 'cruas');
    await userEvent.click(await screen.findByRole('option', { name: /Cruasán de mantequilla/ }));
    const grid = screen.getByRole('listbox', { name: 'Botones de la página Bebidas' });
    expect(orden(grid)).toEqual(['Cruasán']);
    const texto = screen.getByLabelText('Texto del botón');
    expect(screen.getByText('Vacío: el «Nombre en el TPV» del artículo («Cruasán»).')).toBeTruthy();
    await userEvent.type(texto, 'Croissant');
    await userEvent.click(within(screen.getByRole('group', { name: /^Botón/ })).getByRole('button', { name: 'Amarillo' }));
    expect(orden(grid)).toEqual(['Croissant']);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarbotonestpv')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editarbotonestpv')[0].paginas).toEqual([
      { nombre: 'Bebidas', familia_id: null, color: '#7c3aed', botones: [{ posicion: 0, articulo_id: 8, color: '#facc15', etiqueta: 'Croissant' }] },
    ]);
  });

  it('a terminal without its own set shows the shared one and says so; its pages are saved as its own', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/botones-tpv', { api: fake.api });
    await screen.findByRole('listbox', { name: 'Botones de la página Desayunos' });
    await userEvent.selectOptions(screen.getByLabelText('Botones de'), '1');
    expect(await screen.findByText(/Caja 1 usa los botones compartidos/)).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'listadobotonestpv').at(-1)?.params).toEqual({ terminal_id: '1' });
    await userEvent.click(screen.getByRole('button', { name: 'Nueva página' }));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarbotonestpv')).toHaveLength(1));
    const body = bodiesOf(fake.calls, 'editarbotonestpv')[0];
    expect(body.terminal_id).toBe(1);
    expect((body.paginas as { nombre: string }[]).map((p) => p.nombre)).toEqual(['Desayunos', 'Bollería', 'Página 3']);
  });

  it('a page without a name is refused in Spanish and nothing is sent', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/botones-tpv', { api: fake.api });
    const nombre = await screen.findByLabelText(/^Nombre de la página/);
    await userEvent.clear(nombre);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'editarbotonestpv')).toHaveLength(0);
  });
});

describe('Cierres TPV', () => {
  it('lists each closing with its terminal, code, cashier, counts, total and difference; filters by terminal', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/cierres-tpv', { api: fake.api });
    const row = (await screen.findByRole('link', { name: '12' })).closest('tr')!;
    expect(within(row).getByText('Caja 1')).toBeTruthy();
    expect(within(row).getByText('Lucía Pérez')).toBeTruthy();
    expect(within(row).getByText('48')).toBeTruthy();
    expect(within(row).getByText(euros('612,30'))).toBeTruthy();
    expect(within(row).getByText(euros('-5,00')).getAttribute('data-tone')).toBe('falta');
    await userEvent.selectOptions(await screen.findByLabelText('Terminal'), '1');
    await waitFor(() => expect(fake.calls.filter((c) => c.ac === 'listadocierrestpv').at(-1)?.params).toMatchObject({ terminal_id: '1' }));
  });

  it('the closing: cash expected, counted and the difference highlighted; by method, by IVA, by denomination; its tickets; the Z report', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/cierre-tpv/5', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Cierre 12 · Caja 1' })).toBeTruthy();
    expect(screen.getByTestId('esperado').textContent).toMatch(euros('425,00'));
    expect(screen.getByTestId('contado').textContent).toMatch(euros('420,00'));
    expect(screen.getByTestId('diferencia').textContent).toMatch(/^-5,00\s€ \(falta\)$/);
    expect(screen.getByRole('alert').textContent).toContain('Diferencia');
    // How the expected cash is made: 150 + 310 − 10 − 5 − 20 = 425.
    const desglose = screen.getByRole('table', { name: 'Cómo se llega al efectivo esperado' });
    expect(within(desglose).getAllByRole('row').map((r) => plano(r.textContent))).toEqual([
      `Fondo inicial150,00 €`,
      `Cobrado en efectivo+310,00 €`,
      `Cambio devuelto-10,00 €`,
      `Reembolsos en efectivo-5,00 €`,
      `Salidas de caja-20,00 €`,
      `Esperado en caja425,00 €`,
    ]);
    const formas = screen.getByRole('table', { name: 'Por forma de pago' });
    expect(within(within(formas).getByRole('rowheader', { name: 'Tarjeta' }).closest('tr')!).getAllByText(euros('317,30'))).toHaveLength(2);
    const ivas = screen.getByRole('table', { name: 'Por tipo de IVA' });
    expect(within(ivas).getByRole('rowheader', { name: 'Reducido 10 %' })).toBeTruthy();
    expect(within(ivas).getByText(euros('612,30'))).toBeTruthy();
    const billetes = screen.getByRole('table', { name: 'Recuento por billetes y monedas' });
    // Denominations with none counted are left out.
    expect(within(billetes).getAllByRole('row')).toHaveLength(1 + 3 + 1);
    expect(within(billetes).getAllByRole('row').map((r) => plano(r.textContent))).toEqual([
      'Billete o monedaUnidadesImporte',
      '200,00 €1200,00 €',
      '100,00 €2200,00 €',
      '20,00 €120,00 €',
      'Contado420,00 €',
    ]);
    // Issue 23: every cashier who sold in the caja, with their tickets and total.
    const cajeros = screen.getByRole('table', { name: 'Por cajero' });
    expect(within(cajeros).getAllByRole('row').map((r) => plano(r.textContent))).toEqual([
      'CajeroTicketsDevolucionesTotal',
      'Lucía Pérez301400,00 €',
      'Marcos Gil180212,30 €',
    ]);
    // The cash movements: time, reason, who, the amount signed; the reason is no row header.
    const movimientos = screen.getByRole('table', { name: 'Entradas y salidas de caja' });
    const mov = within(movimientos).getAllByRole('row');
    expect(mov.map((r) => within(r).queryAllByRole('columnheader').length)).toEqual([4, 0]);
    expect(within(mov[1]).queryAllByRole('rowheader')).toHaveLength(0);
    expect(plano(within(mov[1]).getAllByRole('cell')[1].textContent)).toBe('Pago al repartidor del pan');
    expect(plano(within(mov[1]).getAllByRole('cell')[3].textContent)).toBe('-20,00 €');
    // Its tickets, each a link to its record; read with the closing's caja.
    const ticket = await screen.findByRole('link', { name: 'T1 2026/000101' });
    expect(ticket.getAttribute('href')).toBe('/ventas/ticket/300');
    expect(fake.calls.find((c) => c.ac === 'listadotickets')?.params).toMatchObject({ caja_id: 40 });
    // Read only: nothing to save or delete.
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Informe Z' }));
    await waitFor(() => expect(pdf.calls).toHaveLength(1));
    const { informe, opts } = pdf.calls[0];
    expect(opts.fileName).toBe('informe-z-Caja-1-12.pdf');
    expect(informe).toMatchObject({ terminal: 'Caja 1', codigo: 12, cajero: 'Lucía Pérez', esperado: 42500, contado: 42000, diferencia: -500, tickets: 48, devoluciones: 1 });
    expect(informe.formas).toEqual([
      { label: 'Efectivo', esperado: 42500, contado: 42000, diferencia: -500 },
      { label: 'Tarjeta', esperado: 31730, contado: 31730, diferencia: 0 },
    ]);
    // A live company's closing: its Z says nothing of a demo.
    expect(informe.demo).toBe(false);
    expect((informe.cajeros as { nombre: string }[]).map((x) => x.nombre)).toEqual(['Lucía Pérez', 'Marcos Gil']);
  });

  it("a demo company's closing prints its Z as a demo (issue 22)", async () => {
    const api = tpvApi({ listadocierrestpv: fakeListado([{ ...CIERRE, demo: 1 }], ['terminal_id']) }).api;
    renderSection(Section, menu.prefix, '/ventas/cierre-tpv/5', { api });
    await userEvent.click(await screen.findByRole('button', { name: 'Informe Z' }));
    await waitFor(() => expect(pdf.calls).toHaveLength(1));
    expect(pdf.calls[0].informe.demo).toBe(true);
  });

  it('an unknown closing says so', async () => {
    renderSection(Section, menu.prefix, '/ventas/cierre-tpv/99', { api: tpvApi().api });
    expect(await screen.findByText('Cierre no encontrado')).toBeTruthy();
  });
});

describe('Tickets', () => {
  it('lists the tickets read only (no «Nuevo ticket»), with their terminal; a row opens its record', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/tickets', { api: fake.api });
    const link = await screen.findByRole('link', { name: 'T1 2026/000101' });
    expect(link.getAttribute('href')).toBe('/ventas/ticket/300');
    expect(within(link.closest('tr')!).getByText('Caja 1')).toBeTruthy();
    // When it was sold: the date and the time (a till sells many tickets a day).
    expect(screen.getByRole('columnheader', { name: /Fecha y hora/ })).toBeTruthy();
    const hora = formatDateTime('2026-11-25T08:10:00Z');
    expect(hora).toMatch(/^25\/11\/2026,? \d{2}:10$/);
    expect(within(link.closest('tr')!).getByText(hora)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Nuevo/ })).toBeNull();
  });

  it('issue 23: a ticket its till issued offline against a rule is marked in the list; its page says what it broke and how to correct it', async () => {
    const incidencia = {
      id: 9, terminal_id: 1, caja_id: 40, documento_id: 300, ticket_id: null, numero: 'T1 2026/000101', uuid: 'u-300', tipo: 'precio' as const,
      etiqueta: INCIDENCIA_TPV.precio.etiqueta, remedio: INCIDENCIA_TPV.precio.remedio, fecha: '2026-11-25T10:00:00Z', resuelta: 0 as const,
      detalle: 'Ticket T1 2026/000101, línea 1 (MAR-500): cobrado a 0,01 € y su PVP es 14,95 €; Cajera no puede cambiar precios.',
    };
    const conIncidencia = TICKETS.map((t) => (t.id === 300 ? { ...t, incidencias: [incidencia] } : { ...t, incidencias: [] }));
    const fake = tpvApi({ listadotickets: fakeListadoDocs(conIncidencia, ['caja_id', 'terminal_id', 'estado']), resolverincidenciatpv: () => ({ RESULT: '0', data: [] }) });
    renderSection(Section, menu.prefix, '/ventas/tickets', { api: fake.api });
    const link = await screen.findByRole('link', { name: 'T1 2026/000101' });
    expect(within(link.closest('tr')!).getByTestId('ticket-incidencia').textContent).toBe(`⚠ ${INCIDENCIA_TPV.precio.etiqueta}`);
    expect(within(screen.getByRole('link', { name: 'T1 2026/000102' }).closest('tr')!).queryByTestId('ticket-incidencia')).toBeNull();
    await userEvent.setup().click(link);
    const card = await screen.findByTestId('incidencias-tpv');
    expect(within(card).getByRole('heading').textContent).toContain('Incidencias (1 por resolver)');
    const fila = within(within(card).getByRole('table', { name: 'Incidencias' })).getAllByRole('row')[1];
    expect(fila.textContent).toContain(incidencia.detalle);
    expect(fila.textContent).toContain(INCIDENCIA_TPV.precio.remedio);
    // The manager, once dealt with, marks it resolved: kept, no longer pending.
    await userEvent.setup().click(within(fila).getByRole('button', { name: 'Marcar resuelta' }));
    await waitFor(() => expect(fila.textContent).toContain('Resuelta'));
    expect(bodiesOf(fake.calls, 'resolverincidenciatpv')).toEqual([{ id: 9 }]);
    expect(within(card).getByRole('heading').textContent).not.toContain('por resolver');
  });

  it('the ticket: its lines, payments with the change, its VERI*FACTU record and the QR of its URL; read only', async () => {
    renderSection(Section, menu.prefix, '/ventas/ticket/300', { api: tpvApi().api });
    expect(await screen.findByText('Martillo de carpintero 500 g')).toBeTruthy();
    // The ticket's totals, not the sum of its rounded net prices.
    const totales = screen.getByRole('group', { name: 'Totales' });
    expect(plano(totales.textContent)).toContain('Total14,95 €');
    expect(plano(totales.textContent)).not.toContain('14,96');
    const pagos = screen.getByRole('table', { name: 'Pagos' });
    expect(within(pagos).getAllByRole('row').map((r) => plano(r.textContent))).toEqual(['FormaImporteEntregado', 'Efectivo14,95 €20,00 €', 'Cambio5,05 €']);
    const fiscal = screen.getByLabelText('Situación fiscal');
    expect(within(fiscal).getByText('Alta')).toBeTruthy();
    expect(within(fiscal).getByTitle(/^A1B2C3D4E5F6/)).toBeTruthy();
    const qr = await screen.findByRole('img', { name: 'QR tributario del ticket T1 2026/000101' });
    expect(qr.getAttribute('data-qr')).toContain('numserie=T1%202026%2F000101');
    await waitFor(() => expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d/));
    // Made live with sending on (stored on its record): pending to be sent, it reads as a sent one.
    expect(screen.getByTestId('ticket-leyenda').textContent).toBe('Factura verificable en la sede electrónica de la AEAT');
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
  });

  it('a ticket paid with a vale names the vale and the balance it left (issue 23)', async () => {
    const conVale = TICKETS.map((x) =>
      x.id === 300 ? { ...x, cambio: 0, pagos: [{ forma: 'vale', importe: 1000, entregado: 1000, vale: 'V123456789012', vale_saldo: 250 }, { forma: 'efectivo', importe: 495, entregado: 495 }] } : x,
    );
    renderSection(Section, menu.prefix, '/ventas/ticket/300', { api: tpvApi({ listadotickets: fakeListadoDocs(conVale, ['caja_id', 'terminal_id', 'estado']) }).api });
    const pagos = await screen.findByRole('table', { name: 'Pagos' });
    expect(within(pagos).getAllByRole('row').map((r) => plano(r.textContent))).toEqual(['FormaImporteEntregado', 'Vale V123456789012 (le quedan 2,50 €)10,00 €10,00 €', 'Efectivo4,95 €4,95 €']);
  });

  it('a demo ticket reads as demo, whatever the setting of the day (issue 22)', async () => {
    const demo = TICKETS.map((x) => (x.id === 300 ? { ...x, registro: { ...x.registro!, entorno: 'pruebas' as const, demo: 1, verifactu: 0 } } : x));
    renderSection(Section, menu.prefix, '/ventas/ticket/300', { api: tpvApi({ listadotickets: fakeListadoDocs(demo, ['caja_id', 'terminal_id', 'estado']) }).api });
    expect(await screen.findByTestId('ticket-leyenda')).toHaveProperty('textContent', 'DEMOSTRACIÓN — sin validez fiscal');
    expect(screen.queryByText(/verificable/)).toBeNull();
  });

  it('«Factura completa…» replaces the ticket with an F3 for the customer chosen, and opens it', async () => {
    const fake = tpvApi();
    renderSection(Section, menu.prefix, '/ventas/ticket/300', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Factura completa…' }));
    const dialog = screen.getByRole('dialog', { name: /Factura completa del ticket T1 2026\/000101/ });
    const hacer = within(dialog).getByRole('button', { name: 'Hacer la factura' }) as HTMLButtonElement;
    // No customer yet: it waits.
    expect(hacer.disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText(/^Cliente/), 'Sol');
    await userEvent.click(await screen.findByRole('option', { name: /Droguería Sol SL/ }));
    await userEvent.selectOptions(within(dialog).getByLabelText('Serie'), '1');
    await userEvent.click(hacer);
    await waitFor(() => expect(currentPath()).toBe('/ventas/factura/900'));
    expect(bodiesOf(fake.calls, 'facturarticket')).toEqual([{ id: 300, cliente_id: 3, serie_id: 1 }]);
  });

  it('without ventas_facturas there is no «Factura completa…»', async () => {
    renderSection(Section, menu.prefix, '/ventas/ticket/300', { api: tpvApi().api, flags: { ...allFlags(1), ventas_facturas: 0 } });
    await screen.findByText('Martillo de carpintero 500 g');
    expect(screen.queryByRole('button', { name: 'Factura completa…' })).toBeNull();
  });
});
