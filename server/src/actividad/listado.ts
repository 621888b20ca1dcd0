import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { LineaActividad } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { contains, paging } from '../db/consulta.ts';
import { fechaHoraHuso } from '../fiscal/registro.ts';

/** The UTC instant a day of the business's time zone starts at ('2026-03-29' in Madrid → '2026-03-28T23:00:00.000Z'). */
function inicioDelDia(dia: string, timeZone: string): string {
  // The offset as ISO accepts it: local mean time before 1901 has seconds (Madrid 1900: -00:14:44), dropped here.
  const huso = /([+-]\d{2}:\d{2})(?::\d{2})?$|Z$/.exec(fechaHoraHuso(new Date(`${dia}T00:00:00Z`), timeZone))?.[1] ?? 'Z';
  return new Date(`${dia}T00:00:00${huso}`).toISOString();
}

const diaSiguiente = (dia: string) => new Date(Date.parse(`${dia}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The filters of listadoactividad: a page, a user, an entity (and one of its rows), the business's days, a text. */
export type FiltroActividad = {
  pagina: number | null;
  porPagina: string | null;
  usuario_id: number | null;
  entidad: string | null;
  entidad_id: number | null;
  desde: string | null;
  hasta: string | null;
  q: string | null;
};

/** listadoactividad: the activity lines, newest first, a page of them with the total. */
export async function listadoActividad(app: AppContext, input: FiltroActividad): Promise<{ data: LineaActividad[]; total: number }> {
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
  return { data, total: Number(total.n) };
}
