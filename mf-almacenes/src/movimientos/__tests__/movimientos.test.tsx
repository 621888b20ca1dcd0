import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MovimientoAlmacen } from 'shared';
import { currentPath, fakeArticulos, renderSection } from 'shared/testing';
import { fakeAlmacenes } from '../../fakeAlmacenes';
import menu from '../../menu.json';
import Section from '../../section';

const fila = (id: number, over: Partial<MovimientoAlmacen>): MovimientoAlmacen => ({
  id,
  fecha: '2026-03-02',
  almacen_id: 1,
  almacen_nombre: 'Central',
  ubicacion_id: null,
  ubicacion_codigo: null,
  causa: 'traspaso',
  documento_tipo: 'movimiento',
  documento_id: 5,
  documento_numero: 'MOV 2026/000005',
  cantidad: 5000,
  accion: 'recibir',
  articulo_id: 7,
  articulo_codigo: 'TOR-M4',
  articulo_descripcion: 'Tornillo M4',
  ...over,
});

describe('Almacenes › Movimientos and Traspasos', () => {
  it('the menu names the transfers «Traspasos» and the warehouse ledger «Movimientos»', () => {
    expect(menu.entries.map((e) => [e.path, e.label])).toEqual([
      ['', 'Almacenes'],
      ['ubicaciones', 'Ubicaciones'],
      ['movimientos-almacen', 'Movimientos'],
      ['movimientos', 'Traspasos'],
      ['inventario', 'Inventarios'],
      ['perdidas', 'Pérdidas'],
    ]);
  });

  it('«Movimientos» lists every entry and exit of a warehouse by date with its document; an undone reception reads as such', async () => {
    const fake = fakeAlmacenes({
      listadomovimientosalmacen: () => ({
        RESULT: '0',
        data: [
          fila(3, { cantidad: -5000, accion: 'deshacerrecepcion', fecha: '2026-03-03' }),
          fila(2, { id: 2, causa: 'compra', documento_tipo: 'albarancompra', documento_id: 9, documento_numero: 'AC 2026/000009', accion: null, cantidad: 10000 }),
          fila(1, {}),
        ],
        total: 3,
      }),
    });
    renderSection(Section, menu.prefix, '/almacenes/movimientos-almacen', { api: fake.api });
    const tabla = await screen.findByRole('table', { name: 'Movimientos del almacén' });
    await waitFor(() => expect(within(tabla).getAllByRole('row')).toHaveLength(4));
    // The main warehouse by default, newest first as the server answers.
    expect(fake.calls.find((c) => c.ac === 'listadomovimientosalmacen')?.params).toMatchObject({ almacen_id: '1', pagina: 1 });
    const filas = within(tabla).getAllByRole('row').slice(1);
    expect(filas[0].textContent).toContain('03/03/2026');
    expect(filas[0].textContent).toContain('Traspaso · Deshacer recepción');
    expect(filas[0].textContent).toContain('-5');
    expect(filas[1].textContent).toContain('Compra');
    expect(within(filas[1]).getByRole('link', { name: 'AC 2026/000009' }).getAttribute('href')).toBe('/compras/albaran/9');
    expect(filas[2].textContent).toContain('Traspaso');
    expect(filas[2].textContent).not.toContain('Deshacer');
    expect(within(filas[2]).getByRole('link', { name: 'TOR-M4 · Tornillo M4' }).getAttribute('href')).toBe('/catalogo/articulo/7');
  });

  it('«Traspasos» is the transfers list at /almacenes/movimientos; /almacenes/inventarios reaches /almacenes/inventario', async () => {
    const fake = fakeAlmacenes({ listadoinventarios: () => ({ RESULT: '0', data: [], total: 0, totales: { total: 0 } }) });
    renderSection(Section, menu.prefix, '/almacenes/inventarios', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'Inventarios' })).toBeTruthy();
    expect(currentPath()).toBe('/almacenes/inventario');
  });

  it('the transfer editor shows beside each line the stock of its origin warehouse', async () => {
    const fake = fakeAlmacenes({
      listadoarticulos: fakeArticulos([{ id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', tipo_iva: '21', precio_compra: 8500, codigo_barras: null }]),
      listadostockalmacen: ({ params }) => ({
        RESULT: '0',
        data: String(params?.almacen_id) === '1' && String(params?.ids) === '7' ? [{ articulo_id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', stock: 12_000, coste_medio: 8500, valor: 10200 }] : [],
        total: 1,
      }),
    });
    renderSection(Section, menu.prefix, '/almacenes/movimiento/nuevo-movimiento', { api: fake.api });
    const entry = await screen.findByRole('combobox', { name: 'Añadir artículo' });
    await waitFor(() => expect((screen.getByLabelText(/^Almacén de origen\*?$/) as HTMLSelectElement).value).toBe('1'));
    fireEvent.change(entry, { target: { value: 'TOR-M4' } });
    fireEvent.keyDown(entry, { key: 'Enter' });
    const linea = await screen.findByTestId('linea-1');
    await waitFor(() => expect(linea.textContent).toContain('Disponible: 12'));
  });
});
