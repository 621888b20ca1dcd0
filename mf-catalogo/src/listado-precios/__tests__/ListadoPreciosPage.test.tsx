import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, downloadGroupedTablePdf, type Configuracion } from 'shared';
import { allFlags, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';
import { fakeCatalogo } from '../../fakeCatalogo';
import { construirListado, type FilaPrecio } from '../listado';

vi.mock('shared', async (importOriginal) => ({ ...(await importOriginal<typeof import('shared')>()), downloadGroupedTablePdf: vi.fn(async () => {}) }));

const fila = (familia: string | null, codigo: string, extra: Partial<FilaPrecio> = {}): FilaPrecio => ({
  familia_nombre: familia,
  codigo,
  descripcion: `Artículo ${codigo}`,
  precio_venta: 82562,
  tarifa_2: 80000,
  tarifa_3: 75000,
  pvp_1: 999,
  pvp_2: 968,
  pvp_3: 908,
  tipo_iva: '21',
  ...extra,
});

const FILAS = [fila('Pintura', 'P-1'), fila('Pintura', 'P-2', { tipo_iva: 'exento', pvp_1: 1000, precio_venta: 1000 }), fila('Tornillería', 'T-1'), fila(null, 'X-1')];

describe('Listado de precios', () => {
  beforeEach(() => vi.mocked(downloadGroupedTablePdf).mockClear());

  it('groups the rows per familia, with the tariffs and PVPs whose flags are on', () => {
    const all = construirListado(FILAS, allFlags(1));
    expect(all.header).toEqual(['Código', 'Descripción', 'Tarifa 1', 'Tarifa 2', 'Tarifa 3', 'PVP 1', 'PVP 2', 'PVP 3', 'IVA']);
    expect(all.groups.map((g) => [g.title, g.rows.length])).toEqual([
      ['Pintura', 2],
      ['Tornillería', 1],
      ['Sin familia', 1],
    ]);
    expect(all.groups[0].rows[0]).toEqual(['P-1', 'Artículo P-1', '8,2562 €', '8,00 €', '7,50 €', '9,99 €', '9,68 €', '9,08 €', '21 %']);
    expect(all.groups[0].rows[1].at(-1)).toBe('Exento');
    const none = construirListado(FILAS, allFlags(0));
    expect(none.header).toEqual(['Código', 'Descripción', 'Tarifa 1', 'IVA']);
    const some = construirListado(FILAS, { ...allFlags(0), tarifa_3: 1, pvp: 1 });
    expect(some.header).toEqual(['Código', 'Descripción', 'Tarifa 1', 'Tarifa 3', 'PVP 1', 'IVA']);
    expect(some.align).toEqual(['left', 'left', 'right', 'right', 'right', 'right']);
  });

  it('downloads the PDF of one familia with the company name and the date', async () => {
    const fake = fakeCatalogo({ listadoprecios: () => ({ RESULT: '0', data: FILAS.slice(0, 2), total: 2 }) });
    const config = { razon_social: 'Ferretería Martínez S.L.', nombre_comercial: 'Ferretería Martínez' } as Configuracion;
    renderSection(Section, menu.prefix, '/catalogo/listado-precios', { api: fake.api, config, flags: { ...allFlags(0), listado: 1, pvp: 1 } });
    expect(screen.getByText('PVP 1')).toBeTruthy();
    expect(screen.queryByText('Tarifa 2')).toBeNull();
    await waitFor(() => expect(screen.getByRole('option', { name: 'Pintura' })).toBeTruthy());
    await userEvent.selectOptions(screen.getByLabelText('Familia'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Descargar PDF' }));
    expect(await screen.findByText('Listado generado: 2 artículos en 1 familia.')).toBeTruthy();
    expect(fake.calls.find((c) => c.ac === 'listadoprecios')?.params).toEqual({ familia_id: '2' });
    const [opts] = vi.mocked(downloadGroupedTablePdf).mock.calls[0];
    expect(opts.title).toBe('Listado de precios');
    expect(opts.subtitle).toMatch(/^Ferretería Martínez · \d{2}\/\d{2}\/\d{4}$/);
    expect(opts.header).toEqual(['Código', 'Descripción', 'Tarifa 1', 'PVP 1', 'IVA']);
    expect(opts.groups).toHaveLength(1);
  });

  it('needs the listado flag', () => {
    renderSection(Section, menu.prefix, '/catalogo/listado-precios', { api: fakeCatalogo().api, flags: { ...allFlags(1), listado: 0 } });
    expect(screen.getByText(MESSAGES.moduleOff)).toBeTruthy();
    expect(downloadGroupedTablePdf).not.toHaveBeenCalled();
  });
});
