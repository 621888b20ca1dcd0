import type { SuiteApp } from './helpers.ts';
import { expectCleanAnswer } from './helpers.ts';
import { articulo, list, nuevoArticulo, save } from './catalogo-fixtures.ts';
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

/** A kit of two components: 2 × `<prefijo>-C1` (2 €) + 1 × `<prefijo>-C2` (1 €), sold as `<prefijo>-KIT` at 6 €. */
export async function kitDeDos(t: SuiteApp, prefijo: string): Promise<{ comp1: Row; comp2: Row; kit: Row }> {
  const comp1 = await save(t, t.cookie, 'editararticulo', nuevoArticulo(`${prefijo}-C1`, { precio_venta: 20_000 }));
  const comp2 = await save(t, t.cookie, 'editararticulo', nuevoArticulo(`${prefijo}-C2`, { precio_venta: 10_000 }));
  const kit = await save(t, t.cookie, 'editararticulo', {
    ...nuevoArticulo(`${prefijo}-KIT`, { precio_venta: 60_000 }),
    componentes: [{ componente_id: comp1.id, cantidad: 2_000 }, { componente_id: comp2.id, cantidad: 1_000 }],
  });
  return { comp1, comp2, kit };
}
