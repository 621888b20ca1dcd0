import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { FORMAS_PAGO_TPV, MESSAGES_TPV, MESSAGES, isValidNif, normalizeNif, textoTpv } from 'shared/domain';
import type { EmisionTpv, FormaPagoTpv, Impuesto } from 'shared/domain';
import type { Database } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { emisionDe } from '../fiscal/registro.ts';
import { sha256 } from '../security.ts';

/** The TPV's shared pieces: the paired browser's cookie, the company as issuer, amounts, the open caja. */

export const FLAGS_TPV = ['tpv'] as const;
export const flagsTpv = () => [...FLAGS_TPV];

/** The paired browser's long-lived cookie (httpOnly): its hash is the terminal's token_hash. */
export const TERMINAL_COOKIE = 'mtpv_terminal';
export const TERMINAL_COOKIE_MAX_AGE = 10 * 365 * 24 * 60 * 60;

/** The terminal the request's cookie pairs, or null. */
export async function terminalDeCookie(db: Kysely<Database>, request: FastifyRequest) {
  const token = request.cookies[TERMINAL_COOKIE];
  if (!token) return null;
  return (await db.selectFrom('tpv_terminales').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst()) ?? null;
}

/** The company as the records' issuer (the first configuration record): refused without a valid NIF. */
export async function empresaEmisora(db: Kysely<Database> | Transaction<Database>): Promise<{ nif: string; nombre: string; id: number; minorista: boolean; impuesto: Impuesto }> {
  const c = await db.selectFrom('configuracion').select(['id', 'razon_social', 'nif', 'minorista', 'impuesto']).orderBy('id').limit(1).executeTakeFirst();
  const nif = normalizeNif(c?.nif ?? '');
  if (!c || !isValidNif(nif) || nif.length !== 9) throw fail(MESSAGES.empresaSinNif, '1', 400);
  return { nif, nombre: c.razon_social.trim() || nif, id: c.id, minorista: Number(c.minorista ?? 0) === 1, impuesto: c.impuesto ?? 'iva' };
}

/**
 * What the till's records are made for (issue 22; terminaltpv): emisionActual's rules on the company's state now — the
 * demo company's for «Pruebas» and demo, a live company's for «Producción»; `verifactu` 1 while sending is on.
 */
export async function emisionTpv(db: Kysely<Database> | Transaction<Database>): Promise<EmisionTpv> {
  const e = emisionDe(await db.selectFrom('verifactu').select(['activo', 'demo']).where('id', '=', 1).executeTakeFirst());
  return { entorno: e.entorno, demo: e.demo ? 1 : 0, verifactu: e.verifactu ? 1 : 0 };
}

/** A stored record's emission (registros_facturacion.entorno/demo/verifactu) as the till and the prints read it. */
export const emisionDeFila = (r: { entorno: string | null; demo: number | null; verifactu: number | null }): EmisionTpv => ({
  entorno: r.entorno === 'produccion' ? 'produccion' : 'pruebas',
  demo: Number(r.demo ?? 0) === 1 ? 1 : 0,
  verifactu: Number(r.verifactu ?? 0) === 1 ? 1 : 0,
});

/** '12,34 €' for messages. */
export const euros = (cents: number) =>
  `${(cents / 100).toLocaleString('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true })} €`;

export function formasDe(json: string | null | undefined): FormaPagoTpv[] {
  try {
    const v = JSON.parse(json ?? '[]');
    return Array.isArray(v) ? v.filter((f): f is FormaPagoTpv => (FORMAS_PAGO_TPV as readonly string[]).includes(f)) : [];
  } catch {
    return [];
  }
}

/** A terminal by id for an action of the till: it must exist and be active. */
export async function terminalActivo(db: Kysely<Database> | Transaction<Database>, id: number) {
  const t = await db.selectFrom('tpv_terminales').selectAll().where('id', '=', id).executeTakeFirst();
  if (!t) throw fail(MESSAGES_TPV.terminalNoExiste, '3');
  if (t.activo !== 1) throw fail(MESSAGES_TPV.terminalInactivo, '1', 400);
  return t;
}

/** The terminal's open caja (session), or null. */
export const cajaAbierta = (db: Kysely<Database> | Transaction<Database>, terminalId: number) =>
  db.selectFrom('tpv_cajas').selectAll().where('terminal_id', '=', terminalId).where('cierre_id', 'is', null).orderBy('id', 'desc').limit(1).executeTakeFirst();

/** An integer of the JSON body (a number or a string of digits), else null. */
export const entero = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
};

export const t = textoTpv;
