import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { MESSAGES, divRound } from 'shared/domain';
import { fail } from '../errors.ts';
import type { DialectName } from '../db/index.ts';
import { compiledQuery, insertarFilas } from '../db/prepared.ts';
import type { Database, NewStockMovimiento } from '../db/schema.ts';
import { revalorarPendientes } from './coste.ts';
import { dialectOf, precioNetoSql } from './sql.ts';

/**
 * The stock ledger (`stock_movimientos`) as the document engine writes it. Append-only: rows are
 * inserted, never updated or deleted; an undo writes the opposite rows. Every row carries the
 * document, its line and the action (`documento_acciones`) that wrote it.
 */

export type FilaMovimiento = {
  articulo_id: number;
  almacen_id: number;
  ubicacion_id: number | null;
  /** Signed thousandths. */
  cantidad: number;
  causa: string;
  documento_tipo: string;
  documento_id: number;
  documento_linea_id: number | null;
  accion_id: number;
  fecha: string;
  /** Unit cost, ten-thousandths. */
  precio: number;
};

/** Rows per INSERT: 12 parameters each stays far below SQLite's bound-parameter limit. */
const CHUNK = 500;

/** The ledger's columns as the engine writes them (`ubicacion`, the old free-text location, always null). */
const COLUMNAS_MOVIMIENTO = [
  'articulo_id', 'almacen_id', 'ubicacion', 'ubicacion_id', 'cantidad', 'causa', 'documento_tipo', 'documento_id', 'documento_linea_id', 'accion_id', 'fecha',
  'precio',
] satisfies (keyof NewStockMovimiento)[];

/** Inserts the rows in batches (zero quantities are skipped: they move nothing). */
export async function writeMovimientos(trx: Transaction<Database>, rows: readonly FilaMovimiento[]): Promise<void> {
  const moving = rows.filter((r) => r.cantidad !== 0);
  for (let i = 0; i < moving.length; i += CHUNK) {
    const filas = moving.slice(i, i + CHUNK).map((r) => [
      r.articulo_id, r.almacen_id, null, r.ubicacion_id, r.cantidad, r.causa, r.documento_tipo, r.documento_id, r.documento_linea_id, r.accion_id, r.fecha, r.precio,
    ]);
    await insertarFilas(trx, 'stock_movimientos', COLUMNAS_MOVIMIENTO, filas);
  }
  await revalorarPendientes(trx);
}


/**
 * Undo: for every row the action `accionId` wrote, the opposite row, written by `nuevaAccionId`
 * (one set-based statement), dated as the row it takes back: an undo takes the action out of the history, so the
 * stock at any date and the average cost in date order (docs/costes.md) are as if it had not been done.
 */
export async function reverseMovimientos(trx: Transaction<Database>, accionId: number, nuevaAccionId: number): Promise<void> {
  await sql`insert into stock_movimientos
      (articulo_id, almacen_id, ubicacion, ubicacion_id, cantidad, causa, documento_tipo, documento_id, documento_linea_id, accion_id, fecha, precio)
    select articulo_id, almacen_id, ubicacion, ubicacion_id, -cantidad, causa, documento_tipo, documento_id, documento_linea_id,
      ${nuevaAccionId}, fecha, precio
    from stock_movimientos where accion_id = ${accionId} order by id`.execute(trx);
  await revalorarPendientes(trx);
}

/**
 * Adds `delta` to an integer column of many document lines (several deltas of one line add up), in batches of one
 * UPDATE joined to the deltas (no per-line round trip): arrays on PostgreSQL, a JSON array on SQLite — one statement
 * text whatever the batch's size, so it is planned or prepared once.
 */
export async function addToLines(trx: Transaction<Database>, column: 'pendiente', deltas: readonly (readonly [number, number])[]): Promise<void> {
  const suma = new Map<number, number>();
  for (const [id, d] of deltas) if (d !== 0) suma.set(id, (suma.get(id) ?? 0) + d);
  const moving = [...suma].filter(([, d]) => d !== 0);
  const col = sql.ref(column);
  const postgres = dialectOf(trx) === 'postgres';
  for (let i = 0; i < moving.length; i += CHUNK) {
    const chunk = moving.slice(i, i + CHUNK);
    if (postgres) {
      await sql`update documento_lineas set ${col} = documento_lineas.${col} + v.d
        from unnest(${chunk.map(([id]) => id)}::bigint[], ${chunk.map(([, d]) => d)}::bigint[]) as v(id, d)
        where documento_lineas.id = v.id`.execute(trx);
    } else {
      await sql`update documento_lineas set ${col} = ${col} + v.d
        from (select value ->> 0 as id, value ->> 1 as d from json_each(${JSON.stringify(chunk)})) as v
        where documento_lineas.id = v.id`.execute(trx);
    }
  }
}

/**
 * Stock on save (`def.stockAlGuardar`): the ledger gets the DIFFERENCE between what the document's
 * lines ask for now and what its ledger rows already hold, per (article, warehouse, location, net
 * unit price) — one INSERT … SELECT, whatever the number of lines. Editing a line writes its
 * difference, a new warehouse moves the stock (out of the old, into the new), a price change writes
 * the quantity out at the old price and in at the new one (the average cost follows), and a document
 * without lines (deleted) reverses everything. Nothing is ever updated or deleted.
 * `almacenId` null: the document no longer asks for anything (it is being deleted).
 */
export async function sincronizarStock(
  trx: Transaction<Database>,
  dialect: DialectName,
  mov: { signo: 1 | -1; causa: string },
  doc: { tipo: string; id: number; almacenId: number | null },
  accionId: number | null,
  fecha: string,
): Promise<void> {
  // Sales with kits or services: the same difference, computed from the lines as the warehouse sees them.
  if (CAUSAS_VENTA.has(mov.causa) && (await tieneKitsOServicios(trx, doc.id))) {
    await sincronizarStockVenta(trx, mov, doc, accionId, fecha);
    return;
  }
  const neto = precioNetoSql(dialect, 'l');
  const pedido = doc.almacenId === null
    ? sql``
    : sql`select l.articulo_id, cast(${doc.almacenId} as integer) as almacen_id, l.ubicacion_id, l.cantidad * ${sql.lit(mov.signo)} as cantidad,
          l.id as linea_id, ${neto} as precio, cast(${fecha} as text) as fecha
        from documento_lineas l where l.documento_id = ${doc.id}
        union all `;
  await sql`insert into stock_movimientos
      (articulo_id, almacen_id, ubicacion_id, cantidad, causa, documento_tipo, documento_id, documento_linea_id, accion_id, fecha, precio)
    select k.articulo_id, k.almacen_id, k.ubicacion_id, sum(k.cantidad), ${mov.causa}, ${doc.tipo}, ${doc.id}, max(k.linea_id),
      cast(${accionId} as integer), k.fecha, k.precio
    from (${pedido}select m.articulo_id, m.almacen_id, m.ubicacion_id, -m.cantidad as cantidad, m.documento_linea_id as linea_id, m.precio, m.fecha
        from stock_movimientos m where m.documento_tipo = ${doc.tipo} and m.documento_id = ${doc.id}) k
    group by k.articulo_id, k.almacen_id, k.ubicacion_id, k.precio, k.fecha
    having sum(k.cantidad) <> 0
    order by min(k.linea_id)`.execute(trx);
  await revalorarPendientes(trx);
}

/**
 * Causes of the ledger that sell or take goods to a customer (albarán, devolución, factura, rectificativa, parte de
 * trabajo). For them a line is what the warehouse sees: a kit (an article with articulo_componentes) moves its
 * components' stock, not its own (docs/documentos.md), at any depth; an article measured in hours (unidad_medida 'h':
 * labour, a service, a parte's hours) moves no stock at all.
 */
export const CAUSAS_VENTA = new Set(['venta', 'devolucion_venta', 'factura', 'rectificativa', 'parte']);

/** Whether a document has a line of a kit or of a service (one indexed probe; most documents have none). */
async function tieneKitsOServicios(trx: Transaction<Database>, docId: number): Promise<boolean> {
  const { rows } = await sql<{ x: number }>`select 1 as x from documento_lineas l join articulos a on a.id = l.articulo_id
    where l.documento_id = ${docId}
      and (a.unidad_medida = 'h' or exists (select 1 from articulo_componentes c where c.articulo_id = l.articulo_id))
    limit 1`.execute(trx);
  return rows.length > 0;
}

export type Componente = { componente_id: number; cantidad: bigint; precio_venta: bigint; servicio: boolean };

/** The component trees of these kits, every level (the catalogue refuses a kit containing itself). */
export async function arbolKits(trx: Kysely<Database>, kitIds: readonly number[]): Promise<Map<number, Componente[]>> {
  const arbol = new Map<number, Componente[]>();
  let pendientes = [...new Set(kitIds)];
  for (let nivel = 0; pendientes.length && nivel < 32; nivel++) {
    const siguientes: number[] = [];
    for (let i = 0; i < pendientes.length; i += CHUNK) {
      const rows = await trx
        .selectFrom('articulo_componentes as c')
        .innerJoin('articulos as a', 'a.id', 'c.componente_id')
        .select(['c.articulo_id', 'c.componente_id', 'c.cantidad', 'a.precio_venta', 'a.unidad_medida'])
        .where('c.articulo_id', 'in', pendientes.slice(i, i + CHUNK))
        .orderBy('c.articulo_id')
        .orderBy('c.componente_id')
        .execute();
      for (const r of rows) {
        const lista = arbol.get(r.articulo_id) ?? [];
        lista.push({ componente_id: r.componente_id, cantidad: BigInt(r.cantidad), precio_venta: BigInt(r.precio_venta), servicio: r.unidad_medida === 'h' });
        arbol.set(r.articulo_id, lista);
        siguientes.push(r.componente_id);
      }
    }
    pendientes = [...new Set(siguientes)].filter((id) => !arbol.has(id));
  }
  return arbol;
}

/** filasStockVenta's `lineaIds` for the lines no link ties to a parent: an invoice's direct sales. */
export const DIRECTAS = Symbol('líneas sin origen');

const lineasVenta = (db: Kysely<Database>, docId: string | number) =>
  db
    .selectFrom('documento_lineas as l')
    .innerJoin('articulos as a', 'a.id', 'l.articulo_id')
    .select(['l.id', 'l.articulo_id', 'l.cantidad', 'l.precio', 'l.descuento', 'l.ubicacion_id', 'a.unidad_medida'])
    .where('l.documento_id', '=', docId as number)
    .orderBy('l.orden');

const lineasDe = compiledQuery((db, p: { docId: number }) => lineasVenta(db, p.docId));

const lineasDirectasDe = compiledQuery((db, p: { docId: number }) =>
  lineasVenta(db, p.docId).where(({ not, exists, selectFrom }) =>
    not(exists(selectFrom('documento_enlaces as e').select('e.linea_id').whereRef('e.linea_id', '=', 'l.id'))),
  ),
);

/** A ledger row as sales want it, before it is written. */
export type FilaStock = { articulo_id: number; ubicacion_id: number | null; cantidad: number; linea_id: number; precio: number };

/**
 * What a sales document's lines ask of the warehouse, signed by `signo`: each line at its net unit price, a kit
 * replaced by its components (quantity × the component's quantity per kit, half-up; the kit's net price shared among
 * them in proportion to their tarifa-1 price × quantity, or to their quantities when none has a price, so the
 * components' average sale price stays meaningful), services left out. `lineaIds`: only those lines.
 */
export async function filasStockVenta(
  trx: Transaction<Database>,
  docId: number,
  signo: 1 | -1,
  lineaIds: readonly number[] | null | typeof DIRECTAS = null,
): Promise<FilaStock[]> {
  const lineas =
    lineaIds === null || lineaIds === DIRECTAS
      ? await (lineaIds === DIRECTAS ? lineasDirectasDe : lineasDe)(trx, { docId })
      : await trx
          .selectFrom('documento_lineas as l')
          .innerJoin('articulos as a', 'a.id', 'l.articulo_id')
          .select(['l.id', 'l.articulo_id', 'l.cantidad', 'l.precio', 'l.descuento', 'l.ubicacion_id', 'a.unidad_medida'])
          .where('l.documento_id', '=', docId)
          .where('l.id', 'in', lineaIds.length ? lineaIds : [0])
          .orderBy('l.orden')
          .execute();
  if (!lineas.length) return [];
  const arbol = await arbolKits(trx, lineas.map((l) => l.articulo_id));
  const out: FilaStock[] = [];
  const expandir = (articulo: number, cantidad: bigint, precio: bigint, linea: number, ubicacion: number | null, nivel: number) => {
    const comps = nivel < 32 ? arbol.get(articulo) : undefined;
    if (!comps) {
      out.push({ articulo_id: articulo, ubicacion_id: ubicacion, cantidad: Number(cantidad) * signo, linea_id: linea, precio: Number(precio) });
      return;
    }
    const valor = comps.reduce((s, c) => s + c.cantidad * c.precio_venta, 0n);
    const unidades = comps.reduce((s, c) => s + c.cantidad, 0n);
    for (const c of comps) {
      if (c.servicio) continue;
      const q = divRound(cantidad * c.cantidad, 1000n);
      // Per component unit: the kit's price × its share of the kit's value ÷ the units of it in one kit.
      const p = valor > 0n ? divRound(precio * c.precio_venta * 1000n, valor) : unidades > 0n ? divRound(precio * 1000n, unidades) : 0n;
      // Components keep no location of the kit's line: they leave from wherever they are unlocated.
      expandir(c.componente_id, q, p, linea, null, nivel + 1);
    }
  };
  for (const l of lineas) {
    if (l.unidad_medida === 'h') continue;
    const neto = divRound(BigInt(l.precio) * (10000n - BigInt(l.descuento)), 10000n);
    expandir(l.articulo_id, BigInt(l.cantidad), neto, l.id, l.ubicacion_id, 0);
  }
  return out.filter((f) => f.cantidad !== 0);
}

/** Writes rows for a document's action (`accionId` null: a save), in batches. */
async function escribirFilas(
  trx: Transaction<Database>,
  filas: readonly FilaStock[],
  almacenId: number,
  causa: string,
  doc: { tipo: string; id: number },
  accionId: number | null,
  fecha: string,
): Promise<void> {
  for (let i = 0; i < filas.length; i += CHUNK) {
    await insertarFilas(
      trx,
      'stock_movimientos',
      COLUMNAS_MOVIMIENTO,
      filas.slice(i, i + CHUNK).map((f) => [f.articulo_id, almacenId, null, f.ubicacion_id, f.cantidad, causa, doc.tipo, doc.id, f.linea_id, accionId, fecha, f.precio]),
    );
  }  await revalorarPendientes(trx);
}

/**
 * A sales action's stock (a parte finished, an invoice's direct-sale lines emitted): the lines' rows as
 * filasStockVenta makes them, written with the action's id so its undo (reverseMovimientos) takes them back.
 */
export async function moverStockVenta(
  trx: Transaction<Database>,
  doc: { tipo: string; id: number; almacenId: number },
  mov: { signo: 1 | -1; causa: string },
  accionId: number,
  fecha: string,
  lineaIds: readonly number[] | null | typeof DIRECTAS = null,
): Promise<void> {
  await escribirFilas(trx, await filasStockVenta(trx, doc.id, mov.signo, lineaIds), doc.almacenId, mov.causa, doc, accionId, fecha);
}

/** sincronizarStock for a sales document with kits or services: the same difference per (article, warehouse, location, price). */
async function sincronizarStockVenta(
  trx: Transaction<Database>,
  mov: { signo: 1 | -1; causa: string },
  doc: { tipo: string; id: number; almacenId: number | null },
  accionId: number | null,
  fecha: string,
): Promise<void> {
  type Grupo = { articulo_id: number; almacen_id: number; ubicacion_id: number | null; precio: number; fecha: string; cantidad: number; linea: number; primera: number };
  const grupos = new Map<string, Grupo>();
  const sumar = (articulo_id: number, almacen_id: number, ubicacion_id: number | null, precio: number, fecha: string, cantidad: number, linea: number | null) => {
    const k = `${articulo_id}|${almacen_id}|${ubicacion_id ?? ''}|${precio}|${fecha}`;
    const g = grupos.get(k) ?? { articulo_id, almacen_id, ubicacion_id, precio, fecha, cantidad: 0, linea: 0, primera: Number.MAX_SAFE_INTEGER };
    g.cantidad += cantidad;
    if (linea !== null) {
      g.linea = Math.max(g.linea, linea);
      g.primera = Math.min(g.primera, linea);
    }
    grupos.set(k, g);
  };
  if (doc.almacenId !== null) {
    for (const f of await filasStockVenta(trx, doc.id, mov.signo)) sumar(f.articulo_id, doc.almacenId, f.ubicacion_id, f.precio, fecha, f.cantidad, f.linea_id);
  }
  const hechas = await trx
    .selectFrom('stock_movimientos')
    .select(['articulo_id', 'almacen_id', 'ubicacion_id', 'precio', 'fecha', 'documento_linea_id'])
    .select(sql<string>`cast(sum(cantidad) as text)`.as('cantidad'))
    .where('documento_tipo', '=', doc.tipo)
    .where('documento_id', '=', doc.id)
    .groupBy(['articulo_id', 'almacen_id', 'ubicacion_id', 'precio', 'fecha', 'documento_linea_id'])
    .execute();
  for (const h of hechas) sumar(h.articulo_id, h.almacen_id, h.ubicacion_id ?? null, Number(h.precio), String(h.fecha).slice(0, 10), -Number(h.cantidad), h.documento_linea_id ?? null);
  const filas = [...grupos.values()].filter((g) => g.cantidad !== 0).sort((a, b) => a.primera - b.primera);
  for (let i = 0; i < filas.length; i += CHUNK) {
    await insertarFilas(
      trx,
      'stock_movimientos',
      COLUMNAS_MOVIMIENTO,
      filas
        .slice(i, i + CHUNK)
        .map((g) => [g.articulo_id, g.almacen_id, null, g.ubicacion_id, g.cantidad, mov.causa, doc.tipo, doc.id, g.linea || null, accionId, g.fecha, g.precio]),
    );
  }
  await revalorarPendientes(trx);
}

/** The articles' usual locations in a warehouse (articulo_ubicaciones), one query per 500 articles. */
export async function ubicacionesHabituales(trx: Transaction<Database>, almacenId: number, articuloIds: number[]): Promise<Map<number, number>> {
  const ids = [...new Set(articuloIds)];
  const out = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom('articulo_ubicaciones')
      .select(['articulo_id', 'ubicacion_id'])
      .where('almacen_id', '=', almacenId)
      .where('articulo_id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.articulo_id, r.ubicacion_id);
  }
  return out;
}

/** The configuration's `stock_negativo`, read once per transaction (hfa emits hundreds of invoices in one). */
const PERMITIDO = new WeakMap<Transaction<Database>, boolean>();
async function stockNegativoPermitido(trx: Transaction<Database>): Promise<boolean> {
  let permitido = PERMITIDO.get(trx);
  if (permitido === undefined) {
    const conf = await trx.selectFrom('configuracion').select('stock_negativo').orderBy('id').limit(1).executeTakeFirst();
    permitido = !conf || Number(conf.stock_negativo) !== 0;
    PERMITIDO.set(trx, permitido);
  }
  return permitido;
}

/**
 * Runs `fn` in `trx` as if negative stock were allowed: a ticket the till issued offline already left the shop — its
 * fiscal record exists —, so the counter's stock is never a reason to refuse storing it (issue 13, docs/tpv.md).
 */
export async function conStockNegativo<T>(trx: Transaction<Database>, fn: () => Promise<T>): Promise<T> {
  const antes = PERMITIDO.get(trx);
  PERMITIDO.set(trx, true);
  try {
    return await fn();
  } finally {
    if (antes === undefined) PERMITIDO.delete(trx);
    else PERMITIDO.set(trx, antes);
  }
}

/**
 * docs/documentos.md, "Negative stock": with the configuration's `stock_negativo` at 0, a save or an action whose ledger
 * rows take an article out of a warehouse and leave it below zero there is refused (the caller's transaction rolls
 * back, nothing changes). `filtro`: the rows of one action, or those of one document (its stock on save). With the
 * default (1) nothing is checked: shops sell what has not been received yet, and the lines editor warns.
 */
export async function comprobarStockNegativo(
  trx: Transaction<Database>,
  filtro: { accionId: number } | { documento: { tipo: string; id: number } },
): Promise<void> {
  if (await stockNegativoPermitido(trx)) return;
  const donde =
    'accionId' in filtro
      ? sql`m.accion_id = ${filtro.accionId}`
      : sql`m.documento_tipo = ${filtro.documento.tipo} and m.documento_id = ${filtro.documento.id}`;
  const { rows } = await sql<{ codigo: string; almacen: string; stock: string }>`
    select a.codigo, al.nombre as almacen,
      (select cast(sum(s.cantidad) as text) from stock_movimientos s where s.articulo_id = m.articulo_id and s.almacen_id = m.almacen_id) as stock
    from stock_movimientos m
    join articulos a on a.id = m.articulo_id
    join almacenes al on al.id = m.almacen_id
    where ${donde}
    group by m.articulo_id, m.almacen_id, a.codigo, al.nombre
    having sum(m.cantidad) < 0
    order by a.codigo`.execute(trx);
  const falta = rows.find((r) => BigInt(r.stock ?? '0') < 0n);
  if (falta) {
    const quedaria = (Number(BigInt(falta.stock)) / 1000).toLocaleString('es-ES', { maximumFractionDigits: 3 });
    throw fail(`${MESSAGES.stockInsuficiente} de ${falta.codigo} en ${falta.almacen} (quedaría en ${quedaria})`, '1', 400);
  }
}
