import type { Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, calcularTotales, documentoVentaSchema as cabecera } from 'shared/domain';
import type { FieldErrors, ParteHora, Schema, TipoIva } from 'shared/domain';
import { NEW_ARTICULO, withDerived } from '../catalogo/derivados.ts';
import type { Database } from '../db/schema.ts';
import { almacenActivo } from './almacen.ts';
import { registrarTipo } from './tipos.ts';
import { toInt } from './validacion.ts';
import type { EffectContext, EffectResult, TipoEffects } from './tipos.ts';
import { cerrarPendiente } from './enlaces.ts';
import { moverStockVenta } from './movimientos.ts';

/**
 * The sales documents (issue 8) on the engine: pedido, albarán and devolución de venta, and the parte de trabajo.
 * What the engine does generically comes from their rows of DOCUMENTO_TIPOS (the customer from `tercero`, with
 * its forma de pago, retención, recargo, tarifa and discount; stock on save from `stockAlGuardar`, kits taking
 * their components' stock; the albarán `servir` makes and the draft invoice `facturar` makes from `hijo`); this
 * file adds the headers, the pedido's "finalizar" (closes what is pending, which stops reserving it), the
 * devolución's origins (albaranes and facturas) and the parte's hours and materials.
 */

/** The sales header (shared/domain, as the forms validate it) and the pedido's delivery date. */
export const documentoVentaSchema = { ...cabecera, fecha_entrega: { type: 'date' } } satisfies Schema;

/** A parte de trabajo's header: + who did the work (default: whoever saves it). */
export const parteSchema = { ...documentoVentaSchema, usuario_id: { type: 'int', min: 1 } } satisfies Schema;

/** Columns of every sales document; `con_recargo` is the customer's (the engine sets it with the party). */
const COLUMNAS = ['cliente_id', 'almacen_id', 'forma_pago', 'retencion', 'observaciones', 'observaciones_cliente', 'con_recargo'] as const;

function base<S extends typeof documentoVentaSchema>(schema: S, columns: readonly string[]): TipoEffects<S> {
  return {
    schema,
    headerColumns: columns,
    precioPorDefecto: 'venta',
    almacenLineas: (h) => h.almacen_id,
    async validate({ trx, header, errors }) {
      await almacenActivo(trx, header.almacen_id, 'almacen_id', errors);
    },
    acciones: {},
  };
}

export const pedidoVentaEffects: TipoEffects<typeof documentoVentaSchema> = {
  ...base(documentoVentaSchema, [...COLUMNAS, 'fecha_entrega']),
  acciones: {
    /** What is still pending is closed (its undo gives it back). */
    finalizar: cerrarPendiente,
  },
};

export const albaranVentaEffects: TipoEffects<typeof documentoVentaSchema> = base(documentoVentaSchema, COLUMNAS);

/**
 * A devolución comes from albarán or emitted invoice lines (up to what was sold and not yet returned: the engine's
 * links), or from nothing.
 */
export const devolucionVentaEffects: TipoEffects<typeof documentoVentaSchema> = {
  ...base(documentoVentaSchema, COLUMNAS),
  origenes: ['albaranventa', 'factura'],
  async validate({ trx, header, lineas, errors }) {
    await almacenActivo(trx, header.almacen_id, 'almacen_id', errors);
    const ids = [...new Set(lineas.map((l) => l.origen_linea_id).filter((id): id is number => id !== null))];
    if (!ids.length) return;
    // An invoice line only once the invoice is emitted (a draft's lines are still its albaranes').
    const borradores = new Set<number>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await trx
        .selectFrom('documento_lineas as l')
        .innerJoin('documentos as d', 'd.id', 'l.documento_id')
        .select('l.id')
        .where('l.id', 'in', ids.slice(i, i + 500))
        .where('d.tipo', '=', 'factura')
        .where('d.estado', '<>', 'emitida')
        .execute();
      for (const r of rows) borradores.add(r.id);
    }
    lineas.forEach((l, i) => {
      if (l.origen_linea_id !== null && borradores.has(l.origen_linea_id)) errors[`lineas.${i}.origen_linea_id`] = MESSAGES.lineaOrigenClienteNoValida;
    });
  },
};

// Partes de trabajo ----------------------------------------------------------------------------------------------
//
// A parte's hours are kept twice, on purpose: `parte_horas` (proceso, horas, precio: what the record edits and
// answers as `horas`) and, written from it on every save, one line of the parte per row (motivo 'horas'), whose
// article is the proceso's service article (documento_lineas.articulo_id is required). Those lines are hidden from
// the record's `lineas` (the materials), count in its totals, move no stock (the article is measured in hours), and
// are what `facturar` links the invoice's hours lines to, like the materials: the engine's generic facturar makes
// the draft invoice from every line, the invoiceable state follows the links, and the parte shows its invoice.

/** Marks a parte's hours lines (documento_lineas.motivo): a pérdida's reasons are the only other use of the column. */
export const MOTIVO_HORAS = 'horas';

/** Hours per proceso of a parte, as validated (precio defaults to the proceso's coste). */
type HoraValida = { proceso_id: number; horas: number; precio: number };

/** The hours a save validated, by the request body they came in (alGuardar writes them). */
const HORAS = new WeakMap<Record<string, unknown>, HoraValida[]>();

const MAX_HORAS = 500;

/** Checks `horas: [{proceso_id, horas, precio?}]`; errors as `horas.N.campo`. Absent: no hours. */
async function validarHoras(trx: Transaction<Database>, raw: unknown, errors: FieldErrors): Promise<HoraValida[]> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > MAX_HORAS) {
    errors.horas = MESSAGES.invalidList;
    return [];
  }
  const filas = raw.map((item, i) => {
    const h = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const proceso_id = toInt(h.proceso_id);
    const horas = toInt(h.horas);
    const dado = h.precio !== undefined && h.precio !== null && h.precio !== '';
    const precio = dado ? toInt(h.precio) : null;
    if (proceso_id === null || proceso_id < 1) errors[`horas.${i}.proceso_id`] = MESSAGES.unknownElement;
    if (horas === null || horas < 1 || horas > 1e9) errors[`horas.${i}.horas`] = MESSAGES.cantidadMayorQueCero;
    if (dado && (precio === null || precio < 0 || precio > 1e13)) errors[`horas.${i}.precio`] = MESSAGES.invalidNumber;
    return { proceso_id, horas, precio };
  });
  const ids = [...new Set(filas.map((f) => f.proceso_id).filter((id): id is number => id !== null && id > 0))];
  const procesos = new Map<number, number>();
  if (ids.length) {
    const rows = await trx.selectFrom('procesos').select(['id', 'coste']).where('id', 'in', ids).execute();
    for (const r of rows) procesos.set(r.id, Number(r.coste));
  }
  return filas.map((f, i) => {
    const coste = f.proceso_id !== null ? procesos.get(f.proceso_id) : undefined;
    if (coste === undefined) errors[`horas.${i}.proceso_id`] ??= MESSAGES.unknownElement;
    return { proceso_id: f.proceso_id ?? 0, horas: f.horas ?? 0, precio: f.precio ?? coste ?? 0 };
  });
}

/**
 * The service article that carries a proceso's hours: código 'MO-<proceso código>', created the first time it is
 * needed — description the proceso's name, measured in hours ('h': it never moves stock), IVA 21 %, tarifa prices
 * the proceso's coste, linked to the proceso. An article with that code made by hand is used as it is.
 */
export async function articuloDeProceso(trx: Transaction<Database>, procesoId: number): Promise<{ id: number; tipo_iva: TipoIva; codigo: string; descripcion: string }> {
  const p = await trx.selectFrom('procesos').select(['codigo', 'nombre', 'coste']).where('id', '=', procesoId).executeTakeFirstOrThrow();
  const codigo = `MO-${p.codigo}`.slice(0, 30);
  const existente = await trx.selectFrom('articulos').select(['id', 'tipo_iva', 'codigo', 'descripcion']).where('codigo', '=', codigo).executeTakeFirst();
  if (existente) return { ...existente, tipo_iva: existente.tipo_iva as TipoIva };
  const coste = Number(p.coste);
  const values = withDerived({
    ...NEW_ARTICULO,
    codigo,
    descripcion: p.nombre,
    unidad_medida: 'h' as const,
    precio_venta: coste,
    tarifa_2: coste,
    tarifa_3: coste,
    tipo_iva: '21' as TipoIva,
  });
  const created = await trx.insertInto('articulos').values(values).returning('id').executeTakeFirstOrThrow();
  await trx.insertInto('articulo_procesos').values({ articulo_id: created.id, proceso_id: procesoId }).execute();
  return { id: created.id, tipo_iva: '21', codigo, descripcion: p.nombre };
}

export const parteEffects: TipoEffects<typeof parteSchema> = {
  ...base(parteSchema, [...COLUMNAS, 'usuario_id']),
  async validate({ trx, header, lineas, errors, raw, user }) {
    await almacenActivo(trx, header.almacen_id, 'almacen_id', errors);
    // The materials carry no motivo: 'horas' marks the lines the hours write.
    for (const l of lineas) l.motivo = null;
    // Who did the work: an active user, by default whoever saves it.
    header.usuario_id ??= user.id;
    const u = await trx.selectFrom('usuarios').select('activo').where('id', '=', header.usuario_id).executeTakeFirst();
    if (u?.activo !== 1) errors.usuario_id = MESSAGES.unknownElement;
    HORAS.set(raw, await validarHoras(trx, raw.horas, errors));
  },
  /**
   * After the engine wrote the materials: the hours replace the parte's (parte_horas and their lines, after the
   * materials, all pending to invoice), and the totals add them at their service articles' IVA.
   */
  async alGuardar({ trx, docId, raw }) {
    const horas = raw ? HORAS.get(raw) : undefined;
    if (!horas) return;
    await trx.deleteFrom('parte_horas').where('documento_id', '=', docId).execute();
    await trx.deleteFrom('documento_lineas').where('documento_id', '=', docId).where('motivo', '=', MOTIVO_HORAS).execute();
    if (horas.length) {
      await trx
        .insertInto('parte_horas')
        .values(horas.map((h, i) => ({ documento_id: docId, orden: i + 1, proceso_id: h.proceso_id, horas: h.horas, precio: h.precio })))
        .execute();
      const ultima = await trx
        .selectFrom('documento_lineas')
        .select((eb) => eb.fn.max('orden').as('orden'))
        .where('documento_id', '=', docId)
        .executeTakeFirst();
      const desde = Number(ultima?.orden ?? 0);
      const articulos = new Map<number, Awaited<ReturnType<typeof articuloDeProceso>>>();
      for (const id of new Set(horas.map((h) => h.proceso_id))) articulos.set(id, await articuloDeProceso(trx, id));
      await trx
        .insertInto('documento_lineas')
        .values(
          horas.map((h, i) => {
            const a = articulos.get(h.proceso_id)!;
            return {
              documento_id: docId, orden: desde + i + 1, articulo_id: a.id, codigo: a.codigo, descripcion: a.descripcion, tipo_iva: a.tipo_iva,
              cantidad: h.horas, precio: h.precio, descuento: 0, pendiente: h.horas, almacen_id: null, ubicacion_id: null, motivo: MOTIVO_HORAS,
              teorico: null,
            };
          }),
        )
        .execute();
    }
    const doc = await trx.selectFrom('documentos').select(['retencion', 'con_recargo']).where('id', '=', docId).executeTakeFirstOrThrow();
    const lineas = await trx.selectFrom('documento_lineas').select(['cantidad', 'precio', 'descuento', 'tipo_iva']).where('documento_id', '=', docId).execute();
    const t = calcularTotales(
      lineas.map((l) => ({ ...l, tipo_iva: l.tipo_iva as TipoIva })),
      { retencion: doc.retencion, recargo: doc.con_recargo === 1 },
    );
    await trx
      .updateTable('documentos')
      .set({ base: t.base, iva: t.iva, recargo: t.recargo, retencion_importe: t.retencion_importe, total: t.total, desglose: JSON.stringify(t.desglose) })
      .where('id', '=', docId)
      .execute();
  },
  async alBorrar({ trx, docId }) {
    await trx.deleteFrom('parte_horas').where('documento_id', '=', docId).execute();
  },
  /** The record: `lineas` are the materials, `horas` the hours (with the proceso's name); and who did the work. */
  async alLeer({ db, doc }) {
    doc.lineas = doc.lineas?.filter((l) => (l.motivo as string | null) !== MOTIVO_HORAS);
    doc.num_lineas = doc.lineas?.length ?? 0;
    const horas = await db
      .selectFrom('parte_horas as h')
      .innerJoin('procesos as p', 'p.id', 'h.proceso_id')
      .select(['h.id', 'h.proceso_id', 'p.nombre as proceso_nombre', 'h.horas', 'h.precio'])
      .where('h.documento_id', '=', doc.id)
      .orderBy('h.orden')
      .execute();
    doc.horas = horas.map((h) => ({ ...h, horas: Number(h.horas), precio: Number(h.precio) })) as ParteHora[];
    // usuario_nombre comes with the header (every document's).
  },
  acciones: {
    /** The materials leave the parte's warehouse (causa 'parte'; kits as their components; hours move nothing). The undo is generic. */
    async finalizar(ctx: EffectContext): Promise<EffectResult> {
      await moverStockVenta(ctx.trx, { tipo: ctx.def.tipo, id: ctx.doc.id, almacenId: ctx.doc.almacen_id! }, { signo: -1, causa: 'parte' }, ctx.accionId, ctx.hoy);
      return {};
    },
    // facturar is the engine's: the draft invoice with every line (materials and hours), linked.
  },
};

/** The sales document types, registered with the engine (actions/ventas makes their op.asp actions). */
export const tiposVenta = [
  registrarTipo(DOCUMENTO_TIPOS.pedidoventa, pedidoVentaEffects),
  registrarTipo(DOCUMENTO_TIPOS.albaranventa, albaranVentaEffects),
  registrarTipo(DOCUMENTO_TIPOS.devolucionventa, devolucionVentaEffects),
  registrarTipo(DOCUMENTO_TIPOS.parte, parteEffects),
];
