import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithShell } from '../testing';
import { DataTable, type DataColumn } from './DataTable';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type Row = { id: number; codigo: string };
const columns: DataColumn<Row>[] = [
  { id: 'marca', header: 'Selección', headerHidden: true, cell: (r) => <input type="checkbox" aria-label={`Seleccionar ${r.codigo}`} /> },
  { id: 'codigo', header: 'Código', cell: (r) => r.codigo },
];

describe('DataTable', () => {
  it('a column with a hidden header still names it for screen readers (no empty header)', async () => {
    renderWithShell(<DataTable columns={columns} rows={[{ id: 1, codigo: 'A1' }]} rowKey={(r) => r.id} caption="Artículos" />);
    const header = await screen.findByRole('columnheader', { name: 'Selección' });
    expect(header.querySelector('.sr-only')?.textContent).toBe('Selección');
    expect(screen.getByRole('columnheader', { name: 'Código' })).toBeTruthy();
  });

  it('wider than its box, it is a named region the keyboard reaches; otherwise no tab stop', async () => {
    const tabla = () => <DataTable columns={columns} rows={[]} rowKey={(r) => r.id} caption="Registros de facturación" empty="No hay registros" />;
    const { unmount } = renderWithShell(tabla());
    await screen.findByText('No hay registros');
    expect(screen.queryByRole('region', { name: 'Registros de facturación' })).toBeNull();
    unmount();

    // A phone: the table (with no focusable cell) is wider than its wrapper.
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(700);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(358);
    renderWithShell(tabla());
    const region = await screen.findByRole('region', { name: 'Registros de facturación' });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.querySelector('table')).toBeTruthy();
  });

  it('draws a foot row (a report\'s totals) with the same cells, and classes per row and per column', async () => {
    type Cifra = { id: string; nombre: string; importe: string; tipo?: string };
    const cols: DataColumn<Cifra>[] = [
      { id: 'nombre', header: 'Nombre', cell: (r) => r.nombre, className: 'ancho' },
      { id: 'importe', header: 'Importe', cell: (r) => r.importe, align: 'right' },
    ];
    renderWithShell(
      <DataTable<Cifra>
        columns={cols}
        rows={[{ id: 'a', nombre: 'Uno', importe: '1,00 €' }, { id: 's', nombre: 'Subtotal', importe: '1,00 €', tipo: 'subtotal' }]}
        rowKey={(r) => r.id}
        rowClassName={(r) => r.tipo}
        footer={[{ id: 't', nombre: 'Total', importe: '3,00 €' }]}
      />,
    );
    const total = await screen.findByText('Total');
    expect(total.closest('tfoot')).toBeTruthy();
    expect(total.closest('tr')?.querySelector('.right')?.textContent).toBe('3,00 €');
    expect(screen.getByText('Subtotal').closest('tr')?.className).toBe('subtotal');
    expect(screen.getByText('Uno').className).toBe('ancho');
  });
});
