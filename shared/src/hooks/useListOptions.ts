import { useEffect, useRef, useState } from 'react';
import { useShell } from '../context';
import type { ListParams } from '../domain/api';
import type { SelectOption } from '../ui/fields';

export type ListOptionsConfig<R> = {
  /** Fixed filters and order (familia_id, orden: 'nombre'). */
  params?: ListParams;
  toOption: (row: R) => SelectOption;
  /** false: nothing is loaded (a flag is off, the parent choice is empty). */
  enabled?: boolean;
  /** At most this many rows (default 2.000): for longer lists use a SearchPicker. */
  max?: number;
};

const PAGE = 100;

/**
 * The options of a select from a `listado<entidades>` action (familias, marcas, the subfamilias of
 * one familia), read page by page. Failures (a module switched off: HTTP 403) leave no options and an error.
 *
 * @example
 * const familias = useListOptions<Familia>('listadofamilias', { params: { orden: 'nombre' }, toOption: (f) => ({ value: String(f.id), label: f.nombre }) });
 * <SelectField label="Familia" options={familias.options} ... />
 */
export function useListOptions<R>(ac: string, config: ListOptionsConfig<R>) {
  const { api } = useShell();
  const { enabled = true, max = 2000 } = config;
  const [rows, setRows] = useState<R[]>([]);
  const [loading, setLoading] = useState(enabled);
  const [error, setError] = useState<string | null>(null);
  const toOption = useRef(config.toOption);
  toOption.current = config.toOption;
  const key = JSON.stringify(config.params ?? {});

  useEffect(() => {
    if (!enabled) {
      setRows([]);
      setLoading(false);
      setError(null);
      return;
    }
    let live = true;
    setLoading(true);
    (async () => {
      const all: R[] = [];
      try {
        for (let pagina = 1; all.length < max; pagina++) {
          const res = await api.get<R>(ac, { ...(JSON.parse(key) as ListParams), pagina, porPagina: PAGE });
          if (res.RESULT !== '0') {
            if (res.RESULT !== '3') throw new Error(res.message);
            break;
          }
          const data = res.data ?? [];
          all.push(...data);
          if (data.length < PAGE || all.length >= (res.total ?? 0)) break;
        }
        if (live) {
          setRows(all.slice(0, max));
          setError(null);
        }
      } catch (e) {
        if (live) {
          setRows([]);
          setError(e instanceof Error && e.message ? e.message : 'No se han podido cargar las opciones');
        }
      } finally {
        if (live) setLoading(false);
      }
    })();
    return () => {
      live = false;
    };
  }, [api, ac, key, enabled, max]);

  return { rows, options: rows.map((r) => toOption.current(r)), loading, error };
}
