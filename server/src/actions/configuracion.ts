import { DOCUMENTO_TIPOS_TPV, DOCUMENTO_TIPOS_VENTA, IMPUESTO_NOMBRE, IVA_RATE, MESSAGES, TIPOS_POR_IMPUESTO, configuracionSchema, tipoEquivalente } from 'shared/domain';
import type { Impuesto, Schema, TipoIva } from 'shared/domain';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppContext } from '../context.ts';
import type { ConfiguracionRow } from '../db/schema.ts';
import { present } from './comun.ts';
import { defineAction, fail } from './registry.ts';

/** The company's configuration record (the first one: there is one per installation). */
export async function readConfiguracion(app: AppContext): Promise<ConfiguracionRow | undefined> {
  return (await app.config.rows(0))[0];
}

/**
 * Issue 16: the company's tax (IVA, IGIC, IPSI) is chosen before selling. Once a sales document or a ticket exists it
 * cannot change (the invoices issued under a tax stay under it; an open albarán would be invoiced with the old tax's
 * types). Until then, each article's type moves to the same class in the new tax (tipoEquivalente: general, reducido,
 * superreducido/cero, especial, exento), keeping its net prices; its PVPs follow the new rate.
 */
async function cambiarImpuesto(trx: Transaction<Database>, impuesto: Impuesto): Promise<void> {
  const ventas = await trx
    .selectFrom('documentos')
    .select('id')
    .where('tipo', 'in', [...DOCUMENTO_TIPOS_VENTA, ...DOCUMENTO_TIPOS_TPV])
    .limit(1)
    .executeTakeFirst();
  if (ventas)
    throw fail(
      `No se puede cambiar el impuesto a ${IMPUESTO_NOMBRE[impuesto]}: ya hay documentos de venta o tickets hechos con el impuesto actual. El impuesto de la empresa se elige antes de empezar a vender.`,
    );
  const destino = new Set<string>(TIPOS_POR_IMPUESTO[impuesto]);
  const usados = await trx.selectFrom('articulos').select('tipo_iva').distinct().execute();
  for (const { tipo_iva } of usados) {
    if (destino.has(tipo_iva)) continue;
    const nuevo = tipoEquivalente(tipo_iva as TipoIva, impuesto);
    const k = 10000n + IVA_RATE[nuevo];
    // pvpFromNet in SQL: round(net × (1 + rate)) half away from zero, cents from ten-thousandths.
    const pvp = (col: 'precio_venta' | 'tarifa_2' | 'tarifa_3') =>
      sql<number>`case when ${sql.ref(col)} >= 0 then (${sql.ref(col)} * ${sql.lit(Number(k))} + 500000) / 1000000
        else -((-${sql.ref(col)} * ${sql.lit(Number(k))} + 500000) / 1000000) end`;
    await trx
      .updateTable('articulos')
      .set({ tipo_iva: nuevo, pvp_1: pvp('precio_venta'), pvp_2: pvp('tarifa_2'), pvp_3: pvp('tarifa_3') })
      .where('tipo_iva', '=', tipo_iva)
      .execute();
  }
}

/**
 * Issue 22: the company's NIF is the issuer of every VERI*FACTU record, chained under it (IDEmisorFactura, the chain's
 * key) and inalterable: once a record exists the NIF cannot change (another NIF is another taxpayer: a new
 * installation). The demo company may change it while every record it has is a demo record (never sent to the AEAT's
 * production, and removed by «Empezar con mis datos»): trying the product with the owner's own NIF is part of trying.
 */
async function cambiarNif(trx: Transaction<Database>, actual: string | null): Promise<void> {
  const s = await trx.selectFrom('verifactu').select('demo').where('id', '=', 1).executeTakeFirst();
  const registro = await trx
    .selectFrom('registros_facturacion')
    .select('id')
    .$if(Number(s?.demo ?? 0) === 1, (q) => q.where('demo', '=', 0))
    .limit(1)
    .executeTakeFirst();
  if (registro) throw fail(MESSAGES.nifConRegistros.replace('{actual}', actual ?? ''), '1', 400);
}

const normalNif = (v: unknown) => String(v ?? '').toUpperCase().replace(/[\s.-]/g, '');

const listInput = { id: { type: 'int', min: 1 } } satisfies Schema;
const editInput = { id: { type: 'int', min: 1 }, ...configuracionSchema } as Schema;

export const configuracionActions = [
  defineAction({
    name: 'listadoconfiguraciones',
    method: 'GET',
    input: listInput,
    async handler({ input, app }) {
      // Read on every page load of every user: served from the (always current) configuration cache.
      const all = await app.config.rows(0);
      const rows = input.id === null ? all : all.filter((r) => r.id === input.id);
      if (!rows.length) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: [...rows], total: rows.length };
    },
  }),

  defineAction({
    name: 'editarconfiguracion',
    method: 'POST',
    input: editInput,
    async handler({ input, raw, app }) {
      const { id: _id, ...fields } = input as Record<string, unknown>;
      // Absent fields stay as they are; the required ones are always present (validated).
      const values = present(fields, raw) as Partial<ConfiguracionRow>;
      const saved = await app.db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('configuracion')
          .select(['id', 'impuesto', 'nif'])
          .$if(input.id !== null, (q) => q.where('id', '=', input.id as number))
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (!current && input.id !== null) throw fail(MESSAGES.notFound, '3');
        if (current && values.impuesto !== undefined && values.impuesto !== current.impuesto) await cambiarImpuesto(trx, values.impuesto);
        if (current && values.nif !== undefined && normalNif(values.nif) !== normalNif(current.nif)) await cambiarNif(trx, current.nif);
        if (current) {
          await trx.updateTable('configuracion').set(values).where('id', '=', current.id).execute();
          return trx.selectFrom('configuracion').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
        }
        return trx
          .insertInto('configuracion')
          .values(values as ConfiguracionRow)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      app.config.invalidate();
      return { RESULT: '0', data: [saved] };
    },
  }),
];
