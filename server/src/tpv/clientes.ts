import { sql } from 'kysely';
import { MESSAGES_TPV, isValidNif, normalizeNif } from 'shared/domain';
import type { ClienteTpv } from 'shared/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { contains } from '../db/consulta.ts';
import { invalidFields } from '../errors.ts';

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

/**
 * clientestpv: active customers with a NIF (an F3 names its Destinatario), by the exact NIF, or by at least three
 * characters of the name, trade name or code; at most 20. A shorter search answers nobody (issue 23: never pages of
 * every customer's NIF and address), and a NIF is matched whole, never by a fragment.
 */
export async function buscarClientes(db: Kysely<Database>, texto: string): Promise<ClienteTpv[]> {
  const q = texto.trim();
  const nif = normalizeNif(q);
  if (q.length < BUSQUEDA_MINIMA && !isValidNif(nif)) throw invalidFields({ q: MESSAGES_TPV.clienteBusquedaCorta });
  const rows = await leer(db)
    .where('c.activo', '=', 1)
    .where(sql<boolean>`coalesce(c.nif, '') <> ''`)
    .where(
      sql<boolean>`(c.nif = ${nif} or ${contains('c.razon_social', q)} or ${contains('c.nombre_comercial', q)} or ${contains('c.codigo', q)})`,
    )
    .orderBy('c.razon_social')
    .orderBy('c.id')
    .limit(LIMITE)
    .execute();
  return rows.map(fila);
}

/** The customer registered with this NIF (normalised), as the till reads it. */
export async function clientePorNif(db: Kysely<Database>, nif: string): Promise<ClienteTpv | undefined> {
  const r = await leer(db).where('c.nif', '=', nif).executeTakeFirst();
  return r && fila(r);
}

/** A customer by id, as the till reads it. */
export async function clientePorId(db: Kysely<Database>, id: number): Promise<ClienteTpv | undefined> {
  const r = await leer(db).where('c.id', '=', id).executeTakeFirst();
  return r && fila(r);
}
