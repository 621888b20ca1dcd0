import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime, type LineaActividad } from 'shared';
import { createFakeApi, currentPath, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

const ME = { id: 1, nombre: 'Administrador', email: 'admin@demo.es' };

const linea = (id: number, l: Partial<LineaActividad>): LineaActividad => ({
  id,
  fecha: '2026-11-20T08:30:00.000Z',
  usuario_id: 1,
  usuario_nombre: 'Administrador',
  ip: '192.168.1.20',
  accion: 'editarfamilia',
  tipo: 'guardar',
  entidad: 'familia',
  entidad_id: 3,
  numero: 'FER',
  antes: null,
  despues: null,
  ...l,
});

const LINEAS = [
  linea(4, { accion: 'emitirfactura', tipo: 'accion', entidad: 'factura', entidad_id: 12, numero: 'A 2026/000012', usuario_id: 2, usuario_nombre: 'Marta Vidal' }),
  linea(3, { antes: { nombre: 'Ferretería' }, despues: { nombre: 'Ferretería y menaje' } }),
  linea(5, { accion: 'editarconfiguracion', tipo: 'modulos', entidad: 'configuracion', entidad_id: 1, numero: 'B86420973', antes: { conf_materiales: 1 }, despues: { conf_materiales: 0 } }),
  linea(2, { accion: 'eliminarmarca', tipo: 'eliminar', entidad: 'marca', entidad_id: 5, numero: 'BOSCH', antes: { codigo: 'BOSCH', nombre: 'Bosch' } }),
  linea(1, { accion: 'identificar', tipo: 'login_fallido', entidad: 'usuario', entidad_id: null, numero: 'quien@demo.es', usuario_id: null, usuario_nombre: null }),
];

function actividadApi() {
  return createFakeApi({
    listadoactividad: ({ params = {} }) => {
      const rows = LINEAS.filter((l) => (params.usuario_id === undefined || String(l.usuario_id) === params.usuario_id) && (params.entidad === undefined || l.entidad === params.entidad));
      return { RESULT: '0', data: rows, total: rows.length };
    },
    listadousuarios: () => ({
      RESULT: '0',
      data: [
        { id: 1, nombre: 'Administrador', email: 'admin@demo.es', activo: 1, ultimo_acceso: null, creado: '2026-01-05T10:00:00Z' },
        { id: 2, nombre: 'Marta Vidal', email: 'marta@demo.es', activo: 1, ultimo_acceso: null, creado: '2026-01-05T10:00:00Z' },
      ],
      total: 2,
    }),
  });
}

const lista = (calls: { ac: string; params?: Record<string, unknown> }[]) => calls.filter((c) => c.ac === 'listadoactividad');

describe('Actividad', () => {
  it('is in the side list and shows each change: when, who, from where, what, with a link to its record', async () => {
    expect(menu.entries.map((e) => e.label)).toContain('Actividad');
    const fake = actividadApi();
    renderSection(Section, menu.prefix, '/config/actividad', { api: fake.api, user: ME });
    const factura = await screen.findByRole('link', { name: 'Factura A 2026/000012' });
    const fila = factura.closest('tr')!;
    expect(within(fila).getByText('Marta Vidal')).toBeTruthy();
    expect(within(fila).getByText('192.168.1.20')).toBeTruthy();
    expect(within(fila).getByText(formatDateTime('2026-11-20T08:30:00.000Z'))).toBeTruthy();
    expect(within(fila).getByText(/Acción/)).toBeTruthy();
    // A deleted record has no screen to open; a failed login names the address tried.
    expect(screen.queryByRole('link', { name: 'Marca BOSCH' })).toBeNull();
    expect(screen.getByText('Marca BOSCH')).toBeTruthy();
    expect(screen.getByText(/Inicio de sesión fallido/)).toBeTruthy();
    expect(screen.getByText('Usuario quien@demo.es')).toBeTruthy();

    await userEvent.click(screen.getByRole('link', { name: 'Familia FER' }));
    await waitFor(() => expect(currentPath()).toBe('/catalogo/familia/3'));
  });

  it('opens a master change to show each field before and after', async () => {
    const fake = actividadApi();
    renderSection(Section, menu.prefix, '/config/actividad', { api: fake.api, user: ME });
    const fila = (await screen.findByRole('link', { name: 'Familia FER' })).closest('tr')!;
    await userEvent.click(within(fila).getByText('Ver cambios (1)'));
    const campo = within(fila).getByRole('rowheader', { name: 'Nombre' }).closest('tr')!;
    expect(within(campo).getByText('Ferretería')).toBeTruthy();
    expect(within(campo).getByText('Ferretería y menaje')).toBeTruthy();

    // A module switched off: by its label, Sí → No; the configuration links to its screen.
    const conf = screen.getByRole('link', { name: 'Configuración B86420973' }).closest('tr')!;
    expect(within(conf).getByText(/^Módulos/)).toBeTruthy();
    await userEvent.click(within(conf).getByText('Ver cambios (1)'));
    const modulo = within(conf).getByRole('rowheader', { name: 'Módulo Materiales' }).closest('tr')!;
    expect([...modulo.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['Sí', 'No']);
  });

  it('filters by user, entity and dates', async () => {
    const fake = actividadApi();
    renderSection(Section, menu.prefix, '/config/actividad', { api: fake.api, user: ME });
    await screen.findByRole('link', { name: 'Familia FER' });
    await waitFor(() => expect(within(screen.getByLabelText('Usuario')).getByRole('option', { name: 'Marta Vidal' })).toBeTruthy());
    await userEvent.selectOptions(screen.getByLabelText('Usuario'), '2');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Familia FER' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Factura A 2026/000012' })).toBeTruthy();
    expect(lista(fake.calls).at(-1)?.params).toMatchObject({ usuario_id: '2' });

    await userEvent.selectOptions(screen.getByLabelText('Entidad'), 'marca');
    await waitFor(() => expect(lista(fake.calls).at(-1)?.params).toMatchObject({ usuario_id: '2', entidad: 'marca' }));
    await userEvent.type(screen.getByLabelText('Desde'), '2026-11-01');
    await waitFor(() => expect(lista(fake.calls).at(-1)?.params).toMatchObject({ desde: '2026-11-01', entidad: 'marca' }));
  });
});
