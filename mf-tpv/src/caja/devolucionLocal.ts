import { guardarClave, leer } from '../datos/almacen';
import { almacenColaIdb, numeroTicket, type TicketLocal } from '../datos/cola';
import type { FormaPago } from '../venta/importes';
import { fechaTicket } from './registroFiscal';
import type { TerminalTpv, TicketServidor } from './tipos';

/**
 * The tickets a return can be made of without the server (issue 13): those sold by this till and still in its
 * storage, and those looked up earlier with the connection (kept as they were then). What was returned of each line is
 * what the till knows: the server's figure at the lookup plus the returns this till made offline since.
 */
export type LineaDevolucion = {
  /** The line's server id (a looked-up ticket) or its number on the ticket (one sold here: the server's ids unknown). */
  id?: number;
  orden?: number;
  articulo_id: number;
  descripcion: string;
  cantidad: number;
  precio: number;
  descuento: number;
  tipo_iva: TicketServidor['lineas'][number]['tipo_iva'];
  devuelto: number;
};

export type TicketDevolucion = {
  origen: 'servidor' | 'caja';
  ticket_id: number | null;
  ticket_uuid: string | null;
  numero: string;
  /** aaaa-mm-dd. */
  fecha: string;
  lineas: LineaDevolucion[];
  pagos: { forma: FormaPago; importe: number }[];
  /** Issue 23: a return without a ticket — the articles the customer brings back, chosen from the catalogue. */
  sinTicket?: boolean;
};

const normalizar = (numero: string) => numero.replace(/\s/g, '').toUpperCase();
const clave = (numero: string) => `visto:${normalizar(numero)}`;
type Visto = { ticket: TicketServidor; cuando: string };

/** dd-mm-aaaa → aaaa-mm-dd. */
const isoDe = (aeat: string) => `${aeat.slice(6, 10)}-${aeat.slice(3, 5)}-${aeat.slice(0, 2)}`;

/** A ticket read from the server: kept so it can be returned later without the connection. */
export async function guardarVisto(t: TicketServidor): Promise<void> {
  await guardarClave('estado', clave(t.numero), { ticket: t, cuando: new Date().toISOString() } satisfies Visto);
}

/** A ticket read from the server, as the return dialog shows it. */
export function deServidor(t: TicketServidor): TicketDevolucion {
  return {
    origen: 'servidor',
    ticket_id: t.id,
    ticket_uuid: t.uuid ?? null,
    // As its record names it (what an R5 made offline corrects): number and date.
    numero: t.registro?.num_serie ?? t.numero,
    fecha: t.registro?.fecha_expedicion ? isoDe(t.registro.fecha_expedicion) : (t.fecha ?? ''),
    lineas: t.lineas.map((l) => ({
      id: l.id, articulo_id: l.articulo_id, descripcion: l.descripcion, cantidad: l.cantidad, precio: l.precio_iva ?? l.precio, descuento: l.descuento, tipo_iva: l.tipo_iva,
      devuelto: l.devuelto ?? 0,
    })),
    pagos: t.pagos,
  };
}

/** The returns this till made offline of a ticket (refused ones excepted: they did not happen for the server). */
function devolucionesLocales(todos: TicketLocal[], t: Pick<TicketDevolucion, 'ticket_id' | 'ticket_uuid'>, desde?: string) {
  return todos.filter(
    (x) =>
      x.clase === 'devolucion' &&
      x.estado !== 'incidencia' &&
      ((t.ticket_uuid && x.devolucion?.ticket_uuid === t.ticket_uuid) || (t.ticket_id !== null && x.devolucion?.ticket_id === t.ticket_id)) &&
      (!desde || Date.parse(x.fecha_hora) >= Date.parse(desde)),
  );
}

/** The payments as handed over, each method's share of the total: the change comes out of the cash. */
function netoDeCambio(pagos: TicketLocal['pagos'], cambio: number): TicketDevolucion['pagos'] {
  let queda = cambio;
  return pagos.map((p) => {
    if (p.forma !== 'efectivo' || queda <= 0) return { ...p };
    const menos = Math.min(queda, p.importe);
    queda -= menos;
    return { ...p, importe: p.importe - menos };
  });
}

/** The ticket `numero` as this till knows it, or null (a return of it then needs the connection). */
export async function buscarLocal(numero: string, terminal: TerminalTpv): Promise<TicketDevolucion | null> {
  const n = normalizar(numero);
  if (!n) return null;
  const todos = await almacenColaIdb.todos();
  const visto = await leer<Visto>('estado', clave(numero));
  let t: TicketDevolucion | null = null;
  let desde: string | undefined;
  if (visto) {
    t = deServidor(visto.ticket);
    desde = visto.cuando;
  } else {
    // By its number as printed, or (issue 23) by its number's last digits: the newest of those sold here.
    const digitos = /^\d{1,9}$/.test(n) ? n : null;
    const coincide = (x: TicketLocal) => {
      const num = normalizar(numeroTicket(x) ?? '');
      return num !== '' && (digitos ? (/\/(\d+)$/.exec(num)?.[1] ?? '').endsWith(digitos) : num === n);
    };
    const propio = todos.filter((x) => !x.clase && coincide(x)).sort((a, b) => b.seq - a.seq)[0];
    if (!propio) return null;
    const fecha = propio.respuesta?.fecha_expedicion ? isoDe(propio.respuesta.fecha_expedicion) : propio.registro ? isoDe(propio.registro.fecha_expedicion) : fechaTicket(propio, terminal);
    t = {
      origen: 'caja',
      ticket_id: propio.respuesta?.id ?? null,
      ticket_uuid: propio.uuid,
      numero: numeroTicket(propio)!,
      fecha,
      lineas: propio.lineas.map((l, i) => ({
        orden: i + 1, articulo_id: l.articulo_id, descripcion: l.nombre, cantidad: l.cantidad, precio: l.precio, descuento: l.descuento, tipo_iva: l.tipo_iva, devuelto: 0,
      })),
      // What each method took of it (cash less the change), as the server keeps it: a refund «como se pagó» splits so.
      pagos: netoDeCambio(propio.pagos, propio.cambio),
    };
  }
  // What this till returned of it offline since (by the same line: id or number).
  for (const d of devolucionesLocales(todos, t, desde)) {
    for (const l of d.devolucion!.lineas) {
      const linea = t.lineas.find((x) => (l.id !== undefined && x.id === l.id) || (l.orden !== undefined && (x.orden ?? t.lineas.indexOf(x) + 1) === l.orden));
      if (linea) linea.devuelto += l.cantidad;
    }
  }
  return t;
}
