import { fechaHoraHuso, registroDevolucion, registroTpvDeDevolucion, type Anterior } from 'shared/fiscal';
import { fechaAeat, MESSAGES_TPV, presentacionQr, textoTpv } from 'shared/caja';
import { borrar, guardarClave, leer } from '../datos/almacen';
import type { FilaSubida, RegistroTicket, TicketLocal } from '../datos/cola';
import { totalesTicket } from '../venta/importes';
import { emisionDelTerminal, fechaTicket, hacerRegistro } from './registroFiscal';
import type { TerminalTpv } from './tipos';

/**
 * Where the terminal's chain and numbering stand, as far as this till knows; `inicio`: the company's start it belongs
 * to (the terminal's `inicio`, issue 22): what the till kept from before «Empezar con mis datos» is no longer its chain.
 */
export type EstadoCadena = { ejercicio: number; numero: number; anterior: Anterior | null; inicio?: string | null };

const CLAVE = 'cadena';

/** What this till kept, if it belongs to the terminal's current start (else nothing: the chain and numbering start again). */
function deEsteInicio<T extends { inicio?: string | null }>(terminal: TerminalTpv, guardado: T | undefined): T | undefined {
  return guardado && (guardado.inicio ?? null) === (terminal.inicio ?? null) ? guardado : undefined;
}

/** Saves the chain's end, marked with the terminal's current start. */
const guardarCadena = (terminal: TerminalTpv, e: EstadoCadena) => guardarClave('estado', CLAVE, { ...e, inicio: terminal.inicio ?? null } satisfies EstadoCadena);

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
  const actual = deEsteInicio(terminal, await leer<EstadoCadena>('estado', CLAVE));
  if (!actual || !posterior(actual, nuevo)) await guardarCadena(terminal, nuevo);
}

/**
 * Where the till's chain stands now, to put it back (docs/tpv.md «The doubtful ticket»): a record the till made for a
 * sale sent online that the server refused was never printed nor issued — the chain's end goes back to before it, so
 * the next record takes its number and its place. Only for that: a record once printed is never undone.
 */
export async function instantaneaCadena(): Promise<() => Promise<void>> {
  const antes = await leer<EstadoCadena>('estado', CLAVE);
  return () => (antes ? guardarClave('estado', CLAVE, antes) : borrar('estado', CLAVE));
}

/** The chain's end this till kept is forgotten: the next record follows what the server said (`terminaltpv`). */
export const olvidarCadena = () => borrar('estado', CLAVE);

/**
 * The chain's end: what the terminal said when it was last read, or what this till made or saw since, the later (on
 * the same ticket number, this till's: it may have chained a return's R5 after that ticket).
 */
async function cadenaActual(terminal: TerminalTpv): Promise<EstadoCadena> {
  const c = terminal.cadena;
  const delServidor: EstadoCadena = {
    ejercicio: terminal.ultimo?.ejercicio ?? 0,
    numero: terminal.ultimo?.numero ?? 0,
    anterior: c ? { id_emisor: terminal.emisor.nif, num_serie: c.num_serie, fecha_expedicion: c.fecha_expedicion, huella: c.huella, fecha_hora_huso: c.fecha_hora_huso } : null,
  };
  const local = deEsteInicio(terminal, await leer<EstadoCadena>('estado', CLAVE));
  return local && !posterior(delServidor, local) ? local : delServidor;
}

/** The till's clock went back: no record is made before the chain's last one (issue 23). */
export class RelojAtrasado extends Error {}

/**
 * A record is never stamped before the previous one of its chain, nor frozen at its time: with a clock that went back
 * the till refuses to issue offline and says so (the cashier sets the clock right and charges again).
 */
function comprobarReloj(terminal: TerminalTpv, t: Pick<TicketLocal, 'fecha_hora'>, anterior: Anterior | null, enLinea = false) {
  if (!anterior) return;
  const zona = terminal.zona_horaria || 'Europe/Madrid';
  const ts = fechaHoraHuso(new Date(t.fecha_hora), zona);
  if (Date.parse(ts) >= Date.parse(anterior.fecha_hora_huso)) return;
  const legible = (v: string) => new Date(v).toLocaleString('es-ES', { timeZone: zona, dateStyle: 'short', timeStyle: 'medium' });
  throw new RelojAtrasado(textoTpv(enLinea ? MESSAGES_TPV.relojAtrasadoEnLinea : MESSAGES_TPV.relojAtrasado, { ahora: legible(ts), anterior: legible(anterior.fecha_hora_huso) }));
}

/**
 * The ticket's VERI*FACTU record made by the till itself — offline, and online too before the ticket is sent
 * (`enLinea`; docs/tpv.md «The doubtful ticket»): the serie's next number, chained to the terminal's last record, with
 * the shared code the server verifies it with. Saved as the chain's new end.
 */
export async function crearRegistroOffline(terminal: TerminalTpv, t: TicketLocal, enLinea = false): Promise<{ registro: RegistroTicket; qr_url: string }> {
  const cadena = await cadenaActual(terminal);
  comprobarReloj(terminal, t, cadena.anterior, enLinea);
  const ejercicio = Number(fechaTicket(t, terminal).slice(0, 4));
  const numero = ejercicio === cadena.ejercicio ? cadena.numero + 1 : 1;
  const hecho = hacerRegistro(terminal, t, ejercicio, numero, cadena.anterior);
  const r = hecho.registro;
  const anterior: Anterior = { id_emisor: terminal.emisor.nif, num_serie: r.num_serie, fecha_expedicion: r.fecha_expedicion, huella: r.huella, fecha_hora_huso: r.fecha_hora_huso };
  await guardarCadena(terminal, { ejercicio, numero, anterior });
  return hecho;
}

// Returns made offline (issue 13) --------------------------------------------------------------------------------

/** The rectificativa serie's numbering as this till knows it (its own key: the chain's is shared with the tickets). */
const CLAVE_R = 'cadenaR';
type NumeracionR = { ejercicio: number; numero: number; inicio?: string | null };

async function numeracionR(terminal: TerminalTpv): Promise<NumeracionR> {
  const delServidor = terminal.ultimo_rectificativa ?? { ejercicio: 0, numero: 0 };
  const local = deEsteInicio(terminal, await leer<NumeracionR>('estado', CLAVE_R));
  return local && !posterior({ ...delServidor, anterior: null }, { ...local, anterior: null }) ? local : delServidor;
}

/** An R5 made by the server (online): its number is the serie's last as far as this till knows. */
export async function guardarNumeroR(numero: string, terminal: TerminalTpv): Promise<void> {
  const n = leerNumero(numero);
  if (!n) return;
  const actual = deEsteInicio(terminal, await leer<NumeracionR>('estado', CLAVE_R));
  if (!actual || actual.ejercicio < n[0] || (actual.ejercicio === n[0] && actual.numero < n[1])) {
    await guardarClave('estado', CLAVE_R, { ejercicio: n[0], numero: n[1], inicio: terminal.inicio ?? null } satisfies NumeracionR);
  }
}

const anteriorDe = (terminal: TerminalTpv, r: RegistroTicket): Anterior => ({
  id_emisor: terminal.emisor.nif, num_serie: r.num_serie, fecha_expedicion: r.fecha_expedicion, huella: r.huella, fecha_hora_huso: r.fecha_hora_huso,
});

/**
 * A return's R5 record made by the till (offline), as an offline ticket's F2 is: the terminal's rectificativa serie's
 * next number, chained to the terminal's last record, with the
 * shared code the server verifies it with; the chain's end (and the serie's number) saved.
 */
export async function crearRegistroDevolucion(terminal: TerminalTpv, d: TicketLocal): Promise<{ registro: RegistroTicket; qr_url: string }> {
  const dev = d.devolucion!;
  const cadena = await cadenaActual(terminal);
  comprobarReloj(terminal, d, cadena.anterior);
  const fecha = fechaTicket(d, terminal);
  const ejercicio = Number(fecha.slice(0, 4));
  const nr = await numeracionR(terminal);
  const n = ejercicio === nr.ejercicio ? nr.numero + 1 : 1;
  const tot = totalesTicket(dev.lineas.map((l) => ({ cantidad: -l.cantidad, precio: l.precio, descuento: l.descuento, tipo_iva: l.tipo_iva })));
  const tk = totalesTicket(dev.lineas.map((l) => ({ cantidad: l.cantidad, precio: l.precio, descuento: l.descuento, tipo_iva: l.tipo_iva })));
  const r = registroDevolucion({
    emisor: terminal.emisor,
    instalacion: terminal.numero_instalacion,
    sistema: terminal.sistema ?? { nombre: 'Manager TPV', id: 'MT', version: '0.1.0' },
    serieCodigo: terminal.serie_rectificativa.codigo,
    ejercicio,
    numero: n,
    fecha,
    totales: { base: tot.base, iva: tot.cuota, recargo: 0, total: tot.total, desglose: tot.desglose.map((x) => ({ tipo_iva: x.tipo_iva, base: x.base, iva: x.cuota, recargo: 0 })) },
    anterior: cadena.anterior,
    ts: fechaHoraHuso(new Date(d.fecha_hora), terminal.zona_horaria || 'Europe/Madrid'),
    entorno: presentacionQr(terminal).entorno,
    impuesto: terminal.impuesto,
    // Issue 23: a return without a ticket names no invoice it corrects.
    rectificado: dev.sin_ticket ? null : { numSerie: dev.numero_ticket, fecha: dev.fecha_ticket, base: tk.base, cuota: tk.cuota },
  });
  const registro = { ...(registroTpvDeDevolucion(r) as RegistroTicket), ...emisionDelTerminal(terminal) };
  await guardarCadena(terminal, { ...cadena, anterior: anteriorDe(terminal, registro) });
  await guardarClave('estado', CLAVE_R, { ejercicio, numero: n, inicio: terminal.inicio ?? null } satisfies NumeracionR);
  return { registro, qr_url: r.qr_url };
}
