import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { MESSAGES } from 'shared/domain';
import { compiledQuery } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { fail } from '../errors.ts';

/**
 * Numbering (docs/documentos.md): per serie, type and ejercicio, correlative, from a counters row advanced in the
 * transaction that issues the number, so two instances never hand out the same one and a failure leaves no gap.
 */

/** The next number of (tipo, serie, ejercicio): the counter row is locked by the UPDATE until the transaction ends. */
export async function siguienteNumero(trx: Transaction<Database>, tipo: string, serieId: number | null, ejercicio: number, fecha: string): Promise<number> {
  return (await avanzarContador(trx, tipo, serieId, ejercicio, fecha)).ultimo;
}

const incrementarContador = compiledQuery((db, p: { fecha: string; tipo: string; serie: number; ejercicio: number }) => ({
  compile: () =>
    sql<{ ultimo: number; ultima_fecha: string | null }>`update contadores set ultimo = ultimo + 1,
        ultima_fecha = case when ultima_fecha is null or ultima_fecha < ${p.fecha} then ${p.fecha} else ultima_fecha end
      where tipo = ${p.tipo} and serie_id = ${p.serie} and ejercicio = ${p.ejercicio} returning ultimo, ultima_fecha`.compile(db),
}));

/** The counter advanced: its new number and its last date after this one (the later of the two). */
async function avanzarContador(trx: Transaction<Database>, tipo: string, serieId: number | null, ejercicio: number, fecha: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const rows = await incrementarContador(trx, { fecha, tipo, serie: serieId ?? 0, ejercicio });
    if (rows[0]) return { ultimo: Number(rows[0].ultimo), ultima_fecha: rows[0].ultima_fecha };
    await trx
      .insertInto('contadores')
      .values({ tipo, serie_id: serieId ?? 0, ejercicio, ultimo: 0, ultima_fecha: null })
      .onConflict((oc) => oc.columns(['tipo', 'serie_id', 'ejercicio']).doNothing())
      .execute();
  }
  throw new Error('contador');
}

/**
 * The number an issued document (a type with `series`) takes in its serie: the counter of (tipo, serie, ejercicio)
 * advanced and locked like siguienteNumero's; a date before the serie's last issued one that year is refused
 * (MESSAGES.fechaAnteriorSerie) — the caller's transaction rolls back, so no number is lost. The counter's date after
 * the update is the later of its last and this one: later than `fecha` only when the last one was.
 */
export async function numeroEnSerie(trx: Transaction<Database>, tipo: string, serieId: number, fecha: string): Promise<number> {
  const c = await avanzarContador(trx, tipo, serieId, Number(fecha.slice(0, 4)), fecha);
  if (c.ultima_fecha && c.ultima_fecha > fecha) throw fail(MESSAGES.fechaAnteriorSerie, '1', 400);
  return c.ultimo;
}
