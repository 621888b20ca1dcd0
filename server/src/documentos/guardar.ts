import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, TOASTS, calcularTotales } from 'shared/domain';
import type { Documento, DocumentoTipo, DocumentoTipoDef, FieldErrors, Infer, Schema } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import { isUniqueViolation } from '../db/consulta.ts';
import type { DialectName } from '../db/index.ts';
import { compiledQuery, insertarFilas } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { ActionError, fail, invalidFields } from '../errors.ts';
import type { SessionUser } from '../session.ts';
import { actualizarEstadoPadres, borrarEnlaces, enlacesDe, guardarEnlaces, validarOrigenes } from './enlaces.ts';
import type { EnlaceAnterior } from './enlaces.ts';
import { comprobarStockNegativo, sincronizarStock, ubicacionesHabituales } from './movimientos.ts';
import { reabrirFinalizados } from './acciones.ts';
import { lockDocumento, numeroDeTipo, readDocumento } from './lectura.ts';
import { siguienteNumero } from './numeracion.ts';
import { CHUNK, efectosDe } from './tipos.ts';
import type { AnyDb, DocRow, LineaValida, TipoEffects } from './tipos.ts';
import { validarKits, validarLineas, validarSerie, validarTercero } from './validacion.ts';

/**
 * Saving a document with its children rows: editar<entidad> (header, lines, links to parent lines, the stock a
 * type moves on save) and eliminar<entidad>, each in one transaction.
 */

export type SaveInput = { id: number | null; fecha: string; clave?: string | null } & Record<string, unknown>;

const COLUMNAS_LINEA = [
  'documento_id', 'orden', 'articulo_id', 'codigo', 'descripcion', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'pendiente', 'almacen_id', 'ubicacion_id',
  'motivo', 'teorico', 'operacion',
] as const;

/** A line's row in COLUMNAS_LINEA's order; `pendiente`: a type that makes children (pedido) has everything pending until received. */
const filaLinea = (docId: number, orden: number, l: LineaValida, pendiente: boolean) => [
  docId, orden, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, l.precio, l.descuento, pendiente ? l.cantidad : 0, null, l.ubicacion_id, l.motivo,
  null, l.operacion ?? null,
];

/** Writes lines (batches of 500) and answers their ids in order (only when some line has an origin; else []). */
export async function insertarLineas(trx: Transaction<Database>, docId: number, lineas: readonly LineaValida[], pendiente: boolean): Promise<number[]> {
  for (let i = 0; i < lineas.length; i += CHUNK) {
    await insertarFilas(trx, 'documento_lineas', COLUMNAS_LINEA, lineas.slice(i, i + CHUNK).map((l, j) => filaLinea(docId, i + j + 1, l, pendiente)));
  }
  if (!lineas.some((l) => l.origen_linea_id !== null)) return [];
  const rows = await trx.selectFrom('documento_lineas').select('id').where('documento_id', '=', docId).orderBy('orden').execute();
  return rows.map((r) => r.id);
}

/**
 * insertarLineas for several new documents at once (hfa's invoices): the same rows, in the same order, written in
 * batches of 500 across documents; answers each document's line ids in order.
 */
export async function insertarLineasDe(
  trx: Transaction<Database>,
  docs: readonly { docId: number; lineas: readonly LineaValida[] }[],
  pendiente: boolean,
): Promise<Map<number, number[]>> {
  const filas = docs.flatMap(({ docId, lineas }) => lineas.map((l, i) => filaLinea(docId, i + 1, l, pendiente)));
  for (let i = 0; i < filas.length; i += CHUNK) await insertarFilas(trx, 'documento_lineas', COLUMNAS_LINEA, filas.slice(i, i + CHUNK));
  const ids = new Map<number, number[]>(docs.map((d) => [d.docId, []]));
  for (let i = 0; i < docs.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('documento_lineas')
      .select(['id', 'documento_id'])
      .where('documento_id', 'in', docs.slice(i, i + CHUNK).map((d) => d.docId))
      .orderBy('documento_id')
      .orderBy('orden')
      .execute();
    for (const r of rows) ids.get(r.documento_id)!.push(r.id);
  }
  return ids;
}

/** Totals of a document of this type: commercial documents (with a party) carry IVA and retención; warehouse ones don't. */
export const totalesDe = (def: DocumentoTipoDef, lineas: readonly LineaValida[], retencion: unknown, conRecargo: unknown = 0) =>
  def.tercero
    ? calcularTotales(lineas, { retencion: typeof retencion === 'number' ? retencion : 0, recargo: conRecargo === 1 })
    : calcularTotales(lineas, { iva: false });

const porClave = compiledQuery((db, p: { clave: string }) => db.selectFrom('documentos').select(['id', 'tipo']).where('clave', '=', p.clave));

/** A new document's row (its columns depend on the type): one compiled INSERT per set of columns. */
const insercionesDocumento = new Map<string, (db: Kysely<Database>, p: Record<string, unknown>) => Promise<{ id: number }[]>>();
export async function insertarDocumento(trx: Transaction<Database>, values: Record<string, unknown>): Promise<number> {
  const key = Object.keys(values).join(',');
  let q = insercionesDocumento.get(key);
  if (!q) {
    q = compiledQuery((db, p: Record<string, unknown>) => (db as AnyDb).insertInto('documentos').values(p).returning('id')) as (
      db: Kysely<Database>,
      p: Record<string, unknown>,
    ) => Promise<{ id: number }[]>;
    insercionesDocumento.set(key, q);
  }
  const [created] = await q(trx, values);
  return created.id;
}

/** editar<entidad>: creates (no id; a repeated `clave` returns the first document) or replaces header and lines. */
export async function guardarDocumento(
  app: AppContext,
  def: DocumentoTipoDef,
  effects: TipoEffects,
  input: SaveInput,
  raw: Record<string, unknown>,
  user: SessionUser,
): Promise<Documento> {
  const clave = input.clave ?? null;
  const byClave = async () => {
    if (input.id !== null || !clave) return undefined;
    const [found] = await porClave(app.db, { clave });
    if (!found) return undefined;
    if (found.tipo !== def.tipo) throw invalidFields({ clave: MESSAGES.duplicated });
    return readDocumento(app.db, def, found.id);
  };
  const existing = await byClave();
  if (existing) return existing;

  let id: number;
  try {
    id = await app.db.transaction().execute(async (trx) => {
      const errors: FieldErrors = {};
      let current: DocRow | undefined;
      let anteriores = new Map<number, EnlaceAnterior>();
      if (input.id !== null) {
        current = await lockDocumento(trx, app.dialect, def, input.id);
        // An issued invoice never changes (docs/fiscal.md): RESULT 2, like data that can't be touched.
        if (!def.editable.includes(current.estado)) throw def.series ? fail(MESSAGES.facturaEmitidaInmutable, '2') : fail(MESSAGES.accionNoPermitida, '1');
        // Lines other documents come from (an albarán with a devolución) are not rewritten.
        const child = await sql<{ x: number }>`select 1 as x from documento_enlaces e join documento_lineas l on l.id = e.padre_linea_id
          where l.documento_id = ${current.id} limit 1`.execute(trx);
        if (child.rows.length) throw await conHijos(trx, def, current);
        anteriores = await enlacesDe(trx, current.id);
      }
      const header = input as Infer<Schema>;
      await effects.completar?.({ trx, header });
      // The party first: a sale line's price and discount default to the customer's tarifa and descuento.
      const tercero = await validarTercero(trx, def, header, errors);
      const lineas = await validarLineas(trx, effects, raw.lineas, effects.almacenLineas?.(header) ?? null, errors, anteriores, !!def.negativas, tercero);
      // A sale or purchase line without a location takes the article's usual one in the document's warehouse, as the
      // warehouse documents do: the stock it moves lands where the article is kept, not «sin ubicación».
      const almacenLineas = effects.almacenLineas?.(header) ?? null;
      if (def.tercero && almacenLineas !== null) {
        const sin = lineas.filter((l) => l.ubicacion_id === null);
        const habitual = sin.length ? await ubicacionesHabituales(trx, almacenLineas, sin.map((l) => l.articulo_id)) : new Map<number, number>();
        for (const l of sin) l.ubicacion_id = habitual.get(l.articulo_id) ?? null;
      }
      await validarSerie(trx, def, header.serie_id, errors);
      await validarKits(trx, def, lineas, errors);
      await effects.validate?.({ trx, header, lineas, errors, raw, user });
      const origenes = await validarOrigenes(trx, def, effects.origenes ?? [], header, lineas, anteriores, current?.id ?? null, errors);
      if (Object.keys(errors).length) throw invalidFields(errors);

      const totales = totalesDe(def, lineas, header.retencion, header.con_recargo);
      const now = nowIso();
      const values: Record<string, unknown> = {
        fecha: input.fecha,
        base: totales.base,
        iva: totales.iva,
        recargo: totales.recargo,
        retencion_importe: totales.retencion_importe,
        total: totales.total,
        desglose: JSON.stringify(totales.desglose),
      };
      for (const c of effects.headerColumns) values[c] = input[c] ?? null;
      const ejercicio = Number(input.fecha.slice(0, 4));
      let docId: number;
      let padres: number[] = [];
      if (!current) {
        // Documents are numbered when they are created, except those of a serie (invoices): drafts until issued.
        const numero = def.series ? null : await siguienteNumero(trx, def.tipo, null, ejercicio, input.fecha);
        const serie_id = def.series ? ((values.serie_id as number | null | undefined) ?? null) : null;
        docId = await insertarDocumento(trx, { ...values, tipo: def.tipo, serie_id, numero, ejercicio, estado: def.inicial, clave, creado: now, creado_por: user.id });
      } else {
        docId = current.id;
        if (ejercicio !== current.ejercicio) {
          values.ejercicio = ejercicio;
          if (!def.series) values.numero = await siguienteNumero(trx, def.tipo, null, ejercicio, input.fecha);
        }
        await (trx as AnyDb).updateTable('documentos').set({ ...values, modificado: now, modificado_por: user.id }).where('id', '=', docId).execute();
        if (anteriores.size) padres = await borrarEnlaces(trx, docId);
        await trx.deleteFrom('documento_lineas').where('documento_id', '=', docId).execute();
      }
      const ids = await insertarLineas(trx, docId, lineas, !!def.hijo);
      padres = [...padres, ...(await guardarEnlaces(trx, lineas, ids, origenes))];
      await actualizarEstadoPadres(trx, padres);
      await reabrirFinalizados(trx, app, padres, user);
      if (def.stockAlGuardar) {
        // Dated as the document (docs/costes.md): a document dated in the past moves the stock of that day and revalues
        // what follows it; a new date moves its rows from the old day to the new one.
        await sincronizarStock(trx, app.dialect, def.stockAlGuardar, { tipo: def.tipo, id: docId, almacenId: (values.almacen_id as number | null) ?? null }, null, input.fecha);
        if (def.stockAlGuardar.signo < 0) await comprobarStockNegativo(trx, { documento: { tipo: def.tipo, id: docId } });
      }
      await effects.alGuardar?.({ trx, dialect: app.dialect, docId, raw });
      return docId;
    });
  } catch (err) {
    // The same create sent twice at once: the second finds the first by its key.
    if (!(err instanceof ActionError) && isUniqueViolation(err)) {
      const first = await byClave();
      if (first) return first;
    }
    throw err;
  }
  return (await readDocumento(app.db, def, id))!;
}

/** A document as a message names it: «El albarán de compra AC 2026/000003». */
const nombreDe = (def: DocumentoTipoDef, numero: string, mayuscula = true) =>
  `${def.femenino ? (mayuscula ? 'La' : 'la') : mayuscula ? 'El' : 'el'} ${def.singular.toLowerCase()} ${numero}`;

/**
 * Issue 17: a refusal because of what depends on the document names it and says what to do, instead of the generic
 * «existen datos asociados»: the first document made from its lines.
 */
async function conHijos(trx: Transaction<Database>, def: DocumentoTipoDef, doc: DocRow): Promise<ActionError> {
  const { rows } = await sql<{ tipo: string; ejercicio: number; numero: number | null; serie_codigo: string | null }>`
    select cd.tipo, cd.ejercicio, cd.numero, s.codigo as serie_codigo from documento_enlaces e
    join documento_lineas l on l.id = e.padre_linea_id join documento_lineas c on c.id = e.linea_id
    join documentos cd on cd.id = c.documento_id left join series s on s.id = cd.serie_id
    where l.documento_id = ${doc.id} order by cd.id limit 1`.execute(trx);
  const h = rows[0];
  const hdef = h ? DOCUMENTO_TIPOS[h.tipo as DocumentoTipo] : undefined;
  if (!h || !hdef) return fail(TOASTS.associated.text, '2');
  const plantilla = hdef.femenino ? MESSAGES.documentoConHijas : MESSAGES.documentoConHijos;
  return fail(plantilla.replace('{documento}', nombreDe(def, numeroDeTipo(def.tipo, doc))).replace('{hijo}', nombreDe(hdef, numeroDeTipo(h.tipo, h), false)), '2');
}

/** Why a document can't be removed in its state: reconciled with a supplier invoice, finished, or not allowed. */
async function noEliminable(trx: Transaction<Database>, def: DocumentoTipoDef, doc: DocRow): Promise<ActionError> {
  const nombre = nombreDe(def, numeroDeTipo(def.tipo, doc));
  const f = await trx
    .selectFrom('facturas_proveedor_documentos as fd')
    .innerJoin('facturas_proveedor as f', 'f.id', 'fd.factura_id')
    .select('f.numero_proveedor')
    .where('fd.documento_id', '=', doc.id)
    .executeTakeFirst();
  if (f) return fail(MESSAGES.documentoConciliadoEnFactura.replace('{documento}', nombre).replace('{factura}', f.numero_proveedor), '2');
  if (doc.estado === 'finalizado') return fail(MESSAGES.documentoFinalizadoDeshacer.replace('{documento}', nombre), '2');
  return fail(MESSAGES.accionNoPermitida, '2');
}

/**
 * Removes a document inside `trx`: only in an `eliminable` state, without children, and never once one of
 * its own actions has moved stock (the ledger refers to it). Stock it moved on save is reversed (the
 * difference to nothing); the pending units its lines took from their parents are given back.
 */
export async function borrarDocumento(
  trx: Transaction<Database>,
  dialect: DialectName,
  def: DocumentoTipoDef,
  id: number,
  hoy: string,
  /** Who deletes it (eliminar<entidad>): a finished parent it gives units back to is reopened in their name. */
  quien?: { app: Pick<AppContext, 'dialect' | 'timeZone'>; user: SessionUser },
): Promise<void> {
  const doc = await lockDocumento(trx, dialect, def, id);
  if (!def.eliminable.includes(doc.estado)) throw def.series ? fail(MESSAGES.facturaEmitidaInmutable, '2') : await noEliminable(trx, def, doc);
  const moved = await sql<{ x: number }>`select 1 as x from stock_movimientos m join documento_acciones a on a.id = m.accion_id
    where a.documento_id = ${id} limit 1`.execute(trx);
  if (moved.rows.length) throw fail(MESSAGES.documentoConHistorial, '2');
  const child = await sql<{ x: number }>`select 1 as x from documento_enlaces e join documento_lineas l on l.id = e.padre_linea_id
    where l.documento_id = ${id} limit 1`.execute(trx);
  if (child.rows.length) throw await conHijos(trx, def, doc);
  if (def.stockAlGuardar) await sincronizarStock(trx, dialect, def.stockAlGuardar, { tipo: def.tipo, id, almacenId: null }, null, hoy);
  const padres = await borrarEnlaces(trx, id);
  await actualizarEstadoPadres(trx, padres);
  if (quien) await reabrirFinalizados(trx, quien.app, padres, quien.user);
  await trx.deleteFrom('documento_lineas').where('documento_id', '=', id).execute();
  await trx.deleteFrom('documento_acciones').where('documento_id', '=', id).execute();
  await efectosDe(def.tipo)?.alBorrar?.({ trx, docId: id });
  await trx.deleteFrom('documentos').where('id', '=', id).execute();
}

/** eliminar<entidad>. */
export async function eliminarDocumento(app: AppContext, def: DocumentoTipoDef, id: number, user?: SessionUser): Promise<void> {
  await app.db.transaction().execute((trx) => borrarDocumento(trx, app.dialect, def, id, todayIn(app.timeZone), user && { app, user }));
}
