import { pvpFromNet } from 'shared/domain';
import type { TipoIva } from 'shared/domain';
import type { NewArticulo } from '../db/schema.ts';
import { foldText, searchWords } from './busqueda.ts';

/** The columns of an article that are computed, never typed in: its PVPs and its search columns. */

export type Searchable = {
  codigo: string;
  referencia?: string | null;
  descripcion: string;
  palabras_clave?: string | null;
  codigo_barras?: string | null;
};

/** The derived columns of an article: its search words and its description's sort key. */
export function derivedColumns(a: Searchable): { busqueda: string; orden_descripcion: string } {
  const words = new Set<string>();
  for (const text of [a.codigo, a.referencia, a.descripcion, a.palabras_clave, a.codigo_barras]) {
    if (text) for (const w of searchWords(text)) words.add(w);
  }
  return { busqueda: [...words].join(' '), orden_descripcion: foldText(a.descripcion).trim() };
}

/** Net prices to PVP (cents, IVA included), always recomputed: the PVP follows the net price and the tax. */
export function withPvp<T extends { precio_venta: number; tarifa_2: number; tarifa_3: number; tipo_iva: TipoIva }>(a: T) {
  const pvp = (net: number) => Number(pvpFromNet(BigInt(net), a.tipo_iva));
  return { ...a, pvp_1: pvp(a.precio_venta), pvp_2: pvp(a.tarifa_2), pvp_3: pvp(a.tarifa_3) };
}

/** An article's values with all that is derived from them: PVPs, search words, sort key. */
export function withDerived<T extends Searchable & { precio_venta: number; tarifa_2: number; tarifa_3: number; tipo_iva: TipoIva }>(a: T) {
  const priced = withPvp(a);
  return { ...priced, ...derivedColumns(priced) };
}

/** A new article's values until the request (editararticulo) or the CSV row (importararticulos) says otherwise. */
export const NEW_ARTICULO: Omit<NewArticulo, 'id' | 'codigo' | 'descripcion' | 'busqueda' | 'orden_descripcion'> = {
  referencia: null,
  descripcion_larga: null,
  unidad_medida: 'ud',
  familia_id: null,
  subfamilia_id: null,
  marca_id: null,
  precio_compra: 0,
  precio_venta: 0,
  tarifa_2: 0,
  tarifa_3: 0,
  pvp_1: 0,
  pvp_2: 0,
  pvp_3: 0,
  tipo_iva: '21',
  palabras_clave: null,
  nombre_tpv: null,
  codigo_barras: null,
  tiempo: null,
  stock_minimo: 0,
  activo: 1,
  foto: null,
  seo_slug: null,
  seo_titulo: null,
  seo_descripcion: null,
};
