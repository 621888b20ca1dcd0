// A generated year of purchases (the demo company's past, and `pnpm bench:compras`): pedidos (sent, received in one
// or two receipts, some closed) with the albaranes their receipts made, albaranes entered directly and devoluciones
// from albaranes, in memory first and then written set-based straight into the tables (documentos,
// documento_lineas, documento_enlaces, documento_acciones, stock_movimientos, contadores) as the engine would have
// left them: line links, pending units, the action log with the `detalle` the undos use, the ledger with causa
// `compra` / `devolucion_compra` at the net price, and the counters.
import type { Kysely } from 'kysely';
import type { TipoIva } from 'shared/domain';
import type { Database } from '../db/schema.ts';
import { addDays, bulk, escribirDocumentos, filaDocumento, int, neto, rand } from './datos.ts';
import type { Escritor, LineaGenerada } from './datos.ts';

export type ProveedorGenerado = { id: number; forma_pago: string; retencion: number };
/** What a purchase line needs of an article; `precio_compra` in ten-thousandths. */
export type ArticuloCompra = { id: number; codigo: string; descripcion: string; tipo_iva: TipoIva; precio_compra: number };
/** The next ids of documentos, documento_lineas and documento_acciones (rows go in with explicit ids). */
export type IdsDocumentos = { doc: number; linea: number; accion: number };

export type OpcionesCompras = {
  hoy: string;
  /** The generated year's days, oldest first (nothing on or after `hoy`). */
  dias: string[];
  admin: number;
  /** Most purchases enter the first one, the rest the second. */
  almacenes: [number, number];
  articulos: ArticuloCompra[];
  /** Documents in all (pedidos 30 %, devoluciones 5 %, the rest albaranes). */
  docs: number;
  /** Lines per document. */
  lineas: number;
  ids: IdsDocumentos;
  pickProv: () => ProveedorGenerado;
  /** Distinct articles (indexes into `articulos`) a supplier sells. */
  pickLines: (proveedor: number, n: number) => number[];
  /** A line's quantity (thousandths); default 1 to 24 units. */
  cantidad?: () => number;
};

type L = LineaGenerada;
type D = { id: number; tipo: string; fecha: string; estado: string; prov: ProveedorGenerado; almacen: number; lineas: L[]; entrega: string | null; numero: number };

export type ComprasGeneradas = {
  docs: D[];
  acciones: unknown[][];
  enlaces: unknown[][];
  ledger: unknown[][];
  /** Per `tipo|ejercicio`, the last number and its date. */
  contadores: Map<string, { ultimo: number; fecha: string }>;
  /** Per article index, the net price of its last albarán. */
  ultimoPrecio: Map<number, number>;
};

/** The year's purchases in memory, numbered per (tipo, ejercicio) in date order; the PRNG (datos.ts) seeded by the caller. */
export function generarCompras(o: OpcionesCompras): ComprasGeneradas {
  const { hoy, admin, almacenes, articulos: arts, ids } = o;
  const cantidad = o.cantidad ?? (() => (1 + int(24)) * 1000);
  const docs: D[] = [];
  const acciones: unknown[][] = [];
  const enlaces: unknown[][] = [];
  const ledger: unknown[][] = [];
  const accion = (documento: number, verbo: string, fecha: string, antes: string, detalle: unknown) => {
    acciones.push([ids.accion, documento, verbo, `${fecha}T12:00:00.000Z`, admin, antes, detalle ? JSON.stringify(detalle) : null, null]);
    return ids.accion++;
  };
  const year = o.dias;
  /** Nothing after yesterday. */
  const hasta = (fecha: string) => (fecha < hoy ? fecha : addDays(hoy, -1));
  const finalizadoSi = (fecha: string) => fecha < addDays(hoy, -45) && rand() < 0.85;
  const nuevo = (tipo: string, fecha: string, estado: string, prov: ProveedorGenerado, almacen: number, entrega: string | null): D => ({
    id: ids.doc++, tipo, fecha, estado, prov, almacen, lineas: [], entrega, numero: 0,
  });
  // An albarán (from a receipt: linked to the order's lines, its ledger rows carry the receipt's action).
  const albaran = (fecha: string, prov: ProveedorGenerado, almacen: number, ls: Omit<L, 'id' | 'pendiente'>[], recepcion: { accion: number; padres: number[] } | null) => {
    const d = nuevo('albarancompra', fecha, finalizadoSi(fecha) ? 'finalizado' : 'pendiente', prov, almacen, null);
    for (const [k, l] of ls.entries()) {
      const line = { ...l, id: ids.linea++, pendiente: 0 };
      d.lineas.push(line);
      if (recepcion) enlaces.push([line.id, recepcion.padres[k], l.cantidad]);
      ledger.push([arts[l.articulo].id, almacen, null, null, l.cantidad, 'compra', 'albarancompra', d.id, line.id, recepcion?.accion ?? null, fecha, neto(l.precio, l.descuento)]);
    }
    if (d.estado === 'finalizado') accion(d.id, 'finalizar', addDays(fecha, 30), 'pendiente', null);
    docs.push(d);
    return d;
  };
  const precioDe = (a: number) => Math.floor((Number(arts[a].precio_compra) * (90 + int(21))) / 100);
  const descuentoDe = () => (rand() < 0.2 ? [500, 1000, 1500][int(3)] : 0);
  const almacenDe = () => (rand() < 0.8 ? almacenes[0] : almacenes[1]);

  const nPedidos = Math.round(o.docs * 0.3);
  const nDevoluciones = Math.round(o.docs * 0.05);
  for (let i = 0; i < nPedidos && docs.length < o.docs - nDevoluciones; i++) {
    const prov = o.pickProv();
    const fecha = year[int(year.length)];
    const d = nuevo('pedidocompra', fecha, 'creado', prov, almacenDe(), addDays(fecha, 7));
    for (const a of o.pickLines(prov.id, o.lineas)) {
      const q = cantidad();
      d.lineas.push({ id: ids.linea++, articulo: a, cantidad: q, precio: precioDe(a), descuento: descuentoDe(), pendiente: q });
    }
    docs.push(d);
    const u = rand();
    if (u < 0.08) continue; // still Creado
    accion(d.id, 'enviar', fecha, 'creado', null);
    d.estado = 'enviado';
    if (u < 0.16) continue; // sent, nothing received yet
    // One or two receipts: the first everything or part of each line, the second (if any) the rest.
    let dia = addDays(fecha, 2 + int(8));
    for (let receipt = 0; receipt < 2 && dia < hoy && d.lineas.some((l) => l.pendiente > 0); receipt++) {
      const todo = receipt === 1 || rand() < 0.6;
      const tomadas = d.lineas
        .map((l) => ({ l, q: todo ? l.pendiente : Math.floor((l.pendiente * int(100)) / 100_000) * 1000 }))
        .filter(({ q }) => q > 0);
      if (!tomadas.length) break;
      const antes = d.estado;
      for (const { l, q } of tomadas) l.pendiente -= q;
      const queda = d.lineas.some((l) => l.pendiente > 0);
      d.estado = queda ? 'recibido_parcial' : 'recibido';
      const hijoId = ids.doc; // the albarán made next
      const acc = accion(d.id, 'recibir', dia, antes, { hijo: hijoId });
      albaran(dia, prov, d.almacen, tomadas.map(({ l, q }) => ({ articulo: l.articulo, cantidad: q, precio: l.precio, descuento: l.descuento })), {
        accion: acc,
        padres: tomadas.map(({ l }) => l.id),
      });
      if (!queda || rand() < 0.5) break;
      dia = addDays(dia, 3 + int(12));
    }
    // Some partly received orders are closed: what was pending is kept in the action's detalle.
    if (d.estado === 'recibido_parcial' && rand() < 0.4) {
      const pendiente = d.lineas.filter((l) => l.pendiente > 0).map((l) => [l.id, -l.pendiente]);
      accion(d.id, 'finalizar', hasta(addDays(dia, 20)), d.estado, { pendiente });
      for (const l of d.lineas) l.pendiente = 0;
      d.estado = 'finalizado';
    }
  }
  // Albaranes entered directly, up to the number of documents less the devoluciones.
  while (docs.length < o.docs - nDevoluciones) {
    const prov = o.pickProv();
    albaran(
      year[int(year.length)],
      prov,
      almacenDe(),
      o.pickLines(prov.id, o.lineas).map((a) => ({ articulo: a, cantidad: cantidad(), precio: precioDe(a), descuento: descuentoDe() })),
      null,
    );
  }
  // Devoluciones: part of an albarán's lines (one devolución per albarán at most), linked to them.
  const albaranes = docs.filter((d) => d.tipo === 'albarancompra');
  const usados = new Set<number>();
  for (let i = 0; i < nDevoluciones && usados.size < albaranes.length; i++) {
    let a = albaranes[int(albaranes.length)];
    while (usados.has(a.id)) a = albaranes[int(albaranes.length)];
    usados.add(a.id);
    const fecha = hasta(addDays(a.fecha, 1 + int(20)));
    const d = nuevo('devolucioncompra', fecha, finalizadoSi(fecha) ? 'finalizado' : 'pendiente', a.prov, a.almacen, null);
    for (const l of a.lineas) {
      const q = Math.max(1000, Math.floor(l.cantidad / 4000) * 1000);
      const line = { id: ids.linea++, articulo: l.articulo, cantidad: q, precio: l.precio, descuento: l.descuento, pendiente: 0 };
      d.lineas.push(line);
      enlaces.push([line.id, l.id, q]);
      ledger.push([arts[l.articulo].id, d.almacen, null, null, -q, 'devolucion_compra', 'devolucioncompra', d.id, line.id, null, fecha, neto(l.precio, l.descuento)]);
    }
    if (d.estado === 'finalizado') accion(d.id, 'finalizar', addDays(fecha, 30), 'pendiente', null);
    docs.push(d);
  }

  // Numbers per (tipo, ejercicio) in date order, and the counters after them; the articles' last purchase price.
  const contadores = new Map<string, { ultimo: number; fecha: string }>();
  const ultimoPrecio = new Map<number, number>();
  for (const d of [...docs].sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : a.id - b.id))) {
    const key = `${d.tipo}|${d.fecha.slice(0, 4)}`;
    const c = contadores.get(key) ?? { ultimo: 0, fecha: d.fecha };
    c.ultimo++;
    c.fecha = d.fecha;
    contadores.set(key, c);
    d.numero = c.ultimo;
    if (d.tipo === 'albarancompra') for (const l of d.lineas) ultimoPrecio.set(l.articulo, neto(l.precio, l.descuento));
  }
  return { docs, acciones, enlaces, ledger, contadores, ultimoPrecio };
}

/** Writes generated purchases: documents with their totals, lines, actions, links, the ledger in date order, the counters. */
export async function escribirCompras(r: Escritor, g: ComprasGeneradas, arts: ArticuloCompra[], admin: number): Promise<number> {
  const lineas = await escribirDocumentos(
    r,
    g.docs,
    arts,
    (d, ls) =>
      filaDocumento(
        { id: d.id, tipo: d.tipo, numero: d.numero, fecha: d.fecha, estado: d.estado, almacen: d.almacen, tercero: d.prov, admin, fecha_entrega: d.entrega },
        'proveedor_id',
        ls,
      ),
    g,
  );
  await bulk(
    r,
    'contadores',
    ['tipo', 'serie_id', 'ejercicio', 'ultimo', 'ultima_fecha'],
    [...g.contadores].map(([k, c]) => [k.split('|')[0], 0, Number(k.split('|')[1]), c.ultimo, c.fecha]),
  );
  return lineas;
}

/**
 * Issue 25: the demo's suppliers invoice what they delivered (hcp, «Facturas de proveedor»): one invoice per supplier
 * and month for its albaranes and devoluciones of the month (devoluciones negative: a month of returns only is the
 * supplier's credit note), dated the month's last day (never
 * after yesterday), numbered by the supplier per year; what arrived in the last three weeks is still waiting for its
 * invoice (the 303 warns about it). So the libro de facturas recibidas, boxes 28/29/45 and the 347's clave A have
 * something to show. The documents are those with an id from `desde` (the demo's), the amounts their stored ones.
 */
export async function escribirFacturasProveedor(db: Kysely<Database>, hoy: string, admin: number | null, desde: number): Promise<void> {
  const corte = addDays(hoy, -21);
  const docs = await db
    .selectFrom('documentos')
    .select(['id', 'tipo', 'proveedor_id', 'fecha', 'base', 'iva', 'total'])
    .where('tipo', 'in', ['albarancompra', 'devolucioncompra'])
    .where('id', '>=', desde)
    .where('fecha', '<', corte)
    .where('proveedor_id', 'is not', null)
    .orderBy('fecha')
    .orderBy('id')
    .execute();
  const grupos = new Map<string, { proveedor: number; mes: string; ids: number[]; base: number; iva: number; total: number }>();
  for (const d of docs) {
    const k = `${d.proveedor_id}|${d.fecha.slice(0, 7)}`;
    const g = grupos.get(k) ?? { proveedor: d.proveedor_id!, mes: d.fecha.slice(0, 7), ids: [], base: 0, iva: 0, total: 0 };
    const s = d.tipo === 'devolucioncompra' ? -1 : 1;
    g.ids.push(d.id);
    g.base += s * Number(d.base);
    g.iva += s * Number(d.iva);
    g.total += s * Number(d.total);
    grupos.set(k, g);
  }
  const numeros = new Map<string, number>();
  const ultimoDia = (mes: string) => {
    const [y, m] = mes.split('-').map(Number) as [number, number];
    return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  };
  for (const g of [...grupos.values()].sort((a, b) => (a.mes < b.mes ? -1 : a.mes > b.mes ? 1 : a.proveedor - b.proveedor))) {
    const fecha = ultimoDia(g.mes) < hoy ? ultimoDia(g.mes) : addDays(hoy, -1);
    const k = `${g.proveedor}|${fecha.slice(0, 4)}`;
    const n = (numeros.get(k) ?? 0) + 1;
    numeros.set(k, n);
    const { id } = await db
      .insertInto('facturas_proveedor')
      .values({
        proveedor_id: g.proveedor, numero_proveedor: `${fecha.slice(0, 4)}/${String(n).padStart(4, '0')}`, fecha, total: g.total, base: g.base, iva: g.iva,
        total_documentos: g.total, creado: `${fecha}T18:00:00.000Z`, creado_por: admin,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('facturas_proveedor_documentos').values(g.ids.map((documento_id) => ({ factura_id: id, documento_id }))).execute();
  }
}
