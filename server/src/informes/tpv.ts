import { sql } from 'kysely';
import type { DesgloseIva } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { paginar, sumar } from './comun.ts';
import type { Fila, PaginaInforme, Respuesta } from './comun.ts';


const conocidas = new Map<string, boolean>();

/** Whether a table (and column) exists: the till's tables come with its own migration (issue TPV). */
export async function existe(app: AppContext, tabla: string, columna = '*'): Promise<boolean> {
  const k = `${tabla}.${columna}`;
  const sabido = conocidas.get(k);
  if (sabido !== undefined) return sabido;
  let ok = true;
  try {
    await sql`select ${sql.raw(columna === '*' ? '1' : columna)} from ${sql.table(tabla)} where 1 = 0`.execute(app.db);
  } catch {
    ok = false;
  }
  // Only a positive answer is kept: the table may arrive with a migration while running (never disappears).
  if (ok) conocidas.set(k, true);
  return ok;
}

type Cierre = {
  formas?: { forma: string; ventas: number; devoluciones: number; esperado: number; contado: number; diferencia: number }[];
  impuestos?: { tipo_iva: string; base: number; iva: number; total: number }[];
};

/**
 * TPV closings (the till's `tpv_cierres`, issue TPV): one row per closing in the period (by the closing's day), or per
 * terminal and day, or per terminal: tickets, returns, total, the cash expected vs counted and the difference, the sales
 * by payment method and the base and IVA by rate from the closing's Z report. Before the till's tables exist, the
 * tickets of each day (documents `ticket`) summed by payment method and rate, without the cash count.
 */
export async function informeCierresTpv(
  app: AppContext,
  f: { desde: string; hasta: string; terminal_id?: number | null; agrupar?: 'cierre' | 'dia' | 'terminal' },
  paging: PaginaInforme,
): Promise<Respuesta> {
  if (!(await existe(app, 'tpv_cierres', 'datos'))) return cierresDesdeTickets(app, f, paging);
  const { rows } = await sql<{ id: number; terminal_id: number; terminal: string | null; codigo: number; apertura: string; cierre: string; tickets: number; devoluciones: number; total: number | string; efectivo_esperado: number | string; efectivo_contado: number | string; diferencia: number | string; datos: string }>`
    select c.id, c.terminal_id, t.nombre as terminal, c.codigo, c.apertura, c.cierre, c.tickets, c.devoluciones, c.total, c.efectivo_esperado, c.efectivo_contado, c.diferencia, c.datos
    from tpv_cierres c left join tpv_terminales t on t.id = c.terminal_id
    where c.cierre >= ${f.desde} and c.cierre < ${f.hasta + '~'} ${f.terminal_id ? sql`and c.terminal_id = ${f.terminal_id}` : sql``}
    order by c.cierre, c.id`.execute(app.db);
  const agrupar = f.agrupar ?? 'cierre';
  const grupos = new Map<string, Fila>();
  const suma = (g: Fila, k: string, v: number) => {
    g[k] = Number(g[k] ?? 0) + v;
  };
  for (const r of rows) {
    const dia = r.cierre.slice(0, 10);
    const k = agrupar === 'cierre' ? String(r.id) : agrupar === 'dia' ? `${dia}|${r.terminal_id}` : String(r.terminal_id);
    let g = grupos.get(k);
    if (!g) {
      g = { clave: k, terminal_id: r.terminal_id, terminal: r.terminal, nombre: agrupar === 'terminal' ? r.terminal : `${dia} · ${r.terminal ?? ''}`, cierres: 0 };
      if (agrupar !== 'terminal') g.fecha = dia;
      if (agrupar === 'cierre') Object.assign(g, { cierre_id: r.id, codigo: r.codigo, apertura: r.apertura, cierre: r.cierre });
      grupos.set(k, g);
    }
    suma(g, 'cierres', 1);
    suma(g, 'tickets', Number(r.tickets));
    suma(g, 'devoluciones', Number(r.devoluciones));
    suma(g, 'total', Number(r.total));
    suma(g, 'efectivo_esperado', Number(r.efectivo_esperado));
    suma(g, 'efectivo_contado', Number(r.efectivo_contado));
    suma(g, 'diferencia', Number(r.diferencia));
    let datos: Cierre = {};
    try {
      datos = JSON.parse(r.datos) as Cierre;
    } catch {
      datos = {};
    }
    for (const fo of datos.formas ?? []) suma(g, fo.forma, Number(fo.ventas) - Number(fo.devoluciones));
    for (const im of datos.impuestos ?? []) {
      suma(g, 'base', Number(im.base));
      suma(g, 'iva', Number(im.iva));
      suma(g, `base_${im.tipo_iva}`, Number(im.base));
      suma(g, `iva_${im.tipo_iva}`, Number(im.iva));
    }
  }
  const filas = [...grupos.values()];
  const columnas = [...new Set(filas.flatMap((g) => Object.keys(g)))].filter((c) => typeof filas.find((g) => c in g)?.[c] === 'number' && !['terminal_id', 'cierre_id', 'codigo'].includes(c));
  const { data, total } = paginar(filas, paging, { orden: agrupar === 'terminal' ? 'nombre' : 'clave', dir: 'asc' });
  return { RESULT: '0', data, total, totales: sumar(filas, columnas) };
}

/** Before the till's tables: the tickets of each day by payment method and rate. */
async function cierresDesdeTickets(app: AppContext, f: { desde: string; hasta: string; terminal_id?: number | null }, paging: PaginaInforme): Promise<Respuesta> {
  const { rows } = await sql<{ fecha: string; forma: string | null; total: number | string; desglose: string | null; id: number }>`
    select d.id, d.fecha, coalesce(d.cobro_forma, d.forma_pago) as forma, d.total, d.desglose
    from documentos d
    where d.tipo = 'ticket' and d.estado not in ('anulada', 'anulado', 'borrador') and d.fecha >= ${f.desde} and d.fecha <= ${f.hasta}`.execute(app.db);
  const grupos = new Map<string, Fila>();
  for (const r of rows) {
    const k = r.fecha;
    const g = grupos.get(k) ?? { clave: k, fecha: r.fecha, nombre: r.fecha, terminal_id: null, tickets: 0, total: 0, base: 0, iva: 0, efectivo_esperado: null, efectivo_contado: null, diferencia: null };
    g.tickets = Number(g.tickets) + 1;
    g.total = Number(g.total) + Number(r.total);
    const forma = r.forma ?? 'efectivo';
    g[forma] = Number(g[forma] ?? 0) + Number(r.total);
    let des: DesgloseIva[] = [];
    try {
      des = r.desglose ? (JSON.parse(r.desglose) as DesgloseIva[]) : [];
    } catch {
      des = [];
    }
    for (const p of des) {
      g.base = Number(g.base) + p.base;
      g.iva = Number(g.iva) + p.iva;
      g[`base_${p.tipo_iva}`] = Number(g[`base_${p.tipo_iva}`] ?? 0) + p.base;
      g[`iva_${p.tipo_iva}`] = Number(g[`iva_${p.tipo_iva}`] ?? 0) + p.iva;
    }
    grupos.set(k, g);
  }
  const filas = [...grupos.values()];
  const { data, total } = paginar(filas, paging, { orden: 'clave', dir: 'asc' });
  return {
    RESULT: '0',
    data,
    total,
    totales: sumar(filas, ['tickets', 'total', 'base', 'iva']),
    message: 'Sin cierres de caja registrados: el arqueo (efectivo esperado, contado y diferencia) aparece cuando el TPV registra sus cierres.',
  };
}
