import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import { MAX_LINEAS, MESSAGES, TOASTS, calcularTotales, numeroDocumento } from 'shared/domain';
import type {
  AccionDef,
  Documento,
  DocumentoAccionLog,
  DocumentoLinea,
  DocumentoTipoDef,
  FieldErrors,
  FlagName,
  Infer,
  Schema,
  TipoIva,
  Verbo,
} from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { contains, isUniqueViolation, listSchema, paging } from '../actions/common.ts';
import { ActionError, defineAction, fail, invalidFields } from '../actions/registry.ts';
import type { Action } from '../actions/registry.ts';
import type { SessionUser } from '../session.ts';
import { addToLines, reverseLedger } from './ledger.ts';
import { costeMedioSql } from './sql.ts';

/**
 * The document engine (docs/documents.md): one generic listado / editar / eliminar / <verbo> per
 * document type, generated from its row of DOCUMENTO_TIPOS (shared/domain/documentos.ts) and the
 * type's effects. Every action runs in one transaction: read the state from the table, check the
 * states-and-actions table, apply the effects (ledger rows, pending quantities), log the action,
 * set the state. Undo (an action with `undoes`) is generic: it reverses the latest not-undone run
 * of the verb it undoes.
 */

export type DocRow = {
  id: number;
  tipo: string;
  estado: string;
  fecha: string;
  ejercicio: number;
  numero: number | null;
  serie_id: number | null;
  almacen_id: number | null;
  almacen_destino_id: number | null;
  familia_id: number | null;
  ubicacion_id: number | null;
};

/** What an action left to restore on its undo, stored as JSON in documento_acciones.detalle. */
export type Detalle = {
  /** [line id, delta applied to its pendiente]. */
  pendiente?: [number, number][];
  /** The action set the lines' teorico (inventario): its undo clears it. */
  teorico?: true;
};

export type EffectContext = {
  trx: Transaction<Database>;
  dialect: DialectName;
  def: DocumentoTipoDef;
  accion: AccionDef;
  doc: DocRow;
  /** The documento_acciones row of this run: every ledger row carries it. */
  accionId: number;
  /** Business date of the action (aaaa-mm-dd): the ledger rows' fecha. */
  hoy: string;
  /** porLineas actions: the quantities asked per line id (absent lines 0); null = everything pending. */
  lineas: Map<number, number> | null;
};

export type EffectResult = { estado?: string; detalle?: Detalle };

/** A line as the engine validated it, before it is written. */
export type LineaValida = {
  articulo_id: number;
  codigo: string;
  descripcion: string;
  tipo_iva: TipoIva;
  familia_id: number | null;
  cantidad: number;
  precio: number;
  descuento: number;
  ubicacion_id: number | null;
  motivo: string | null;
};

export type ValidateContext<S extends Schema> = {
  trx: Transaction<Database>;
  header: Infer<S>;
  lineas: LineaValida[];
  errors: FieldErrors;
};

/** What a document type adds to the engine besides its row of DOCUMENTO_TIPOS. */
export type TipoEffects<S extends Schema = Schema> = {
  /** Header fields of editar<entidad> (lines travel apart, as `lineas`). */
  schema: S;
  /** Header columns written from the input (validated by `schema`). */
  headerColumns: readonly string[];
  /** Whether a line may have quantity 0 (inventario: counted nothing). */
  cantidadCero?: boolean;
  /** Header warehouse whose locations the lines may use. */
  almacenLineas?: (header: Infer<S>) => number | null;
  /** Type-specific checks of header and lines, adding to ctx.errors (keys `campo` or `lineas.N.campo`). */
  validate?(ctx: ValidateContext<S>): Promise<void>;
  /** The effects of each verb that is not an undo. */
  acciones: Partial<Record<Verbo, (ctx: EffectContext) => Promise<EffectResult>>>;
};

// biome-ignore lint/suspicious/noExplicitAny: the engine's SQL is generic over document types
type AnyDb = Kysely<any>;

const DOC_COLUMNS = [
  'd.id', 'd.tipo', 'd.serie_id', 'd.numero', 'd.ejercicio', 'd.fecha', 'd.estado', 'd.almacen_id', 'd.almacen_destino_id', 'd.familia_id',
  'd.ubicacion_id', 'd.cliente_id', 'd.proveedor_id', 'd.forma_pago', 'd.fecha_entrega', 'd.retencion', 'd.con_recargo', 'd.observaciones',
  'd.base', 'd.iva', 'd.recargo', 'd.retencion_importe', 'd.total', 'd.desglose', 'd.clave', 'd.creado', 'd.modificado',
] as const;

type HeaderRow = Record<string, unknown> & { numero: number | null; ejercicio: number; desglose: string | null };

function toDocumento(def: DocumentoTipoDef, row: HeaderRow): Documento {
  const { desglose, numero, ...rest } = row;
  return {
    ...(rest as Omit<Documento, 'numero' | 'desglose'>),
    numero: numeroDocumento(def.prefijo, row.ejercicio, numero),
    desglose: desglose ? JSON.parse(desglose) : [],
  };
}

function selectHeader(db: AnyDb) {
  return db
    .selectFrom('documentos as d')
    .leftJoin('almacenes as ao', 'ao.id', 'd.almacen_id')
    .leftJoin('almacenes as ad', 'ad.id', 'd.almacen_destino_id')
    .select([...DOC_COLUMNS, 'ao.nombre as almacen_nombre', 'ad.nombre as almacen_destino_nombre']);
}

/** One document as `listado<plural>&id=` answers it: header, lines (by orden) and history. */
export async function readDocumento(db: Kysely<Database>, def: DocumentoTipoDef, id: number): Promise<Documento | undefined> {
  const row = await selectHeader(db as AnyDb)
    .leftJoin('familias as f', 'f.id', 'd.familia_id')
    .leftJoin('ubicaciones as u', 'u.id', 'd.ubicacion_id')
    .leftJoin('usuarios as uc', 'uc.id', 'd.creado_por')
    .select(['f.nombre as familia_nombre', 'u.codigo as ubicacion_codigo', 'uc.nombre as creado_por_nombre'])
    .where('d.id', '=', id)
    .where('d.tipo', '=', def.tipo)
    .executeTakeFirst();
  if (!row) return undefined;
  const lineas = (await db
    .selectFrom('documento_lineas as l')
    .leftJoin('ubicaciones as u', 'u.id', 'l.ubicacion_id')
    .select([
      'l.id', 'l.orden', 'l.articulo_id', 'l.codigo', 'l.descripcion', 'l.tipo_iva', 'l.cantidad', 'l.precio', 'l.descuento', 'l.pendiente',
      'l.ubicacion_id', 'u.codigo as ubicacion_codigo', 'l.motivo', 'l.teorico',
    ])
    .where('l.documento_id', '=', id)
    .orderBy('l.orden')
    .orderBy('l.id')
    .execute()) as DocumentoLinea[];
  const historial = (await db
    .selectFrom('documento_acciones as a')
    .leftJoin('usuarios as us', 'us.id', 'a.usuario_id')
    .select(['a.id', 'a.accion', 'a.fecha', 'us.nombre as usuario_nombre', 'a.deshecha_por'])
    .where('a.documento_id', '=', id)
    .orderBy('a.id')
    .execute()) as DocumentoAccionLog[];
  return { ...toDocumento(def, row as HeaderRow), num_lineas: lineas.length, lineas, historial };
}

const toInt = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
};

const CHUNK = 500;

/** Validates `lineas` of editar<entidad> and completes them from the articles (one query per 500 ids). */
async function validarLineas(
  trx: Transaction<Database>,
  dialect: DialectName,
  effects: TipoEffects,
  raw: unknown,
  almacenLineas: number | null,
  errors: FieldErrors,
): Promise<LineaValida[]> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.lineas = MESSAGES.invalidList;
    return [];
  }
  if (raw.length > MAX_LINEAS) {
    errors.lineas = MESSAGES.demasiadasLineas;
    return [];
  }
  type Parsed = { articulo_id: number | null; cantidad: number | null; precio: number | null; descuento: number; ubicacion_id: number | null; motivo: string | null; descripcion: string | null };
  const parsed: Parsed[] = raw.map((item, i) => {
    const l = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const key = (f: string) => `lineas.${i}.${f}`;
    const articulo_id = toInt(l.articulo_id);
    if (articulo_id === null || articulo_id < 1) errors[key('articulo_id')] = MESSAGES.articuloNoExiste;
    const cantidad = toInt(l.cantidad);
    const min = effects.cantidadCero ? 0 : 1;
    if (cantidad === null || cantidad < min || cantidad > 1e12) {
      errors[key('cantidad')] = effects.cantidadCero ? MESSAGES.cantidadNoNegativa : MESSAGES.cantidadMayorQueCero;
    }
    let precio: number | null = null;
    if (l.precio !== undefined && l.precio !== null && l.precio !== '') {
      precio = toInt(l.precio);
      if (precio === null || precio < 0 || precio > 1e13) errors[key('precio')] = MESSAGES.invalidNumber;
    }
    let descuento = 0;
    if (l.descuento !== undefined && l.descuento !== null && l.descuento !== '') {
      const d = toInt(l.descuento);
      if (d === null || d < 0 || d > 10000) errors[key('descuento')] = MESSAGES.invalidNumber;
      else descuento = d;
    }
    let ubicacion_id: number | null = null;
    if (l.ubicacion_id !== undefined && l.ubicacion_id !== null && l.ubicacion_id !== '') {
      ubicacion_id = toInt(l.ubicacion_id);
      if (ubicacion_id === null || ubicacion_id < 1) errors[key('ubicacion_id')] = MESSAGES.ubicacionOtroAlmacen;
    }
    const motivo = typeof l.motivo === 'string' && l.motivo !== '' ? l.motivo : null;
    const descripcion = typeof l.descripcion === 'string' && l.descripcion.trim() !== '' ? l.descripcion.trim().slice(0, 200) : null;
    return { articulo_id, cantidad, precio, descuento, ubicacion_id, motivo, descripcion };
  });

  // The articles, with their average cost (the default unit cost of warehouse lines).
  const ids = [...new Set(parsed.map((p) => p.articulo_id).filter((id): id is number => id !== null && id > 0))];
  const articulos = new Map<number, { codigo: string; descripcion: string; tipo_iva: TipoIva; familia_id: number | null; coste: number }>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await (trx as AnyDb)
      .selectFrom('articulos as a')
      .select(['a.id', 'a.codigo', 'a.descripcion', 'a.tipo_iva', 'a.familia_id'])
      .select(costeMedioSql(dialect, 'a').as('coste'))
      .where('a.id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) articulos.set(r.id, { ...r, coste: Number(r.coste) });
  }
  const ubIds = [...new Set(parsed.map((p) => p.ubicacion_id).filter((id): id is number => id !== null && id > 0))];
  const ubicaciones = new Map<number, number>();
  for (let i = 0; i < ubIds.length; i += CHUNK) {
    const rows = await trx.selectFrom('ubicaciones').select(['id', 'almacen_id']).where('id', 'in', ubIds.slice(i, i + CHUNK)).execute();
    for (const r of rows) ubicaciones.set(r.id, r.almacen_id);
  }
  return parsed.map((p, i) => {
    const a = p.articulo_id !== null ? articulos.get(p.articulo_id) : undefined;
    if (!a && !errors[`lineas.${i}.articulo_id`]) errors[`lineas.${i}.articulo_id`] = MESSAGES.articuloNoExiste;
    if (p.ubicacion_id !== null && ubicaciones.get(p.ubicacion_id) !== almacenLineas) errors[`lineas.${i}.ubicacion_id`] = MESSAGES.ubicacionOtroAlmacen;
    return {
      articulo_id: p.articulo_id ?? 0,
      codigo: a?.codigo ?? '',
      descripcion: p.descripcion ?? a?.descripcion ?? '',
      tipo_iva: a?.tipo_iva ?? '21',
      familia_id: a?.familia_id ?? null,
      cantidad: p.cantidad ?? 0,
      precio: p.precio ?? a?.coste ?? 0,
      descuento: p.descuento,
      ubicacion_id: p.ubicacion_id,
      motivo: p.motivo,
    };
  });
}

/** The next number of (tipo, serie, ejercicio): the counter row is locked by the UPDATE until the transaction ends. */
export async function siguienteNumero(trx: Transaction<Database>, tipo: string, serieId: number | null, ejercicio: number, fecha: string): Promise<number> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const { rows } = await sql<{ ultimo: number }>`update contadores set ultimo = ultimo + 1,
        ultima_fecha = case when ultima_fecha is null or ultima_fecha < ${fecha} then ${fecha} else ultima_fecha end
      where tipo = ${tipo} and serie_id = ${serieId ?? 0} and ejercicio = ${ejercicio} returning ultimo`.execute(trx);
    if (rows[0]) return Number(rows[0].ultimo);
    await trx
      .insertInto('contadores')
      .values({ tipo, serie_id: serieId ?? 0, ejercicio, ultimo: 0, ultima_fecha: null })
      .onConflict((oc) => oc.columns(['tipo', 'serie_id', 'ejercicio']).doNothing())
      .execute();
  }
  throw new Error('contador');
}

/** The document row, locked for the rest of the transaction on PostgreSQL (SQLite runs one writer at a time). */
async function lockDocumento(trx: Transaction<Database>, dialect: DialectName, def: DocumentoTipoDef, id: number): Promise<DocRow> {
  const doc = await trx
    .selectFrom('documentos')
    .select(['id', 'tipo', 'estado', 'fecha', 'ejercicio', 'numero', 'serie_id', 'almacen_id', 'almacen_destino_id', 'familia_id', 'ubicacion_id'])
    .where('id', '=', id)
    .where('tipo', '=', def.tipo)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (!doc) throw fail(MESSAGES.notFound, '3');
  return doc;
}

type SaveInput = { id: number | null; fecha: string; clave?: string | null } & Record<string, unknown>;

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
    const found = await app.db.selectFrom('documentos').select(['id', 'tipo']).where('clave', '=', clave).executeTakeFirst();
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
      if (input.id !== null) {
        current = await lockDocumento(trx, app.dialect, def, input.id);
        if (!def.editable.includes(current.estado)) throw fail(MESSAGES.accionNoPermitida, '1');
      }
      const header = input as Infer<Schema>;
      const lineas = await validarLineas(trx, app.dialect, effects, raw.lineas, effects.almacenLineas?.(header) ?? null, errors);
      await effects.validate?.({ trx, header, lineas, errors });
      if (Object.keys(errors).length) throw invalidFields(errors);

      const totales = calcularTotales(lineas, { iva: false });
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
      if (!current) {
        // Warehouse documents are numbered when they are created (no draft stage).
        const numero = await siguienteNumero(trx, def.tipo, null, ejercicio, input.fecha);
        const created = await (trx as AnyDb)
          .insertInto('documentos')
          .values({ ...values, tipo: def.tipo, serie_id: null, numero, ejercicio, estado: def.inicial, clave, creado: now, creado_por: user.id })
          .returning('id')
          .executeTakeFirstOrThrow();
        docId = created.id as number;
      } else {
        docId = current.id;
        if (ejercicio !== current.ejercicio) {
          values.ejercicio = ejercicio;
          values.numero = await siguienteNumero(trx, def.tipo, null, ejercicio, input.fecha);
        }
        await (trx as AnyDb).updateTable('documentos').set({ ...values, modificado: now, modificado_por: user.id }).where('id', '=', docId).execute();
        await trx.deleteFrom('documento_lineas').where('documento_id', '=', docId).execute();
      }
      for (let i = 0; i < lineas.length; i += CHUNK) {
        await trx
          .insertInto('documento_lineas')
          .values(
            lineas.slice(i, i + CHUNK).map((l, j) => ({
              documento_id: docId,
              orden: i + j + 1,
              articulo_id: l.articulo_id,
              codigo: l.codigo,
              descripcion: l.descripcion,
              tipo_iva: l.tipo_iva,
              cantidad: l.cantidad,
              precio: l.precio,
              descuento: l.descuento,
              almacen_id: null,
              ubicacion_id: l.ubicacion_id,
              motivo: l.motivo,
              teorico: null,
            })),
          )
          .execute();
      }
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

/** eliminar<entidad>: only in an `eliminable` state, and never once an action has run on it (the ledger refers to it). */
export async function eliminarDocumento(app: AppContext, def: DocumentoTipoDef, id: number): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const doc = await lockDocumento(trx, app.dialect, def, id);
    if (!def.eliminable.includes(doc.estado)) throw fail(MESSAGES.accionNoPermitida, '2');
    const acted = await trx.selectFrom('documento_acciones').select('id').where('documento_id', '=', id).limit(1).executeTakeFirst();
    if (acted) throw fail(MESSAGES.documentoConHistorial, '2');
    const child = await sql<{ x: number }>`select 1 as x from documento_enlaces e join documento_lineas l on l.id = e.padre_linea_id
      where l.documento_id = ${id} limit 1`.execute(trx);
    if (child.rows.length) throw fail(TOASTS.associated.text, '2');
    await sql`delete from documento_enlaces where linea_id in (select id from documento_lineas where documento_id = ${id})`.execute(trx);
    await trx.deleteFrom('documento_lineas').where('documento_id', '=', id).execute();
    await trx.deleteFrom('documentos').where('id', '=', id).execute();
  });
}

/** Parses `lineas: [{id, cantidad}]` of a porLineas action. */
function cantidadesPorLinea(raw: unknown): Map<number, number> | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) throw invalidFields({ lineas: MESSAGES.invalidList });
  const out = new Map<number, number>();
  const errors: FieldErrors = {};
  raw.forEach((item, i) => {
    const l = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const id = toInt(l.id);
    const cantidad = toInt(l.cantidad);
    if (id === null || id < 1) errors[`lineas.${i}.id`] = MESSAGES.lineaOtroDocumento;
    if (cantidad === null || cantidad < 0) errors[`lineas.${i}.cantidad`] = MESSAGES.cantidadNoNegativa;
    if (id !== null && cantidad !== null) out.set(id, (out.get(id) ?? 0) + cantidad);
  });
  if (Object.keys(errors).length) throw invalidFields(errors);
  return out;
}

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
  await app.db.transaction().execute(async (trx) => {
    const doc = await lockDocumento(trx, app.dialect, def, id);
    if (!accion.from.includes(doc.estado)) throw fail(MESSAGES.accionNoPermitida, '1');
    const hoy = todayIn(app.timeZone);
    const log = await trx
      .insertInto('documento_acciones')
      .values({ documento_id: id, accion: accion.verbo, fecha: nowIso(), usuario_id: user.id, estado_antes: doc.estado, detalle: null, deshecha_por: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    let estado: string;
    if (accion.undoes) {
      const target = await trx
        .selectFrom('documento_acciones')
        .select(['id', 'estado_antes', 'detalle'])
        .where('documento_id', '=', id)
        .where('accion', '=', accion.undoes)
        .where('deshecha_por', 'is', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!target) throw fail(MESSAGES.accionNoPermitida, '1');
      await reverseLedger(trx, target.id, log.id, hoy);
      const detalle = (target.detalle ? JSON.parse(target.detalle) : {}) as Detalle;
      if (detalle.pendiente) await addToLines(trx, 'pendiente', detalle.pendiente.map(([lineId, d]) => [lineId, -d] as const));
      if (detalle.teorico) await trx.updateTable('documento_lineas').set({ teorico: null }).where('documento_id', '=', id).execute();
      await trx.updateTable('documento_acciones').set({ deshecha_por: log.id }).where('id', '=', target.id).execute();
      estado = target.estado_antes;
    } else {
      const effect = effects.acciones[accion.verbo];
      const result = effect ? await effect({ trx, dialect: app.dialect, def, accion, doc, accionId: log.id, hoy, lineas }) : {};
      estado = result.estado ?? accion.to ?? doc.estado;
      if (result.detalle && Object.keys(result.detalle).length) {
        await trx.updateTable('documento_acciones').set({ detalle: JSON.stringify(result.detalle) }).where('id', '=', log.id).execute();
      }
    }
    await trx.updateTable('documentos').set({ estado, modificado: nowIso(), modificado_por: user.id }).where('id', '=', id).execute();
  });
  return (await readDocumento(app.db, def, id))!;
}

const FILTROS = {
  estado: { type: 'string', max: 40 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
  almacen_id: { type: 'int', min: 1 },
} as const satisfies Schema;

/** listado<plural>: a page of the type's documents (or one with `id`), with the filtered rows' total value. */
async function listadoDocumentos(app: AppContext, def: DocumentoTipoDef, input: Infer<ReturnType<typeof listSchema<readonly ['fecha', 'numero', 'estado']>> & typeof FILTROS>) {
  if (input.id !== null) {
    const doc = await readDocumento(app.db, def, input.id);
    if (!doc) throw fail(MESSAGES.notFound, '3');
    return { RESULT: '0' as const, data: [doc], total: 1 };
  }
  const db = app.db as AnyDb;
  const filters: RawBuilder<boolean>[] = [sql<boolean>`d.tipo = ${def.tipo}`];
  if (input.q) {
    const n = /^\d{1,9}$/.test(input.q.trim()) ? Number(input.q.trim()) : /\/0*(\d{1,9})$/.exec(input.q.trim())?.[1];
    filters.push(
      n !== undefined ? sql<boolean>`(d.numero = ${Number(n)} or ${contains('d.observaciones', input.q)})` : contains('d.observaciones', input.q),
    );
  }
  if (input.estado) filters.push(sql<boolean>`d.estado = ${input.estado}`);
  if (input.desde) filters.push(sql<boolean>`d.fecha >= ${input.desde}`);
  if (input.hasta) filters.push(sql<boolean>`d.fecha <= ${input.hasta}`);
  if (input.almacen_id !== null) filters.push(sql<boolean>`(d.almacen_id = ${input.almacen_id} or d.almacen_destino_id = ${input.almacen_id})`);
  const where = sql<boolean>`${sql.join(filters, sql` and `)}`;
  const sums = await db
    .selectFrom('documentos as d')
    .select([sql<number>`count(*)`.as('n'), sql<string>`cast(coalesce(sum(d.total), 0) as text)`.as('total')])
    .where(where)
    .executeTakeFirstOrThrow();
  const p = paging(input);
  const orden = input.orden === 'numero' ? ['d.ejercicio', 'd.numero'] : [`d.${input.orden ?? 'fecha'}`];
  let page = selectHeader(db)
    .select(sql<number>`(select count(*) from documento_lineas l where l.documento_id = d.id)`.as('num_lineas'))
    .where(where);
  for (const c of orden) page = page.orderBy(c, p.dir);
  const rows = await page.orderBy('d.id', p.dir).limit(p.limit).offset(p.offset).execute();
  return {
    RESULT: '0' as const,
    data: rows.map((r) => ({ ...toDocumento(def, r as HeaderRow), num_lineas: Number(r.num_lineas) })),
    total: Number(sums.n),
    totales: { total: Number(sums.total) },
  };
}

const idInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

/** Editing a large count (20.000 lines) needs more than Fastify's 1 MiB. */
const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

/** The op.asp actions of one document type: listado<plural>, editar / eliminar<entidad>, and one per verb of its table. */
export function documentoActions<S extends Schema>(def: DocumentoTipoDef, effects: TipoEffects<S>): Action<Schema>[] {
  const eff = effects as unknown as TipoEffects;
  const flags = [...def.flags] as FlagName[];
  const listInput = { ...listSchema(['fecha', 'numero', 'estado'] as const), ...FILTROS } as const satisfies Schema;
  return [
    defineAction({
      name: `listado${def.plural}`,
      method: 'GET',
      flags,
      input: listInput,
      handler: async ({ input, app }) => listadoDocumentos(app, def, input),
    }),
    defineAction({
      name: `editar${def.entidad}`,
      method: 'POST',
      flags,
      input: effects.schema,
      bodyLimit: EDIT_BODY_LIMIT,
      async handler({ input, raw, app, user }) {
        const doc = await guardarDocumento(app, def, eff, input as unknown as SaveInput, raw, user!);
        return { RESULT: '0', data: [doc] };
      },
    }),
    defineAction({
      name: `eliminar${def.entidad}`,
      method: 'POST',
      flags,
      input: idInput,
      async handler({ input, app }) {
        await eliminarDocumento(app, def, input.id);
        return { RESULT: '0', data: [{ id: input.id }] };
      },
    }),
    ...def.acciones.map((accion) =>
      defineAction({
        name: `${accion.verbo}${def.entidad}`,
        method: 'POST',
        flags: accion.flag ? [...flags, accion.flag] : flags,
        input: idInput,
        async handler({ input, raw, app, user }) {
          const doc = await ejecutarAccion(app, def, eff, accion, input.id, raw, user!);
          return { RESULT: '0', data: [doc] };
        },
      }),
    ),
  ];
}
