import type { Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, esOperacion, formatDecimal } from 'shared/domain';
import type { DocumentoTipo } from 'shared/domain';
import type { AccionDef, Documento, DocumentoTipoDef, FieldErrors, TipoIva } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import { compiledQuery } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { fail, invalidFields } from '../errors.ts';
import type { SessionUser } from '../session.ts';
import { actualizarEstadoPadres, guardarEnlaces } from './enlaces.ts';
import { borrarDocumento, insertarLineas, totalesDe } from './guardar.ts';
import { addToLines, comprobarStockNegativo, reverseMovimientos, sincronizarStock } from './movimientos.ts';
import { lockDocumento, readDocumento } from './lectura.ts';
import { siguienteNumero } from './numeracion.ts';
import { efectosDe } from './tipos.ts';
import type { Detalle, EffectContext, EffectResult, LineaValida, TipoEffects } from './tipos.ts';
import { cantidadesPorLinea, toInt, validarSerie } from './validacion.ts';

/**
 * Running a document's actions (<verbo><entidad>): the state checked against the type's table, the verb's effects
 * or the generic undo, the child document a porLineas action makes, the log and the new state, in one transaction.
 */

/**
 * The serie of a draft invoice `facturar` makes: the request's `serie_id` (checked), else the first active serie
 * of the child type's first kind by code (normal for facturas); null when there is none (emitir asks for it).
 */
async function serieDelHijo(ctx: EffectContext, hijoDef: DocumentoTipoDef): Promise<number | null> {
  const pedida = ctx.raw.serie_id;
  if (pedida !== undefined && pedida !== null && pedida !== '') {
    const errors: FieldErrors = {};
    const id = toInt(pedida);
    await validarSerie(ctx.trx, hijoDef, id ?? -1, errors);
    if (Object.keys(errors).length) throw invalidFields(errors);
    return id;
  }
  const s = await ctx.trx
    .selectFrom('series')
    .select('id')
    .where('tipo', '=', hijoDef.series![0])
    .where('activo', '=', 1)
    .orderBy('codigo')
    .limit(1)
    .executeTakeFirst();
  return s?.id ?? null;
}

/**
 * The child a porLineas action of a type with `def.hijo` makes (recibir on a pedido → albarán de
 * compra): the received quantities as its lines, linked line by line, the parent lines' pending
 * units taken, the child's stock on save and its after-save effects. Set-based: one insert of the
 * lines, one of the links, one ledger statement, one pending update. `facturar` uses it too, with
 * everything pending: the child is then a draft invoice (a type with `series`: no number yet).
 * `extra`: lines the caller adds after the linked ones (a parte's hours), without a parent.
 */
export async function crearHijo(ctx: EffectContext, user: SessionUser = ctx.user, extra: readonly LineaValida[] = []): Promise<EffectResult> {
  const { trx, def, doc } = ctx;
  const hijoDef = DOCUMENTO_TIPOS[def.hijo!];
  const lineas = await trx
    .selectFrom('documento_lineas')
    .select(['id', 'articulo_id', 'codigo', 'descripcion', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'pendiente', 'ubicacion_id', 'motivo', 'operacion'])
    .where('documento_id', '=', doc.id)
    .orderBy('orden')
    .execute();
  const own = new Set(lineas.map((l) => l.id));
  if (ctx.lineas) for (const id of ctx.lineas.keys()) if (!own.has(id)) throw fail(MESSAGES.lineaOtroDocumento, '1', 400);
  const tomadas = lineas.map((l) => ({ l, q: ctx.lineas ? (ctx.lineas.get(l.id) ?? 0) : l.pendiente }));
  const servir = ctx.accion.verbo === 'servir';
  // Issue 17: a supplier may deliver more than was ordered — received with the clerk's confirmation (`exceso`), the
  // link taking what was pending and the rest recorded on the albarán as received beyond the order.
  const recibir = ctx.accion.verbo === 'recibir';
  const exceso = recibir && (ctx.raw.exceso === 1 || ctx.raw.exceso === true || ctx.raw.exceso === '1');
  const demas = tomadas.filter(({ l, q }) => q > l.pendiente);
  if (demas.length && !exceso) throw fail(servir ? MESSAGES.servirMasDePendiente : MESSAGES.recibirMasDePendiente, '1', 400);
  // The supplier's own delivery-note number, when the receipt makes a purchase albarán.
  const refProveedor = recibir && hijoDef.tipo === 'albarancompra' ? ctx.raw.albaran_proveedor : undefined;
  if (refProveedor !== undefined && refProveedor !== null && (typeof refProveedor !== 'string' || refProveedor.trim().length > 60)) {
    throw invalidFields({ albaran_proveedor: MESSAGES.tooLong });
  }
  const hijas = tomadas.filter(({ q }) => q > 0);
  if (!hijas.length && !extra.length) {
    throw fail(ctx.accion.verbo === 'facturar' ? MESSAGES.nadaQueFacturarDocumento : servir ? MESSAGES.nadaQueServir : MESSAGES.nadaQueRecibir, '1', 400);
  }

  const nuevas: LineaValida[] = hijas.map(({ l, q }) => ({
    articulo_id: l.articulo_id,
    codigo: l.codigo,
    descripcion: l.descripcion,
    tipo_iva: l.tipo_iva as TipoIva,
    familia_id: null,
    cantidad: q,
    precio: l.precio,
    descuento: l.descuento,
    ubicacion_id: l.ubicacion_id,
    motivo: l.motivo,
    // Received beyond the order: linked for what was pending (none left: not linked).
    origen_linea_id: q > l.pendiente && l.pendiente <= 0 ? null : l.id,
    ...(q > l.pendiente ? { cantidad_enlace: l.pendiente } : {}),
    // The operation travels with the goods (an order's E5 line is an E5 albarán and invoice line).
    operacion: esOperacion(l.operacion) ? l.operacion : null,
  }));
  nuevas.push(...extra);
  const totales = totalesDe(hijoDef, nuevas, doc.retencion, doc.con_recargo);
  const ejercicio = Number(ctx.hoy.slice(0, 4));
  // A draft invoice has no number until it is issued; other children are numbered now.
  const numero = hijoDef.series ? null : await siguienteNumero(trx, hijoDef.tipo, null, ejercicio, ctx.hoy);
  const serie_id = hijoDef.series ? await serieDelHijo(ctx, hijoDef) : null;
  const created = await trx
    .insertInto('documentos')
    .values({
      tipo: hijoDef.tipo, serie_id, numero, ejercicio, fecha: ctx.hoy, estado: hijoDef.inicial, creado: nowIso(), creado_por: user.id,
      almacen_id: doc.almacen_id, almacen_destino_id: null, familia_id: null, ubicacion_id: null,
      proveedor_id: doc.proveedor_id, cliente_id: doc.cliente_id, forma_pago: doc.forma_pago, fecha_entrega: null,
      retencion: doc.retencion, con_recargo: doc.con_recargo as 0 | 1,
      observaciones: demas.length
        ? `Recibido más de lo pedido: ${demas.map(({ l, q }) => `${l.codigo} ${formatDecimal(q, 3, 0)} (pedido pendiente ${formatDecimal(Math.max(0, l.pendiente), 3, 0)})`).join('; ')}`
        : null,
      ...(typeof refProveedor === 'string' && refProveedor.trim() ? { albaran_proveedor: refProveedor.trim() } : {}),
      base: totales.base, iva: totales.iva, recargo: totales.recargo, retencion_importe: totales.retencion_importe, total: totales.total,
      desglose: JSON.stringify(totales.desglose), clave: null, modificado: null, modificado_por: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = await insertarLineas(trx, created.id, nuevas, !!hijoDef.hijo);
  await guardarEnlaces(trx, nuevas, ids, new Map());
  if (hijoDef.stockAlGuardar) {
    await sincronizarStock(trx, ctx.dialect, hijoDef.stockAlGuardar, { tipo: hijoDef.tipo, id: created.id, almacenId: doc.almacen_id }, ctx.accionId, ctx.hoy);
  }
  await efectosDe(hijoDef.tipo)?.alGuardar?.({ trx, dialect: ctx.dialect, docId: created.id });
  const pendiente = hijas.map(({ l, q }) => [l.id, -Math.min(q, Math.max(0, l.pendiente))] as [number, number]);
  await addToLines(trx, 'pendiente', pendiente);
  const queda = tomadas.some(({ l, q }) => l.pendiente - q > 0);
  return { estado: queda ? ctx.accion.toParcial : ctx.accion.to, detalle: { hijo: created.id } };
}

/** The latest run of `accion` on a document that no undo has reversed yet (what its undo reverses). */
export const ultimaSinDeshacer = (trx: Transaction<Database>, documentoId: number, accion: string) =>
  trx
    .selectFrom('documento_acciones')
    .select(['id', 'estado_antes', 'detalle'])
    .where('documento_id', '=', documentoId)
    .where('accion', '=', accion)
    .where('deshecha_por', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** <verbo><entidad>: one transaction that checks the state, applies the effects (or the undo), logs it and sets the state. */
export async function ejecutarAccion(
  app: AppContext,
  def: DocumentoTipoDef,
  effects: TipoEffects,
  accion: AccionDef,
  id: number,
  raw: Record<string, unknown>,
  user: SessionUser,
): Promise<Documento> {
  const lineas = accion.porLineas ? cantidadesPorLinea(raw.lineas) : null;
  await app.db.transaction().execute((trx) => ejecutarAccionEn(trx, app, def, effects, accion, id, lineas, user, raw));
  return (await readDocumento(app.db, def, id))!;
}

/** The same inside a transaction of the caller's (hcp finishes several documents in one). */
export async function ejecutarAccionEn(
  trx: Transaction<Database>,
  app: Pick<AppContext, 'dialect' | 'timeZone'>,
  def: DocumentoTipoDef,
  effects: TipoEffects,
  accion: AccionDef,
  id: number,
  lineas: Map<number, number> | null,
  user: SessionUser,
  raw: Record<string, unknown> = {},
): Promise<void> {
  const doc = await lockDocumento(trx, app.dialect, def, id);
  if (!accion.from.includes(doc.estado)) throw fail(MESSAGES.accionNoPermitida, '1');
  await effects.antesDe?.[accion.verbo]?.({ trx, doc });
  const hoy = todayIn(app.timeZone);
  const [log] = await registrarAccion(trx, { documento_id: id, accion: accion.verbo, fecha: nowIso(), usuario_id: user.id, estado_antes: doc.estado });
  let estado: string;
  let numero: EffectResult['numero'];
  if (accion.undoes) {
    const target = await ultimaSinDeshacer(trx, id, accion.undoes);
    if (!target) throw fail(MESSAGES.accionNoPermitida, '1');
    const detalle = (target.detalle ? JSON.parse(target.detalle) : {}) as Detalle;
    if (detalle.hijo !== undefined) {
      // The child it created goes, while it can (Pendiente, no children of its own): its stock and the pending units it took come back.
      const hijoDef = DOCUMENTO_TIPOS[def.hijo!];
      const hijo = await trx.selectFrom('documentos').select('id').where('id', '=', detalle.hijo).executeTakeFirst();
      if (hijo) await borrarDocumento(trx, app.dialect, hijoDef, hijo.id, hoy);
    } else {
      await reverseMovimientos(trx, target.id, log.id);
    }
    if (detalle.pendiente) await addToLines(trx, 'pendiente', detalle.pendiente.map(([lineId, d]) => [lineId, -d] as const));
    if (detalle.teorico) await trx.updateTable('documento_lineas').set({ teorico: null }).where('documento_id', '=', id).execute();
    await trx.updateTable('documento_acciones').set({ deshecha_por: log.id }).where('id', '=', target.id).execute();
    estado = target.estado_antes;
  } else {
    // A type with a child makes it by its porLineas action (recibir, servir) or, everything pending, by `facturar`.
    const hace = def.hijo && (accion.porLineas || accion.verbo === 'facturar');
    const effect = effects.acciones[accion.verbo] ?? (hace ? (ctx: EffectContext) => crearHijo(ctx, user) : undefined);
    const result = effect ? await effect({ trx, dialect: app.dialect, def, accion, doc, accionId: log.id, hoy, lineas, raw, user, timeZone: app.timeZone }) : {};
    estado = result.estado ?? accion.to ?? doc.estado;
    numero = result.numero;
    if (result.detalle && Object.keys(result.detalle).length) {
      await trx.updateTable('documento_acciones').set({ detalle: JSON.stringify(result.detalle) }).where('id', '=', log.id).execute();
    }
  }
  await comprobarStockNegativo(trx, { accionId: log.id });
  const cambio = { id, estado, modificado: nowIso(), modificado_por: user.id };
  if (numero) await cambiarEstadoYNumero(trx, { ...cambio, ...numero });
  else await cambiarEstado(trx, cambio);
  await effects.despuesDe?.[accion.verbo]?.({ trx, doc: { ...doc, estado }, user });
}

const registrarAccion = compiledQuery(
  (db, p: { documento_id: number; accion: string; fecha: string; usuario_id: number; estado_antes: string }) =>
    db
      .insertInto('documento_acciones')
      .values({ documento_id: p.documento_id, accion: p.accion, fecha: p.fecha, usuario_id: p.usuario_id, estado_antes: p.estado_antes, detalle: null, deshecha_por: null })
      .returning('id'),
);

const cambiarEstado = compiledQuery((db, p: { id: number; estado: string; modificado: string; modificado_por: number }) =>
  db.updateTable('documentos').set({ estado: p.estado, modificado: p.modificado, modificado_por: p.modificado_por }).where('id', '=', p.id),
);

const cambiarEstadoYNumero = compiledQuery(
  (db, p: { id: number; estado: string; modificado: string; modificado_por: number; numero: number; ejercicio: number; tipo_factura: string | null }) =>
    db
      .updateTable('documentos')
      .set({ estado: p.estado, modificado: p.modificado, modificado_por: p.modificado_por, numero: p.numero, ejercicio: p.ejercicio, tipo_factura: p.tipo_factura })
      .where('id', '=', p.id),
);

/**
 * Parents whose pending units a child's edit or delete gave back (`padres`, as guardarEnlaces / borrarEnlaces answer
 * them): one that was finished (an order's `finalizar`, which closed what was pending) is reopened — its finalization
 * undone by the generic undo, in its history under whoever changed the child — so the units it had closed come back
 * with those given back, and its state follows them (parcial / total). A finished parent with nothing pending again
 * (a price change) stays finished.
 */
export async function reabrirFinalizados(
  trx: Transaction<Database>,
  app: Pick<AppContext, 'dialect' | 'timeZone'>,
  padres: readonly number[],
  user: SessionUser,
): Promise<void> {
  for (const id of new Set(padres)) {
    const doc = await trx.selectFrom('documentos').select(['tipo', 'estado']).where('id', '=', id).executeTakeFirst();
    const def = doc ? DOCUMENTO_TIPOS[doc.tipo as DocumentoTipo] : undefined;
    const deshacer = def?.hijo ? def.acciones.find((a) => a.undoes === 'finalizar' && a.from.includes(doc!.estado)) : undefined;
    const effects = def ? efectosDe(def.tipo) : undefined;
    if (!def || !deshacer || !effects) continue;
    // Only a finalización that closed pending units (its detalle keeps them: an order's), not one that moved stock (a parte's).
    const cierre = await ultimaSinDeshacer(trx, id, 'finalizar');
    if (!Array.isArray((cierre?.detalle ? (JSON.parse(cierre.detalle) as Detalle) : {}).pendiente)) continue;
    const queda = await trx.selectFrom('documento_lineas').select('id').where('documento_id', '=', id).where('pendiente', '>', 0).limit(1).executeTakeFirst();
    if (!queda) continue;
    await ejecutarAccionEn(trx, app, def, effects, deshacer, id, null, user);
    await actualizarEstadoPadres(trx, [id]);
  }
}
