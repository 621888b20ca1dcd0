import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { barrasCode128, type TicketPdf } from 'shared';
import { renderWithShell } from 'shared/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { IndiceCatalogo } from '../datos/catalogo';
import { useCaja } from './estado';
import { RolloTicket } from '../venta/TicketImpreso';
import { Venta } from '../venta/Venta';
import { cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';

const TERMINAL = terminalDePrueba({ formas_pago: ['efectivo', 'tarjeta'] });
const hoy = new Date().toISOString().slice(0, 10);
const ticket = (id: number, numero: string) => ({
  id,
  numero,
  fecha: hoy,
  total: 299,
  estado: 'emitido',
  lineas: [{ id: id * 10, articulo_id: 1, codigo: 'CAF', descripcion: 'Café molido', cantidad: 1000, precio_iva: 29900, precio: 24711, descuento: 0, tipo_iva: '21', devuelto: 0 }],
  pagos: [{ forma: 'efectivo', importe: 299 }],
});
// The database ids say nothing of the numbers: id 1470 is another ticket altogether.
const TICKETS = [ticket(1470, 'T1 2026/000003'), ticket(20, 'T1 2026/001470'), ticket(35, 'T1 2026/011470')];
// 4 × 1,21 € = 4,84 €: 3,00 by card and 1,84 in cash (2,00 handed over).
TICKETS.push({
  ...ticket(50, 'T1 2026/000050'),
  total: 484,
  lineas: [{ id: 500, articulo_id: 2, codigo: 'PAN', descripcion: 'Pan', cantidad: 4000, precio_iva: 12100, precio: 10000, descuento: 0, tipo_iva: '21', devuelto: 0 }],
  pagos: [{ forma: 'tarjeta', importe: 300 }, { forma: 'efectivo', importe: 184 }],
});
let devoluciones: Record<string, unknown>[] = [];

let pedidas: URLSearchParams[] = [];
function servidor(url: string, init?: RequestInit): Response {
  const u = new URL(url, 'http://x');
  const cuerpo = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
  const ac = u.searchParams.get('ac');
  if (ac === 'devolverticket') {
    devoluciones.push(cuerpo ?? {});
    const vale = ((cuerpo?.pagos ?? []) as { forma: string; importe: number }[]).find((p) => p.forma === 'vale');
    return respuestaOk([{ id: 900, numero: `TR1 2026/00000${devoluciones.length}`, total: -242, ticket_id: 50, huella: 'A'.repeat(64), qr_url: 'https://x', vales: vale ? [{ codigo: 'V123456789012', importe: vale.importe }] : [] }]);
  }
  if (ac === 'listadotickets') {
    pedidas.push(u.searchParams);
    const id = u.searchParams.get('id');
    if (id) return respuestaOk(TICKETS.filter((t) => t.id === Number(id)));
    const fin = u.searchParams.get('numero_fin');
    if (fin) {
      const filas = TICKETS.filter((t) => (/\/(\d+)$/.exec(t.numero)?.[1] ?? '').endsWith(fin)).sort((a, b) => b.numero.localeCompare(a.numero));
      return respuestaOk(filas.map(({ id, numero, fecha, total }) => ({ id, numero, fecha, total })));
    }
    const q = u.searchParams.get('q') ?? '';
    return respuestaOk(TICKETS.filter((t) => t.numero === q).map(({ id, numero }) => ({ id, numero })));
  }
  return sinRespuesta(ac);
}

beforeEach(() => {
  pedidas = [];
  devoluciones = [];
});
cajaDePrueba(servidor, () => ({
  terminal: TERMINAL,
  online: true,
  sesion: { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null },
  indice: new IndiceCatalogo([]),
}));

async function abrirDevolucion() {
  const user = userEvent.setup();
  renderWithShell(<Venta />);
  await user.click(screen.getByRole('button', { name: 'Devolución' }));
  const d = within(await screen.findByRole('dialog', { name: 'Devolución' }));
  return { user, d };
}

describe('encontrar un ticket para devolverlo (issue 23)', () => {
  it('las últimas cifras del número: el más reciente que acaba así en este terminal, y los demás a elegir; nunca el id', async () => {
    const { user, d } = await abrirDevolucion();
    await user.type(d.getByLabelText('Número del ticket (escanéelo o escriba sus últimas cifras)'), '1470{Enter}');
    expect((await d.findByTestId('devolucion-ticket')).textContent).toContain('Ticket T1 2026/011470');
    const busqueda = pedidas.find((p) => p.get('numero_fin'))!;
    expect(Object.fromEntries(busqueda)).toMatchObject({ numero_fin: '1470', terminal_id: '7', orden: 'numero', dir: 'desc' });
    // The ticket whose database id is 1470 was never asked for.
    expect(pedidas.some((p) => p.get('id') === '1470')).toBe(false);
    // The other one ending in 1470, to choose.
    const otros = d.getByLabelText('Otros tickets que acaban en 1470');
    await user.click(within(otros).getByRole('button', { name: 'T1 2026/001470' }));
    await waitFor(() => expect(d.getByTestId('devolucion-ticket').textContent).toContain('Ticket T1 2026/001470'));
    expect(within(d.getByLabelText('Otros tickets que acaban en 1470')).getByRole('button', { name: 'T1 2026/011470' })).toBeTruthy();
    await user.click(d.getAllByRole('button', { name: 'Todo' })[0]);
    expect(d.getByTestId('devolucion-importe').textContent).toBe('2,99 €');
  });

  it('lo que teclea el lector (el número impreso, de su código de barras) encuentra ese ticket', async () => {
    const { user, d } = await abrirDevolucion();
    await user.type(d.getByLabelText('Número del ticket (escanéelo o escriba sus últimas cifras)'), 'T1 2026/000003{Enter}');
    expect((await d.findByTestId('devolucion-ticket')).textContent).toContain('Ticket T1 2026/000003');
    expect(d.queryByLabelText(/Otros tickets/)).toBeNull();
  });

  it('unas cifras que no acaban ningún número lo dicen', async () => {
    const { user, d } = await abrirDevolucion();
    await user.type(d.getByLabelText('Número del ticket (escanéelo o escriba sus últimas cifras)'), '999{Enter}');
    expect((await d.findByRole('alert')).textContent).toBe('No hay ningún ticket «999».');
  });
});

describe('el ticket impreso lleva su número en código de barras (issue 23)', () => {
  it('Code 128 del número, barra a barra, y el número debajo', () => {
    const datos = {
      empresa: { nombre: 'Ferretería', nif: 'B12345674' }, titulo: 'Factura simplificada', numero: 'T1 2026/001470', fecha: '29/11/2026 10:00',
      lineas: [], desglose: [], total: '2,99 €', pagos: [], qr: null,
    } as unknown as TicketPdf;
    render(<RolloTicket datos={datos} />);
    const svg = screen.getByRole('img', { name: 'Número del ticket: T1 2026/001470' });
    const rects = [...svg.querySelector('path')!.getAttribute('d')!.matchAll(/M(\d+) 0h(\d+)/g)].map((m) => ({ x: Number(m[1]) - 10, ancho: Number(m[2]) }));
    expect(rects).toEqual(barrasCode128('T1 2026/001470').barras);
    expect(screen.getByTestId('ticket-barras').textContent).toBe('T1 2026/001470');
  });
});

describe('el reembolso, por la forma que elige el cliente (issue 23)', () => {
  const elegir = async () => {
    const { user, d } = await abrirDevolucion();
    await user.type(d.getByLabelText('Número del ticket (escanéelo o escriba sus últimas cifras)'), 'T1 2026/000050{Enter}');
    await d.findByTestId('devolucion-ticket');
    await user.type(d.getByLabelText('Devolver de Pan'), '2');
    return { user, d, r: within(d.getByRole('group', { name: 'Reembolso' })) };
  };
  const valor = (r: ReturnType<typeof within>, f: string) => (r.getByLabelText(`${f} (€)`) as HTMLInputElement).value;

  it('por defecto «como se pagó»: tarjeta y efectivo en la proporción en que se pagó', async () => {
    const { user, d, r } = await elegir();
    expect(d.getByTestId('devolucion-importe').textContent).toBe('2,42 €');
    // 2,42 × 3,00/4,84 = 1,50 by card; 0,92 cash.
    expect([valor(r, 'Tarjeta'), valor(r, 'Efectivo')]).toEqual(['1,50', '0,92']);
    await user.click(d.getByRole('button', { name: 'Devolver' }));
    expect((await d.findByTestId('devolucion-reembolso')).textContent).toBe('1,50 € en tarjeta y 0,92 € en efectivo');
    expect(devoluciones[0]).toMatchObject({ id: 50, lineas: [{ id: 500, cantidad: 2000 }], pagos: [{ forma: 'tarjeta', importe: 150 }, { forma: 'efectivo', importe: 92 }] });
  });

  it('todo en efectivo, o repartido a mano; un reparto que no suma lo dicho no se devuelve', async () => {
    const { user, d, r } = await elegir();
    await user.click(r.getByRole('button', { name: 'Todo en efectivo' }));
    expect([valor(r, 'Tarjeta'), valor(r, 'Efectivo')]).toEqual(['', '2,42']);
    await user.clear(r.getByLabelText('Efectivo (€)'));
    await user.type(r.getByLabelText('Efectivo (€)'), '1');
    expect(r.getByRole('status').textContent).toBe('Los reembolsos (1,00 €) deben sumar el importe de la devolución (2,42 €).');
    expect((d.getByRole('button', { name: 'Devolver' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(r.getByLabelText('Tarjeta (€)'), '1,42');
    await user.click(d.getByRole('button', { name: 'Devolver' }));
    await d.findByTestId('devolucion-reembolso');
    expect(devoluciones[0].pagos).toEqual([{ forma: 'efectivo', importe: 100 }, { forma: 'tarjeta', importe: 142 }]);
  });
});

describe('un vale como reembolso, con el derecho (issue 23)', () => {
  const rol = (especiales: string[]) => ({ id: 1, nombre: 'Ana', email: 'ana@tienda.es', rol: { id: 5, nombre: 'Caja', clave: 'caja', derechos: { areas: { tpv: ['ver', 'editar', 'acciones'] }, especiales, descuento_maximo: 0 } } });
  const elegir = async () => {
    const { user, d } = await abrirDevolucion();
    await user.type(d.getByLabelText('Número del ticket (escanéelo o escriba sus últimas cifras)'), 'T1 2026/000050{Enter}');
    await d.findByTestId('devolucion-ticket');
    await user.type(d.getByLabelText('Devolver de Pan'), '2');
    return { user, d, r: within(d.getByRole('group', { name: 'Reembolso' })) };
  };

  it('sin el derecho no se ofrece el vale', async () => {
    useCaja.setState({ sesion: { user: rol([]) as never, config: null } });
    const { r } = await elegir();
    expect(r.queryByLabelText('Vale (€)')).toBeNull();
    expect(r.queryByRole('button', { name: 'Todo en vale' })).toBeNull();
  });

  it('con el derecho: todo en vale; el vale se muestra con su código de barras para imprimirlo', async () => {
    useCaja.setState({ sesion: { user: rol(['reembolso_vale']) as never, config: null } });
    const { user, d, r } = await elegir();
    await user.click(r.getByRole('button', { name: 'Todo en vale' }));
    await user.click(d.getByRole('button', { name: 'Devolver' }));
    expect((await d.findByTestId('vale-codigo')).textContent).toBe('V123456789012');
    expect(d.getByRole('img', { name: 'Código del vale: V123456789012' })).toBeTruthy();
    expect(devoluciones[0].pagos).toEqual([{ forma: 'vale', importe: 242 }]);
    expect(d.getByTestId('devolucion-reembolso').textContent).toBe('2,42 € en vale');
  });
});
