import { formatMoney, MESSAGES_TPV, reembolsoComoSePago, textoTpv } from 'shared/caja';
import type { TicketLocal } from '../../datos/cola';
import { totalesTicket } from '../../venta/importes';
import { crearRegistroDevolucion } from '../registro';
import { ahoraIso } from './comun';
import { asegurarRegistros } from './cobro';
import { colaDe } from './subida';
import type { Porcion } from './tipos';

/** Returns made without the server: the R5 made here, queued after everything before it. */
export const porcionDevolucion: Porcion<'devolverOffline'> = (set, get) => ({
  async devolverOffline(t, elegidas, id, elegidos) {
    const terminal = get().terminal!;
    if (!elegidas.length) throw new Error('Elija qué líneas y cuánto se devuelve.');
    for (const { linea, cantidad } of elegidas) {
      const queda = linea.cantidad - linea.devuelto;
      if (cantidad <= 0 || cantidad > queda) throw new Error(`De «${linea.descripcion}» quedan por devolver ${(queda / 1000).toLocaleString('es-ES', { maximumFractionDigits: 3 })}.`);
    }
    const q = colaDe(terminal, (c) => set({ cola: c }));
    const lineas = elegidas.map(({ linea: l, cantidad }) => ({
      ...(l.id !== undefined ? { id: l.id } : { orden: l.orden }), cantidad, nombre: l.descripcion, articulo_id: l.articulo_id, precio: l.precio, descuento: l.descuento,
      tipo_iva: l.tipo_iva,
    }));
    // The refund is what the R5 totals (the server's sums), by the methods the customer chose (issue 23), else «como se
    // pagó»: in the proportion each method took of the ticket.
    const reembolso = -totalesTicket(lineas.map((l) => ({ ...l, cantidad: -l.cantidad }))).total;
    const pagos = elegidos?.length ? elegidos : reembolsoComoSePago(t.pagos, reembolso);
    if (pagos.reduce((s, p) => s + p.importe, 0) !== reembolso) throw new Error(textoTpv(MESSAGES_TPV.devolucionPagos, { pagado: formatMoney(pagos.reduce((s, p) => s + p.importe, 0)), total: formatMoney(reembolso) }));
    const base: TicketLocal = {
      uuid: id, seq: await q.siguienteSeq(), terminal_id: terminal.id, fecha_hora: ahoraIso(), lineas: [], pagos: [], total: -reembolso, cambio: 0,
      cajero: get().sesion?.user.nombre, estado: 'pendiente', clase: 'devolucion',
      devolucion: { ticket_id: t.ticket_id, ticket_uuid: t.ticket_uuid, numero_ticket: t.numero, fecha_ticket: t.fecha, lineas, pagos, ...(t.sinTicket ? { sin_ticket: true } : {}) },
    };
    // Tickets still without a record go first in the chain (as before an offline sale).
    await asegurarRegistros(terminal);
    const entrada = { ...base, ...(await crearRegistroDevolucion(terminal, base)) };
    await q.añadir(entrada);
    await get().leerOperaciones();
    return entrada;
  },

});
