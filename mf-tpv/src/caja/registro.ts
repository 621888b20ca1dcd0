import type { Anterior } from 'shared/fiscal';
import { fechaAeat } from 'shared';
import { guardarClave, leer } from '../datos/almacen';
import type { FilaSubida, RegistroTicket, TicketLocal } from '../datos/cola';
import { fechaTicket, hacerRegistro } from './registroFiscal';
import type { TerminalTpv } from './tipos';

/** Where the terminal's chain and numbering stand, as far as this till knows. */
export type EstadoCadena = { ejercicio: number; numero: number; anterior: Anterior | null };

const CLAVE = 'cadena';

/** '… 2026/000012' → [2026, 12]. */
function leerNumero(numero: string): [number, number] | null {
  const m = /(\d{4})\/(\d+)\s*$/.exec(numero);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

const posterior = (a: EstadoCadena, b: EstadoCadena) => (a.ejercicio !== b.ejercicio ? a.ejercicio > b.ejercicio : a.numero > b.numero);

/** The server made a ticket's record (online): it is the terminal chain's last. */
export async function guardarCadenaDeFila(f: FilaSubida, t: TicketLocal, terminal: TerminalTpv): Promise<void> {
  const n = leerNumero(f.numero);
  if (!n || !f.fecha_hora_huso) return;
  const nuevo: EstadoCadena = {
    ejercicio: n[0],
    numero: n[1],
    anterior: { id_emisor: terminal.emisor.nif, num_serie: f.numero, fecha_expedicion: f.fecha_expedicion ?? fechaAeat(fechaTicket(t, terminal)), huella: f.huella, fecha_hora_huso: f.fecha_hora_huso },
  };
  const actual = await leer<EstadoCadena>('estado', CLAVE);
  if (!actual || !posterior(actual, nuevo)) await guardarClave('estado', CLAVE, nuevo);
}

/**
 * A doubtful ticket (sent online, its answer lost, then given a record by the till) turned out stored by the server
 * with the server's record (`repetido` with another huella): the server's is the ticket's record, and the records
 * the till made after it — never sent yet — are made again on that chain, with the same numbers (their QR, printed
 * already, names the same number, date and amount). Answers the tickets rewritten.
 */
export async function reconciliar(f: FilaSubida, t: TicketLocal, terminal: TerminalTpv, despues: TicketLocal[]): Promise<TicketLocal[]> {
  const n = leerNumero(f.numero);
  if (!n || !f.fecha_hora_huso) return [];
  const cabeza: EstadoCadena = {
    ejercicio: n[0],
    numero: n[1],
    anterior: { id_emisor: terminal.emisor.nif, num_serie: f.numero, fecha_expedicion: f.fecha_expedicion ?? fechaAeat(fechaTicket(t, terminal)), huella: f.huella, fecha_hora_huso: f.fecha_hora_huso },
  };
  await guardarClave('estado', CLAVE, cabeza);
  const rehechos: TicketLocal[] = [];
  for (const x of despues) {
    if (!x.registro) continue;
    const { registro, qr_url } = await crearRegistroOffline(terminal, x);
    rehechos.push({ ...x, registro, qr_url });
  }
  return rehechos;
}

/** The chain's end: what the terminal said when it was last read, or what this till made or saw since, the later. */
async function cadenaActual(terminal: TerminalTpv): Promise<EstadoCadena> {
  const c = terminal.cadena;
  const delServidor: EstadoCadena = {
    ejercicio: terminal.ultimo?.ejercicio ?? 0,
    numero: terminal.ultimo?.numero ?? 0,
    anterior: c ? { id_emisor: terminal.emisor.nif, num_serie: c.num_serie, fecha_expedicion: c.fecha_expedicion, huella: c.huella, fecha_hora_huso: c.fecha_hora_huso } : null,
  };
  const local = await leer<EstadoCadena>('estado', CLAVE);
  return local && posterior(local, delServidor) ? local : delServidor;
}

/**
 * The ticket's VERI*FACTU record made by the till itself (offline): the serie's next number, chained to the
 * terminal's last record, with the shared code the server verifies it with. Saved as the chain's new end.
 */
export async function crearRegistroOffline(terminal: TerminalTpv, t: TicketLocal): Promise<{ registro: RegistroTicket; qr_url: string }> {
  const cadena = await cadenaActual(terminal);
  const ejercicio = Number(fechaTicket(t, terminal).slice(0, 4));
  const numero = ejercicio === cadena.ejercicio ? cadena.numero + 1 : 1;
  const hecho = hacerRegistro(terminal, t, ejercicio, numero, cadena.anterior);
  const r = hecho.registro;
  const anterior: Anterior = { id_emisor: terminal.emisor.nif, num_serie: r.num_serie, fecha_expedicion: r.fecha_expedicion, huella: r.huella, fecha_hora_huso: r.fecha_hora_huso };
  await guardarClave('estado', CLAVE, { ejercicio, numero, anterior } satisfies EstadoCadena);
  return hecho;
}
