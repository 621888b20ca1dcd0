import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 22, VERI*FACTU that cannot be misread:
 * - `verifactu.declaracion_version` / `declaracion_fecha`: the version of the product the declaración responsable was
 *   last made for in this installation and the day (aaaa-mm-dd) it was first made for it — its date of signature when
 *   the company declares for itself (no distributor's MANAGER_PRODUCTOR_FECHA).
 * - A till's NumeroInstalacion is the company installation's unique number plus the terminal's id
 *   (`<numero_instalacion>-TPV001`), no longer the NIF plus the id (two installations of a company gave `B…-TPV001`
 *   twice). Terminals whose chain holds no record yet take the new number; a terminal that has made records keeps
 *   the one they say (its chain goes on under it; docs/verifactu.md).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('verifactu').addColumn('declaracion_version', 'text').execute();
  await db.schema.alterTable('verifactu').addColumn('declaracion_fecha', 'text').execute();
  const v = await db.selectFrom('verifactu').select('numero_instalacion').where('id', '=', 1).executeTakeFirst();
  const instalacion = v?.numero_instalacion as string | null | undefined;
  if (!instalacion) return;
  const terminales = (await db.selectFrom('tpv_terminales').select(['id', 'numero_instalacion']).execute()) as { id: number; numero_instalacion: string }[];
  const cadenas = new Set(((await db.selectFrom('registros_cadena').select('emisor').execute()) as { emisor: string }[]).map((c) => c.emisor.slice(c.emisor.indexOf(':') + 1)));
  for (const t of terminales) {
    if (cadenas.has(t.numero_instalacion)) continue;
    const vendio = await db.selectFrom('tpv_tickets').select('documento_id').where('terminal_id', '=', t.id).limit(1).executeTakeFirst();
    if (vendio) continue;
    await db
      .updateTable('tpv_terminales')
      .set({ numero_instalacion: `${instalacion}-TPV${String(t.id).padStart(3, '0')}` })
      .where('id', '=', t.id)
      .execute();
  }
}
