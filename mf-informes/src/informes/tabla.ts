import { entero } from './formato';
import type { FilaTabla } from './exportar';
import type { Columna, Fila, Informe } from './tipos';

/** Sums the `total` columns of some rows (exact: scaled integers as bigint, sent back as text). */
function sumar(columnas: Columna[], filas: Fila[]): Fila {
  const out: Fila = {};
  for (const c of columnas) {
    if (!c.total) continue;
    let s = 0n;
    for (const f of filas) s += entero(f[c.id]) ?? 0n;
    out[c.id] = s.toString();
  }
  return out;
}

/**
 * The page's rows with a subtotal after each run of rows sharing the report's `subtotal` field (a warehouse,
 * an article): the subtotals of what the page shows; the totals row, from the server, is of the whole selection.
 */
export function conSubtotales(def: Informe, agrupar: string, columnas: Columna[], filas: Fila[], orden?: string): FilaTabla[] {
  const sub = def.subtotal;
  if (!sub || (sub.agrupar && !sub.agrupar.includes(agrupar)) || (sub.orden && !sub.orden.includes(orden)) || filas.length === 0) return filas;
  const out: FilaTabla[] = [];
  let grupo: Fila[] = [];
  const cerrar = () => {
    if (grupo.length === 0) return;
    // A group of one row needs no subtotal: it would repeat the row.
    if (grupo.length > 1) out.push({ ...sumar(columnas, grupo), __tipo: 'subtotal', __etiqueta: sub.etiqueta(grupo[0]) });
    grupo = [];
  };
  for (const f of filas) {
    if (grupo.length && sub.clave(grupo[0]) !== sub.clave(f)) cerrar();
    out.push(f);
    grupo.push(f);
  }
  cerrar();
  return out;
}

/** The totals row: the server's `totales` of the whole selection. */
export function filaTotales(totales: Fila | undefined | null): FilaTabla | null {
  return totales ? { ...totales, __tipo: 'total', __etiqueta: 'Total' } : null;
}
