import type { SuiteApp } from './helpers.ts';
import { expectCleanAnswer } from './helpers.ts';
import { articulo, list, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

/**
 * What the document suites (compras, ventas, facturas) ask op.asp, typed by each suite's own document shape:
 * `const post = enviar<Doc>`.
 */

/** A POST answered as it came: its HTTP status and body (a refusal's `errors` or message, or the document). */
export async function enviar<D = Row>(t: SuiteApp, ac: string, body: Record<string, unknown>) {
  const res = await t.op(ac, { cookie: t.cookie, body });
  return { status: res.statusCode, body: expectCleanAnswer(res) as Record<string, unknown> & { errors?: Record<string, string>; data?: D[] } };
}
/** A save that must succeed: the document it answers. */
export const guardar = async <D = Row>(t: SuiteApp, ac: string, body: Record<string, unknown>) => (await save(t, t.cookie, ac, body)) as D;
/** One document read back by `listado<plural>&id=`. */
export const leerDocumento = async <D = Row>(t: SuiteApp, plural: string, id: number) => (await list(t, t.cookie, `listado${plural}`, { id })).rows[0] as D;

/** Stock of an article per warehouse (thousandths), as its record shows it. */
export async function stockPorAlmacen(t: SuiteApp, articuloId: number): Promise<Record<number, number>> {
  const rec = await articulo(t, t.cookie, articuloId);
  return Object.fromEntries((rec.stock as { almacen_id: number; stock: number }[]).map((s) => [s.almacen_id, s.stock]));
}
