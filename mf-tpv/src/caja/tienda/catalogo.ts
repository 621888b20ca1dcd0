import { enReposo, guardarClave, leer, leerTodo, reemplazar } from '../../datos/almacen';
import { IndiceCatalogo, type ArticuloTpv } from '../../datos/catalogo';
import * as srv from '../servidor';
import type { PaginaTpv } from '../tipos';
import { ultimoCambioDelTicket } from './ticket';
import type { Estado, Poner, Porcion, TiendaCaja } from './tipos';

/**
 * A pause in the selling: a second without a change to the ticket, then an idle moment of the page. Background
 * writes (the catalogue's copy) go there, never between two scans of a customer's basket.
 */
async function pausaEnLaVenta() {
  for (let falta = 1000; falta > 0; falta = ultimoCambioDelTicket() + 1000 - Date.now()) await new Promise((r) => setTimeout(r, falta));
  await enReposo();
}

/** The catalogue as the IndexedDB store holds it (read at start, or last written whole); null when unknown. */
let catalogoGuardado: ArticuloTpv[] | null = null;

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

/** At start: the catalogue and the buttons kept from the last time — the till sells at once, even offline. */
export async function leerCatalogoGuardado(set: Poner) {
  const guardados = await leerTodo<ArticuloTpv>('articulos').catch(() => null);
  catalogoGuardado = guardados;
  if (guardados?.length) set({ indice: new IndiceCatalogo(guardados) });
  const paginas = await leer<PaginaTpv[]>('estado', 'paginas').catch(() => undefined);
  if (paginas) set({ paginas });
  set({ catalogoEnDisco: !!guardados?.length && !!paginas });
}

/** The catalogue sync: the articles and the buttons, from the server and kept for selling offline. */
export const porcionCatalogo: Porcion<'indice' | 'catalogoCargado' | 'catalogoEnDisco' | 'paginas' | 'cargarCatalogo'> = (set, get) => ({
  indice: new IndiceCatalogo([]),
  catalogoCargado: false,
  catalogoEnDisco: false,
  paginas: [],

  cargarCatalogo() {
    // One download at a time (the cashier's entry and the server coming back may both ask).
    cargaCatalogo ??= cargarCatalogoAhora(get, set).finally(() => {
      cargaCatalogo = null;
    });
    return cargaCatalogo;
  },

});
