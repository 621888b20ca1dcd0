import { useCallback, useEffect, useMemo, useState } from 'react';
import { useShell } from 'shared';

/** A row of `disponibleventa` (thousandths). */
export type DisponibleFila = { articulo_id: number; stock: number; reservado: number; disponible: number };

/** `disponibleventa` takes at most this many ids at once. */
const POR_PETICION = 500;
/** Lines added one after another (a scanner) are asked about together. */
const ESPERA_MS = 250;

type Leidos = { clave: string; valores: Map<number, number> };

/**
 * The stock available to sell (stock − reserved by confirmed orders) of the articles of the lines in one
 * warehouse, from `disponibleventa`; each article is asked once, a few together, and everything again when
 * the warehouse or `version` changes (the document saved or changed state: its own stock moved).
 * Returns the lookup the lines editor's `disponible` takes (undefined while unknown), or undefined when off.
 */
export function useDisponibleVenta(almacenId: string, articuloIds: number[], { enabled, version }: { enabled: boolean; version: unknown }) {
  const { api } = useShell();
  const [vuelta, setVuelta] = useState(0);
  const [leidos, setLeidos] = useState<Leidos>({ clave: '', valores: new Map() });
  // Another warehouse or another state of the document: what was read no longer holds.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` only says when to read again.
  useEffect(() => setVuelta((v) => v + 1), [version]);
  const clave = `${almacenId}#${vuelta}`;
  const ids = useMemo(() => [...new Set(articuloIds)].sort((a, b) => a - b), [articuloIds]);
  const pedir = ids.join(',');

  useEffect(() => {
    if (!enabled || !almacenId || pedir === '') return;
    const actuales = leidos.clave === clave ? leidos.valores : new Map<number, number>();
    const faltan = pedir
      .split(',')
      .map(Number)
      .filter((id) => !actuales.has(id));
    if (faltan.length === 0) return;
    let live = true;
    const t = setTimeout(async () => {
      const nuevos = new Map<number, number>();
      try {
        for (let i = 0; i < faltan.length; i += POR_PETICION) {
          const res = await api.get<DisponibleFila>('disponibleventa', { almacen_id: almacenId, ids: faltan.slice(i, i + POR_PETICION).join(',') });
          if (res.RESULT !== '0') return;
          for (const r of res.data ?? []) nuevos.set(r.articulo_id, r.disponible);
        }
      } catch {
        // Without the figure the editor shows nothing beside the quantity.
        return;
      }
      if (live) setLeidos((prev) => ({ clave, valores: new Map([...(prev.clave === clave ? prev.valores : []), ...nuevos]) }));
    }, ESPERA_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [api, enabled, almacenId, clave, pedir, leidos]);

  const valores = leidos.clave === clave ? leidos.valores : null;
  const consulta = useCallback((id: number) => valores?.get(id), [valores]);
  return enabled ? consulta : undefined;
}
