import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENTO_TIPOS, MESSAGES_TPV, MESSAGES, totalesTicket } from 'shared/domain';
import type { CierreTpv, Documento, RegistroTpv, Serie, TerminalTpv, TicketSubido } from 'shared/domain';
import { buildDocumentosPdf } from '../../shared/src/io/documentosPdfImpl.ts';
import { necesita } from './herramientas.ts';
import { DESCRIPCION_DEVOLUCION_SIN_TICKET, fechaHoraHuso, registroDevolucion, registroTpvDeDevolucion } from 'shared/fiscal';
import type { Anterior } from 'shared/fiscal';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { stockPorAlmacen } from './documentos-fixtures.ts';
import { validarXml } from './xsd.ts';

/**
 * Issue 23, the counter: a return without a ticket (right «devolver_sin_ticket»): an R5 in the terminal's return
 * serie naming no invoice, refunded as the customer chooses (split, cash within the drawer, a vale), online and
 * offline (the till's record verified unaltered on the terminal's chain), in the caja's figures and the audit trail.
 */
const HOY = todayIn('Europe/Madrid');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-sinticket-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const ANIO = HOY.slice(0, 4);

let seq = 0;
const uuid = () => `00000000-0000-4000-b000-${String(++seq).padStart(12, '0')}`;

async function cuenta(t: SuiteApp) {
  const db = t.app.manager.db;
  const n = async (table: 'documentos' | 'registros_facturacion' | 'stock_movimientos' | 'tpv_tickets' | 'tpv_pagos' | 'tpv_vales') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    docs: await n('documentos'), registros: await n('registros_facturacion'), ledger: await n('stock_movimientos'), tickets: await n('tpv_tickets'), pagos: await n('tpv_pagos'),
    vales: await n('tpv_vales'),
  };
}

describe.each(backends())('TPV: a return without a ticket ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  const serie: Record<string, number> = {};
  let pan: Row; // 1,21 € the unit (21 %)
  let queso: Row; // 22,00 € the kg (10 %)
  let terminal: Row;
  let tpvCookie: string;
  let cajera: string;

  const op = (ac: string, body: Record<string, unknown>, cookie = t.cookie) => t.op(ac, { cookie, body }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const caja = async () => (await t.op('cajatpv', { cookie: t.cookie, query: { terminal_id: String(terminal.id) } })).json().data[0] as CierreTpv;
  const info = async () => (await t.op('terminaltpv', { cookie: tpvCookie })).json().data[0] as TerminalTpv;
  const cabeza = (i: TerminalTpv): Anterior | null => (i.cadena ? { id_emisor: i.emisor.nif, ...i.cadena } : null);

  it('setup: a paired terminal with its caja open (100 € float), articles, a cashier of role Caja', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    for (const s of (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows as unknown as Serie[]) serie[s.codigo] = s.id;
    pan = await save(t, t.cookie, 'editararticulo', nuevoArticulo('SIN-PAN', { precio_venta: 10_000, nombre_tpv: 'Pan' }));
    queso = await save(t, t.cookie, 'editararticulo', nuevoArticulo('SIN-QUESO', { precio_venta: 200_000, tipo_iva: '10', unidad_medida: 'kg', nombre_tpv: 'Queso' }));
    terminal = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Mostrador', almacen_id: principal, serie_id: serie.T, serie_rectificativa_id: serie.TR, formas_pago: ['efectivo', 'tarjeta'], fondo: 10_000,
    });
    const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
    const par = await t.op('emparejarterminal', { body: { codigo } });
    tpvCookie = `mtpv_terminal=${par.cookies.find((x) => x.name === 'mtpv_terminal')!.value}`;
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id, fondo: 10_000 });
    const rolCaja = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows.find((r) => r.clave === 'caja')!;
    await save(t, t.cookie, 'editarusuario', { nombre: 'Cajera', email: 'cajera@sinticket.es', password: 'Clave-tpv-2026', rol_id: rolCaja.id });
    cajera = await t.login('cajera@sinticket.es', 'Clave-tpv-2026');
  });

  it('without the right «devolver_sin_ticket» (Caja): refused with a Spanish message, nothing stored', async () => {
    const antes = await cuenta(t);
    const r = await op('devolversinticket', { terminal_id: terminal.id, lineas: [{ articulo_id: pan.id, cantidad: 1_000 }], pagos: [{ forma: 'efectivo', importe: 121 }] }, cajera);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ derecho: 'devolver_sin_ticket', message: MESSAGES.rolSinDerechoEspecial.replace('{accion}', 'hacer devoluciones sin ticket') });
    expect(await cuenta(t)).toEqual(antes);
  });

  it('bad input is refused with its reason and changes nothing: a fraction of a unit, refunds that do not add up, more cash than the drawer holds', async () => {
    const antes = await cuenta(t);
    const medio = await op('devolversinticket', { terminal_id: terminal.id, lineas: [{ articulo_id: pan.id, cantidad: 1_500 }], pagos: [{ forma: 'efectivo', importe: 182 }] });
    expect(medio.status).toBe(400);
    expect(medio.body.message).toBe('Línea 1: «SIN-PAN» se vende por unidades: la cantidad debe ser un número entero, no 1,5.');
    const corto = await op('devolversinticket', { terminal_id: terminal.id, lineas: [{ articulo_id: pan.id, cantidad: 2_000 }], pagos: [{ forma: 'efectivo', importe: 200 }] });
    expect(corto.body.message).toBe(MESSAGES_TPV.devolucionPagos.replace('{pagado}', '2,00 €').replace('{total}', '2,42 €'));
    const sinPagos = await op('devolversinticket', { terminal_id: terminal.id, lineas: [{ articulo_id: pan.id, cantidad: 2_000 }] });
    expect(sinPagos.body.message).toBe(MESSAGES_TPV.devolucionSinTicketPagos);
    // 5 kg of cheese is 110 € and the drawer holds the float, 100 €: not all in cash.
    const caro = await op('devolversinticket', { terminal_id: terminal.id, lineas: [{ articulo_id: queso.id, cantidad: 5_000 }], pagos: [{ forma: 'efectivo', importe: 11_000 }] });
    expect(caro.status).toBe(400);
    expect(caro.body.message).toBe(MESSAGES_TPV.devolucionEfectivoCaja.replace('{efectivo}', '100,00 €').replace('{importe}', '110,00 €'));
    const nada = await op('devolversinticket', { terminal_id: terminal.id, lineas: [], pagos: [{ forma: 'efectivo', importe: 1 }] });
    expect(nada.body.message).toBe(MESSAGES_TPV.devolucionSinTicketLineas);
    expect(await cuenta(t)).toEqual(antes);
  });

  it('online: an R5 in the terminal\'s return serie naming no invoice, split refund, goods back, in the Z and the audit trail; once per uuid', async () => {
    const stockPan = (await stockPorAlmacen(t, pan.id))[principal] ?? 0;
    const stockQueso = (await stockPorAlmacen(t, queso.id))[principal] ?? 0;
    const c0 = await caja();
    // 2 loaves (2,42 €) and 0,5 kg of cheese (11,00 €) = 13,42 €: 10 by card, 3,42 in cash.
    const u = uuid();
    const body = {
      terminal_id: terminal.id, uuid: u, lineas: [{ articulo_id: pan.id, cantidad: 2_000 }, { articulo_id: queso.id, cantidad: 500 }],
      pagos: [{ forma: 'tarjeta', importe: 1_000 }, { forma: 'efectivo', importe: 342 }],
    };
    const r = await op('devolversinticket', body);
    expect(r.body.RESULT, JSON.stringify(r.body)).toBe('0');
    const dev = r.body.data[0];
    expect(dev).toMatchObject({ tipo_factura: 'R5', total: -1_342, estado: 'emitida', factura_id: null, ticket_id: null, uuid: u, offline: 0 });
    expect(dev.numero).toMatch(new RegExp(`^TR ${ANIO}/\\d{6}$`));
    expect(dev.lineas.map((l: Row) => [l.descripcion, l.cantidad])).toEqual([['Pan', -2_000], ['Queso', -500]]);
    expect(dev.pagos).toEqual([{ forma: 'tarjeta', importe: -1_000, entregado: -1_000 }, { forma: 'efectivo', importe: -342, entregado: -342 }]);
    // Its record: R5 by differences, no FacturasRectificadas, valid against the AEAT's XSD.
    expect(dev.xml).toContain('<sf:TipoFactura>R5</sf:TipoFactura>');
    expect(dev.xml).toContain('<sf:TipoRectificativa>I</sf:TipoRectificativa>');
    expect(dev.xml).not.toContain('FacturasRectificadas');
    expect(dev.xml).toContain(`<sf:DescripcionOperacion>${DESCRIPCION_DEVOLUCION_SIN_TICKET}</sf:DescripcionOperacion>`);
    expect(dev.xml).toContain('<sf:ImporteTotal>-13.42</sf:ImporteTotal>');
    validarXml([dev.xml]);
    // The goods are back in the terminal's warehouse.
    expect((await stockPorAlmacen(t, pan.id))[principal]).toBe(stockPan + 2_000);
    expect((await stockPorAlmacen(t, queso.id))[principal]).toBe(stockQueso + 500);
    // The caja counts it as a return, by method.
    const c1 = await caja();
    expect(c1.devoluciones - c0.devoluciones).toBe(1);
    expect(c1.formas.find((f) => f.forma === 'tarjeta')!.devoluciones - c0.formas.find((f) => f.forma === 'tarjeta')!.devoluciones).toBe(1_000);
    expect(c1.efectivo.devuelto - c0.efectivo.devuelto).toBe(342);
    expect(c1.efectivo.esperado).toBe(c0.efectivo.esperado - 342);
    // The audit trail names it.
    const linea = await t.app.manager.db.selectFrom('actividad').select(['accion', 'usuario_nombre']).where('accion', '=', 'devolversinticket').executeTakeFirst();
    expect(linea).toBeTruthy();
    // Sent again (a lost answer): the same R5, nothing new.
    const antes = await cuenta(t);
    const otra = await op('devolversinticket', body);
    expect(otra.body.data[0]).toMatchObject({ id: dev.id, numero: dev.numero });
    expect(await cuenta(t)).toEqual(antes);
    // The back office reads it as a rectificativa of the terminal's serie.
    const leida = (await t.op('listadorectificativas', { cookie: t.cookie, query: { id: String(dev.id) } })).json().data[0];
    expect(leida).toMatchObject({ id: dev.id, tipo_factura: 'R5', total: -1_342 });

    // Annulled in the back office: its registro de anulación, the goods out again, the caja no longer counts it.
    const anulada = await t.op('anularrectificativa', { cookie: t.cookie, body: { id: dev.id } });
    expect(anulada.json().RESULT, JSON.stringify(anulada.json())).toBe('0');
    expect((await t.op('listadorectificativas', { cookie: t.cookie, query: { id: String(dev.id) } })).json().data[0].estado).toBe('anulada');
    expect((await stockPorAlmacen(t, pan.id))[principal]).toBe(stockPan);
    const c2 = await caja();
    expect({ devoluciones: c2.devoluciones, esperado: c2.efectivo.esperado }).toEqual({ devoluciones: c0.devoluciones, esperado: c0.efectivo.esperado });
  });

  it('a vale as the refund, with the right «reembolso_vale»', async () => {
    const r = await op('devolversinticket', { terminal_id: terminal.id, lineas: [{ articulo_id: pan.id, cantidad: 3_000 }], pagos: [{ forma: 'vale', importe: 363 }] });
    expect(r.body.RESULT, JSON.stringify(r.body)).toBe('0');
    const [vale] = r.body.data[0].vales as { codigo: string; importe: number }[];
    expect(vale).toMatchObject({ importe: 363 });
    expect((await t.op('valetpv', { cookie: t.cookie, query: { codigo: vale.codigo } })).json().data[0]).toMatchObject({ codigo: vale.codigo, importe: 363, usado: null });
  });

  it('offline: the till\'s R5 without a ticket (terminal chain, return serie) verified and stored unaltered; an altered one refused and kept aside', async () => {
    const i = await info();
    const totales = totalesTicket([{ cantidad: -1_000, precio: 12_100, descuento: 0, tipo_iva: '21' }]);
    const r5 = (anterior: Anterior | null, numero: number, alterar: (r: RegistroTpv) => void = () => {}) => {
      const ts = fechaHoraHuso(new Date(), i.zona_horaria);
      const gen = registroDevolucion({
        emisor: i.emisor, instalacion: i.numero_instalacion, sistema: i.sistema, serieCodigo: i.serie_rectificativa.codigo, ejercicio: Number(ANIO), numero,
        fecha: ts.slice(0, 10), totales, anterior, ts, rectificado: null,
      });
      const registro = registroTpvDeDevolucion(gen);
      alterar(registro);
      return { gen, body: { terminal_id: terminal.id, uuid: uuid(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 121 }], registro } };
    };
    const n = i.ultimo_rectificativa!.numero + 1;
    const antes = await cuenta(t);
    const mala = r5(cabeza(i), n, (r) => {
      r.huella = '0'.repeat(64);
    });
    const rechazada = await op('devolversinticket', mala.body);
    expect(rechazada.status).toBe(400);
    expect(rechazada.body.message).toBe(MESSAGES_TPV.registroHuella);
    expect(await cuenta(t)).toEqual(antes);
    const apartada = await t.app.manager.db.selectFrom('tpv_incidencias').select(['tipo', 'detalle']).where('uuid', '=', mala.body.uuid).executeTakeFirst();
    expect(apartada?.tipo).toBe('registro');

    const buena = r5(cabeza(i), n);
    const r = await op('devolversinticket', buena.body);
    expect(r.body.RESULT, JSON.stringify(r.body)).toBe('0');
    expect(r.body.data[0]).toMatchObject({ tipo_factura: 'R5', numero: buena.gen.numSerie, total: -121, huella: buena.gen.huella, xml: buena.gen.xml, offline: 1 });
    validarXml([buena.gen.xml]);
    const guardado = await t.app.manager.db.selectFrom('registros_facturacion').select(['huella', 'huella_anterior', 'emisor']).where('documento_id', '=', r.body.data[0].id).executeTakeFirstOrThrow();
    expect(guardado).toEqual({ huella: buena.gen.huella, huella_anterior: i.cadena?.huella ?? '', emisor: `${i.emisor.nif}:${i.numero_instalacion}` });
    // The terminal now says the chain's new end and the serie's last number.
    const i2 = await info();
    expect(i2.ultimo_rectificativa!.numero).toBe(n);
    expect(i2.cadena?.huella).toBe(buena.gen.huella);
    // Every chain — the back office's with the online R5 and its annulment, the terminal's with the offline one — checks out.
    const checks = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { emisor: string; correcto: boolean; errores?: unknown }[];
    expect(checks.length).toBeGreaterThan(0);
    for (const c of checks) expect(c.correcto, JSON.stringify(c)).toBe(true);

    // Made offline by a cashier whose role lacks the right (taken away while the till was offline, or a forged
    // upload): the printed R5 is a fiscal fact, kept unaltered on the chain, and the manager sees it as an incidence.
    const i3 = await info();
    const sinDerecho = r5(cabeza(i3), i3.ultimo_rectificativa!.numero + 1);
    const guardada = await op('devolversinticket', sinDerecho.body, cajera);
    expect(guardada.body.RESULT, JSON.stringify(guardada.body)).toBe('0');
    expect(guardada.body.data[0]).toMatchObject({ numero: sinDerecho.gen.numSerie, huella: sinDerecho.gen.huella, offline: 1 });
    const marcada = await t.app.manager.db.selectFrom('tpv_incidencias').select(['tipo', 'detalle', 'documento_id']).where('uuid', '=', sinDerecho.body.uuid).execute();
    expect(marcada).toEqual([
      {
        tipo: 'devolucion',
        documento_id: guardada.body.data[0].id,
        detalle: MESSAGES_TPV.incidenciaSinTicketSinDerecho.replace('{numero}', sinDerecho.gen.numSerie).replace('{importe}', '-1,21 €').replace('{cajero}', 'Cajera'),
      },
    ]);
    for (const c of (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { correcto: boolean }[]) expect(c.correcto).toBe(true);
  });

  it('the back office\'s A4 print of a ticket (Ventas › Tickets › Imprimir) carries its number as a barcode a scanner reads', async () => {
    necesita('pdftotext', 'pdftoppm', 'zbarimg');
    const r = await op('subirtickets', { terminal_id: terminal.id, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: pan.id, cantidad: 1_000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 121 }] }] });
    const tk = r.body.data[0] as TicketSubido;
    // As «Imprimir» on the ticket's page builds it: the ticket read by id, the engine's A4 PDF of its type.
    const leido = (await list(t, t.cookie, 'listadotickets', { id: tk.id })).rows[0] as unknown as Documento;
    const { doc } = await buildDocumentosPdf([leido], { fileName: 't.pdf', def: DOCUMENTO_TIPOS.ticket, empresa: { nombre: 'Tienda', nif: 'B86420973' } });
    const file = path.join(tmp, 'ticket-a4.pdf');
    fs.writeFileSync(file, Buffer.from(doc.output('arraybuffer')));
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(tk.numero);
    execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', file, path.join(tmp, 'ticket-a4')]);
    const leidoEscaner = execFileSync('zbarimg', ['-q', '--raw', '-S*.disable', '-Scode128.enable', path.join(tmp, 'ticket-a4.png')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    expect(leidoEscaner).toBe(tk.numero);
  });
});
