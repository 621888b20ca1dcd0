import { sql } from 'kysely';
import { MENSAJES_TPV, MESSAGES, isValidNif, normalizeNif, validate } from 'shared/domain';
import type { ClienteTpv, Schema } from 'shared/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { contains } from '../actions/comun.ts';
import { defineAction, fail, invalidFields } from '../actions/registry.ts';
import { clienteActions } from '../actions/ventas/clientes.ts';
import { flagsTpv } from './comun.ts';

/**
 * The customer of a full invoice (F3) at the till (issue 13): a cashier (Caja: TPV only) finds the customer, or
 * creates one with the fields an invoice needs, and nothing more of the customer master — no list of customers,
 * no debts, no bank details, no changes to an existing record. Both need TPV › acciones, like `facturarticket`.
 */

const LIMITE = 20;
/** The shortest search by name or code that answers (an exact NIF answers whatever its length). */
const BUSQUEDA_MINIMA = 3;

const columnas = ['c.id', 'c.codigo', 'c.nif', 'c.razon_social', 'c.nombre_comercial', 'c.direccion', 'c.codigo_postal', 'c.poblacion', 'c.recargo'] as const;

const leer = (db: Kysely<Database>) => db.selectFrom('clientes as c').select([...columnas]);

const fila = (r: Record<string, unknown>): ClienteTpv => ({
  id: Number(r.id),
  codigo: String(r.codigo ?? ''),
  nif: String(r.nif ?? ''),
  razon_social: String(r.razon_social ?? ''),
  nombre_comercial: (r.nombre_comercial as string | null) ?? null,
  direccion: (r.direccion as string | null) ?? null,
  codigo_postal: (r.codigo_postal as string | null) ?? null,
  poblacion: (r.poblacion as string | null) ?? null,
  recargo: Number(r.recargo ?? 0) === 1 ? 1 : 0,
});

/** The fields a customer created at the till may carry (the rest stays as a new customer's defaults). */
const altaSchema = {
  nif: { type: 'string', required: true, max: 20 },
  razon_social: { type: 'string', required: true, max: 150 },
  direccion: { type: 'string', max: 200 },
  codigo_postal: { type: 'string', max: 20 },
  poblacion: { type: 'string', max: 100 },
} as const satisfies Schema;

const editarCliente = clienteActions.find((a) => a.name === 'editarcliente')!;

export const clienteTpvActions = [
  defineAction({
    name: 'clientestpv',
    method: 'GET',
    flags: flagsTpv(),
    input: { q: { type: 'string', required: true, max: 100 } } as const satisfies Schema,
    // Active customers with a NIF (an F3 names its Destinatario), by the exact NIF, or by at least three characters of
    // the name, trade name or code; at most 20. A shorter search answers nobody (issue 23: never pages of every
    // customer's NIF and address), and a NIF is matched whole, never by a fragment.
    async handler({ input, app }) {
      const q = input.q.trim();
      const nif = normalizeNif(q);
      if (q.length < BUSQUEDA_MINIMA && !isValidNif(nif)) throw invalidFields({ q: MENSAJES_TPV.clienteBusquedaCorta });
      const rows = await leer(app.db)
        .where('c.activo', '=', 1)
        .where(sql<boolean>`coalesce(c.nif, '') <> ''`)
        .where(
          sql<boolean>`(c.nif = ${nif} or ${contains('c.razon_social', q)} or ${contains('c.nombre_comercial', q)} or ${contains('c.codigo', q)})`,
        )
        .orderBy('c.razon_social')
        .orderBy('c.id')
        .limit(LIMITE)
        .execute();
      return { RESULT: '0', data: rows.map(fila) };
    },
  }),

  defineAction({
    name: 'altaclientetpv',
    method: 'POST',
    flags: flagsTpv(),
    input: altaSchema,
    camposExtra(raw) {
      return typeof raw.nif === 'string' && raw.nif.trim() && !isValidNif(normalizeNif(raw.nif)) ? { nif: MESSAGES.invalidNif } : null;
    },
    // A customer already registered with that NIF is the one answered (`existente: 1`), unchanged: the till never
    // edits the customer master. A new one goes through editarcliente's own checks and numbering.
    async handler(ctx) {
      const nif = normalizeNif(ctx.input.nif);
      const ya = await leer(ctx.app.db).where('c.nif', '=', nif).executeTakeFirst();
      if (ya) return { RESULT: '0', data: [{ ...fila(ya), existente: 1 }] };
      const raw: Record<string, unknown> = { nif, pais: 'ES', razon_social: ctx.input.razon_social };
      for (const k of ['direccion', 'codigo_postal', 'poblacion'] as const) if (ctx.input[k]) raw[k] = ctx.input[k];
      const checked = validate(editarCliente.input!, raw);
      if (!checked.ok) throw invalidFields(checked.errors);
      const r = await editarCliente.handler({ ...ctx, input: checked.value, raw });
      const id = (r as { data?: { id: number }[] }).data?.[0]?.id;
      const creado = id ? await leer(ctx.app.db).where('c.id', '=', id).executeTakeFirst() : undefined;
      if (!creado) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: [{ ...fila(creado), existente: 0 }] };
    },
  }),
];
