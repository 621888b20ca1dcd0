import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useCaja } from '../caja/estado';
import { almacenColaIdb } from '../datos/cola';
import { IndiceCatalogo } from '../datos/catalogo';
import { articuloDePrueba, cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';
import { Venta } from './Venta';

const pdf = vi.hoisted(() => ({ calls: [] as unknown[][] }));
vi.mock('shared', async (orig) => ({
  ...(await orig<typeof import('shared')>()),
  downloadDocumentosPdf: async (...args: unknown[]) => {
    pdf.calls.push(args);
  },
}));

const TERMINAL = terminalDePrueba({ formas_pago: ['efectivo', 'tarjeta'] });
// 242,00 € (21 %): two of them are over the 400 € limit.
const ARTICULOS = [articuloDePrueba(1, { codigo: 'TAL', nombre: 'Taladro', descripcion: 'Taladro percutor 800 W', precio: 2_420_000 })];

type Llamada = { ac: string; body: Record<string, unknown> | null };
let llamadas: Llamada[] = [];
let conexion = true;
const CLIENTES = [
  { id: 3, codigo: 'C0003', nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', nombre_comercial: null, direccion: null, codigo_postal: '28020', poblacion: 'Madrid', recargo: 0 },
  { id: 4, codigo: 'C0004', nif: '12345678Z', razon_social: 'Ferretería López', nombre_comercial: null, direccion: null, codigo_postal: '41001', poblacion: 'Sevilla', recargo: 1 },
];

function servidor(url: string, init?: RequestInit): Response {
  const u = new URL(url, 'http://x');
  const ac = u.searchParams.get('ac') ?? '';
  const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
  if (!conexion) throw new TypeError('Failed to fetch');
  llamadas.push({ ac, body });
  if (ac === 'clientestpv') return respuestaOk(CLIENTES.filter((c) => c.razon_social.toLowerCase().includes(String(u.searchParams.get('q')).toLowerCase())));
  if (ac === 'facturarventatpv') {
    const pagado = ((body?.pagos ?? []) as { importe: number }[]).reduce((s, p) => s + p.importe, 0);
    const total = body?.cliente_id === 4 ? 50_480 : 48_400;
    return respuestaOk([{ id: 900, tipo: 'factura', tipo_factura: 'F1', numero: 'A 2026/000007', fecha: '2026-11-29', estado: 'emitida', total, cliente_id: body?.cliente_id, cambio: pagado - total }]);
  }
  return sinRespuesta(ac);
}

beforeEach(() => {
  llamadas = [];
  conexion = true;
  pdf.calls = [];
});
cajaDePrueba(servidor, () => ({
  terminal: TERMINAL,
  online: true,
  sesion: { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null },
  indice: new IndiceCatalogo(ARTICULOS),
}));

const total = () => screen.getByLabelText('Total del ticket').textContent;

describe('una venta que supera el límite: factura completa (F1) en la caja (issue 23)', () => {
  it('se nombra al cliente y se cobra como factura completa en lugar del ticket; la venta sale de la pantalla', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    await user.keyboard('2*TAL{Enter}');
    expect(total()).toBe('484,00 €');
    expect(screen.getByTestId('supera-limite').textContent).toContain('«Factura completa (F1)»');
    expect(screen.getByRole('button', { name: /^Cobrar/ })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Factura completa (F1)' }));
    const d = within(await screen.findByRole('dialog', { name: 'Factura completa (F1)' }));
    expect((d.getByRole('button', { name: 'Cobrar la factura' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(d.getByLabelText('Cliente (NIF o nombre)'), 'Reformas');
    await user.click(d.getByRole('button', { name: 'Buscar cliente' }));
    expect((await d.findByTestId('f3-cliente')).textContent).toContain('Reformas Hernández, S.L.');
    expect(d.getByTestId('f1-total').textContent).toMatch(/Total de la factura: 484,00\s€$/);
    await user.click(d.getByRole('button', { name: 'Cobrar la factura' }));

    // The till's payment dialog: 500 € in cash, 16 € change.
    const cobro = within(await screen.findByRole('dialog', { name: 'Cobrar la factura completa' }));
    expect(cobro.getByTestId('cobro-total').textContent).toBe('484,00 €');
    await user.type(cobro.getByLabelText(/Importe entregado/), '500{Enter}');
    const hecha = within(await screen.findByRole('dialog', { name: 'Factura completa (F1)' }));
    expect((await hecha.findByTestId('f1-numero')).textContent).toBe('A 2026/000007');
    expect(hecha.getByTestId('f1-cambio').textContent).toBe('16,00 €');
    const enviada = llamadas.find((l) => l.ac === 'facturarventatpv')!.body!;
    expect(enviada).toMatchObject({ terminal_id: 7, cliente_id: 3, lineas: [{ articulo_id: 1, cantidad: 2000, precio: 2_420_000, descuento: 0 }], pagos: [{ forma: 'efectivo', importe: 50_000 }] });
    expect(typeof enviada.uuid).toBe('string');
    // No ticket made, nothing queued; the sale left the screen.
    expect(llamadas.some((l) => l.ac === 'subirtickets')).toBe(false);
    expect(await almacenColaIdb.todos()).toEqual([]);
    expect(useCaja.getState().lineas).toEqual([]);
    await user.click(hecha.getByRole('button', { name: 'PDF de la factura' }));
    expect(pdf.calls).toHaveLength(1);
    await user.click(hecha.getByRole('button', { name: 'Terminar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a un cliente en recargo de equivalencia se le cobra el recargo: el total de la factura lo incluye', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    await user.keyboard('2*TAL{Enter}');
    await user.click(screen.getByRole('button', { name: 'Factura completa (F1)' }));
    const d = within(await screen.findByRole('dialog', { name: 'Factura completa (F1)' }));
    await user.type(d.getByLabelText('Cliente (NIF o nombre)'), 'López');
    await user.click(d.getByRole('button', { name: 'Buscar cliente' }));
    // 400 € base × 5,2 % = 20,80 €.
    await waitFor(() => expect(d.getByTestId('f1-total').textContent).toMatch(/Total de la factura: 504,80\s€ \(incluye 20,80\s€ de recargo de equivalencia\)/));
  });

  it('sin conexión el aviso lo dice y no ofrece la factura; si la conexión cae al cobrarla, lo dice y la venta sigue', async () => {
    useCaja.setState({ online: false });
    const user = userEvent.setup();
    const { unmount } = renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    await user.keyboard('2*TAL{Enter}');
    expect(screen.getByTestId('supera-limite').textContent).toContain('la factura completa necesita conexión con el servidor');
    expect(screen.queryByRole('button', { name: 'Factura completa (F1)' })).toBeNull();
    unmount();

    // Online when opened, the connection gone when paid.
    useCaja.setState({ online: true });
    renderWithShell(<Venta />);
    await user.click(screen.getByRole('button', { name: 'Factura completa (F1)' }));
    const d = within(await screen.findByRole('dialog', { name: 'Factura completa (F1)' }));
    await user.type(d.getByLabelText('Cliente (NIF o nombre)'), 'Reformas');
    await user.click(d.getByRole('button', { name: 'Buscar cliente' }));
    await d.findByTestId('f3-cliente');
    await user.click(d.getByRole('button', { name: 'Cobrar la factura' }));
    const cobro = within(await screen.findByRole('dialog', { name: 'Cobrar la factura completa' }));
    conexion = false;
    await user.click(cobro.getByRole('button', { name: /^Tarjeta 484,00/ }));
    expect((await cobro.findByRole('alert')).textContent).toBe('La factura completa necesita conexión con el servidor.');
    expect(useCaja.getState().lineas).toHaveLength(1);
  });
});
