import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 23 — a terminal's series are its own; the full invoice (F3) replaces the ticket in the books.
 *
 * 1. A TPV terminal whose returns serie holds documents not its own (the back office's rectificativas, or another
 *    till's returns: until now the demo's till returned into the back office's serie R, so two documents could carry
 *    one number) is given a new rectificativa serie of its own: «TR», or «TR<terminal id>» when that code is taken,
 *    «Devoluciones del TPV «name»». The numbers already issued stay as they are (records are never altered; the
 *    duplicates already made are in the books as they were); from now on the till's returns are numbered in its new
 *    serie from 1, and the back office can no longer number in a terminal's serie (documentos/validacion.ts). A
 *    terminal whose *tickets* serie holds back-office invoices keeps it (renumbering a till's tickets would break the
 *    numbers an offline till expects); the back office simply cannot use it any more, and editarterminal says so.
 *    Upgrade with every till's queue uploaded: an offline return made before, in the old serie, would not be the
 *    next number of the new one.
 * 2. The sales aggregates (informe_*) counted a ticket replaced by its F3 and the F3 too: both are queued for their
 *    refresh (informe_pendientes), which now leaves the Facturado ticket out and gives the F3 its cost.
 */
export async function up(db: AnyDb): Promise<void> {
  const compartidas = await sql<{ id: number; nombre: string; serie: number }>`
    select t.id, t.nombre, t.serie_rectificativa_id as serie from tpv_terminales t
    where exists (select 1 from documentos d where d.serie_id = t.serie_rectificativa_id
      and not exists (select 1 from tpv_tickets tt where tt.documento_id = d.id and tt.terminal_id = t.id))
    order by t.id`.execute(db);
  for (const t of compartidas.rows) {
    const codigos = new Set((await sql<{ codigo: string }>`select codigo from series`.execute(db)).rows.map((r) => r.codigo));
    const codigo = codigos.has('TR') ? [`TR${t.id}`, ...Array.from({ length: 50 }, (_, i) => `TR${t.id}-${i + 2}`)].find((c) => !codigos.has(c))! : 'TR';
    const descripcion = `Devoluciones del TPV «${t.nombre}»`.slice(0, 100);
    await sql`insert into series (codigo, descripcion, tipo, activo) values (${codigo}, ${descripcion}, 'rectificativa', 1)`.execute(db);
    const { rows } = await sql<{ id: number }>`select id from series where codigo = ${codigo}`.execute(db);
    await sql`update tpv_terminales set serie_rectificativa_id = ${rows[0].id} where id = ${t.id}`.execute(db);
  }
  await sql`insert into informe_pendientes (fecha, tipo, documento_id)
    select d.fecha, d.tipo, d.id from documentos d
    where (d.tipo = 'ticket' and d.estado = 'facturado')
      or (d.tipo = 'factura' and d.factura_id is not null and exists (select 1 from documentos o where o.id = d.factura_id and o.tipo = 'ticket'))`.execute(db);
}
