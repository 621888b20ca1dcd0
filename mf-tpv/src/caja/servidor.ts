import { ApiHttpError, createApiClient, MESSAGES_TPV, type ApiResponse } from 'shared/caja';
import type { ClienteTpv, Configuracion, Documento, UsuarioSesion } from 'shared';
import type { ArticuloTpv } from '../datos/catalogo';
import type { FilaSubida, TicketLocal } from '../datos/cola';
import type { CajaCiegaTpv } from 'shared';
import type { CierreTpv, DevolucionHecha, PaginaTpv, Sesion, TerminalTpv, TicketServidor } from './tipos';

/**
 * The till's own op.asp client: it lives outside the shell's staff login (a paired terminal needs only the
 * cashier), so a 401 here (an unpaired browser, a cashier's session gone) must not sign the back office out.
 */
export const api = createApiClient();

/** Thrown when the server can't be reached (no answer at all): the caller goes on offline. */
export class SinConexion extends Error {
  constructor() {
    super('Sin conexión con el servidor');
  }
}

/** The server answered with an HTTP error (401 unpaired, 403 the role or the flag): its message. */
export class ErrorServidor extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Told of every answer of the server (true) and every request that got none (false): the till's status pill. */
let alResponder: ((responde: boolean) => void) | null = null;
export function vigilarConexion(f: ((responde: boolean) => void) | null) {
  alResponder = f;
}

async function pedir<T>(p: Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  try {
    const res = await pedirSinVigilar(p);
    alResponder?.(true);
    return res;
  } catch (e) {
    alResponder?.(!(e instanceof SinConexion));
    throw e;
  }
}

async function pedirSinVigilar<T>(p: Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  let res: ApiResponse<T>;
  try {
    res = await p;
  } catch (e) {
    if (e instanceof ApiHttpError) {
      // Field errors (a bad NIF…) are named with the message, so the cashier reads what to correct.
      const errores = Object.values((e.body as { errors?: Record<string, string> } | undefined)?.errors ?? {});
      throw new ErrorServidor([e.body?.message || e.message, ...errores].join(' '), e.status);
    }
    throw new SinConexion();
  }
  // The client answers a network failure as a bare RESULT 1 without a message.
  if (res.RESULT === '1' && !res.message && !res.data) throw new SinConexion();
  return res;
}

function datos<T>(res: ApiResponse<T>): T[] {
  if (res.RESULT !== '0') throw new Error(res.message || 'El servidor ha rechazado la operación');
  return res.data ?? [];
}

/** The paired terminal; null when this browser isn't paired (401). */
export async function leerTerminal(): Promise<TerminalTpv | null> {
  try {
    return datos(await pedir(api.get<TerminalTpv>('terminaltpv')))[0] ?? null;
  } catch (e) {
    // Not paired (401, or the server's 403 «no está emparejado»): the pairing screen, with nothing said wrong yet.
    if (e instanceof ErrorServidor && (e.status === 401 || e.message === MESSAGES_TPV.terminalNoEmparejado)) return null;
    throw e;
  }
}

export async function emparejar(codigo: string): Promise<TerminalTpv> {
  return datos(await pedir(api.post<TerminalTpv>('emparejarterminal', { codigo: codigo.trim().toUpperCase() })))[0];
}

function sesionDe(res: ApiResponse<Configuracion>): Sesion {
  datos(res);
  return { user: res.user as UsuarioSesion, config: res.data?.[0] ?? null };
}

/** The session this browser already has (a cashier who reloaded), or null. */
export async function leerSesion(): Promise<Sesion | null> {
  try {
    const res = await pedir(api.get<Configuracion>('sesion'));
    return res.RESULT === '0' && res.user ? sesionDe(res) : null;
  } catch (e) {
    if (e instanceof SinConexion) throw e;
    return null;
  }
}

export async function entrarConPin(usuario_id: number, pin: string): Promise<Sesion> {
  return sesionDe(await pedir(api.post<Configuracion>('identificartpv', { usuario_id, pin })));
}

export async function entrarConClave(email: string, password: string): Promise<Sesion> {
  return sesionDe(await pedir(api.post<Configuracion>('identificar', { email, password })));
}

/**
 * The cashier changes their own PIN (issue 23). From a PIN session the server asks the current one; another user's PIN
 * is set in the back office (Configuración › Usuarios).
 */
export async function cambiarPin(pin: string, pin_actual: string): Promise<void> {
  datos(await pedir(api.post('editarpintpv', { pin, pin_actual })));
}

export async function salir(): Promise<void> {
  await api.post('cerrarsesion').catch(() => undefined);
}

/** The whole active catalogue, page by page. */
export async function descargarArticulos(alProgresar?: (n: number) => void): Promise<ArticuloTpv[]> {
  const out: ArticuloTpv[] = [];
  let desde = 0;
  for (;;) {
    const res = await pedir(api.get<ArticuloTpv>('articulostpv', { desde_id: desde, limite: 5000 }));
    out.push(...datos(res));
    alProgresar?.(out.length);
    const siguiente = (res as ApiResponse<ArticuloTpv> & { siguiente?: number | null }).siguiente;
    if (siguiente === null || siguiente === undefined || siguiente <= desde) return out;
    desde = siguiente;
  }
}

export async function leerBotones(terminal_id: number): Promise<PaginaTpv[]> {
  const filas = datos(await pedir(api.get<{ paginas: PaginaTpv[] }>('listadobotonestpv', { terminal_id })));
  return filas[0]?.paginas ?? [];
}

export async function abrirCaja(terminal_id: number, fondo: number) {
  return datos(await pedir(api.post<{ id: number; apertura: string; fondo: number }>('abrircajatpv', { terminal_id, fondo })))[0];
}

/** The open caja's running figures; null when none is open (RESULT 3). */
export async function leerCaja(terminal_id: number): Promise<CierreTpv | CajaCiegaTpv | null> {
  // A blind-count terminal's caja comes without the expected figures (issue 23).
  const res = await pedir(api.get<CierreTpv | CajaCiegaTpv>('cajatpv', { terminal_id }));
  if (res.RESULT === '3') return null;
  return datos(res)[0] ?? null;
}

/** A cash movement; `offline` when it was made without the server (queued): the caja it was made in and when. */
export async function movimientoCaja(terminal_id: number, importe: number, motivo: string, uuid: string, offline?: { caja_id: number | null; fecha_hora: string; offline: 1 }) {
  const extra = offline ? { ...(offline.caja_id ? { caja_id: offline.caja_id } : {}), fecha_hora: offline.fecha_hora, offline: 1 } : {};
  return datos(await pedir(api.post('movimientocajatpv', { terminal_id, importe, motivo, uuid, ...extra })))[0];
}

/** `subirtickets` for the queue: the rows, or an Error (SinConexion included) that keeps them queued. */
/**
 * `enLinea`: the tickets the cashier is waiting for, not printed yet (docs/tpv.md «The doubtful ticket»): sent with
 * `en_linea`, so the server refuses them for a broken rule instead of keeping and flagging them.
 */
export async function subirTickets(terminal_id: number, tickets: TicketLocal[], enLinea?: ReadonlySet<string>): Promise<FilaSubida[]> {
  const body = {
    terminal_id,
    tickets: tickets.map((t) => ({
      uuid: t.uuid,
      fecha_hora: t.fecha_hora,
      lineas: t.lineas.map((l) => ({ articulo_id: l.articulo_id, cantidad: l.cantidad, precio: l.precio, descuento: l.descuento })),
      pagos: t.pagos,
      // Issue 23: who sold an offline ticket (another cashier's session may upload it after a handover).
      ...(t.registro ? { registro: t.registro, ...(t.cajero_id ? { cajero_id: t.cajero_id } : {}) } : {}),
      ...(t.registro && enLinea?.has(t.uuid) ? { en_linea: 1 } : {}),
    })),
  };
  return datos(await pedir(api.post<FilaSubida>('subirtickets', body)));
}

/**
 * The terminal's tickets whose number ends in `digitos` (issue 23: «1470» → …/001470, …/011470), newest first; never
 * by the database id.
 */
export async function ticketsPorFinal(digitos: string, terminal_id: number): Promise<{ id: number; numero: string; fecha: string; total: number }[]> {
  return datos(await pedir(api.get<{ id: number; numero: string; fecha: string; total: number }>('listadotickets', { numero_fin: digitos, terminal_id, orden: 'numero', dir: 'desc', porPagina: 10 })));
}

/**
 * A ticket by its number as printed ('T1 2026/000012': typed, or scanned from its barcode) or by its number's last
 * digits ('1470': the newest of this terminal's tickets ending so). `otros` gets the other tickets the digits matched.
 */
export async function buscarTicket(texto: string, terminal_id: number, otros?: (filas: { id: number; numero: string; fecha: string; total: number }[]) => void): Promise<TicketServidor | null> {
  const t = texto.trim();
  let id: number | null = null;
  if (/^\d{1,9}$/.test(t)) {
    const filas = await ticketsPorFinal(t, terminal_id);
    otros?.(filas.slice(1));
    if (!filas.length) return null;
    id = filas[0].id;
  } else {
    const filas = datos(await pedir(api.get<{ id: number; numero: string }>('listadotickets', { q: t, terminal_id, porPagina: 10 })));
    const exacto = filas.find((f) => f.numero.replace(/\s/g, '').toLowerCase() === t.replace(/\s/g, '').toLowerCase()) ?? (filas.length === 1 ? filas[0] : null);
    if (!exacto) return null;
    id = exacto.id;
  }
  return leerTicket(id);
}

/** One ticket with its lines, payments and returns (`listadotickets&id=`). */
export async function leerTicket(id: number): Promise<TicketServidor | null> {
  return datos(await pedir(api.get<TicketServidor>('listadotickets', { id })))[0] ?? null;
}

export async function devolverTicket(id: number, lineas: { id: number; cantidad: number }[], pagos: { forma: string; importe: number }[], uuid: string): Promise<DevolucionHecha> {
  return datos(await pedir(api.post<DevolucionHecha>('devolverticket', { id, lineas, pagos, uuid })))[0];
}

/** Issue 23: a return without a ticket (`devolversinticket`): articles, quantities and their prices with IVA, the refunds. */
export async function devolverSinTicket(
  terminalId: number,
  lineas: { articulo_id: number; cantidad: number; precio: number }[],
  pagos: { forma: string; importe: number }[],
  uuid: string,
): Promise<DevolucionHecha> {
  return datos(await pedir(api.post<DevolucionHecha>('devolversinticket', { terminal_id: terminalId, lineas, pagos, uuid })))[0];
}

/** A return made offline, from the queue: the ticket by id or uuid, lines by id or number, its R5 record and instant. */
export async function devolverOffline(t: TicketLocal): Promise<DevolucionHecha> {
  const d = t.devolucion!;
  if (d.sin_ticket) {
    const body = {
      terminal_id: t.terminal_id, uuid: t.uuid, fecha_hora: t.fecha_hora, lineas: d.lineas.map((l) => ({ articulo_id: l.articulo_id, cantidad: l.cantidad, precio: l.precio })),
      pagos: d.pagos, registro: t.registro,
    };
    return datos(await pedir(api.post<DevolucionHecha>('devolversinticket', body)))[0];
  }
  const body = {
    ...(d.ticket_id ? { id: d.ticket_id } : { ticket_uuid: d.ticket_uuid }),
    uuid: t.uuid,
    fecha_hora: t.fecha_hora,
    lineas: d.lineas.map((l) => (l.id !== undefined ? { id: l.id, cantidad: l.cantidad } : { orden: l.orden, cantidad: l.cantidad })),
    pagos: d.pagos,
    registro: t.registro,
  };
  return datos(await pedir(api.post<DevolucionHecha>('devolverticket', body)))[0];
}

/** The closing of the caja `caja_id` (sent again, it answers the same closing); `fecha_hora`: when it was counted offline. */
export async function cerrarCaja(
  terminal_id: number,
  contado: { forma: string; importe: number }[],
  denominaciones: { valor: number; cantidad: number }[],
  extra: { caja_id?: number | null; fecha_hora?: string } = {},
): Promise<CierreTpv> {
  const cuerpo = { terminal_id, contado, denominaciones, ...(extra.caja_id ? { caja_id: extra.caja_id } : {}), ...(extra.fecha_hora ? { fecha_hora: extra.fecha_hora } : {}) };
  return datos(await pedir(api.post<CierreTpv>('editarcierretpv', cuerpo)))[0];
}

/** The customers a full invoice may name (`clientestpv`: active, with a NIF; at most 20). */
export async function buscarClientes(q: string): Promise<ClienteTpv[]> {
  return datos(await pedir(api.get<ClienteTpv>('clientestpv', { q: q.trim() })));
}

/** A customer created at the till (`altaclientetpv`); one already registered with the NIF is answered unchanged. */
export async function altaCliente(c: { nif: string; razon_social: string; direccion?: string; codigo_postal?: string; poblacion?: string }): Promise<ClienteTpv> {
  return datos(await pedir(api.post<ClienteTpv>('altaclientetpv', c)))[0];
}

/** The full invoice (F3) replacing a ticket (`facturarticket`). */
export async function facturarTicket(id: number, cliente_id: number): Promise<Documento> {
  return datos(await pedir(api.post<Documento>('facturarticket', { id, cliente_id })))[0];
}

/** A full invoice (F1) issued at the till instead of a ticket over the limit (`facturarventatpv`); its uuid makes a retry harmless. */
export async function facturarVenta(
  terminal_id: number,
  cliente_id: number,
  uuid: string,
  lineas: { articulo_id: number; cantidad: number; precio: number; descuento: number }[],
  pagos: { forma: string; importe: number }[],
): Promise<Documento & { cambio: number }> {
  return datos(await pedir(api.post<Documento & { cambio: number }>('facturarventatpv', { terminal_id, cliente_id, uuid, lineas, pagos })))[0];
}

/** A store credit by its code (`valetpv`): its amount, the balance left on it (issue 23) and when it last paid. */
export async function leerVale(codigo: string): Promise<{ codigo: string; importe: number; saldo?: number; usado: string | null }> {
  return datos(await pedir(api.get<{ codigo: string; importe: number; saldo?: number; usado: string | null }>('valetpv', { codigo: codigo.trim() })))[0];
}
