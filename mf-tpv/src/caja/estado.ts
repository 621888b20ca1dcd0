import { formatMoney, LIMITE_SIMPLIFICADA, MENSAJES_TPV, reembolsoComoSePago, textoTpv } from 'shared/caja';
import { create } from 'zustand';
import { borrar, enReposo, guardar, guardarClave, leer, leerTodo, reemplazar } from '../datos/almacen';
import { IndiceCatalogo, type ArticuloTpv, type Lectura } from '../datos/catalogo';
import { almacenColaIdb, ColaTickets, esOperacion, Rechazo, type EstadoCola, type FilaSubida, type LineaTicket, type TicketLocal } from '../datos/cola';
import { cobradoPorForma, estadoCobro, totalesTicket, type Pago } from '../venta/importes';
import { crearRegistroDevolucion, crearRegistroOffline, guardarCadenaDeFila, reconciliar, type EstadoCadena } from './registro';
import type { LineaDevolucion, TicketDevolucion } from './devolucionLocal';
import { comprobarPinLocal, guardarBloqueo, leerBloqueo, recordarPin } from './bloqueo';
import * as srv from './servidor';
import type { PaginaTpv, Sesion, TerminalTpv } from './tipos';

export type Fase = 'cargando' | 'emparejar' | 'cajero' | 'apertura' | 'venta';

/** A line on the ticket being sold. */
export type LineaVenta = LineaTicket & { key: string };

export type Aparcado = { id: string; fecha: string; lineas: LineaVenta[]; total: number };

const uuid = () => crypto.randomUUID();

/** Offset ISO time ('2026-11-26T10:15:00+01:00'): when the ticket was sold, as the till's clock says. */
export function ahoraIso(d = new Date()): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 19);
  return `${local}${sign}${pad(off / 60)}:${pad(off % 60)}`;
}

type Estado = {
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

type Acciones = {
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

let cola: ColaTickets | null = null;
/**
 * The ticket being sold is kept in IndexedDB (`estado.ticket`) at every change, so a reload, a closed tab or a
 * crashed page gives it back. The write is not awaited (the scan's frame never waits for the disk) but it is
 * issued in the same task as the change: the browser has the put before the page could die, and it commits on
 * its side. The uuid it will be paid with goes with it: a ticket already paid (its uuid in the queue) is never
 * given back to be charged again.
 */
let uuidEnCurso: string = uuid();
/** When the ticket last changed (a scan, a button, a quantity). */
let ultimoCambio = 0;

/**
 * A pause in the selling: a second without a change to the ticket, then an idle moment of the page. Background
 * writes (the catalogue's copy) go there, never between two scans of a customer's basket.
 */
async function pausaEnLaVenta() {
  for (let falta = 1000; falta > 0; falta = ultimoCambio + 1000 - Date.now()) await new Promise((r) => setTimeout(r, falta));
  await enReposo();
}
type TicketEnCurso = { uuid: string; lineas: LineaVenta[]; seleccion: number | null };

/** The catalogue as the IndexedDB store holds it (read at start, or last written whole); null when unknown. */
let catalogoGuardado: ArticuloTpv[] | null = null;
let pararCola: (() => void) | null = null;

/** The upload queue of the paired terminal (one per page). */
export function colaDe(terminal: TerminalTpv, alCambiar: (e: EstadoCola) => void): ColaTickets {
  if (!cola) {
    cola = new ColaTickets(almacenColaIdb, async (ts) => {
      if (ts.length === 1 && esOperacion(ts[0])) return [await subirOperacion(terminal, ts[0])];
      let filas: Awaited<ReturnType<typeof srv.subirTickets>>;
      try {
        filas = await srv.subirTickets(terminal.id, ts);
      } catch (e) {
        sesionPerdida(e);
        // The server refused what was sent (issue 23): the queue finds which and sets it aside, the rest goes on.
        // A ticket without a record refused for the cashier's rights (403) is refused too: it was never issued.
        if (rechazado(e) || (e instanceof srv.ErrorServidor && e.status === 403 && ts.some((x) => !x.registro))) throw new Rechazo((e as Error).message);
        throw e;
      }
      for (const f of filas) {
        const t = ts.find((x) => x.uuid === f.uuid);
        if (!t) continue;
        if (!t.registro) await guardarCadenaDeFila(f, t, terminal);
        else if (f.repetido && f.huella !== t.registro.huella) {
          // The lost answer: the server had it. Its record wins; what the till made after it is chained anew.
          const despues = (await almacenColaIdb.todos()).filter((x) => x.estado === 'pendiente' && x.seq > t.seq && !esOperacion(x)).sort((a, b) => a.seq - b.seq);
          for (const x of await reconciliar(f, t, terminal, despues)) await almacenColaIdb.guardar(x);
        }
      }
      return filas;
    });
    cola.suscribir((e) => {
      alCambiar(e);
      void useCaja.getState().leerOperaciones();
    });
    pararCola = cola.iniciar();
  }
  return cola;
}

/**
 * A refusal of what was sent (kept aside as an incidence), as opposed to not reaching the server, a session gone, a
 * right missing or the server failing (the entry waits in the queue and is sent again).
 */
function rechazado(e: unknown): boolean {
  if (e instanceof srv.SinConexion) return false;
  if (e instanceof srv.ErrorServidor) return !(e.status === 401 || e.status === 403 || e.status >= 500);
  return e instanceof Error;
}

/** The most a ticket may total (a simplified invoice), as the server said; 400 € if it never did. */
export const limiteTicket = (terminal: TerminalTpv | null) => terminal?.limite_simplificada ?? LIMITE_SIMPLIFICADA;

/** Why a sale of `total` may not be charged as a ticket (over the simplified invoice's limit), or null. */
export function superaLimite(terminal: TerminalTpv | null, total: number, online = true): string | null {
  const limite = limiteTicket(terminal);
  const texto = online ? MENSAJES_TPV.ticketSuperaLimite : MENSAJES_TPV.ticketSuperaLimiteSinConexion;
  return total > limite ? textoTpv(texto, { total: formatMoney(total), limite: formatMoney(limite) }) : null;
}

/** The cashier's session is gone (expired, signed out elsewhere): what is queued waits, the cashier signs in again. */
function sesionPerdida(e: unknown) {
  if (e instanceof srv.ErrorServidor && e.status === 401 && useCaja.getState().fase === 'venta') useCaja.setState({ fase: 'cajero', sesion: null });
}

/**
 * A queued operation uploaded by its own action, marked offline (the cash moved, the drawer was counted, when the
 * till says). The server's refusal (the caja closed meanwhile…) answers an incidence: kept, shown, never lost; no
 * network, a session gone or a right missing keep it queued.
 */
async function subirOperacion(terminal: TerminalTpv, op: TicketLocal): Promise<FilaSubida> {
  const fila = { uuid: op.uuid, id: 0, numero: '', total: 0, huella: '', qr_url: '' };
  try {
    if (op.clase === 'movimiento' && op.movimiento) {
      const m = await srv.movimientoCaja(terminal.id, op.movimiento.importe, op.movimiento.motivo, op.uuid, { caja_id: op.movimiento.caja_id, fecha_hora: op.fecha_hora, offline: 1 });
      return { ...fila, id: Number((m as { id?: number }).id ?? 0), total: op.movimiento.importe };
    }
    if (op.clase === 'devolucion' && op.devolucion) {
      const r = await srv.devolverOffline(op);
      return { ...fila, id: r.id, numero: r.numero, total: r.total, huella: r.huella, qr_url: r.qr_url };
    }
    if (op.clase === 'apertura' && op.apertura) {
      let caja: { id: number; apertura: string; fondo: number } | null = null;
      try {
        caja = await srv.abrirCaja(terminal.id, op.apertura.fondo);
      } catch (e) {
        // Already open (its answer was lost, or opened elsewhere): what follows goes into the open caja all the same.
        if (!(e instanceof srv.ErrorServidor && e.message === MENSAJES_TPV.cajaYaAbierta)) throw e;
      }
      if (caja) await cajaDeLoQueSigue(op, caja);
      return { ...fila, id: caja?.id ?? 0, total: op.apertura.fondo };
    }
    if (op.clase === 'cierre' && op.cierre) {
      const c = await srv.cerrarCaja(terminal.id, op.cierre.contado, op.cierre.denominaciones, { caja_id: op.cierre.caja_id, fecha_hora: op.fecha_hora });
      return { ...fila, id: c.id ?? 0, numero: `Cierre nº ${c.codigo}`, total: c.total, codigo: c.codigo };
    }
    return { ...fila, incidencia: 'Operación desconocida en la cola.' };
  } catch (e) {
    sesionPerdida(e);
    if (!rechazado(e)) throw e;
    // Refused (the caja closed meanwhile, a corrupt record…): kept as an incidence, exactly as it was made and printed
    // — its record stays in the till's chain, nothing after it is rewritten (issue 23; the server flags what a return
    // breaks instead of refusing it, and keeps a corrupt record aside).
    return { ...fila, incidencia: (e as Error).message };
  }
}

/**
 * An opening made offline has reached the server: the movements and the closing queued after it (until the next
 * opening) name that caja, so a closing sent again closes that one and no other; the till knows its caja again.
 */
async function cajaDeLoQueSigue(op: TicketLocal, caja: { id: number; apertura: string; fondo: number }) {
  const siguientes = (await almacenColaIdb.todos()).filter((x) => x.estado === 'pendiente' && x.seq > op.seq).sort((a, b) => a.seq - b.seq);
  for (const x of siguientes) {
    if (x.clase === 'apertura') break;
    if (x.movimiento && x.movimiento.caja_id === null) await almacenColaIdb.guardar({ ...x, movimiento: { ...x.movimiento, caja_id: caja.id } });
    if (x.cierre && x.cierre.caja_id === null) await almacenColaIdb.guardar({ ...x, cierre: { ...x.cierre, caja_id: caja.id } });
    if (x.clase === 'cierre') return;
  }
  const actual = useCaja.getState().terminal;
  if (actual && !actual.caja_abierta) {
    const t = { ...actual, caja_abierta: { id: caja.id, apertura: caja.apertura, fondo: caja.fondo, usuario_nombre: useCaja.getState().sesion?.user.nombre ?? null } };
    useCaja.setState({ terminal: t });
    await guardarClave('estado', 'terminal', t);
  }
}

let cargaCatalogo: Promise<void> | null = null;

/** The catalogue and the buttons from the server, kept in IndexedDB for selling offline. */
async function cargarCatalogoAhora(get: () => TiendaCaja, set: (p: Partial<Estado>) => void) {
  const terminal = get().terminal;
  try {
    const [articulos, paginas] = await Promise.all([srv.descargarArticulos(), terminal ? srv.leerBotones(terminal.id) : Promise.resolve([])]);
    set({ indice: new IndiceCatalogo(articulos), paginas, catalogoCargado: true });
    // Kept for selling offline, off the scans' way: small slices when the page is idle, and only what differs from
    // the copy known to be in the store (none known while a write is under way or after one failed: all of it).
    const antes = catalogoGuardado ?? undefined;
    catalogoGuardado = null;
    await guardarClave('estado', 'paginas', paginas);
    await reemplazar('articulos', articulos, 250, antes, pausaEnLaVenta);
    catalogoGuardado = articulos;
    set({ catalogoEnDisco: true });
  } catch {
    set({ catalogoCargado: get().indice.size > 0 });
  }
}

/** For tests: forget the page's queue. */
export function reiniciarCola() {
  pararCola?.();
  pararCola = null;
  cola = null;
}

export const useCaja = create<TiendaCaja>((set, get) => ({
  fase: 'cargando',
  terminal: null,
  sesion: null,
  indice: new IndiceCatalogo([]),
  catalogoCargado: false,
  catalogoEnDisco: false,
  paginas: [],
  lineas: [],
  seleccion: null,
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  cola: { pendientes: 0, enviando: false, error: null, ultimoIntento: null },
  aparcados: [],
  error: null,
  ultimo: null,
  operaciones: [],
  bloqueada: false,

  set: (p) => set(p),

  async leerOperaciones() {
    const todas = await almacenColaIdb.todos().catch(() => [] as TicketLocal[]);
    set({ operaciones: todas.filter((t) => (esOperacion(t) && t.estado === 'pendiente') || t.estado === 'incidencia').sort((a, b) => a.seq - b.seq) });
  },

  async abrirCaja(fondo, id) {
    const terminal = get().terminal!;
    const q = colaDe(terminal, (c) => set({ cola: c }));
    // A closing prepared offline goes first (the server still has that caja open until it arrives).
    if (navigator.onLine) await q.vaciar();
    if (navigator.onLine && !(await q.pendientes()).length) {
      try {
        get().cajaAbierta(await srv.abrirCaja(terminal.id, fondo));
        return { enCola: false };
      } catch (e) {
        if (!(e instanceof srv.SinConexion)) throw e;
      }
    }
    await q.añadir({
      uuid: id, seq: await q.siguienteSeq(), terminal_id: terminal.id, fecha_hora: ahoraIso(), lineas: [], pagos: [], total: fondo, cambio: 0,
      cajero: get().sesion?.user.nombre, estado: 'pendiente', clase: 'apertura', apertura: { fondo },
    });
    await get().leerOperaciones();
    set({ fase: 'venta' });
    return { enCola: true };
  },

  async resolverIncidencia(id) {
    const t = (await almacenColaIdb.todos()).find((x) => x.uuid === id);
    if (t?.estado !== 'incidencia') return;
    await almacenColaIdb.guardar({ ...t, estado: 'resuelta', resuelta: { fecha: ahoraIso(), por: get().sesion?.user.nombre ?? null } });
    await get().leerOperaciones();
  },

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
    if (pagos.reduce((s, p) => s + p.importe, 0) !== reembolso) throw new Error(textoTpv(MENSAJES_TPV.devolucionPagos, { pagado: formatMoney(pagos.reduce((s, p) => s + p.importe, 0)), total: formatMoney(reembolso) }));
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

  async anotarMovimiento(importe, motivo, id) {
    const terminal = get().terminal!;
    const q = colaDe(terminal, (c) => set({ cola: c }));
    if (navigator.onLine && !(await q.pendientes()).length) {
      try {
        const m = await srv.movimientoCaja(terminal.id, importe, motivo, id);
        return { enCola: false, fila: { uuid: id, id: Number((m as { id?: number }).id ?? 0), numero: '', total: importe, huella: '', qr_url: '' } };
      } catch (e) {
        // Refused (a withdrawal beyond the drawer…): said as it is. No answer: queued with the same uuid (if it did arrive, the upload finds it).
        if (!(e instanceof srv.SinConexion)) throw e;
      }
    }
    await q.añadir({
      uuid: id, seq: await q.siguienteSeq(), terminal_id: terminal.id, fecha_hora: ahoraIso(), lineas: [], pagos: [], total: importe, cambio: 0,
      cajero: get().sesion?.user.nombre, estado: 'pendiente', clase: 'movimiento', movimiento: { importe, motivo, caja_id: terminal.caja_abierta?.id ?? null },
    });
    await get().leerOperaciones();
    return { enCola: true };
  },

  async cerrarCaja(contado, denominaciones, id) {
    const terminal = get().terminal!;
    const q = colaDe(terminal, (c) => set({ cola: c }));
    const cajaId = terminal.caja_abierta?.id ?? null;
    const fin = async () => {
      const t = { ...terminal, caja_abierta: null };
      set({ terminal: t });
      await guardarClave('estado', 'terminal', t);
    };
    if (navigator.onLine && !(await q.pendientes()).length) {
      try {
        const c = await srv.cerrarCaja(terminal.id, contado, denominaciones, { caja_id: cajaId });
        await fin();
        return { enCola: false, fila: { uuid: id, id: c.id ?? 0, numero: `Cierre nº ${c.codigo}`, total: c.total, huella: '', qr_url: '', codigo: c.codigo, cierre: c } as FilaSubida };
      } catch (e) {
        if (!(e instanceof srv.SinConexion)) throw e;
      }
    }
    // Prepared here: sent after every ticket, return and movement queued before it, so its Z includes them all.
    await q.añadir({
      uuid: id, seq: await q.siguienteSeq(), terminal_id: terminal.id, fecha_hora: ahoraIso(), lineas: [], pagos: [], total: 0, cambio: 0,
      cajero: get().sesion?.user.nombre, estado: 'pendiente', clase: 'cierre', cierre: { caja_id: cajaId, contado, denominaciones },
    });
    await fin();
    await get().leerOperaciones();
    return { enCola: true };
  },

  async arrancar() {
    set({ fase: 'cargando', error: null });
    // A till locked before the reload stays locked (issue 23).
    set({ bloqueada: await leerBloqueo() });
    // The catalogue kept from the last time: the till sells at once, even offline.
    const guardados = await leerTodo<ArticuloTpv>('articulos').catch(() => null);
    catalogoGuardado = guardados;
    if (guardados?.length) set({ indice: new IndiceCatalogo(guardados) });
    const paginas = await leer<PaginaTpv[]>('estado', 'paginas').catch(() => undefined);
    if (paginas) set({ paginas });
    set({ catalogoEnDisco: !!guardados?.length && !!paginas });
    set({ aparcados: await leerTodo<Aparcado>('aparcados').catch(() => []) });
    const enCurso = await leer<TicketEnCurso>('estado', 'ticket').catch(() => undefined);
    if (enCurso?.lineas.length && !(await leer('tickets', enCurso.uuid).catch(() => undefined))) {
      uuidEnCurso = enCurso.uuid;
      set({ lineas: enCurso.lineas, seleccion: enCurso.seleccion });
    } else if (get().lineas.length) {
      // Taken back from another tab that charged or cleared it: the ticket is what IndexedDB says, none.
      set({ lineas: [], seleccion: null });
    }
    await get().leerOperaciones();
    let terminal: TerminalTpv | null;
    try {
      terminal = await srv.leerTerminal();
      if (terminal) await guardarClave('estado', 'terminal', terminal);
    } catch (e) {
      if (!(e instanceof srv.SinConexion)) {
        set({ fase: 'emparejar', error: (e as Error).message });
        return;
      }
      // Offline: the terminal and the cashier as they were last time.
      terminal = (await leer<TerminalTpv>('estado', 'terminal')) ?? null;
      const sesion = (await leer<Sesion>('estado', 'sesion')) ?? null;
      if (!terminal) {
        set({ fase: 'emparejar', error: 'Sin conexión con el servidor: el terminal se empareja con conexión.', online: false });
        return;
      }
      set({ terminal, sesion, online: false, fase: sesion ? 'venta' : 'cajero' });
      colaDe(terminal, (c) => set({ cola: c }));
      return;
    }
    if (!terminal) {
      set({ fase: 'emparejar' });
      return;
    }
    await get().emparejado(terminal);
  },

  async emparejado(terminal) {
    set({ terminal, error: null });
    await guardarClave('estado', 'terminal', terminal);
    colaDe(terminal, (c) => set({ cola: c }));
    const sesion = await srv.leerSesion().catch(() => null);
    if (sesion) await get().entrar(sesion);
    else set({ fase: 'cajero' });
  },

  async entrar(sesion) {
    set({ sesion, error: null, bloqueada: false });
    void guardarBloqueo(false);
    await guardarClave('estado', 'sesion', sesion);
    const terminal = get().terminal!;
    void get().cargarCatalogo();
    let abierta = !!terminal.caja_abierta;
    try {
      const t = await srv.leerTerminal();
      if (t) {
        set({ terminal: t });
        await guardarClave('estado', 'terminal', t);
        abierta = !!t.caja_abierta;
      }
    } catch {
      /* offline: as it was */
    }
    set({ fase: abierta ? 'venta' : 'apertura' });
  },

  cajaAbierta(caja) {
    const terminal = get().terminal;
    if (caja && terminal) {
      const t = { ...terminal, caja_abierta: { id: caja.id, apertura: caja.apertura, fondo: caja.fondo, usuario_nombre: get().sesion?.user.nombre ?? null } };
      set({ terminal: t });
      void guardarClave('estado', 'terminal', t);
    }
    set({ fase: 'venta' });
  },

  cargarCatalogo() {
    // One download at a time (the cashier's entry and the server coming back may both ask).
    cargaCatalogo ??= cargarCatalogoAhora(get, set).finally(() => {
      cargaCatalogo = null;
    });
    return cargaCatalogo;
  },

  añadir(l) {
    const a = l.articulo;
    const linea: LineaVenta = {
      key: uuid(),
      articulo_id: a.id,
      codigo: a.codigo,
      nombre: a.nombre || a.descripcion,
      tipo_iva: a.tipo_iva,
      cantidad: l.cantidad,
      precio: l.importe !== undefined ? l.importe * 100 : a.precio,
      descuento: 0,
    };
    const lineas = get().lineas;
    // The same article scanned again adds one to its line (units, not weighed or priced labels).
    const ultima = lineas.at(-1);
    if (ultima && l.importe === undefined && l.cantidad === 1000 && ultima.articulo_id === a.id && ultima.precio === a.precio && ultima.descuento === 0 && ultima.cantidad % 1000 === 0) {
      set({ lineas: [...lineas.slice(0, -1), { ...ultima, cantidad: ultima.cantidad + 1000 }], seleccion: lineas.length - 1 });
      return;
    }
    set({ lineas: [...lineas, linea], seleccion: lineas.length });
  },

  añadirArticulo(a) {
    get().añadir({ articulo: a, cantidad: 1000 });
  },

  cambiarLinea(i, p) {
    set({ lineas: get().lineas.map((l, j) => (j === i ? { ...l, ...p } : l)) });
  },

  quitarLinea(i) {
    const lineas = get().lineas.filter((_, j) => j !== i);
    set({ lineas, seleccion: lineas.length ? Math.min(i, lineas.length - 1) : null });
  },

  anularTicket() {
    set({ lineas: [], seleccion: null });
  },

  async aparcar() {
    const { lineas } = get();
    if (!lineas.length) return;
    const a: Aparcado = { id: uuid(), fecha: new Date().toISOString(), lineas, total: totalesTicket(lineas).total };
    await guardar('aparcados', [a]);
    set({ aparcados: [...get().aparcados, a], lineas: [], seleccion: null });
  },

  async recuperar(id) {
    const a = get().aparcados.find((x) => x.id === id);
    if (!a) return;
    await borrar('aparcados', id);
    // A ticket on screen is parked in its place, not lost.
    if (get().lineas.length) await get().aparcar();
    set({ aparcados: get().aparcados.filter((x) => x.id !== id), lineas: a.lineas, seleccion: a.lineas.length - 1 });
  },

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
    if (await leer('tickets', uuidEnCurso).catch(() => undefined)) uuidEnCurso = uuid();
    const base: TicketLocal = {
      uuid: uuidEnCurso,
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
    void cobradoPorForma;
    let ticket = base;
    const hayCola = (await q.pendientes()).length > 0;
    if (hayCola || !navigator.onLine) {
      // A store credit is checked and spent by the server (issue 23): never taken offline.
      if (pagos.some((p) => p.forma === 'vale')) throw new Error(MENSAJES_TPV.valeSinConexion);
      // Offline (or behind tickets still waiting): the till is its own installation and makes the record now.
      await asegurarRegistros(terminal);
      ticket = { ...base, ...(await registroOffline(terminal, base)) };
      await q.añadir(ticket);
    } else {
      // Stored first: a crash from here on loses nothing.
      await q.añadir(ticket);
      await q.vaciar();
      const guardado = (await almacenColaIdb.todos()).find((t) => t.uuid === ticket.uuid)!;
      if (guardado.estado === 'subido') ticket = guardado;
      else if (guardado.estado === 'rechazado') {
        // Refused (issue 23): not issued, nothing printed; the sale stays on screen, the cashier reads why. Its uuid
        // is spent: the next payment of these lines takes a new one.
        uuidEnCurso = uuid();
        throw new Error(guardado.incidencia ?? 'El servidor ha rechazado el ticket.');
      } else {
        // Sent without an answer: the server may have it. The till's record now, and the ticket marked doubtful.
        ticket = { ...guardado, ...(await registroOffline(terminal, guardado)), dudoso: true };
        await almacenColaIdb.guardar(ticket);
      }
    }
    uuidEnCurso = uuid();
    set({ lineas: [], seleccion: null, ultimo: ticket });
    return ticket;
  },

  async salir() {
    // The ticket on screen waits parked for whoever comes next (F9), never dropped.
    if (get().lineas.length) await get().aparcar().catch(() => undefined);
    await srv.salir();
    await borrar('estado', 'sesion').catch(() => undefined);
    await guardarBloqueo(false);
    set({ sesion: null, fase: 'cajero', lineas: [], seleccion: null, bloqueada: false });
  },

  bloquear() {
    if (get().bloqueada || !get().sesion) return;
    set({ bloqueada: true });
    void guardarBloqueo(true);
  },

  async desbloquear(usuarioId, pin) {
    if (!/^\d{4,8}$/.test(pin)) throw new Error(MENSAJES_TPV.pinNoValido);
    const actual = get().sesion;
    try {
      const sesion = await srv.entrarConPin(usuarioId, pin);
      await recordarPin(usuarioId, pin);
      // Another cashier takes over the open caja (the tickets from now on are theirs); the same one goes on.
      set({ sesion });
      await guardarClave('estado', 'sesion', sesion);
    } catch (e) {
      if (!(e instanceof srv.SinConexion)) throw e;
      // Offline: the cashier whose session is open, checked against the PIN this browser kept.
      if (!actual || actual.user.id !== usuarioId) {
        throw new Error(`Sin conexión solo ${actual?.user.nombre ?? 'el cajero que la dejó'} puede desbloquear la caja: otro cajero necesita la conexión.`);
      }
      const ok = await comprobarPinLocal(usuarioId, pin);
      if (ok === null) throw new Error('Sin conexión no se puede comprobar el PIN en este equipo: espere a que vuelva la conexión.');
      if (!ok) throw new Error(MENSAJES_TPV.pinIncorrecto);
    }
    await guardarBloqueo(false);
    set({ bloqueada: false });
  },

  async cambiarPin(nuevo, actualPin) {
    if (!/^\d{4,8}$/.test(nuevo)) throw new Error(MENSAJES_TPV.pinNoValido);
    await srv.cambiarPin(nuevo, actualPin);
    const yo = get().sesion?.user.id;
    if (yo) await recordarPin(yo, nuevo);
  },
}));

useCaja.subscribe((s, antes) => {
  if (s.lineas === antes.lineas && s.seleccion === antes.seleccion) return;
  ultimoCambio = Date.now();
  const t: TicketEnCurso = { uuid: uuidEnCurso, lineas: s.lineas, seleccion: s.seleccion };
  guardarClave('estado', 'ticket', t).catch(() => undefined);
});

/**
 * Tickets still waiting without a record (the page closed while the first upload was under way) get theirs
 * before a new offline one chains after them: the terminal's chain has no holes.
 */
async function asegurarRegistros(terminal: TerminalTpv) {
  const pend = (await almacenColaIdb.todos()).filter((t) => t.estado === 'pendiente' && !t.registro && !esOperacion(t)).sort((a, b) => a.seq - b.seq);
  for (const t of pend) await almacenColaIdb.guardar({ ...t, ...(await registroOffline(terminal, t)), dudoso: true });
}

async function registroOffline(terminal: TerminalTpv, t: TicketLocal) {
  const { registro, qr_url } = await crearRegistroOffline(terminal, t);
  return { registro, qr_url };
}

export type { EstadoCadena };
