import { guardar, borrar, guardarClave, leer, leerTodo } from '../../datos/almacen';
import { totalesTicket } from '../../venta/importes';
import { uuid } from './comun';
import type { Aparcado, LineaVenta, Leer, Poner, Porcion, TiendaCaja } from './tipos';
import type { StoreApi } from 'zustand';

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

/** The uuid the ticket on screen will be paid with. */
export const uuidDelTicket = () => uuidEnCurso;
/** The ticket on screen takes a new uuid (the last one was paid, or refused: spent). */
export function nuevoUuidDelTicket(): string {
  uuidEnCurso = uuid();
  return uuidEnCurso;
}
/** When the ticket last changed (background writes wait for a pause in the selling). */
export const ultimoCambioDelTicket = () => ultimoCambio;

type TicketEnCurso = { uuid: string; lineas: LineaVenta[]; seleccion: number | null };

/**
 * At start: the parked tickets, and the ticket in progress as IndexedDB kept it (unless it was paid meanwhile: its
 * uuid in the queue).
 */
export async function restaurarTicket(set: Poner, get: Leer) {
  set({ aparcados: await leerTodo<Aparcado>('aparcados').catch(() => []) });
  const enCurso = await leer<TicketEnCurso>('estado', 'ticket').catch(() => undefined);
  if (enCurso?.lineas.length && !(await leer('tickets', enCurso.uuid).catch(() => undefined))) {
    uuidEnCurso = enCurso.uuid;
    set({ lineas: enCurso.lineas, seleccion: enCurso.seleccion });
  } else if (get().lineas.length) {
    // Taken back from another tab that charged or cleared it: the ticket is what IndexedDB says, none.
    set({ lineas: [], seleccion: null });
  }
}

/** Every change of the ticket on screen is written to IndexedDB at once (with the uuid it will be paid with). */
export function guardarTicketEnCurso(api: StoreApi<TiendaCaja>) {
  api.subscribe((s, antes) => {
    if (s.lineas === antes.lineas && s.seleccion === antes.seleccion) return;
    ultimoCambio = Date.now();
    const t: TicketEnCurso = { uuid: uuidEnCurso, lineas: s.lineas, seleccion: s.seleccion };
    guardarClave('estado', 'ticket', t).catch(() => undefined);
  });
}

/** The ticket in progress and parking: lines added, changed, removed, the ticket cleared, parked and taken back. */
export const porcionTicket: Porcion<'lineas' | 'seleccion' | 'aparcados' | 'añadir' | 'añadirArticulo' | 'cambiarLinea' | 'quitarLinea' | 'anularTicket' | 'aparcar' | 'recuperar'> = (set, get) => ({
  lineas: [],
  seleccion: null,
  aparcados: [],

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

});
