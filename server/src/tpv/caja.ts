import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { DENOMINACIONES, FORMAS_PAGO_TPV, MESSAGES_TPV, MESSAGES, TIPOS_IVA, puede } from 'shared/domain';
import type { CajaCiegaTpv, CajeroCierre, CierreTpv, DesgloseIva, FormaCierre, FormaPagoTpv, TipoIva } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso } from '../context.ts';
import { isUniqueViolation } from '../db/consulta.ts';
import type { Database } from '../db/schema.ts';
import { paging } from '../db/consulta.ts';
import { ActionError, fail, invalidFields } from '../errors.ts';
import type { SessionUser } from '../session.ts';
import { cajaAbierta, entero, euros, formasDe, t, terminalActivo, terminalDeCookie } from './comun.ts';
import type { FastifyRequest } from 'fastify';
import { anotarIncidencia, leerIncidencias } from './incidencias.ts';

/**
 * The till's sessions (issue 13): a caja opened with its float, cash moved in and out during it, and its closing —
 * the figures computed from the session's tickets, returns and movements (expected cash = float + cash taken −
 * change given − cash refunded + cash in − cash out), the counted amounts, the difference; `codigo` sequential per
 * terminal; written once (the Z report's data), never changed.
 */

type Db = Kysely<Database> | Transaction<Database>;
type Caja = { id: number; terminal_id: number; usuario_id: number | null; apertura: string; fondo: number };

const numeroDe = (codigo: string | null, ejercicio: number, numero: number | null) => `${codigo ?? ''} ${ejercicio}/${String(numero ?? 0).padStart(6, '0')}`;

/** The session's running figures (a closing without what was counted). */
export async function cifrasCaja(db: Db, caja: Caja): Promise<CierreTpv> {
  const terminal = await db.selectFrom('tpv_terminales').select(['id', 'nombre', 'formas_pago']).where('id', '=', caja.terminal_id).executeTakeFirstOrThrow();
  const docs = await db
    .selectFrom('tpv_tickets as tt')
    .innerJoin('documentos as d', 'd.id', 'tt.documento_id')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select(['tt.documento_id', 'tt.tipo', 'tt.cambio', 'tt.usuario_id', 'd.total', 'd.desglose', 'd.ejercicio', 'd.numero', 's.codigo'])
    .where('tt.caja_id', '=', caja.id)
    // An annulled R5 refunded nothing: neither its amount nor its refund count (nor does it count as a return).
    .where('d.estado', '<>', 'anulada')
    .orderBy('tt.documento_id')
    .execute();
  const pagos = docs.length
    ? await db
        .selectFrom('tpv_pagos as p')
        .innerJoin('tpv_tickets as tt', 'tt.documento_id', 'p.documento_id')
        .innerJoin('documentos as d', 'd.id', 'p.documento_id')
        .select(['p.forma', 'p.importe', 'p.entregado', 'tt.tipo'])
        .where('tt.caja_id', '=', caja.id)
        .where('d.estado', '<>', 'anulada')
        .execute()
    : [];
  const movs = await db
    .selectFrom('tpv_movimientos as m')
    .select(['m.fecha_hora', 'm.importe', 'm.motivo', sql<string | null>`(select u.nombre from usuarios u where u.id = m.usuario_id)`.as('usuario_nombre')])
    .where('m.caja_id', '=', caja.id)
    .orderBy('m.id')
    .execute();
  const usuario = caja.usuario_id ? await db.selectFrom('usuarios').select('nombre').where('id', '=', caja.usuario_id).executeTakeFirst() : undefined;

  const formas = [...new Set<FormaPagoTpv>([...formasDe(terminal.formas_pago), ...(pagos.map((p) => p.forma) as FormaPagoTpv[])])].sort(
    (a, b) => FORMAS_PAGO_TPV.indexOf(a) - FORMAS_PAGO_TPV.indexOf(b),
  );
  const porForma = new Map<FormaPagoTpv, { ventas: number; devoluciones: number }>(formas.map((f) => [f, { ventas: 0, devoluciones: 0 }]));
  let cobrado = 0;
  let devuelto = 0;
  for (const p of pagos) {
    const f = porForma.get(p.forma as FormaPagoTpv)!;
    // A sale: a ticket, or a full invoice (F1) issued at the till for a sale over the simplified invoice's limit.
    const venta = p.tipo !== 'devolucion';
    if (venta) f.ventas += Number(p.importe);
    else f.devoluciones += -Number(p.importe);
    if (p.forma === 'efectivo') {
      if (venta) cobrado += Number(p.entregado);
      else devuelto += -Number(p.importe);
    }
  }
  const cambio = docs.filter((d) => d.tipo !== 'devolucion').reduce((s, d) => s + Number(d.cambio), 0);
  const entradas = movs.filter((m) => Number(m.importe) > 0).reduce((s, m) => s + Number(m.importe), 0);
  const salidas = movs.filter((m) => Number(m.importe) < 0).reduce((s, m) => s - Number(m.importe), 0);
  const fondo = Number(caja.fondo);
  const esperadoEfectivo = fondo + cobrado - cambio - devuelto + entradas - salidas;
  const filas: FormaCierre[] = formas.map((forma) => {
    const f = porForma.get(forma)!;
    const esperado = forma === 'efectivo' ? esperadoEfectivo : f.ventas - f.devoluciones;
    return { forma, ventas: f.ventas, devoluciones: f.devoluciones, esperado, contado: 0, diferencia: 0 };
  });
  if (!filas.some((f) => f.forma === 'efectivo')) filas.unshift({ forma: 'efectivo', ventas: 0, devoluciones: 0, esperado: esperadoEfectivo, contado: 0, diferencia: 0 });
  const impuestos = new Map<TipoIva, { base: number; iva: number }>();
  for (const d of docs) {
    for (const g of (d.desglose ? JSON.parse(d.desglose) : []) as DesgloseIva[]) {
      const x = impuestos.get(g.tipo_iva) ?? { base: 0, iva: 0 };
      x.base += g.base;
      x.iva += g.iva;
      impuestos.set(g.tipo_iva, x);
    }
  }
  const tickets = docs.filter((d) => d.tipo === 'ticket');
  return {
    // Issue 23: every cashier who sold or refunded in this caja (from each ticket's user), in the order they started.
    cajeros: await cajerosDe(db, docs),
    id: null,
    terminal_id: terminal.id,
    terminal_nombre: terminal.nombre,
    codigo: null,
    caja_id: caja.id,
    usuario_id: caja.usuario_id,
    usuario_nombre: usuario?.nombre ?? null,
    apertura: caja.apertura,
    cierre: null,
    fondo,
    tickets: tickets.length,
    devoluciones: docs.filter((d) => d.tipo === 'devolucion').length,
    total: docs.reduce((s, d) => s + Number(d.total), 0),
    formas: filas,
    efectivo: { fondo, cobrado, cambio, devuelto, entradas, salidas, esperado: esperadoEfectivo, contado: 0, diferencia: 0 },
    diferencia: 0,
    impuestos: TIPOS_IVA
      .filter((k) => impuestos.has(k))
      .map((k) => ({ tipo_iva: k, base: impuestos.get(k)!.base, iva: impuestos.get(k)!.iva, total: impuestos.get(k)!.base + impuestos.get(k)!.iva })),
    movimientos: movs.map((m) => ({ fecha_hora: m.fecha_hora, importe: Number(m.importe), motivo: m.motivo, usuario_nombre: m.usuario_nombre })),
    denominaciones: null,
    primer_numero: tickets.length ? numeroDe(tickets[0].codigo, tickets[0].ejercicio, tickets[0].numero) : null,
    ultimo_numero: tickets.length ? numeroDe(tickets.at(-1)!.codigo, tickets.at(-1)!.ejercicio, tickets.at(-1)!.numero) : null,
    // Issue 22: a caja of the demo company (frozen in the closing's data): its Z says it has no fiscal value.
    demo: await esDemo(db),
    // Issue 23: what the caja's uploads broke (stored as issued) or kept aside, with the way to put it right.
    incidencias: await leerIncidencias(db, { caja_id: caja.id }),
  };
}

/** Who sold in a caja: each ticket's and return's user, with what they did, in the order of their first ticket. */
async function cajerosDe(db: Db, docs: { tipo: string; usuario_id: number | null; total: number | string }[]): Promise<CajeroCierre[]> {
  const por = new Map<number | null, CajeroCierre>();
  for (const d of docs) {
    const c = por.get(d.usuario_id) ?? { usuario_id: d.usuario_id, nombre: '', tickets: 0, devoluciones: 0, total: 0 };
    if (d.tipo === 'ticket') c.tickets++;
    else c.devoluciones++;
    c.total += Number(d.total);
    por.set(d.usuario_id, c);
  }
  const ids = [...por.keys()].filter((k): k is number => k !== null);
  const nombres = new Map(
    ids.length ? (await db.selectFrom('usuarios').select(['id', 'nombre']).where('id', 'in', ids).execute()).map((u) => [u.id, u.nombre] as const) : [],
  );
  return [...por.values()].map((c) => ({ ...c, nombre: c.usuario_id === null ? 'Sin cajero' : (nombres.get(c.usuario_id) ?? `Usuario ${c.usuario_id}`) }));
}

/** 1 while the company is the demo (verifactu.demo). */
async function esDemo(db: Db): Promise<0 | 1> {
  const v = await db.selectFrom('verifactu').select('demo').where('id', '=', 1).executeTakeFirst();
  return Number(v?.demo ?? 0) === 1 ? 1 : 0;
}

/**
 * A stored closing as read. One stored before issue 22 (the demo's generated year) does not say whether it was the
 * demo's: it is, if the company still is (going live removes every closing of the demo).
 */
async function conDemo(db: Db, c: CierreTpv): Promise<CierreTpv> {
  if (c.demo === 0 || c.demo === 1) return c;
  return { ...c, demo: await esDemo(db) };
}

/** Issue 23: the open caja for a blind count: what it is, without the expected figures nor what they are made of. */
export function cajaCiega(c: CierreTpv): CajaCiegaTpv {
  return {
    id: c.id, terminal_id: c.terminal_id, terminal_nombre: c.terminal_nombre, codigo: c.codigo, caja_id: c.caja_id, usuario_id: c.usuario_id,
    usuario_nombre: c.usuario_nombre, apertura: c.apertura, cierre: c.cierre, fondo: c.fondo, tickets: c.tickets, devoluciones: c.devoluciones,
    ciego: 1, formas: c.formas.map((f) => ({ forma: f.forma })),
  };
}

/**
 * The till's instant of something it did offline ('2026-11-26T10:15:00+01:00') as a stored ISO instant (UTC, like
 * nowIso), or null when it is not a valid time or lies in the future (beyond a clock's few minutes of drift).
 */
export function instanteDelTpv(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v)) return null;
  const ms = Date.parse(v);
  if (!Number.isFinite(ms) || ms > Date.now() + 5 * 60_000) return null;
  return new Date(ms).toISOString();
}

const lockTerminal = async (trx: Transaction<Database>, app: AppContext, id: number) => {
  if (app.dialect === 'postgres') await sql`select id from tpv_terminales where id = ${id} for update`.execute(trx);
};

/** editarcierretpv: the open caja closed with what was counted. */
export async function cerrarCaja(app: AppContext, user: SessionUser, terminalId: number, raw: Record<string, unknown>): Promise<CierreTpv> {
  const contado = new Map<FormaPagoTpv, number>();
  const errors: Record<string, string> = {};
  if (!Array.isArray(raw.contado)) errors.contado = MESSAGES.required;
  else {
    raw.contado.forEach((item, i) => {
      const x = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
      const forma = String(x.forma ?? '');
      const importe = entero(x.importe);
      if (!(FORMAS_PAGO_TPV as readonly string[]).includes(forma)) errors[`contado.${i}.forma`] = t(MESSAGES_TPV.formaPagoNoValida, { forma });
      else if (importe === null || importe < 0) errors[`contado.${i}.importe`] = MESSAGES.required;
      else contado.set(forma as FormaPagoTpv, (contado.get(forma as FormaPagoTpv) ?? 0) + importe);
    });
  }
  let denominaciones: { valor: number; cantidad: number }[] | null = null;
  if (Array.isArray(raw.denominaciones)) {
    denominaciones = [];
    raw.denominaciones.forEach((item, i) => {
      const x = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
      const valor = entero(x.valor);
      const cantidad = entero(x.cantidad);
      if (valor === null || !(DENOMINACIONES as readonly number[]).includes(valor)) errors[`denominaciones.${i}.valor`] = t(MESSAGES_TPV.denominacionNoValida, { valor: String(x.valor) });
      else if (cantidad === null || cantidad < 0) errors[`denominaciones.${i}.cantidad`] = MESSAGES.required;
      else denominaciones!.push({ valor, cantidad });
    });
    // The cash counted is what the denominations add up to.
    if (!Object.keys(errors).some((k) => k.startsWith('denominaciones'))) contado.set('efectivo', denominaciones.reduce((s, d) => s + d.valor * d.cantidad, 0));
  }
  if (!contado.has('efectivo') && !errors.contado) errors.contado = 'Indique el efectivo contado.';
  // A closing prepared offline names the caja it closes (sent again, it answers that closing) and when it was counted.
  const cajaId = raw.caja_id === undefined || raw.caja_id === null ? null : entero(raw.caja_id);
  if (cajaId !== null && cajaId < 1) errors.caja_id = MESSAGES.required;
  const contadoEn = raw.fecha_hora === undefined || raw.fecha_hora === null ? null : instanteDelTpv(raw.fecha_hora);
  if (raw.fecha_hora !== undefined && raw.fecha_hora !== null && !contadoEn) errors.fecha_hora = MESSAGES_TPV.fechaHoraNoValida;
  if (Object.keys(errors).length) throw invalidFields(errors);

  const id = await app.db.transaction().execute(async (trx) => {
    await lockTerminal(trx, app, terminalId);
    const terminal = await terminalActivo(trx, terminalId);
    if (cajaId !== null) {
      const cerrada = await trx.selectFrom('tpv_cajas').select(['terminal_id', 'cierre_id']).where('id', '=', cajaId).executeTakeFirst();
      if (cerrada?.terminal_id !== terminal.id) throw fail(MESSAGES.notFound, '3');
      if (cerrada.cierre_id !== null) return cerrada.cierre_id;
    }
    const caja = await cajaAbierta(trx, terminal.id);
    if (!caja) throw fail(MESSAGES_TPV.cajaNoAbierta, '1', 400);
    if (cajaId !== null && caja.id !== cajaId) throw fail(MESSAGES.notFound, '3');
    const c = await cifrasCaja(trx, { ...caja, fondo: Number(caja.fondo) });
    // A method not counted (the card terminal's total not typed) is taken as expected; cash must be counted.
    for (const f of c.formas) {
      f.contado = contado.get(f.forma) ?? f.esperado;
      f.diferencia = f.contado - f.esperado;
    }
    for (const [forma, importe] of contado) {
      if (!c.formas.some((f) => f.forma === forma)) c.formas.push({ forma, ventas: 0, devoluciones: 0, esperado: 0, contado: importe, diferencia: importe });
    }
    const ef = c.formas.find((f) => f.forma === 'efectivo')!;
    c.efectivo.contado = ef.contado;
    c.efectivo.diferencia = ef.diferencia;
    c.diferencia = c.formas.reduce((s, f) => s + f.diferencia, 0);
    c.denominaciones = denominaciones;
    c.usuario_id = user.id;
    c.usuario_nombre = user.nombre;
    // Counted offline: the Z says when (never before the session opened); it includes everything queued before it.
    c.cierre = contadoEn && contadoEn >= caja.apertura ? contadoEn : nowIso();
    const ultimo = await trx.selectFrom('tpv_cierres').select((eb) => eb.fn.max('codigo').as('m')).where('terminal_id', '=', terminal.id).executeTakeFirst();
    c.codigo = Number(ultimo?.m ?? 0) + 1;
    const { id } = await trx
      .insertInto('tpv_cierres')
      .values({
        terminal_id: terminal.id, codigo: c.codigo, caja_id: caja.id, usuario_id: user.id, apertura: caja.apertura, cierre: c.cierre, fondo: c.fondo, tickets: c.tickets,
        devoluciones: c.devoluciones, total: c.total, efectivo_esperado: c.efectivo.esperado, efectivo_contado: c.efectivo.contado, diferencia: c.diferencia, datos: '{}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    c.id = id;
    await trx.updateTable('tpv_cierres').set({ datos: JSON.stringify(c) }).where('id', '=', id).execute();
    await trx.updateTable('tpv_cajas').set({ cierre_id: id }).where('id', '=', caja.id).execute();
    return id;
  });
  return (await leerCierre(app.db, id))!;
}

async function leerCierre(db: Db, id: number): Promise<CierreTpv | undefined> {
  const r = await db.selectFrom('tpv_cierres').select('datos').where('id', '=', id).executeTakeFirst();
  return r ? conIncidencias(db, await conDemo(db, JSON.parse(r.datos) as CierreTpv)) : undefined;
}

/**
 * A closing's figures are final; its incidences are read as they are now (one may arrive with an upload after the
 * closing, or be resolved since).
 */
async function conIncidencias(db: Db, c: CierreTpv): Promise<CierreTpv> {
  return { ...c, incidencias: await leerIncidencias(db, { caja_id: c.caja_id }) };
}

/**
 * A caja is worked from the till it stands at (issue 23): the terminal of the session's PIN login and the terminal the
 * browser's cookie pairs must be the one asked for; another terminal's caja is refused. Without a till (a password
 * session in the back office) only a manager (Ventas › crear y modificar) reaches a terminal's caja by its id.
 */
export async function comprobarTerminalDeCaja(app: AppContext, request: FastifyRequest, user: SessionUser, terminalId: number): Promise<void> {
  const cookie = await terminalDeCookie(app.db, request);
  const propios = [user.terminalId, cookie?.id ?? null].filter((x): x is number => x != null);
  if (propios.some((id) => id !== terminalId)) throw fail(MESSAGES_TPV.cajaDeOtroTerminal, '1', 403);
  if (!propios.length && !puede(user.rol.derechos, 'ventas', 'editar')) throw fail(MESSAGES_TPV.cajaSinTerminal, '1', 403);
}

/** abrircajatpv: the terminal's caja opened with its float (the terminal's by default), in one transaction. */
export async function abrirCaja(app: AppContext, user: SessionUser, input: { terminal_id: number; fondo: number | null }) {
  const caja = await app.db.transaction().execute(async (trx) => {
    await lockTerminal(trx, app, input.terminal_id);
    const terminal = await terminalActivo(trx, input.terminal_id);
    if (await cajaAbierta(trx, terminal.id)) throw fail(MESSAGES_TPV.cajaYaAbierta, '1', 400);
    const values = { terminal_id: terminal.id, usuario_id: user.id, apertura: nowIso(), fondo: input.fondo ?? Number(terminal.fondo), cierre_id: null };
    const { id } = await trx.insertInto('tpv_cajas').values(values).returning('id').executeTakeFirstOrThrow();
    return { id, ...values };
  });
  return caja;
}

/** The movements of cash in and out of the drawer (movimientocajatpv), online or queued by the till offline. */
export type MovimientoCajaIn = {
  terminal_id: number;
  importe: number;
  motivo: string;
  uuid: string | null;
  caja_id: number | null;
  fecha_hora: string | null;
  offline: number | null;
};

/** movimientocajatpv: cash put in or taken out of the open caja; a repeated `uuid` answers the same movement. */
export async function movimientoCaja(app: AppContext, user: SessionUser, input: MovimientoCajaIn) {
  if (input.importe === 0) throw invalidFields({ importe: MESSAGES_TPV.importeMovimiento });
  const offline = input.offline === 1;
  const fechaHora = instanteDelTpv(input.fecha_hora);
  if (offline && (!input.uuid || !fechaHora)) throw fail(MESSAGES_TPV.movimientoOfflineDatos, '1', 400);
  const una = () =>
    app.db.transaction().execute(async (trx) => {
      if (input.uuid) {
        const previo = await trx.selectFrom('tpv_movimientos').select('id').where('uuid', '=', input.uuid).executeTakeFirst();
        if (previo) return previo.id;
      }
      await lockTerminal(trx, app, input.terminal_id);
      const terminal = await terminalActivo(trx, input.terminal_id);
      const caja = await cajaAbierta(trx, terminal.id);
      if (!caja) throw fail(offline ? MESSAGES_TPV.cajaDelMovimientoCerrada : MESSAGES_TPV.cajaNoAbierta, '1', 400);
      if (input.caja_id && input.caja_id !== caja.id) throw fail(MESSAGES_TPV.cajaDelMovimientoCerrada, '1', 400);
      // Online a withdrawal beyond the drawer is refused; one made offline already happened (the cash left the drawer
      // then): stored, and flagged for the manager (issue 23).
      let excede: number | null = null;
      if (input.importe < 0) {
        const c = await cifrasCaja(trx, { ...caja, fondo: Number(caja.fondo) });
        if (-input.importe > c.efectivo.esperado) {
          if (!offline) throw fail(t(MESSAGES_TPV.salidaSuperaEfectivo, { efectivo: euros(c.efectivo.esperado) }), '1', 400);
          excede = c.efectivo.esperado;
        }
      }
      const { id } = await trx
        .insertInto('tpv_movimientos')
        .values({ terminal_id: terminal.id, caja_id: caja.id, uuid: input.uuid, fecha_hora: (offline && fechaHora) || nowIso(), usuario_id: user.id, importe: input.importe, motivo: input.motivo })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (excede !== null) {
        await anotarIncidencia(trx, {
          terminal_id: terminal.id, caja_id: caja.id, movimiento_id: id, uuid: input.uuid ?? null, tipo: 'retirada', usuario_id: user.id,
          detalle: t(MESSAGES_TPV.incidenciaRetirada, { importe: euros(-input.importe), motivo: input.motivo, efectivo: euros(excede) }),
        });
      }
      return id;
    });
  let id: number;
  try {
    id = await una();
  } catch (err) {
    if (!(err instanceof ActionError) && isUniqueViolation(err)) id = await una();
    else throw err;
  }
  const m = await app.db.selectFrom('tpv_movimientos').select(['id', 'caja_id', 'fecha_hora', 'importe', 'motivo']).where('id', '=', id).executeTakeFirstOrThrow();
  return { ...m, importe: Number(m.importe) };
}

/** cajatpv: the open caja's figures so far (blind: without what the expected cash could be worked out from). */
export async function cajaDeTerminal(app: AppContext, input: { terminal_id: number }): Promise<CierreTpv | CajaCiegaTpv> {
  const caja = await cajaAbierta(app.db, input.terminal_id);
  if (!caja) throw fail(MESSAGES_TPV.cajaNoAbierta, '3');
  const cifras = await cifrasCaja(app.db, { ...caja, fondo: Number(caja.fondo) });
  // Issue 23: a blind-count terminal's caja says nothing the expected cash could be worked out from until it is closed.
  const terminal = await app.db.selectFrom('tpv_terminales').select('arqueo_ciego').where('id', '=', input.terminal_id).executeTakeFirst();
  return terminal?.arqueo_ciego ? cajaCiega(cifras) : cifras;
}

/** The filters of listadocierrestpv (the op.asp listing's paging and order, a terminal, the closing's days). */
export type FiltroCierres = {
  id: number | null;
  pagina: number | null;
  porPagina: string | null;
  orden: 'codigo' | 'cierre' | null;
  dir: 'asc' | 'desc' | null;
  terminal_id: number | null;
  desde: string | null;
  hasta: string | null;
};

/** listadocierrestpv: one closing by `id`, or a page of them with the total. */
export async function listadoCierres(app: AppContext, input: FiltroCierres): Promise<{ data: CierreTpv[]; total: number }> {
  if (input.id !== null) {
    const c = await leerCierre(app.db, input.id);
    if (!c) throw fail(MESSAGES.notFound, '3');
    return { data: [c], total: 1 };
  }
  let q = app.db.selectFrom('tpv_cierres as c');
  if (input.terminal_id !== null) q = q.where('c.terminal_id', '=', input.terminal_id);
  if (input.desde) q = q.where('c.cierre', '>=', input.desde);
  if (input.hasta) q = q.where('c.cierre', '<', `${input.hasta}T99`);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const p = paging(input);
  const orden = input.orden === 'codigo' ? ['c.terminal_id', 'c.codigo'] : ['c.cierre'];
  let page = q.select('c.datos');
  for (const o of orden) page = page.orderBy(o as 'c.cierre', p.dir === 'asc' && input.dir ? 'asc' : input.dir === 'asc' ? 'asc' : 'desc');
  const rows = await page.orderBy('c.id', 'desc').limit(p.limit).offset(p.offset).execute();
  const demo = await esDemo(app.db);
  const data = rows.map((r) => JSON.parse(r.datos) as CierreTpv).map((c) => (c.demo === 0 || c.demo === 1 ? c : { ...c, demo }));
  return { data: await Promise.all(data.map((c) => conIncidencias(app.db, c))), total: Number(n) };
}
