import type { IndiceCatalogo, ArticuloTpv, Lectura } from '../../datos/catalogo';
import type { EstadoCola, FilaSubida, LineaTicket, TicketLocal } from '../../datos/cola';
import type { Pago } from '../../venta/importes';
import type { LineaDevolucion, TicketDevolucion } from '../devolucionLocal';
import type { PaginaTpv, Sesion, TerminalTpv } from '../tipos';

/**
 * The till's client state (issue 27): one zustand store, `useCaja` (`../estado.ts`), made of slices by concern —
 * pairing and session (`sesion.ts`), the catalogue (`catalogo.ts`), the ticket in progress and parking (`ticket.ts`),
 * payment (`cobro.ts`), the upload queue (`subida.ts`), offline cash movements, openings and closings
 * (`operaciones.ts`) and returns (`devolucion.ts`). The state and the actions are typed here, once.
 */

export type Fase = 'cargando' | 'emparejar' | 'cajero' | 'apertura' | 'venta';

/** A line on the ticket being sold. */
export type LineaVenta = LineaTicket & { key: string };

export type Aparcado = { id: string; fecha: string; lineas: LineaVenta[]; total: number };

export type Estado = {
  fase: Fase;
  terminal: TerminalTpv | null;
  sesion: Sesion | null;
  indice: IndiceCatalogo;
  catalogoCargado: boolean;
  /** The catalogue and the buttons are in IndexedDB (a reload offline sells with them). */
  catalogoEnDisco: boolean;
  paginas: PaginaTpv[];
  lineas: LineaVenta[];
  seleccion: number | null;
  online: boolean;
  cola: EstadoCola;
  aparcados: Aparcado[];
  error: string | null;
  /** The ticket just sold (its printout). */
  ultimo: TicketLocal | null;
  /** Movements and closings made offline still to upload, and anything the server refused (incidences), in order. */
  operaciones: TicketLocal[];
  /** Issue 23: locked after the terminal's idle time: a PIN opens it again (kept across a reload). */
  bloqueada: boolean;
};

/** A cash movement or a closing, as the till answers it: done on the server, or queued to upload (offline). */
export type Anotado = { enCola: boolean; fila?: FilaSubida };

export type Acciones = {
  set(p: Partial<Estado>): void;
  arrancar(): Promise<void>;
  emparejado(t: TerminalTpv): Promise<void>;
  entrar(s: Sesion): Promise<void>;
  cajaAbierta(caja?: { id: number; apertura: string; fondo: number }): void;
  /** A cash movement (+ in, − out): online at once; without the server (or behind the queue) queued in order. */
  anotarMovimiento(importe: number, motivo: string, uuid: string): Promise<Anotado>;
  /** The closing: online when nothing waits; else prepared here (the count kept) and sent after everything queued. */
  cerrarCaja(contado: { forma: string; importe: number }[], denominaciones: { valor: number; cantidad: number }[], uuid: string): Promise<Anotado>;
  /**
   * A return made without the server of a ticket the till knows: its R5 made here (number in the terminal's
   * rectificativa serie, record chained like an offline ticket's), refunded by the ticket's method, queued after
   * everything before it. Answers the queued entry (its number, the refund).
   */
  devolverOffline(t: TicketDevolucion, lineas: { linea: LineaDevolucion; cantidad: number }[], uuid: string, pagos?: Pago[]): Promise<TicketLocal>;
  /**
   * Opening the caja with its float: online at once; without the server (or behind a closing still queued) the
   * opening is queued and the cashier sells at once — the tickets after it go into the caja it opens.
   */
  abrirCaja(fondo: number, uuid: string): Promise<Anotado>;
  /** An incidence dealt with (the refund settled, the movement noted in the open caja…): kept, marked resolved. */
  resolverIncidencia(uuid: string): Promise<void>;
  /** Reads the queued operations and incidences again (the bar, the movement and closing dialogs). */
  leerOperaciones(): Promise<void>;
  cargarCatalogo(): Promise<void>;
  añadir(l: Lectura): void;
  añadirArticulo(a: ArticuloTpv): void;
  cambiarLinea(i: number, p: Partial<Pick<LineaVenta, 'cantidad' | 'descuento' | 'precio'>>): void;
  quitarLinea(i: number): void;
  anularTicket(): void;
  aparcar(): Promise<void>;
  recuperar(id: string): Promise<void>;
  cobrar(pagos: Pago[]): Promise<TicketLocal>;
  /**
   * «Salir»: the cashier leaves and the next one identifies; the caja stays open (it is closed only by «Cerrar caja»)
   * and a ticket in progress is parked, not lost.
   */
  salir(): Promise<void>;
  /** Issue 23: the till locks (idle time): nothing of the sale is reachable until a PIN opens it. */
  bloquear(): void;
  /**
   * Opens a locked till with a cashier's PIN: the server's answer (another cashier takes over the open caja: a
   * handover); without the server, only the cashier whose session is open, checked against the PIN kept here.
   */
  desbloquear(usuarioId: number, pin: string): Promise<void>;
  /** The cashier changes their own PIN (the current one asked). */
  cambiarPin(nuevo: string, actual: string): Promise<void>;
};

export type TiendaCaja = Estado & Acciones;

/** A slice's setter and getter: the whole store's. */
export type Poner = (p: Partial<TiendaCaja>) => void;
export type Leer = () => TiendaCaja;
/** A slice: its part of the state and its actions. */
export type Porcion<K extends keyof TiendaCaja> = (set: Poner, get: Leer) => Pick<TiendaCaja, K>;
