import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, numeroDe } from 'shared/domain';
import type { DiferenciaStock, DocumentoTipo, MovimientoAlmacen, MovimientoArticulo, Schema, StockAlmacenFila } from 'shared/domain';
import type { Database } from '../../db/schema.ts';
import { costesDelLibro, revalorarDesde } from '../../documentos/coste.ts';
import { costeMedioSql, roundDiv, toBig } from '../../documentos/sql.ts';
import { contains, listSchema, paging } from '../comun.ts';
import { defineAction } from '../registry.ts';

const FLAGS = ['almacenes' as const];

const stockAlmacenInput = {
  ...listSchema(['codigo', 'descripcion', 'stock', 'valor'] as const),
  almacen_id: { type: 'int', required: true, min: 1 },
  /** Only these articles ('7,8,12'; at most 500): the stock a transfer's lines leave from. */
  ids: { type: 'string', max: 4000, pattern: /^\d{1,12}(,\d{1,12}){0,499}$/, patternMessage: 'Lista de artículos no válida' },
} as const satisfies Schema;

const movimientosInput = {
  ...listSchema(['id'] as const),
  articulo_id: { type: 'int', required: true, min: 1 },
  almacen_id: { type: 'int', min: 1 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
} as const satisfies Schema;

const movimientosAlmacenInput = {
  ...listSchema(['id'] as const),
  almacen_id: { type: 'int', required: true, min: 1 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
  causa: { type: 'string', max: 40 },
} as const satisfies Schema;

const teoricasInput = {
  almacen_id: { type: 'int', required: true, min: 1 },
  familia_id: { type: 'int', min: 1 },
  ubicacion_id: { type: 'int', min: 1 },
} as const satisfies Schema;

const and = (filters: RawBuilder<boolean>[]) => (filters.length ? sql.join(filters, sql` and `) : sql`1 = 1`);

/** Displayed number of a ledger row's document, when it is one of the engine's types (an invoice's by its serie). */
function numeroDelDocumento(tipo: string | null, d: { ejercicio: number | null; numero: number | null; serie_codigo: string | null }): string | null {
  const def = tipo && tipo in DOCUMENTO_TIPOS ? DOCUMENTO_TIPOS[tipo as DocumentoTipo] : undefined;
  return def && d.ejercicio !== null ? numeroDe(def, { ...d, ejercicio: d.ejercicio }) : null;
}

/** Stock queries of the warehouses (issue 6) and the ledger check of utilidades. */
export const stockAlmacenActions = [
  defineAction({
    name: 'listadostockalmacen',
    method: 'GET',
    flags: FLAGS,
    input: stockAlmacenInput,
    async handler({ input, app }) {
      const conds: RawBuilder<boolean>[] = [];
      if (input.q) conds.push(sql<boolean>`(${contains('a.codigo', input.q)} or ${contains('a.descripcion', input.q)})`);
      if (input.ids) conds.push(sql<boolean>`a.id in (${sql.join(input.ids.split(',').map(Number))})`);
      const filtro = conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
      const coste = costeMedioSql('a');
      const valor = roundDiv(app.dialect, sql`x.stock * x.coste_medio`, 100_000);
      // One warehouse's stock per article (index almacen_id, articulo_id), valued at average cost.
      const y = sql`with s as (
          select articulo_id, sum(cantidad) as stock from stock_movimientos where almacen_id = ${input.almacen_id}
          group by articulo_id having sum(cantidad) <> 0),
        x as (select s.articulo_id, a.codigo, a.descripcion, s.stock, ${coste} as coste_medio
          from s join articulos a on a.id = s.articulo_id ${filtro}),
        y as (select x.articulo_id, x.codigo, x.descripcion, x.stock, x.coste_medio, ${valor} as valor from x)`;
      const totals = await sql<{ n: number; valor_total: string }>`${y} select count(*) as n, cast(coalesce(sum(valor), 0) as text) as valor_total from y`.execute(
        app.db,
      );
      const p = paging(input);
      const orden = sql.ref(`y.${input.orden ?? 'codigo'}`);
      const dir = sql.raw(p.dir);
      const rows = await sql<StockAlmacenFila>`${y} select * from y order by ${orden} ${dir}, y.articulo_id ${dir} limit ${p.limit} offset ${p.offset}`.execute(
        app.db,
      );
      return {
        RESULT: '0',
        data: rows.rows.map((r) => ({ ...r, stock: Number(r.stock), coste_medio: Number(r.coste_medio), valor: Number(r.valor) })),
        total: Number(totals.rows[0].n),
        valor_total: Number(toBig(totals.rows[0].valor_total)),
      };
    },
  }),

  defineAction({
    name: 'listadomovimientosarticulo',
    method: 'GET',
    flags: FLAGS,
    input: movimientosInput,
    async handler({ input, app }) {
      const ambito: RawBuilder<boolean>[] = [sql<boolean>`sm.articulo_id = ${input.articulo_id}`];
      if (input.almacen_id !== null) ambito.push(sql<boolean>`sm.almacen_id = ${input.almacen_id}`);
      const filtros = [...ambito];
      if (input.desde) filtros.push(sql<boolean>`sm.fecha >= ${input.desde}`);
      if (input.hasta) filtros.push(sql<boolean>`substr(sm.fecha, 1, 10) <= ${input.hasta}`);
      const count = await sql<{ n: number }>`select count(*) as n from stock_movimientos sm where ${and(filtros)}`.execute(app.db);
      const p = paging(input);
      // Newest first by date, then id (docs/costes.md: a document dated in the past writes its rows later); each row's
      // balance is the stock after it in that order within the filter's warehouse (or all of them).
      const page = await sql<Omit<MovimientoArticulo, 'saldo' | 'documento_numero'> & { numero: number | null; ejercicio: number | null; serie_codigo: string | null }>`
        select sm.id, sm.fecha, sm.almacen_id, al.nombre as almacen_nombre, sm.ubicacion_id, u.codigo as ubicacion_codigo, sm.causa,
          sm.documento_tipo, sm.documento_id, d.numero, d.ejercicio, se.codigo as serie_codigo, sm.cantidad, da.accion
        from stock_movimientos sm
        join almacenes al on al.id = sm.almacen_id
        left join ubicaciones u on u.id = sm.ubicacion_id
        left join documentos d on d.id = sm.documento_id and d.tipo = sm.documento_tipo
        left join series se on se.id = d.serie_id
        left join documento_acciones da on da.id = sm.accion_id
        where ${and(filtros)} order by sm.fecha desc, sm.id desc limit ${p.limit} offset ${p.offset}`.execute(app.db);
      const rows = page.rows;
      let data: MovimientoArticulo[] = [];
      if (rows.length) {
        const max = rows[0];
        const min = rows[rows.length - 1];
        // One indexed sum before the page, and the (few) rows of the scope between its ends: exact balances.
        const antes = await sql<{ s: string }>`select cast(coalesce(sum(sm.cantidad), 0) as text) as s from stock_movimientos sm
          where ${and(ambito)} and (sm.fecha < ${min.fecha} or (sm.fecha = ${min.fecha} and sm.id < ${min.id}))`.execute(app.db);
        const entre = await sql<{ id: number; cantidad: number }>`select sm.id, sm.cantidad from stock_movimientos sm
          where ${and(ambito)} and (sm.fecha > ${min.fecha} or (sm.fecha = ${min.fecha} and sm.id >= ${min.id}))
            and (sm.fecha < ${max.fecha} or (sm.fecha = ${max.fecha} and sm.id <= ${max.id}))
          order by sm.fecha, sm.id`.execute(app.db);
        const saldo = new Map<number, bigint>();
        let acc = toBig(antes.rows[0].s);
        for (const r of entre.rows) {
          acc += BigInt(r.cantidad);
          saldo.set(Number(r.id), acc);
        }
        data = rows.map(({ numero, ejercicio, serie_codigo, ...r }) => ({
          ...r,
          cantidad: Number(r.cantidad),
          documento_numero: numeroDelDocumento(r.documento_tipo, { ejercicio, numero, serie_codigo }),
          saldo: Number(saldo.get(Number(r.id)) ?? 0n),
        }));
      }
      return { RESULT: '0', data, total: Number(count.rows[0].n) };
    },
  }),

  defineAction({
    name: 'listadomovimientosalmacen',
    method: 'GET',
    flags: FLAGS,
    input: movimientosAlmacenInput,
    async handler({ input, app }) {
      // Every entry and exit of one warehouse (index almacen_id), newest first, with its article and document.
      const filtros: RawBuilder<boolean>[] = [sql<boolean>`sm.almacen_id = ${input.almacen_id}`];
      if (input.desde) filtros.push(sql<boolean>`sm.fecha >= ${input.desde}`);
      if (input.hasta) filtros.push(sql<boolean>`substr(sm.fecha, 1, 10) <= ${input.hasta}`);
      if (input.causa) filtros.push(sql<boolean>`sm.causa = ${input.causa}`);
      if (input.q) filtros.push(sql<boolean>`sm.articulo_id in (select a.id from articulos a where ${contains('a.codigo', input.q)} or ${contains('a.descripcion', input.q)})`);
      const count = await sql<{ n: number }>`select count(*) as n from stock_movimientos sm where ${and(filtros)}`.execute(app.db);
      const p = paging(input);
      // By date, newest first unless asked otherwise.
      const dir = input.dir === 'asc' ? 'asc' : 'desc';
      const page = await sql<Omit<MovimientoAlmacen, 'documento_numero'> & { numero: number | null; ejercicio: number | null; serie_codigo: string | null }>`
        select sm.id, sm.fecha, sm.almacen_id, al.nombre as almacen_nombre, sm.ubicacion_id, u.codigo as ubicacion_codigo, sm.causa,
          sm.documento_tipo, sm.documento_id, d.numero, d.ejercicio, se.codigo as serie_codigo, sm.cantidad, da.accion,
          sm.articulo_id, a.codigo as articulo_codigo, a.descripcion as articulo_descripcion
        from stock_movimientos sm
        join almacenes al on al.id = sm.almacen_id
        join articulos a on a.id = sm.articulo_id
        left join ubicaciones u on u.id = sm.ubicacion_id
        left join documentos d on d.id = sm.documento_id and d.tipo = sm.documento_tipo
        left join series se on se.id = d.serie_id
        left join documento_acciones da on da.id = sm.accion_id
        where ${and(filtros)} order by sm.fecha ${sql.raw(dir)}, sm.id ${sql.raw(dir)} limit ${p.limit} offset ${p.offset}`.execute(app.db);
      const data: MovimientoAlmacen[] = page.rows.map(({ numero, ejercicio, serie_codigo, ...r }) => ({
        ...r,
        cantidad: Number(r.cantidad),
        documento_numero: numeroDelDocumento(r.documento_tipo, { ejercicio, numero, serie_codigo }),
      }));
      return { RESULT: '0', data, total: Number(count.rows[0].n) };
    },
  }),

  defineAction({
    name: 'lineasteoricasinventario',
    method: 'GET',
    flags: FLAGS,
    input: teoricasInput,
    async handler({ input, app }) {
      const ubicacion = input.ubicacion_id !== null ? sql`and ubicacion_id = ${input.ubicacion_id}` : sql``;
      const familia = input.familia_id !== null ? sql`where a.familia_id = ${input.familia_id}` : sql``;
      const rows = await sql<{ articulo_id: number; codigo: string; descripcion: string; teorico: number }>`
        select a.id as articulo_id, a.codigo, a.descripcion, s.teorico
        from (select articulo_id, sum(cantidad) as teorico from stock_movimientos where almacen_id = ${input.almacen_id} ${ubicacion}
          group by articulo_id having sum(cantidad) <> 0) s
        join articulos a on a.id = s.articulo_id ${familia}
        order by a.codigo`.execute(app.db);
      return { RESULT: '0', data: rows.rows.map((r) => ({ ...r, teorico: Number(r.teorico) })), total: rows.rows.length };
    },
  }),

  defineAction({
    name: 'recalcularstock',
    method: 'POST',
    input: { aplicar: { type: 'flag' } } as const satisfies Schema,
    async handler({ input, app }) {
      if (input.aplicar !== 1) {
        const data = await diferenciasStock(app.db);
        return { RESULT: '0', data, total: data.length };
      }
      const reparados = await app.db.transaction().execute(async (trx) => {
        const diferencias = await diferenciasStock(trx);
        for (const d of diferencias) {
          await sql`update articulos set stock_total = ${d.libro}, coste_medio = ${d.coste_libro} where id = ${d.articulo_id}`.execute(trx);
          // Each row's cost and its sale lines' too, in date order (docs/costes.md).
          await revalorarDesde(trx, d.articulo_id, '0000-01-01');
        }
        return diferencias.length;
      });
      return { RESULT: '0', message: MESSAGES.stockReparado, data: [{ reparados }] };
    },
  }),
];

/**
 * What Recalcular repairs, by código: the articles whose stored stock is not the ledger's sum, or whose stored average
 * cost is not the ledger replayed (documentos/coste.ts).
 */
async function diferenciasStock(db: Kysely<Database>): Promise<DiferenciaStock[]> {
  const { rows } = await sql<{ articulo_id: number; codigo: string; descripcion: string; guardado: string; libro: string; coste_guardado: string | null }>`
    select a.id as articulo_id, a.codigo, a.descripcion, cast(a.stock_total as text) as guardado, cast(coalesce(s.libro, 0) as text) as libro,
      cast(a.coste_medio as text) as coste_guardado
    from articulos a left join (select articulo_id, sum(cantidad) as libro from stock_movimientos group by articulo_id) s on s.articulo_id = a.id
    order by a.codigo`.execute(db);
  const costes = await costesDelLibro(db, rows.map((r) => r.articulo_id));
  const out: DiferenciaStock[] = [];
  for (const r of rows) {
    const coste = costes.get(r.articulo_id) ?? null;
    const guardado = r.coste_guardado === null ? null : toBig(r.coste_guardado);
    if (toBig(r.guardado) === toBig(r.libro) && guardado === coste) continue;
    out.push({
      articulo_id: r.articulo_id,
      codigo: r.codigo,
      descripcion: r.descripcion,
      guardado: Number(toBig(r.guardado)),
      libro: Number(toBig(r.libro)),
      coste_guardado: guardado === null ? null : Number(guardado),
      coste_libro: coste === null ? null : Number(coste),
    });
  }
  return out;
}
