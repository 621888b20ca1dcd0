import { useListOptions, type Familia, type Marca, type Material, type Proceso, type SelectOption, type Subfamilia } from 'shared';

type Maestro = { id: number; codigo: string; nombre: string; activo: 0 | 1 };

/** A master record in a select: its name, marked when it is inactive (kept for records that still use it). */
export function maestroOption(m: Maestro, femenino = true): SelectOption {
  return { value: String(m.id), label: m.activo === 0 ? `${m.nombre} (${femenino ? 'inactiva' : 'inactivo'})` : m.nombre };
}

const BY_NAME = { orden: 'nombre', dir: 'asc' } as const;

export function useFamilias(enabled = true) {
  return useListOptions<Familia>('listadofamilias', { params: BY_NAME, enabled, toOption: (f) => maestroOption(f) });
}

/** Every subfamilia (with its familia_id), or only those of one familia. */
export function useSubfamilias(familiaId?: string, enabled = true) {
  return useListOptions<Subfamilia>('listadosubfamilias', {
    params: familiaId ? { ...BY_NAME, familia_id: familiaId } : BY_NAME,
    enabled,
    toOption: (s) => maestroOption(s),
  });
}

export function useMarcas(enabled = true) {
  return useListOptions<Marca>('listadomarcas', { params: BY_NAME, enabled, toOption: (m) => maestroOption(m) });
}

export function useMateriales(enabled = true) {
  return useListOptions<Material>('listadomateriales', { params: BY_NAME, enabled, toOption: (m) => maestroOption(m, false) });
}

export function useProcesos(enabled = true) {
  return useListOptions<Proceso>('listadoprocesos', { params: BY_NAME, enabled, toOption: (p) => maestroOption(p, false) });
}
