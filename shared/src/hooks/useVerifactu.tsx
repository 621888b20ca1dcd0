import { useEffect, useState } from 'react';
import { useShell } from '../context';
import type { VerifactuInfo } from '../domain/verifactu';
import { AvisoList } from '../ui/primitives';
import { usePermisos } from './usePermisos';

/**
 * VERI*FACTU's state as the server works it out (`listadoverifactu`): null while it loads, when invoices are off,
 * when the user's role may not see it, or when the read fails (the screen still works without it).
 */
export function useVerifactu(): VerifactuInfo | null {
  const { api, flags } = useShell();
  const permisos = usePermisos();
  const on = flags.ventas === 1 && flags.ventas_facturas === 1 && permisos.puede('verifactu');
  const [info, setInfo] = useState<VerifactuInfo | null>(null);
  useEffect(() => {
    setInfo(null);
    if (!on) return;
    let live = true;
    api
      .get<VerifactuInfo>('listadoverifactu')
      .then((res) => live && res.RESULT === '0' && setInfo(res.data?.[0] ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, on]);
  return info;
}

/**
 * VERI*FACTU's warnings on a screen where invoices are made or their records read: `soloObligacion` shows only the
 * one that matters there (from 30 days before the obligation date, records that are not being sent).
 */
export function AvisosVerifactu({ soloObligacion = false }: { soloObligacion?: boolean }) {
  const info = useVerifactu();
  const avisos = (info?.avisos ?? []).filter((a) => !soloObligacion || a.clave === 'obligacion');
  return <AvisoList avisos={avisos} label="Avisos de VERI*FACTU" />;
}
