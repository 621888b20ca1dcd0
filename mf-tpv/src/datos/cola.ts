import type { EmisionTpv, TipoIva } from 'shared';
import type { Pago } from '../venta/importes';
import { guardar, leerTodo } from './almacen';

/** The record a till made offline (shared/fiscal's `registroTicket`): sent unaltered in `registro`. */
export type RegistroTicket = {
  num_serie: string;
  fecha_expedicion: string;
  /** F2 a ticket, R5 a return. */
  tipo_factura: 'F2' | 'R5';
  cuota_total: string;
  importe_total: string;
  huella_anterior: string;
  fecha_hora_huso: string;
  huella: string;
  xml: string;
  /**
   * Issue 22: what the till made it for (its terminal's `entorno`, `demo`, `verifactu` then): its paper's QR host and
   * legend, and what the server is told on upload.
   */
  entorno?: 'produccion' | 'pruebas';
  demo?: 0 | 1;
  verifactu?: 0 | 1;
};

/** What `subirtickets` answers for each ticket. */
export type FilaSubida = {
  uuid: string;
  id: number;
  numero: string;
  total: number;
  cambio?: number;
  huella: string;
  xml?: string;
  qr_url: string;
  fecha_hora_huso?: string;
  /** dd-mm-aaaa: the record's date. */
  fecha_expedicion?: string;
  /** Issue 22: what its record was made for, as the server stored it: every reprint's QR host and legend. */
  emision?: EmisionTpv;
  offline?: number;
  repetido?: number;
  /** Issue 23: the vales that paid it and the balance each has left, as stored. */
  vales?: { codigo: string; importe: number; saldo: number }[];
  /** An operation (not a ticket) the server refused: the message; the entry is kept as an incidence. */
  incidencia?: string;
  /** A closing uploaded: its code (the Z is in the back office, Ventas › Cierres TPV), and the closing itself when made online. */
  codigo?: number | null;
  cierre?: unknown;
};

/** An operation queued by the till (a movement, a closing), not a ticket. */
export const esOperacion = (t: TicketLocal) => t.clase !== undefined;

/** A line as the ticket prints it (and as `subirtickets` needs the first four). */
export type LineaTicket = {
  articulo_id: number;
  cantidad: number;
  precio: number;
  descuento: number;
  codigo: string;
  nombre: string;
  tipo_iva: TipoIva;
};

/** A paid ticket in the browser: written before it is uploaded, kept after (the day's tickets, reprints). */
export type TicketLocal = {
  uuid: string;
  /** The order it was issued in at this till: the queue uploads by it. */
  seq: number;
  terminal_id: number;
  /** ISO with offset. */
  fecha_hora: string;
  lineas: LineaTicket[];
  pagos: Pago[];
  total: number;
  cambio: number;
  cajero?: string;
  /** Issue 23: the id of the cashier signed in when it was sold (an offline ticket is counted under them in the Z). */
  cajero_id?: number;
  /**
   * What the entry is: a ticket (absent), or an operation the till made without the server and queued in the same
   * order as the tickets (issue 13): a cash movement or the session's closing (the counted drawer). An operation
   * uploads alone, after everything issued before it; its own action answers it (idempotent: by `uuid`, by caja).
   */
  clase?: 'movimiento' | 'cierre' | 'devolucion' | 'apertura';
  /** An opening made offline (the float counted): `abrircajatpv` when the server is back, before what follows it. */
  apertura?: { fondo: number };
  /** A cash movement: + in, − out (cents); the caja (session) it was made in. */
  movimiento?: { importe: number; motivo: string; caja_id: number | null };
  /** A closing prepared offline: the caja it closes and what was counted (cash by denomination). */
  cierre?: { caja_id: number | null; contado: { forma: string; importe: number }[]; denominaciones: { valor: number; cantidad: number }[] };
  /**
   * A return made offline (an R5 with its record, in `registro`, made by the till like an offline ticket's): the
   * ticket by its server id (looked up earlier) or its uuid (sold here), its lines by id or by number on the ticket,
   * the refunds (by the ticket's method).
   */
  devolucion?: {
    ticket_id: number | null;
    ticket_uuid: string | null;
    /** The ticket's number as printed (what the R5 corrects) and its date (aaaa-mm-dd). */
    numero_ticket: string;
    fecha_ticket: string;
    lineas: { id?: number; orden?: number; cantidad: number; nombre: string; articulo_id: number; precio: number; descuento: number; tipo_iva: TipoIva }[];
    pagos: Pago[];
    /** Issue 23: a return without a ticket (right «devolver_sin_ticket»): its R5 names no invoice; uploaded by `devolversinticket`. */
    sin_ticket?: boolean;
  };
  /** The server refused the operation on upload: its message. Kept (never lost) until someone resolves it. */
  incidencia?: string;
  /** Offline only: the record the till made when it issued it. */
  registro?: RegistroTicket;
  /** Offline only: the QR of that record. */
  qr_url?: string;
  /**
   * It went to the server once without a record and no answer came (the server may have stored it): it is
   * uploaded alone, so a `repetido` answer with the server's record can be reconciled before anything after it.
   */
  dudoso?: boolean;
  /**
   * `resuelta`: an incidence someone dealt with (kept, never deleted: when, and by whom). `rechazado`: a ticket sent
   * online, without a record, that the server refused (issue 23): never issued nor printed — the cashier was told why.
   */
  estado: 'pendiente' | 'subido' | 'incidencia' | 'resuelta' | 'rechazado';
  resuelta?: { fecha: string; por: string | null };
  respuesta?: FilaSubida;
};

/** What the ticket prints as its number and QR: the server's, else the offline record's. */
export function numeroTicket(t: TicketLocal): string | null {
  return t.respuesta?.numero ?? t.registro?.num_serie ?? null;
}

export type AlmacenCola = {
  guardar(t: TicketLocal): Promise<void>;
  todos(): Promise<TicketLocal[]>;
};

/** The queue's storage in IndexedDB. */
export const almacenColaIdb: AlmacenCola = {
  guardar: (t) => guardar('tickets', [t]),
  todos: () => leerTodo<TicketLocal>('tickets'),
};

/**
 * An upload: the server's rows, or an Error — no network (the queue waits and retries), or a refusal of what was sent
 * (`rechazo: true`, see `Rechazo`): the queue finds the entry refused and sets it aside (issue 23).
 */
export type Enviar = (tickets: TicketLocal[]) => Promise<FilaSubida[]>;

/** The server refused what was sent (not a transport failure): its message is the reason. */
export class Rechazo extends Error {
  readonly rechazo = true;
}
const esRechazo = (e: unknown) => !!(e as { rechazo?: boolean } | null)?.rechazo;

export type EstadoCola = { pendientes: number; enviando: boolean; error: string | null; ultimoIntento: number | null };

/**
 * The upload queue. `añadir` resolves only once the ticket is stored; uploads go strictly in issue order
 * (`seq`), a batch at a time; a failure to reach the server stops the queue where it is (nothing later overtakes it)
 * until the next attempt: when the browser says it is online again, on a timer, or when asked. Uploading the same uuid
 * twice is harmless: the server answers the same row (`repetido`), and the row replaces the pending state.
 *
 * A queue that never jams (issue 23): when the server refuses a batch, the queue sends its entries one by one to find
 * the one refused; that one waits aside — an incidence, kept with the server's reason, never deleted nor rewritten
 * (what the till printed stays as printed) — or, a ticket sent online without a record (never printed), `rechazado`;
 * everything behind it goes on uploading.
 */
export class ColaTickets {
  private corriendo: Promise<void> | null = null;
  private oyentes = new Set<(e: EstadoCola) => void>();
  private estado: EstadoCola = { pendientes: 0, enviando: false, error: null, ultimoIntento: null };
  private ultimoSeq = 0;

  constructor(
    private almacen: AlmacenCola,
    private enviar: Enviar,
    /**
     * `sinImprimir`: an entry the cashier is still waiting for (sent online with the till's record, not printed yet;
     * docs/tpv.md «The doubtful ticket»): refused, it was never issued — `rechazado`, without its record.
     */
    private opciones: { lote?: number; sinImprimir?: (t: TicketLocal) => boolean } = {},
  ) {}

  /** The next issue order: increasing, even across reloads (time-based, never below the last one used). */
  async siguienteSeq(): Promise<number> {
    if (!this.ultimoSeq) this.ultimoSeq = (await this.almacen.todos()).reduce((m, t) => Math.max(m, t.seq), 0);
    this.ultimoSeq = Math.max(Date.now(), this.ultimoSeq + 1);
    return this.ultimoSeq;
  }

  suscribir(fn: (e: EstadoCola) => void): () => void {
    this.oyentes.add(fn);
    fn(this.estado);
    return () => this.oyentes.delete(fn);
  }

  private cambiar(p: Partial<EstadoCola>) {
    this.estado = { ...this.estado, ...p };
    for (const fn of this.oyentes) fn(this.estado);
  }

  async pendientes(): Promise<TicketLocal[]> {
    return (await this.almacen.todos()).filter((t) => t.estado === 'pendiente').sort((a, b) => a.seq - b.seq);
  }

  /** Stores a paid ticket (resolved: it survives a reload), then starts uploading. */
  async añadir(t: TicketLocal): Promise<void> {
    await this.almacen.guardar(t);
    this.cambiar({ pendientes: this.estado.pendientes + 1 });
    void this.vaciar();
  }

  /** Uploads what is pending, in order; one run at a time (a call during a run waits for it). */
  vaciar(): Promise<void> {
    if (this.corriendo) return this.corriendo;
    this.corriendo = this.correr().finally(() => {
      this.corriendo = null;
    });
    return this.corriendo;
  }

  private async correr() {
    let lote = this.opciones.lote ?? 50;
    let pend = await this.pendientes();
    this.cambiar({ pendientes: pend.length, enviando: pend.length > 0 });
    while (pend.length) {
      // A doubtful ticket travels alone; a batch stops before the next one.
      // So does an operation (a movement, a closing): it uploads after every ticket before it, by its own action.
      const solo = (t: TicketLocal) => !!t.dudoso || esOperacion(t);
      let fin = 1;
      if (!solo(pend[0])) while (fin < Math.min(lote, pend.length) && !solo(pend[fin])) fin++;
      const parte = pend.slice(0, fin);
      this.cambiar({ ultimoIntento: Date.now() });
      let filas: FilaSubida[];
      try {
        filas = await this.enviar(parte);
      } catch (e) {
        const motivo = (e as Error).message || 'Sin conexión con el servidor';
        if (!esRechazo(e)) {
          this.cambiar({ enviando: false, error: motivo });
          return;
        }
        // Refused: one by one from here to find which; that one waits aside, what follows goes on.
        if (parte.length > 1) {
          lote = 1;
          continue;
        }
        const t = parte[0];
        const emitido = esOperacion(t) || (!!t.registro && !this.opciones.sinImprimir?.(t));
        if (emitido) await this.almacen.guardar({ ...t, estado: 'incidencia', incidencia: motivo });
        else {
          const { registro: _r, qr_url: _q, ...nunca } = t;
          await this.almacen.guardar({ ...nunca, estado: 'rechazado', incidencia: motivo });
        }
        pend = await this.pendientes();
        this.cambiar({ pendientes: pend.length, error: null });
        continue;
      }
      const porUuid = new Map(filas.map((f) => [f.uuid, f]));
      let hechos = 0;
      for (const t of parte) {
        const fila = porUuid.get(t.uuid);
        if (!fila) break;
        // A refused operation stays stored as an incidence to resolve; what follows it goes on.
        // A ticket's row with an incidence (the server registered it by itself): its answer kept for reprints.
        if (fila.incidencia) await this.almacen.guardar({ ...t, estado: 'incidencia', incidencia: fila.incidencia, ...(fila.huella ? { respuesta: fila } : {}) });
        else await this.almacen.guardar({ ...t, estado: 'subido', respuesta: fila });
        hechos++;
      }
      if (hechos < parte.length) {
        this.cambiar({ enviando: false, error: 'El servidor no ha confirmado todos los tickets: se reintentará.' });
        return;
      }
      // What is pending now (an opening uploaded names its caja in what follows it): read the rest again.
      pend = await this.pendientes();
      this.cambiar({ pendientes: pend.length, error: null });
    }
    this.cambiar({ pendientes: 0, enviando: false, error: null });
  }

  /** Retries on `online` and every `intervalo` ms; returns the stop function. */
  iniciar(intervalo = 10_000): () => void {
    const alVolver = () => void this.vaciar();
    window.addEventListener('online', alVolver);
    const timer = window.setInterval(alVolver, intervalo);
    void this.vaciar();
    return () => {
      window.removeEventListener('online', alVolver);
      window.clearInterval(timer);
    };
  }
}
