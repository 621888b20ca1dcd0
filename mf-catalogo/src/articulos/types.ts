import type { Articulo } from 'shared';

/** A row of `listadoarticulos` (the list, the barcode lookup, the component search). */
export type ArticuloFila = Pick<
  Articulo,
  'id' | 'codigo' | 'referencia' | 'descripcion' | 'familia_nombre' | 'subfamilia_nombre' | 'marca_nombre' | 'precio_compra' | 'precio_venta' | 'pvp_1' | 'tipo_iva' | 'codigo_barras' | 'stock_total' | 'activo'
>;

/** What the bulk price change receives from the list: the rows chosen by hand, or the list's filter. */
export type SeleccionPrecios = { ids: number[] } | { filtro: FiltroArticulos };

export type FiltroArticulos = { q?: string; familia_id?: string; subfamilia_id?: string; marca_id?: string; activo?: string };

export const FILTRO_KEYS = ['q', 'familia_id', 'subfamilia_id', 'marca_id', 'activo'] as const;

/** The article filters of a list query, without paging or order. */
export function filtroDe(params: Record<string, unknown>): FiltroArticulos {
  const out: FiltroArticulos = {};
  for (const k of FILTRO_KEYS) {
    const v = params[k];
    if (v !== undefined && v !== null && String(v) !== '') out[k] = String(v);
  }
  return out;
}
