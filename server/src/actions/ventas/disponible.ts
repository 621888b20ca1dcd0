import { sql } from 'kysely';
import { MESSAGES, divRound } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { arbolKits } from '../../documentos/movimientos.ts';
import type { Componente } from '../../documentos/movimientos.ts';
import { defineAction, invalidFields } from '../registry.ts';

/** Largest number of articles one `disponibleventa` asks about (a document's visible lines). */
const MAX_IDS = 500;

/** Pedido de venta states whose pending units are reserved. */
export const ESTADOS_RESERVA = ['confirmado', 'enviado_parcial'] as const;

export type Disponible = { articulo_id: number; stock: number; reservado: number; disponible: number };

/** What `cantidad` units of `articulo` need of each stocked article (a kit: its components, every level; services: nothing). */
function necesidades(arbol: Map<number, Componente[]>, articulo: number, cantidad: bigint, out: Map<number, bigint>, nivel = 0): void {
  const comps = nivel < 32 ? arbol.get(articulo) : undefined;
  if (!comps) {
    out.set(articulo, (out.get(articulo) ?? 0n) + cantidad);
    return;
  }
  for (const c of comps) if (!c.servicio) necesidades(arbol, c.componente_id, divRound(cantidad * c.cantidad, 1000n), out, nivel + 1);
}

/** a ÷ b rounded down (b > 0), for the whole kits some stock makes. */
const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/**
 * Available stock for sales in a warehouse (thousandths): stock (the ledger) − reserved (the pending units of
 * confirmed or partly served pedidos de venta of that warehouse; a reserved kit reserves its components). For a
 * kit, stock and disponible are the whole kits its components make (the scarcest one decides), and reservado the
 * kits its own pending order lines hold.
 */
export const disponibleActions = [
  defineAction({
    name: 'disponibleventa',
    method: 'GET',
    flags: ['ventas'],
    input: { almacen_id: { type: 'int', required: true, min: 1 }, ids: { type: 'string', required: true, max: 6000 } } satisfies Schema,
    async handler({ input, app }) {
      const ids = [...new Set(input.ids.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
      if (!ids.length || ids.length > MAX_IDS || ids.some((s) => !/^\d{1,9}$/.test(s))) throw invalidFields({ ids: MESSAGES.invalidList });
      const pedidos = ids.map(Number);
      const db = app.db;
      const almacen = input.almacen_id;

      // Reserved lines, per article (kits expanded below).
      const reservas = await db
        .selectFrom('documento_lineas as l')
        .innerJoin('documentos as d', 'd.id', 'l.documento_id')
        .select('l.articulo_id')
        .select(sql<string>`cast(sum(l.pendiente) as text)`.as('pendiente'))
        .where('d.tipo', '=', 'pedidoventa')
        .where('d.estado', 'in', ESTADOS_RESERVA)
        .where('d.almacen_id', '=', almacen)
        .where('l.pendiente', '>', 0)
        .groupBy('l.articulo_id')
        .execute();
      const arbol = await arbolKits(db, [...pedidos, ...reservas.map((r) => r.articulo_id)]);
      const reservado = new Map<number, bigint>();
      const propio = new Map<number, bigint>();
      for (const r of reservas) {
        propio.set(r.articulo_id, BigInt(r.pendiente));
        necesidades(arbol, r.articulo_id, BigInt(r.pendiente), reservado);
      }

      // What each asked article needs per unit (itself, or a kit's components).
      const porUnidad = new Map<number, Map<number, bigint>>();
      for (const id of pedidos) {
        const n = new Map<number, bigint>();
        necesidades(arbol, id, 1000n, n);
        porUnidad.set(id, n);
      }
      const hojas = [...new Set([...porUnidad.values()].flatMap((n) => [...n.keys()]))];
      const stock = new Map<number, bigint>();
      for (let i = 0; i < hojas.length; i += 500) {
        const rows = await db
          .selectFrom('stock_movimientos')
          .select('articulo_id')
          .select(sql<string>`cast(sum(cantidad) as text)`.as('stock'))
          .where('almacen_id', '=', almacen)
          .where('articulo_id', 'in', hojas.slice(i, i + 500))
          .groupBy('articulo_id')
          .execute();
        for (const r of rows) stock.set(r.articulo_id, BigInt(r.stock));
      }

      const data: Disponible[] = pedidos.map((id) => {
        const n = porUnidad.get(id)!;
        if (!arbol.has(id)) {
          const s = stock.get(id) ?? 0n;
          const r = reservado.get(id) ?? 0n;
          return { articulo_id: id, stock: Number(s), reservado: Number(r), disponible: Number(s - r) };
        }
        // A kit: the whole kits (in thousandths) the scarcest component allows.
        let s: bigint | null = null;
        let d: bigint | null = null;
        for (const [hoja, q] of n) {
          if (q <= 0n) continue;
          const sh = floorDiv((stock.get(hoja) ?? 0n) * 1000n, q);
          const dh = floorDiv(((stock.get(hoja) ?? 0n) - (reservado.get(hoja) ?? 0n)) * 1000n, q);
          s = s === null || sh < s ? sh : s;
          d = d === null || dh < d ? dh : d;
        }
        return { articulo_id: id, stock: Number(s ?? 0n), reservado: Number(propio.get(id) ?? 0n), disponible: Number(d ?? 0n) };
      });
      return { RESULT: '0', data, total: data.length };
    },
  }),
];
