import type { Kysely } from 'kysely';
import { DOCUMENTOS_A_COSTE, DOCUMENTO_TIPOS, esCosteDe, tiene } from 'shared/domain';
import type { Database } from '../db/schema.ts';
import type { SessionUser } from '../session.ts';

/**
 * Issue 24, «Costs only for who may see them»: THE rule, in one place. Every answer of op.asp leaves the dispatcher
 * (actions/registry.ts) through `filtrarCostes`, and every input through `ordenSinCostes`: for a role without «Ver
 * precios de compra, costes y márgenes» (`ver_costes`) no cost field reaches it — in the rows, their lines, the totals
 * (so neither the CSV, XLSX nor PDF the screens build from them) — and no sort by one is honoured (the action's
 * default order instead, as for any column it doesn't have). A cost field is one that `esCampoCoste` names in any
 * answer, or one `COSTES_ACCION` names for an action (both in shared/src/domain/costes.ts, which the screens read to
 * hide the same columns): the amounts of the answers about purchases and of the documents valued at cost.
 * docs/derechos.md, «Costes».
 */

/** Whether the user sees costs (a public action's answer has none of the company's data). */
export const veCostes = (user: SessionUser | null): boolean => !user || tiene(user.rol.derechos, 'ver_costes');

/** The answer's top level: the row count (`total`) and the envelope are not data. */
const SOBRE = new Set(['RESULT', 'message', 'total', 'errors', 'acciones', 'user']);

function quitar(action: string, v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) quitar(action, x);
    return;
  }
  if (!v || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (esCosteDe(action, k)) delete o[k];
    else quitar(action, o[k]);
  }
}

/** The answer without the costs the user may not see (in place, and answered). */
export function filtrarCostes<T>(action: string, user: SessionUser | null, answer: T): T {
  if (veCostes(user) || !answer || typeof answer !== 'object') return answer;
  const o = answer as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (SOBRE.has(k)) continue;
    if (esCosteDe(action, k)) delete o[k];
    else quitar(action, o[k]);
  }
  return answer;
}

/**
 * A sort by a cost the user may not see: dropped from the input (the action's default order). So is a filter by one
 * (`bajo_coste=1`, `vista=bajo_coste`: the articles sold below cost), which would tell the cost without showing it.
 */
export function ordenSinCostes(action: string, user: SessionUser | null, input: Record<string, unknown>, raw: Record<string, unknown>, lectura = true): void {
  if (veCostes(user)) return;
  if (lectura) {
    for (const k of Object.keys(input)) if (k !== 'orden' && esCosteDe(action, k)) input[k] = null;
    for (const k of Object.keys(raw)) if (k !== 'orden' && esCosteDe(action, k)) delete raw[k];
    if (typeof input.vista === 'string' && esCosteDe(action, input.vista)) input.vista = null;
    if (typeof raw.vista === 'string' && esCosteDe(action, raw.vista)) delete raw.vista;
  }
  if (typeof input.orden === 'string' && esCosteDe(action, input.orden)) {
    input.orden = null;
    input.dir = null;
  }
  if (typeof raw.orden === 'string' && esCosteDe(action, raw.orden)) {
    delete raw.orden;
    delete raw.dir;
  }
}

/** Saving a document at cost: its editar action. */
const EDITAR_A_COSTE: ReadonlySet<string> = new Set(DOCUMENTOS_A_COSTE.map((t) => `editar${DOCUMENTO_TIPOS[t].entidad}`));

/**
 * What a role that doesn't see costs sends back without them keeps its saved costs. A document at cost saved by a role that doesn't see its prices (a buyer without ver_costes): the lines it sends back
 * without `precio` or `descuento` — it never had them — keep the saved ones, instead of taking the article's purchase
 * price as a new line does. Runs before the input is validated (actions/registry.ts), on `raw.lineas` in place.
 */
export async function conservarCostes(action: string, user: SessionUser | null, raw: Record<string, unknown>, db: Kysely<Database>): Promise<void> {
  if (veCostes(user)) return;
  // A process's cost, on a process that exists: unchanged (a new one starts at 0, as without the field).
  if (action === 'editarproceso' && raw.id !== undefined && raw.id !== null && raw.id !== '') delete raw.coste;
  if (!EDITAR_A_COSTE.has(action) || !Array.isArray(raw.lineas)) return;
  const id = typeof raw.id === 'number' || typeof raw.id === 'string' ? Number(raw.id) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1) return;
  const guardadas = new Map(
    (await db.selectFrom('documento_lineas').select(['id', 'precio', 'descuento']).where('documento_id', '=', id).execute()).map((l) => [l.id, l]),
  );
  const vacio = (v: unknown) => v === undefined || v === null || v === '';
  for (const l of raw.lineas) {
    if (!l || typeof l !== 'object') continue;
    const linea = l as Record<string, unknown>;
    const antes = guardadas.get(Number(linea.id));
    if (!antes) continue;
    if (vacio(linea.precio)) linea.precio = Number(antes.precio);
    if (vacio(linea.descuento)) linea.descuento = Number(antes.descuento);
  }
}
