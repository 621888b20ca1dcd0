import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearListStates } from '../hooks/useApi';
import { useListOptions } from '../hooks/useListOptions';
import { createFakeApi, renderWithShell } from '../testing';
import { isValidNif } from '../domain/nif';
import { NifField } from './fields';
import { CheckboxListField, DecimalField, ProgressBar, SearchPicker, TextAreaField, decimalInputText } from './inputs';
import type { DataColumn } from './DataTable';
import { ListView } from './ListView';

afterEach(() => {
  cleanup();
  clearListStates();
});

function DecimalHarness({ initial = null as bigint | number | string | null, scale = 2, onValue = (_: unknown) => {} }) {
  const [value, setValue] = useState<bigint | number | string | null>(initial);
  return (
    <>
      <DecimalField
        label="Importe"
        scale={scale}
        suffix="€"
        value={value}
        onChange={(v) => {
          setValue(v);
          onValue(v);
        }}
      />
      <button type="button" onClick={() => setValue(123456n)}>
        fijar
      </button>
    </>
  );
}

describe('DecimalField', () => {
  it('turns es-ES text into an exact scaled integer', () => {
    const seen: unknown[] = [];
    renderWithShell(<DecimalHarness scale={4} onValue={(v) => seen.push(v)} />);
    const input = screen.getByLabelText('Importe') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '1.234,5678' } });
    fireEvent.change(input, { target: { value: '0,1' } });
    fireEvent.change(input, { target: { value: '8.2562' } });
    fireEvent.change(input, { target: { value: '' } });
    expect(seen).toEqual([12345678n, 1000n, 82562n, null]);
  });

  it('hands back the text when it is not a number, and says so', () => {
    const seen: unknown[] = [];
    renderWithShell(<DecimalHarness onValue={(v) => seen.push(v)} />);
    fireEvent.change(screen.getByLabelText('Importe'), { target: { value: '12,3x' } });
    expect(seen).toEqual(['12,3x']);
    expect(screen.getByRole('alert').textContent).toBe('Debe ser un número válido');
  });

  it('shows a value set from outside, and formats on leaving the box', () => {
    renderWithShell(<DecimalHarness initial={999} />);
    const input = screen.getByLabelText('Importe') as HTMLInputElement;
    expect(input.value).toBe('9,99');
    fireEvent.click(screen.getByRole('button', { name: 'fijar' }));
    expect(input.value).toBe('1234,56');
    fireEvent.change(input, { target: { value: '9,9' } });
    expect(input.value).toBe('9,9');
    fireEvent.blur(input);
    expect(input.value).toBe('9,90');
  });

  it('writes input text without thousands dots so it reads back the same', () => {
    expect(decimalInputText(123456789n, 4)).toBe('12345,6789');
    expect(decimalInputText(1000000, 2)).toBe('10000,00');
    expect(decimalInputText(-5, 2)).toBe('-0,05');
    expect(decimalInputText(null, 2)).toBe('');
  });
});

describe('ProgressBar', () => {
  it('exposes its progress to assistive technology and as text', () => {
    renderWithShell(<ProgressBar label="Validando filas" value={500} max={1200} unit="filas" />);
    const bar = screen.getByRole('progressbar', { name: 'Validando filas' });
    expect(bar.getAttribute('aria-valuenow')).toBe('500');
    expect(bar.getAttribute('aria-valuemax')).toBe('1200');
    expect(screen.getByText('500 de 1.200 filas (41 %)')).toBeTruthy();
  });
});

describe('CheckboxListField', () => {
  const options = Array.from({ length: 13 }, (_, i) => ({ value: String(i + 1), label: `Material ${i + 1}` }));

  it('adds and removes choices, and filters a long list', () => {
    const onChange = vi.fn();
    renderWithShell(<CheckboxListField label="Materiales" options={options} value={['2']} onChange={onChange} />);
    expect(screen.getByText('(1 seleccionados)')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Material 3' }));
    expect(onChange).toHaveBeenLastCalledWith(['2', '3']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Material 2' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.change(screen.getByLabelText('Filtrar'), { target: { value: 'material 1' } });
    // 1, 10-13 match; the chosen 2 stays visible.
    expect(screen.getAllByRole('checkbox').map((c) => c.parentElement?.textContent)).toEqual([
      'Material 1', 'Material 2', 'Material 10', 'Material 11', 'Material 12', 'Material 13',
    ]);
  });
});

type Row = { id: number; codigo: string; descripcion: string };

describe('SearchPicker', () => {
  it('searches the action as the user types and picks with Enter or a click, without the excluded', async () => {
    const rows: Row[] = [
      { id: 1, codigo: 'A1', descripcion: 'Tornillo' },
      { id: 2, codigo: 'A2', descripcion: 'Tuerca' },
    ];
    const fake = createFakeApi({ listadoarticulos: () => ({ RESULT: '0', data: rows, total: 2 }) });
    const onPick = vi.fn();
    renderWithShell(
      <SearchPicker<Row>
        label="Componente"
        ac="listadoarticulos"
        params={{ activo: 1 }}
        exclude={['2']}
        toOption={(r) => ({ value: String(r.id), label: r.descripcion, detail: r.codigo })}
        onPick={onPick}
      />,
      { api: fake.api },
    );
    const input = screen.getByRole('combobox', { name: 'Componente' });
    fireEvent.change(input, { target: { value: 'tor' } });
    const list = await screen.findByRole('listbox');
    expect(fake.calls.at(-1)?.params).toMatchObject({ q: 'tor', activo: 1, pagina: 1, porPagina: 10 });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['TornilloA1']);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(rows[0]);
    expect((input as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('opens with the first option highlighted; ↓ lands on that first option, not past it, and Enter takes the highlighted one', async () => {
    const rows: Row[] = [
      { id: 1, codigo: 'C1', descripcion: 'Ferretería Ruiz' },
      { id: 2, codigo: 'C2', descripcion: 'Ferretería Sol' },
      { id: 3, codigo: 'C3', descripcion: 'Ferretería Mar' },
    ];
    const fake = createFakeApi({ listadoclientes: () => ({ RESULT: '0', data: rows, total: 3 }) });
    const onPick = vi.fn();
    renderWithShell(
      <SearchPicker<Row> label="Cliente" ac="listadoclientes" toOption={(r) => ({ value: String(r.id), label: r.descripcion })} onPick={onPick} />,
      { api: fake.api },
    );
    const input = screen.getByRole('combobox', { name: 'Cliente' });
    fireEvent.change(input, { target: { value: 'ferr' } });
    const list = await screen.findByRole('listbox');
    const selected = () => within(list).getAllByRole('option').map((o) => o.getAttribute('aria-selected'));
    expect(selected()).toEqual(['true', 'false', 'false']);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(selected()).toEqual(['true', 'false', 'false']);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(selected()).toEqual(['false', 'true', 'false']);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(rows[1]);
  });

  it('Enter right after the list opens takes the first option', async () => {
    const rows: Row[] = [
      { id: 1, codigo: 'P1', descripcion: 'Suministros Norte' },
      { id: 2, codigo: 'P2', descripcion: 'Suministros Sur' },
    ];
    const fake = createFakeApi({ listadoproveedores: () => ({ RESULT: '0', data: rows, total: 2 }) });
    const onPick = vi.fn();
    renderWithShell(
      <SearchPicker<Row> label="Proveedor" ac="listadoproveedores" toOption={(r) => ({ value: String(r.id), label: r.descripcion })} onPick={onPick} />,
      { api: fake.api },
    );
    const input = screen.getByRole('combobox', { name: 'Proveedor' });
    fireEvent.change(input, { target: { value: 'sumi' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(rows[0]);
  });
});

function OptionsProbe({ enabled = true }) {
  const { options, loading, error } = useListOptions<Row>('listadofamilias', {
    params: { orden: 'nombre' },
    enabled,
    toOption: (r) => ({ value: String(r.id), label: r.descripcion }),
  });
  return <output>{loading ? 'cargando' : error ? `error:${error}` : options.map((o) => o.label).join(',')}</output>;
}

function OptionsToggle() {
  const [on, setOn] = useState(false);
  return (
    <>
      <OptionsProbe enabled={on} />
      <button type="button" onClick={() => setOn(true)}>activar</button>
    </>
  );
}

describe('useListOptions', () => {
  it('reads every page of the action', async () => {
    const all = Array.from({ length: 130 }, (_, i) => ({ id: i + 1, codigo: `F${i + 1}`, descripcion: `F${i + 1}` }));
    const fake = createFakeApi({
      listadofamilias: ({ params }) => {
        const p = Number(params?.pagina);
        return { RESULT: '0', data: all.slice((p - 1) * 100, p * 100), total: all.length };
      },
    });
    renderWithShell(<OptionsProbe />, { api: fake.api });
    await waitFor(() => expect(screen.getByRole('status').textContent?.split(',')).toHaveLength(130));
    expect(fake.calls.map((c) => c.params?.pagina)).toEqual([1, 2]);
    expect(fake.calls[0].params).toMatchObject({ orden: 'nombre', porPagina: 100 });
  });

  it('loads nothing when disabled, and reports a refusal', async () => {
    const fake = createFakeApi({ listadofamilias: () => ({ RESULT: '1', message: 'Módulo desactivado' }) });
    renderWithShell(<OptionsToggle />, { api: fake.api });
    expect(screen.getByRole('status').textContent).toBe('');
    expect(fake.calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'activar' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('error:Módulo desactivado'));
  });
});

const codigoColumns: DataColumn<Row>[] = [{ id: 'codigo', header: 'Código', cell: (r: Row) => r.codigo }];

function SelectableList({ onSelection }: { onSelection: (k: (string | number)[]) => void }) {
  const [selected, setSelected] = useState<(string | number)[]>([]);
  return (
    <ListView<Row>
      ac="listado"
      listKey="prueba"
      title="Prueba"
      columns={codigoColumns}
      rowKey={(r) => r.id}
      selection={{
        selected,
        onChange: (k) => {
          setSelected(k);
          onSelection(k);
        },
        rowLabel: (r) => `Seleccionar ${r.codigo}`,
      }}
      filters={[
        { name: 'familia_id', label: 'Familia', options: [{ value: '1', label: 'Tornillería' }, { value: '2', label: 'Pintura' }] },
        {
          name: 'subfamilia_id',
          label: 'Subfamilia',
          dependsOn: 'familia_id',
          options: (f) => (f.familia_id === '1' ? [{ value: '10', label: 'Tornillos' }] : [{ value: '20', label: 'Esmaltes' }]),
        },
      ]}
      toolbar={({ params, total }) => <span>consulta:{JSON.stringify({ f: params.familia_id ?? null, s: params.subfamilia_id ?? null, total })}</span>}
    />
  );
}

/** Draws the rows with `columns`, keeping the selection in state. */
function CountedList({ columns }: { columns: DataColumn<Row>[] }) {
  const [selected, setSelected] = useState<(string | number)[]>([]);
  return <ListView<Row> ac="listado" listKey="contado" title="Contado" columns={columns} rowKey={(r) => r.id} onRowClick={() => {}} selection={{ selected, onChange: setSelected }} />;
}

describe('ListView additions', () => {
  const rows: Row[] = [
    { id: 1, codigo: 'A1', descripcion: 'Tornillo' },
    { id: 2, codigo: 'A2', descripcion: 'Tuerca' },
  ];
  it('selects rows by hand and by page, with the count; the checkboxes are not exported', async () => {
    const fake = createFakeApi({ listado: () => ({ RESULT: '0', data: rows, total: 2 }) });
    const onSelection = vi.fn();
    renderWithShell(<SelectableList onSelection={onSelection} />, { api: fake.api });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Seleccionar A2' }));
    expect(onSelection).toHaveBeenLastCalledWith([2]);
    expect(screen.getByText('1 seleccionado')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar esta página' }));
    expect(onSelection).toHaveBeenLastCalledWith([2, 1]);
    fireEvent.click(screen.getByRole('button', { name: 'Quitar selección' }));
    expect(onSelection).toHaveBeenLastCalledWith([]);
  });

  it('typing in the search box does not redraw the rows; a new selection does', async () => {
    const fake = createFakeApi({ listado: () => ({ RESULT: '0', data: rows, total: 2 }) });
    let drawn = 0;
    const counted: DataColumn<Row>[] = [
      {
        id: 'codigo',
        header: 'Código',
        cell: (r) => {
          drawn++;
          return r.codigo;
        },
      },
    ];
    renderWithShell(<CountedList columns={counted} />, { api: fake.api });
    await screen.findByText('A1');
    await act(async () => {});
    const before = drawn;
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar' }), { target: { value: '84123' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar' }), { target: { value: '8412345' } });
    expect(drawn).toBe(before);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 1' }));
    expect(drawn).toBeGreaterThan(before);
    expect((screen.getByRole('checkbox', { name: 'Seleccionar fila 1' }) as HTMLInputElement).checked).toBe(true);
  });

  it('a dependent filter waits for its parent, follows it and is cleared when it changes', async () => {
    const fake = createFakeApi({ listado: () => ({ RESULT: '0', data: rows, total: 2 }) });
    renderWithShell(<SelectableList onSelection={() => {}} />, { api: fake.api });
    const sub = screen.getByRole('combobox', { name: 'Subfamilia' }) as HTMLSelectElement;
    expect(sub.disabled).toBe(true);
    fireEvent.change(screen.getByRole('combobox', { name: 'Familia' }), { target: { value: '1' } });
    expect(sub.disabled).toBe(false);
    expect([...sub.options].map((o) => o.textContent)).toEqual(['Subfamilia: todos', 'Tornillos']);
    fireEvent.change(sub, { target: { value: '10' } });
    await waitFor(() => expect(screen.getByText(/consulta:/).textContent).toBe('consulta:{"f":"1","s":"10","total":2}'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Familia' }), { target: { value: '2' } });
    await waitFor(() => expect(screen.getByText(/consulta:/).textContent).toBe('consulta:{"f":"2","s":null,"total":2}'));
    expect([...sub.options].map((o) => o.textContent)).toEqual(['Subfamilia: todos', 'Esmaltes']);
    await act(async () => {});
    expect(fake.calls.at(-1)?.params).toMatchObject({ familia_id: '2' });
    expect(fake.calls.at(-1)?.params?.subfamilia_id).toBeUndefined();
  });
});

describe('TextAreaField', () => {
  it('edits several lines and counts characters against the limit', () => {
    const onChange = vi.fn();
    renderWithShell(<TextAreaField label="Descripción larga" value="Hola" maxLength={200} onChange={onChange} />);
    const box = screen.getByLabelText('Descripción larga');
    expect(screen.getByText('4 / 200')).toBeTruthy();
    fireEvent.change(box, { target: { value: 'Hola\nadiós' } });
    expect(onChange).toHaveBeenCalledWith('Hola\nadiós');
  });
});

function NifProbe() {
  const [nif, setNif] = useState('');
  return <NifField label="NIF" value={nif} onChange={setNif} />;
}

describe('NifField', () => {
  it.each(['B-58378431', 'b 5837 8431', 'ES B58378431', 'es-b.58378431'])('«%s» shows as B58378431 once the clerk leaves the box', (typed) => {
    renderWithShell(<NifProbe />);
    const input = screen.getByLabelText('NIF') as HTMLInputElement;
    fireEvent.change(input, { target: { value: typed } });
    // While typing, what is typed stays (capitals only): the box never jumps under the cursor.
    expect(input.value).toBe(typed.toUpperCase());
    fireEvent.blur(input);
    expect(input.value).toBe('B58378431');
    expect(isValidNif(input.value)).toBe(true);
  });
});
