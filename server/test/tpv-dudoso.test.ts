import { describe, expect, it } from 'vitest';
import { INCIDENCIA_TPV, MESSAGES, totalesTicket } from 'shared/domain';
import type { IncidenciaTpv, RegistroTpv, Terminal, TerminalTpv, TicketSubido } from 'shared/domain';
import { fechaHoraHuso, registroTicket, registroTpvDe } from 'shared/fiscal';
import type { Anterior } from 'shared/fiscal';
import { backends, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

/**
 * docs/tpv.md «The doubtful ticket» (issue 23, «What was printed is never rewritten»): a sale sent online whose answer
 * is lost, then two tickets printed offline behind it. The till makes every ticket's record itself, online too
 * (`en_linea`), so the server stores exactly the record the till holds: on upload the later tickets arrive with the
 * huellas and numbers they printed and the terminal's chain verifies. A till's record of a ticket the server had
 * registered by itself (an older till) is never stored over it nor followed by re-chained records: an incidence.
 */
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-d0${String(++seq).padStart(10, '0')}`;

describe.each(backends())('TPV: the doubtful ticket ($name)', (backend) => {
  const t = useTestApp(backend);
  let terminal: Terminal;
  let tpvCookie: string;
  let pan: Row;
  let año: number;

  const info = async () => (await t.op('terminaltpv', { cookie: tpvCookie })).json().data[0] as TerminalTpv;
  const subir = (tickets: unknown[]) => t.op('subirtickets', { cookie: t.cookie, body: { terminal_id: terminal.id, tickets } }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const cabeza = (i: TerminalTpv): Anterior | null => (i.cadena ? { id_emisor: i.emisor.nif, ...i.cadena } : null);
  const comprobar = async () => (await list(t, t.cookie, 'comprobarregistrosfacturacion')).rows as unknown as { emisor: string; correcto: boolean; total: number }[];

  /** A ticket of `n` × «Pan» (1,21 € with IVA) with the record the till makes of it: number `numero`, after `anterior`. */
  function conRegistro(i: TerminalTpv, anterior: Anterior | null, numero: number, n = 1, cuando = new Date()) {
    const lineas = [{ articulo_id: pan.id as number, cantidad: n * 1000, precio: 12_100, descuento: 0 }];
    const totales = totalesTicket(lineas.map((l) => ({ ...l, tipo_iva: '21' as const })));
    const ts = fechaHoraHuso(cuando, i.zona_horaria);
    const gen = registroTicket({
      emisor: i.emisor, instalacion: i.numero_instalacion, sistema: i.sistema, serieCodigo: i.serie.codigo, ejercicio: año, numero, fecha: ts.slice(0, 10), totales, anterior, ts,
    });
    const registro: RegistroTpv = registroTpvDe(gen);
    const tk = { uuid: uuid(), fecha_hora: cuando.toISOString(), lineas, pagos: [{ forma: 'efectivo', importe: totales.total }], registro };
    const siguiente: Anterior = { id_emisor: i.emisor.nif, num_serie: gen.numSerie, fecha_expedicion: gen.campos.FechaExpedicionFactura, huella: gen.huella, fecha_hora_huso: ts };
    return { tk, gen, siguiente };
  }

  it('setup: a terminal paired, its caja open, an article', async () => {
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    pan = await save(t, t.cookie, 'editararticulo', nuevoArticulo('DUD-PAN', { precio_venta: 10_000, nombre_tpv: 'Pan' }));
    terminal = (await save(t, t.cookie, 'editarterminal', {
      nombre: 'Mostrador D', almacen_id: principal, serie_id: series.find((s) => s.codigo === 'T')!.id, serie_rectificativa_id: series.find((s) => s.codigo === 'TR')!.id,
      formas_pago: ['efectivo', 'tarjeta'],
    })) as unknown as Terminal;
    const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
    const par = await t.op('emparejarterminal', { body: { codigo } });
    tpvCookie = `mtpv_terminal=${par.cookies.find((x) => x.name === 'mtpv_terminal')!.value}`;
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    año = Number(fechaHoraHuso(new Date(), (await info()).zona_horaria).slice(0, 4));
  });

  it('online with the till\'s record, answer lost, two tickets printed offline behind it: all three stored with the huellas and numbers printed, the chain intact', async () => {
    const i = await info();
    const n0 = i.ultimo.numero;
    // A: the till made its record and sent it online (en_linea); the server stored it; the answer never arrived.
    const a = conRegistro(i, cabeza(i), n0 + 1);
    const primera = await subir([{ ...a.tk, en_linea: 1 }]);
    expect(primera.body.RESULT, JSON.stringify(primera.body)).toBe('0');
    // B and C printed offline, chained after A's record as the till holds it.
    const b = conRegistro(i, a.siguiente, n0 + 2, 2);
    const c = conRegistro(i, b.siguiente, n0 + 3, 3);
    // The upload after the outage: A again (its record, printed now), then B and C.
    const r = await subir([a.tk, b.tk, c.tk]);
    expect(r.body.RESULT, JSON.stringify(r.body)).toBe('0');
    const filas = r.body.data as TicketSubido[];
    expect(filas.map((f) => [f.uuid, f.numero, f.huella, f.xml, f.repetido])).toEqual([
      [a.tk.uuid, `T ${año}/${String(n0 + 1).padStart(6, '0')}`, a.gen.huella, a.gen.xml, 1],
      [b.tk.uuid, `T ${año}/${String(n0 + 2).padStart(6, '0')}`, b.gen.huella, b.gen.xml, 0],
      [c.tk.uuid, `T ${año}/${String(n0 + 3).padStart(6, '0')}`, c.gen.huella, c.gen.xml, 0],
    ]);
    // Stored: one record each, exactly as printed, chained A → B → C.
    const db = t.app.manager.db;
    const registros = await db.selectFrom('registros_facturacion').select(['documento_id', 'num_serie', 'huella', 'huella_anterior']).where('documento_id', 'in', filas.map((f) => f.id)).orderBy('id').execute();
    expect(registros.map((x) => [x.num_serie, x.huella, x.huella_anterior])).toEqual([
      [a.gen.numSerie, a.gen.huella, a.tk.registro.huella_anterior],
      [b.gen.numSerie, b.gen.huella, a.gen.huella],
      [c.gen.numSerie, c.gen.huella, b.gen.huella],
    ]);
    // The online one counts as sold online; the two printed offline, as offline.
    expect(filas.map((f) => f.offline)).toEqual([0, 1, 1]);
    expect((await info()).cadena?.huella).toBe(c.gen.huella);
    const checks = await comprobar();
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.every((x) => x.correcto)).toBe(true);
    // Nothing flagged: an honest till.
    const incid = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id, pendientes: 1 })).rows;
    expect(incid).toEqual([]);
  });

  it('en_linea: nothing printed yet, so a broken rule refuses the ticket and keeps nothing aside; printed (offline), the same ticket is stored and flagged', async () => {
    const i = await info();
    // 400 × Pan = 484,00 €, over the simplified invoice's limit.
    const grande = conRegistro(i, cabeza(i), i.ultimo.numero + 1, 400);
    const r = await subir([{ ...grande.tk, en_linea: 1 }]);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(MESSAGES.simplificadaSuperaLimite);
    const db = t.app.manager.db;
    expect(await db.selectFrom('tpv_tickets').select('documento_id').where('uuid', '=', grande.tk.uuid).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('tpv_incidencias').select('id').where('uuid', '=', grande.tk.uuid).executeTakeFirst()).toBeUndefined();
    expect((await info()).ultimo.numero).toBe(i.ultimo.numero);
    // The same record uploaded as printed (its answer lost, then sent from the queue): stored as issued, flagged.
    const otra = await subir([grande.tk]);
    expect(otra.body.RESULT, JSON.stringify(otra.body)).toBe('0');
    expect((otra.body.data as TicketSubido[])[0]).toMatchObject({ huella: grande.gen.huella, offline: 1 });
    const incid = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id, pendientes: 1 })).rows as unknown as IncidenciaTpv[];
    expect(incid.map((x) => x.tipo)).toEqual(['limite']);
  });

  it('en_linea and the cashier\'s rights: a price changed by a Caja user is refused (403) before anything is stored; the same record, printed, is stored and flagged', async () => {
    const rol = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows.find((r) => r.clave === 'caja')!;
    await save(t, t.cookie, 'editarusuario', { nombre: 'Dora Cajera', email: 'dora@tpv.es', password: 'Clave-tpv-2026', rol_id: rol.id });
    const cajera = await t.login('dora@tpv.es', 'Clave-tpv-2026');
    const i = await info();
    // 1 × Pan at 1,00 € instead of its PVP 1,21 €.
    const base = conRegistro(i, cabeza(i), i.ultimo.numero + 1);
    const lineas = [{ ...base.tk.lineas[0], precio: 10_000 }];
    const totales = totalesTicket(lineas.map((l) => ({ ...l, tipo_iva: '21' as const })));
    const ts = base.tk.registro.fecha_hora_huso;
    const gen = registroTicket({
      emisor: i.emisor, instalacion: i.numero_instalacion, sistema: i.sistema, serieCodigo: i.serie.codigo, ejercicio: año, numero: i.ultimo.numero + 1, fecha: ts.slice(0, 10), totales,
      anterior: cabeza(i), ts,
    });
    const tk = { ...base.tk, lineas, pagos: [{ forma: 'efectivo', importe: totales.total }], registro: registroTpvDe(gen) };
    const online = await t.op('subirtickets', { cookie: cajera, body: { terminal_id: terminal.id, tickets: [{ ...tk, en_linea: 1 }] } });
    expect(online.statusCode).toBe(403);
    const db = t.app.manager.db;
    expect(await db.selectFrom('tpv_tickets').select('documento_id').where('uuid', '=', tk.uuid).executeTakeFirst()).toBeUndefined();
    // Its answer lost after the till printed it: uploaded as printed, stored as issued and flagged for the manager.
    const impreso = await t.op('subirtickets', { cookie: cajera, body: { terminal_id: terminal.id, tickets: [tk] } });
    expect(impreso.json().RESULT, impreso.body).toBe('0');
    expect(impreso.json().data[0]).toMatchObject({ huella: gen.huella, offline: 1 });
    const incid = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id, pendientes: 1 })).rows as unknown as IncidenciaTpv[];
    expect(incid.filter((x) => x.uuid === tk.uuid).map((x) => x.tipo)).toEqual(['precio']);
  });

  it('an older till\'s doubtful record of a ticket the server registered by itself: the ticket stays once with the server\'s record; the till\'s is kept in an incidence, and what it chained after is refused and kept aside, never re-chained', async () => {
    const i = await info();
    const db = t.app.manager.db;
    // Sold online without a record (the old way): the server made the record; the answer was lost.
    const sinRegistro = { uuid: uuid(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: pan.id, cantidad: 1000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 121 }] };
    const online = await subir([sinRegistro]);
    expect(online.body.RESULT).toBe('0');
    const delServidor = (online.body.data as TicketSubido[])[0];
    // The old till then made its own record of it (same number, its own instant) and printed B after it.
    const propio = conRegistro(i, cabeza(i), i.ultimo.numero + 1, 1, new Date(Date.now() + 1500));
    const a = { ...propio.tk, uuid: sinRegistro.uuid };
    const b = conRegistro(i, propio.siguiente, i.ultimo.numero + 2, 2, new Date(Date.now() + 3000));
    expect(propio.gen.huella).not.toBe(delServidor.huella);
    const antes = await db.selectFrom('registros_facturacion').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    // A: answered with the server's row (one invoice), the till's record not stored, an incidence.
    const r = await subir([a]);
    expect(r.body.RESULT).toBe('0');
    expect((r.body.data as TicketSubido[])[0]).toMatchObject({ id: delServidor.id, numero: delServidor.numero, huella: delServidor.huella, repetido: 1 });
    // Sent again: still one incidence.
    await subir([a]);
    const incid = (await list(t, t.cookie, 'listadoincidenciastpv', { terminal_id: terminal.id, pendientes: 1 })).rows as unknown as IncidenciaTpv[];
    const dup = incid.filter((x) => x.uuid === a.uuid);
    expect(dup).toHaveLength(1);
    expect(dup[0]).toMatchObject({ tipo: 'registro', documento_id: delServidor.id, remedio: INCIDENCIA_TPV.registro.remedio });
    expect(dup[0].detalle).toContain(`Ticket ${delServidor.numero}: la caja hizo su propio registro`);
    // B, chained to the till's record: refused (it does not follow the server's chain) and kept aside as printed.
    const rb = await subir([b.tk]);
    expect(rb.status).toBe(400);
    const apartado = await db.selectFrom('tpv_incidencias').select(['tipo', 'datos']).where('uuid', '=', b.tk.uuid).executeTakeFirstOrThrow();
    expect(apartado.tipo).toBe('registro');
    expect(JSON.parse(apartado.datos!).registro.huella).toBe(b.gen.huella);
    // Nothing re-chained or renumbered: the books hold the server's record alone, and every chain verifies.
    const despues = await db.selectFrom('registros_facturacion').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(despues.n)).toBe(Number(antes.n));
    expect((await comprobar()).every((x) => x.correcto)).toBe(true);
  });
});
