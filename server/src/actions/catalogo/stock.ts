import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { divRound } from 'shared/domain';
import type { StockAlmacen } from 'shared/domain';
import type { Database } from '../../db/schema.ts';

/**
 * The stock ledger (`stock_movimientos`) as the catalogue reads it. Later sections write it, one row
 * per movement: `cantidad` signed in thousandths (+ in, − out), `precio` the movement's net unit
 * price in ten-thousandths, and a `causa` from these lists. Stock of an article in a warehouse is the
 * sum of its rows; `articulos.stock_total` is the same sum over all warehouses, kept by triggers.
 */
export const CAUSAS_COMPRA = ['compra', 'devolucion_compra'] as const;
/** Sold: albaranes and direct invoices (venta), returns, goods a rectificativa takes back or sends, materials of a parte. */
export const CAUSAS_VENTA = ['venta', 'devolucion_venta', 'rectificativa', 'parte'] as const;
/** Movements that are neither bought nor sold: they change stock only. */
export const CAUSAS_OTRAS = ['inicial', 'ajuste', 'inventario', 'traspaso', 'perdida', 'kit'] as const;
export type StockCausa = (typeof CAUSAS_COMPRA)[number] | (typeof CAUSAS_VENTA)[number] | (typeof CAUSAS_OTRAS)[number];

/**
 * Stock per warehouse: every active warehouse, and inactive ones that still hold stock; with the
 * stock per location where the article has located rows (issue 6), and what is in transit towards
 * each warehouse (sent by a movimiento, not yet received).
 */
export async function stockPorAlmacen(db: Kysely<Database>, articuloId: number): Promise<StockAlmacen[]> {
  // Two statements: the warehouses with the article's usual location and what is in transit towards
  // each (sent by a movimiento, not yet received), and the article's ledger grouped by warehouse and
  // location (covering index articulo_id, almacen_id, …).
  const almacenes = await sql<{ id: number; nombre: string; activo: number; transito: string | null; ubicacion_id: number | null; codigo: string | null }>`
    select al.id, al.nombre, al.activo, au.ubicacion_id, u.codigo,
      (select cast(sum(l.pendiente) as text) from documento_lineas l join documentos d on d.id = l.documento_id
        where l.articulo_id = ${articuloId} and l.pendiente > 0 and d.tipo = 'movimiento' and d.almacen_destino_id = al.id) as transito
    from almacenes al
    left join articulo_ubicaciones au on au.almacen_id = al.id and au.articulo_id = ${articuloId}
    left join ubicaciones u on u.id = au.ubicacion_id
    order by al.id`.execute(db);
  const porUbicacion = await db
    .selectFrom('stock_movimientos as sm')
    .leftJoin('ubicaciones as u', 'u.id', 'sm.ubicacion_id')
    .select(['sm.almacen_id', 'sm.ubicacion_id', 'u.codigo'])
    .select(sql<string>`cast(sum(sm.cantidad) as text)`.as('stock'))
    .where('sm.articulo_id', '=', articuloId)
    .groupBy(['sm.almacen_id', 'sm.ubicacion_id', 'u.codigo'])
    .execute();
  const out: StockAlmacen[] = [];
  for (const al of almacenes.rows) {
    const filas = porUbicacion.filter((r) => r.almacen_id === al.id);
    const stock = filas.reduce((s, r) => s + BigInt(r.stock), 0n);
    const transit = BigInt(al.transito ?? 0);
    if (al.activo !== 1 && stock === 0n && transit === 0n) continue;
    const ubicadas = filas.some((r) => r.ubicacion_id !== null);
    const ubicaciones = ubicadas
      ? filas
          .filter((r) => BigInt(r.stock) !== 0n)
          .map((r) => ({ ubicacion_id: r.ubicacion_id ?? null, ubicacion_codigo: r.codigo ?? null, stock: Number(r.stock) }))
          .sort((a, b) => (a.ubicacion_codigo ?? '\uffff').localeCompare(b.ubicacion_codigo ?? '\uffff'))
      : [];
    out.push({
      almacen_id: al.id,
      almacen_nombre: al.nombre,
      stock: Number(stock),
      ubicaciones,
      en_transito: Number(transit),
      ubicacion_habitual_id: al.ubicacion_id ?? null,
      ubicacion_habitual_codigo: al.codigo ?? null,
    });
  }
  return out;
}

export type Cifras = {
  precio_medio_compra: number;
  precio_medio_venta: number;
  unidades_compradas: number;
  unidades_vendidas: number;
};

/**
 * The average cost (`articulos.coste_medio`, documentos/coste.ts; 0 before any valued entry), the average sale price
 * (weighted by quantity over the sale rows, ten-thousandths, half-up) and units bought and sold (net of returns,
 * thousandths). Exact: sums travel as text into BigInt.
 */
export async function cifrasArticulo(db: Kysely<Database>, articuloId: number): Promise<Cifras> {
  const rows = await db
    .selectFrom('stock_movimientos')
    .select('causa')
    .select(sql<string>`cast(sum(cantidad) as text)`.as('cantidad'))
    .select(sql<string>`cast(sum(cast(cantidad as numeric) * precio) as text)`.as('importe'))
    .where('articulo_id', '=', articuloId)
    .where('causa', 'in', [...CAUSAS_COMPRA, ...CAUSAS_VENTA])
    .groupBy('causa')
    .execute();
  const { coste_medio } = await db.selectFrom('articulos').select('coste_medio').where('id', '=', articuloId).executeTakeFirstOrThrow();
  const by = new Map(rows.map((r) => [r.causa, { cantidad: BigInt(r.cantidad), importe: BigInt(r.importe.replace(/\.0*$/, '')) }]));
  const get = (causa: StockCausa) => by.get(causa) ?? { cantidad: 0n, importe: 0n };
  const suma = (...cs: { cantidad: bigint; importe: bigint }[]) => cs.reduce((t, c) => ({ cantidad: t.cantidad + c.cantidad, importe: t.importe + c.importe }));
  // importe is at scale 7 (thousandths × ten-thousandths): ÷ quantity (scale 3) gives scale 4.
  const media = (c: { cantidad: bigint; importe: bigint }) => (c.cantidad === 0n ? 0n : divRound(c.importe, c.cantidad));
  return {
    precio_medio_compra: Number(coste_medio ?? 0),
    // Sales, and the rectificativas that correct their prices or units (a correction's rows: the units back in at the
    // old price, out at the new one).
    precio_medio_venta: Number(media(suma(get('venta'), get('rectificativa')))),
    unidades_compradas: Number(get('compra').cantidad + get('devolucion_compra').cantidad),
    unidades_vendidas: Number(-(get('venta').cantidad + get('devolucion_venta').cantidad + get('rectificativa').cantidad + get('parte').cantidad)),
  };
}
