import { useListOptions, type Almacen, type SelectOption, type Usuario } from 'shared';

const BY_NAME = { orden: 'nombre', dir: 'asc' } as const;

/** An almacén in a select: its name, marked when it is inactive (kept for records that still use it). */
export function almacenOption(a: Pick<Almacen, 'id' | 'nombre' | 'activo'>): SelectOption {
  return { value: String(a.id), label: a.activo === 0 ? `${a.nombre} (inactivo)` : a.nombre };
}

/**
 * Every almacén (read 100 at a time: `listadoalmacenes?porPagina=100`) for a select or a filter;
 * `soloActivos` for a choice that creates something new (documents).
 */
export function useAlmacenes({ enabled = true, soloActivos = false }: { enabled?: boolean; soloActivos?: boolean } = {}) {
  return useListOptions<Almacen>('listadoalmacenes', {
    params: soloActivos ? { ...BY_NAME, activo: 1 } : BY_NAME,
    enabled,
    toOption: almacenOption,
  });
}

/** The users who may drive a van (flag furgonetas). */
export function useUsuarios(enabled = true) {
  return useListOptions<Usuario>('listadousuarios', {
    params: BY_NAME,
    enabled,
    toOption: (u) => ({ value: String(u.id), label: u.activo === 0 ? `${u.nombre} (inactivo)` : u.nombre }),
  });
}
