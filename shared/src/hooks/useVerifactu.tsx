import { useEffect, useState } from 'react';
import { Link } from 'react-router';
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

/** The warnings shown wherever invoices are made (issue 22): records not being sent, late or failing. */
const CLAVES_FACTURAS = new Set(['obligacion', 'envio', 'entorno']);

/** Where the owner turns sending on, checks the certificate and sends now (mf-config). */
export const CONFIG_VERIFACTU_URL = '/config/verifactu';

/**
 * VERI*FACTU's warnings on a screen where invoices are made or their records read: `soloObligacion` shows only the
 * ones that matter there (records not being sent near or past the obligation date; a live company's records not sent
 * for over an hour or sending failing; «Producción» with sending off), each with the way out: Configuración ›
 * VERI*FACTU.
 */
export function AvisosVerifactu({ soloObligacion = false }: { soloObligacion?: boolean }) {
  const info = useVerifactu();
  const avisos = (info?.avisos ?? []).filter((a) => !soloObligacion || (a.clave && CLAVES_FACTURAS.has(a.clave)));
  return (
    <AvisoList avisos={avisos} label="Avisos de VERI*FACTU">
      <p style={{ fontSize: 13, margin: 0 }}>
        <Link to={CONFIG_VERIFACTU_URL}>Ir a Configuración › VERI*FACTU</Link>
      </p>
    </AvisoList>
  );
}
