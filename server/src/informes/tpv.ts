import { sql } from 'kysely';
import type { DesgloseIva } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { paginar, sumar } from './comun.ts';
import type { Fila, Respuesta } from './comun.ts';

type Paging = { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null };

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

/**
 * TPV closings by terminal and day: the tickets of each day (documents of type `ticket`, not cancelled) with their totals
 * by payment method and by IVA rate; expected vs counted cash and the difference come from the till's closings
 * (`cierres`) when its tables exist.
 */
export async function informeCierresTpv(app: AppContext, f: { desde: string; hasta: string; terminal_id?: number | null }, paging: Paging): Promise<Respuesta> {
  const conTerminal = await existe(app, 'documentos', 'terminal_id');
  const terminal = conTerminal ? sql`d.terminal_id` : sql`null`;
  const { rows } = await sql<{ fecha: string; terminal_id: number | null; forma: string | null; total: number | string; desglose: string | null; id: number }>`
    select d.id, d.fecha, ${terminal} as terminal_id, coalesce(d.cobro_forma, d.forma_pago) as forma, d.total, d.desglose
    from documentos d
    where d.tipo = 'ticket' and d.estado not in ('anulada', 'anulado', 'borrador') and d.fecha >= ${f.desde} and d.fecha <= ${f.hasta}
      ${conTerminal && f.terminal_id ? sql`and d.terminal_id = ${f.terminal_id}` : sql``}`.execute(app.db);
  const grupos = new Map<string, Fila>();
  for (const r of rows) {
    const k = `${r.fecha}|${r.terminal_id ?? 0}`;
    const g = grupos.get(k) ?? { clave: k, fecha: r.fecha, terminal_id: r.terminal_id, tickets: 0, total: 0, base: 0, iva: 0, recargo: 0, efectivo: 0, tarjeta: 0, otros: 0 };
    g.tickets = Number(g.tickets) + 1;
    const total = Number(r.total);
    g.total = Number(g.total) + total;
    const forma = (r.forma ?? 'efectivo').toLowerCase();
    const col = forma.includes('efectivo') || forma === 'contado' ? 'efectivo' : forma.includes('tarjeta') ? 'tarjeta' : 'otros';
    g[col] = Number(g[col]) + total;
    let des: DesgloseIva[] = [];
    try {
      des = r.desglose ? (JSON.parse(r.desglose) as DesgloseIva[]) : [];
    } catch {
      des = [];
    }
    for (const p of des) {
      g.base = Number(g.base) + p.base;
      g.iva = Number(g.iva) + p.iva;
      g.recargo = Number(g.recargo) + p.recargo;
      g[`base_${p.tipo_iva}`] = Number(g[`base_${p.tipo_iva}`] ?? 0) + p.base;
      g[`iva_${p.tipo_iva}`] = Number(g[`iva_${p.tipo_iva}`] ?? 0) + p.iva;
    }
    grupos.set(k, g);
  }
  const cierres = await existe(app, 'cierres');
  for (const g of grupos.values()) Object.assign(g, { efectivo_esperado: null, efectivo_contado: null, diferencia: null });
  const filas = [...grupos.values()];
  const { data, total } = paginar(filas, paging, { orden: 'clave', dir: 'asc' });
  return {
    RESULT: '0',
    data,
    total,
    totales: sumar(filas, ['tickets', 'total', 'base', 'iva', 'recargo', 'efectivo', 'tarjeta', 'otros']),
    ...(cierres ? {} : { message: 'Sin cierres de caja registrados: el arqueo (efectivo esperado, contado y diferencia) aparece cuando el TPV registra sus cierres.' }),
  };
}
