import { create } from 'zustand';
import { fijarTienda } from './tienda/comun';
import { porcionCatalogo } from './tienda/catalogo';
import { porcionCobro } from './tienda/cobro';
import { porcionDevolucion } from './tienda/devolucion';
import { porcionOperaciones } from './tienda/operaciones';
import { porcionSesion } from './tienda/sesion';
import { porcionSubida } from './tienda/subida';
import { guardarTicketEnCurso, porcionTicket } from './tienda/ticket';
import type { TiendaCaja } from './tienda/tipos';

/**
 * The till's client state (issue 27): one store, its slices by concern in `./tienda/` (pairing and session, the
 * catalogue, the ticket in progress and parking, payment, the upload queue, offline operations, returns). What the
 * screens and the tests import stays here.
 */
export const useCaja = create<TiendaCaja>((set, get) => ({
  set: (p) => set(p),
  ...porcionSesion(set, get),
  ...porcionCatalogo(set, get),
  ...porcionTicket(set, get),
  ...porcionCobro(set, get),
  ...porcionSubida(set, get),
  ...porcionOperaciones(set, get),
  ...porcionDevolucion(set, get),
}));
fijarTienda(useCaja);
guardarTicketEnCurso(useCaja);

export { ahoraIso } from './tienda/comun';
export { limiteTicket, superaLimite } from './tienda/cobro';
export { colaDe, reiniciarCola } from './tienda/subida';
export type { Anotado, Aparcado, Fase, LineaVenta, TiendaCaja } from './tienda/tipos';
export type { EstadoCadena } from './registro';
