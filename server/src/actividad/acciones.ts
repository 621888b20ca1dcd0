import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { CONSTANTS } from 'shared/domain';
import type { LineaActividad, Schema } from 'shared/domain';
import { contains, paging } from '../db/consulta.ts';
import { defineAction } from '../actions/registry.ts';
import { fechaHoraHuso } from '../fiscal/registro.ts';

const listInput = {
  pagina: { type: 'int', min: 1, max: 1_000_000 },
  porPagina: { type: 'enum', values: CONSTANTS.pageSizes.map(String) },
  usuario_id: { type: 'int', min: 1 },
  entidad: { type: 'string', max: 40 },
  entidad_id: { type: 'int', min: 1 },
  desde: { type: 'date' },
  hasta: { type: 'date' },
  q: { type: 'string', max: 100 },
} as const satisfies Schema;

/** The UTC instant a day of the business's time zone starts at ('2026-03-29' in Madrid → '2026-03-28T23:00:00.000Z'). */
function inicioDelDia(dia: string, timeZone: string): string {
  // The offset as ISO accepts it: local mean time before 1901 has seconds (Madrid 1900: -00:14:44), dropped here.
  const huso = /([+-]\d{2}:\d{2})(?::\d{2})?$|Z$/.exec(fechaHoraHuso(new Date(`${dia}T00:00:00Z`), timeZone))?.[1] ?? 'Z';
  return new Date(`${dia}T00:00:00${huso}`).toISOString();
}

const diaSiguiente = (dia: string) => new Date(Date.parse(`${dia}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export const actividadActions = [
  defineAction({
    name: 'listadoactividad',
    method: 'GET',
    input: listInput,
    async handler({ input, app }) {
      const filtros: RawBuilder<boolean>[] = [];
      if (input.usuario_id !== null) filtros.push(sql<boolean>`usuario_id = ${input.usuario_id}`);
      if (input.entidad) filtros.push(sql<boolean>`entidad = ${input.entidad}`);
      if (input.q) filtros.push(sql<boolean>`(${contains('numero', input.q)} or ${contains('usuario_nombre', input.q)} or ${contains('accion', input.q)})`);
      if (input.entidad_id !== null) filtros.push(sql<boolean>`entidad_id = ${input.entidad_id}`);
      // Days of the business's calendar: desde from its first instant, hasta up to the next day's first.
      if (input.desde) filtros.push(sql<boolean>`fecha >= ${inicioDelDia(input.desde, app.timeZone)}`);
      if (input.hasta) filtros.push(sql<boolean>`fecha < ${inicioDelDia(diaSiguiente(input.hasta), app.timeZone)}`);
      const where = filtros.length ? sql<boolean>`${sql.join(filtros, sql` and `)}` : sql<boolean>`1 = 1`;
      const { limit, offset } = paging({ pagina: input.pagina, porPagina: input.porPagina, dir: 'desc' });
      const total = await app.db.selectFrom('actividad').select(sql<number>`count(*)`.as('n')).where(where).executeTakeFirstOrThrow();
      const rows = await app.db.selectFrom('actividad').selectAll().where(where).orderBy('fecha', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
      const data = rows.map(
        (r): LineaActividad => ({
          ...r,
          tipo: r.tipo as LineaActividad['tipo'],
          antes: r.antes ? (JSON.parse(r.antes) as Record<string, unknown>) : null,
          despues: r.despues ? (JSON.parse(r.despues) as Record<string, unknown>) : null,
        }),
      );
      return { RESULT: '0', data, total: Number(total.n) };
    },
  }),
];
