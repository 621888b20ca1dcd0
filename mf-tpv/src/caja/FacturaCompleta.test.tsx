import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IndiceCatalogo } from '../datos/catalogo';
import { Venta } from '../venta/Venta';
import { cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';

const pdf = vi.hoisted(() => ({ calls: [] as unknown[][] }));
vi.mock('shared', async (orig) => ({
  ...(await orig<typeof import('shared')>()),
  downloadDocumentosPdf: async (...args: unknown[]) => {
    pdf.calls.push(args);
  },
}));

const TERMINAL = terminalDePrueba({ caja_abierta: undefined, entorno: 'pruebas', ultimo: { ejercicio: 2026, numero: 1 } });

const TICKET = {
  id: 5,
  numero: 'T1 2026/000001',
  total: 299,
  estado: 'emitido',
  lineas: [{ id: 50, articulo_id: 1, codigo: 'CAF', descripcion: 'Café molido', cantidad: 1000, precio_iva: 29900, precio: 24711, descuento: 0, tipo_iva: '21', devuelto: 0 }],
  pagos: [{ forma: 'efectivo', importe: 299 }],
};

type Llamada = { ac: string; params: URLSearchParams; body: Record<string, unknown> | null };
let llamadas: Llamada[] = [];
let clientes: Record<string, unknown>[] = [];

function servidor(url: string, init?: RequestInit): Response {
  const u = new URL(url, 'http://x');
  const ac = u.searchParams.get('ac') ?? '';
  const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
  llamadas.push({ ac, params: u.searchParams, body });
  const ok = respuestaOk;
  if (ac === 'listadotickets') return ok(u.searchParams.get('id') ? [TICKET] : [{ id: 5, numero: TICKET.numero }]);
  if (ac === 'clientestpv') return ok(clientes.filter((c) => String(c.razon_social).toLowerCase().includes(String(u.searchParams.get('q')).toLowerCase())));
  if (ac === 'altaclientetpv') {
    const c = { id: 9, codigo: 'C0009', nombre_comercial: null, direccion: null, codigo_postal: null, poblacion: null, ...body, existente: 0 };
    clientes.push(c);
    return ok([c]);
  }
  if (ac === 'facturarticket') {
    return ok([{ id: 900, tipo: 'factura', tipo_factura: 'F3', numero: 'A 2026/000003', fecha: '2026-11-26', estado: 'emitida', total: 299, cliente_id: body?.cliente_id, factura_id: 5 }]);
  }
  return sinRespuesta(ac);
}

beforeEach(() => {
  llamadas = [];
  clientes = [{ id: 3, codigo: 'C0003', nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', nombre_comercial: null, direccion: null, codigo_postal: '28020', poblacion: 'Madrid' }];
  pdf.calls = [];
});
cajaDePrueba(servidor, () => ({
  terminal: TERMINAL,
  sesion: { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null },
  indice: new IndiceCatalogo([]),
}));

describe('factura completa (F3) en la caja', () => {
  it('F3: el ticket por su número, un cliente nuevo con su NIF comprobado, la factura y su PDF', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    await user.keyboard('{F3}');
    const dialogo = await screen.findByRole('dialog', { name: 'Factura completa' });
    const d = within(dialogo);

    // The ticket, typed or scanned.
    await user.type(d.getByLabelText('Número del ticket (escríbalo o escanéelo)'), 'T1 2026/000001{Enter}');
    expect((await d.findByTestId('f3-ticket')).textContent).toBe('Ticket T1 2026/000001 · 1 línea · 2,99 €');
    expect(llamadas.find((l) => l.ac === 'listadotickets')?.params.get('terminal_id')).toBe('7');
    const hacer = d.getByRole('button', { name: 'Hacer la factura' }) as HTMLButtonElement;
    expect(hacer.disabled).toBe(true);

    // Nobody by that name: a new customer.
    await user.type(d.getByLabelText('Cliente (NIF o nombre)'), 'Ana Ruiz');
    await user.click(d.getByRole('button', { name: 'Buscar cliente' }));
    await d.findByText(/Ningún cliente con NIF coincide/);
    await user.click(d.getByRole('button', { name: 'Cliente nuevo' }));
    const nif = d.getByLabelText('NIF');
    await user.type(nif, '12345678A');
    await user.tab();
    expect(d.getByRole('alert').textContent).toBe('El NIF no es válido');
    await user.type(d.getByLabelText('Nombre o razón social'), 'Ana Ruiz');
    await user.click(d.getByRole('button', { name: 'Dar de alta' }));
    // Refused on the till: nothing sent.
    expect(llamadas.filter((l) => l.ac === 'altaclientetpv')).toHaveLength(0);
    await user.clear(nif);
    await user.type(nif, '12345678-z');
    await user.type(d.getByLabelText('Población'), 'Madrid');
    await user.click(d.getByRole('button', { name: 'Dar de alta' }));
    expect((await d.findByTestId('f3-cliente')).textContent).toContain('Ana Ruiz · NIF 12345678Z · Madrid');
    expect(llamadas.filter((l) => l.ac === 'altaclientetpv').map((l) => l.body)).toEqual([{ nif: '12345678Z', razon_social: 'Ana Ruiz', poblacion: 'Madrid' }]);

    // The invoice replaces the ticket; its PDF.
    await user.click(d.getByRole('button', { name: 'Hacer la factura' }));
    expect((await d.findByTestId('factura-numero')).textContent).toBe('A 2026/000003');
    expect(llamadas.filter((l) => l.ac === 'facturarticket').map((l) => l.body)).toEqual([{ id: 5, cliente_id: 9 }]);
    expect(d.getByRole('status').textContent).toContain('Sustituye al ticket T1 2026/000001');
    await user.click(d.getByRole('button', { name: 'PDF de la factura' }));
    await waitFor(() => expect(pdf.calls).toHaveLength(1));
    const [docs, opciones] = pdf.calls[0] as [{ numero: string }[], { fileName: string; empresa: unknown; tercero: () => { nombre: string; nif: string } }];
    expect(docs.map((x) => x.numero)).toEqual(['A 2026/000003']);
    expect(opciones.fileName).toBe('factura-A_2026_000003.pdf');
    expect(opciones.empresa).toEqual({ nombre: 'Tienda SL', nif: 'B12345678' });
    expect(opciones.tercero()).toMatchObject({ nombre: 'Ana Ruiz', nif: '12345678Z' });
  });

  it('un cliente que ya existe se elige de la búsqueda; un ticket ya facturado no se factura otra vez', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await user.click(await screen.findByRole('button', { name: /Factura completa/ }));
    const d = within(await screen.findByRole('dialog', { name: 'Factura completa' }));
    await user.type(d.getByLabelText('Número del ticket (escríbalo o escanéelo)'), 'T1 2026/000001{Enter}');
    await d.findByTestId('f3-ticket');
    // Issue 23: at least three letters or the NIF, said beside the box; a shorter search asks nothing of the server.
    const buscar = d.getByLabelText('Cliente (NIF o nombre)');
    expect(document.getElementById(buscar.getAttribute('aria-describedby')!)?.textContent).toBe('Escriba al menos 3 letras o el NIF.');
    await user.type(buscar, 're{Enter}');
    expect((await d.findAllByText('Escriba al menos 3 letras o el NIF.')).length).toBe(2);
    expect(llamadas.some((l) => l.ac === 'clientestpv')).toBe(false);
    await user.clear(buscar);
    await user.type(d.getByLabelText('Cliente (NIF o nombre)'), 'reformas{Enter}');
    // One found: chosen at once.
    expect((await d.findByTestId('f3-cliente')).textContent).toContain('Reformas Hernández, S.L. · NIF B85612349');
    expect(llamadas.find((l) => l.ac === 'clientestpv')?.params.get('q')).toBe('reformas');
    await user.click(d.getByRole('button', { name: 'Hacer la factura' }));
    await d.findByTestId('factura-numero');
    expect(llamadas.filter((l) => l.ac === 'facturarticket').map((l) => l.body)).toEqual([{ id: 5, cliente_id: 3 }]);

    // Looked up again, the ticket now says Facturado: no second invoice.
    TICKET.estado = 'facturado';
    try {
      await user.click(d.getByRole('button', { name: 'Terminar' }));
      await user.keyboard('{F3}');
      const d2 = within(await screen.findByRole('dialog', { name: 'Factura completa' }));
      await user.type(d2.getByLabelText('Número del ticket (escríbalo o escanéelo)'), 'T1 2026/000001{Enter}');
      expect((await d2.findByRole('alert')).textContent).toBe('Este ticket ya tiene su factura completa.');
      expect((d2.getByRole('button', { name: 'Hacer la factura' }) as HTMLButtonElement).disabled).toBe(true);
    } finally {
      TICKET.estado = 'emitido';
    }
  });
});
