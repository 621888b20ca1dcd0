import type { Kysely, Transaction } from 'kysely';
import { INCIDENCIA_TPV, TIPOS_INCIDENCIA_TPV } from 'shared/domain';
import type { IncidenciaTpv, TipoIncidenciaTpv } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso } from '../context.ts';
import { auditarTambien } from '../actividad/registro.ts';
import type { Database } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { MESSAGES } from 'shared/domain';
import type { SessionUser } from '../session.ts';

/**
 * Issue 23 (docs/tpv.md «What a till issued, the books keep»): a record a till made offline is a fiscal fact. What an
 * upload breaks of the business's rules (over the simplified invoice's limit, a price or discount beyond the cashier's
 * rights, a return beyond what was sold, a withdrawal beyond the drawer, a clock that went back) is stored as issued
 * and leaves an incidence here, in the upload's own transaction (and its line in the audit trail); a record that is
 * truly corrupt is kept aside here whole (`apartarRegistro`), in a transaction of its own, never in the books.
 */

type Db = Kysely<Database> | Transaction<Database>;

export type NuevaIncidencia = {
  terminal_id: number;
  caja_id: number | null;
  documento_id?: number | null;
  movimiento_id?: number | null;
  uuid: string | null;
  tipo: TipoIncidenciaTpv;
  detalle: string;
  datos?: string | null;
  usuario_id: number | null;
};

/** Writes an incidence (its remedy: the kind's) and its audit line. */
export async function anotarIncidencia(trx: Transaction<Database>, x: NuevaIncidencia): Promise<number> {
  const { id } = await trx
    .insertInto('tpv_incidencias')
    .values({
      terminal_id: x.terminal_id, caja_id: x.caja_id, documento_id: x.documento_id ?? null, movimiento_id: x.movimiento_id ?? null, uuid: x.uuid, tipo: x.tipo,
      detalle: x.detalle.slice(0, 2000), remedio: INCIDENCIA_TPV[x.tipo].remedio, datos: x.datos ?? null, fecha: nowIso(), usuario_id: x.usuario_id, resuelta_fecha: null,
      resuelta_por: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  auditarTambien({ tipo: 'guardar', entidad: 'incidenciatpv', entidad_id: id, numero: INCIDENCIA_TPV[x.tipo].etiqueta });
  return id;
}

/**
 * A record the server cannot store (its huella, chain, number or amounts don't hold; its data malformed): kept aside
 * whole (`datos`: the upload as received) with the reason, once per uuid, and reported; the books don't have it and
 * nothing replaces it. The till keeps it as an incidence of its own and goes on with what follows.
 */
export async function apartarRegistro(app: AppContext, x: Omit<NuevaIncidencia, 'tipo' | 'caja_id'>): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    if (x.uuid) {
      const ya = await trx.selectFrom('tpv_incidencias').select('id').where('uuid', '=', x.uuid).where('tipo', '=', 'registro').executeTakeFirst();
      if (ya) return;
    }
    const caja = await trx.selectFrom('tpv_cajas').select('id').where('terminal_id', '=', x.terminal_id).where('cierre_id', 'is', null).executeTakeFirst();
    await anotarIncidencia(trx, { ...x, tipo: 'registro', caja_id: caja?.id ?? null });
  });
}

/** Incidences as the screens show them (newest first), with the ticket's or return's number. */
export async function leerIncidencias(
  db: Db,
  filtro: { terminal_id?: number; caja_id?: number; documentos?: number[]; pendientes?: boolean; limite?: number },
): Promise<IncidenciaTpv[]> {
  if (filtro.documentos && !filtro.documentos.length) return [];
  const filas = await db
    .selectFrom('tpv_incidencias as i')
    .leftJoin('documentos as d', 'd.id', 'i.documento_id')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .leftJoin('tpv_tickets as tt', 'tt.documento_id', 'i.documento_id')
    .select(['tt.ticket_id', 'i.id', 'i.terminal_id', 'i.caja_id', 'i.documento_id', 'i.uuid', 'i.tipo', 'i.detalle', 'i.remedio', 'i.fecha', 'i.resuelta', 'd.ejercicio', 'd.numero', 's.codigo'])
    .$if(filtro.terminal_id !== undefined, (q) => q.where('i.terminal_id', '=', filtro.terminal_id!))
    .$if(filtro.caja_id !== undefined, (q) => q.where('i.caja_id', '=', filtro.caja_id!))
    // A ticket's, and those of its returns.
    .$if(filtro.documentos !== undefined, (q) => q.where((eb) => eb.or([eb('i.documento_id', 'in', filtro.documentos!), eb('tt.ticket_id', 'in', filtro.documentos!)])))
    .$if(!!filtro.pendientes, (q) => q.where('i.resuelta', '=', 0))
    .orderBy('i.id', 'desc')
    .limit(filtro.limite ?? 500)
    .execute();
  return filas.map((f) => ({
    id: f.id, terminal_id: f.terminal_id, caja_id: f.caja_id, documento_id: f.documento_id, ticket_id: f.ticket_id ?? null, uuid: f.uuid, tipo: f.tipo as TipoIncidenciaTpv,
    etiqueta: INCIDENCIA_TPV[f.tipo as TipoIncidenciaTpv]?.etiqueta ?? f.tipo, detalle: f.detalle, remedio: f.remedio, fecha: f.fecha, resuelta: Number(f.resuelta) as 0 | 1,
    numero: f.numero === null || f.numero === undefined ? null : `${f.codigo ?? ''} ${f.ejercicio}/${String(f.numero).padStart(6, '0')}`.trim(),
  }));
}

/** resolverincidenciatpv: an incidence marked resolved by the user (once: a resolved one stays as it was). */
export async function resolverIncidencia(app: AppContext, user: SessionUser, input: { id: number }): Promise<IncidenciaTpv[]> {
  await app.db.transaction().execute(async (trx) => {
    const i = await trx.selectFrom('tpv_incidencias').select(['id', 'resuelta']).where('id', '=', input.id).executeTakeFirst();
    if (!i) throw fail(MESSAGES.notFound, '3');
    if (Number(i.resuelta) === 1) return;
    await trx.updateTable('tpv_incidencias').set({ resuelta: 1, resuelta_fecha: nowIso(), resuelta_por: user.id }).where('id', '=', input.id).execute();
  });
  return (await leerIncidencias(app.db, {})).filter((x) => x.id === input.id);
}

export { TIPOS_INCIDENCIA_TPV };
