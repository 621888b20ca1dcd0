import { useMemo } from 'react';
import { useShell } from '../context';
import {
  descuentoPermitido,
  falta,
  leerNecesidad,
  puede,
  tiene,
  type Area,
  type DerechoEspecial,
  type Derechos,
  type Necesidad,
  type Nivel,
  type RolSesion,
} from '../domain/roles';

export type Permisos = {
  rol: RolSesion | null;
  derechos: Derechos | null;
  /** Whether the role allows `nivel` in `area`. */
  puede(area: Area, nivel?: Nivel): boolean;
  /** Whether the role has a named right. */
  tiene(especial: DerechoEspecial): boolean;
  /** Whether the server would let the role run op.asp action `ac` (the session's table of needs). */
  accion(ac: string): boolean;
  /** Whether the role meets a need (a document's action: `necesidadDocumento`). */
  cumple(n: Necesidad): boolean;
  /** Whether the role may create in the list read by `listAc` (its first area at «crear y modificar»). */
  crear(listAc: string): boolean;
  /** The largest line discount the role gives (hundredths of a percent). */
  descuentoMaximo: number;
};

const necesidades = new Map<string, Necesidad | null>();
function necesidad(texto: string | undefined): Necesidad | null {
  if (texto === undefined) return null;
  let n = necesidades.get(texto);
  if (n === undefined) {
    n = leerNecesidad(texto);
    necesidades.set(texto, n);
  }
  return n;
}

/**
 * The rights of the user logged in, from the shell context: what menus, buttons and fields follow, so a user
 * never sees a button the server would refuse (403). Without a role in the session (a session from before roles,
 * a test without one) everything is allowed here: the server decides anyway.
 */
export function usePermisos(): Permisos {
  const { user, acciones } = useShell();
  const rol = user?.rol ?? null;
  return useMemo(() => {
    const derechos = rol?.derechos ?? null;
    const sin = !derechos;
    return {
      rol,
      derechos,
      puede: (area, nivel = 'ver') => sin || puede(derechos, area, nivel),
      tiene: (especial) => sin || tiene(derechos, especial),
      cumple: (n) => sin || falta(derechos, n) === null,
      accion: (ac) => {
        if (sin) return true;
        const n = necesidad(acciones?.[ac]);
        return n === null || falta(derechos, n) === null;
      },
      crear: (listAc) => {
        if (sin) return true;
        const n = necesidad(acciones?.[listAc]);
        return n === null || typeof n === 'string' || puede(derechos, n.areas[0], 'editar');
      },
      descuentoMaximo: sin ? 10000 : descuentoPermitido(derechos),
    };
  }, [rol, acciones]);
}
