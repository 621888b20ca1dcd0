import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 16, the remaining gaps:
 * - `configuracion.iban`: the company's account, where transfers are paid (Facturae PaymentDetails/AccountToBeCredited,
 *   the invoice's PDF).
 * - `verifactu.fin_verifactu`: «Dejar VERI*FACTU al acabar el año»: the last day of the year the owner leaves
 *   VERI*FACTU ('2026-12-31'); every submission from then on carries it as Cabecera/RemisionVoluntaria/FechaFinVeriFactu
 *   (SuministroInformacion.xsd; Validaciones 3.1.1.3). Null: not leaving. `verifactu.fin_comunicado`: when the AEAT
 *   first accepted a submission that carried it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('configuracion').addColumn('iban', 'text').execute();
  await db.schema.alterTable('verifactu').addColumn('fin_verifactu', 'text').execute();
  await db.schema.alterTable('verifactu').addColumn('fin_comunicado', 'text').execute();
}
