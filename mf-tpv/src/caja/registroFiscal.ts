import { presentacionQr } from 'shared/caja';
import { fechaHoraHuso, registroTicket, registroTpvDe, type Anterior } from 'shared/fiscal';
import type { RegistroTicket, TicketLocal } from '../datos/cola';
import { totalesTicket } from '../venta/importes';
import type { TerminalTpv } from './tipos';

const ZONA = 'Europe/Madrid';

/** The ticket's date in the business's time zone (aaaa-mm-dd): its FechaExpedicionFactura. */
export function fechaTicket(t: Pick<TicketLocal, 'fecha_hora'>, terminal: Pick<TerminalTpv, 'zona_horaria'>): string {
  return fechaHoraHuso(new Date(t.fecha_hora), terminal.zona_horaria || ZONA).slice(0, 10);
}

/**
 * The record with the shared code the server verifies it with (shared/fiscal `registroTicket`): the terminal's
 * installation and chain, the serie's number, the totals of the lines as the till showed them.
 */
export function hacerRegistro(
  terminal: TerminalTpv,
  t: TicketLocal,
  ejercicio: number,
  numero: number,
  anterior: Anterior | null,
): { registro: RegistroTicket; qr_url: string } {
  const tot = totalesTicket(t.lineas);
  const r = registroTicket({
    emisor: terminal.emisor,
    instalacion: terminal.numero_instalacion,
    sistema: terminal.sistema ?? { nombre: 'Manager TPV', id: 'MT', version: '0.1.0' },
    serieCodigo: terminal.serie.codigo,
    ejercicio,
    numero,
    fecha: fechaTicket(t, terminal),
    totales: {
      base: tot.base,
      iva: tot.cuota,
      recargo: 0,
      total: tot.total,
      desglose: tot.desglose.map((d) => ({ tipo_iva: d.tipo_iva, base: d.base, iva: d.cuota, recargo: 0 })),
    },
    anterior,
    impuesto: terminal.impuesto,
    // Stamped with the sale's instant: the record is made when the ticket is issued (and its date is the ticket's).
    ts: fechaHoraHuso(new Date(t.fecha_hora), terminal.zona_horaria || ZONA),
    // Issue 22: the QR's host is what the terminal says its records are made for (never production unless it says so).
    entorno: presentacionQr(terminal).entorno,
  });
  return { registro: { ...registroTpvDe(r), ...emisionDelTerminal(terminal) }, qr_url: r.qr_url };
}

/**
 * What the terminal says its records are made for (terminaltpv, issue 22), stored with each record the till makes:
 * its print and every reprint use it, and the server is told it on upload. A terminal that says nothing stores nothing
 * (printed as a test, never production).
 */
export function emisionDelTerminal(terminal: Pick<TerminalTpv, 'entorno' | 'demo' | 'verifactu'>): Pick<RegistroTicket, 'entorno' | 'demo' | 'verifactu'> {
  if (!terminal.entorno) return {};
  return { entorno: terminal.entorno, demo: terminal.demo === 1 ? 1 : 0, verifactu: terminal.verifactu === 1 ? 1 : 0 };
}
