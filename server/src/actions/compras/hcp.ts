import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, FORMA_PAGO_IDS, MESSAGES, fechasDePlazos, numeroDocumento } from 'shared/domain';
import type { DesgloseIva, FieldErrors, Schema, TipoIva } from 'shared/domain';
import { nowIso } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { albaranCompraEffects, devolucionCompraEffects, pedidoCompraEffects } from '../../documentos/compras.ts';
import { ejecutarAccionEn } from '../../documentos/engine.ts';
import { cuentaProveedorDe, fechasDe, recalcularCuentaProveedor } from '../../documentos/pagos.ts';
import type { TipoEffects } from '../../documentos/engine.ts';
import { listSchema, listado } from '../comun.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';

// biome-ignore lint/suspicious/noExplicitAny: filters are raw SQL over aliased tables
type AnyDb = Kysely<any>;

const FLAGS = ['compras' as const, 'hcp' as const];
const ALBARAN = DOCUMENTO_TIPOS.albarancompra;
const DEVOLUCION = DOCUMENTO_TIPOS.devolucioncompra;
const PEDIDO = DOCUMENTO_TIPOS.pedidocompra;
const EFFECTS = { albarancompra: albaranCompraEffects, devolucioncompra: devolucionCompraEffects } as unknown as Record<string, TipoEffects>;

const toIds = (v: unknown): number[] | null => {
  if (v === undefined || v === null || v === '') return [];
  if (!Array.isArray(v)) return null;
  const ids = v.map((x) => (typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x));
  return ids.every((x) => Number.isSafeInteger(x) && (x as number) > 0) ? [...new Set(ids as number[])] : null;
};

type DocFila = { id: number; tipo: string; ejercicio: number; numero: number | null; fecha: string; estado: string; proveedor_id: number | null; base: number; iva: number; total: number; desglose: string | null };

/** An invoice as answered: the typed total, what its documents add up to (devoluciones negative), the difference, the documents and the breakdown per rate. */
export async function leerFactura(db: AnyDb, id: number) {
  const f = await db
    .selectFrom('facturas_proveedor as f')
    .innerJoin('proveedores as p', 'p.id', 'f.proveedor_id')
    .select(['f.id', 'f.proveedor_id', 'p.razon_social as proveedor_nombre', 'p.nif as proveedor_nif', 'f.numero_proveedor', 'f.fecha', 'f.total', 'f.base', 'f.iva', 'f.total_documentos', 'f.creado'])
    // Issue 26: its forma de pago, due dates, what is left to pay and the invoice an abono rectifies.
    .select(['f.forma_pago', 'f.vencimientos', 'f.por_pagar', 'f.plazos_cubiertos', 'f.pago_fecha', 'f.rectifica_id'])
    .where('f.id', '=', id)
    .executeTakeFirst();
  if (!f) return undefined;
  const docs = (await db
    .selectFrom('facturas_proveedor_documentos as fd')
    .innerJoin('documentos as d', 'd.id', 'fd.documento_id')
    .select(['d.id', 'd.tipo', 'd.ejercicio', 'd.numero', 'd.fecha', 'd.estado', 'd.proveedor_id', 'd.base', 'd.iva', 'd.total', 'd.desglose'])
    .where('fd.factura_id', '=', id)
    .orderBy('d.fecha')
    .orderBy('d.id')
    .execute()) as DocFila[];
  const total = Number(f.total);
  const totalDocumentos = Number(f.total_documentos);
  const cuenta = await cuentaProveedorDe(db, id);
  return {
    ...f,
    vencimientos: fechasDe(f),
    por_pagar: Number(f.por_pagar),
    cuenta: cuenta && { factura_id: cuenta.factura_id, importe: cuenta.importe, pagado: cuenta.pagado, saldo: cuenta.saldo, plazos: cuenta.plazos, pagos: cuenta.pagos, abonos: cuenta.abonos },
    total,
    base: Number(f.base),
    iva: Number(f.iva),
    total_documentos: totalDocumentos,
    diferencia: total - totalDocumentos,
    desglose: desglose(docs),
    documentos: docs.map((d) => ({
      id: d.id,
      tipo: d.tipo,
      numero: numeroDocumento(d.tipo === DEVOLUCION.tipo ? DEVOLUCION.prefijo : ALBARAN.prefijo, d.ejercicio, d.numero),
      fecha: d.fecha,
      estado: d.estado,
      base: Number(d.base),
      iva: Number(d.iva),
      total: Number(d.total),
    })),
  };
}

/** Σ of the documents' breakdowns per rate, devoluciones negative. */
function desglose(docs: DocFila[]): DesgloseIva[] {
  const by = new Map<TipoIva, DesgloseIva>();
  for (const d of docs) {
    const s = d.tipo === DEVOLUCION.tipo ? -1 : 1;
    for (const g of (d.desglose ? JSON.parse(d.desglose) : []) as DesgloseIva[]) {
      const e = by.get(g.tipo_iva) ?? { tipo_iva: g.tipo_iva, base: 0, iva: 0, recargo: 0 };
      by.set(g.tipo_iva, { tipo_iva: g.tipo_iva, base: e.base + s * g.base, iva: e.iva + s * g.iva, recargo: e.recargo + s * g.recargo });
    }
  }
  return [...by.values()];
}

/** Runs `verbo` (finalizar / deshacerfinalizacion) on each document through the engine, in the caller's transaction. */
async function accionEn(trx: Transaction<Database>, app: { dialect: 'sqlite' | 'postgres'; timeZone: string }, docs: DocFila[], verbo: string, user: { id: number }) {
  for (const d of docs) {
    const def = d.tipo === DEVOLUCION.tipo ? DEVOLUCION : ALBARAN;
    const accion = def.acciones.find((a) => a.verbo === verbo)!;
    await ejecutarAccionEn(trx, app, def, EFFECTS[def.tipo], accion, d.id, null, user as never);
  }
}

/** The pedidos de compra the lines of these albaranes were received from. */
async function pedidosDe(trx: Transaction<Database>, albaranes: number[]): Promise<{ id: number; estado: string }[]> {
  if (!albaranes.length) return [];
  const { rows } = await sql<{ id: number; estado: string }>`select distinct pd.id, pd.estado from documento_lineas l
    join documento_enlaces e on e.linea_id = l.id join documento_lineas pl on pl.id = e.padre_linea_id
    join documentos pd on pd.id = pl.documento_id
    where l.documento_id in (${sql.join(albaranes)}) and pd.tipo = ${PEDIDO.tipo} order by pd.id`.execute(trx);
  return rows;
}

/** Whether every albarán received from a pedido is finished. */
async function albaranesFinalizados(trx: Transaction<Database>, pedidoId: number): Promise<boolean> {
  const { rows } = await sql<{ x: number }>`select 1 as x from documento_lineas pl
    join documento_enlaces e on e.padre_linea_id = pl.id join documento_lineas l on l.id = e.linea_id
    join documentos d on d.id = l.documento_id
    where pl.documento_id = ${pedidoId} and d.tipo = ${ALBARAN.tipo} and d.estado <> 'finalizado' limit 1`.execute(trx);
  return rows.length === 0;
}

/** Issue 17: after hcp finishes albaranes, each order fully received (Recibido) whose albaranes are all finished finishes too. */
async function finalizarPedidos(trx: Transaction<Database>, app: { dialect: 'sqlite' | 'postgres'; timeZone: string }, albaranes: number[], user: { id: number }) {
  const finalizar = PEDIDO.acciones.find((a) => a.verbo === 'finalizar')!;
  for (const p of await pedidosDe(trx, albaranes)) {
    if (p.estado !== 'recibido' || !(await albaranesFinalizados(trx, p.id))) continue;
    await ejecutarAccionEn(trx, app, PEDIDO, pedidoCompraEffects as unknown as TipoEffects, finalizar, p.id, null, user as never);
  }
}

/** Undoing the reconciliation: the orders it finished (finished, nothing left pending) come back to Recibido. */
async function reabrirPedidos(trx: Transaction<Database>, app: { dialect: 'sqlite' | 'postgres'; timeZone: string }, albaranes: number[], user: { id: number }) {
  const deshacer = PEDIDO.acciones.find((a) => a.verbo === 'deshacerfinalizacion')!;
  for (const p of await pedidosDe(trx, albaranes)) {
    if (p.estado !== 'finalizado') continue;
    const { rows } = await sql<{ x: number }>`select 1 as x from documento_lineas where documento_id = ${p.id} and pendiente > 0 limit 1`.execute(trx);
    const ultima = await trx
      .selectFrom('documento_acciones')
      .select('estado_antes')
      .where('documento_id', '=', p.id)
      .where('accion', '=', 'finalizar')
      .where('deshecha_por', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (rows.length || ultima?.estado_antes !== 'recibido') continue;
    await ejecutarAccionEn(trx, app, PEDIDO, pedidoCompraEffects as unknown as TipoEffects, deshacer, p.id, null, user as never);
  }
}

const PENDIENTE_COLUMNAS = [
  'd.id', 'd.tipo', 'd.ejercicio', 'd.numero', 'd.fecha', 'd.estado', 'd.proveedor_id', 'd.base', 'd.iva', 'd.total', 'd.retencion_importe', 'd.desglose',
  'd.albaran_proveedor',
];

/** A pending document as hcp offers it: its displayed number, amounts as integers, its breakdown and its sign. */
function pendiente(d: DocFila & { retencion_importe: number; albaran_proveedor: string | null }) {
  const def = d.tipo === DEVOLUCION.tipo ? DEVOLUCION : ALBARAN;
  return {
    id: d.id,
    tipo: d.tipo,
    numero: numeroDocumento(def.prefijo, d.ejercicio, d.numero),
    fecha: d.fecha,
    estado: d.estado,
    proveedor_id: d.proveedor_id,
    base: Number(d.base),
    iva: Number(d.iva),
    total: Number(d.total),
    retencion_importe: Number(d.retencion_importe),
    desglose: (d.desglose ? JSON.parse(d.desglose) : []) as DesgloseIva[],
    signo: def === DEVOLUCION ? -1 : 1,
    // Issue 17: the supplier's own delivery-note number, as its invoice lists it.
    albaran_proveedor: d.albaran_proveedor ?? null,
  };
}

const listInput = {
  ...listSchema(['fecha', 'numero_proveedor', 'total', 'por_pagar'] as const),
  proveedor_id: { type: 'int', min: 1 },
  // Issue 26: what is left to pay (pendiente: the shop owes; pagada: settled).
  pago: { type: 'enum', values: ['pendiente', 'pagada'] },
  desde: { type: 'date' },
  hasta: { type: 'date' },
} as const satisfies Schema;

const pendientesInput = {
  ...listSchema(['fecha'] as const),
  proveedor_id: { type: 'int', required: true, min: 1 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
} as const satisfies Schema;

/** Typed due dates (issue 26): absent → [] (from the forma de pago); dates not before the invoice's, sorted; else null. */
function leerVencimientos(v: unknown, fecha: string | null): string[] | null {
  if (v === undefined || v === null || v === '') return [];
  if (!Array.isArray(v) || v.length > 24) return null;
  const ok = v.every((x) => typeof x === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(x) && !Number.isNaN(Date.parse(`${x}T00:00:00Z`)) && (!fecha || x >= fecha));
  return ok ? [...(v as string[])].sort() : null;
}

/** 'AC 2026/000012', '2026/12' or '12': the number (and year) a search names. */
function numeroBuscado(q: string): { ejercicio: number | null; numero: number } | null {
  const m = /(?:(\d{4})\s*\/\s*)?(\d{1,9})\s*$/.exec(q.trim());
  return m ? { ejercicio: m[1] ? Number(m[1]) : null, numero: Number(m[2]) } : null;
}

/** hcp (issue 7): the supplier invoice that covers albaranes and devoluciones, which it finishes; its undo. */
export const hcpActions = [
  /**
   * What an invoice of the supplier may cover: its pending albaranes (and devoluciones, with their flag on),
   * one list paged like any other, oldest first, each with its breakdown per rate and its sign.
   */
  defineAction({
    name: 'listadopendienteshcp',
    method: 'GET',
    flags: FLAGS,
    input: pendientesInput,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      const tipos = (await app.config.flags()).compras_devoluciones ? [ALBARAN.tipo, DEVOLUCION.tipo] : [ALBARAN.tipo];
      const buscado = input.q ? numeroBuscado(input.q) : null;
      const filters: RawBuilder<boolean>[] = [
        sql<boolean>`d.proveedor_id = ${input.proveedor_id}`,
        sql<boolean>`d.tipo in (${sql.join(tipos)})`,
        sql<boolean>`d.estado = 'pendiente'`,
      ];
      if (input.desde) filters.push(sql<boolean>`d.fecha >= ${input.desde}`);
      if (input.hasta) filters.push(sql<boolean>`d.fecha <= ${input.hasta}`);
      // Our number ('AC 2026/12', '12') or the supplier's delivery-note number (a part of it, as its invoice lists it).
      if (input.q) {
        const texto = `%${input.q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const suyo = sql<boolean>`lower(coalesce(d.albaran_proveedor, '')) like ${texto} escape '\\'`;
        const nuestro = buscado
          ? buscado.ejercicio
            ? sql<boolean>`(d.numero = ${buscado.numero} and d.ejercicio = ${buscado.ejercicio})`
            : sql<boolean>`d.numero = ${buscado.numero}`
          : sql<boolean>`1 = 0`;
        filters.push(sql<boolean>`(${nuestro} or ${suyo})`);
      }
      // biome-ignore lint/suspicious/noExplicitAny: any select query of the AnyDb above
      const where = (q: any): any => filters.reduce((acc, f) => acc.where(f), q);
      return listado(input, {
        one: async (id) => (await where(db.selectFrom('documentos as d')).where('d.id', '=', id).select(PENDIENTE_COLUMNAS).execute()).map(pendiente)[0],
        total: async () => (await where(db.selectFrom('documentos as d')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n,
        page: async ({ limit, offset, dir }) =>
          (await where(db.selectFrom('documentos as d')).select(PENDIENTE_COLUMNAS).orderBy('d.fecha', dir).orderBy('d.id', dir).limit(limit).offset(offset).execute()).map(
            pendiente,
          ),
      });
    },
  }),

  defineAction({
    name: 'editarfacturaproveedor',
    method: 'POST',
    flags: FLAGS,
    input: {
      proveedor_id: { type: 'int', required: true, min: 1 },
      numero_proveedor: { type: 'string', required: true, max: 60 },
      fecha: { type: 'date', required: true },
      total: { type: 'int', required: true, min: -1e13, max: 1e13 },
      // Issue 26: how it is paid (absent: the supplier's); the due dates typed (absent: from the forma de pago); the
      // invoice an abono (a negative invoice) rectifies, whose account it nets.
      forma_pago: { type: 'enum', values: FORMA_PAGO_IDS },
      rectifica_id: { type: 'int', min: 1 },
    } satisfies Schema,
    async handler({ input, raw, app, user }) {
      const errors: FieldErrors = {};
      const vencimientos = leerVencimientos(raw.vencimientos, input.fecha);
      if (vencimientos === null) errors.vencimientos = MESSAGES.vencimientosNoValidos;
      const albaranes = toIds(raw.albaranes);
      const devoluciones = toIds(raw.devoluciones);
      if (!albaranes) errors.albaranes = MESSAGES.invalidList;
      if (!devoluciones) errors.devoluciones = MESSAGES.invalidList;
      if (albaranes && devoluciones && !albaranes.length && !devoluciones.length) errors.albaranes = MESSAGES.facturaSinDocumentos;
      if (Object.keys(errors).length) throw invalidFields(errors);
      const id = await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const p = await db.selectFrom('proveedores').select(['id', 'forma_pago']).where('id', '=', input.proveedor_id).executeTakeFirst();
        if (!p) throw invalidFields({ proveedor_id: MESSAGES.proveedorNoActivo });
        if (input.rectifica_id !== null) {
          const r = await db.selectFrom('facturas_proveedor').select(['id', 'proveedor_id', 'rectifica_id']).where('id', '=', input.rectifica_id).executeTakeFirst();
          if (!r) throw invalidFields({ rectifica_id: MESSAGES.notFound });
          if (r.proveedor_id !== input.proveedor_id) throw invalidFields({ rectifica_id: MESSAGES.abonoOtroProveedor });
          if (r.rectifica_id) throw invalidFields({ rectifica_id: MESSAGES.abonoDeAbono });
        }
        const formaPago = input.forma_pago ?? p.forma_pago ?? null;
        const ids = [...albaranes!, ...devoluciones!];
        const docs = (await db
          .selectFrom('documentos')
          .select(['id', 'tipo', 'ejercicio', 'numero', 'fecha', 'estado', 'proveedor_id', 'base', 'iva', 'total', 'desglose'])
          .where('id', 'in', ids)
          .$if(app.dialect === 'postgres', (q) => q.forUpdate())
          .execute()) as DocFila[];
        const byId = new Map(docs.map((d) => [d.id, d]));
        const tipoOk = (list: number[], tipo: string) => list.every((x) => byId.get(x)?.tipo === tipo);
        if (!tipoOk(albaranes!, ALBARAN.tipo) || !tipoOk(devoluciones!, DEVOLUCION.tipo)) throw fail(MESSAGES.notFound, '3');
        if (docs.some((d) => d.proveedor_id !== input.proveedor_id)) throw fail(MESSAGES.documentoOtroProveedor, '1', 400);
        if (docs.some((d) => d.estado !== 'pendiente')) throw fail(MESSAGES.documentoNoPendiente, '1', 400);
        let base = 0n;
        let iva = 0n;
        let total = 0n;
        for (const d of docs) {
          const s = d.tipo === DEVOLUCION.tipo ? -1n : 1n;
          base += s * BigInt(d.base);
          iva += s * BigInt(d.iva);
          total += s * BigInt(d.total);
        }
        const created = await db
          .insertInto('facturas_proveedor')
          .values({
            proveedor_id: input.proveedor_id,
            numero_proveedor: input.numero_proveedor,
            fecha: input.fecha,
            total: input.total,
            base: Number(base),
            iva: Number(iva),
            total_documentos: Number(total),
            creado: nowIso(),
            creado_por: user!.id,
            forma_pago: formaPago,
            vencimientos: JSON.stringify(vencimientos?.length ? vencimientos : fechasDePlazos(input.fecha, formaPago)),
            rectifica_id: input.rectifica_id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db.insertInto('facturas_proveedor_documentos').values(ids.map((documento_id) => ({ factura_id: created.id, documento_id }))).execute();
        await recalcularCuentaProveedor(db, created.id);
        await accionEn(trx, app, docs, 'finalizar', user!);
        // Issue 17: an order fully received whose albaranes are all finished now is finished too.
        await finalizarPedidos(trx, app, docs.filter((d) => d.tipo === ALBARAN.tipo).map((d) => d.id), user!);
        return created.id as number;
      });
      return { RESULT: '0', data: [await leerFactura(app.db as AnyDb, id)] };
    },
  }),

  defineAction({
    name: 'listadofacturasproveedor',
    method: 'GET',
    flags: FLAGS,
    input: listInput,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      const filters: RawBuilder<boolean>[] = [];
      if (input.proveedor_id !== null) filters.push(sql<boolean>`f.proveedor_id = ${input.proveedor_id}`);
      if (input.desde) filters.push(sql<boolean>`f.fecha >= ${input.desde}`);
      if (input.hasta) filters.push(sql<boolean>`f.fecha <= ${input.hasta}`);
      if (input.pago === 'pendiente') filters.push(sql<boolean>`f.por_pagar > 0`);
      if (input.pago === 'pagada') filters.push(sql<boolean>`f.por_pagar = 0`);
      if (input.q) filters.push(sql<boolean>`f.numero_proveedor like ${`%${input.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
      // biome-ignore lint/suspicious/noExplicitAny: any select query of the AnyDb above
      const where = (q: any): any => filters.reduce((acc, f) => acc.where(f), q);
      return listado(input, {
        one: (id) => leerFactura(db, id),
        total: async () => (await where(db.selectFrom('facturas_proveedor as f')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n,
        page: async ({ limit, offset, dir }) => {
          const rows = await where(db.selectFrom('facturas_proveedor as f'))
            .innerJoin('proveedores as p', 'p.id', 'f.proveedor_id')
            .select(['f.id', 'f.proveedor_id', 'p.razon_social as proveedor_nombre', 'f.numero_proveedor', 'f.fecha', 'f.total', 'f.base', 'f.iva', 'f.total_documentos'])
            .select(['f.forma_pago', 'f.vencimientos', 'f.por_pagar', 'f.plazos_cubiertos', 'f.pago_fecha', 'f.rectifica_id'])
            .select(sql<number>`(select count(*) from facturas_proveedor_documentos fd where fd.factura_id = f.id)`.as('num_documentos'))
            .orderBy(`f.${input.orden ?? 'fecha'}`, dir)
            .orderBy('f.id', dir)
            .limit(limit)
            .offset(offset)
            .execute();
          return rows.map((r: Record<string, unknown>) => {
            const n = (k: string) => Number(r[k]);
            return {
              ...r,
              total: n('total'), base: n('base'), iva: n('iva'), total_documentos: n('total_documentos'), num_documentos: n('num_documentos'), diferencia: n('total') - n('total_documentos'),
              por_pagar: n('por_pagar'), vencimientos: fechasDe(r as { fecha: string; vencimientos: string | null }),
            };
          });
        },
      });
    },
  }),

  /** The undo: its documents back to Pendiente (each through the engine's deshacerfinalizacion), the invoice gone. */
  defineAction({
    name: 'eliminarfacturaproveedor',
    method: 'POST',
    flags: FLAGS,
    input: { id: { type: 'int', required: true, min: 1 } } satisfies Schema,
    async handler({ input, app, user }) {
      await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const f = await db.selectFrom('facturas_proveedor').select(['id', 'rectifica_id']).where('id', '=', input.id).executeTakeFirst();
        if (!f) throw fail(MESSAGES.notFound, '3');
        // Issue 26: its payments and its abonos go first (each undone on its own).
        if (await db.selectFrom('pagos_proveedor').select('id').where('factura_id', '=', input.id).executeTakeFirst()) throw fail(MESSAGES.facturaProveedorConPagos, '1', 400);
        if (await db.selectFrom('facturas_proveedor').select('id').where('rectifica_id', '=', input.id).executeTakeFirst()) throw fail(MESSAGES.facturaProveedorConAbonos, '1', 400);
        const docs = (await db
          .selectFrom('facturas_proveedor_documentos as fd')
          .innerJoin('documentos as d', 'd.id', 'fd.documento_id')
          .select(['d.id', 'd.tipo'])
          .where('fd.factura_id', '=', input.id)
          .execute()) as DocFila[];
        // The links first: a document an invoice covers refuses its own deshacerfinalizacion.
        await db.deleteFrom('facturas_proveedor_documentos').where('factura_id', '=', input.id).execute();
        // Their orders the reconciliation finished come back first (an order is finished while all its albaranes are).
        await reabrirPedidos(trx, app, docs.filter((d) => d.tipo === ALBARAN.tipo).map((d) => d.id), user!);
        await accionEn(trx, app, docs, 'deshacerfinalizacion', user!);
        await db.deleteFrom('facturas_proveedor').where('id', '=', input.id).execute();
        // An abono gone: the invoice it rectified owes again what it netted.
        if (f.rectifica_id) await recalcularCuentaProveedor(db, f.rectifica_id);
      });
      return { RESULT: '0', data: [{ id: input.id }] };
    },
  }),
];
