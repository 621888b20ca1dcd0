import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { BLOQUEO_MINUTOS_TPV, FORMAS_PAGO_TPV, IMPRESORAS_TPV, LIMITE_SIMPLIFICADA, LIMITE_SIMPLIFICADA_MINORISTA, MESSAGES_TPV, MESSAGES, puede } from 'shared/domain';
import type { FieldErrors, FormaPagoTpv, ImpresoraTpv, Infer, Terminal, TerminalTpv, terminalSchema } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { contains } from '../db/consulta.ts';
import { listado, uniqueOr } from '../consultas.ts';
import { fail, invalidFields } from '../errors.ts';
import type { SessionUser } from '../session.ts';
import { claveCadena, instalacionDeTerminal, numeroInstalacion, sistemaInformatico } from '../fiscal/registro.ts';
import { hashPassword, randomToken, sha256, verifyAgainstDummy, verifyPassword } from '../security.ts';
import { auditar } from '../actividad/registro.ts';
import { comprobarEditarUsuario } from '../auth/promocion.ts';
import { empresaEmisora, emisionTpv, formasDe } from './comun.ts';

/**
 * Terminals (issue 13): the back office's records (listado / editar / eliminar), the pairing of a browser by a
 * one-time code, what a paired till reads of its terminal, the PINs and the till's catalogue. The cashier's login by PIN
 * opens a session, as sesion.ts's login does: it is an action of its own (actions/tpv/terminales.ts, identificartpv).
 */

type Db = Kysely<Database>;

/** A terminal as the protocol answers it (Terminal of shared/domain/tpv.ts). */
async function leerTerminales(db: Db, filtro: { id?: number; q?: string | null; limit?: number; offset?: number }): Promise<Terminal[]> {
  let q = db
    .selectFrom('tpv_terminales as t')
    .select([
      't.id', 't.nombre', 't.almacen_id', 't.serie_id', 't.serie_rectificativa_id', 't.cliente_id', 't.numero_instalacion', 't.formas_pago', 't.fondo',
      't.activo', 't.arqueo_ciego', 't.bloqueo_minutos', 't.impresora', 't.emparejado',
      sql<string | null>`(select a.nombre from almacenes a where a.id = t.almacen_id)`.as('almacen_nombre'),
      sql<string | null>`(select s.codigo from series s where s.id = t.serie_id)`.as('serie_codigo'),
      sql<string | null>`(select s.codigo from series s where s.id = t.serie_rectificativa_id)`.as('serie_rectificativa_codigo'),
      sql<string | null>`(select c.razon_social from clientes c where c.id = t.cliente_id)`.as('cliente_nombre'),
    ])
    .orderBy('t.nombre')
    .orderBy('t.id');
  if (filtro.id !== undefined) q = q.where('t.id', '=', filtro.id);
  if (filtro.q) q = q.where(contains('t.nombre', filtro.q));
  if (filtro.limit !== undefined) q = q.limit(filtro.limit).offset(filtro.offset ?? 0);
  const rows = await q.execute();
  const out: Terminal[] = [];
  for (const r of rows) {
    const caja = await db
      .selectFrom('tpv_cajas as c')
      .select(['c.id', 'c.apertura', 'c.fondo', sql<string | null>`(select u.nombre from usuarios u where u.id = c.usuario_id)`.as('usuario_nombre')])
      .where('c.terminal_id', '=', r.id)
      .where('c.cierre_id', 'is', null)
      .executeTakeFirst();
    out.push({
      ...r,
      fondo: Number(r.fondo),
      activo: r.activo as 0 | 1,
      arqueo_ciego: (r.arqueo_ciego ? 1 : 0) as 0 | 1,
      bloqueo_minutos: Number(r.bloqueo_minutos),
      impresora: (IMPRESORAS_TPV as readonly string[]).includes(r.impresora) ? (r.impresora as ImpresoraTpv) : 'navegador',
      formas_pago: formasDe(r.formas_pago),
      caja_abierta: caja ? { id: caja.id, apertura: caja.apertura, fondo: Number(caja.fondo), usuario_nombre: caja.usuario_nombre } : null,
    });
  }
  return out;
}

/** What a paired till reads of its terminal: its record, series, issuer, last number, chain head and cashiers. */
export async function terminalTpv(app: AppContext, id: number): Promise<TerminalTpv> {
  const [t] = await leerTerminales(app.db, { id });
  if (!t) throw fail(MESSAGES_TPV.terminalNoExiste, '3');
  const emisor = await empresaEmisora(app.db);
  const ejercicio = Number(todayIn(app.timeZone).slice(0, 4));
  // The serie's last number this year: a ticket takes the next; a return made offline, the rectificativa serie's next
  // (its R5 in the terminal's chain).
  const ultimoDe = async (tipo: 'ticket' | 'rectificativa', serieId: number) => {
    const c = await app.db
      .selectFrom('contadores')
      .select('ultimo')
      .where('tipo', '=', tipo)
      .where('serie_id', '=', serieId)
      .where('ejercicio', '=', ejercicio)
      .executeTakeFirst();
    return Number(c?.ultimo ?? 0);
  };
  const clave = claveCadena(emisor.nif, t.numero_instalacion);
  const cabeza = await app.db.selectFrom('registros_cadena').select(['ultimo_orden']).where('emisor', '=', clave).executeTakeFirst();
  const ultimo = cabeza
    ? await app.db
        .selectFrom('registros_facturacion')
        .select(['huella', 'num_serie', 'fecha_expedicion', 'fecha_hora_huso'])
        .where('emisor', '=', clave)
        .where('orden', '=', Number(cabeza.ultimo_orden))
        .executeTakeFirst()
    : undefined;
  const cajeros = await app.db
    .selectFrom('usuarios as u')
    .leftJoin('roles as r', 'r.id', 'u.rol_id')
    .select(['u.id', 'u.nombre', 'u.pin_hash', 'r.derechos'])
    .where('u.activo', '=', 1)
    .orderBy('u.nombre')
    .execute();
  return {
    ...t,
    serie: { id: t.serie_id, codigo: t.serie_codigo ?? '' },
    serie_rectificativa: { id: t.serie_rectificativa_id, codigo: t.serie_rectificativa_codigo ?? '' },
    emisor: { nif: emisor.nif, nombre: emisor.nombre },
    impuesto: emisor.impuesto,
    // The producer too (issue 22): the till's records name the one the back office's name.
    sistema: sistemaInformatico(),
    zona_horaria: app.timeZone,
    // Issue 22: what its records are made for: the till stores it with each record it makes and prints from it.
    ...(await emisionTpv(app.db)),
    ultimo: { ejercicio, numero: await ultimoDe('ticket', t.serie_id) },
    ultimo_rectificativa: { ejercicio, numero: await ultimoDe('rectificativa', t.serie_rectificativa_id) },
    cadena: ultimo ?? null,
    // Issue 23: the till stops a ticket over it before payment (the way out: a full invoice).
    limite_simplificada: emisor.minorista ? LIMITE_SIMPLIFICADA_MINORISTA : LIMITE_SIMPLIFICADA,
    inicio: (await app.db.selectFrom('verifactu').select('inicio').where('id', '=', 1).executeTakeFirst())?.inicio ?? null,
    cajeros: cajeros
      .filter((u) => {
        try {
          return puede(JSON.parse(u.derechos ?? '{}'), 'tpv', 'editar');
        } catch {
          return false;
        }
      })
      .map((u) => ({ id: u.id, nombre: u.nombre, con_pin: (u.pin_hash ? 1 : 0) as 0 | 1 })),
  };
}

/** The series and the rest of an editarterminal, checked; the errors by field. */
async function validarTerminal(db: Db, id: number | null, input: Record<string, unknown>, raw: Record<string, unknown>, errors: FieldErrors) {
  const serie = async (campo: 'serie_id' | 'serie_rectificativa_id', tipo: string, mensaje: string) => {
    const sid = input[campo] as number;
    const s = await db.selectFrom('series').select(['tipo', 'activo', 'codigo']).where('id', '=', sid).executeTakeFirst();
    if (!s || s.tipo !== tipo || s.activo !== 1) {
      errors[campo] = mensaje;
      return;
    }
    const otro = await db
      .selectFrom('tpv_terminales')
      .select('id')
      .where((eb) => eb.or([eb('serie_id', '=', sid), eb('serie_rectificativa_id', '=', sid)]))
      .$if(id !== null, (q) => q.where('id', '<>', id!))
      .executeTakeFirst();
    if (otro) {
      errors[campo] = MESSAGES_TPV.serieDeOtroTerminal;
      return;
    }
    // Issue 23: nor a serie with documents not this terminal's (the back office's invoices, another till's tickets or
    // returns): two issuers in one serie make two documents with one number.
    const ajeno = await db
      .selectFrom('documentos as d')
      .select('d.id')
      .where('d.serie_id', '=', sid)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('tpv_tickets as tt')
              .select('tt.documento_id')
              .whereRef('tt.documento_id', '=', 'd.id')
              .where('tt.terminal_id', '=', id ?? 0),
          ),
        ),
      )
      .limit(1)
      .executeTakeFirst();
    if (ajeno) errors[campo] = MESSAGES_TPV.serieConDocumentos.replace('{codigo}', s.codigo);
  };
  await serie('serie_id', 'simplificada', MESSAGES_TPV.serieTicketsNoValida);
  await serie('serie_rectificativa_id', 'rectificativa', MESSAGES_TPV.serieRectificativaNoValida);
  if (input.serie_id === input.serie_rectificativa_id) errors.serie_rectificativa_id = MESSAGES_TPV.seriesIguales;
  const almacen = await db.selectFrom('almacenes').select(['activo']).where('id', '=', input.almacen_id as number).executeTakeFirst();
  if (!almacen || Number(almacen.activo) !== 1) errors.almacen_id = MESSAGES.notFound;
  if (input.cliente_id !== null && input.cliente_id !== undefined) {
    const c = await db.selectFrom('clientes').select('id').where('id', '=', input.cliente_id as number).executeTakeFirst();
    if (!c) errors.cliente_id = MESSAGES.notFound;
  }
  const formas = raw.formas_pago;
  if (!Array.isArray(formas) || !formas.length) errors.formas_pago = MESSAGES_TPV.formasPagoRequeridas;
  else {
    const mala = formas.find((f) => !(FORMAS_PAGO_TPV as readonly unknown[]).includes(f));
    if (mala !== undefined) errors.formas_pago = MESSAGES_TPV.formaPagoNoValida.replace('{forma}', String(mala));
  }
  const nombre = await db
    .selectFrom('tpv_terminales')
    .select('id')
    .where('nombre', '=', String(input.nombre))
    .$if(id !== null, (q) => q.where('id', '<>', id!))
    .executeTakeFirst();
  if (nombre) errors.nombre = MESSAGES.duplicated;
  if (input.numero_instalacion) {
    const inst = await db
      .selectFrom('tpv_terminales')
      .select('id')
      .where('numero_instalacion', '=', String(input.numero_instalacion))
      .$if(id !== null, (q) => q.where('id', '<>', id!))
      .executeTakeFirst();
    if (inst) errors.numero_instalacion = MESSAGES.duplicated;
    // A number that already named a chain (a terminal's former number, the company's own installation) would chain
    // this terminal's records onto another installation's (issue 22): refused unless it is this terminal's own.
    else {
      const actual = id !== null ? await db.selectFrom('tpv_terminales').select('numero_instalacion').where('id', '=', id).executeTakeFirst() : undefined;
      if (actual?.numero_instalacion !== input.numero_instalacion) {
        const numero = String(input.numero_instalacion);
        const propio = await db.selectFrom('verifactu').select('numero_instalacion').where('id', '=', 1).executeTakeFirst();
        const cadena = await db
          .selectFrom('registros_cadena')
          .select('emisor')
          .where(sql<boolean>`substr(emisor, length(emisor) - ${numero.length}) = ${`:${numero}`}`)
          .limit(1)
          .executeTakeFirst();
        if (cadena || propio?.numero_instalacion === numero) errors.numero_instalacion = MESSAGES_TPV.instalacionUsada;
      }
    }
  }
}

/** A one-time pairing code: 8 characters without look-alikes, shown as XXXX-XXXX. */
const ALFABETO = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function nuevoCodigo(): string {
  const bytes = crypto.randomBytes(8);
  let s = '';
  for (const b of bytes) s += ALFABETO[b % ALFABETO.length];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}
const normalizarCodigo = (c: string) => c.toUpperCase().replace(/[^A-Z0-9]/g, '');
const CODIGO_MS = 15 * 60 * 1000;

/** The paging and search of listadoterminales. */
export type FiltroTerminales = { id: number | null; pagina: number | null; porPagina: string | null; dir: string | null; q: string | null };

/** listadoterminales: one terminal by `id`, or a page of them by name. */
export async function listadoTerminales(app: AppContext, input: FiltroTerminales) {
  return listado(input, {
    one: async (id) => (await leerTerminales(app.db, { id }))[0],
    total: async () => {
      const r = await app.db
        .selectFrom('tpv_terminales as t')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .$if(!!input.q, (q) => q.where(contains('t.nombre', input.q!)))
        .executeTakeFirstOrThrow();
      return r.n;
    },
    page: (p) => leerTerminales(app.db, { q: input.q, limit: p.limit, offset: p.offset }),
  });
}

/** editarterminal: a terminal created or changed (`input.id`), its series and installation checked, in one transaction. */
export async function editarTerminal(app: AppContext, input: Infer<typeof terminalSchema>, raw: Record<string, unknown>): Promise<Terminal[]> {
  const id = input.id;
  const id2 = await app.db.transaction().execute(async (trx) => {
    if (id !== null) {
      const existe = await trx.selectFrom('tpv_terminales').select('id').where('id', '=', id).executeTakeFirst();
      if (!existe) throw fail(MESSAGES.notFound, '3');
    }
    const errors: FieldErrors = {};
    await validarTerminal(trx, id, input, raw, errors);
    if (id !== null && input.numero_instalacion) {
      // The installation names the terminal's chain: once it has records it stays (a new number would start a new chain).
      const actual = await trx.selectFrom('tpv_terminales').select('numero_instalacion').where('id', '=', id).executeTakeFirstOrThrow();
      const vendio = await trx.selectFrom('tpv_tickets').select('documento_id').where('terminal_id', '=', id).limit(1).executeTakeFirst();
      if (vendio && actual.numero_instalacion !== input.numero_instalacion) errors.numero_instalacion = MESSAGES_TPV.instalacionFija;
    }
    if (Object.keys(errors).length) throw invalidFields(errors);
    const values = {
      nombre: input.nombre,
      almacen_id: input.almacen_id,
      serie_id: input.serie_id,
      serie_rectificativa_id: input.serie_rectificativa_id,
      cliente_id: input.cliente_id ?? null,
      formas_pago: JSON.stringify([...new Set(raw.formas_pago as FormaPagoTpv[])]),
      fondo: input.fondo ?? 0,
      activo: ('activo' in raw ? input.activo : 1) as 0 | 1,
      // Absent on an update: unchanged; a new terminal counts seeing the expected figures.
      ...('arqueo_ciego' in raw || id === null ? { arqueo_ciego: (input.arqueo_ciego ?? 0) as 0 | 1 } : {}),
      // Issue 23: absent on an update, unchanged; a new terminal locks after 5 minutes and prints by the browser.
      ...('bloqueo_minutos' in raw || id === null ? { bloqueo_minutos: input.bloqueo_minutos ?? BLOQUEO_MINUTOS_TPV } : {}),
      ...('impresora' in raw || id === null ? { impresora: input.impresora ?? 'navegador' } : {}),
    };
    return uniqueOr(
      () => fail(MESSAGES_TPV.serieDeOtroTerminal, '1', 400),
      async () => {
        if (id !== null) {
          await trx
            .updateTable('tpv_terminales')
            .set({ ...values, ...(input.numero_instalacion ? { numero_instalacion: input.numero_instalacion } : {}) })
            .where('id', '=', id)
            .execute();
          return id;
        }
        const provisional = input.numero_instalacion || `nuevo-${randomToken()}`;
        const { id: nuevo } = await trx
          .insertInto('tpv_terminales')
          .values({ ...values, numero_instalacion: provisional, creado: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (!input.numero_instalacion) {
          // Its installation number by default (issue 22): the company installation's unique number and the
          // terminal's id — never the same as another installation's terminal (docs/verifactu.md).
          await trx
            .updateTable('tpv_terminales')
            .set({ numero_instalacion: instalacionDeTerminal(await numeroInstalacion(trx), nuevo) })
            .where('id', '=', nuevo)
            .execute();
        }
        return nuevo;
      },
    );
  });
  return leerTerminales(app.db, { id: id2 });
}

/** eliminarterminal: a terminal that never sold nor opened a caja, with its own pages of buttons. */
export async function eliminarTerminal(app: AppContext, input: { id: number }): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const t = await trx.selectFrom('tpv_terminales').select('id').where('id', '=', input.id).executeTakeFirst();
    if (!t) throw fail(MESSAGES.notFound, '3');
    const usado =
      (await trx.selectFrom('tpv_tickets').select('documento_id').where('terminal_id', '=', input.id).limit(1).executeTakeFirst()) ??
      (await trx.selectFrom('tpv_cajas').select('id').where('terminal_id', '=', input.id).limit(1).executeTakeFirst());
    if (usado) throw fail(MESSAGES_TPV.terminalConTickets, '2');
    const paginas = await trx.selectFrom('tpv_paginas').select('id').where('terminal_id', '=', input.id).execute();
    if (paginas.length) {
      await trx.deleteFrom('tpv_botones').where('pagina_id', 'in', paginas.map((p) => p.id)).execute();
      await trx.deleteFrom('tpv_paginas').where('terminal_id', '=', input.id).execute();
    }
    await trx.deleteFrom('tpv_terminales').where('id', '=', input.id).execute();
  });
}

/** codigoterminal: a new one-time pairing code for the terminal, valid for 15 minutes. */
export async function codigoTerminal(app: AppContext, input: { id: number }) {
  const codigo = nuevoCodigo();
  const expira = nowIso(CODIGO_MS);
  await app.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('tpv_terminales')
      .set({ codigo_hash: sha256(normalizarCodigo(codigo)), codigo_expira: expira })
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw fail(MESSAGES.notFound, '3');
  });
  return { terminal_id: input.id, codigo, expira };
}

/**
 * emparejarterminal: the code spent, the terminal paired with a new token (the previous browser's stops working). The
 * caller sets the token as the browser's TERMINAL_COOKIE.
 */
export async function emparejarTerminal(app: AppContext, input: { codigo: string }): Promise<{ id: number; token: string }> {
  const hash = sha256(normalizarCodigo(input.codigo));
  const token = randomToken();
  const id = await app.db.transaction().execute(async (trx) => {
    const t = await trx
      .selectFrom('tpv_terminales')
      .select(['id', 'activo', 'codigo_expira'])
      .where('codigo_hash', '=', hash)
      .executeTakeFirst();
    if (!t?.codigo_expira || t.codigo_expira <= nowIso()) throw fail(MESSAGES_TPV.codigoNoValido, '1', 400);
    if (t.activo !== 1) throw fail(MESSAGES_TPV.terminalInactivo, '1', 400);
    // The code is spent; the previous browser's token stops working.
    await trx
      .updateTable('tpv_terminales')
      .set({ token_hash: sha256(token), emparejado: nowIso(), codigo_hash: null, codigo_expira: null })
      .where('id', '=', t.id)
      .execute();
    return t.id;
  });
  return { id, token };
}

/** What editarpintpv may carry. */
export type PinIn = { pin: string | null; usuario_id: number | null; quitar: number | null; pin_actual: string | null };

/** editarpintpv: a user's PIN for the till set or removed (`quitar`), by the user or by whoever manages users. */
export async function editarPin(app: AppContext, me: SessionUser, input: PinIn): Promise<{ usuario_id: number; con_pin: 0 | 1 }> {
  const id = input.usuario_id ?? me.id;
  // Issue 23: a PIN session (the till) changes its own PIN only, knowing the current one; another user's PIN is
  // set where users are managed (Usuarios › crear y modificar), from the back office.
  if (me.terminalId !== null && id !== me.id) throw fail(MESSAGES_TPV.pinSoloPropio, '1', 403);
  if (id !== me.id && !puede(me.rol.derechos, 'usuarios', 'editar')) {
    throw fail('Su rol no permite crear ni modificar en Usuarios y roles.', '1', 403);
  }
  const quitar = input.quitar === 1;
  if (!quitar && !/^\d{4,8}$/.test(input.pin ?? '')) throw invalidFields({ pin: MESSAGES_TPV.pinNoValido });
  if (me.terminalId !== null) {
    const actual = await app.db.selectFrom('usuarios').select('pin_hash').where('id', '=', me.id).executeTakeFirst();
    const ok = actual?.pin_hash ? await verifyPassword(input.pin_actual ?? '', actual.pin_hash) : await verifyAgainstDummy(input.pin_actual ?? '');
    if (!ok) throw invalidFields({ pin_actual: MESSAGES_TPV.pinActualIncorrecto });
  }
  const hash = quitar ? null : await hashPassword(input.pin!);
  await app.db.transaction().execute(async (trx) => {
    // Another's PIN is a credential: an administrator's only by an Administrador, nobody's with more rights (issue 24).
    if (id !== me.id) await comprobarEditarUsuario(trx, me, id, { credenciales: true });
    const r = await trx.updateTable('usuarios').set({ pin_hash: hash }).where('id', '=', id).executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw fail(MESSAGES.notFound, '3');
    // The line names the user whose PIN it is (its e-mail is the line's number) and whether it was set or removed
    // (issue 23), never the PIN or its hash.
    const u = await trx.selectFrom('usuarios').select('nombre').where('id', '=', id).executeTakeFirstOrThrow();
    auditar({ entidad_id: id, despues: { usuario: u.nombre, pin: quitar ? '(quitado)' : '(cambiado)' } });
  });
  return { usuario_id: id, con_pin: (quitar ? 0 : 1) as 0 | 1 };
}

/** articulostpv: the till's catalogue by pages of ids (`desde_id`), with the next page's start (`siguiente`). */
export async function articulosTpv(app: AppContext, input: { desde_id: number | null; limite: number | null }) {
  const limite = input.limite ?? 2000;
  const rows = await app.db
    .selectFrom('articulos as a')
    .select([
      'a.id', 'a.codigo', 'a.codigo_barras', 'a.nombre_tpv', 'a.descripcion', 'a.familia_id', 'a.tipo_iva', 'a.pvp_1', 'a.unidad_medida',
      sql<number>`case when exists (select 1 from articulo_componentes k where k.articulo_id = a.id) then 1 else 0 end`.as('kit'),
    ])
    .where('a.activo', '=', 1)
    .where('a.id', '>', input.desde_id ?? 0)
    .orderBy('a.id')
    .limit(limite + 1)
    .execute();
  const mas = rows.length > limite;
  const data = rows.slice(0, limite).map((a) => ({
    id: a.id,
    codigo: a.codigo,
    codigo_barras: a.codigo_barras,
    nombre: a.nombre_tpv?.trim() || a.descripcion,
    descripcion: a.descripcion,
    familia_id: a.familia_id,
    tipo_iva: a.tipo_iva,
    // pvp_1 is cents with IVA; the till's prices are ten-thousandths like every unit price.
    precio: Number(a.pvp_1) * 100,
    unidad_medida: a.unidad_medida,
    kit: Number(a.kit) as 0 | 1,
  }));
  return { data, siguiente: mas ? data[data.length - 1].id : null };
}
