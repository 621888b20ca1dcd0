// The demo company's warehouse documents over its generated year: the opening count of both warehouses, a transfer
// a month from the principal to the shop (the last one still in transit), a few losses and a count in the shop,
// as the engine would have left them (inventario's teorico and its differences, movimiento's pending units while in
// transit and the detalle its undos use, perdida's motivo).
import { MOTIVOS_PERDIDA } from 'shared/domain';
import type { ArticuloCompra, IdsDocumentos } from './compras.ts';
import { addDays, escribirDocumentos, filaDocumento, int, rand } from './datos.ts';
import type { Escritor } from './datos.ts';
import { elegir } from './ventas.ts';

type LineaAlmacen = { id: number; articulo: number; cantidad: number; pendiente: number; teorico: number | null; motivo: string | null };
export type DocAlmacen = {
  id: number;
  tipo: 'movimiento' | 'inventario' | 'perdida';
  fecha: string;
  estado: string;
  almacen: number;
  destino: number | null;
  observaciones: string;
  lineas: LineaAlmacen[];
  numero?: number;
};

export type OpcionesAlmacen = {
  hoy: string;
  dias: string[];
  admin: number;
  ids: IdsDocumentos;
  principal: number;
  tienda: number;
  articulos: ArticuloCompra[];
  /** Every ledger row written before (LEDGER_COLS: articulo_id 0, almacen_id 1, cantidad 4, fecha 10): the counts' teorico. */
  ledger: unknown[][];
};

/** The least stock (thousandths) the demo keeps of each article in each warehouse. */
const SEGURIDAD = 3000;

export type AlmacenGenerado = { docs: DocAlmacen[]; acciones: unknown[][]; ledger: unknown[][] };

/** The warehouse documents in memory (the PRNG, datos.ts, seeded by the caller); numbered by `numerar` afterwards. */
export function generarAlmacen(o: OpcionesAlmacen): AlmacenGenerado {
  const { ids, articulos } = o;
  const docs: DocAlmacen[] = [];
  const acciones: unknown[][] = [];
  const ledger: unknown[][] = [];
  const accion = (documento: number, verbo: string, fecha: string, antes: string, detalle: unknown) => {
    acciones.push([ids.accion, documento, verbo, `${fecha}T18:00:00.000Z`, o.admin, antes, detalle ? JSON.stringify(detalle) : null, null]);
    return ids.accion++;
  };
  const doc = (tipo: DocAlmacen['tipo'], fecha: string, almacen: number, destino: number | null, observaciones: string): DocAlmacen => {
    const d: DocAlmacen = { id: ids.doc++, tipo, fecha, estado: 'finalizado', almacen, destino, observaciones, lineas: [] };
    docs.push(d);
    return d;
  };
  const linea = (d: DocAlmacen, articulo: number, cantidad: number, extra: Partial<LineaAlmacen> = {}) => {
    const l: LineaAlmacen = { id: ids.linea++, articulo, cantidad, pendiente: 0, teorico: null, motivo: null, ...extra };
    d.lineas.push(l);
    return l;
  };
  const mover = (d: DocAlmacen, l: LineaAlmacen, almacen: number, cantidad: number, causa: string, accionId: number, fecha: string) => {
    ledger.push([articulos[l.articulo].id, almacen, null, null, cantidad, causa, d.tipo, d.id, l.id, accionId, fecha, articulos[l.articulo].precio_compra]);
  };
  /** Stock per article id in a warehouse from the rows dated up to `fecha` (what a count that day found in the books). */
  const stockHasta = (almacen: number, fecha: string) => {
    const stock = new Map<number, number>();
    for (const filas of [o.ledger, ledger]) {
      for (const m of filas) if (m[1] === almacen && String(m[10]) <= fecha) stock.set(m[0] as number, (stock.get(m[0] as number) ?? 0) + (m[4] as number));
    }
    return stock;
  };
  /** Per article id, the lowest running stock of a warehouse over the year in date order (0 at most), before any count. */
  const minimoAcumulado = (almacen: number) => {
    const filas = [...o.ledger, ...ledger].filter((m) => m[1] === almacen).sort((x, y) => (String(x[10]) < String(y[10]) ? -1 : String(x[10]) > String(y[10]) ? 1 : 0));
    const saldo = new Map<number, number>();
    const minimo = new Map<number, number>();
    for (const m of filas) {
      const a = m[0] as number;
      const s = (saldo.get(a) ?? 0) + (m[4] as number);
      saldo.set(a, s);
      if (s < (minimo.get(a) ?? 0)) minimo.set(a, s);
    }
    return minimo;
  };
  /** A finished count: teorico from the books, the differences into the ledger. */
  const recuento = (fecha: string, almacen: number, observaciones: string, contado: (teorico: number, articulo: number) => number, arts: number[]) => {
    const d = doc('inventario', fecha, almacen, null, observaciones);
    const stock = stockHasta(almacen, fecha);
    const filas = arts.map((a) => {
      const teorico = stock.get(articulos[a].id) ?? 0;
      return { a, teorico, q: Math.max(0, contado(teorico, a)) };
    });
    const acc = accion(d.id, 'finalizar', fecha, 'pendiente', { teorico: true });
    for (const { a, teorico, q } of filas) {
      const l = linea(d, a, q, { teorico });
      if (q !== teorico) mover(d, l, almacen, q - teorico, 'inventario', acc, fecha);
    }
  };

  // A transfer a month to the shop, received the next day; the last one still on its way.
  const ultimoDia = addDays(o.hoy, -1);
  for (let k = 0; k < 12; k++) {
    const fecha = k === 11 ? ultimoDia : o.dias[Math.min(o.dias.length - 1, 15 + k * 30 + int(10))];
    const d = doc('movimiento', fecha, o.principal, o.tienda, 'Reposición mensual de la tienda');
    for (const a of elegir(articulos.length, 6 + int(4))) linea(d, a, (10 + int(20)) * 1000);
    const enviar = accion(d.id, 'enviar', fecha, 'creado', { pendiente: d.lineas.map((l) => [l.id, l.cantidad]) });
    for (const l of d.lineas) mover(d, l, o.principal, -l.cantidad, 'traspaso', enviar, fecha);
    if (k === 11) {
      d.estado = 'enviado';
      for (const l of d.lineas) l.pendiente = l.cantidad;
      continue;
    }
    const llegada = addDays(fecha, 1);
    const recibir = accion(d.id, 'recibir', llegada, 'enviado', { pendiente: d.lineas.map((l) => [l.id, -l.cantidad]) });
    for (const l of d.lineas) mover(d, l, o.tienda, l.cantidad, 'traspaso', recibir, llegada);
    d.estado = 'recibido';
  }

  // Losses: breakage, expiry, a theft now and then.
  for (let k = 0; k < 6; k++) {
    const fecha = o.dias[Math.floor(((k + rand()) * o.dias.length) / 6)];
    const almacen = k % 2 === 0 ? o.principal : o.tienda;
    const d = doc('perdida', fecha, almacen, null, 'Mermas de la semana');
    const motivo = MOTIVOS_PERDIDA[int(MOTIVOS_PERDIDA.length)];
    for (const a of elegir(articulos.length, 1 + int(2))) linea(d, a, (1 + int(3)) * 1000, { motivo });
    const acc = accion(d.id, 'finalizar', fecha, 'pendiente', null);
    for (const l of d.lineas) mover(d, l, almacen, -l.cantidad, 'perdida', acc, fecha);
  }

  // The opening count (the year's first day): a stock that, with everything the year moved after it, never runs
  // below a few units (the shop sells what it has) and starts at least at a usual level.
  const [primero] = o.dias;
  const todos = articulos.map((_, i) => i);
  for (const [almacen, habitual] of [[o.principal, () => (15 + int(25)) * 1000], [o.tienda, () => (5 + int(10)) * 1000]] as const) {
    const minimo = minimoAcumulado(almacen);
    recuento(primero, almacen, 'Inventario de apertura', (teorico, a) => Math.max(teorico + SEGURIDAD - (minimo.get(articulos[a].id) ?? 0), habitual()), todos);
  }

  // A count of part of the shop after the summer: a unit missing here and there.
  const fecha = o.dias[Math.floor(o.dias.length * 0.75)];
  recuento(fecha, o.tienda, 'Recuento de la tienda', (teorico) => teorico - (rand() < 0.3 ? 1000 : 0), elegir(articulos.length, 10));
  return { docs, acciones, ledger };
}

/** Writes the warehouse documents (numbered) with their lines at the articles' cost, actions and ledger rows. */
export async function escribirAlmacen(r: Escritor, g: AlmacenGenerado, articulos: ArticuloCompra[], admin: number): Promise<void> {
  const docs = g.docs.map((d) => ({ ...d, lineas: d.lineas.map((l) => ({ ...l, precio: articulos[l.articulo].precio_compra, descuento: 0 })) }));
  const tercero = { id: 0, forma_pago: '', retencion: 0 };
  await escribirDocumentos(
    r,
    docs,
    articulos,
    (d, ls) =>
      filaDocumento(
        { id: d.id, tipo: d.tipo, numero: d.numero!, fecha: d.fecha, estado: d.estado, almacen: d.almacen, almacen_destino: d.destino, tercero, admin, observaciones: d.observaciones },
        null,
        ls,
      ),
    g,
  );
}
