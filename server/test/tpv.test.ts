import { describe, expect, it } from 'vitest';
import { INCIDENCIA_TPV, MESSAGES_TPV, ROL_PREDEFINIDO, importeAeat, totalesTicket } from 'shared/domain';
import type { CierreTpv, IncidenciaTpv, RegistroTpv, TerminalTpv, TicketSubido } from 'shared/domain';
import { fechaHoraHuso, registroDevolucion, registroTicket, registroTpvDe, registroTpvDeDevolucion } from 'shared/fiscal';
import type { Anterior } from 'shared/fiscal';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, kitDeDos } from './documentos-fixtures.ts';
import { validarXml } from './xsd.ts';
import { euros } from '../src/tpv/comun.ts';
import { reloj } from '../src/fiscal/registro.ts';

const HOY = todayIn('Europe/Madrid');
const ANIO = HOY.slice(0, 4);

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

/** What a refused upload must leave as it was. */
async function foto(t: SuiteApp) {
  const db = t.app.manager.db;
  const n = async (table: 'documentos' | 'registros_facturacion' | 'stock_movimientos' | 'documento_lineas' | 'tpv_tickets' | 'tpv_pagos') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    docs: await n('documentos'), registros: await n('registros_facturacion'), ledger: await n('stock_movimientos'), lineas: await n('documento_lineas'),
    tickets: await n('tpv_tickets'), pagos: await n('tpv_pagos'),
    contadores: await db.selectFrom('contadores').select(['tipo', 'serie_id', 'ejercicio', 'ultimo']).orderBy('tipo').orderBy('serie_id').execute(),
    cadenas: await db.selectFrom('registros_cadena').selectAll().orderBy('emisor').execute(),
  };
}

describe.each(backends())('TPV ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieT: number;
  let serieR: number;
  let serieT2: number;
  let serieR2: number;
  let a: Row; // 21 %
  let b: Row; // 10 %
  let kit: { comp1: Row; comp2: Row; kit: Row };
  let terminal: Row;
  let tpvCookie: string;
  /** A terminal's NumeroInstalacion: the installation's unique number and the terminal's id (issue 22). */
  let instalacion: string;
  const cajaTpv = (n: number) => `${instalacion}-TPV${String(n).padStart(3, '0')}`;

  const subir = (body: Record<string, unknown>, cookie = t.cookie) => t.op('subirtickets', { cookie, body }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const subidos = async (body: Record<string, unknown>) => {
    const r = await subir(body);
    if (r.body.RESULT !== '0') throw new Error(JSON.stringify(r.body));
    return r.body.data as TicketSubido[];
  };
  const info = async () => (await t.op('terminaltpv', { cookie: tpvCookie })).json().data[0] as TerminalTpv;

  it('setup: articles (21 %, 10 %, a kit), a second pair of series', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieT = series.find((s) => s.codigo === 'T')!.id;
    serieR = series.find((s) => s.codigo === 'R')!.id;
    serieT2 = (await save(t, t.cookie, 'editarserie', { codigo: 'T2', descripcion: 'Tickets caja 2', tipo: 'simplificada', activo: 1 })).id;
    serieR2 = (await save(t, t.cookie, 'editarserie', { codigo: 'R2', descripcion: 'Rectificativas caja 2', tipo: 'rectificativa', activo: 1 })).id;
    // Sold by weight (kg): fractions of them are tested below (an article by the unit takes whole quantities, issue 23).
    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TPV-A', { precio_venta: 10_000, nombre_tpv: 'Pan', unidad_medida: 'kg' }));
    b = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TPV-B', { precio_venta: 20_000, tipo_iva: '10', unidad_medida: 'kg' }));
    kit = await kitDeDos(t, 'TPV');
    instalacion = (await t.app.manager.db.selectFrom('verifactu').select('numero_instalacion').executeTakeFirstOrThrow()).numero_instalacion!;
  });

  it('terminals: series of the right kind, one terminal per serie; the till pairs once with a one-time code', async () => {
    const mala = await enviar(t, 'editarterminal', { nombre: 'Caja 1', almacen_id: principal, serie_id: serieR, serie_rectificativa_id: serieT, formas_pago: ['efectivo'] });
    expect(mala.status).toBe(400);
    expect(mala.body.errors).toMatchObject({ serie_id: MESSAGES_TPV.serieTicketsNoValida, serie_rectificativa_id: MESSAGES_TPV.serieRectificativaNoValida });
    const sinFormas = await enviar(t, 'editarterminal', { nombre: 'Caja 1', almacen_id: principal, serie_id: serieT, serie_rectificativa_id: serieR, formas_pago: [] });
    expect(sinFormas.body.errors).toMatchObject({ formas_pago: MESSAGES_TPV.formasPagoRequeridas });
    terminal = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Caja 1', almacen_id: principal, serie_id: serieT, serie_rectificativa_id: serieR, formas_pago: ['efectivo', 'tarjeta', 'bizum'], fondo: 10_000,
    });
    expect(terminal).toMatchObject({ nombre: 'Caja 1', serie_codigo: 'T', serie_rectificativa_codigo: 'R', fondo: 10_000, activo: 1, numero_instalacion: cajaTpv(1), emparejado: null });
    const otra = await enviar(t, 'editarterminal', { nombre: 'Caja 2', almacen_id: principal, serie_id: serieT, serie_rectificativa_id: serieR2, formas_pago: ['efectivo'] });
    expect(otra.body.errors).toMatchObject({ serie_id: MESSAGES_TPV.serieDeOtroTerminal });

    const sinPareja = await t.op('terminaltpv');
    expect(sinPareja.statusCode).toBe(403);
    expect(sinPareja.json().message).toBe(MESSAGES_TPV.terminalNoEmparejado);
    const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
    expect(codigo).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect((await t.op('emparejarterminal', { body: { codigo: 'AAAA-BBBB' } })).json().message).toBe(MESSAGES_TPV.codigoNoValido);
    const par = await t.op('emparejarterminal', { body: { codigo: codigo.toLowerCase() } });
    expect(par.json().RESULT).toBe('0');
    const c = par.cookies.find((x) => x.name === 'mtpv_terminal')!;
    expect(c.httpOnly).toBe(true);
    tpvCookie = `mtpv_terminal=${c.value}`;
    // Spent: the same code pairs nothing else.
    expect((await t.op('emparejarterminal', { body: { codigo } })).json().message).toBe(MESSAGES_TPV.codigoNoValido);
    const i = await info();
    expect(i).toMatchObject({ id: terminal.id, serie: { codigo: 'T' }, emisor: { nif: 'B86420973' }, ultimo: { numero: 0 }, cadena: null, zona_horaria: 'Europe/Madrid' });

    // The cashier's PIN: set, then logging in at the paired till with it.
    expect((await enviar(t, 'editarpintpv', { pin: '12' })).body.errors).toEqual({ pin: MESSAGES_TPV.pinNoValido });
    await save(t, t.cookie, 'editarpintpv', { pin: '4321' });
    const admin = (await info()).cajeros[0];
    expect(admin.con_pin).toBe(1);
    const malo = await t.op('identificartpv', { cookie: tpvCookie, body: { usuario_id: admin.id, pin: '0000' } });
    expect(malo.json().message).toBe(MESSAGES_TPV.pinIncorrecto);
    const sinTerminal = await t.op('identificartpv', { body: { usuario_id: admin.id, pin: '4321' } });
    expect(sinTerminal.statusCode).toBe(403);
    const bueno = await t.op('identificartpv', { cookie: tpvCookie, body: { usuario_id: admin.id, pin: '4321' } });
    expect(bueno.json()).toMatchObject({ RESULT: '0', user: { id: admin.id } });
    expect(bueno.cookies.find((x) => x.name === 'mtpv_sesion')).toBeTruthy();
  });

  it('a PIN opens the till, not the back office: an Administrador\'s PIN session runs only the till\'s actions', async () => {
    const admin = (await info()).cajeros[0];
    const r = await t.op('identificartpv', { cookie: tpvCookie, body: { usuario_id: admin.id, pin: '4321' } });
    const pin = `mtpv_sesion=${r.cookies.find((x) => x.name === 'mtpv_sesion')!.value}; ${tpvCookie}`;
    for (const [ac, method] of [['copiaseguridad', 'POST'], ['listadousuarios', 'GET'], ['editarconfiguracion', 'POST'], ['listadofacturas', 'GET']] as const) {
      const res = method === 'POST' ? await t.op(ac, { cookie: pin, body: {} }) : await t.op(ac, { cookie: pin });
      expect(res.statusCode, ac).toBe(403);
      expect(res.json().message, ac).toBe(MESSAGES_TPV.sesionPinSoloTpv);
    }
    // The till's own actions work.
    expect((await t.op('sesion', { cookie: pin })).json()).toMatchObject({ RESULT: '0', user: { id: admin.id } });
    expect((await t.op('articulostpv', { cookie: pin })).json().RESULT).toBe('0');
    expect((await t.op('cajatpv', { cookie: pin, query: { terminal_id: String(terminal.id) } })).statusCode).toBe(200);
    // The same user with the password keeps the back office.
    expect((await t.op('listadousuarios', { cookie: t.cookie })).json().RESULT).toBe('0');
  });

  it('buttons: pages per terminal or shared, labels from «Nombre en el TPV», saved as a whole set', async () => {
    const compartidas = await save(t, t.cookie, 'editarbotonestpv', {
      paginas: [{ nombre: 'Panadería', color: '#ffcc00', botones: [{ posicion: 0, articulo_id: a.id }, { posicion: 1, articulo_id: b.id, etiqueta: 'Bollo', color: '#00aa00' }] }],
    });
    expect(compartidas).toMatchObject({ terminal_id: null, paginas: [{ nombre: 'Panadería', botones: [{ etiqueta: 'Pan', precio: 12_100 }, { etiqueta: 'Bollo' }] }] });
    // The terminal without its own: the shared ones.
    expect((await list(t, t.cookie, 'listadobotonestpv', { terminal_id: terminal.id as number })).rows[0]).toMatchObject({ propias: 0, paginas: [{ nombre: 'Panadería' }] });
    const repetida = await enviar(t, 'editarbotonestpv', { terminal_id: terminal.id, paginas: [{ nombre: 'X', botones: [{ posicion: 0, articulo_id: a.id }, { posicion: 0, articulo_id: b.id }] }] });
    expect(repetida.status).toBe(400);
    await save(t, t.cookie, 'editarbotonestpv', { terminal_id: terminal.id, paginas: [{ nombre: 'Kits', botones: [{ posicion: 3, articulo_id: kit.kit.id }] }] });
    expect((await list(t, t.cookie, 'listadobotonestpv', { terminal_id: terminal.id as number })).rows[0]).toMatchObject({ propias: 1, paginas: [{ nombre: 'Kits', botones: [{ posicion: 3 }] }] });
  });

  const ticket = (extra: Record<string, unknown> = {}) => ({
    uuid: uuid(),
    fecha_hora: new Date().toISOString(),
    lineas: [
      { articulo_id: a.id, cantidad: 3_000, precio: 12_100 },
      { articulo_id: b.id, cantidad: 1_500, precio: 22_000, descuento: 1000 },
      { articulo_id: kit.kit.id, cantidad: 1_000, precio: 72_600 },
    ],
    pagos: [{ forma: 'efectivo', importe: 20_000 }],
    ...extra,
  });

  let t1: TicketSubido;
  it('online: the server issues the ticket — its number, totals from prices with IVA, F2 record in the terminal chain, stock out (kits by components)', async () => {
    const antes = await foto(t);
    const sinCaja = await subir({ terminal_id: terminal.id, tickets: [ticket()] });
    expect(sinCaja.body.message).toBe(MESSAGES_TPV.cajaNoAbierta);
    expect(await foto(t)).toEqual(antes);
    const caja = await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    expect(caja).toMatchObject({ fondo: 10_000 });
    expect((await enviar(t, 'abrircajatpv', { terminal_id: terminal.id })).body.message).toBe(MESSAGES_TPV.cajaYaAbierta);

    const tk = ticket();
    [t1] = await subidos({ terminal_id: terminal.id, tickets: [tk] });
    // 3 × 1,21 = 3,63 at 21 % + 7,26 kit at 21 % = 10,89; 1,5 × 2,20 − 10 % = 2,97 at 10 %.
    const esperado = totalesTicket([
      { cantidad: 3_000, precio: 12_100, tipo_iva: '21' },
      { cantidad: 1_500, precio: 22_000, descuento: 1000, tipo_iva: '10' },
      { cantidad: 1_000, precio: 72_600, tipo_iva: '21' },
    ]);
    expect(esperado).toMatchObject({ total: 1_386, desglose: [{ tipo_iva: '21', base: 900, iva: 189 }, { tipo_iva: '10', base: 270, iva: 27 }] });
    expect(t1).toMatchObject({ uuid: tk.uuid, numero: `T ${ANIO}/000001`, total: 1_386, cambio: 20_000 - 1_386, offline: 0, repetido: 0 });
    expect(t1.huella).toMatch(/^[0-9A-F]{64}$/);
    // Issue 22: a live company's records are made for «Producción» (sending not on yet here): the QR points there.
    expect(await info()).toMatchObject({ entorno: 'produccion', demo: 0, verifactu: 0 });
    expect(t1.emision).toEqual({ entorno: 'produccion', demo: 0, verifactu: 0 });
    expect(t1.qr_url).toBe(
      `https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B86420973&numserie=T%20${ANIO}%2F000001&fecha=${HOY.slice(8, 10)}-${HOY.slice(5, 7)}-${ANIO}&importe=13.86`,
    );
    expect(t1.xml).toContain('<sf:TipoFactura>F2</sf:TipoFactura>');
    expect(t1.xml).toContain(`<sf:NumeroInstalacion>${cajaTpv(1)}</sf:NumeroInstalacion>`);
    expect(t1.xml).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
    expect(t1.xml).not.toContain('Destinatarios');
    validarXml([t1.xml]);

    const doc = (await list(t, t.cookie, 'listadotickets', { id: t1.id })).rows[0] as Row & Record<string, never>;
    expect(doc).toMatchObject({ tipo: 'ticket', estado: 'emitido', numero: `T ${ANIO}/000001`, tipo_factura: 'F2', total: 1_386, terminal_id: terminal.id, uuid: tk.uuid });
    expect(doc.pagos).toEqual([{ forma: 'efectivo', importe: 1_386, entregado: 20_000 }]);
    expect((doc.lineas as Row[]).map((l) => [l.precio_iva, l.precio])).toEqual([[12_100, 10_000], [22_000, 20_000], [72_600, 60_000]]);
    expect(doc.registro).toMatchObject({ huella: t1.huella, num_serie: t1.numero, id_emisor: 'B86420973', xml: t1.xml, qr_url: t1.qr_url });
    // The list's row says when it was sold (the till's instant) and where.
    const fila = (await list(t, t.cookie, 'listadotickets', { terminal_id: terminal.id as number })).rows.find((r) => r.id === t1.id) as Row & Record<string, unknown>;
    expect(fila).toMatchObject({ fecha_hora: tk.fecha_hora, terminal_id: terminal.id, caja_id: caja.id, uuid: tk.uuid, offline: 0, numero: t1.numero });

    // Stock: the kit's components leave, not the kit.
    const db = t.app.manager.db;
    const libro = await db.selectFrom('stock_movimientos').select(['articulo_id', 'cantidad', 'almacen_id', 'causa']).where('documento_tipo', '=', 'ticket').where('documento_id', '=', t1.id).orderBy('articulo_id').execute();
    expect(libro.map((r) => [r.articulo_id, Number(r.cantidad), r.almacen_id, r.causa])).toEqual(
      [[a.id, -3_000, principal, 'venta'], [b.id, -1_500, principal, 'venta'], [kit.comp1.id, -2_000, principal, 'venta'], [kit.comp2.id, -1_000, principal, 'venta']].sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    // The terminal's head is this record.
    expect((await info()).cadena).toMatchObject({ huella: t1.huella, num_serie: t1.numero });
    expect((await info()).ultimo.numero).toBe(1);
  });

  it("the VERI*FACTU environment setting changes: a stored ticket's QR and what it was made for stay (issue 22)", async () => {
    const cambiar = async (entorno: string) => expect((await enviar(t, 'editarverifactu', { entorno })).body.RESULT).toBe('0');
    await cambiar('pruebas');
    try {
      const leido = (await list(t, t.cookie, 'listadotickets', { id: t1.id })).rows[0] as Row & { registro: { qr_url: string } };
      expect(leido.registro).toMatchObject({ qr_url: t1.qr_url, entorno: 'produccion', demo: 0, verifactu: 0 });
      // A live company's till is told «Producción» whatever the setting: «Pruebas» is part of trying (the demo).
      expect(await info()).toMatchObject({ entorno: 'produccion', demo: 0 });
    } finally {
      await cambiar('produccion');
    }
  });

  it('refusals: payments short, a method the terminal does not offer, only cash gives change, nothing stored', async () => {
    const antes = await foto(t);
    const corto = ticket({ pagos: [{ forma: 'tarjeta', importe: 100 }] });
    const r1 = await subir({ terminal_id: terminal.id, tickets: [corto] });
    expect(r1.status).toBe(400);
    expect(r1.body.message).toBe(`Ticket ${corto.uuid}: Los pagos (1,00 €) no cubren el total del ticket (13,86 €).`);
    const vale = ticket({ pagos: [{ forma: 'vale', importe: 1_386, vale: 'V000000000001' }] });
    expect((await subir({ terminal_id: terminal.id, tickets: [vale] })).body.message).toBe(`Ticket ${vale.uuid}: El terminal no admite la forma de pago vale.`);
    const tarjetaDeMas = ticket({ pagos: [{ forma: 'tarjeta', importe: 2_000 }] });
    expect((await subir({ terminal_id: terminal.id, tickets: [tarjetaDeMas] })).body.message).toBe(`Ticket ${tarjetaDeMas.uuid}: ${MESSAGES_TPV.soloEfectivoExcede}`);
    expect(await foto(t)).toEqual(antes);
  });

  it('idempotent: the same uuid again answers the same row and changes nothing; concurrent duplicates make one ticket', async () => {
    const antes = await foto(t);
    const tk = (await t.app.manager.db.selectFrom('tpv_tickets').select('uuid').where('documento_id', '=', t1.id).executeTakeFirstOrThrow()).uuid!;
    const [again] = await subidos({ terminal_id: terminal.id, tickets: [{ ...ticket(), uuid: tk }] });
    expect(again).toEqual({ ...t1, repetido: 1 });
    expect(await foto(t)).toEqual(antes);

    const nuevo = ticket({ pagos: [{ forma: 'efectivo', importe: 1_000 }, { forma: 'tarjeta', importe: 386 }] });
    const respuestas = await Promise.all(Array.from({ length: 6 }, () => subir({ terminal_id: terminal.id, tickets: [nuevo] })));
    for (const r of respuestas) expect(r.body.RESULT).toBe('0');
    const ids = new Set(respuestas.map((r) => (r.body.data as TicketSubido[])[0].id));
    expect(ids.size).toBe(1);
    expect(respuestas.filter((r) => (r.body.data as TicketSubido[])[0].repetido === 0)).toHaveLength(1);
    expect((respuestas[0].body.data as TicketSubido[])[0]).toMatchObject({ numero: `T ${ANIO}/000002`, cambio: 0 });
    const despues = await foto(t);
    expect(despues.tickets).toBe(antes.tickets + 1);
    expect(despues.registros).toBe(antes.registros + 1);
  });

  /** A ticket issued offline by the till: its record made with shared/fiscal from what the till knows. */
  async function offline(
    i: TerminalTpv, anterior: Anterior | null, numero: number, lineas = ticket().lineas, alterar: (r: RegistroTpv) => void = () => {}, cuando = new Date(),
  ) {
    const tipos: Record<number, '21' | '10'> = { [a.id]: '21', [b.id]: '10', [kit.kit.id]: '21' };
    const totales = totalesTicket(lineas.map((l) => ({ ...l, tipo_iva: tipos[l.articulo_id] })));
    const ts = fechaHoraHuso(cuando, i.zona_horaria);
    const gen = registroTicket({
      emisor: i.emisor, instalacion: i.numero_instalacion, sistema: i.sistema, serieCodigo: i.serie.codigo, ejercicio: Number(ANIO), numero, fecha: ts.slice(0, 10),
      totales, anterior, ts,
    });
    const registro: RegistroTpv = registroTpvDe(gen);
    alterar(registro);
    const tk = { ...ticket({ lineas, pagos: [{ forma: 'efectivo', importe: totales.total }] }), registro };
    const siguiente: Anterior = { id_emisor: i.emisor.nif, num_serie: gen.numSerie, fecha_expedicion: gen.campos.FechaExpedicionFactura, huella: gen.huella, fecha_hora_huso: ts };
    return { tk, siguiente, gen };
  }
  const cabeza = (i: TerminalTpv): Anterior | null => (i.cadena ? { id_emisor: i.emisor.nif, ...i.cadena } : null);

  it('offline: records the till made are verified and stored unaltered, chained, in order', async () => {
    const i = await info();
    const o1 = await offline(i, cabeza(i), i.ultimo.numero + 1);
    const o2 = await offline(i, o1.siguiente, i.ultimo.numero + 2, [{ articulo_id: b.id, cantidad: 2_000, precio: 22_000 }]);
    const filas = await subidos({ terminal_id: terminal.id, tickets: [o1.tk, o2.tk] });
    expect(filas.map((f) => [f.numero, f.huella, f.xml, f.offline])).toEqual([
      [`T ${ANIO}/000003`, o1.gen.huella, o1.gen.xml, 1],
      [`T ${ANIO}/000004`, o2.gen.huella, o2.gen.xml, 1],
    ]);
    validarXml(filas.map((f) => f.xml));
    const stored = await t.app.manager.db.selectFrom('registros_facturacion').select(['xml', 'huella', 'huella_anterior', 'emisor']).where('documento_id', '=', filas[1].id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ xml: o2.gen.xml, huella: o2.gen.huella, huella_anterior: o1.gen.huella, emisor: `B86420973:${cajaTpv(1)}` });
    // Sent again (the answer was lost): the same rows.
    const otra = await subidos({ terminal_id: terminal.id, tickets: [o1.tk, o2.tk] });
    expect(otra.map((f) => [f.id, f.repetido])).toEqual(filas.map((f) => [f.id, 1]));
    // Every chain, the terminal's too, checks out.
    const checks = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { emisor: string; correcto: boolean; total: number }[];
    expect(checks.find((c) => c.emisor === `B86420973:${cajaTpv(1)}`)).toMatchObject({ correcto: true, total: 4 });
    expect(checks.every((c) => c.correcto)).toBe(true);
  });

  it('offline: a tampered huella, a broken chain, a changed amount, an altered XML, a skipped number are refused with their reason; nothing stored', async () => {
    const i = await info();
    const antes = await foto(t);
    const intento = async (o: Awaited<ReturnType<typeof offline>>, motivo: string) => {
      const r = await subir({ terminal_id: terminal.id, tickets: [o.tk] });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(`Ticket ${o.tk.uuid}: ${motivo}`);
      expect(await foto(t)).toEqual(antes);
    };
    const n = i.ultimo.numero + 1;
    await intento(await offline(i, cabeza(i), n, undefined, (r) => { r.huella = `${r.huella.slice(0, 63)}${r.huella.endsWith('0') ? '1' : '0'}`; }), MESSAGES_TPV.registroHuella);
    // Chained to something else than the terminal's last record (its own huella consistent with that).
    const roto = await offline(i, { ...cabeza(i)!, huella: 'A'.repeat(64) }, n);
    await intento(roto, `el registro no se encadena con el último registro del terminal (huella anterior ${'A'.repeat(64)}, se esperaba ${i.cadena!.huella}).`);
    // The record's amounts say one thing, the lines another (a line's price changed after the record was made).
    const cambiado = await offline(i, cabeza(i), n);
    cambiado.tk.lineas = [{ ...cambiado.tk.lineas[0], precio: 10_000 }, ...cambiado.tk.lineas.slice(1)];
    cambiado.tk.pagos = [{ forma: 'efectivo', importe: 100_000 }];
    const t2 = totalesTicket([
      { cantidad: 3_000, precio: 10_000, tipo_iva: '21' }, { cantidad: 1_500, precio: 22_000, descuento: 1000, tipo_iva: '10' }, { cantidad: 1_000, precio: 72_600, tipo_iva: '21' },
    ]);
    await intento(
      cambiado,
      `los importes del registro (cuota ${cambiado.tk.registro.cuota_total}, total ${cambiado.tk.registro.importe_total}) no coinciden con las líneas del ticket (cuota ${importeAeat(t2.iva)}, total ${importeAeat(t2.total)}).`,
    );
    await intento(await offline(i, cabeza(i), n, undefined, (r) => { r.xml = r.xml.replace('Venta en mostrador', 'Otra cosa'); }), MESSAGES_TPV.registroXml);
    await intento(await offline(i, cabeza(i), n + 1), `el número del registro (T ${ANIO}/${String(n + 1).padStart(6, '0')}) no es el siguiente de la serie del terminal (T ${ANIO}/${String(n).padStart(6, '0')}).`);
    // A good ticket after a refused one in the same upload: all or nothing.
    const bueno = await offline(i, cabeza(i), n);
    const malo = await offline(i, bueno.siguiente, n + 1, undefined, (r) => { r.huella = '0'.repeat(64); });
    const r = await subir({ terminal_id: terminal.id, tickets: [bueno.tk, malo.tk] });
    expect(r.body.message).toBe(`Ticket ${malo.tk.uuid}: ${MESSAGES_TPV.registroHuella}`);
    expect(await foto(t)).toEqual(antes);
    // Issue 23: a corrupt record is not in the books, but it is not lost either: kept aside whole and reported, once
    // (the till sends it again: still one), never replaced.
    expect((await subir({ terminal_id: terminal.id, tickets: [malo.tk] })).status).toBe(400);
    const apartados = await t.app.manager.db.selectFrom('tpv_incidencias').selectAll().where('tipo', '=', 'registro').where('uuid', '=', malo.tk.uuid).execute();
    expect(apartados).toHaveLength(1);
    expect(apartados[0]).toMatchObject({ terminal_id: terminal.id, documento_id: null, detalle: `Ticket ${malo.gen.numSerie}: ${MESSAGES_TPV.registroHuella}`, remedio: INCIDENCIA_TPV.registro.remedio });
    expect(JSON.parse(apartados[0].datos!).registro).toEqual(malo.tk.registro);
    const lista = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id as number })).rows as unknown as IncidenciaTpv[];
    expect(lista.filter((x) => x.tipo === 'registro')).toHaveLength(6);
    expect(lista[0]).toMatchObject({ uuid: malo.tk.uuid, etiqueta: INCIDENCIA_TPV.registro.etiqueta, numero: null, resuelta: 0 });
  });

  let devolucion: Row;
  it('returns: the R5 in the terminal rectificativa serie, goods back, never beyond what was sold and not yet returned', async () => {
    const doc = (await list(t, t.cookie, 'listadotickets', { id: t1.id })).rows[0] as Row & { lineas: Row[] };
    const [la, lb] = doc.lineas;
    const antes = await foto(t);
    const demas = await enviar(t, 'devolverticket', { id: t1.id, lineas: [{ id: la.id, cantidad: 4_000 }] });
    expect(demas.status).toBe(400);
    expect(demas.body.message).toBe('Línea 1: se devuelven 4 y quedan por devolver 3.');
    expect(await foto(t)).toEqual(antes);
    devolucion = (await save(t, t.cookie, 'devolverticket', { id: t1.id, lineas: [{ id: la.id, cantidad: 1_000 }, { id: lb.id, cantidad: 1_500 }], pagos: [{ forma: 'efectivo', importe: 418 }] })) as Row;
    // 1 × 1,21 + 1,5 × 2,20 − 10 % = 1,21 + 2,97 = 4,18.
    expect(devolucion).toMatchObject({ tipo: 'rectificativa', tipo_factura: 'R5', estado: 'emitida', numero: `R ${ANIO}/000001`, total: -418, ticket_id: t1.id, factura_id: t1.id });
    expect(devolucion.xml).toContain('<sf:TipoFactura>R5</sf:TipoFactura>');
    expect(devolucion.xml).toContain(`<sf:NumSerieFactura>T ${ANIO}/000001</sf:NumSerieFactura>`);
    validarXml([devolucion.xml as string]);
    const libro = await t.app.manager.db.selectFrom('stock_movimientos').select(['articulo_id', 'cantidad']).where('documento_id', '=', devolucion.id).where('documento_tipo', '=', 'rectificativa').orderBy('articulo_id').execute();
    expect(libro.map((r) => [r.articulo_id, Number(r.cantidad)])).toEqual([[a.id, 1_000], [b.id, 1_500]]);
    const ahora = (await list(t, t.cookie, 'listadotickets', { id: t1.id })).rows[0] as Row & { lineas: Row[] };
    expect(ahora.estado).toBe('devuelto_parcial');
    expect(ahora.lineas.map((l) => l.devuelto)).toEqual([1_000, 1_500, 0]);
    const otra = await enviar(t, 'devolverticket', { id: t1.id, lineas: [{ id: lb.id, cantidad: 1 }] });
    expect(otra.body.message).toBe('Línea 2: se devuelven 0,001 y quedan por devolver 0.');
    const pagosMal = await enviar(t, 'devolverticket', { id: t1.id, lineas: [{ id: la.id, cantidad: 1_000 }], pagos: [{ forma: 'efectivo', importe: 100 }] });
    expect(pagosMal.body.message).toBe('Los reembolsos (1,00 €) deben sumar el importe de la devolución (1,21 €).');
  });

  it('a full invoice (F3) replacing a ticket: the customer\'s, naming the ticket it replaces, no stock moved again; the ticket is Facturado', async () => {
    const db = t.app.manager.db;
    const [, segundo] = await db.selectFrom('tpv_tickets').select('documento_id').where('tipo', '=', 'ticket').orderBy('documento_id').execute();
    const ticketDoc = (await list(t, t.cookie, 'listadotickets', { id: segundo.documento_id })).rows[0] as Row & { total: number; numero: string; base: number; iva: number };
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    const libro = await foto(t);
    const f3 = (await save(t, t.cookie, 'facturarticket', { id: segundo.documento_id, cliente_id: cliente.id })) as Row & { registro: { xml: string } };
    expect(f3).toMatchObject({ tipo: 'factura', tipo_factura: 'F3', estado: 'emitida', numero: `A ${ANIO}/000001`, total: ticketDoc.total, base: ticketDoc.base, iva: ticketDoc.iva, factura_id: segundo.documento_id });
    expect(f3.registro.xml).toContain(`<sf:FacturasSustituidas><sf:IDFacturaSustituida><sf:IDEmisorFactura>B86420973</sf:IDEmisorFactura><sf:NumSerieFactura>${ticketDoc.numero}</sf:NumSerieFactura>`);
    expect(f3.registro.xml).toContain('<sf:NIF>B85612349</sf:NIF>');
    // Paid at the counter: nothing left to collect.
    expect(f3).toMatchObject({ forma_pago: 'contado', cobro_fecha: HOY });
    validarXml([f3.registro.xml]);
    expect((await foto(t)).ledger).toBe(libro.ledger);
    expect((await list(t, t.cookie, 'listadotickets', { id: segundo.documento_id })).rows[0].estado).toBe('facturado');
    expect((await enviar(t, 'facturarticket', { id: segundo.documento_id, cliente_id: cliente.id })).body.message).toBe(MESSAGES_TPV.ticketYaFacturado);
    const linea = ((await list(t, t.cookie, 'listadotickets', { id: segundo.documento_id })).rows[0].lineas as Row[])[0];
    expect((await enviar(t, 'devolverticket', { id: segundo.documento_id, lineas: [{ id: linea.id, cantidad: 1 }] })).body.message).toBe(MESSAGES_TPV.ticketYaFacturado);
    // A ticket with returns is not replaced.
    expect((await enviar(t, 'facturarticket', { id: t1.id, cliente_id: cliente.id })).body.message).toBe(MESSAGES_TPV.ticketNoFacturable);
  });

  it('cash: movements in and out, a withdrawal beyond the drawer refused; the closing to the cent, final, sequential code per terminal', async () => {
    expect((await enviar(t, 'movimientocajatpv', { terminal_id: terminal.id, importe: 0, motivo: 'x' })).status).toBe(400);
    await save(t, t.cookie, 'movimientocajatpv', { terminal_id: terminal.id, importe: 2_000, motivo: 'Cambio del banco' });
    const m = await save(t, t.cookie, 'movimientocajatpv', { terminal_id: terminal.id, importe: -5_000, motivo: 'Al sobre', uuid: 'mov-1' });
    // Idempotent by uuid.
    expect((await save(t, t.cookie, 'movimientocajatpv', { terminal_id: terminal.id, importe: -5_000, motivo: 'Al sobre', uuid: 'mov-1' })).id).toBe(m.id);
    const demas = await enviar(t, 'movimientocajatpv', { terminal_id: terminal.id, importe: -1_000_000, motivo: 'Demasiado' });
    expect(demas.body.message).toMatch(/^No hay tanto efectivo en el cajón/);

    const db = t.app.manager.db;
    const tickets = await db.selectFrom('tpv_tickets').select(['documento_id', 'tipo', 'cambio']).where('terminal_id', '=', terminal.id as number).execute();
    const pagos = await db.selectFrom('tpv_pagos').select(['documento_id', 'forma', 'importe', 'entregado']).where('documento_id', 'in', tickets.map((x) => x.documento_id)).execute();
    const tipo = new Map(tickets.map((x) => [x.documento_id, x.tipo]));
    const efectivo = pagos.filter((p) => p.forma === 'efectivo');
    const cobrado = efectivo.filter((p) => tipo.get(p.documento_id) === 'ticket').reduce((s, p) => s + Number(p.entregado), 0);
    const devuelto = efectivo.filter((p) => tipo.get(p.documento_id) === 'devolucion').reduce((s, p) => s - Number(p.importe), 0);
    const cambio = tickets.reduce((s, x) => s + Number(x.cambio), 0);
    const esperado = 10_000 + cobrado - cambio - devuelto + 2_000 - 5_000;
    // By hand: float 100 €, cash for t1 (200 € handed, 186,14 € change), the split one (10 €), two offline ones paid exact, the 4,18 € refund.
    expect(devuelto).toBe(418);

    const x = (await list(t, t.cookie, 'cajatpv', { terminal_id: terminal.id as number })).rows[0] as unknown as CierreTpv;
    expect(x.efectivo.esperado).toBe(esperado);
    expect(x).toMatchObject({ id: null, codigo: null, tickets: 4, devoluciones: 1 });

    const cierre = (await save(t, t.cookie, 'editarcierretpv', { terminal_id: terminal.id, contado: [{ forma: 'efectivo', importe: esperado - 150 }, { forma: 'tarjeta', importe: 386 }] })) as unknown as CierreTpv;
    expect(cierre).toMatchObject({ codigo: 1, tickets: 4, devoluciones: 1, fondo: 10_000, diferencia: -150 });
    expect(cierre.efectivo).toMatchObject({ fondo: 10_000, cobrado, cambio, devuelto, entradas: 2_000, salidas: 5_000, esperado, contado: esperado - 150, diferencia: -150 });
    expect(cierre.formas.find((f) => f.forma === 'tarjeta')).toMatchObject({ ventas: 386, esperado: 386, contado: 386, diferencia: 0 });
    const totalDocs = await db.selectFrom('documentos').select((eb) => eb.fn.sum<number>('total').as('s')).where('id', 'in', tickets.map((x) => x.documento_id)).executeTakeFirstOrThrow();
    expect(cierre.total).toBe(Number(totalDocs.s));
    expect(cierre.impuestos.reduce((s, g) => s + g.total, 0)).toBe(cierre.total);
    expect(cierre.primer_numero).toBe(`T ${ANIO}/000001`);
    expect(cierre.ultimo_numero).toBe(`T ${ANIO}/000004`);
    // Closed: no more sales or closings until a new caja; the next closing is number 2.
    expect((await enviar(t, 'editarcierretpv', { terminal_id: terminal.id, contado: [{ forma: 'efectivo', importe: 0 }] })).body.message).toBe(MESSAGES_TPV.cajaNoAbierta);
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id, fondo: 5_000 });
    const inst = await enviar(t, 'editarterminal', {
      id: terminal.id, nombre: 'Caja 1', almacen_id: principal, serie_id: serieT, serie_rectificativa_id: serieR, formas_pago: ['efectivo', 'tarjeta', 'bizum'], numero_instalacion: 'OTRA',
    });
    expect(inst.body.errors).toEqual({ numero_instalacion: MESSAGES_TPV.instalacionFija });
    const z2 = (await save(t, t.cookie, 'editarcierretpv', {
      terminal_id: terminal.id, contado: [], denominaciones: [{ valor: 2_000, cantidad: 2 }, { valor: 500, cantidad: 2 }],
    })) as unknown as CierreTpv;
    expect(z2).toMatchObject({ codigo: 2, tickets: 0, efectivo: { esperado: 5_000, contado: 5_000, diferencia: 0 }, denominaciones: [{ valor: 2_000, cantidad: 2 }, { valor: 500, cantidad: 2 }] });
    const { rows } = await list(t, t.cookie, 'listadocierrestpv', { terminal_id: terminal.id as number, orden: 'codigo', dir: 'asc' });
    expect(rows.map((r) => r.codigo)).toEqual([1, 2]);
    expect((await list(t, t.cookie, 'listadocierrestpv', { id: cierre.id! })).rows[0]).toEqual(cierre);
  });

  it('numbers gapless per terminal; stock = ledger; a second terminal numbers its own serie from 1', async () => {
    const t2 = await save(t, t.cookie, 'editarterminal', { nombre: 'Caja 2', almacen_id: principal, serie_id: serieT2, serie_rectificativa_id: serieR2, formas_pago: ['efectivo'] });
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: t2.id });
    const [x1, x2] = await Promise.all([
      subidos({ terminal_id: terminal.id, tickets: [ticket(), ticket()] }),
      subidos({ terminal_id: t2.id, tickets: [ticket(), ticket()] }),
    ]);
    expect(x1.map((r) => r.numero)).toEqual([`T ${ANIO}/000005`, `T ${ANIO}/000006`]);
    expect(x2.map((r) => r.numero)).toEqual([`T2 ${ANIO}/000001`, `T2 ${ANIO}/000002`]);
    const db = t.app.manager.db;
    for (const serie of [serieT, serieT2]) {
      const nums = (await db.selectFrom('documentos').select('numero').where('tipo', '=', 'ticket').where('serie_id', '=', serie).orderBy('numero').execute()).map((r) => Number(r.numero));
      expect(nums).toEqual(nums.map((_, k) => k + 1));
    }
    const libro = await db.selectFrom('stock_movimientos').select(['articulo_id', (eb) => eb.fn.sum<number>('cantidad').as('s')]).groupBy('articulo_id').execute();
    const arts = await db.selectFrom('articulos').select(['id', 'stock_total']).execute();
    const porLibro = new Map(libro.map((r) => [r.articulo_id, Number(r.s)]));
    for (const art of arts) expect(Number(art.stock_total)).toBe(porLibro.get(art.id) ?? 0);
    const checks = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { emisor: string; correcto: boolean }[];
    expect(checks.map((c) => c.emisor).sort()).toEqual(['B86420973', `B86420973:${cajaTpv(1)}`, `B86420973:${cajaTpv(2)}`].sort());
    expect(checks.every((c) => c.correcto)).toBe(true);
  });

  it('a caja is worked from the till it stands at: another terminal\'s caja is refused, by PIN or by password', async () => {
    const db = t.app.manager.db;
    const t2 = await db.selectFrom('tpv_terminales').select('id').where('nombre', '=', 'Caja 2').executeTakeFirstOrThrow();
    const abiertaT2 = async () => Number((await db.selectFrom('tpv_cajas').select((eb) => eb.fn.countAll<number>().as('n')).where('terminal_id', '=', t2.id).where('cierre_id', 'is', null).executeTakeFirstOrThrow()).n);
    expect(await abiertaT2()).toBe(1);
    const admin = (await info()).cajeros.find((c) => c.con_pin === 1)!;
    const r = await t.op('identificartpv', { cookie: tpvCookie, body: { usuario_id: admin.id, pin: '4321' } });
    const pin = `mtpv_sesion=${r.cookies.find((x) => x.name === 'mtpv_sesion')!.value}; ${tpvCookie}`;
    const otro = [
      ['editarcierretpv', { terminal_id: t2.id, contado: [] }],
      ['movimientocajatpv', { terminal_id: t2.id, importe: -100, motivo: 'Prueba' }],
    ] as const;
    for (const [ac, body] of otro) {
      const res = await t.op(ac, { cookie: pin, body });
      expect([ac, res.statusCode, res.json().message]).toEqual([ac, 403, MESSAGES_TPV.cajaDeOtroTerminal]);
    }
    expect((await t.op('cajatpv', { cookie: pin, query: { terminal_id: String(t2.id) } })).json().message).toBe(MESSAGES_TPV.cajaDeOtroTerminal);
    expect(await abiertaT2()).toBe(1);
    // Its own terminal's caja: read.
    expect((await t.op('cajatpv', { cookie: pin, query: { terminal_id: String(terminal.id) } })).json().RESULT).toBe('0');

    // A Caja user by password: at the paired till only that terminal's caja; without a till, none.
    const roles = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows;
    await save(t, t.cookie, 'editarusuario', { nombre: 'Cajero 2', email: 'cajero2@tpv.es', password: 'Clave-tpv-2026', rol_id: roles.find((x) => x.clave === 'caja')!.id });
    const cajero = await t.login('cajero2@tpv.es', 'Clave-tpv-2026');
    const sinTpv = await t.op('cajatpv', { cookie: cajero, query: { terminal_id: String(terminal.id) } });
    expect([sinTpv.statusCode, sinTpv.json().message]).toEqual([403, MESSAGES_TPV.cajaSinTerminal]);
    const cierre = await t.op('editarcierretpv', { cookie: cajero, body: { terminal_id: t2.id, contado: [] } });
    expect([cierre.statusCode, cierre.json().message]).toEqual([403, MESSAGES_TPV.cajaSinTerminal]);
    expect((await t.op('cajatpv', { cookie: `${cajero}; ${tpvCookie}`, query: { terminal_id: String(terminal.id) } })).json().RESULT).toBe('0');
    const ajeno = await t.op('editarcierretpv', { cookie: `${cajero}; ${tpvCookie}`, body: { terminal_id: t2.id, contado: [] } });
    expect([ajeno.statusCode, ajeno.json().message]).toEqual([403, MESSAGES_TPV.cajaDeOtroTerminal]);
    expect(await abiertaT2()).toBe(1);

    // Caja returns the day's tickets only: an earlier day's needs «devolver tickets de días anteriores».
    expect(ROL_PREDEFINIDO.caja.derechos.especiales).not.toContain('devolver_anteriores');
    expect(ROL_PREDEFINIDO.administrador.derechos.especiales).toContain('devolver_anteriores');
    const tk = await db
      .selectFrom('documentos as d')
      .innerJoin('tpv_tickets as tt', 'tt.documento_id', 'd.id')
      .select(['d.id', 'd.fecha'])
      .where('d.tipo', '=', 'ticket')
      .where('d.estado', '=', 'emitido')
      .where('tt.terminal_id', '=', terminal.id as number)
      .orderBy('d.id')
      .executeTakeFirstOrThrow();
    const linea = await db.selectFrom('documento_lineas').select('id').where('documento_id', '=', tk.id).orderBy('orden').executeTakeFirstOrThrow();
    const ayer = new Date(Date.parse(`${HOY}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await db.updateTable('documentos').set({ fecha: ayer }).where('id', '=', tk.id).execute();
    try {
      const antes = await foto(t);
      const dev = await t.op('devolverticket', { cookie: `${cajero}; ${tpvCookie}`, body: { id: tk.id, lineas: [{ id: linea.id, cantidad: 1_000 }] } });
      expect([dev.statusCode, dev.json().message]).toEqual([403, MESSAGES_TPV.devolucionDiaAnterior]);
      expect(await foto(t)).toEqual(antes);
    } finally {
      await db.updateTable('documentos').set({ fecha: tk.fecha }).where('id', '=', tk.id).execute();
    }
  });

  it('negative stock refused by the configuration: an online ticket is refused, one the till issued offline is stored all the same', async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, stock_negativo: 0 } })).json().RESULT).toBe('0');
    try {
      const antes = await foto(t);
      const online = await subir({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 12_100 }] })] });
      expect(online.status).toBe(400);
      expect(online.body.message).toMatch(/^Ticket .+: No hay stock suficiente|^Ticket .+: .*TPV-A/);
      expect(await foto(t)).toEqual(antes);
      const i = await info();
      const o = await offline(i, cabeza(i), i.ultimo.numero + 1, [{ articulo_id: a.id, cantidad: 1_000, precio: 12_100 }]);
      const [fila] = await subidos({ terminal_id: terminal.id, tickets: [o.tk] });
      expect(fila).toMatchObject({ offline: 1, huella: o.gen.huella });
    } finally {
      expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, stock_negativo: 1 } })).json().RESULT).toBe('0');
    }
  });

  it('rights and flags: Caja sells, returns and closes but configures nothing; the tpv flag off answers 403', async () => {
    const roles = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows;
    const caja = roles.find((r) => r.clave === 'caja')!;
    expect(ROL_PREDEFINIDO.caja.derechos.areas.tpv).toEqual(['ver', 'editar', 'acciones']);
    await save(t, t.cookie, 'editarusuario', { nombre: 'Cajera', email: 'cajera@tpv.es', password: 'Clave-tpv-2026', rol_id: caja.id });
    const cajera = await t.login('cajera@tpv.es', 'Clave-tpv-2026');
    const vende = await subir({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: a.id, cantidad: 2_000, precio: 12_100 }] })] }, cajera);
    expect(vende.body.RESULT).toBe('0');
    // Caja may not change a price nor give a discount (its maximum is 0 %).
    const precio = await subir({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 10_000 }] })] }, cajera);
    expect(precio.status).toBe(403);
    expect(precio.body).toMatchObject({ derecho: 'cambiar_precio', message: 'Su rol no permite cambiar el precio de un artículo en un documento. (línea 1)' });
    const dto = await subir({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 12_100, descuento: 500 }] })] }, cajera);
    expect(dto.body).toMatchObject({ derecho: 'descuento' });
    const config = await t.op('editarterminal', { cookie: cajera, body: { id: terminal.id, nombre: 'X' } });
    expect(config.statusCode).toBe(403);
    expect((await t.op('editarbotonestpv', { cookie: cajera, body: { paginas: [] } })).statusCode).toBe(403);
    expect((await t.op('listadotickets', { cookie: cajera })).statusCode).toBe(200);
    // The back office's TPV screens are not Caja's: its closing's Z report prints at the till.
    for (const ac of ['listadoterminales', 'listadocierrestpv']) expect([ac, (await t.op(ac, { cookie: cajera })).statusCode]).toEqual([ac, 403]);

    // The F3 at the till: Caja finds or creates the customer through the till's own narrow actions, never the master.
    expect((await t.op('listadoclientes', { cookie: cajera })).statusCode).toBe(403);
    expect((await t.op('editarcliente', { cookie: cajera, body: { nif: '12345678Z', razon_social: 'X' } })).statusCode).toBe(403);
    const hallados = (await t.op('clientestpv', { cookie: cajera, query: { q: 'reformas' } })).json();
    expect(hallados.data).toEqual([expect.objectContaining({ nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' })]);
    expect(Object.keys(hallados.data[0]).sort()).toEqual(['codigo', 'codigo_postal', 'direccion', 'id', 'nif', 'nombre_comercial', 'poblacion', 'razon_social', 'recargo']);
    // Issue 23: whether a full invoice charges the customer recargo de equivalencia (the till shows the total to pay).
    // Issue 23: fewer than three characters answer nobody (never pages of every customer); a NIF only whole.
    for (const q of ['', 'a', 're', ' B8 ']) {
      const corta = await t.op('clientestpv', { cookie: cajera, query: { q } });
      expect([q, corta.statusCode, corta.json().errors?.q ?? corta.json().message]).toEqual([q, 400, q ? MESSAGES_TPV.clienteBusquedaCorta : expect.any(String)]);
    }
    expect((await t.op('clientestpv', { cookie: cajera, query: { q: 'b85612349' } })).json().data).toEqual([expect.objectContaining({ nif: 'B85612349' })]);
    expect((await t.op('clientestpv', { cookie: cajera, query: { q: '856123' } })).json().data).toEqual([]);
    const clientesAntes = await t.app.manager.db.selectFrom('clientes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const malNif = await t.op('altaclientetpv', { cookie: cajera, body: { nif: '12345678A', razon_social: 'Ana Ruiz' } });
    expect(malNif.statusCode).toBe(400);
    expect(malNif.json()).toMatchObject({ errors: { nif: 'El NIF no es válido' } });
    const sinNombre = await t.op('altaclientetpv', { cookie: cajera, body: { nif: '12345678Z' } });
    expect(sinNombre.json().errors).toHaveProperty('razon_social');
    expect((await t.app.manager.db.selectFrom('clientes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toEqual(clientesAntes.n);
    const alta = (await t.op('altaclientetpv', { cookie: cajera, body: { nif: '12345678-z', razon_social: 'Ana Ruiz', codigo_postal: '28001', poblacion: 'Madrid' } })).json();
    expect(alta.data[0]).toMatchObject({ nif: '12345678Z', razon_social: 'Ana Ruiz', codigo_postal: '28001', poblacion: 'Madrid', existente: 0 });
    const otraVez = (await t.op('altaclientetpv', { cookie: cajera, body: { nif: '12345678Z', razon_social: 'Otro nombre' } })).json();
    expect(otraVez.data[0]).toMatchObject({ id: alta.data[0].id, razon_social: 'Ana Ruiz', existente: 1 });
    const f3 = (await t.op('facturarticket', { cookie: cajera, body: { id: vende.body.data[0].id, cliente_id: alta.data[0].id } })).json();
    expect(f3.data[0]).toMatchObject({ tipo: 'factura', tipo_factura: 'F3', cliente_id: alta.data[0].id, factura_id: vende.body.data[0].id });

    await setFlags(t, t.cookie, { tpv: 0 });
    for (const [ac, body] of [['subirtickets', { terminal_id: terminal.id, tickets: [ticket()] }], ['listadoterminales', undefined], ['listadotickets', undefined], ['emparejarterminal', { codigo: 'X' }]] as const) {
      const r = await t.op(ac, { cookie: t.cookie, ...(body ? { body } : {}) });
      expect(r.statusCode).toBe(403);
    }
    await setFlags(t, t.cookie, { tpv: 1 });
  });

  it('an R5 annulled: the units it returned are returnable again, the goods go back out, the ticket is Emitido again', async () => {
    const db = t.app.manager.db;
    if (!(await db.selectFrom('tpv_cajas').select('id').where('terminal_id', '=', terminal.id as number).where('cierre_id', 'is', null).executeTakeFirst())) {
      await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    }
    const [tk] = await subidos({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: a.id, cantidad: 2_000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 242 }] })] });
    const linea = ((await list(t, t.cookie, 'listadotickets', { id: tk.id })).rows[0].lineas as Row[])[0];
    const stock = async () =>
      Number((await db.selectFrom('stock_movimientos').select((eb) => eb.fn.sum<number>('cantidad').as('s')).where('articulo_id', '=', a.id).executeTakeFirstOrThrow()).s);
    const antes = await stock();
    const caja = async () => (await list(t, t.cookie, 'cajatpv', { terminal_id: terminal.id as number })).rows[0] as unknown as CierreTpv;
    const sinR5 = await caja();
    const r5 = await save(t, t.cookie, 'devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 1_500 }] });
    expect(await stock()).toBe(antes + 1_500);
    // 1,5 × 1,21 = 1,82 refunded in cash (the ticket's method): out of the drawer, a return counted.
    const conR5 = await caja();
    expect(conR5.efectivo.esperado).toBe(sinR5.efectivo.esperado - 182);
    expect(conR5.devoluciones).toBe(sinR5.devoluciones + 1);
    expect(conR5.formas.find((f) => f.forma === 'efectivo')!.devoluciones).toBe(sinR5.formas.find((f) => f.forma === 'efectivo')!.devoluciones + 182);
    const leido = async () => (await list(t, t.cookie, 'listadotickets', { id: tk.id })).rows[0] as Row & { lineas: Row[]; estado: string };
    expect(await leido()).toMatchObject({ estado: 'devuelto_parcial', lineas: [expect.objectContaining({ devuelto: 1_500 })] });

    const anulada = await t.op('anularrectificativa', { cookie: t.cookie, body: { id: r5.id } });
    expect(anulada.json().RESULT).toBe('0');
    expect((await list(t, t.cookie, 'listadorectificativas', { id: r5.id })).rows[0].estado).toBe('anulada');
    // Its units are the ticket's again: not returned, the goods back out of the warehouse, the ticket as it was sold.
    expect(await leido()).toMatchObject({ estado: 'emitido', lineas: [expect.objectContaining({ devuelto: 0 })] });
    expect(await stock()).toBe(antes);
    // The closing no longer counts its refund: the expected cash, the totals by method and by rate, the returns are as before it.
    const tras = await caja();
    expect(tras.efectivo).toEqual(sinR5.efectivo);
    expect(tras.formas).toEqual(sinR5.formas);
    expect(tras.impuestos).toEqual(sinR5.impuestos);
    expect({ total: tras.total, devoluciones: tras.devoluciones }).toEqual({ total: sinR5.total, devoluciones: sinR5.devoluciones });
    // So the whole line may be returned now, once.
    const todo = await save(t, t.cookie, 'devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 2_000 }] });
    expect(todo).toMatchObject({ tipo_factura: 'R5', total: -242 });
    expect(await leido()).toMatchObject({ estado: 'devuelto', lineas: [expect.objectContaining({ devuelto: 2_000 })] });
    expect((await enviar(t, 'devolverticket', { id: tk.id, lineas: [{ id: linea.id, cantidad: 1 }] })).body.message).toBe('Línea 1: se devuelven 0,001 y quedan por devolver 0.');
  });

  it('offline cash movements and closings: idempotent by uuid and by caja, at the till\'s instant, counted once in the closing', async () => {
    const db = t.app.manager.db;
    let caja = await db.selectFrom('tpv_cajas').select('id').where('terminal_id', '=', terminal.id as number).where('cierre_id', 'is', null).executeTakeFirst();
    if (!caja) caja = { id: (await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id, fondo: 3_000 })).id as number };
    const cifras = async () => (await list(t, t.cookie, 'cajatpv', { terminal_id: terminal.id as number })).rows[0] as unknown as CierreTpv;
    const antes = await cifras();
    const hace = new Date(Date.now() - 60 * 60_000);
    const cuando = hace.toISOString().replace('Z', '+00:00');
    const movimientos = async () => Number((await db.selectFrom('tpv_movimientos').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const n0 = await movimientos();

    // Made offline without its uuid or its time: refused, nothing stored; nor for another caja than the open one.
    const sinUuid = await enviar(t, 'movimientocajatpv', { terminal_id: terminal.id, importe: -500, motivo: 'Proveedor', offline: 1, fecha_hora: cuando });
    expect(sinUuid.status).toBe(400);
    expect(sinUuid.body.message).toBe(MESSAGES_TPV.movimientoOfflineDatos);
    const otraCaja = await enviar(t, 'movimientocajatpv', { terminal_id: terminal.id, importe: -500, motivo: 'Proveedor', offline: 1, fecha_hora: cuando, uuid: 'off-x', caja_id: caja.id + 1000 });
    expect(otraCaja.body.message).toBe(MESSAGES_TPV.cajaDelMovimientoCerrada);
    expect(await movimientos()).toBe(n0);

    // A withdrawal beyond what the server counts in the drawer: made offline, the cash already left; stored at the till's instant.
    const grande = antes.efectivo.esperado + 2_000;
    const offline = { terminal_id: terminal.id, offline: 1, fecha_hora: cuando, caja_id: caja.id };
    const m1 = await save(t, t.cookie, 'movimientocajatpv', { ...offline, importe: -grande, motivo: 'Al banco', uuid: 'off-1' });
    expect(m1.fecha_hora).toBe(hace.toISOString());
    // …and flagged for the manager with the way to put it right (issue 23): in the caja's figures (the Z).
    const retirada = (await cifras()).incidencias!.filter((x) => x.tipo === 'retirada');
    expect(retirada).toEqual([
      expect.objectContaining({
        uuid: 'off-1', caja_id: caja.id, etiqueta: INCIDENCIA_TPV.retirada.etiqueta, remedio: INCIDENCIA_TPV.retirada.remedio,
        detalle: `Salida de ${euros(grande)} «Al banco» con ${euros(antes.efectivo.esperado)} de efectivo en la caja.`,
      }),
    ]);
    // Uploaded again (the answer was lost): the same row, counted once.
    expect((await save(t, t.cookie, 'movimientocajatpv', { ...offline, importe: -grande, motivo: 'Al banco', uuid: 'off-1' })).id).toBe(m1.id);
    await save(t, t.cookie, 'movimientocajatpv', { ...offline, importe: 2_500, motivo: 'Cambio', uuid: 'off-2' });
    expect(await movimientos()).toBe(n0 + 2);
    const ahora = await cifras();
    expect(ahora.efectivo.salidas).toBe(antes.efectivo.salidas + grande);
    expect(ahora.efectivo.entradas).toBe(antes.efectivo.entradas + 2_500);
    expect(ahora.efectivo.esperado).toBe(antes.efectivo.esperado - grande + 2_500);
    expect(ahora.movimientos.slice(-2)).toMatchObject([{ importe: -grande, motivo: 'Al banco' }, { importe: 2_500, motivo: 'Cambio' }]);
    // Online, a withdrawal beyond the drawer is still refused.
    expect((await enviar(t, 'movimientocajatpv', { terminal_id: terminal.id, importe: -1_000_000, motivo: 'Demasiado' })).body.message).toMatch(/^No hay tanto efectivo en el cajón/);

    // The closing prepared offline: the caja it closes and when it was counted; sent twice, one closing.
    const contado = ahora.efectivo.esperado + 100;
    const apertura = (await db.selectFrom('tpv_cajas').select('apertura').where('id', '=', caja.id).executeTakeFirstOrThrow()).apertura;
    const contadoEn = new Date(Math.max(Date.parse(apertura) + 1, Date.now() - 1_000)).toISOString();
    const cierre = { terminal_id: terminal.id, caja_id: caja.id, fecha_hora: contadoEn, contado: [{ forma: 'efectivo', importe: contado }] };
    const z = (await save(t, t.cookie, 'editarcierretpv', cierre)) as unknown as CierreTpv;
    expect(z).toMatchObject({ caja_id: caja.id, cierre: contadoEn, efectivo: { esperado: ahora.efectivo.esperado, contado, diferencia: 100 } });
    expect(z.incidencias!.map((x) => x.tipo)).toContain('retirada');
    expect((await save(t, t.cookie, 'editarcierretpv', cierre)) as unknown as CierreTpv).toEqual(z);
    expect((await list(t, t.cookie, 'listadocierrestpv', { terminal_id: terminal.id as number })).rows.filter((r) => r.caja_id === caja.id)).toHaveLength(1);
    // A movement of that caja arriving after its closing: refused with its reason (the till keeps it as an incidence).
    const tarde = await enviar(t, 'movimientocajatpv', { ...offline, importe: -100, motivo: 'Tarde', uuid: 'off-3' });
    expect(tarde.status).toBe(400);
    expect(tarde.body.message).toBe(MESSAGES_TPV.cajaDelMovimientoCerrada);
    expect(await movimientos()).toBe(n0 + 2);
    // A closing naming a caja that is not this terminal's: not found.
    expect((await enviar(t, 'editarcierretpv', { terminal_id: terminal.id, caja_id: 999_999, contado: [{ forma: 'efectivo', importe: 0 }] })).body.RESULT).toBe('3');
  });

  it('offline returns: the till\'s R5 (rectificativa serie, terminal chain) verified and stored unaltered, the ticket by its uuid, limits checked again, idempotent', async () => {
    const db = t.app.manager.db;
    if (!(await db.selectFrom('tpv_cajas').select('id').where('terminal_id', '=', terminal.id as number).where('cierre_id', 'is', null).executeTakeFirst())) {
      await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    }
    // A ticket sold offline, uploaded before its return (the queue's order).
    const i = await info();
    const vendido = await offline(i, cabeza(i), i.ultimo.numero + 1, [{ articulo_id: a.id, cantidad: 2_000, precio: 12_100 }, { articulo_id: b.id, cantidad: 1_000, precio: 22_000 }]);
    await subidos({ terminal_id: terminal.id, tickets: [vendido.tk] });
    const i2 = await info();
    expect(i2.ultimo_rectificativa).toBeDefined();
    const tipos: Record<number, '21' | '10'> = { [a.id]: '21', [b.id]: '10' };
    const tkTotales = totalesTicket(vendido.tk.lineas.map((l) => ({ ...l, tipo_iva: tipos[l.articulo_id] })));
    /** The R5 the till makes offline of `lineas` ({orden, cantidad}) of the ticket sold above. */
    const r5 = (anterior: Anterior | null, numero: number, lineas: { orden: number; cantidad: number }[], alterar: (r: RegistroTpv) => void = () => {}) => {
      const totales = totalesTicket(lineas.map((x) => ({ ...vendido.tk.lineas[x.orden - 1], cantidad: -x.cantidad, tipo_iva: tipos[vendido.tk.lineas[x.orden - 1].articulo_id] })));
      const ts = fechaHoraHuso(new Date(), i2.zona_horaria);
      const gen = registroDevolucion({
        emisor: i2.emisor, instalacion: i2.numero_instalacion, sistema: i2.sistema, serieCodigo: i2.serie_rectificativa.codigo, ejercicio: Number(ANIO), numero,
        fecha: ts.slice(0, 10), totales, anterior, ts,
        rectificado: { numSerie: vendido.gen.numSerie, fecha: vendido.tk.registro.fecha_hora_huso.slice(0, 10), base: tkTotales.base, cuota: tkTotales.iva },
      });
      const registro = registroTpvDeDevolucion(gen);
      alterar(registro);
      return { gen, totales, body: { ticket_uuid: vendido.tk.uuid, uuid: uuid(), fecha_hora: new Date().toISOString(), lineas, registro } };
    };
    const n = i2.ultimo_rectificativa!.numero + 1;
    const stock = async () =>
      Number((await db.selectFrom('stock_movimientos').select((eb) => eb.fn.sum<number>('cantidad').as('s')).where('articulo_id', '=', a.id).executeTakeFirstOrThrow()).s);
    const caja = async () => (await list(t, t.cookie, 'cajatpv', { terminal_id: terminal.id as number })).rows[0] as unknown as CierreTpv;
    const antesStock = await stock();
    const antesCaja = await caja();

    // Refused with its reason and nothing stored: an altered record, a number not the serie's next, beyond what was sold.
    const antes = await foto(t);
    const intento = async (body: Record<string, unknown>, mensaje: string) => {
      const r = await enviar(t, 'devolverticket', body);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(mensaje);
      expect(await foto(t)).toEqual(antes);
    };
    await intento(r5(cabeza(i2), n, [{ orden: 1, cantidad: 1_000 }], (r) => { r.huella = '0'.repeat(64); }).body, MESSAGES_TPV.registroHuella);
    const saltado = `R ${ANIO}/${String(n + 1).padStart(6, '0')}`;
    await intento(r5(cabeza(i2), n + 1, [{ orden: 1, cantidad: 1_000 }]).body, `el número del registro (${saltado}) no es el siguiente de la serie del terminal (R ${ANIO}/${String(n).padStart(6, '0')}).`);
    await intento({ ...r5(cabeza(i2), n, [{ orden: 1, cantidad: 1_000 }]).body, uuid: undefined }, MESSAGES_TPV.devolucionOfflineDatos);

    const buena = r5(cabeza(i2), n, [{ orden: 1, cantidad: 1_500 }]);
    const hecha = await save(t, t.cookie, 'devolverticket', buena.body);
    expect(hecha).toMatchObject({ tipo_factura: 'R5', numero: buena.gen.numSerie, total: buena.totales.total, huella: buena.gen.huella, xml: buena.gen.xml, offline: 1, uuid: buena.body.uuid });
    // Issue 22: what its record was made for, as stored (a live company, sending off here): the till reprints from it.
    expect(hecha.emision).toEqual({ entorno: 'produccion', demo: 0, verifactu: 0 });
    validarXml([hecha.xml as string]);
    expect(hecha.xml).toContain(`<sf:NumSerieFactura>${vendido.gen.numSerie}</sf:NumSerieFactura>`);
    const guardado = await db.selectFrom('registros_facturacion').select(['xml', 'huella', 'huella_anterior', 'emisor']).where('documento_id', '=', hecha.id as number).executeTakeFirstOrThrow();
    expect(guardado).toEqual({ xml: buena.gen.xml, huella: buena.gen.huella, huella_anterior: vendido.gen.huella, emisor: `${i2.emisor.nif}:${i2.numero_instalacion}` });
    // Goods back to the terminal's warehouse; refunded by the ticket's method (cash): out of the drawer's expected cash.
    expect(await stock()).toBe(antesStock + 1_500);
    expect((await caja()).efectivo.esperado).toBe(antesCaja.efectivo.esperado + buena.totales.total);
    // Sent again (the answer was lost): the same R5, nothing more.
    const despues = await foto(t);
    expect((await save(t, t.cookie, 'devolverticket', buena.body)).id).toBe(hecha.id);
    expect(await foto(t)).toEqual(despues);
    // What is left: 0,5 of line 1; the next offline R5 chains to this one. Online, more than that is refused.
    const i3 = await info();
    expect(i3.ultimo_rectificativa!.numero).toBe(n);
    const lineasTicket = ((await list(t, t.cookie, 'listadotickets', { id: hecha.ticket_id as number })).rows[0] as unknown as { lineas: { id: number }[] }).lineas;
    const enLinea = await enviar(t, 'devolverticket', { id: hecha.ticket_id, lineas: [{ id: lineasTicket[0].id, cantidad: 1_000 }] });
    expect(enLinea.body.message).toBe('Línea 1: se devuelven 1 y quedan por devolver 0,5.');
    // Issue 23: a return made offline beyond it (another till returned meanwhile) was handed over with its printed
    // slip: stored as issued — its number and huella unchanged — and flagged for the manager, never refused.
    const mas = r5(cabeza(i3), n + 1, [{ orden: 1, cantidad: 1_000 }, { orden: 2, cantidad: 1_000 }]);
    const guardadaMas = await save(t, t.cookie, 'devolverticket', mas.body);
    expect(guardadaMas).toMatchObject({ numero: mas.gen.numSerie, huella: mas.gen.huella, xml: mas.gen.xml, offline: 1, total: mas.totales.total });
    expect(guardadaMas.incidencias).toEqual([
      expect.objectContaining({
        tipo: 'devolucion', documento_id: guardadaMas.id, numero: mas.gen.numSerie, remedio: INCIDENCIA_TPV.devolucion.remedio,
        detalle: `Devolución ${mas.gen.numSerie} del ticket ${vendido.gen.numSerie}, línea 1: devuelve 1 y quedaban por devolver 0,5.`,
      }),
    ]);
    expect(((await list(t, t.cookie, 'listadotickets', { id: hecha.ticket_id as number })).rows[0] as Row).estado).toBe('devuelto');
    // The ticket's row in the back office's list says so; the caja's figures (the Z) too.
    const fila = (await list(t, t.cookie, 'listadotickets', { porPagina: 100 })).rows.find((x) => x.id === hecha.ticket_id) as unknown as { incidencias: { tipo: string }[] };
    expect(fila.incidencias).toEqual([expect.objectContaining({ tipo: 'devolucion', etiqueta: INCIDENCIA_TPV.devolucion.etiqueta })]);
    expect((await caja()).incidencias!.map((x) => x.tipo)).toContain('devolucion');
    const checks = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { emisor: string; correcto: boolean }[];
    expect(checks.every((c) => c.correcto)).toBe(true);
  });
  it('issue 23: what a till issued offline the books keep — a forged 0,01 € ticket, one over the limit, a clock gone back are stored as issued and flagged for the manager', async () => {
    const db = t.app.manager.db;
    if (!(await db.selectFrom('tpv_cajas').select('id').where('terminal_id', '=', terminal.id as number).where('cierre_id', 'is', null).executeTakeFirst())) {
      await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    }
    // The cashier (role Caja: no «cambiar precio», 0 % discount) uploads what her till made offline.
    const cajera = await t.login('cajera@tpv.es', 'Clave-tpv-2026');
    const i = await info();
    expect(i.limite_simplificada).toBe(40_000);
    // A self-computed, correctly chained record of 1 × «Pan» (PVP 1,21 €) at 0,01 €.
    const forjado = await offline(i, cabeza(i), i.ultimo.numero + 1, [{ articulo_id: a.id, cantidad: 1_000, precio: 100 }]);
    // 100 × B at 2,20 €: 220,00 € … and 2 × 110 = 440,00 €, over the 400 € of a simplified invoice.
    const grande = await offline(i, forjado.siguiente, i.ultimo.numero + 2, [{ articulo_id: b.id, cantidad: 200_000, precio: 22_000 }]);
    // The till's clock went back 30 s after the previous record.
    const atras = await offline(i, grande.siguiente, i.ultimo.numero + 3, [{ articulo_id: a.id, cantidad: 1_000, precio: 12_100 }], undefined, new Date(Date.parse(grande.tk.registro.fecha_hora_huso) - 30_000));
    const r = await subir({ terminal_id: terminal.id, tickets: [forjado.tk, grande.tk, atras.tk] }, cajera);
    expect(r.body.RESULT).toBe('0');
    const filas = r.body.data as TicketSubido[];
    // Stored exactly as issued: the printed number, amount and huella.
    expect(filas.map((f) => [f.numero, f.total, f.huella])).toEqual([
      [forjado.gen.numSerie, 1, forjado.gen.huella],
      [grande.gen.numSerie, 44_000, grande.gen.huella],
      [atras.gen.numSerie, 121, atras.gen.huella],
    ]);
    // The manager sees each with what to do.
    const lista = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id as number, pendientes: 1 })).rows as unknown as IncidenciaTpv[];
    const de = (id: number) => lista.filter((x) => x.documento_id === id).map((x) => ({ tipo: x.tipo, detalle: x.detalle, remedio: x.remedio, numero: x.numero }));
    expect(de(filas[0].id)).toEqual([
      {
        tipo: 'precio', numero: forjado.gen.numSerie, remedio: INCIDENCIA_TPV.precio.remedio,
        detalle: `Ticket ${forjado.gen.numSerie}, línea 1 (TPV-A): cobrado a 0,01 € y su PVP es 1,21 €; Cajera no puede cambiar precios.`,
      },
    ]);
    expect(de(filas[1].id)).toEqual([
      { tipo: 'limite', numero: grande.gen.numSerie, remedio: INCIDENCIA_TPV.limite.remedio, detalle: `Ticket ${grande.gen.numSerie}: 440,00 €, más que el límite de la factura simplificada (400,00 €).` },
    ]);
    expect(de(filas[2].id)).toEqual([
      {
        tipo: 'reloj', numero: atras.gen.numSerie, remedio: INCIDENCIA_TPV.reloj.remedio,
        detalle: `Registro ${atras.gen.numSerie}: su hora (${atras.tk.registro.fecha_hora_huso}) es anterior a la del registro anterior de la cadena (${grande.tk.registro.fecha_hora_huso}).`,
      },
    ]);
    // In the back office's tickets list, in the open caja's figures (its Z), in the audit trail.
    const filasLista = (await list(t, t.cookie, 'listadotickets', { porPagina: 100 })).rows as unknown as { id: number; incidencias: { tipo: string }[] }[];
    expect(filasLista.find((x) => x.id === filas[0].id)!.incidencias).toEqual([expect.objectContaining({ tipo: 'precio', etiqueta: INCIDENCIA_TPV.precio.etiqueta })]);
    expect(filasLista.find((x) => x.id === filas[1].id)!.incidencias.map((x) => x.tipo)).toEqual(['limite']);
    const z = (await list(t, t.cookie, 'cajatpv', { terminal_id: terminal.id as number })).rows[0] as unknown as CierreTpv;
    expect(z.incidencias!.map((x) => x.tipo)).toEqual(expect.arrayContaining(['precio', 'limite', 'reloj']));
    const auditoria = await db.selectFrom('actividad').select(['accion', 'usuario_nombre', 'numero', 'despues']).where('entidad', '=', 'incidenciatpv').orderBy('id', 'desc').limit(3).execute();
    expect(auditoria.map((x) => [x.accion, x.usuario_nombre, x.numero])).toEqual([
      ['subirtickets', 'Cajera', INCIDENCIA_TPV.reloj.etiqueta],
      ['subirtickets', 'Cajera', INCIDENCIA_TPV.limite.etiqueta],
      ['subirtickets', 'Cajera', INCIDENCIA_TPV.precio.etiqueta],
    ]);
    expect(JSON.parse(auditoria[2].despues!)).toMatchObject({ tipo: 'precio', documento_id: filas[0].id });
    // The upload's own line is still there (one for the action, one per incidence).
    const propias = await db.selectFrom('actividad').select('id').where('accion', '=', 'subirtickets').where((eb) => eb.or([eb('entidad', 'is', null), eb('entidad', '<>', 'incidenciatpv')])).execute();
    expect(propias.length).toBeGreaterThan(0);
    // Online, the same 0,01 € ticket is refused before anything is issued; the chain is sound.
    const enLinea = await subir({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 100 }], pagos: [{ forma: 'efectivo', importe: 1 }] })] }, cajera);
    expect(enLinea.status).toBe(403);
    const sobre = await subir({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: b.id, cantidad: 200_000, precio: 22_000 }], pagos: [{ forma: 'efectivo', importe: 44_000 }] })] });
    expect(sobre.body.message).toMatch(/no puede superar 400,00 €/);
    const checks = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { correcto: boolean }[];
    expect(checks.every((c) => c.correcto)).toBe(true);
    // Resolved by the manager: kept, no longer pending.
    const id = lista.find((x) => x.documento_id === filas[0].id)!.id;
    await save(t, t.cookie, 'resolverincidenciatpv', { id });
    const pendientes = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id as number, pendientes: 1 })).rows as unknown as IncidenciaTpv[];
    expect(pendientes.some((x) => x.id === id)).toBe(false);
    expect((await db.selectFrom('tpv_incidencias').select('resuelta').where('id', '=', id).executeTakeFirstOrThrow()).resuelta).toBe(1);

    // The server's clock behind the chain's last record (the till's, stamped ahead): an online ticket is stamped with
    // the true time — never frozen at the previous one's — and flagged.
    const ultimo = (await info()).cadena!;
    reloj.ahora = () => Date.parse(ultimo.fecha_hora_huso) - 2 * 3600_000;
    try {
      const [online] = await subidos({ terminal_id: terminal.id, tickets: [ticket({ lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 121 }] })] });
      expect(Date.parse(online.fecha_hora_huso)).toBe(Math.floor(reloj.ahora() / 1000) * 1000);
      const [flag] = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id as number })).rows as unknown as IncidenciaTpv[];
      expect(flag).toMatchObject({ tipo: 'reloj', documento_id: online.id, detalle: `Registro ${online.numero}: su hora (${online.fecha_hora_huso}) es anterior a la del registro anterior de la cadena (${ultimo.fecha_hora_huso}).` });
    } finally {
      reloj.ahora = () => Date.now();
    }

    // The back office closed the caja while the till sold offline: the ticket arrives with no caja open. Stored as
    // issued (outside any caja), flagged; an online ticket still needs the caja open.
    const abierta = await db.selectFrom('tpv_cajas').select('id').where('terminal_id', '=', terminal.id as number).where('cierre_id', 'is', null).executeTakeFirstOrThrow();
    await save(t, t.cookie, 'editarcierretpv', { terminal_id: terminal.id, caja_id: abierta.id, contado: [{ forma: 'efectivo', importe: 0 }] });
    const i2 = await info();
    const tarde = await offline(i2, cabeza(i2), i2.ultimo.numero + 1, [{ articulo_id: a.id, cantidad: 1_000, precio: 12_100 }]);
    const [guardado] = await subidos({ terminal_id: terminal.id, tickets: [tarde.tk] });
    expect(guardado).toMatchObject({ numero: tarde.gen.numSerie, huella: tarde.gen.huella, offline: 1 });
    expect((await db.selectFrom('tpv_tickets').select('caja_id').where('documento_id', '=', guardado.id).executeTakeFirstOrThrow()).caja_id).toBeNull();
    const [sinCaja] = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id as number })).rows as unknown as IncidenciaTpv[];
    expect(sinCaja).toMatchObject({
      tipo: 'caja', documento_id: guardado.id, caja_id: null, remedio: INCIDENCIA_TPV.caja.remedio,
      detalle: `Ticket ${tarde.gen.numSerie} (1,21 €): cuando llegó, la caja del terminal ya estaba cerrada en el servidor.`,
    });
    expect((await subir({ terminal_id: terminal.id, tickets: [ticket()] })).body.message).toBe(MESSAGES_TPV.cajaNoAbierta);
  });

  it('issue 22: the demo company\'s till is told demo; its records are stored demo whatever the till says; reads keep what each record was made for', async () => {
    const db = t.app.manager.db;
    const setDemo = (demo: number) => db.updateTable('verifactu').set({ demo }).where('id', '=', 1).execute();
    await enviar(t, 'abrircajatpv', { terminal_id: terminal.id });
    const host = (url: string) => new URL(url).host;
    let online: TicketSubido;
    let offlineDemo: TicketSubido;
    await setDemo(1);
    try {
      expect(await info()).toMatchObject({ entorno: 'pruebas', demo: 1, verifactu: 0 });
      [online] = await subidos({ terminal_id: terminal.id, tickets: [ticket()] });
      expect(online.emision).toEqual({ entorno: 'pruebas', demo: 1, verifactu: 0 });
      expect(host(online.qr_url)).toBe('prewww2.aeat.es');
      // Offline, the till says «Producción» (what an older answer told it): a demo company never stores a production record;
      // the answer says what was stored, and the till reprints from it.
      const i = await info();
      const o = await offline(i, cabeza(i), i.ultimo.numero + 1, undefined, (r) => Object.assign(r, { entorno: 'produccion', demo: 0, verifactu: 1 }));
      [offlineDemo] = await subidos({ terminal_id: terminal.id, tickets: [o.tk] });
      expect(offlineDemo.emision).toEqual({ entorno: 'pruebas', demo: 1, verifactu: 0 });
      expect(host(offlineDemo.qr_url)).toBe('prewww2.aeat.es');
      const fila = await db.selectFrom('registros_facturacion').select(['entorno', 'demo', 'verifactu']).where('documento_id', '=', offlineDemo.id).executeTakeFirstOrThrow();
      expect(fila).toEqual({ entorno: 'pruebas', demo: 1, verifactu: 0 });
    } finally {
      await setDemo(0);
    }
    // Live again: the demo's tickets still read (and reprint) as demo, with the test host.
    for (const x of [online!, offlineDemo!]) {
      const leido = (await list(t, t.cookie, 'listadotickets', { id: x.id })).rows[0] as Row & { registro: { qr_url: string } };
      expect(leido.registro).toMatchObject({ entorno: 'pruebas', demo: 1, verifactu: 0, qr_url: x.qr_url });
    }
    // A live till that made a ticket offline while sending was on (its terminal said verifactu 1): it agrees on the
    // environment, so its «verificable» paper stands in the record.
    const i = await info();
    expect(i).toMatchObject({ entorno: 'produccion', demo: 0, verifactu: 0 });
    const o = await offline(i, cabeza(i), i.ultimo.numero + 1, undefined, (r) => Object.assign(r, { entorno: 'produccion', demo: 0, verifactu: 1 }));
    const [vivo] = await subidos({ terminal_id: terminal.id, tickets: [o.tk] });
    expect(vivo.emision).toEqual({ entorno: 'produccion', demo: 0, verifactu: 1 });
    expect(host(vivo.qr_url)).toBe('www2.agenciatributaria.gob.es');
    // Sent again: the same answer.
    expect((await subidos({ terminal_id: terminal.id, tickets: [o.tk] }))[0].emision).toEqual(vivo.emision);
    const checks = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { emisor: string; correcto: boolean }[];
    expect(checks.every((c) => c.correcto)).toBe(true);
  });

  it('issue 23: a blind-count terminal — cajatpv says nothing of what the drawer should hold until the closing is saved; the closing then has it', async () => {
    const t9 = (await save(t, t.cookie, 'editarserie', { codigo: 'T9', descripcion: 'Tickets caja ciega', tipo: 'simplificada', activo: 1 })).id;
    const r9 = (await save(t, t.cookie, 'editarserie', { codigo: 'R9', descripcion: 'Devoluciones caja ciega', tipo: 'rectificativa', activo: 1 })).id;
    const cuerpo = { nombre: 'Caja ciega', almacen_id: principal, serie_id: t9, serie_rectificativa_id: r9, formas_pago: ['efectivo', 'tarjeta'], fondo: 5_000 };
    const nueva = await save(t, t.cookie, 'editarterminal', cuerpo);
    expect(nueva.arqueo_ciego).toBe(0);
    const ciega = await save(t, t.cookie, 'editarterminal', { ...cuerpo, id: nueva.id, arqueo_ciego: 1 });
    expect(ciega.arqueo_ciego).toBe(1);
    // An update that does not name it leaves it as it was.
    await save(t, t.cookie, 'editarterminal', { ...cuerpo, id: nueva.id, nombre: 'Caja ciega 1' });
    expect((await list(t, t.cookie, 'listadoterminales', { id: nueva.id })).rows[0]).toMatchObject({ nombre: 'Caja ciega 1', arqueo_ciego: 1 });
    expect((await enviar(t, 'editarterminal', { ...cuerpo, id: nueva.id, arqueo_ciego: 7 })).status).toBe(400);

    await save(t, t.cookie, 'abrircajatpv', { terminal_id: nueva.id, fondo: 5_000 });
    await save(t, t.cookie, 'movimientocajatpv', { terminal_id: nueva.id, importe: 1_000, motivo: 'Cambio del banco' });
    const abierta = (await list(t, t.cookie, 'cajatpv', { terminal_id: nueva.id as number })).rows[0];
    expect(abierta).toMatchObject({ ciego: 1, terminal_id: nueva.id, fondo: 5_000, tickets: 0, devoluciones: 0 });
    for (const k of ['efectivo', 'total', 'diferencia', 'impuestos', 'movimientos']) expect(abierta).not.toHaveProperty(k);
    expect(JSON.stringify(abierta)).not.toContain('esperado');

    const z = (await save(t, t.cookie, 'editarcierretpv', { terminal_id: nueva.id, contado: [{ forma: 'efectivo', importe: 5_900 }] })) as unknown as CierreTpv;
    expect(z.efectivo).toMatchObject({ fondo: 5_000, entradas: 1_000, esperado: 6_000, contado: 5_900, diferencia: -100 });
    expect(z.diferencia).toBe(-100);
    // The same terminal without blind count: the open caja's figures again.
    await save(t, t.cookie, 'editarterminal', { ...cuerpo, id: nueva.id, arqueo_ciego: 0 });
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: nueva.id, fondo: 5_000 });
    expect((await list(t, t.cookie, 'cajatpv', { terminal_id: nueva.id as number })).rows[0]).toMatchObject({ efectivo: { esperado: 5_000 } });
  });
});
