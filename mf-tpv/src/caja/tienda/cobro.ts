import { formatMoney, LIMITE_SIMPLIFICADA, MESSAGES_TPV, textoTpv } from 'shared/caja';
import { guardarClave, leer } from '../../datos/almacen';
import { almacenColaIdb, esOperacion, type TicketLocal } from '../../datos/cola';
import { estadoCobro, totalesTicket } from '../../venta/importes';
import { crearRegistroOffline, instantaneaCadena, olvidarCadena } from '../registro';
import * as srv from '../servidor';
import type { TerminalTpv } from '../tipos';
import { ahoraIso, tienda } from './comun';
import { colaDe, enLinea } from './subida';
import { nuevoUuidDelTicket, uuidDelTicket } from './ticket';
import type { Porcion } from './tipos';

/** The most a ticket may total (a simplified invoice), as the server said; 400 € if it never did. */
export const limiteTicket = (terminal: TerminalTpv | null) => terminal?.limite_simplificada ?? LIMITE_SIMPLIFICADA;

/** Why a sale of `total` may not be charged as a ticket (over the simplified invoice's limit), or null. */
export function superaLimite(terminal: TerminalTpv | null, total: number, online = true): string | null {
  const limite = limiteTicket(terminal);
  const texto = online ? MESSAGES_TPV.ticketSuperaLimite : MESSAGES_TPV.ticketSuperaLimiteSinConexion;
  return total > limite ? textoTpv(texto, { total: formatMoney(total), limite: formatMoney(limite) }) : null;
}

/** Payment: the ticket on screen charged — uploaded online with its record, or issued offline — and its printout. */
export const porcionCobro: Porcion<'ultimo' | 'cobrar'> = (set, get) => ({
  ultimo: null,

  async cobrar(pagos) {
    const { lineas, terminal, sesion } = get();
    if (!terminal || !lineas.length) throw new Error('No hay nada que cobrar');
    const { total } = totalesTicket(lineas);
    // Over the simplified invoice's limit it is never charged as a ticket (issue 23): the way out is a full invoice.
    const limite = superaLimite(terminal, total);
    if (limite) throw new Error(limite);
    const cobro = estadoCobro(total, pagos);
    if (!cobro.completo) throw new Error(cobro.error ?? 'Falta por cobrar');
    const q = colaDe(terminal, (c) => set({ cola: c }));
    // A uuid already in the queue was paid, for other lines (another tab, a page that died after paying): this sale
    // is another ticket and gets its own, never the answer or the record of that one.
    if (await leer('tickets', uuidDelTicket()).catch(() => undefined)) nuevoUuidDelTicket();
    const base: TicketLocal = {
      uuid: uuidDelTicket(),
      seq: await q.siguienteSeq(),
      terminal_id: terminal.id,
      fecha_hora: ahoraIso(),
      lineas: lineas.map(({ key: _k, ...l }) => l),
      // What each method took, cash as handed over (the server answers the change).
      pagos: pagos.filter((p) => p.importe > 0),
      total,
      cambio: cobro.cambio,
      cajero: sesion?.user.nombre,
      cajero_id: sesion?.user.id,
      estado: 'pendiente',
    };
    let ticket = base;
    const hayCola = (await q.pendientes()).length > 0;
    if (hayCola || !navigator.onLine) {
      // A store credit is checked and spent by the server (issue 23): never taken offline.
      if (pagos.some((p) => p.forma === 'vale')) throw new Error(MESSAGES_TPV.valeSinConexion);
      // Offline (or behind tickets still waiting): the till is its own installation and makes the record now.
      await asegurarRegistros(terminal);
      ticket = { ...base, ...(await registroOffline(terminal, base)) };
      await q.añadir(ticket);
    } else {
      // Online (docs/tpv.md «The doubtful ticket»): the till makes the record before sending, the server verifies and
      // stores that very record. An answer lost changes nothing: the till already holds the record the server may
      // have, so it never makes a second one for the same sale, and what it chains after it is never redone.
      const deshacer = await instantaneaCadena();
      ticket = { ...base, ...(await registroOffline(terminal, base, true)) };
      enLinea.add(ticket.uuid);
      try {
        // Stored first: a crash from here on loses nothing.
        await q.añadir(ticket);
        await q.vaciar();
      } finally {
        enLinea.delete(ticket.uuid);
      }
      const guardado = (await almacenColaIdb.todos()).find((t) => t.uuid === ticket.uuid)!;
      if (guardado.estado === 'subido') ticket = guardado;
      else if (guardado.estado === 'rechazado') {
        // Refused (issue 23): not issued, nothing printed; the sale stays on screen, the cashier reads why. Its record
        // was never issued: the chain goes back to before it (the next ticket takes its number). Its uuid is spent:
        // the next payment of these lines takes a new one.
        await deshacer();
        // A record the server did not take as the chain's next (this till's idea of the chain was stale: a backup
        // restored…): with nothing queued the server's chain is the truth, read again for the next sale.
        if (/registro/.test(guardado.incidencia ?? '')) await cadenaDelServidor(terminal);
        nuevoUuidDelTicket();
        throw new Error(guardado.incidencia ?? 'El servidor ha rechazado el ticket.');
      } else {
        // Sent without an answer: the server may have it, with this very record. Printed now; uploaded as it is.
        ticket = guardado;
      }
    }
    nuevoUuidDelTicket();
    set({ lineas: [], seleccion: null, ultimo: ticket });
    return ticket;
  },

});

/**
 * Tickets still waiting without a record (the page closed while the first upload was under way) get theirs
 * before a new offline one chains after them: the terminal's chain has no holes.
 */
export async function asegurarRegistros(terminal: TerminalTpv) {
  const pend = (await almacenColaIdb.todos()).filter((t) => t.estado === 'pendiente' && !t.registro && !esOperacion(t)).sort((a, b) => a.seq - b.seq);
  for (const t of pend) await almacenColaIdb.guardar({ ...t, ...(await registroOffline(terminal, t)), dudoso: true });
}

async function registroOffline(terminal: TerminalTpv, t: TicketLocal, enLinea = false) {
  const { registro, qr_url } = await crearRegistroOffline(terminal, t, enLinea);
  return { registro, qr_url };
}

/** Forgets the chain's end this till kept and reads the terminal's (its last number and huella) from the server. */
async function cadenaDelServidor(terminal: TerminalTpv) {
  await olvidarCadena();
  const t = await srv.leerTerminal().catch(() => null);
  if (t && t.id === terminal.id) {
    tienda().setState({ terminal: t });
    await guardarClave('estado', 'terminal', t);
  }
}
