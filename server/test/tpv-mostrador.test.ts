import { describe, expect, it } from 'vitest';
import { MESSAGES_TPV, MESSAGES } from 'shared/domain';
import type { CierreTpv, Serie, TicketSubido } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { stockPorAlmacen } from './documentos-fixtures.ts';

/**
 * Issue 23, the counter: a sale over the simplified invoice's limit invoiced in full (F1) at the till; finding a
 * ticket by the last digits of its number; refunds by the method the customer chooses; whole units.
 */
const HOY = todayIn('Europe/Madrid');
const ANIO = HOY.slice(0, 4);

let seq = 0;
const uuid = () => `00000000-0000-4000-a000-${String(++seq).padStart(12, '0')}`;

async function cuenta(t: SuiteApp) {
  const db = t.app.manager.db;
  const n = async (table: 'documentos' | 'registros_facturacion' | 'stock_movimientos' | 'tpv_tickets' | 'tpv_pagos') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { docs: await n('documentos'), registros: await n('registros_facturacion'), ledger: await n('stock_movimientos'), tickets: await n('tpv_tickets'), pagos: await n('tpv_pagos') };
}

describe.each(backends())('TPV at the counter ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  const serie: Record<string, number> = {};
  let caro: Row; // 200 € + 21 % = 242 € at the till
  let pan: Row; // 1,21 €
  let terminal: Row;
  let cliente: Row;
  let clienteRe: Row;

  const op = (ac: string, body: Record<string, unknown>, cookie = t.cookie) => t.op(ac, { cookie, body }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const caja = async () => (await t.op('cajatpv', { cookie: t.cookie, query: { terminal_id: String(terminal.id) } })).json().data[0] as CierreTpv;

  it('setup: a terminal with its caja open, articles, customers', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    for (const s of (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows as unknown as Serie[]) serie[s.codigo] = s.id;
    caro = await save(t, t.cookie, 'editararticulo', nuevoArticulo('MOS-CARO', { precio_venta: 2_000_000, nombre_tpv: 'Taladro', descripcion: 'Taladro percutor 800 W' }));
    pan = await save(t, t.cookie, 'editararticulo', nuevoArticulo('MOS-PAN', { precio_venta: 10_000, nombre_tpv: 'Pan' }));
    cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020', direccion: 'C/ Mayor 1' });
    clienteRe = await save(t, t.cookie, 'editarcliente', { nif: '12345678Z', razon_social: 'Ferretería López', codigo_postal: '41001', direccion: 'C/ Sierpes 2', recargo: 1 });
    terminal = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Mostrador', almacen_id: principal, serie_id: serie.T, serie_rectificativa_id: serie.TR, formas_pago: ['efectivo', 'tarjeta'], fondo: 10_000,
    });
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id, fondo: 10_000 });
  });

  it('F1 at the till: a sale over the limit refused as a ticket is invoiced in full to the customer, paid, in the caja; once per uuid', async () => {
    const lineas = [{ articulo_id: caro.id, cantidad: 2_000, precio: 2_420_000 }, { articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }];
    // As a ticket: refused with the reason, nothing issued.
    const antes = await cuenta(t);
    const comoTicket = await op('subirtickets', { terminal_id: terminal.id, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas, pagos: [{ forma: 'efectivo', importe: 48_521 }] }] });
    expect(comoTicket.status).toBe(400);
    expect(comoTicket.body.message).toContain(MESSAGES.simplificadaSuperaLimite);
    expect(await cuenta(t)).toEqual(antes);

    // Payments short, or no customer: refused, nothing stored.
    const u = uuid();
    const corto = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: cliente.id, uuid: u, lineas, pagos: [{ forma: 'efectivo', importe: 10_000 }] });
    expect(corto.status).toBe(400);
    expect(corto.body.message).toBe(MESSAGES_TPV.pagosNoCubren.replace('{pagado}', '100,00 €').replace('{total}', '485,21 €'));
    const sinCliente = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: 999_999, uuid: u, lineas, pagos: [{ forma: 'efectivo', importe: 50_000 }] });
    expect(sinCliente.body.message).toBe(MESSAGES_TPV.facturaVentaSinCliente);
    expect(await cuenta(t)).toEqual(antes);
    const stock0 = (await stockPorAlmacen(t, caro.id))[principal] ?? 0;

    // 485,21 € paid 300 by card and 200 in cash: 14,79 € change.
    const pagos = [{ forma: 'tarjeta', importe: 30_000 }, { forma: 'efectivo', importe: 20_000 }];
    const f = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: cliente.id, uuid: u, lineas, pagos });
    expect(f.body.RESULT).toBe('0');
    const fra = f.body.data[0];
    expect(fra).toMatchObject({ tipo_factura: 'F1', total: 48_521, cliente_id: cliente.id, cambio: 1_479, estado: 'emitida', uuid: u });
    expect(fra.numero).toMatch(new RegExp(`^A ${ANIO}/\\d{6}$`));
    // Its lines carry the articles' descriptions; its record names the customer as Destinatario, in the back office's chain.
    expect(fra.lineas.map((l: Row) => l.descripcion)).toEqual(['Taladro percutor 800 W', 'Artículo MOS-PAN']);
    expect(fra.registro).toMatchObject({ num_serie: fra.numero, importe_total: '485.21' });
    expect(fra.registro.xml).toContain('<sf:TipoFactura>F1</sf:TipoFactura>');
    expect(fra.registro.xml).toContain('<sf:IDDestinatario><sf:NombreRazon>Reformas Hernández, S.L.</sf:NombreRazon><sf:NIF>B85612349</sf:NIF>');
    expect(fra.pagos).toEqual([{ forma: 'tarjeta', importe: 30_000, entregado: 30_000 }, { forma: 'efectivo', importe: 18_521, entregado: 20_000 }]);
    // The goods left the terminal's warehouse.
    expect((await stockPorAlmacen(t, caro.id))[principal]).toBe(stock0 - 2_000);
    // The caja counts it: card 300, cash taken 200 less 14,79 change.
    const c = await caja();
    expect(c.formas.find((x) => x.forma === 'tarjeta')).toMatchObject({ ventas: 30_000, esperado: 30_000 });
    expect(c.efectivo).toMatchObject({ fondo: 10_000, cobrado: 20_000, cambio: 1_479, esperado: 10_000 + 20_000 - 1_479 });
    expect(c.total).toBe(48_521);
    expect(c.devoluciones).toBe(0);

    // Sent again (a lost answer): the same invoice, nothing new.
    const despues = await cuenta(t);
    const otra = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: cliente.id, uuid: u, lineas, pagos });
    expect(otra.body.data[0]).toMatchObject({ id: fra.id, numero: fra.numero, cambio: 1_479 });
    expect(await cuenta(t)).toEqual(despues);
    // It is no ticket: the tickets list does not have it, and a return of it is a rectificativa in the back office.
    expect((await list(t, t.cookie, 'listadotickets', { porPagina: 100 })).rows.map((r) => r.id)).not.toContain(fra.id);
    const dev = await op('devolverticket', { id: fra.id, lineas: [{ id: fra.lineas[1].id, cantidad: 1_000 }] });
    expect(dev.body.message).toBe(MESSAGES_TPV.noEsTicket);
  });

  it('F1 at the till to a customer in recargo de equivalencia: charged on the bases, the payments cover it', async () => {
    const lineas = [{ articulo_id: caro.id, cantidad: 2_000, precio: 2_420_000 }];
    // 484 € = base 400 + IVA 84; recargo 5,2 % of 400 = 20,80 → 504,80 €.
    const corto = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: clienteRe.id, uuid: uuid(), lineas, pagos: [{ forma: 'tarjeta', importe: 48_400 }] });
    expect(corto.body.message).toBe(MESSAGES_TPV.pagosNoCubren.replace('{pagado}', '484,00 €').replace('{total}', '504,80 €'));
    const f = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: clienteRe.id, uuid: uuid(), lineas, pagos: [{ forma: 'tarjeta', importe: 50_480 }] });
    expect(f.body.data[0]).toMatchObject({ tipo_factura: 'F1', base: 40_000, iva: 8_400, recargo: 2_080, total: 50_480, cambio: 0 });
  });

  it('F1 at the till follows the cashier\'s rights: Caja may not change a price', async () => {
    const roles = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows;
    const rolCaja = roles.find((r) => r.clave === 'caja')!;
    await save(t, t.cookie, 'editarusuario', { nombre: 'Cajera', email: 'cajera@mostrador.es', password: 'Clave-tpv-2026', rol_id: rolCaja.id });
    const cajera = await t.login('cajera@mostrador.es', 'Clave-tpv-2026');
    const barato = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: cliente.id, uuid: uuid(), lineas: [{ articulo_id: caro.id, cantidad: 2_000, precio: 2_000_000 }], pagos: [{ forma: 'tarjeta', importe: 40_000 }] }, cajera);
    expect(barato.status).toBe(403);
    expect(barato.body).toMatchObject({ derecho: 'cambiar_precio' });
    const bien = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: cliente.id, uuid: uuid(), lineas: [{ articulo_id: caro.id, cantidad: 2_000, precio: 2_420_000 }], pagos: [{ forma: 'tarjeta', importe: 48_400 }] }, cajera);
    expect(bien.body.data[0]).toMatchObject({ tipo_factura: 'F1', total: 48_400 });
  });

  const vender = async (lineas: Record<string, unknown>[], pagos: Record<string, unknown>[], tid = terminal.id) => {
    const r = await op('subirtickets', { terminal_id: tid, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas, pagos }] });
    expect(r.body.RESULT, JSON.stringify(r.body)).toBe('0');
    return r.body.data[0] as TicketSubido;
  };
  const buscarFin = async (fin: string, tid = terminal.id) =>
    (await list(t, t.cookie, 'listadotickets', { numero_fin: fin, terminal_id: tid, orden: 'numero', dir: 'desc', porPagina: 10 })).rows.map((r) => String(r.numero));

  it('finding a ticket by the last digits of its number within the terminal\'s tickets, newest first — never by its database id', async () => {
    const db = t.app.manager.db;
    const t1 = await vender([{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 121 }]);
    const t2 = await vender([{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 121 }]);
    expect([t1.numero, t2.numero]).toEqual([`T ${ANIO}/000001`, `T ${ANIO}/000002`]);
    // The serie's counter moved on: the next tickets are 1469 and 1470, then 11470 and 21470.
    const mover = (n: number) => db.updateTable('contadores').set({ ultimo: n }).where('serie_id', '=', serie.T).where('ejercicio', '=', Number(ANIO)).execute();
    await mover(1468);
    const t1469 = await vender([{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 121 }]);
    const t1470 = await vender([{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 121 }]);
    await mover(11469);
    const t11470 = await vender([{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 121 }]);
    expect([t1469.numero, t1470.numero, t11470.numero]).toEqual([`T ${ANIO}/001469`, `T ${ANIO}/001470`, `T ${ANIO}/011470`]);

    // «1470»: the tickets whose number ends in 1470, the newest first.
    expect(await buscarFin('1470')).toEqual([`T ${ANIO}/011470`, `T ${ANIO}/001470`]);
    // «01470» as printed: only …/001470 (…/011470 ends in 11470).
    expect(await buscarFin('01470')).toEqual([`T ${ANIO}/001470`]);
    expect(await buscarFin('2')).toEqual([`T ${ANIO}/000002`]);
    expect(await buscarFin('9')).toEqual([`T ${ANIO}/001469`]);
    // Never the database id: the id of the ticket 000001 is no number's ending unless its number is.
    const idT1 = String(t1.id);
    expect((await buscarFin(idT1)).every((n) => n.endsWith(idT1.padStart(6, '0').slice(-idT1.length)))).toBe(true);
    expect(await buscarFin(String(t11470.id))).not.toContain(`T ${ANIO}/000001`);
    // Another terminal's tickets are not this terminal's search.
    const otro = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Caja 2', almacen_id: principal, serie_id: (await save(t, t.cookie, 'editarserie', { codigo: 'T2', descripcion: 'Tickets caja 2', tipo: 'simplificada', activo: 1 })).id,
      serie_rectificativa_id: (await save(t, t.cookie, 'editarserie', { codigo: 'TR2', descripcion: 'Devoluciones caja 2', tipo: 'rectificativa', activo: 1 })).id, formas_pago: ['efectivo'],
    });
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: otro.id });
    const ajeno = await vender([{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 121 }], otro.id);
    expect(ajeno.numero).toBe(`T2 ${ANIO}/000001`);
    expect(await buscarFin('1')).toEqual([`T ${ANIO}/000001`]);
    expect(await buscarFin('1', otro.id)).toEqual([`T2 ${ANIO}/000001`]);
    // What a scanner types (the barcode carries the number as printed) finds that very ticket.
    expect((await list(t, t.cookie, 'listadotickets', { q: t1470.numero, terminal_id: terminal.id })).rows.map((r) => r.numero)).toEqual([t1470.numero]);
    // Not digits: refused with the reason.
    const mal = await t.op('listadotickets', { cookie: t.cookie, query: { numero_fin: '14a0' } });
    expect(mal.statusCode).toBe(400);
    expect(mal.json().errors).toEqual({ numero_fin: 'Escriba las últimas cifras del número del ticket.' });
  });

  it('an article sold by the unit takes whole quantities: a ticket, a full invoice and a return of 1,5 are refused with the reason, nothing stored', async () => {
    const antes = await cuenta(t);
    const medio = await op('subirtickets', { terminal_id: terminal.id, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: pan.id, cantidad: 1_500, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 200 }] }] });
    expect(medio.status).toBe(400);
    expect(medio.body.message).toContain('Línea 1: «MOS-PAN» se vende por unidades: la cantidad debe ser un número entero, no 1,5.');
    const f1 = await op('facturarventatpv', { terminal_id: terminal.id, cliente_id: cliente.id, uuid: uuid(), lineas: [{ articulo_id: caro.id, cantidad: 2_500, precio: 2_420_000 }], pagos: [{ forma: 'tarjeta', importe: 60_500 }] });
    expect(f1.body.message).toBe('Línea 1: «MOS-CARO» se vende por unidades: la cantidad debe ser un número entero, no 2,5.');
    expect(await cuenta(t)).toEqual(antes);
    // Two sold; half of one returned: refused; one returned: done.
    const tk = await vender([{ articulo_id: pan.id, cantidad: 2_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 242 }]);
    const linea = ((await list(t, t.cookie, 'listadotickets', { id: tk.id })).rows[0].lineas as Row[])[0];
    const mitad = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 500 }] });
    expect(mitad.status).toBe(400);
    expect(mitad.body.message).toBe('«MOS-PAN» se vende por unidades: la cantidad debe ser un número entero, no 0,5.');
    const una = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 1_000 }] });
    expect(una.body.data[0]).toMatchObject({ total: -121 });
  });

  it('a refund by the method the customer chooses, split if need be; by default «como se pagó», in proportion; the Z counts each method', async () => {
    // 4 × 1,21 = 4,84 €: 3,00 by card, 2,00 cash (0,16 change): card took 3,00, cash 1,84.
    const tk = await vender([{ articulo_id: pan.id, cantidad: 4_000, precio: 12_100 }], [{ forma: 'tarjeta', importe: 300 }, { forma: 'efectivo', importe: 200 }]);
    const linea = ((await list(t, t.cookie, 'listadotickets', { id: tk.id })).rows[0].lineas as Row[])[0];
    const antes = await caja();
    const porForma = (c: CierreTpv, f: string) => c.formas.find((x) => x.forma === f)!;
    // Two back, «como se pagó»: 2,42 → card 1,50, cash 0,92.
    const r1 = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 2_000 }] });
    expect(r1.body.data[0].pagos).toEqual([{ forma: 'tarjeta', importe: -150, entregado: -150 }, { forma: 'efectivo', importe: -92, entregado: -92 }]);
    // One back, as the customer asks: all by card.
    const r2 = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 1_000 }], pagos: [{ forma: 'tarjeta', importe: 121 }] });
    expect(r2.body.data[0].pagos).toEqual([{ forma: 'tarjeta', importe: -121, entregado: -121 }]);
    // A split that does not add up to the refund: refused, nothing stored.
    const mal = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 1_000 }], pagos: [{ forma: 'tarjeta', importe: 100 }, { forma: 'efectivo', importe: 20 }] });
    expect(mal.body.message).toBe(MESSAGES_TPV.devolucionPagos.replace('{pagado}', '1,20 €').replace('{total}', '1,21 €'));
    const despues = await caja();
    expect(porForma(despues, 'tarjeta').devoluciones - porForma(antes, 'tarjeta').devoluciones).toBe(271);
    expect(porForma(despues, 'efectivo').devoluciones - porForma(antes, 'efectivo').devoluciones).toBe(92);
    expect(despues.efectivo.devuelto - antes.efectivo.devuelto).toBe(92);
    expect(porForma(despues, 'tarjeta').esperado - porForma(antes, 'tarjeta').esperado).toBe(-271);
    expect(despues.devoluciones - antes.devoluciones).toBe(2);
  });

  it('a store credit («vale») as the refund, with the right; later taken as a payment online, in part (its balance left stays on it) or for less than it; the Z counts it by method', async () => {
    const tk = await vender([{ articulo_id: pan.id, cantidad: 3_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 363 }]);
    const linea = ((await list(t, t.cookie, 'listadotickets', { id: tk.id })).rows[0].lineas as Row[])[0];
    // Caja has no «reembolso_vale»: refused, nothing stored.
    const cajera = await t.login('cajera@mostrador.es', 'Clave-tpv-2026');
    const antes = await cuenta(t);
    const sinDerecho = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 2_000 }], pagos: [{ forma: 'vale', importe: 242 }] }, cajera);
    expect(sinDerecho.status).toBe(403);
    expect(sinDerecho.body.message).toBe(MESSAGES_TPV.valeSinDerecho);
    expect(await cuenta(t)).toEqual(antes);
    const c0 = await caja();
    // The manager's: a vale of 2,42 €.
    const r = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 2_000 }], pagos: [{ forma: 'vale', importe: 242 }] });
    expect(r.body.RESULT).toBe('0');
    const [vale] = r.body.data[0].vales as { codigo: string; importe: number }[];
    expect(vale).toMatchObject({ importe: 242 });
    expect(vale.codigo).toMatch(/^V\d{12}$/);
    const c1 = await caja();
    expect(c1.formas.find((f) => f.forma === 'vale')).toMatchObject({ devoluciones: 242 });
    expect(c1.efectivo.esperado).toBe(c0.efectivo.esperado);
    // Read by its code at the till.
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: vale.codigo.toLowerCase() } })).json().data[0]).toMatchObject({ codigo: vale.codigo, importe: 242, usado: null });
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: 'V000000000000' } })).json().message).toBe('El vale V000000000000 no existe.');

    // The terminal takes vales as a payment.
    await save(t, t.cookie, 'editarterminal', { id: terminal.id, nombre: 'Mostrador', almacen_id: principal, serie_id: serie.T, serie_rectificativa_id: serie.TR, formas_pago: ['efectivo', 'tarjeta', 'vale'] });
    const pagaCon = (pagos: Record<string, unknown>[]) =>
      op('subirtickets', { terminal_id: terminal.id, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: pan.id, cantidad: 3_000, precio: 12_100 }], pagos }] }, cajera);
    // Issue 23: part of it pays, the rest stays on the vale (2,00 of the 2,42 and 1,63 in cash for 3,63 €).
    const parte = await pagaCon([{ forma: 'vale', importe: 200, vale: vale.codigo }, { forma: 'efectivo', importe: 163 }]);
    expect(parte.body.RESULT, JSON.stringify(parte.body)).toBe('0');
    expect(parte.body.data[0]).toMatchObject({ total: 363, cambio: 0, vales: [{ codigo: vale.codigo, importe: 200, saldo: 42 }] });
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: vale.codigo } })).json().data[0]).toMatchObject({ importe: 242, saldo: 42, agotado: 0 });
    // The ticket read back names the vale and the balance it left (its reprint).
    const leido = (await list(t, t.cookie, 'listadotickets', { id: parte.body.data[0].id })).rows[0];
    expect(leido.pagos).toEqual([{ forma: 'vale', importe: 200, entregado: 200, vale: vale.codigo, vale_saldo: 42 }, { forma: 'efectivo', importe: 163, entregado: 163 }]);
    // More than its balance: refused with the balance, nothing changes; no code: refused.
    const antesMas = await cuenta(t);
    const mas = await pagaCon([{ forma: 'vale', importe: 100, vale: vale.codigo }, { forma: 'efectivo', importe: 263 }]);
    expect(mas.body.message).toContain(MESSAGES_TPV.valeSaldo.replace('{codigo}', vale.codigo).replace('{saldo}', '0,42 €').replace('{importe}', '1,00 €'));
    expect(await cuenta(t)).toEqual(antesMas);
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: vale.codigo } })).json().data[0].saldo).toBe(42);
    expect((await pagaCon([{ forma: 'vale', importe: 363 }])).body.message).toContain(MESSAGES_TPV.valeCodigo);
    // The rest, with cash: the vale is used up.
    const bien = await pagaCon([{ forma: 'vale', importe: 42, vale: vale.codigo }, { forma: 'efectivo', importe: 400 }]);
    expect(bien.body.RESULT).toBe('0');
    expect(bien.body.data[0]).toMatchObject({ total: 363, cambio: 79, vales: [{ codigo: vale.codigo, importe: 42, saldo: 0 }] });
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: vale.codigo } })).json().data[0]).toMatchObject({ saldo: 0, agotado: 1 });
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: vale.codigo } })).json().data[0].usado).toBeTruthy();
    const c2 = await caja();
    expect(c2.formas.find((f) => f.forma === 'vale')).toMatchObject({ ventas: 242, devoluciones: 242, esperado: 0 });
    // Spent: nothing left.
    const otra = await pagaCon([{ forma: 'vale', importe: 42, vale: vale.codigo }, { forma: 'efectivo', importe: 321 }]);
    expect(otra.body.message).toContain(`El vale ${vale.codigo} ya se usó.`);

    // A sale for less than the vale is no error: it pays the sale, the rest stays (a vale of 3,63 for a 1,21 € loaf).
    const r3 = await op('devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 1_000 }], pagos: [{ forma: 'vale', importe: 121 }] });
    const tk2 = await vender([{ articulo_id: pan.id, cantidad: 3_000, precio: 12_100 }], [{ forma: 'efectivo', importe: 363 }]);
    const l2 = ((await list(t, t.cookie, 'listadotickets', { id: tk2.id })).rows[0].lineas as Row[])[0];
    const r4 = await op('devolverticket', { id: tk2.id, lineas: [{ id: l2.id, cantidad: 3_000 }], pagos: [{ forma: 'vale', importe: 363 }] });
    expect(r3.body.RESULT).toBe('0');
    const [grande] = r4.body.data[0].vales as { codigo: string; importe: number }[];
    const uno = await op(
      'subirtickets',
      { terminal_id: terminal.id, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], pagos: [{ forma: 'vale', importe: 363, vale: grande.codigo }] }] },
      cajera,
    );
    expect(uno.body.RESULT, JSON.stringify(uno.body)).toBe('0');
    expect(uno.body.data[0]).toMatchObject({ total: 121, cambio: 0, vales: [{ codigo: grande.codigo, importe: 121, saldo: 242 }] });
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: grande.codigo } })).json().data[0]).toMatchObject({ importe: 363, saldo: 242, agotado: 0 });
    // A full invoice (F1) at the till paid with it spends it too, in its own transaction (before, a vale paid an F1 unspent).
    const f1 = await op('facturarventatpv', {
      terminal_id: terminal.id, cliente_id: cliente.id, uuid: uuid(), lineas: [{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], pagos: [{ forma: 'vale', importe: 121, vale: grande.codigo }],
    });
    expect(f1.body.RESULT, JSON.stringify(f1.body)).toBe('0');
    expect(f1.body.data[0].pagos).toEqual([{ forma: 'vale', importe: 121, entregado: 121, vale: grande.codigo, vale_saldo: 121 }]);
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: grande.codigo } })).json().data[0].saldo).toBe(121);
    const f1Mas = await op('facturarventatpv', {
      terminal_id: terminal.id, cliente_id: cliente.id, uuid: uuid(), lineas: [{ articulo_id: pan.id, cantidad: 2_000, precio: 12_100 }], pagos: [{ forma: 'vale', importe: 242, vale: grande.codigo }],
    });
    expect(f1Mas.body.message).toBe(MESSAGES_TPV.valeSaldo.replace('{codigo}', grande.codigo).replace('{saldo}', '1,21 €').replace('{importe}', '2,42 €'));
    expect((await t.op('valetpv', { cookie: cajera, query: { codigo: grande.codigo } })).json().data[0].saldo).toBe(121);
  });
});
