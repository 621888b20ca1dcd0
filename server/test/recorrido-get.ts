import type { Schema } from 'shared/domain';
import type { ActionRegistry } from '../src/actions/registry.ts';
import type { SuiteApp } from './helpers.ts';

/**
 * The walk of every GET action (issue 24): for each one, the inputs that make it answer data on the demo's year —
 * no input, then each value of each of its enums (agrupar, vista, tipo…), a required id filled from the first row
 * of the list that has it, the whole year as the period, and the record of the first row (`id`).
 */

/** The list that gives an id field its first value. */
const FUENTE: Record<string, string> = {
  almacen_id: 'listadoalmacenes',
  articulo_id: 'listadoarticulos',
  proveedor_id: 'listadoproveedores',
  cliente_id: 'listadoclientes',
  terminal_id: 'listadoterminales',
  familia_id: 'listadofamilias',
  marca_id: 'listadomarcas',
  serie_id: 'listadoseries',
};

export type Llamada = { ac: string; query: Record<string, string> };

export async function llamadasGet(t: SuiteApp, cookie: string, registry: ActionRegistry, desde: string, hasta: string): Promise<Llamada[]> {
  const primero = new Map<string, string>();
  for (const [campo, ac] of Object.entries(FUENTE)) {
    const r = (await t.op(ac, { cookie })).json() as { data?: { id?: number }[] };
    if (r.data?.[0]?.id) primero.set(campo, String(r.data[0].id));
  }
  const out: Llamada[] = [];
  for (const a of registry.values()) {
    if (a.method !== 'GET' || a.public || a.name === 'copiaseguridad') continue;
    const schema = (a.input ?? {}) as Schema;
    const base: Record<string, string> = {};
    for (const [campo, def] of Object.entries(schema)) {
      const d = def as { type: string; required?: boolean };
      if (campo === 'desde') base.desde = desde;
      else if (campo === 'hasta') base.hasta = hasta;
      else if (d.required && primero.has(campo)) base[campo] = primero.get(campo)!;
    }
    if ('ids' in schema) base.ids = [...Array(40)].map((_, i) => i + 1).join(',');
    if ('q' in schema && (schema.q as { required?: boolean }).required) base.q = 'a';
    if ('porPagina' in schema && (schema.porPagina as { type: string }).type === 'int') base.porPagina = '10000';
    out.push({ ac: a.name, query: base });
    for (const [campo, def] of Object.entries(schema)) {
      const d = def as { type: string; values?: readonly string[] };
      if (d.type !== 'enum' || ['orden', 'dir', 'porPagina', 'motivo'].includes(campo)) continue;
      for (const v of d.values ?? []) out.push({ ac: a.name, query: { ...base, [campo]: v } });
    }
    const lista = (await t.op(a.name, { cookie, query: base })).json() as { data?: { id?: unknown }[] };
    const id = lista.data?.[0]?.id;
    if (typeof id === 'number' && 'id' in schema) out.push({ ac: a.name, query: { ...base, id: String(id) } });
  }
  return out;
}
