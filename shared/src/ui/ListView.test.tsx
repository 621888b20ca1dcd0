import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useMemo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearListStates } from '../hooks/useApi';
import { createFakeApi, currentPath, renderSection } from '../testing';
import { activoColumn, linkColumn, type DataColumn } from './DataTable';
import { ESTADO_FILTER, RecordListPage } from './ListView';
import { Button } from './primitives';

afterEach(() => {
  cleanup();
  clearListStates();
});

type Row = { id: number; codigo: string; descripcion: string; activo: 0 | 1 };

const rows: Row[] = [
  { id: 1, codigo: 'A1', descripcion: 'Tornillo', activo: 1 },
  { id: 2, codigo: 'A2', descripcion: 'Tuerca', activo: 0 },
];

function Lista() {
  const columns = useMemo<DataColumn<Row>[]>(
    () => [linkColumn('codigo', 'Código', (r) => r.codigo, (r) => `/prueba/fila/${r.id}`), { id: 'descripcion', header: 'Descripción', cell: (r) => r.descripcion }, activoColumn()],
    [],
  );
  return (
    <RecordListPage<Row>
      title="Pruebas"
      description="Una lista de prueba."
      actions={<Button $variant="secondary">Importar</Button>}
      create={{ label: 'Nueva prueba', to: '/prueba/nueva' }}
      recordPath={(id) => `/prueba/fila/${id}`}
      ac="listado"
      listKey="pruebas"
      columns={columns}
      filters={[ESTADO_FILTER]}
    />
  );
}

describe('RecordListPage', () => {
  it('has the header with its buttons, the link and Estado columns, and the Estado filter', async () => {
    const fake = createFakeApi({ listado: () => ({ RESULT: '0', data: rows, total: 2 }) });
    renderSection(Lista, '/prueba', '/prueba', { api: fake.api });
    expect(screen.getByRole('heading', { name: 'Pruebas' })).toBeTruthy();
    expect(screen.getByText('Una lista de prueba.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Importar|Nueva prueba/ }).map((b) => b.textContent)).toEqual(['Importar', 'Nueva prueba']);
    const link = await screen.findByRole('link', { name: 'A1' });
    expect(link.getAttribute('href')).toBe('/prueba/fila/1');
    const tuerca = screen.getByText('Tuerca').closest('tr') as HTMLElement;
    expect(within(tuerca).getByText('Inactivo')).toBeTruthy();
    const estado = screen.getByRole('combobox', { name: 'Estado' }) as HTMLSelectElement;
    expect([...estado.options].map((o) => o.value)).toEqual(['', '1', '0']);
  });

  it('the "nuevo" button and a row open their screens', async () => {
    const fake = createFakeApi({ listado: () => ({ RESULT: '0', data: rows, total: 2 }) });
    renderSection(Lista, '/prueba', '/prueba', { api: fake.api });
    fireEvent.click(await screen.findByText('Tuerca'));
    expect(currentPath()).toBe('/prueba/fila/2');
    fireEvent.click(screen.getByRole('button', { name: 'Nueva prueba' }));
    expect(currentPath()).toBe('/prueba/nueva');
  });
});

type Linea = { id: number; descripcion: string; importe: string; stock: number };

function Exportable() {
  const columns = useMemo<DataColumn<Linea>[]>(
    () => [
      { id: 'descripcion', header: 'Descripción', cell: (r) => r.descripcion },
      { id: 'importe', header: 'Importe', align: 'right', numeric: true, cell: (r) => r.importe },
      { id: 'stock', header: 'Stock', align: 'right', numeric: true, cell: (r) => r.stock, text: (r) => r.stock },
    ],
    [],
  );
  return <RecordListPage<Linea> title="Exportar" create={{ label: 'Nueva', to: '/x/nueva' }} recordPath={(id) => `/x/${id}`} ac="listado" listKey="exportar" exportName="lineas" columns={columns} />;
}

describe('CSV export', () => {
  it('neutralises text a spreadsheet would run; numeric columns stay numbers', async () => {
    const data: Linea[] = [
      { id: 1, descripcion: '=1+1', importe: '-1.234,56 €', stock: -5 },
      { id: 2, descripcion: '-Tornillo', importe: '=HYPERLINK("x")', stock: 3 },
    ];
    const fake = createFakeApi({ listado: () => ({ RESULT: '0', data, total: 2 }) });
    const blobs: Blob[] = [];
    const create = URL.createObjectURL;
    const revoke = URL.revokeObjectURL;
    URL.createObjectURL = (b: Blob) => {
      blobs.push(b);
      return 'blob:prueba';
    };
    URL.revokeObjectURL = () => {};
    try {
      renderSection(Exportable, '/x', '/x', { api: fake.api });
      await screen.findByText('=1+1');
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'CSV' })));
      expect(blobs).toHaveLength(1);
      const text = await blobs[0].text();
      expect(text).toBe('\uFEFFDescripción;Importe;Stock\r\n\'=1+1;-1.234,56 €;-5\r\n\'-Tornillo;"\'=HYPERLINK(""x"")";3\r\n');
    } finally {
      URL.createObjectURL = create;
      URL.revokeObjectURL = revoke;
    }
  });
});

describe('a link carrying the list’s filters (issue 26)', () => {
  it('`?activo=0` sets the Estado filter and asks the server for it', async () => {
    const fake = createFakeApi({ listado: () => ({ RESULT: '0', data: [rows[1]], total: 1 }) });
    renderSection(Lista, '/prueba', '/prueba?activo=0', { api: fake.api });
    expect(await screen.findByText('Tuerca')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Estado' }) as HTMLSelectElement).value).toBe('0');
    expect(fake.calls.at(-1)).toMatchObject({ ac: 'listado', params: expect.objectContaining({ activo: '0' }) });
    expect(currentPath()).toBe('/prueba');
  });
});
