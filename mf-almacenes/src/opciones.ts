import { useListOptions, type Usuario } from 'shared';

/** Almacenes for selects and filters: `useAlmacenes` and `almacenOption` live in shared (every section's documents use them). */
export { almacenOption, useAlmacenes } from 'shared';

const BY_NAME = { orden: 'nombre', dir: 'asc' } as const;

/** The users who may drive a van (flag furgonetas). */
export function useUsuarios(enabled = true) {
  return useListOptions<Usuario>('listadousuarios', {
    params: BY_NAME,
    enabled,
    toOption: (u) => ({ value: String(u.id), label: u.activo === 0 ? `${u.nombre} (inactivo)` : u.nombre }),
  });
}
