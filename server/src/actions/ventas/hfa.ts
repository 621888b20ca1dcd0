import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, calcularTotales, esOperacion, numeroDe } from 'shared/domain';
import type { FieldErrors, Schema, TipoIva } from 'shared/domain';
import { nowIso, todayIn } from '../../context.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { ejecutarAccionEn, insertarDocumento, insertarLineasDe, numeroDeTipo, validarSerie } from '../../documentos/engine.ts';
import type { LineaValida, TipoEffects } from '../../documentos/engine.ts';
import { actualizarEstadoPadres, guardarEnlaces } from '../../documentos/enlaces.ts';
import type { Origen } from '../../documentos/enlaces.ts';
import { TODAS_CON_ORIGEN, facturaEffects } from '../../documentos/facturas.ts';
import type { SessionUser } from '../../session.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';

/**
 * hfa (issue 8): invoice a period's albaranes, devoluciones and partes de trabajo, one invoice per customer.
 * `hfapropuesta` previews the invoices; `facturarhfa` creates and issues them in one transaction (all or nothing):
 * albarán and parte lines (what is still pending: a parte's materials and its hours lines) as lines linked to theirs,
 * devolución lines as negative lines linked to theirs; then each invoice is issued
 * by the engine's `emitir` (number, stock, registro de alta). The documents become invoiced through their links.
 *
 * A devolución goes in only while what it returns was not invoiced yet (its lines come from nothing or from albaranes
 * still pending); one that returns invoiced goods is corrected by a rectificativa instead.
 */

const FLAGS = ['ventas' as const, 'hfa' as const, 'ventas_facturas' as const];
const FACTURA = DOCUMENTO_TIPOS.factura;
const CHUNK = 500;

type Doc = { id: number; tipo: string; ejercicio: number; numero: number | null; fecha: string; total: number; cliente_id: number; almacen_id: number | null };
type LineaOrigen = {
  id: number;
  documento_id: number;
  articulo_id: number;
  codigo: string;
  descripcion: string;
  tipo_iva: string;
  /** Issue 16: the line's operation (an albarán line's E5 stays E5 on its invoice). */
  operacion: string | null;
  precio: number;
  descuento: number;
  ubicacion_id: number | null;
  /** A parte's hours lines carry 'horas' (as `facturar` copies it). */
  motivo: string | null;
  /** What is left to invoice, thousandths (signed: devolución lines negative). */
  cantidad: number;
};
type Grupo = {
  cliente_id: number;
  cliente_nombre: string;
  recargo: boolean;
  retencion: number;
  forma_pago: string | null;
  docs: Doc[];
  lineas: LineaValida[];
  origenes: Map<number, Origen>;
};

const toIds = (v: unknown): number[] | null => {
  if (v === undefined || v === null || v === '') return [];
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
  if (!list) return null;
  const ids = list.map((x) => (typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : x));
  return ids.every((x) => Number.isSafeInteger(x) && (x as number) > 0) ? [...new Set(ids as number[])] : null;
};

/** The period's documents still to invoice, of the customers asked (all when none), by customer and date. */
async function documentos(db: Kysely<Database>, desde: string, hasta: string, clientes: number[]): Promise<Doc[]> {
  const porCliente = clientes.length ? sql`and d.cliente_id in (${sql.join(clientes)})` : sql``;
  const { rows } = await sql<Doc>`
    select d.id, d.tipo, d.ejercicio, d.numero, d.fecha, d.total, d.cliente_id, d.almacen_id from documentos d
    where d.fecha >= ${desde} and d.fecha <= ${hasta} ${porCliente} and (
      (d.tipo = 'albaranventa' and d.estado = 'pendiente'
        and exists (select 1 from documento_lineas l where l.documento_id = d.id and l.pendiente > 0))
      or (d.tipo = 'parte' and d.estado = 'finalizado')
      or (d.tipo = 'devolucionventa' and d.estado = 'pendiente'
        and not exists (select 1 from documento_lineas l join documento_enlaces e on e.linea_id = l.id
          join documento_lineas pl on pl.id = e.padre_linea_id join documentos pd on pd.id = pl.documento_id
          where l.documento_id = d.id and not (pd.tipo = 'albaranventa' and pd.estado = 'pendiente'))))
    order by d.cliente_id, d.fecha, d.id`.execute(db);
  return rows.map((r) => ({ ...r, total: Number(r.total) }));
}

/** Each document's lines left to invoice: albarán and parte lines' pending units, devolución lines less what invoices took (negative). */
async function lineasDe(db: Kysely<Database>, docs: Doc[]): Promise<Map<number, LineaOrigen[]>> {
  const out = new Map<number, LineaOrigen[]>();
  const tipo = new Map(docs.map((d) => [d.id, d.tipo]));
  for (let i = 0; i < docs.length; i += CHUNK) {
    const ids = docs.slice(i, i + CHUNK).map((d) => d.id);
    const { rows } = await sql<LineaOrigen & { pendiente: number | string; facturado: number | string; total_linea: number | string }>`
      select l.id, l.documento_id, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.operacion, l.precio, l.descuento, l.ubicacion_id, l.motivo,
        l.cantidad as total_linea, l.pendiente,
        (select coalesce(sum(e.cantidad), 0) from documento_enlaces e join documento_lineas c on c.id = e.linea_id
          join documentos cd on cd.id = c.documento_id where e.padre_linea_id = l.id and cd.tipo in ('factura', 'rectificativa')) as facturado
      from documento_lineas l where l.documento_id in (${sql.join(ids)}) order by l.documento_id, l.orden, l.id`.execute(db);
    for (const r of rows) {
      const devolucion = tipo.get(r.documento_id) === 'devolucionventa';
      const cantidad = devolucion ? -(Math.abs(Number(r.total_linea)) - Number(r.facturado)) : Number(r.pendiente);
      if (cantidad === 0) continue;
      const lista = out.get(r.documento_id) ?? [];
      lista.push({ ...r, precio: Number(r.precio), descuento: Number(r.descuento), cantidad });
      out.set(r.documento_id, lista);
    }
  }
  return out;
}

/** The invoices to make: one per customer with documents left to invoice, its lines and their links. */
async function agrupar(db: Kysely<Database>, docs: Doc[]): Promise<Grupo[]> {
  const lineas = await lineasDe(db, docs);
  const clienteIds = [...new Set(docs.map((d) => d.cliente_id))];
  const clientes = new Map<number, { razon_social: string; recargo: number; retencion: number; forma_pago: string | null }>();
  for (let i = 0; i < clienteIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('clientes')
      .select(['id', 'razon_social', 'recargo', 'retencion', 'forma_pago'])
      .where('id', 'in', clienteIds.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) clientes.set(r.id, r);
  }
  const grupos = new Map<number, Grupo>();
  for (const d of docs) {
    const propias = lineas.get(d.id) ?? [];
    if (!propias.length) continue;
    const c = clientes.get(d.cliente_id);
    const g: Grupo = grupos.get(d.cliente_id) ?? {
      cliente_id: d.cliente_id, cliente_nombre: c?.razon_social ?? '', recargo: c?.recargo === 1, retencion: Number(c?.retencion ?? 0),
      forma_pago: c?.forma_pago ?? null, docs: [], lineas: [], origenes: new Map(),
    };
    g.docs.push(d);
    const consume = d.tipo !== 'devolucionventa';
    for (const l of propias) {
      g.lineas.push({
        articulo_id: l.articulo_id, codigo: l.codigo, descripcion: l.descripcion, tipo_iva: l.tipo_iva as TipoIva, familia_id: null, cantidad: l.cantidad,
        precio: l.precio, descuento: l.descuento, ubicacion_id: l.ubicacion_id, motivo: l.motivo, origen_linea_id: l.id,
        operacion: esOperacion(l.operacion) ? l.operacion : null,
      });
      g.origenes.set(l.id, { pendiente: consume, documento_id: d.id, facturable: true });
    }
    grupos.set(d.cliente_id, g);
  }
  return [...grupos.values()].sort((a, b) => a.cliente_nombre.localeCompare(b.cliente_nombre, 'es') || a.cliente_id - b.cliente_id);
}

const totalesDe = (g: Grupo) => calcularTotales(g.lineas, { retencion: g.retencion, recargo: g.recargo });

const fechas = {
  desde: { type: 'date', required: true },
  hasta: { type: 'date', required: true },
} as const satisfies Schema;

async function serieValida(db: Kysely<Database>, serieId: number | null, errors: FieldErrors): Promise<void> {
  if (serieId === null) {
    errors.serie_id = MESSAGES.serieRequerida;
    return;
  }
  await db.transaction().execute((trx) => validarSerie(trx, FACTURA, serieId, errors));
}

/** The run's answer: each invoice made (again, for a repeated `clave`). */
async function resultado(db: Kysely<Database>, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('documentos as d')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .leftJoin('clientes as c', 'c.id', 'd.cliente_id')
    .select(['d.id', 'd.ejercicio', 'd.numero', 's.codigo as serie_codigo', 'c.razon_social as cliente_nombre', 'd.total'])
    .where('d.id', 'in', ids)
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({ id: r.id, numero: numeroDe(FACTURA, r), cliente_nombre: r.cliente_nombre ?? '', total: Number(r.total) }));
}

/** Creates and issues the run's invoices inside `trx`. */
async function facturar(
  trx: Transaction<Database>,
  app: AppContext,
  user: SessionUser,
  p: { desde: string; hasta: string; clientes: number[]; serieId: number; fecha: string; clave: string | null },
): Promise<number[]> {
  // Hundreds of documents' links read by correlated subqueries: PostgreSQL's cost estimates of those pass its JIT
  // threshold, and compiling them (≈ 60 ms a statement) costs more than running them. For this transaction only.
  if (app.dialect === 'postgres') await sql`set local jit = off`.execute(trx);
  let docs = await documentos(trx, p.desde, p.hasta, p.clientes);
  if (app.dialect === 'postgres' && docs.length) {
    // Locked, then read again: a document another run invoiced meanwhile is no longer pending.
    for (let i = 0; i < docs.length; i += CHUNK) {
      await sql`select id from documentos where id in (${sql.join(docs.slice(i, i + CHUNK).map((d) => d.id))}) order by id for update`.execute(trx);
    }
    docs = await documentos(trx, p.desde, p.hasta, p.clientes);
  }
  const grupos = await agrupar(trx, docs);
  if (!grupos.length) throw fail(MESSAGES.nadaQueFacturar, '1', 400);
  const emitir = FACTURA.acciones.find((a) => a.verbo === 'emitir')!;
  // An invoice can't add up to less than nothing: that customer's returns need a rectificativa.
  for (const g of grupos) {
    const t = totalesDe(g);
    if (t.base + t.iva + t.recargo < 0) throw fail(`${MESSAGES.facturaTotalNegativo} (${g.cliente_nombre})`, '1', 400);
  }
  // Set-based for the whole run: the invoices, then all their lines, links and pending units, and the documents'
  // states once; then each invoice is issued (every line comes from a document: none moves stock).
  const ids: number[] = [];
  for (const [i, g] of grupos.entries()) {
    const t = totalesDe(g);
    const id = await insertarDocumento(trx, {
      tipo: FACTURA.tipo, serie_id: p.serieId, numero: null, ejercicio: Number(p.fecha.slice(0, 4)), fecha: p.fecha, estado: FACTURA.inicial,
      creado: nowIso(), creado_por: user.id, almacen_id: g.docs.find((d) => d.almacen_id !== null)?.almacen_id ?? null, almacen_destino_id: null,
      familia_id: null, ubicacion_id: null, proveedor_id: null, cliente_id: g.cliente_id, forma_pago: g.forma_pago, fecha_entrega: null,
      retencion: g.retencion, con_recargo: g.recargo ? 1 : 0, observaciones: null, base: t.base, iva: t.iva, recargo: t.recargo,
      retencion_importe: t.retencion_importe, total: t.total, desglose: JSON.stringify(t.desglose), clave: p.clave ? `${p.clave}:${i + 1}` : null,
      modificado: null, modificado_por: null,
    });
    ids.push(id);
  }
  const lineIds = await insertarLineasDe(trx, grupos.map((g, i) => ({ docId: ids[i], lineas: g.lineas })), false);
  const origenes = new Map<number, Origen>();
  for (const g of grupos) for (const [k, o] of g.origenes) origenes.set(k, o);
  await actualizarEstadoPadres(trx, await guardarEnlaces(trx, grupos.flatMap((g) => g.lineas), ids.flatMap((id) => lineIds.get(id)!), origenes));
  for (const id of ids) {
    await ejecutarAccionEn(trx, app, FACTURA, facturaEffects as unknown as TipoEffects, emitir, id, null, user, { [TODAS_CON_ORIGEN]: true } as Record<string, unknown>);
  }
  return ids;
}

export const hfaActions = [
  defineAction({
    name: 'hfapropuesta',
    method: 'GET',
    flags: FLAGS,
    input: { ...fechas, cliente_id: { type: 'int', min: 1 }, serie_id: { type: 'int', min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      if (input.serie_id !== null) {
        const errors: FieldErrors = {};
        await serieValida(app.db, input.serie_id, errors);
        if (Object.keys(errors).length) throw invalidFields(errors);
      }
      const docs = await documentos(app.db, input.desde, input.hasta, input.cliente_id !== null ? [input.cliente_id] : []);
      const grupos = await agrupar(app.db, docs);
      const data = grupos.map((g) => {
        const t = totalesDe(g);
        return {
          cliente_id: g.cliente_id,
          cliente_nombre: g.cliente_nombre,
          documentos: g.docs.map((d) => ({
            tipo: d.tipo, id: d.id, numero: numeroDeTipo(d.tipo, d), fecha: d.fecha, total: d.tipo === 'devolucionventa' ? -d.total : d.total,
          })),
          base: t.base,
          iva: t.iva,
          recargo: t.recargo,
          retencion_importe: t.retencion_importe,
          total: t.total,
        };
      });
      return { RESULT: '0', data, total: data.length };
    },
  }),

  defineAction({
    name: 'facturarhfa',
    method: 'POST',
    flags: FLAGS,
    input: { ...fechas, serie_id: { type: 'int', min: 1 }, fecha: { type: 'date' }, clave: { type: 'string', max: 60 } } as const satisfies Schema,
    async handler({ input, raw, app, user }) {
      const errors: FieldErrors = {};
      const clientes = toIds(raw.cliente_ids);
      if (clientes === null) errors.cliente_ids = MESSAGES.invalidList;
      await serieValida(app.db, input.serie_id, errors);
      if (Object.keys(errors).length) throw invalidFields(errors);
      const clave = input.clave ?? null;
      const anteriores = async () => {
        if (!clave) return null;
        const first = await app.db.selectFrom('documentos').select('id').where('clave', '=', `${clave}:1`).executeTakeFirst();
        if (!first) return null;
        const rows = await app.db.selectFrom('documentos').select(['id', 'clave']).where('clave', 'like', `${clave}:%`).where('tipo', '=', FACTURA.tipo).execute();
        return rows.filter((r) => /^\d+$/.test(r.clave!.slice(clave.length + 1))).map((r) => r.id);
      };
      // The same run sent twice (a retry): the first one's invoices.
      const hechas = await anteriores();
      if (hechas) return { RESULT: '0', data: await resultado(app.db, hechas) };
      const fecha = input.fecha ?? todayIn(app.timeZone);
      const ids = await app.db
        .transaction()
        .execute((trx) => facturar(trx, app, user!, { desde: input.desde, hasta: input.hasta, clientes: clientes!, serieId: input.serie_id!, fecha, clave }));
      return { RESULT: '0', data: await resultado(app.db, ids), total: ids.length };
    },
  }),
];
