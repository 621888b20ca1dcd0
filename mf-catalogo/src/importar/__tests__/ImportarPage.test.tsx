import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { parseCsv } from 'shared';
import { bodiesOf, type FakeCall, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';
import { fakeCatalogo } from '../../fakeCatalogo';
import { COLUMNAS, MENSAJES, filasDe, mapearCabecera, plantillaCsv, validarFilas } from '../columnas';

const csvFile = (text: string) => new File([text], 'articulos.csv', { type: 'text/csv' });
const importButton = () => screen.getByRole('button', { name: /^Importar \d|^Importar artículos$/ }) as HTMLButtonElement;
type Body = { filas: Record<string, string>[]; aplicar: 0 | 1 };

describe('Importar artículos', () => {
  it('shows every row’s errors in Spanish, the browser’s and the server’s, and keeps the import disabled', async () => {
    const fake = fakeCatalogo({
      importararticulos: () => ({ RESULT: '0', data: [{ fila: 1, errores: { codigo_barras: 'Ya existe un elemento con este valor' } }] }),
    });
    renderSection(Section, menu.prefix, '/catalogo/importar', { api: fake.api });
    const text = [
      '\uFEFFCódigo;Descripción;Familia;Precio de venta;IVA;EAN',
      'A-1;Tornillo;Tornillería;1.234,56;21 %;8412345678905',
      'A-2;;Tornillería;0,5;21;',
      'A-3;Tuerca;;12,3x;7;8412345678901',
      'A-1;Arandela;;1;exento;',
    ].join('\r\n');
    await userEvent.upload(screen.getByLabelText('Archivo CSV'), csvFile(text));
    const table = await screen.findByRole('table', { name: 'Filas con errores' });
    await waitFor(() => expect(screen.getByText(/4 filas leídas, 4 con errores/)).toBeTruthy());
    const lines = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(lines).toEqual([
      '2A-1Código de barras: Ya existe un elemento con este valor',
      '3A-2Descripción: Este campo es necesario',
      `4A-3Precio de venta: ${MENSAJES.importe}Tipo de IVA: ${MENSAJES.iva}Código de barras: ${MENSAJES.ean}`,
      `5A-1Código: ${MENSAJES.codigoRepetido(2)}`,
    ]);
    expect(importButton().disabled).toBe(true);
    const [body] = bodiesOf(fake.calls, 'importararticulos') as Body[];
    expect(body.aplicar).toBe(0);
    expect(body.filas[0]).toEqual({ codigo: 'A-1', descripcion: 'Tornillo', familia_nombre: 'Tornillería', precio_venta: '1.234,56', tipo_iva: '21', codigo_barras: '8412345678905' });
    expect(bodiesOf(fake.calls, 'importararticulos').filter((b) => (b as Body).aplicar === 1)).toHaveLength(0);
  });

  it('validates a large file in chunks of 500 with a progress bar, then imports all rows at once', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const fake = fakeCatalogo({
      importararticulos: async ({ body }: FakeCall) => {
        const b = body as Body;
        if (b.aplicar === 1) return { RESULT: '0', data: [{ creados: 1150, actualizados: 50 }] };
        if (b.filas[0].codigo === 'A-501') await gate;
        return { RESULT: '0', data: [] };
      },
    });
    const { toasts } = renderSection(Section, menu.prefix, '/catalogo/importar', { api: fake.api });
    const rows = Array.from({ length: 1200 }, (_, i) => `A-${i + 1},Artículo ${i + 1},"1,5"`);
    await userEvent.upload(screen.getByLabelText('Archivo CSV'), csvFile(['codigo,descripcion,precio_compra', ...rows].join('\n')));
    const bar = await screen.findByRole('progressbar', { name: 'Validando filas' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('500'));
    expect(screen.getByText('500 de 1.200 filas (41 %)')).toBeTruthy();
    expect(importButton().disabled).toBe(true);
    release();
    await waitFor(() => expect(importButton().disabled).toBe(false));
    expect((bodiesOf(fake.calls, 'importararticulos') as Body[]).map((b) => b.filas.length)).toEqual([500, 500, 200]);
    expect(screen.getByText('Todas las filas son válidas.')).toBeTruthy();

    await userEvent.click(importButton());
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Importar artículos' })).getByRole('button', { name: 'Importar' }));
    expect(await screen.findByText('Importación terminada: 1150 artículos creados y 50 actualizados.')).toBeTruthy();
    const applied = (bodiesOf(fake.calls, 'importararticulos') as Body[]).filter((b) => b.aplicar === 1);
    expect(applied).toHaveLength(1);
    expect(applied[0].filas).toHaveLength(1200);
    expect(applied[0].filas[1199]).toEqual({ codigo: 'A-1200', descripcion: 'Artículo 1200', precio_compra: '1,5' });
    expect(toasts).toEqual(['success:']);
  });

  it('maps server errors of a later chunk to their file line', async () => {
    const fake = fakeCatalogo({
      importararticulos: ({ body }: FakeCall) =>
        (body as Body).filas[0].codigo === 'A-501' ? { RESULT: '0', data: [{ fila: 3, errores: { codigo: 'Ya existe un elemento con este valor' } }] } : { RESULT: '0', data: [] },
    });
    renderSection(Section, menu.prefix, '/catalogo/importar', { api: fake.api });
    const rows = Array.from({ length: 600 }, (_, i) => `A-${i + 1};Artículo ${i + 1}`);
    await userEvent.upload(screen.getByLabelText('Archivo CSV'), csvFile(['codigo;descripcion', ...rows].join('\n')));
    const table = await screen.findByRole('table', { name: 'Filas con errores' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    // Row 3 of the second chunk is row 503 of the file's data: line 504.
    expect(within(table).getAllByRole('row')[1].textContent).toBe('504A-503Código: Ya existe un elemento con este valor');
  });

  it('reads a CSV saved by a Spanish Excel (Windows-1252)', async () => {
    const fake = fakeCatalogo({ importararticulos: () => ({ RESULT: '0', data: [] }) });
    renderSection(Section, menu.prefix, '/catalogo/importar', { api: fake.api });
    // 'Código;Descripción\nA-1;Camión' with ó = 0xF3.
    const latin1 = Uint8Array.from('Código;Descripción\nA-1;Camión', (ch) => ch.charCodeAt(0));
    await userEvent.upload(screen.getByLabelText('Archivo CSV'), new File([latin1], 'excel.csv', { type: 'text/csv' }));
    await waitFor(() => expect(importButton().disabled).toBe(false));
    expect((bodiesOf(fake.calls, 'importararticulos')[0] as Body).filas).toEqual([{ codigo: 'A-1', descripcion: 'Camión' }]);
  });

  it('refuses a file without the required columns', async () => {
    const fake = fakeCatalogo();
    renderSection(Section, menu.prefix, '/catalogo/importar', { api: fake.api });
    await userEvent.upload(screen.getByLabelText('Archivo CSV'), csvFile('referencia;marca\nX;Acme\n'));
    expect(await screen.findByText(/Faltan columnas obligatorias: Código, Descripción/)).toBeTruthy();
    expect(bodiesOf(fake.calls, 'importararticulos')).toHaveLength(0);
    expect(importButton().disabled).toBe(true);
  });

  it('the template names every column and its example row is valid', () => {
    const csv = parseCsv(plantillaCsv());
    const mapeo = mapearCabecera(csv.header);
    expect(mapeo.campos).toEqual(COLUMNAS.map((c) => c.campo));
    expect(mapeo.faltan).toEqual([]);
    expect(validarFilas(filasDe(csv.rows, mapeo), csv.lines).size).toBe(0);
  });

  it('reads Spanish headers with accents, spaces and usual names', () => {
    const m = mapearCabecera(['Código', 'DESCRIPCIÓN', 'Precio compra', 'Código de barras', 'iva', 'Cod. familia', 'Color']);
    expect(m.campos).toEqual(['codigo', 'descripcion', 'precio_compra', 'codigo_barras', 'tipo_iva', 'familia_codigo', null]);
    expect(m.ignoradas).toEqual(['Color']);
  });
});
