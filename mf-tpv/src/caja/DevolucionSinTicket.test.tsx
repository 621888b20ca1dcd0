import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { IndiceCatalogo } from '../datos/catalogo';
import { almacenColaIdb } from '../datos/cola';
import { colaDe, useCaja } from './estado';
import { Venta } from '../venta/Venta';
import { articuloDePrueba, cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';

/** Issue 23: a return without a ticket at the till, for a cashier with the right «devolver_sin_ticket». */
const TERMINAL = terminalDePrueba({ formas_pago: ['efectivo', 'tarjeta'] });
// 1,21 € the loaf (by the unit); 22,00 € the kg of cheese (10 %).
const PAN = articuloDePrueba(2, { codigo: 'PAN', nombre: 'Pan', precio: 12100, unidad_medida: 'ud', codigo_barras: '8400000000021' });
const QUESO = articuloDePrueba(3, { codigo: 'QUESO', nombre: 'Queso curado', precio: 220000, tipo_iva: '10', unidad_medida: 'kg' });

let red = true;
let llamadas: { ac: string | null; body: Record<string, unknown> | null }[] = [];
function servidor(url: string, init?: RequestInit): Response {
  const u = new URL(url, 'http://x');
  const ac = u.searchParams.get('ac');
  const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
  llamadas.push({ ac, body });
  if (ac === 'devolversinticket') {
    const r = body!.registro as { num_serie: string; huella: string } | undefined;
    return respuestaOk([{ id: 901, numero: r?.num_serie ?? 'TR1 2026/000009', total: -1342, ticket_id: null, huella: r?.huella ?? 'B'.repeat(64), qr_url: 'https://x', vales: [] }]);
  }
  return sinRespuesta(ac);
}

const usuario = (especiales: string[]) => ({
  id: 1, nombre: 'Ana', email: 'ana@tienda.es', rol: { id: 5, nombre: 'Caja', clave: 'caja', derechos: { areas: { tpv: ['ver', 'editar', 'acciones'] }, especiales, descuento_maximo: 0 } },
});

beforeEach(() => {
  red = true;
  llamadas = [];
});
cajaDePrueba(
  (url, init) => {
    if (!red) throw new TypeError('Failed to fetch');
    return servidor(url, init);
  },
  () => ({ terminal: TERMINAL, online: true, indice: new IndiceCatalogo([PAN, QUESO]), operaciones: [], sesion: { user: usuario(['devolver_sin_ticket']) as never, config: null } }),
);

async function abrir() {
  const user = userEvent.setup();
  renderWithShell(<Venta />);
  await user.click(screen.getByRole('button', { name: 'Devolución' }));
  const d = within(await screen.findByRole('dialog', { name: 'Devolución' }));
  return { user, d };
}

describe('devolución sin ticket (issue 23)', () => {
  it('sin el derecho no se ofrece', async () => {
    useCaja.setState({ sesion: { user: usuario([]) as never, config: null } });
    const { d } = await abrir();
    expect(d.queryByRole('button', { name: 'Sin ticket' })).toBeNull();
  });

  it('con el derecho: los artículos escaneados o escritos, sus cantidades, el reembolso repartido; el servidor hace la R5', async () => {
    const { user, d } = await abrir();
    await user.click(d.getByRole('button', { name: 'Sin ticket' }));
    expect(d.getByTestId('devolucion-sin-ticket')).toBeTruthy();
    // Scanned twice: two loaves on one line; the cheese by its name, 0,5 kg.
    await user.type(d.getByLabelText('Artículo (código de barras, código o nombre)'), '8400000000021{Enter}');
    await user.type(d.getByLabelText('Artículo (código de barras, código o nombre)'), '8400000000021{Enter}');
    await user.type(d.getByLabelText('Artículo (código de barras, código o nombre)'), 'queso{Enter}');
    expect((d.getByLabelText('Devolver de Pan') as HTMLInputElement).value).toBe('2');
    await user.clear(d.getByLabelText('Devolver de Queso curado'));
    await user.type(d.getByLabelText('Devolver de Queso curado'), '0,5');
    // 2,42 + 11,00 = 13,42 €, in cash unless the customer chooses.
    expect(d.getByTestId('devolucion-importe').textContent).toMatch(/13,42\s€/);
    expect((d.getByLabelText('Efectivo (€)') as HTMLInputElement).value).toBe('13,42');
    // Not a known article: said, nothing added.
    await user.type(d.getByLabelText('Artículo (código de barras, código o nombre)'), 'zzz{Enter}');
    expect(d.getByText('No hay ningún artículo «zzz».')).toBeTruthy();
    // 10 by card, the rest in cash.
    await user.clear(d.getByLabelText('Tarjeta (€)'));
    await user.type(d.getByLabelText('Tarjeta (€)'), '10');
    await user.clear(d.getByLabelText('Efectivo (€)'));
    await user.type(d.getByLabelText('Efectivo (€)'), '3,42');
    await user.click(d.getByRole('button', { name: 'Devolver' }));
    expect(await d.findByTestId('devolucion-numero')).toBeTruthy();
    expect(d.getByTestId('devolucion-numero').textContent).toBe('TR1 2026/000009');
    const envio = llamadas.find((l) => l.ac === 'devolversinticket')!;
    expect(envio.body).toMatchObject({
      terminal_id: 7,
      lineas: [{ articulo_id: 2, cantidad: 2000, precio: 12100 }, { articulo_id: 3, cantidad: 500, precio: 220000 }],
      pagos: [{ forma: 'efectivo', importe: 342 }, { forma: 'tarjeta', importe: 1000 }],
    });
  });

  it('una fracción de un artículo por unidades no se devuelve', async () => {
    const { user, d } = await abrir();
    await user.click(d.getByRole('button', { name: 'Sin ticket' }));
    await user.type(d.getByLabelText('Artículo (código de barras, código o nombre)'), 'PAN{Enter}');
    await user.clear(d.getByLabelText('Devolver de Pan'));
    await user.type(d.getByLabelText('Devolver de Pan'), '1,5');
    await user.click(d.getByRole('button', { name: 'Devolver' }));
    expect(await d.findByText('«Pan» se vende por unidades: la cantidad debe ser un número entero, no 1,5.')).toBeTruthy();
    expect(llamadas.filter((l) => l.ac === 'devolversinticket')).toHaveLength(0);
    // Back to finding a ticket: the articles typed are dropped.
    await user.click(d.getByRole('button', { name: 'Con ticket' }));
    expect(d.getByLabelText('Número del ticket (escanéelo o escriba sus últimas cifras)')).toBeTruthy();
    expect(d.queryByLabelText('Devolver de Pan')).toBeNull();
  });

  it('sin conexión: la caja hace la R5 (sin factura rectificada) y la envía por devolversinticket al volver la red', async () => {
    red = false;
    const { user, d } = await abrir();
    await user.click(d.getByRole('button', { name: 'Sin ticket' }));
    await user.type(d.getByLabelText('Artículo (código de barras, código o nombre)'), 'PAN{Enter}');
    await user.click(d.getByRole('button', { name: 'Devolver' }));
    expect(await d.findByTestId('devolucion-numero')).toBeTruthy();
    expect(d.getByTestId('devolucion-numero').textContent).toBe('TR1 2026/000001');
    const [dev] = (await almacenColaIdb.todos()).filter((x) => x.clase === 'devolucion');
    expect(dev.devolucion).toMatchObject({ sin_ticket: true, ticket_id: null, pagos: [{ forma: 'efectivo', importe: 121 }] });
    expect(dev.registro!.tipo_factura).toBe('R5');
    expect(dev.registro!.xml).toContain('<sf:DescripcionOperacion>Devolución sin ticket</sf:DescripcionOperacion>');
    expect(dev.registro!.xml).not.toContain('FacturasRectificadas');
    red = true;
    await colaDe(TERMINAL, () => undefined).vaciar();
    const envio = llamadas.find((l) => l.ac === 'devolversinticket')!;
    expect(envio.body).toMatchObject({ terminal_id: 7, uuid: dev.uuid, lineas: [{ articulo_id: 2, cantidad: 1000, precio: 12100 }], registro: { num_serie: 'TR1 2026/000001' } });
    await waitFor(async () => expect((await almacenColaIdb.todos()).find((x) => x.uuid === dev.uuid)!.estado).toBe('subido'));
  });
});
