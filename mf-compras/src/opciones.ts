import { useListOptions, type Almacen, type SelectOption } from 'shared';

const BY_NAME = { orden: 'nombre', dir: 'asc' } as const;

/** An almacén in a select: its name, marked when it is inactive (kept for documents that still use it). */
export function almacenOption(a: Pick<Almacen, 'id' | 'nombre' | 'activo'>): SelectOption {
  return { value: String(a.id), label: a.activo === 0 ? `${a.nombre} (inactivo)` : a.nombre };
}

/** Every almacén for a select or a filter; `soloActivos` for a choice that creates something new. */
export function useAlmacenes({ enabled = true, soloActivos = false }: { enabled?: boolean; soloActivos?: boolean } = {}) {
  return useListOptions<Almacen>('listadoalmacenes', {
    params: soloActivos ? { ...BY_NAME, activo: 1 } : BY_NAME,
    enabled,
    toOption: almacenOption,
  });
}
