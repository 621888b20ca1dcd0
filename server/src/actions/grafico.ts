import { CONSTANTS } from 'shared/domain';
import type { GraficoMes } from 'shared/domain';
import { sql } from 'kysely';
import { todayIn } from '../context.ts';
import { defineAction } from './registry.ts';

/** The last `count` months ending with the one of `today`, as 'YYYY-MM'. */
export function lastMonths(today: string, count: number): string[] {
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7));
  const months: string[] = [];
  for (let i = 0; i < count; i++) {
    months.unshift(`${y}-${String(m).padStart(2, '0')}`);
    if (--m === 0) {
      m = 12;
      y--;
    }
  }
  return months;
}

/** The engine's purchase (issue 7) and sales (issue 8) orders. */
const TIPOS = { compras: 'pedidocompra', ventas: 'pedidoventa' } as const;

export const graficoActions = [
  defineAction({
    name: 'graficoinicio',
    method: 'GET',
    async handler({ app }) {
      const flags = await app.config.flags();
      const months = lastMonths(todayIn(app.timeZone), CONSTANTS.chartMonths);
      const mes = sql<string>`substr(fecha, 1, 7)`;
      const rows = await app.db
        .selectFrom('documentos')
        .select(['tipo', mes.as('mes'), (eb) => eb.fn.sum<number>('total').as('total')])
        .where('tipo', 'in', [TIPOS.compras, TIPOS.ventas])
        .where('fecha', '>=', `${months[0]}-01`)
        .where('fecha', '<', `${months[months.length - 1]}-32`)
        .groupBy(['tipo', mes])
        .execute();
      const totals = new Map(rows.map((r) => [`${r.tipo}|${r.mes}`, Number(r.total)]));
      const data: GraficoMes[] = months.map((m) => ({
        mes: m,
        compras: flags.compras ? (totals.get(`${TIPOS.compras}|${m}`) ?? 0) : null,
        ventas: flags.ventas ? (totals.get(`${TIPOS.ventas}|${m}`) ?? 0) : null,
      }));
      return { RESULT: '0', data, total: data.length };
    },
  }),
];
