import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, numeroDe, numeroDocumento } from 'shared/domain';
import type { Documento, DocumentoAccionLog, DocumentoLinea, DocumentoTipo, DocumentoTipoDef, Infer, Schema } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { todayIn } from '../context.ts';
import { contains, paging } from '../db/consulta.ts';
import type { listSchema } from '../db/consulta.ts';
import type { DialectName } from '../db/index.ts';
import { compiledQuery } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { completarEmision } from './emisionGuardada.ts';
import { dialectOf } from './sql.ts';
import { TERCERO_TABLA, efectosDe } from './tipos.ts';
import type { AnyDb, DocRow } from './tipos.ts';

/** Reading documents: one by id (header, lines, history, linked documents), a page of a type's, one locked for an action. */

const DOC_COLUMNS = [
  'd.id', 'd.tipo', 'd.serie_id', 'd.numero', 'd.ejercicio', 'd.fecha', 'd.estado', 'd.almacen_id', 'd.almacen_destino_id', 'd.familia_id',
  'd.ubicacion_id', 'd.cliente_id', 'd.proveedor_id', 'd.forma_pago', 'd.fecha_entrega', 'd.retencion', 'd.con_recargo', 'd.observaciones',
  'd.observaciones_cliente',
  'd.base', 'd.iva', 'd.recargo', 'd.retencion_importe', 'd.total', 'd.desglose', 'd.clave', 'd.creado', 'd.modificado',
  'd.tipo_factura', 'd.factura_id', 'd.modo_rectificacion', 'd.cobro_fecha', 'd.cobro_forma', 'd.usuario_id', 'd.emision', 'd.fecha_operacion',
  'd.tipo_factura', 'd.factura_id', 'd.modo_rectificacion', 'd.cobro_fecha', 'd.cobro_forma', 'd.usuario_id',
  'd.por_cobrar', 'd.plazos_cubiertos', 'd.albaran_proveedor',
  // Issue 16: the further invoices a rectificativa corrects (JSON array of ids).
  'd.facturas_rectificadas',
] as const;

type HeaderRow = Record<string, unknown> & { numero: number | null; ejercicio: number; desglose: string | null; serie_codigo?: string | null };

/** The displayed number of a document of any type (a linked one), from its serie's code when the type has series. */
export function numeroDeTipo(tipo: string, r: { ejercicio: number; numero: number | null; serie_codigo?: string | null }): string {
  const def = DOCUMENTO_TIPOS[tipo as DocumentoTipo];
  return def ? numeroDe(def, r) : numeroDocumento('', r.ejercicio, r.numero);
}

function toDocumento(def: DocumentoTipoDef, row: HeaderRow): Documento {
  // In place: the row is the driver's own object, and copying its 30-odd columns (twice, with a rest and a
  // spread) cost as much per list page as the query itself.
  const doc = row as Record<string, unknown>;
  doc.numero = numeroDe(def, row);
  doc.desglose = row.desglose ? JSON.parse(row.desglose) : [];
  // Issue 16: the parties as they were at emission.
  doc.emision = typeof row.emision === 'string' ? JSON.parse(row.emision) : null;
  // The invoice a rectificativa corrects, by its displayed number (numerosCorregidas fills it in).
  if (def.series) doc.factura_numero = null;
  return doc as unknown as Documento;
}

/**
 * The displayed number of the invoice each rectificativa among `docs` corrects (factura_numero): one lookup by id for
 * the rows that have one (most have none: then no query). Apart from the header's query, whose joins PostgreSQL
 * would plan on every call.
 */
async function numerosCorregidas(db: Kysely<Database>, docs: readonly Documento[]): Promise<void> {
  const conFactura = docs.filter((d) => d.factura_id !== null && d.factura_id !== undefined);
  if (!conFactura.length) return;
  const ids = [...new Set(conFactura.map((d) => d.factura_id as number))];
  const rows = await db
    .selectFrom('documentos as fd')
    .leftJoin('series as fse', 'fse.id', 'fd.serie_id')
    .select(['fd.id', 'fd.tipo', 'fd.ejercicio', 'fd.numero', sql<string | null>`coalesce(fd.serie_codigo, fse.codigo)`.as('serie_codigo')])
    .where('fd.id', 'in', ids)
    .execute();
  const numeros = new Map(rows.map((r) => [r.id, numeroDeTipo(r.tipo, r)]));
  for (const d of conFactura) d.factura_numero = numeros.get(d.factura_id as number) ?? null;
}

/**
 * The header of a document: its columns, and the names of what it refers to as scalar subqueries rather than
 * joins — the same answer (each by primary key, null when there is none), but PostgreSQL plans a dozen joined
 * tables on every call (≈ 2 ms; Kysely's statements are unnamed), and subqueries one by one in microseconds.
 */
function selectHeader(db: AnyDb, def: DocumentoTipoDef) {
  let q = db
    .selectFrom('documentos as d')
    .select([
      ...DOC_COLUMNS,
      sql<string | null>`(select ao.nombre from almacenes ao where ao.id = d.almacen_id)`.as('almacen_nombre'),
      sql<string | null>`(select ad.nombre from almacenes ad where ad.id = d.almacen_destino_id)`.as('almacen_destino_nombre'),
      // Who did the work (partes de trabajo; null for the rest).
      sql<string | null>`(select uw.nombre from usuarios uw where uw.id = d.usuario_id)`.as('usuario_nombre'),
    ]);
  // The serie's code (the displayed number).
  // An issued one's code is the one it was issued with (issue 16).
  if (def.series) q = q.select(sql<string | null>`coalesce(d.serie_codigo, (select se.codigo from series se where se.id = d.serie_id))`.as('serie_codigo'));
  if (!def.tercero) return q;
  // The party's name and NIF: proveedor_nombre / proveedor_nif (cliente_… for sales).
  const t = def.tercero;
  return q
    .leftJoin(`${TERCERO_TABLA[t]} as te`, 'te.id', `d.${t}_id`)
    .select([`te.razon_social as ${t}_nombre`, `te.nif as ${t}_nif`]);
}

/** Documents linked to `id`'s lines: its children (hijos) or its parents (padres), with their displayed numbers. */
async function documentosEnlazados(db: Kysely<Database>, id: number, lado: 'hijos' | 'padres') {
  const [mine, other] = lado === 'hijos' ? ['padre_linea_id', 'linea_id'] : ['linea_id', 'padre_linea_id'];
  const { rows } = await sql<{ id: number; tipo: string; ejercicio: number; numero: number | null; serie_codigo: string | null; fecha: string; estado: string }>`
    select distinct d.id, d.tipo, d.ejercicio, d.numero, coalesce(d.serie_codigo, s.codigo) as serie_codigo, d.fecha, d.estado
    from documento_lineas l
    join documento_enlaces e on e.${sql.raw(mine)} = l.id
    join documento_lineas o on o.id = e.${sql.raw(other)}
    join documentos d on d.id = o.documento_id
    left join series s on s.id = d.serie_id
    where l.documento_id = ${id} order by d.id`.execute(db);
  return rows.map((r) => ({ tipo: r.tipo, id: r.id, numero: numeroDeTipo(r.tipo, r), fecha: r.fecha, estado: r.estado }));
}

/** The header of one document of `def` by id (a compiled statement per type). */
const cabeceras = new Map<string, (db: Kysely<Database>, p: { id: number }) => Promise<HeaderRow[]>>();
function leerCabecera(def: DocumentoTipoDef) {
  let q = cabeceras.get(def.tipo);
  if (!q) {
    q = compiledQuery((db, p: { id: number }) =>
      selectHeader(db as AnyDb, def)
        .select([
          sql<string | null>`(select f.nombre from familias f where f.id = d.familia_id)`.as('familia_nombre'),
          sql<string | null>`(select u.codigo from ubicaciones u where u.id = d.ubicacion_id)`.as('ubicacion_codigo'),
          sql<string | null>`(select uc.nombre from usuarios uc where uc.id = d.creado_por)`.as('creado_por_nombre'),
          sql<string | null>`(select um.nombre from usuarios um where um.id = d.modificado_por)`.as('modificado_por_nombre'),
        ])
        .where('d.id', '=', p.id)
        .where('d.tipo', '=', def.tipo),
    ) as (db: Kysely<Database>, p: { id: number }) => Promise<HeaderRow[]>;
    cabeceras.set(def.tipo, q);
  }
  return q;
}

/** A document's lines by orden, with their links: the parent line each comes from, and what children take of it. */
const leerLineas = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('documento_lineas as l')
    .leftJoin('ubicaciones as u', 'u.id', 'l.ubicacion_id')
    .select([
      'l.id', 'l.orden', 'l.articulo_id', 'l.codigo', 'l.descripcion', 'l.tipo_iva', 'l.cantidad', 'l.precio', 'l.descuento', 'l.pendiente',
      'l.ubicacion_id', 'u.codigo as ubicacion_codigo', 'l.motivo', 'l.teorico', 'l.operacion',
      // Links: the parent line it comes from, and what children take of it (received, returned…).
      sql<number | null>`(select min(e.padre_linea_id) from documento_enlaces e where e.linea_id = l.id)`.as('origen_linea_id'),
      sql<number>`(select coalesce(sum(e.cantidad), 0) from documento_enlaces e where e.padre_linea_id = l.id)`.as('enlazado'),
    ])
    .where('l.documento_id', '=', p.id)
    .orderBy('l.orden')
    .orderBy('l.id'),
);

/** A document's history, oldest first. */
const leerHistorial = compiledQuery((db, p: { id: number }) =>
  db
    .selectFrom('documento_acciones as a')
    .leftJoin('usuarios as us', 'us.id', 'a.usuario_id')
    .select(['a.id', 'a.accion', 'a.fecha', 'us.nombre as usuario_nombre', 'a.deshecha_por'])
    .where('a.documento_id', '=', p.id)
    .orderBy('a.id'),
);

/** One document as `listado<plural>&id=` answers it: header, lines (by orden) and history. */
export async function readDocumento(db: Kysely<Database>, def: DocumentoTipoDef, id: number): Promise<Documento | undefined> {
  const [row] = await leerCabecera(def)(db, { id });
  if (!row) return undefined;
  const lineas = (await leerLineas(db, { id })) as unknown as DocumentoLinea[];
  const historial = (await leerHistorial(db, { id })) as unknown as DocumentoAccionLog[];
  const conEnlazado = lineas as (DocumentoLinea & { enlazado: number | string })[];
  for (const l of conEnlazado) l.enlazado = Number(l.enlazado);
  // The lines already tell which side has links (a link always takes a positive quantity): only that side is read.
  const conHijos = conEnlazado.some((l) => Number(l.enlazado) > 0);
  const conPadres = lineas.some((l) => l.origen_linea_id !== null && l.origen_linea_id !== undefined);
  const doc = {
    ...toDocumento(def, row as HeaderRow),
    num_lineas: lineas.length,
    lineas,
    historial,
    hijos: conHijos ? await documentosEnlazados(db, id, 'hijos') : [],
    padres: conPadres ? await documentosEnlazados(db, id, 'padres') : [],
  } as Documento;
  if (def.series) await numerosCorregidas(db, [doc]);
  // Issue 22: a ticket, or an invoice from before issue 16, prints what it was issued with (stored once, here).
  await completarEmision(db, doc);
  await efectosDe(def.tipo)?.alLeer?.({ db, doc });
  return doc;
}

const leerParaBloquear = compiledQuery((db, p: { id: number; tipo: string }) =>
  db
    .selectFrom('documentos')
    .select([
      'id', 'tipo', 'estado', 'fecha', 'ejercicio', 'numero', 'serie_id', 'almacen_id', 'almacen_destino_id', 'familia_id', 'ubicacion_id',
      'proveedor_id', 'cliente_id', 'forma_pago', 'retencion', 'con_recargo',
    ])
    .where('id', '=', p.id)
    .where('tipo', '=', p.tipo)
    .$if(dialectOf(db) === 'postgres', (q) => q.forUpdate()),
);

/** The document row, locked for the rest of the transaction on PostgreSQL (SQLite runs one writer at a time). */
export async function lockDocumento(trx: Transaction<Database>, _dialect: DialectName, def: DocumentoTipoDef, id: number): Promise<DocRow> {
  const [doc] = await leerParaBloquear(trx, { id, tipo: def.tipo });
  if (!doc) throw fail(MESSAGES.notFound, '3');
  return doc;
}

export const FILTROS = {
  estado: { type: 'string', max: 40 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
  almacen_id: { type: 'int', min: 1 },
  proveedor_id: { type: 'int', min: 1 },
  cliente_id: { type: 'int', min: 1 },
  serie_id: { type: 'int', min: 1 },
} as const satisfies Schema;

/** listado<plural>: a page of the type's documents (or one with `id`), with the filtered rows' total value. */
export async function listadoDocumentos(app: AppContext, def: DocumentoTipoDef, input: Infer<ReturnType<typeof listSchema<readonly ['fecha', 'numero', 'estado']>> & typeof FILTROS>) {
  if (input.id !== null) {
    const doc = await readDocumento(app.db, def, input.id);
    if (!doc) throw fail(MESSAGES.notFound, '3');
    return { RESULT: '0' as const, data: [doc], total: 1 };
  }
  const db = app.db as AnyDb;
  const filters: RawBuilder<boolean>[] = [sql<boolean>`d.tipo = ${def.tipo}`];
  if (input.q) {
    const n = /^\d{1,9}$/.test(input.q.trim()) ? Number(input.q.trim()) : /\/0*(\d{1,9})$/.exec(input.q.trim())?.[1];
    // With a party, its name too (a scan of the party table, through the documents' party index).
    const texto = def.tercero
      ? sql<boolean>`(${contains('d.observaciones', input.q)} or d.${sql.raw(`${def.tercero}_id`)} in (select tq.id from ${sql.table(TERCERO_TABLA[def.tercero])} tq
          where ${contains('tq.razon_social', input.q)} or ${contains('tq.nombre_comercial', input.q)}))`
      : contains('d.observaciones', input.q);
    // A whole displayed number of a serie ('A 2026/000012'): that serie, year and number only.
    const entero = def.series ? /^(\S{1,20})\s+(\d{4})\/0*(\d{1,9})$/.exec(input.q.trim()) : null;
    if (entero) {
      filters.push(sql<boolean>`(d.numero = ${Number(entero[3])} and d.ejercicio = ${Number(entero[2])}
        and d.serie_id in (select sq.id from series sq where sq.codigo = ${entero[1].toUpperCase()}))`);
    } else filters.push(n !== undefined ? sql<boolean>`(d.numero = ${Number(n)} or ${texto})` : texto);
  }
  if (input.proveedor_id !== null) filters.push(sql<boolean>`d.proveedor_id = ${input.proveedor_id}`);
  if (input.cliente_id !== null) filters.push(sql<boolean>`d.cliente_id = ${input.cliente_id}`);
  if (input.estado) filters.push(sql<boolean>`d.estado = ${input.estado}`);
  if (input.desde) filters.push(sql<boolean>`d.fecha >= ${input.desde}`);
  if (input.hasta) filters.push(sql<boolean>`d.fecha <= ${input.hasta}`);
  if (input.almacen_id !== null) filters.push(sql<boolean>`(d.almacen_id = ${input.almacen_id} or d.almacen_destino_id = ${input.almacen_id})`);
  if (input.serie_id !== null) filters.push(sql<boolean>`d.serie_id = ${input.serie_id}`);
  filters.push(...(efectosDe(def.tipo)?.filtrar?.(input, todayIn(app.timeZone)) ?? []));
  const where = sql<boolean>`${sql.join(filters, sql` and `)}`;
  const sums = await db
    .selectFrom('documentos as d')
    .select([sql<number>`count(*)`.as('n'), sql<string>`cast(coalesce(sum(d.total), 0) as text)`.as('total')])
    .where(where)
    .executeTakeFirstOrThrow();
  const p = paging(input);
  const orden = input.orden === 'numero' ? ['d.ejercicio', 'd.numero'] : [`d.${input.orden ?? 'fecha'}`];
  let page = selectHeader(db, def)
    .select(sql<number>`(select count(*) from documento_lineas l where l.documento_id = d.id)`.as('num_lineas'))
    .where(where);
  // Drafts (no number yet) after the numbered ones, on both engines (they sort nulls differently).
  if (def.series && input.orden === 'numero') page = page.orderBy(sql`case when d.numero is null then 1 else 0 end`, p.dir);
  for (const c of orden) page = page.orderBy(c, p.dir);
  const rows = await page.orderBy('d.id', p.dir).limit(p.limit).offset(p.offset).execute();
  const data = rows.map((r) => Object.assign(toDocumento(def, r as HeaderRow), { num_lineas: Number(r.num_lineas) }));
  if (def.series) await numerosCorregidas(app.db, data);
  await efectosDe(def.tipo)?.alListar?.({ db: app.db, docs: data });
  return {
    RESULT: '0' as const,
    data,
    total: Number(sums.n),
    totales: { total: Number(sums.total) },
  };
}
