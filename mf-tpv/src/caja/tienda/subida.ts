import { MESSAGES_TPV } from 'shared/caja';
import { guardarClave } from '../../datos/almacen';
import { almacenColaIdb, ColaTickets, esOperacion, Rechazo, type EstadoCola, type FilaSubida, type TicketLocal } from '../../datos/cola';
import { guardarCadenaDeFila } from '../registro';
import * as srv from '../servidor';
import type { TerminalTpv } from '../tipos';
import { tienda } from './comun';
import type { Porcion } from './tipos';

let cola: ColaTickets | null = null;
let pararCola: (() => void) | null = null;
/**
 * The tickets the cashier is waiting for (sent online with the till's record, not printed yet): uploaded with
 * `en_linea`, so a broken rule refuses them (docs/tpv.md «The doubtful ticket»). Never kept across a reload: an entry
 * found in the queue after one may have been printed.
 */
export const enLinea = new Set<string>();

/** The upload queue of the paired terminal (one per page). */
export function colaDe(terminal: TerminalTpv, alCambiar: (e: EstadoCola) => void): ColaTickets {
  if (!cola) {
    cola = new ColaTickets(almacenColaIdb, async (ts) => {
      if (ts.length === 1 && esOperacion(ts[0])) return [await subirOperacion(terminal, ts[0])];
      let filas: Awaited<ReturnType<typeof srv.subirTickets>>;
      try {
        filas = await srv.subirTickets(terminal.id, ts, enLinea);
      } catch (e) {
        sesionPerdida(e);
        // The server refused what was sent (issue 23): the queue finds which and sets it aside, the rest goes on.
        // A ticket without a record refused for the cashier's rights (403) is refused too: it was never issued.
        if (rechazado(e) || (e instanceof srv.ErrorServidor && e.status === 403 && ts.some((x) => !x.registro || enLinea.has(x.uuid)))) throw new Rechazo((e as Error).message);
        throw e;
      }
      const out: FilaSubida[] = [];
      for (const f of filas) {
        const t = ts.find((x) => x.uuid === f.uuid);
        if (t && !t.registro) await guardarCadenaDeFila(f, t, terminal);
        // A ticket the server had registered by itself while this till printed its own record for it (a doubtful
        // ticket of a till before docs/tpv.md «The doubtful ticket»): the server's stays in the books, the till's
        // stays as printed — nothing after it is chained again nor renumbered; an incidence for the manager.
        if (t?.registro && f.repetido && f.huella !== t.registro.huella) out.push({ ...f, incidencia: MESSAGES_TPV.registroDuplicadoTpv });
        else out.push(f);
      }
      return out;
    }, { sinImprimir: (t) => enLinea.has(t.uuid) });
    cola.suscribir((e) => {
      alCambiar(e);
      void tienda().getState().leerOperaciones();
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

/** The cashier's session is gone (expired, signed out elsewhere): what is queued waits, the cashier signs in again. */
function sesionPerdida(e: unknown) {
  if (e instanceof srv.ErrorServidor && e.status === 401 && tienda().getState().fase === 'venta') tienda().setState({ fase: 'cajero', sesion: null });
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
        if (!(e instanceof srv.ErrorServidor && e.message === MESSAGES_TPV.cajaYaAbierta)) throw e;
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
  const actual = tienda().getState().terminal;
  if (actual && !actual.caja_abierta) {
    const t = { ...actual, caja_abierta: { id: caja.id, apertura: caja.apertura, fondo: caja.fondo, usuario_nombre: tienda().getState().sesion?.user.nombre ?? null } };
    tienda().setState({ terminal: t });
    await guardarClave('estado', 'terminal', t);
  }
}

/** For tests: forget the page's queue. */
export function reiniciarCola() {
  pararCola?.();
  pararCola = null;
  cola = null;
}

/** The upload queue's state, as the status bar shows it. */
export const porcionSubida: Porcion<'cola'> = () => ({
  cola: { pendientes: 0, enviando: false, error: null, ultimoIntento: null },
});
