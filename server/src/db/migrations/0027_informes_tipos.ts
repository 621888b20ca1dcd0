import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 14 × issue 16: the reports summed IVA and recargo only for the 21/10/4 % types, so an IGIC or IPSI line and a
 * tobacco line (21 % + 1,75 %) counted no tax in the sales aggregates. The sales documents with such a line are marked
 * pending (`informe_pendientes`): the first report after the upgrade recomputes their days with every type's rate
 * (informes/agregados.ts), exactly as «Recalcular informes» would.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`insert into informe_pendientes (fecha, tipo, documento_id)
    select d.fecha, d.tipo, d.id from documentos d
    where d.tipo in ('factura', 'rectificativa', 'ticket', 'albaranventa', 'devolucionventa', 'parte')
      and exists (select 1 from documento_lineas l where l.documento_id = d.id and l.tipo_iva not in ('21', '10', '4', 'exento'))`.execute(db);
}
