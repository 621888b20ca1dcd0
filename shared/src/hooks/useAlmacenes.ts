import { useLayoutEffect } from 'react';
import type { Almacen } from '../domain/almacenes';
import type { SelectOption } from '../ui/fields';
import { useListOptions } from './useListOptions';

const BY_NAME = { orden: 'nombre', dir: 'asc' } as const;

/** An almacén in a select: its name, marked when it is inactive (kept for records that still use it). */
export function almacenOption(a: Pick<Almacen, 'id' | 'nombre' | 'activo'>): SelectOption {
  return { value: String(a.id), label: a.activo === 0 ? `${a.nombre} (inactivo)` : a.nombre };
}

/**
 * Every almacén (read 100 at a time) for a select or a filter; `soloActivos` for a choice that creates
 * something new. `porDefecto` is the first active one created (the installation's main warehouse),
 * what a new document starts with.
 */
export function useAlmacenes({ enabled = true, soloActivos = false }: { enabled?: boolean; soloActivos?: boolean } = {}) {
  const list = useListOptions<Almacen>('listadoalmacenes', {
    params: soloActivos ? { ...BY_NAME, activo: 1 } : BY_NAME,
    enabled,
    toOption: almacenOption,
  });
  const activos = list.rows.filter((a) => a.activo === 1);
  const porDefecto = activos.length ? String(Math.min(...activos.map((a) => a.id))) : '';
  return { ...list, porDefecto };
}

/**
 * A new, untouched document starts in the main warehouse instead of «Seleccione…»: one choice fewer for
 * the clerk. It becomes the form's starting value, so leaving the screen untouched asks nothing.
 */
export function useAlmacenInicial<V extends { almacen_id?: string | null }>(
  form: { values: V; dirty: boolean; reset: (v: V) => void },
  isNew: boolean,
  porDefecto: string,
): void {
  const { values, dirty, reset } = form;
  // In the same commit that shows the warehouses: a choice made as soon as they appear comes after it
  // (with useEffect, a pick landing before the effect ran was overwritten by this starting value).
  useLayoutEffect(() => {
    if (isNew && !dirty && !values.almacen_id && porDefecto) reset({ ...values, almacen_id: porDefecto });
  }, [isNew, dirty, values, porDefecto, reset]);
}
