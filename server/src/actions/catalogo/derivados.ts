import { pvpFromNet } from 'shared/domain';
import type { TipoIva } from 'shared/domain';
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
