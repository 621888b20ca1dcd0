import { MESSAGES_TPV } from 'shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { IndiceCatalogo, type ArticuloTpv } from '../datos/catalogo';
import { almacenColaIdb } from '../datos/cola';
import { huellaDe } from 'shared/fiscal';
import { Apertura } from './Acceso';
import { BarraEstado } from './Caja';
import Cierre from './Cierre';
import Devolucion from './Devolucion';
import Incidencias from './Incidencias';
import { buscarLocal } from './devolucionLocal';
import { colaDe, useCaja } from './estado';
import Movimiento from './Movimiento';
import { cajaDePrueba, respuestaOk, terminalDePrueba } from '../pruebas';

/** Cash movements and the closing without the server (issue 13): queued in order with the tickets, uploaded once. */

const PAN: ArticuloTpv = { id: 3, codigo: 'PAN', nombre: 'Pan', descripcion: 'Pan', codigo_barras: null, precio: 11000, tipo_iva: '4' };
const AÑO = new Date().getFullYear();
const TERMINAL = terminalDePrueba({
  ultimo: { ejercicio: AÑO, numero: 4 },
  caja_abierta: { id: 41, apertura: '2026-11-26T08:00:00Z', fondo: 10000, usuario_nombre: 'Ana' },
});

type Llamada = { ac: string; body: Record<string, unknown> | null };
let red = false;
let llamadas: Llamada[] = [];
/** The server's answer to a movement (null: accepted). */
let rechazoMovimiento: string | null = null;
let rechazoDevolucion: string | null = null;
const movimientosGuardados = new Set<string>();

function servidor(url: string, init?: RequestInit): Response {
  const u = new URL(url, 'http://x');
  const ac = u.searchParams.get('ac') ?? '';
  const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
  llamadas.push({ ac, body });
  if (ac === 'subirtickets') {
    const tickets = body!.tickets as { uuid: string; registro: { num_serie: string; huella: string } }[];
    return respuestaOk(tickets.map((t) => ({ uuid: t.uuid, id: 1, numero: t.registro.num_serie, total: 110, huella: t.registro.huella, qr_url: 'https://x', offline: 1, repetido: 0 })));
  }
  if (ac === 'movimientocajatpv') {
    if (rechazoMovimiento) return new Response(JSON.stringify({ RESULT: '1', message: rechazoMovimiento }), { status: 400 });
    movimientosGuardados.add(String(body!.uuid));
    return respuestaOk([{ id: 9, caja_id: 41, importe: body!.importe, motivo: body!.motivo }]);
  }
  if (ac === 'abrircajatpv') return respuestaOk([{ id: 42, apertura: '2026-11-27T08:00:00.000Z', fondo: body!.fondo }]);
  if (ac === 'listadotickets') {
    if (!u.searchParams.get('id')) return respuestaOk([{ id: 5, numero: 'T1 2026/000001' }]);
    return respuestaOk([
      {
        id: 5, numero: 'T1 2026/000001', fecha: '2026-11-20', total: 598, estado: 'devuelto_parcial', uuid: 'u-5',
        lineas: [{ id: 50, articulo_id: 1, codigo: 'CAF', descripcion: 'Café molido', cantidad: 2000, precio_iva: 29900, precio: 24711, descuento: 0, tipo_iva: '21', devuelto: 1000 }],
        pagos: [{ forma: 'tarjeta', importe: 598 }],
        registro: { num_serie: 'T1 2026/000001', fecha_expedicion: '20-11-2026', huella: 'A'.repeat(64), qr_url: 'https://x' },
      },
    ]);
  }
  if (ac === 'devolverticket') {
    if (rechazoDevolucion) return new Response(JSON.stringify({ RESULT: '1', message: rechazoDevolucion }), { status: 400 });
    const r = body!.registro as { num_serie: string; huella: string };
    return respuestaOk([{ id: 77, numero: r.num_serie, total: -110, ticket_id: 1, huella: r.huella, qr_url: 'https://x' }]);
  }
  if (ac === 'editarcierretpv') return respuestaOk([{ id: 3, codigo: 12, total: 110, caja_id: 41 }]);
  return new Response(JSON.stringify({ RESULT: '1', message: `inesperado ${ac}` }), { status: 400 });
}

beforeEach(() => {
  red = false;
  llamadas = [];
  rechazoMovimiento = null;
  rechazoDevolucion = null;
  movimientosGuardados.clear();
});
// Without the network the till's fetch fails as a browser's does.
cajaDePrueba(
  (url, init) => {
    if (!red) throw new TypeError('Failed to fetch');
    return servidor(url, init);
  },
  () => ({ terminal: TERMINAL, indice: new IndiceCatalogo([PAN]), operaciones: [] }),
);

async function vender() {
  useCaja.getState().añadirArticulo(PAN);
  return useCaja.getState().cobrar([{ forma: 'efectivo', importe: 110 }]);
}

describe('movimientos de caja sin conexión', () => {
  it('la salida se anota en la caja, se ve pendiente de envío y, al volver la red, sube una vez, detrás del ticket anterior', async () => {
    const ticket = await vender();
    const user = userEvent.setup();
    renderWithShell(<Movimiento onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText('Importe (€)'), '20,50');
    await user.type(screen.getByLabelText('Motivo'), 'Retirada a caja fuerte');
    await user.click(screen.getByRole('button', { name: 'Anotar' }));
    expect(await screen.findByText(/Salida de 20,50\s€ anotada sin conexión: pendiente de envío/)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('table', { name: 'Movimientos pendientes de envío' }).textContent).toContain('Retirada a caja fuerte'));
    expect(screen.getByRole('table', { name: 'Movimientos pendientes de envío' }).textContent).toContain('Pendiente de envío');

    const cola = colaDe(TERMINAL, () => undefined);
    const pend = await cola.pendientes();
    expect(pend.map((t) => t.clase ?? 'ticket')).toEqual(['ticket', 'movimiento']);
    expect(pend[1].movimiento).toEqual({ importe: -2050, motivo: 'Retirada a caja fuerte', caja_id: 41 });

    red = true;
    await cola.vaciar();
    // In order: the ticket, then the movement, marked as made offline in caja 41 at the till's instant.
    expect(llamadas.map((l) => l.ac)).toEqual(['subirtickets', 'movimientocajatpv']);
    expect((llamadas[0].body!.tickets as { uuid: string }[])[0].uuid).toBe(ticket.uuid);
    expect(llamadas[1].body).toMatchObject({ terminal_id: 7, importe: -2050, motivo: 'Retirada a caja fuerte', uuid: pend[1].uuid, caja_id: 41, offline: 1, fecha_hora: pend[1].fecha_hora });
    expect((await almacenColaIdb.todos()).every((t) => t.estado === 'subido')).toBe(true);
    await waitFor(() => expect(useCaja.getState().operaciones).toEqual([]));
    // Again: nothing more goes.
    await cola.vaciar();
    expect(llamadas).toHaveLength(2);
  });

  it('si el servidor lo rechaza al subir, queda como incidencia (no se pierde) y lo que va detrás sigue subiendo', async () => {
    await useCaja.getState().anotarMovimiento(5000, 'Cambio del banco', crypto.randomUUID());
    const despues = await vender();
    red = true;
    rechazoMovimiento = 'La caja en la que se hizo el movimiento ya está cerrada: anótelo en la caja abierta o como corrección del cierre.';
    await colaDe(TERMINAL, () => undefined).vaciar();
    const todos = await almacenColaIdb.todos();
    const mov = todos.find((t) => t.clase === 'movimiento')!;
    expect(mov).toMatchObject({ estado: 'incidencia', incidencia: rechazoMovimiento, movimiento: { importe: 5000, motivo: 'Cambio del banco' } });
    expect(todos.find((t) => t.uuid === despues.uuid)!.estado).toBe('subido');
    await waitFor(() => expect(useCaja.getState().operaciones.map((o) => o.estado)).toEqual(['incidencia']));
    // Shown with its reason until someone marks it resolved; then kept (never deleted), out of the list.
    const user = userEvent.setup();
    renderWithShell(<Incidencias onCerrar={() => undefined} />);
    const tabla = screen.getByRole('table', { name: 'Incidencias por resolver' });
    expect(tabla.textContent).toContain('Entrada: Cambio del banco');
    expect(tabla.textContent).toContain(rechazoMovimiento);
    await user.click(screen.getByRole('button', { name: 'Resuelta' }));
    expect(await screen.findByText('No hay incidencias.')).toBeTruthy();
    expect((await almacenColaIdb.todos()).find((t) => t.uuid === mov.uuid)).toMatchObject({ estado: 'resuelta', incidencia: rechazoMovimiento, movimiento: { importe: 5000 } });
  });

  it('con conexión, el movimiento va directo y un rechazo se dice al momento (nada queda en cola)', async () => {
    red = true;
    rechazoMovimiento = 'No hay tanto efectivo en el cajón (100,00 €).';
    await expect(useCaja.getState().anotarMovimiento(-1_000_000, 'Demasiado', crypto.randomUUID())).rejects.toThrow('No hay tanto efectivo en el cajón (100,00 €).');
    expect(await almacenColaIdb.todos()).toEqual([]);
  });
});

describe('el cierre sin conexión', () => {
  it('se prepara con el arqueo por billetes, la caja queda libre y se envía al volver, después de todo lo que estaba en cola', async () => {
    await vender();
    await useCaja.getState().anotarMovimiento(-1000, 'Proveedor', crypto.randomUUID());
    const user = userEvent.setup();
    renderWithShell(<Cierre onCerrar={() => undefined} />);
    expect(await screen.findByTestId('cierre-sin-conexion')).toBeTruthy();
    await user.type(screen.getByLabelText('Unidades de 20,00 €'), '3');
    await user.type(screen.getByLabelText('Unidades de 0,50 €'), '1');
    expect(screen.getByTestId('arqueo-efectivo').textContent).toMatch(/^60,50\s€$/);
    await user.click(screen.getByRole('button', { name: 'Preparar el cierre' }));
    expect((await screen.findByTestId('cierre-preparado')).textContent).toMatch(/60,50\s€ en efectivo/);
    await user.click(screen.getByRole('button', { name: 'Terminar' }));
    // The cashier is not stuck: the caja is closed here (the next opening queues after the closing).
    expect(useCaja.getState().fase).toBe('apertura');
    expect(useCaja.getState().terminal?.caja_abierta).toBeNull();

    const cola = colaDe(TERMINAL, () => undefined);
    const pend = await cola.pendientes();
    expect(pend.map((t) => t.clase ?? 'ticket')).toEqual(['ticket', 'movimiento', 'cierre']);
    expect(pend[2].cierre).toEqual({ caja_id: 41, contado: [{ forma: 'efectivo', importe: 6050 }], denominaciones: [{ valor: 2000, cantidad: 3 }, { valor: 50, cantidad: 1 }] });

    red = true;
    await cola.vaciar();
    expect(llamadas.map((l) => l.ac)).toEqual(['subirtickets', 'movimientocajatpv', 'editarcierretpv']);
    expect(llamadas[2].body).toMatchObject({ terminal_id: 7, caja_id: 41, contado: [{ forma: 'efectivo', importe: 6050 }], fecha_hora: pend[2].fecha_hora });
    const cierre = (await almacenColaIdb.todos()).find((t) => t.clase === 'cierre')!;
    expect(cierre).toMatchObject({ estado: 'subido', respuesta: { codigo: 12, numero: 'Cierre nº 12' } });
  });
});

describe('cerrar sin contar nada (issue 23)', () => {
  it('pregunta antes: «Contar el efectivo» vuelve al arqueo sin cerrar; «Cerrar sin contar» cierra con 0,00 €', async () => {
    await vender();
    const user = userEvent.setup();
    renderWithShell(<Cierre onCerrar={() => undefined} />);
    expect(await screen.findByTestId('cierre-sin-conexion')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Preparar el cierre' }));
    const pregunta = screen.getByRole('alertdialog', { name: 'No ha contado nada.' });
    expect(pregunta.textContent).toContain('¿Cerrar sin contar?');
    await user.click(within(pregunta).getByRole('button', { name: 'Contar el efectivo' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const cola = colaDe(TERMINAL, () => undefined);
    expect((await cola.pendientes()).map((t) => t.clase ?? 'ticket')).toEqual(['ticket']);
    expect(useCaja.getState().fase).not.toBe('apertura');
    await user.click(screen.getByRole('button', { name: 'Preparar el cierre' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cerrar sin contar' }));
    expect((await screen.findByTestId('cierre-preparado')).textContent).toMatch(/0,00\s€ en efectivo/);
    expect((await cola.pendientes()).map((t) => t.clase ?? 'ticket')).toEqual(['ticket', 'cierre']);
  });

  it('con algo contado no pregunta', async () => {
    await vender();
    const user = userEvent.setup();
    renderWithShell(<Cierre onCerrar={() => undefined} />);
    await screen.findByTestId('cierre-sin-conexion');
    await user.type(screen.getByLabelText('Unidades de 1,00 €'), '2');
    await user.click(screen.getByRole('button', { name: 'Preparar el cierre' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((await screen.findByTestId('cierre-preparado')).textContent).toMatch(/2,00\s€ en efectivo/);
  });
});

describe('devoluciones sin conexión', () => {
  it('de un ticket vendido en esta caja: la R5 se hace aquí (serie rectificativa, encadenada), limitada a lo vendido, y sube detrás del ticket', async () => {
    const ticket = await vender();
    const user = userEvent.setup();
    const { unmount } = renderWithShell(<Devolucion onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText(/Número del ticket/), ticket.registro!.num_serie);
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(await screen.findByTestId('devolucion-sin-conexion')).toBeTruthy();
    await user.type(screen.getByLabelText('Devolver de Pan'), '2');
    await user.click(screen.getByRole('button', { name: 'Devolver' }));
    // Not beyond what was sold.
    expect((await screen.findByRole('alert')).textContent).toBe('De «Pan» quedan por devolver 1.');
    await user.clear(screen.getByLabelText('Devolver de Pan'));
    await user.type(screen.getByLabelText('Devolver de Pan'), '1');
    expect(screen.getByTestId('devolucion-importe').textContent).toMatch(/^1,10\s€$/);
    await user.click(screen.getByRole('button', { name: 'Devolver' }));
    expect((await screen.findByTestId('devolucion-numero')).textContent).toBe(`TR1 ${AÑO}/000001`);
    expect(screen.getByRole('status').textContent).toMatch(/devolver 1,10\s€ en efectivo\. Hecha sin conexión: pendiente de envío/);
    unmount();

    const cola = colaDe(TERMINAL, () => undefined);
    const [, r5] = await cola.pendientes();
    expect(r5).toMatchObject({ clase: 'devolucion', total: -110, devolucion: { ticket_uuid: ticket.uuid, numero_ticket: ticket.registro!.num_serie, pagos: [{ forma: 'efectivo', importe: 110 }] } });
    const r = r5.registro!;
    expect(r).toMatchObject({ tipo_factura: 'R5', num_serie: `TR1 ${AÑO}/000001`, importe_total: '-1.10', cuota_total: '-0.04', huella_anterior: ticket.registro!.huella });
    expect(r.huella).toBe(
      huellaDe({
        IDEmisorFactura: 'B12345678', NumSerieFactura: r.num_serie, FechaExpedicionFactura: r.fecha_expedicion, TipoFactura: 'R5', CuotaTotal: r.cuota_total,
        ImporteTotal: r.importe_total, Huella: r.huella_anterior, FechaHoraHusoGenRegistro: r.fecha_hora_huso,
      }),
    );
    expect(r.xml).toContain(`<sf:NumSerieFactura>${ticket.registro!.num_serie}</sf:NumSerieFactura>`);

    // Looked up again offline: what this till returned counts; nothing is left to return.
    renderWithShell(<Devolucion onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText(/Número del ticket/), ticket.registro!.num_serie);
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    await waitFor(() => expect((screen.getByLabelText('Devolver de Pan') as HTMLInputElement).disabled).toBe(true));

    // A ticket the till doesn't know: it says the return needs the connection.
    await user.clear(screen.getByLabelText(/Número del ticket/));
    await user.type(screen.getByLabelText(/Número del ticket/), 'T9 2026/000123');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/el ticket «T9 2026\/000123» no está en esta caja, así que su devolución necesita conexión con el servidor/);

    red = true;
    await cola.vaciar();
    expect(llamadas.map((l) => l.ac)).toEqual(['subirtickets', 'devolverticket']);
    expect(llamadas[1].body).toMatchObject({ ticket_uuid: ticket.uuid, uuid: r5.uuid, lineas: [{ orden: 1, cantidad: 1000 }], pagos: [{ forma: 'efectivo', importe: 110 }], registro: r, fecha_hora: r5.fecha_hora });
    expect((await almacenColaIdb.todos()).every((t) => t.estado === 'subido')).toBe(true);
  });

  it('lo impreso no se reescribe: si el servidor aparta la R5 al subir, queda como incidencia con su número y huella, y lo que venía detrás sube tal cual, sin reencadenar ni renumerar', async () => {
    const a = await vender();
    const t = (await buscarLocalTicket(a.registro!.num_serie))!;
    const r5 = await useCaja.getState().devolverOffline(t, [{ linea: t.lineas[0], cantidad: 1000 }], crypto.randomUUID());
    const b = await vender();
    expect(b.registro!.huella_anterior).toBe(r5.registro!.huella);
    red = true;
    rechazoDevolucion = 'Devolución: la huella del registro no corresponde a sus datos: el registro se ha alterado.';
    await colaDe(TERMINAL, () => undefined).vaciar();
    const todos = await almacenColaIdb.todos();
    // The return kept aside exactly as printed: its number and its huella.
    expect(todos.find((x) => x.uuid === r5.uuid)).toMatchObject({ estado: 'incidencia', incidencia: rechazoDevolucion, registro: r5.registro });
    // What followed uploaded as it was made and printed: the same record, still chained to the R5.
    const bSubido = todos.find((x) => x.uuid === b.uuid)!;
    expect(bSubido).toMatchObject({ estado: 'subido', registro: b.registro });
    const subidoB = llamadas.filter((l) => l.ac === 'subirtickets').flatMap((l) => l.body!.tickets as { uuid: string; registro: unknown }[]).find((x) => x.uuid === b.uuid)!;
    expect(subidoB.registro).toEqual(b.registro);
    await waitFor(() => expect(useCaja.getState().operaciones.map((o) => [o.clase, o.estado])).toEqual([['devolucion', 'incidencia']]));
    // The next return made here takes the next number: the one printed on the kept return is never handed out again.
    const t2 = (await buscarLocalTicket(b.registro!.num_serie))!;
    red = false;
    const otra = await useCaja.getState().devolverOffline(t2, [{ linea: t2.lineas[0], cantidad: 1000 }], crypto.randomUUID());
    expect(otra.registro!.num_serie).toBe(`TR1 ${AÑO}/000002`);
    expect(otra.registro!.huella_anterior).toBe(b.registro!.huella);
  });
});

describe('la apertura sin conexión', () => {
  it('la cajera vende enseguida; al volver, la caja se abre antes que los tickets y lo que sigue nombra esa caja', async () => {
    useCaja.setState({ terminal: { ...TERMINAL, caja_abierta: null }, fase: 'apertura' });
    const user = userEvent.setup();
    renderWithShell(<Apertura />);
    await user.clear(screen.getByLabelText('Fondo de caja (€)'));
    await user.type(screen.getByLabelText('Fondo de caja (€)'), '150');
    await user.click(screen.getByRole('button', { name: 'Abrir caja' }));
    await waitFor(() => expect(useCaja.getState().fase).toBe('venta'));
    await vender();
    await useCaja.getState().anotarMovimiento(-500, 'Proveedor', crypto.randomUUID());
    const cola = colaDe(TERMINAL, () => undefined);
    expect((await cola.pendientes()).map((t) => t.clase ?? 'ticket')).toEqual(['apertura', 'ticket', 'movimiento']);

    red = true;
    await cola.vaciar();
    expect(llamadas.map((l) => l.ac)).toEqual(['abrircajatpv', 'subirtickets', 'movimientocajatpv']);
    expect(llamadas[0].body).toMatchObject({ terminal_id: 7, fondo: 15000 });
    // The movement made before the caja existed on the server names it now.
    expect(llamadas[2].body).toMatchObject({ caja_id: 42, offline: 1 });
    expect(useCaja.getState().terminal?.caja_abierta?.id).toBe(42);
  });
});

describe('devolución sin conexión de un ticket buscado antes', () => {
  it('Caja devuelve solo tickets del día: uno de un día anterior necesita el derecho, y se dice antes de elegir nada', async () => {
    red = true;
    const caja = { id: 5, nombre: 'Caja', clave: 'caja', derechos: { areas: { tpv: ['ver', 'editar', 'acciones'] }, especiales: [], descuento_maximo: 0 } };
    useCaja.setState({ sesion: { user: { id: 2, nombre: 'Luis', email: 'luis@tienda.es', rol: caja }, config: null } as never });
    const user = userEvent.setup();
    const { unmount } = renderWithShell(<Devolucion onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText(/Número del ticket/), 'T1 2026/000001');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(await screen.findByText(MESSAGES_TPV.devolucionDiaAnterior)).toBeTruthy();
    expect(screen.queryByLabelText('Devolver de Café molido')).toBeNull();
    unmount();
    // With the right, the same ticket is returned.
    useCaja.setState({ sesion: { user: { id: 2, nombre: 'Luis', email: 'luis@tienda.es', rol: { ...caja, derechos: { ...caja.derechos, especiales: ['devolver_anteriores'] } } }, config: null } as never });
    renderWithShell(<Devolucion onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText(/Número del ticket/), 'T1 2026/000001');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(await screen.findByLabelText('Devolver de Café molido')).toBeTruthy();
  });

  it('lo buscado con conexión se guarda: sin ella se devuelve lo que quedaba (por su forma de pago), con las líneas del servidor', async () => {
    red = true;
    const user = userEvent.setup();
    const { unmount } = renderWithShell(<Devolucion onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText(/Número del ticket/), 'T1 2026/000001');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    await screen.findByLabelText('Devolver de Café molido');
    expect(screen.queryByTestId('devolucion-sin-conexion')).toBeNull();
    unmount();

    red = false;
    renderWithShell(<Devolucion onCerrar={() => undefined} />);
    await user.type(screen.getByLabelText(/Número del ticket/), 'T1 2026/000001');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(await screen.findByTestId('devolucion-sin-conexion')).toBeTruthy();
    // 2 sold, 1 returned when it was looked up: 1 left.
    await user.type(screen.getByLabelText('Devolver de Café molido'), '2');
    await user.click(screen.getByRole('button', { name: 'Devolver' }));
    expect((await screen.findByRole('alert')).textContent).toBe('De «Café molido» quedan por devolver 1.');
    await user.click(screen.getByRole('button', { name: 'Todo' }));
    expect(screen.getByTestId('devolucion-importe').textContent).toMatch(/^2,99\s€$/);
    // «Como se pagó»: all by card (issue 23: the refund's split is on screen).
    const reembolso = within(screen.getByRole('group', { name: 'Reembolso' }));
    expect((reembolso.getByLabelText('Tarjeta (€)') as HTMLInputElement).value).toBe('2,99');
    expect((reembolso.getByLabelText('Efectivo (€)') as HTMLInputElement).value).toBe('0,00');
    await user.click(screen.getByRole('button', { name: 'Devolver' }));
    expect((await screen.findByTestId('devolucion-numero')).textContent).toBe(`TR1 ${AÑO}/000001`);
    const [r5] = await colaDe(TERMINAL, () => undefined).pendientes();
    expect(r5.devolucion).toMatchObject({ ticket_id: 5, ticket_uuid: 'u-5', numero_ticket: 'T1 2026/000001', fecha_ticket: '2026-11-20', lineas: [{ id: 50, cantidad: 1000 }], pagos: [{ forma: 'tarjeta', importe: 299 }] });
    expect(r5.registro!.xml).toContain('<sf:FechaExpedicionFactura>20-11-2026</sf:FechaExpedicionFactura>');

    red = true;
    await colaDe(TERMINAL, () => undefined).vaciar();
    expect(llamadas.at(-1)).toMatchObject({ ac: 'devolverticket', body: { id: 5, lineas: [{ id: 50, cantidad: 1000 }], pagos: [{ forma: 'tarjeta', importe: 299 }] } });
  });
});

function buscarLocalTicket(numero: string) {
  return buscarLocal(numero, TERMINAL);
}

describe('la barra de estado, en palabras (issue 23)', () => {
  it('dice cuánto espera y qué hacer, sin conexión, con el servidor fallando, y cuántas incidencias hay', async () => {
    const incidencia = { uuid: 'x', seq: 1, terminal_id: 7, fecha_hora: '2026-11-26T10:00:00+01:00', lineas: [], pagos: [], total: -500, cambio: 0, estado: 'incidencia' as const, clase: 'movimiento' as const, movimiento: { importe: -500, motivo: 'Proveedor', caja_id: 41 }, incidencia: 'La caja en la que se hizo el movimiento ya está cerrada.' };
    useCaja.setState({ online: false, cola: { pendientes: 2, enviando: false, error: null, ultimoIntento: null }, operaciones: [incidencia] });
    const { rerender } = renderWithShell(<BarraEstado />);
    expect(screen.getByTestId('estado-conexion').textContent).toBe('Sin conexión · 2 por enviar');
    expect(screen.getByTestId('estado-que-hacer').textContent).toBe('Siga vendiendo: se enviará solo al volver la conexión.');
    expect(screen.getByTestId('incidencias').textContent).toBe('1 incidencia: ver qué hacer');
    useCaja.setState({ online: true, cola: { pendientes: 2, enviando: false, error: 'Error del servidor', ultimoIntento: 1 } });
    rerender(<BarraEstado />);
    expect(screen.getByTestId('estado-que-hacer').textContent).toBe('No se ha podido enviar (Error del servidor). Se reintenta solo; si sigue así, avise al encargado.');
    useCaja.setState({ online: true, cola: { pendientes: 0, enviando: false, error: null, ultimoIntento: 1 }, operaciones: [] });
    rerender(<BarraEstado />);
    expect(screen.queryByTestId('estado-que-hacer')).toBeNull();
    expect(screen.queryByTestId('incidencias')).toBeNull();
    await userEvent.setup();
  });
});
