import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES } from 'shared/domain';
import type { DocumentoTipo, DocumentoTipoDef, FieldErrors } from 'shared/domain';
import { insertarFilas } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { addToLines } from './movimientos.ts';
import { efectosDe } from './tipos.ts';
import type { LineaValida } from './tipos.ts';

/**
 * Links between document lines (documento_enlaces: child line ← parent line, with the quantity it
 * takes), generic over types. Two kinds, told apart by the parent's row of DOCUMENTO_TIPOS:
 * - the parent's type makes this type as its child (`hijo`: pedido → albarán): the link consumes the
 *   parent line's `pendiente`, and the parent's state follows (nothing pending → total, else parcial);
 * - any other parent the child type accepts (`origenes` of its effects: devolución ← albarán): the link
 *   may take up to the parent line's quantity less what other documents' links already take.
 */

export type EnlaceAnterior = { padre_linea_id: number; cantidad: number };
/** Per parent line: whether the link consumes its pending units, its document, and whether that one's state follows invoice links. */
export type Origen = { pendiente: boolean; documento_id: number; facturable?: boolean };

const CHUNK = 500;

const consumePendiente = (padreTipo: string, hijoTipo: string) => DOCUMENTO_TIPOS[padreTipo as DocumentoTipo]?.hijo === hijoTipo;

/** The invoice types (those numbered by a serie): their lines' links make `facturable` parents invoiced. */
const FACTURAS = new Set<string>(Object.values(DOCUMENTO_TIPOS).filter((t) => t.series).map((t) => t.tipo));

/** The links of a document's lines to their parents, by line id. */
export async function enlacesDe(trx: Transaction<Database>, docId: number): Promise<Map<number, EnlaceAnterior>> {
  const rows = await trx
    .selectFrom('documento_enlaces as e')
    .innerJoin('documento_lineas as l', 'l.id', 'e.linea_id')
    .select(['e.linea_id', 'e.padre_linea_id', 'e.cantidad'])
    .where('l.documento_id', '=', docId)
    .execute();
  return new Map(rows.map((r) => [r.linea_id, { padre_linea_id: r.padre_linea_id, cantidad: Number(r.cantidad) }]));
}

/**
 * Removes the links of a document's lines to their parents, giving back the pending units they took;
 * answers the parent documents whose pending or invoiced lines changed (their state is recomputed by the caller).
 */
export async function borrarEnlaces(trx: Transaction<Database>, docId: number): Promise<number[]> {
  const { rows } = await sql<{ padre_linea_id: number; cantidad: number | string; padre_tipo: string; padre_id: number; tipo: string }>`
    select e.padre_linea_id, e.cantidad, pd.tipo as padre_tipo, pd.id as padre_id, cd.tipo
    from documento_enlaces e
    join documento_lineas l on l.id = e.linea_id
    join documentos cd on cd.id = l.documento_id
    join documento_lineas pl on pl.id = e.padre_linea_id
    join documentos pd on pd.id = pl.documento_id
    where l.documento_id = ${docId}`.execute(trx);
  if (!rows.length) return [];
  const devolver = rows.filter((r) => consumePendiente(r.padre_tipo, r.tipo));
  await addToLines(trx, 'pendiente', devolver.map((r) => [r.padre_linea_id, Number(r.cantidad)] as const));
  await sql`delete from documento_enlaces where linea_id in (select id from documento_lineas where documento_id = ${docId})`.execute(trx);
  // Parents whose type derives something of its links (a ticket's returned state) recompute it.
  const derivan = new Map(rows.filter((r) => efectosDe(r.padre_tipo)?.alQuitarEnlaces).map((r) => [r.padre_id, r.padre_tipo]));
  for (const [id, tipo] of derivan) await efectosDe(tipo)!.alQuitarEnlaces!({ trx, docId: id });
  const facturables = rows.filter((r) => DOCUMENTO_TIPOS[r.padre_tipo as DocumentoTipo]?.facturable && FACTURAS.has(r.tipo));
  return [...new Set([...devolver, ...facturables].map((r) => r.padre_id))];
}

/**
 * What documents of `tipo` other than `docId` already take of each of `lineaIds` (a devolución: what was returned), by
 * links to the line itself or to the lines made from it (an albarán line's invoice lines: the same goods). An albarán
 * de venta's invoice lines themselves don't count against what may still be returned of it.
 */
async function tomadoPorTipo(trx: Transaction<Database>, tipo: string, lineaIds: readonly number[], docId: number | null): Promise<Map<number, number>> {
  const tomado = new Map<number, number>();
  for (let i = 0; i < lineaIds.length; i += CHUNK) {
    const chunk = sql.join(lineaIds.slice(i, i + CHUNK));
    const { rows } = await sql<{ raiz: number; s: string }>`
      select t.raiz, cast(sum(e.cantidad) as text) as s
      from (select l.id as raiz, l.id as linea from documento_lineas l where l.id in (${chunk})
        union all select h.padre_linea_id as raiz, h.linea_id as linea from documento_enlaces h where h.padre_linea_id in (${chunk})) t
      join documento_enlaces e on e.padre_linea_id = t.linea
      join documento_lineas c on c.id = e.linea_id
      join documentos cd on cd.id = c.documento_id
      where cd.tipo = ${tipo} and c.documento_id <> ${docId ?? 0}
      group by t.raiz`.execute(trx);
    for (const r of rows) tomado.set(Number(r.raiz), Number(r.s));
  }
  return tomado;
}

/**
 * Checks the lines' `origen_linea_id`: a line of a type this one may come from, of the same article and
 * the same party, with enough left (pending units, or quantity not yet taken by other documents).
 * `anteriores`: this document's links before the save (given back first). Errors per line.
 */
export async function validarOrigenes(
  trx: Transaction<Database>,
  def: DocumentoTipoDef,
  origenes: readonly DocumentoTipo[],
  header: Record<string, unknown>,
  lineas: readonly LineaValida[],
  anteriores: Map<number, EnlaceAnterior>,
  docId: number | null,
  errors: FieldErrors,
): Promise<Map<number, Origen>> {
  const out = new Map<number, Origen>();
  const ids = [...new Set(lineas.map((l) => l.origen_linea_id).filter((id): id is number => id !== null))];
  if (!ids.length) return out;
  const permitidos = new Set<string>([...origenes, ...Object.values(DOCUMENTO_TIPOS).filter((t) => t.hijo === def.tipo).map((t) => t.tipo)]);
  type Padre = { id: number; documento_id: number; articulo_id: number; cantidad: number; pendiente: number; tipo: string; proveedor_id: number | null; cliente_id: number | null };
  const padres = new Map<number, Padre>();
  // A return (not an invoice) of an invoice line whose goods came by an albarán line returns the same goods: what either
  // path takes counts against both (mismos: the named line → the line its goods came from, among the allowed origins).
  const mismos = new Map<number, number>();
  /** The quantity of each of those lines. */
  const cantidadOrigen = new Map<number, number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const rows = await trx
      .selectFrom('documento_lineas as l')
      .innerJoin('documentos as d', 'd.id', 'l.documento_id')
      .select(['l.id', 'l.documento_id', 'l.articulo_id', 'l.cantidad', 'l.pendiente', 'd.tipo', 'd.proveedor_id', 'd.cliente_id'])
      .where('l.id', 'in', chunk)
      .execute();
    for (const r of rows) padres.set(r.id, { ...r, cantidad: Number(r.cantidad), pendiente: Number(r.pendiente) });
    if (FACTURAS.has(def.tipo)) continue;
    const vienen = await trx
      .selectFrom('documento_enlaces as e')
      .innerJoin('documento_lineas as pl', 'pl.id', 'e.padre_linea_id')
      .innerJoin('documentos as pd', 'pd.id', 'pl.documento_id')
      .select(['e.linea_id', 'e.padre_linea_id', 'pl.cantidad'])
      .where('e.linea_id', 'in', chunk)
      .where('pd.tipo', 'in', [...permitidos])
      .execute();
    for (const v of vienen) {
      mismos.set(v.linea_id, v.padre_linea_id);
      cantidadOrigen.set(v.padre_linea_id, Number(v.cantidad));
    }
  }
  const tomado = await tomadoPorTipo(trx, def.tipo, [...new Set([...ids, ...mismos.values()])], docId);
  const antes = new Map<number, number>();
  for (const a of anteriores.values()) antes.set(a.padre_linea_id, (antes.get(a.padre_linea_id) ?? 0) + a.cantidad);
  const pedido = new Map<number, number>();
  const tercero = def.tercero ? (`${def.tercero}_id` as const) : null;
  const cliente = def.tercero === 'cliente';
  lineas.forEach((l, i) => {
    if (l.origen_linea_id === null) return;
    const p = padres.get(l.origen_linea_id);
    const valido =
      p && permitidos.has(p.tipo) && p.articulo_id === l.articulo_id && p.documento_id !== docId && (!tercero || p[tercero] === header[tercero]);
    if (!valido) {
      errors[`lineas.${i}.origen_linea_id`] ??= cliente ? MESSAGES.lineaOrigenClienteNoValida : MESSAGES.lineaOrigenNoValida;
      return;
    }
    const facturable = !!DOCUMENTO_TIPOS[p.tipo as DocumentoTipo]?.facturable && FACTURAS.has(def.tipo);
    out.set(p.id, { pendiente: consumePendiente(p.tipo, def.tipo), documento_id: p.documento_id, facturable });
    // A link takes a positive quantity: an invoice's negative line (returned units) takes its absolute value.
    for (const id of [p.id, mismos.get(p.id)]) if (id !== undefined) pedido.set(id, (pedido.get(id) ?? 0) + Math.abs(l.cantidad));
  });
  lineas.forEach((l, i) => {
    const o = l.origen_linea_id !== null ? out.get(l.origen_linea_id) : undefined;
    if (!o) return;
    const lleno = (id: number) => {
      const p = padres.get(id);
      const disponible =
        o.pendiente && p ? p.pendiente + (antes.get(id) ?? 0) : Math.abs(p?.cantidad ?? cantidadOrigen.get(id) ?? 0) - (tomado.get(id) ?? 0);
      return (pedido.get(id) ?? 0) > disponible;
    };
    const origen = mismos.get(l.origen_linea_id!);
    // Issue 17: a purchase albarán already received beyond its order (its link took all that was pending) keeps its
    // link at what the order had; the units beyond it stay on the albarán.
    if (o.pendiente && def.tipo === 'albarancompra' && antes.has(l.origen_linea_id!) && lleno(l.origen_linea_id!)) {
      const p = padres.get(l.origen_linea_id!);
      l.cantidad_enlace = Math.max(0, (p?.pendiente ?? 0) + (antes.get(l.origen_linea_id!) ?? 0));
      return;
    }
    if (lleno(l.origen_linea_id!) || (!o.pendiente && origen !== undefined && lleno(origen))) {
      errors[`lineas.${i}.cantidad`] ??= o.pendiente
        ? def.tipo === 'albaranventa' ? MESSAGES.servirMasDePendiente : MESSAGES.recibirMasDePendiente
        : cliente ? MESSAGES.devolverMasDeVendido : MESSAGES.devolverMasDeRecibido;
    }
  });
  return out;
}

/**
 * Writes the links of freshly written lines (`ids` in the lines' order) and takes the pending units of
 * the parents that track them; answers those parents' documents.
 */
export async function guardarEnlaces(
  trx: Transaction<Database>,
  lineas: readonly LineaValida[],
  ids: readonly number[],
  origenes: Map<number, Origen>,
): Promise<number[]> {
  const links = lineas.flatMap((l, i) =>
    l.origen_linea_id !== null ? [{ linea_id: ids[i], padre_linea_id: l.origen_linea_id, cantidad: l.cantidad_enlace ?? Math.abs(l.cantidad) }] : [],
  );
  for (let i = 0; i < links.length; i += CHUNK) {
    await insertarFilas(trx, 'documento_enlaces', ['linea_id', 'padre_linea_id', 'cantidad'], links.slice(i, i + CHUNK).map((k) => [k.linea_id, k.padre_linea_id, k.cantidad]));
  }
  const tomar = links.filter((k) => origenes.get(k.padre_linea_id)?.pendiente);
  await addToLines(trx, 'pendiente', tomar.map((k) => [k.padre_linea_id, -k.cantidad] as const));
  const facturables = links.filter((k) => origenes.get(k.padre_linea_id)?.facturable);
  return [...new Set([...tomar, ...facturables].map((k) => origenes.get(k.padre_linea_id)!.documento_id))];
}

/**
 * The state of `facturable` documents (albaranes, devoluciones, partes de venta) among `docIds` from their
 * lines' links to invoice lines: every line covered (its quantity, in absolute value) by links from invoices
 * (drafts included) → `facturado`; otherwise → `pendiente` (an invoice draft deleted or edited gives them
 * back). Only documents in one of those two states move. Set-based: one read and one update per state and
 * 500 documents.
 */
async function actualizarFacturables(trx: Transaction<Database>, docIds: readonly number[]): Promise<void> {
  const facturas = sql.join([...FACTURAS].map((t) => sql`${t}`));
  for (let i = 0; i < docIds.length; i += CHUNK) {
    const chunk = docIds.slice(i, i + CHUNK);
    const { rows } = await sql<{ id: number; tipo: string; estado: string; abiertas: number | string; enlazadas: number | string }>`
      select d.id, d.tipo, d.estado,
        (select count(*) from documento_lineas l where l.documento_id = d.id and abs(l.cantidad) > coalesce((
          select sum(e.cantidad) from documento_enlaces e join documento_lineas c on c.id = e.linea_id join documentos cd on cd.id = c.documento_id
          where e.padre_linea_id = l.id and cd.tipo in (${facturas})), 0)) as abiertas,
        (select count(*) from documento_lineas l join documento_enlaces e on e.padre_linea_id = l.id join documento_lineas c on c.id = e.linea_id
          join documentos cd on cd.id = c.documento_id where l.documento_id = d.id and cd.tipo in (${facturas})) as enlazadas
      from documentos d where d.id in (${sql.join(chunk)})`.execute(trx);
    const cambios = new Map<string, number[]>();
    for (const r of rows) {
      const f = DOCUMENTO_TIPOS[r.tipo as DocumentoTipo]!.facturable!;
      if (r.estado !== f.pendiente && r.estado !== f.facturado) continue;
      // Invoiced when something links it and nothing is left open.
      const estado = Number(r.abiertas) === 0 && Number(r.enlazadas) > 0 ? f.facturado : f.pendiente;
      if (estado !== r.estado) cambios.set(estado, [...(cambios.get(estado) ?? []), r.id]);
    }
    for (const [estado, ids] of cambios) await trx.updateTable('documentos').set({ estado }).where('id', 'in', ids).execute();
  }
}

/**
 * The state of parents whose pending units changed outside their own actions (a child edited or
 * deleted): while in the partial / total state of their porLineas action, nothing pending → total,
 * something pending → partial. `facturable` ones follow their invoice links (actualizarFacturables).
 */
export async function actualizarEstadoPadres(trx: Transaction<Database>, docIds: readonly number[]): Promise<void> {
  const unicos = [...new Set(docIds)];
  if (!unicos.length) return;
  const tipos = new Map<number, string>();
  for (let i = 0; i < unicos.length; i += CHUNK) {
    const rows = await trx.selectFrom('documentos').select(['id', 'tipo']).where('id', 'in', unicos.slice(i, i + CHUNK)).execute();
    for (const r of rows) tipos.set(r.id, r.tipo);
  }
  const esFacturable = (id: number) => !!DOCUMENTO_TIPOS[tipos.get(id) as DocumentoTipo]?.facturable;
  await actualizarFacturables(trx, unicos.filter(esFacturable));
  for (const id of unicos.filter((i) => tipos.has(i) && !esFacturable(i))) {
    const doc = await trx.selectFrom('documentos').select(['tipo', 'estado']).where('id', '=', id).executeTakeFirst();
    const def = doc ? DOCUMENTO_TIPOS[doc.tipo as DocumentoTipo] : undefined;
    const accion = def?.acciones.find((a) => a.porLineas && a.to && a.toParcial);
    if (!doc || !accion || (doc.estado !== accion.to && doc.estado !== accion.toParcial)) continue;
    const queda = await trx.selectFrom('documento_lineas').select('id').where('documento_id', '=', id).where('pendiente', '>', 0).limit(1).executeTakeFirst();
    const estado = queda ? accion.toParcial! : accion.to!;
    if (estado !== doc.estado) await trx.updateTable('documentos').set({ estado }).where('id', '=', id).execute();
  }
}

/**
 * The effect of "finalizar" on an order (pedido de compra or de venta): what is still pending is closed — no longer
 * to receive or serve, no longer reserved. Its deltas go to the action's detalle, so the generic undo gives them back.
 */
export async function cerrarPendiente(ctx: { trx: Transaction<Database>; doc: { id: number } }): Promise<{ detalle: { pendiente: [number, number][] } }> {
  const abiertas = await ctx.trx
    .selectFrom('documento_lineas')
    .select(['id', 'pendiente'])
    .where('documento_id', '=', ctx.doc.id)
    .where('pendiente', '>', 0)
    .execute();
  const pendiente = abiertas.map((l) => [l.id, -Number(l.pendiente)] as [number, number]);
  await addToLines(ctx.trx, 'pendiente', pendiente);
  return { detalle: { pendiente } };
}
