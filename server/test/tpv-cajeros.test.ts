import { describe, expect, it } from 'vitest';
import { MESSAGES_TPV, totalesTicket } from 'shared/domain';
import { fechaHoraHuso, registroTicket, registroTpvDe } from 'shared/fiscal';
import type { CierreTpv, LineaActividad, Terminal, TerminalTpv, Usuario } from 'shared/domain';
import { backends, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar } from './documentos-fixtures.ts';

/**
 * Issue 23, «who sells»: a till PIN is set and removed where users are managed (audited, never the PIN), a cashier
 * changes their own at the till knowing the current one (and only their own), a terminal's idle lock and printer are
 * its settings, and the caja's figures and its closing's Z name every cashier who sold in it.
 */
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-c0${String(++seq).padStart(10, '0')}`;

describe.each(backends())('TPV: who sells ($name)', (backend) => {
  const t = useTestApp(backend);
  let terminal: Terminal;
  let tpvCookie: string;
  let articulo: Row;
  let cajeraId: number;
  let adminId: number;

  const info = async () => (await t.op('terminaltpv', { cookie: tpvCookie })).json().data[0] as TerminalTpv;
  /** A PIN session at the paired till: its cookie (with the terminal's). */
  const conPin = async (usuario_id: number, pin: string) => {
    const r = await t.op('identificartpv', { cookie: tpvCookie, body: { usuario_id, pin } });
    expect(r.json().RESULT, r.body).toBe('0');
    return `mtpv_sesion=${r.cookies.find((x) => x.name === 'mtpv_sesion')!.value}; ${tpvCookie}`;
  };
  const usuario = async (id: number) => (await list(t, t.cookie, 'listadousuarios', { id })).rows[0] as unknown as Usuario;
  const lineasPin = async () =>
    ((await list(t, t.cookie, 'listadoactividad', { porPagina: 100, accion: 'editarpintpv' })).rows as unknown as LineaActividad[]).filter((l) => l.accion === 'editarpintpv');

  it('setup: a terminal (5 minutes\' lock and the browser\'s print by default), paired; a Caja user', async () => {
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    articulo = await save(t, t.cookie, 'editararticulo', nuevoArticulo('CAJ-A', { precio_venta: 10_000, nombre_tpv: 'Pan' }));
    terminal = (await save(t, t.cookie, 'editarterminal', {
      nombre: 'Mostrador 2', almacen_id: principal, serie_id: series.find((s) => s.codigo === 'T')!.id, serie_rectificativa_id: series.find((s) => s.codigo === 'TR')!.id,
      formas_pago: ['efectivo', 'tarjeta'],
    })) as unknown as Terminal;
    expect(terminal).toMatchObject({ bloqueo_minutos: 5, impresora: 'navegador' });
    const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
    const par = await t.op('emparejarterminal', { body: { codigo } });
    tpvCookie = `mtpv_terminal=${par.cookies.find((x) => x.name === 'mtpv_terminal')!.value}`;
    const caja = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows.find((r) => r.clave === 'caja')!;
    cajeraId = (await save(t, t.cookie, 'editarusuario', { nombre: 'Marta Cajera', email: 'marta@tpv.es', password: 'Clave-tpv-2026', rol_id: caja.id })).id as number;
    adminId = (await list(t, t.cookie, 'listadousuarios', { q: 'admin@demo.es' })).rows[0].id as number;
  });

  it('a terminal\'s idle lock (minutes, 0 = never) and printer are saved, read by the till, and checked', async () => {
    const base = { id: terminal.id, nombre: terminal.nombre, almacen_id: terminal.almacen_id, serie_id: terminal.serie_id, serie_rectificativa_id: terminal.serie_rectificativa_id, formas_pago: terminal.formas_pago };
    const malo = await enviar(t, 'editarterminal', { ...base, bloqueo_minutos: -1, impresora: 'bluetooth' });
    expect(malo.status).toBe(400);
    expect(Object.keys(malo.body.errors ?? {}).sort()).toEqual(['bloqueo_minutos', 'impresora']);
    expect((await info()).bloqueo_minutos).toBe(5);
    expect(await save(t, t.cookie, 'editarterminal', { ...base, bloqueo_minutos: 0, impresora: 'usb' })).toMatchObject({ bloqueo_minutos: 0, impresora: 'usb' });
    expect(await info()).toMatchObject({ bloqueo_minutos: 0, impresora: 'usb' });
    // Absent on an update: unchanged.
    expect(await save(t, t.cookie, 'editarterminal', { ...base, nombre: 'Mostrador 2' })).toMatchObject({ bloqueo_minutos: 0, impresora: 'usb' });
    expect(await save(t, t.cookie, 'editarterminal', { ...base, bloqueo_minutos: 2, impresora: 'serie' })).toMatchObject({ bloqueo_minutos: 2, impresora: 'serie' });
  });

  it('users\' screen: a manager sets and removes another user\'s PIN; the list says who has one; each change is audited without the PIN', async () => {
    expect((await usuario(cajeraId)).con_pin).toBe(0);
    const corto = await enviar(t, 'editarpintpv', { usuario_id: cajeraId, pin: '12a4' });
    expect(corto.body.errors).toEqual({ pin: MESSAGES_TPV.pinNoValido });
    expect((await usuario(cajeraId)).con_pin).toBe(0);
    await save(t, t.cookie, 'editarpintpv', { usuario_id: cajeraId, pin: '2468' });
    expect((await usuario(cajeraId)).con_pin).toBe(1);
    expect((await info()).cajeros.find((c) => c.id === cajeraId)).toMatchObject({ con_pin: 1 });
    await save(t, t.cookie, 'editarpintpv', { usuario_id: cajeraId, quitar: 1 });
    expect((await usuario(cajeraId)).con_pin).toBe(0);
    expect((await t.op('identificartpv', { cookie: tpvCookie, body: { usuario_id: cajeraId, pin: '2468' } })).json().message).toBe(MESSAGES_TPV.pinIncorrecto);
    await save(t, t.cookie, 'editarpintpv', { usuario_id: cajeraId, pin: '1357' });
    const lineas = await lineasPin();
    expect(lineas.map((l) => [l.tipo, l.entidad, l.entidad_id, l.numero, l.despues])).toEqual([
      ['pin', 'usuario', cajeraId, 'marta@tpv.es', { usuario: 'Marta Cajera', pin: '(cambiado)' }],
      ['pin', 'usuario', cajeraId, 'marta@tpv.es', { usuario: 'Marta Cajera', pin: '(quitado)' }],
      ['pin', 'usuario', cajeraId, 'marta@tpv.es', { usuario: 'Marta Cajera', pin: '(cambiado)' }],
    ]);
    // Never the PIN nor its hash in the trail.
    expect(JSON.stringify(lineas)).not.toMatch(/1357|2468|pin_hash|\$/);
    // A user without the right to manage users sets no one else's PIN.
    const cajera = await t.login('marta@tpv.es', 'Clave-tpv-2026');
    expect((await t.op('editarpintpv', { cookie: cajera, body: { usuario_id: adminId, pin: '9999' } })).statusCode).toBe(403);
  });

  it('at the till: a cashier changes their own PIN knowing the current one, and nobody else\'s', async () => {
    const pin = await conPin(cajeraId, '1357');
    const sinActual = await t.op('editarpintpv', { cookie: pin, body: { pin: '8642' } });
    expect(sinActual.json().errors).toEqual({ pin_actual: MESSAGES_TPV.pinActualIncorrecto });
    const mal = await t.op('editarpintpv', { cookie: pin, body: { pin: '8642', pin_actual: '0000' } });
    expect(mal.json().errors).toEqual({ pin_actual: MESSAGES_TPV.pinActualIncorrecto });
    expect((await t.op('identificartpv', { cookie: tpvCookie, body: { usuario_id: cajeraId, pin: '8642' } })).json().message).toBe(MESSAGES_TPV.pinIncorrecto);
    expect((await t.op('editarpintpv', { cookie: pin, body: { pin: '8642', pin_actual: '1357' } })).json()).toMatchObject({ RESULT: '0', data: [{ usuario_id: cajeraId, con_pin: 1 }] });
    await conPin(cajeraId, '8642');
    // An Administrador's PIN session at the till changes no other user's PIN (the back office does, with the password).
    await save(t, t.cookie, 'editarpintpv', { pin: '4321' });
    const admin = await conPin(adminId, '4321');
    const otro = await t.op('editarpintpv', { cookie: admin, body: { usuario_id: cajeraId, pin: '1111', pin_actual: '4321' } });
    expect(otro.statusCode).toBe(403);
    expect(otro.json().message).toBe(MESSAGES_TPV.pinSoloPropio);
    await conPin(cajeraId, '8642');
  });

  it('the caja and its closing\'s Z name every cashier who sold in it: a handover keeps the caja open', async () => {
    const marta = await conPin(cajeraId, '8642');
    expect((await t.op('abrircajatpv', { cookie: marta, body: { terminal_id: terminal.id, fondo: 5_000 } })).json().RESULT).toBe('0');
    const vender = async (cookie: string, unidades: number) => {
      const r = await t.op('subirtickets', {
        cookie,
        body: { terminal_id: terminal.id, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: articulo.id, cantidad: unidades * 1000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: unidades * 121 }] }] },
      });
      expect(r.json().RESULT, r.body).toBe('0');
    };
    await vender(marta, 1);
    await vender(marta, 2);
    // «Salir»: Marta's session ends; the caja stays open and the next cashier sells in it.
    expect((await t.op('cerrarsesion', { cookie: marta, body: {} })).statusCode).toBe(200);
    expect((await info()).caja_abierta).toMatchObject({ fondo: 5_000 });
    const admin = await conPin(adminId, '4321');
    await vender(admin, 3);
    const caja = (await t.op('cajatpv', { cookie: admin, query: { terminal_id: String(terminal.id) } })).json().data[0] as CierreTpv;
    expect(caja.cajeros).toEqual([
      { usuario_id: cajeraId, nombre: 'Marta Cajera', tickets: 2, devoluciones: 0, total: 363 },
      { usuario_id: adminId, nombre: 'Administrador', tickets: 1, devoluciones: 0, total: 363 },
    ]);
    const cierre = (await t.op('editarcierretpv', { cookie: admin, body: { terminal_id: terminal.id, contado: [{ forma: 'efectivo', importe: 5_000 + 726 }] } })).json().data[0] as CierreTpv;
    expect(cierre.cajeros?.map((c) => [c.nombre, c.tickets])).toEqual([['Marta Cajera', 2], ['Administrador', 1]]);
    // The back office's closing view reads the same.
    const leido = (await list(t, t.cookie, 'listadocierrestpv', { id: cierre.id! })).rows[0] as unknown as CierreTpv;
    expect(leido.cajeros?.map((c) => c.nombre)).toEqual(['Marta Cajera', 'Administrador']);
  });

  it('a ticket sold offline is counted under the cashier who sold it, even when another one\'s session uploads it', async () => {
    const admin = await conPin(adminId, '4321');
    expect((await t.op('abrircajatpv', { cookie: admin, body: { terminal_id: terminal.id, fondo: 5_000 } })).json().RESULT).toBe('0');
    const i = await info();
    const lineas = [{ articulo_id: articulo.id as number, cantidad: 1_000, precio: 12_100 }];
    const totales = totalesTicket(lineas.map((l) => ({ ...l, tipo_iva: '21' as const })));
    const ts = fechaHoraHuso(new Date(), i.zona_horaria);
    const gen = registroTicket({
      emisor: i.emisor, instalacion: i.numero_instalacion, sistema: i.sistema, serieCodigo: i.serie.codigo, ejercicio: i.ultimo.ejercicio, numero: i.ultimo.numero + 1,
      fecha: ts.slice(0, 10), totales, anterior: i.cadena ? { id_emisor: i.emisor.nif, ...i.cadena } : null, ts,
    });
    // Marta sold it offline (the till says so); the administrator took over and his session uploads it.
    const tk = { uuid: uuid(), fecha_hora: new Date().toISOString(), lineas, pagos: [{ forma: 'efectivo', importe: totales.total }], registro: registroTpvDe(gen), cajero_id: cajeraId };
    const r = await t.op('subirtickets', { cookie: admin, body: { terminal_id: terminal.id, tickets: [tk] } });
    expect(r.json()).toMatchObject({ RESULT: '0', data: [{ offline: 1 }] });
    // An online ticket is always the session's, whatever it says.
    const enLinea = { uuid: uuid(), fecha_hora: new Date().toISOString(), lineas, pagos: [{ forma: 'efectivo', importe: 121 }], cajero_id: cajeraId };
    expect((await t.op('subirtickets', { cookie: admin, body: { terminal_id: terminal.id, tickets: [enLinea] } })).json().RESULT).toBe('0');
    const caja = (await t.op('cajatpv', { cookie: admin, query: { terminal_id: String(terminal.id) } })).json().data[0] as CierreTpv;
    expect(caja.cajeros?.map((c) => [c.nombre, c.tickets])).toEqual([['Marta Cajera', 1], ['Administrador', 1]]);
  });
});
