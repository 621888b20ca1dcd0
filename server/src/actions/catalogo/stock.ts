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
export const CAUSAS_VENTA = ['venta', 'devolucion_venta'] as const;
/** Movements that are neither bought nor sold: they change stock only. */
export const CAUSAS_OTRAS = ['inicial', 'ajuste', 'inventario', 'traspaso', 'kit'] as const;
export type StockCausa = (typeof CAUSAS_COMPRA)[number] | (typeof CAUSAS_VENTA)[number] | (typeof CAUSAS_OTRAS)[number];

/** Stock per warehouse: every active warehouse, and inactive ones that still hold stock. */
export async function stockPorAlmacen(db: Kysely<Database>, articuloId: number): Promise<StockAlmacen[]> {
  const rows = await db
    .selectFrom('almacenes as al')
    .leftJoin('stock_movimientos as sm', (join) => join.onRef('sm.almacen_id', '=', 'al.id').on('sm.articulo_id', '=', articuloId))
    .select(['al.id as almacen_id', 'al.nombre as almacen_nombre', 'al.activo'])
    .select(sql<string>`cast(coalesce(sum(sm.cantidad), 0) as text)`.as('stock'))
    .groupBy(['al.id', 'al.nombre', 'al.activo'])
    .orderBy('al.id')
    .execute();
  return rows
    .filter((r) => r.activo === 1 || BigInt(r.stock) !== 0n)
    .map((r) => ({ almacen_id: r.almacen_id, almacen_nombre: r.almacen_nombre, stock: Number(r.stock) }));
}

export type Cifras = {
  precio_medio_compra: number;
  precio_medio_venta: number;
  unidades_compradas: number;
  unidades_vendidas: number;
};

/**
 * Average prices (weighted by quantity over purchase / sale rows, ten-thousandths, half-up) and units
 * bought and sold (net of returns, thousandths). Exact: sums travel as text into BigInt.
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
  const by = new Map(rows.map((r) => [r.causa, { cantidad: BigInt(r.cantidad), importe: BigInt(r.importe.replace(/\.0*$/, '')) }]));
  const get = (causa: StockCausa) => by.get(causa) ?? { cantidad: 0n, importe: 0n };
  // importe is at scale 7 (thousandths × ten-thousandths): ÷ quantity (scale 3) gives scale 4.
  const media = (c: { cantidad: bigint; importe: bigint }) => (c.cantidad === 0n ? 0n : divRound(c.importe, c.cantidad));
  return {
    precio_medio_compra: Number(media(get('compra'))),
    precio_medio_venta: Number(media(get('venta'))),
    unidades_compradas: Number(get('compra').cantidad + get('devolucion_compra').cantidad),
    unidades_vendidas: Number(-(get('venta').cantidad + get('devolucion_venta').cantidad)),
  };
}
