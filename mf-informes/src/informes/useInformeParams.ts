import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useShell } from 'shared';
import { hoyMadrid, rangoPeriodo } from './periodo';
import type { Informe } from './tipos';

/** Params that describe what is shown (everything in the address but the page). */
export const PARAMS_PAGINA = ['pagina'] as const;

const clave = (userId: number | string | undefined, slug: string) => `mtpv:informes:${userId ?? 'anonimo'}:${slug}`;

/** The user's last filters of a report (localStorage, per user), or null. */
export function leerRecordados(userId: number | string | undefined, slug: string): URLSearchParams | null {
  try {
    const raw = localStorage.getItem(clave(userId, slug));
    return raw ? new URLSearchParams(raw) : null;
  } catch {
    return null;
  }
}

function recordar(userId: number | string | undefined, slug: string, params: URLSearchParams) {
  const copia = new URLSearchParams(params);
  for (const p of PARAMS_PAGINA) copia.delete(p);
  try {
    localStorage.setItem(clave(userId, slug), copia.toString());
  } catch {
    /* private mode: the address still keeps them */
  }
}

/** The params that make a report's period: always in the address. */
const PERIODO_PARAMS: Record<Informe['periodo'], string[]> = { rango: ['desde', 'hasta'], fecha: ['fecha'], ejercicio: ['ejercicio'], ninguno: [] };

/** What a first visit shows: the report's starting period, its first grouping and view. */
export function paramsIniciales(def: Informe, now: Date = new Date()): URLSearchParams {
  const p = new URLSearchParams();
  if (def.periodo === 'rango') {
    const r = rangoPeriodo(def.periodoInicial ?? 'este-mes', now);
    p.set('desde', r.desde);
    p.set('hasta', r.hasta);
  } else if (def.periodo === 'fecha') p.set('fecha', hoyMadrid(now));
  else if (def.periodo === 'ejercicio') p.set('ejercicio', rangoPeriodo(def.periodoInicial ?? 'este-ano', now).desde.slice(0, 4));
  if (def.agrupar.length > 1) p.set('agrupar', def.agrupar[0].value);
  if (def.vistas) p.set('vista', def.vistas[0].value);
  return p;
}

/**
 * A report's filters live in the address (bookmarkable, shareable, Back works after a drill-down) and are
 * remembered per user: opening a report with a bare address brings back that user's last filters, or the
 * report's defaults.
 */
export function useInformeParams(def: Informe) {
  const { user } = useShell();
  const [params, setParams] = useSearchParams();
  const periodo = PERIODO_PARAMS[def.periodo];
  // A bare address, or one without its period (a link that only says `?agrupar=mes`): not ready yet.
  const vacio = params.toString() === '' || periodo.some((k) => !params.get(k));

  // The remembered filters (or the defaults) are written into a bare address, replacing the entry; an address
  // with filters but no period gets the period from them.
  useEffect(() => {
    if (!vacio) return;
    const base = leerRecordados(user?.id, def.slug) ?? paramsIniciales(def);
    if (params.toString() === '') {
      setParams(base, { replace: true });
      return;
    }
    const next = new URLSearchParams(params);
    const inicial = paramsIniciales(def);
    for (const k of periodo) if (!next.get(k)) next.set(k, base.get(k) ?? inicial.get(k) ?? '');
    setParams(next, { replace: true });
  }, [vacio, def, user?.id, setParams, params, periodo]);

  useEffect(() => {
    if (!vacio) recordar(user?.id, def.slug, params);
  }, [params, vacio, user?.id, def.slug]);

  /** Sets (or, with '' / undefined, removes) params; any change but the page's goes back to page 1. */
  const cambiar = useCallback(
    (cambios: Record<string, string | undefined>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(cambios)) {
            if (v === undefined || v === '') next.delete(k);
            else next.set(k, v);
          }
          if (!('pagina' in cambios)) next.delete('pagina');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const valores = useMemo(() => Object.fromEntries(params.entries()) as Record<string, string>, [params]);
  return { params, valores, listo: !vacio, cambiar };
}
