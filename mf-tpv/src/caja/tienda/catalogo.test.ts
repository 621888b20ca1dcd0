import { beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { vaciar } from '../../datos/almacen';
import { IndiceCatalogo } from '../../datos/catalogo';
import { articuloDePrueba, cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../../pruebas';
import { useCaja } from '../estado';
import { leerCatalogoGuardado } from './catalogo';

/** The catalogue sync (caja/tienda/catalogo.ts): from the server, kept in IndexedDB, read back to sell offline. */
const CAFE = articuloDePrueba(1, { nombre: 'Café', codigo_barras: '8412345678905' });
const PAGINA = { nombre: 'Bebidas', familia_id: null, color: null, botones: [{ posicion: 0, articulo_id: 1, color: null, etiqueta: 'Café' }] };
let red = true;

cajaDePrueba(
  (url) => {
    if (!red) throw new TypeError('Failed to fetch');
    const ac = new URL(url, 'http://x').searchParams.get('ac');
    if (ac === 'articulostpv') return new Response(JSON.stringify({ RESULT: '0', data: [CAFE], siguiente: null }), { status: 200 });
    if (ac === 'listadobotonestpv') return respuestaOk([{ paginas: [PAGINA] }]);
    return sinRespuesta(ac);
  },
  () => ({ terminal: terminalDePrueba(), indice: new IndiceCatalogo([]), paginas: [], catalogoCargado: false, catalogoEnDisco: false }),
);
beforeEach(async () => {
  red = true;
  await vaciar('articulos');
});

describe('el catálogo de la caja', () => {
  it('se descarga con sus botones, se guarda en el navegador y, tras recargar sin conexión, se vende con él', async () => {
    await useCaja.getState().cargarCatalogo();
    expect(useCaja.getState()).toMatchObject({ catalogoCargado: true, catalogoEnDisco: true, paginas: [PAGINA] });
    expect(useCaja.getState().indice.leer('8412345678905')?.articulo.nombre).toBe('Café');
    // A reload without the network: what the store kept.
    red = false;
    useCaja.setState({ indice: new IndiceCatalogo([]), paginas: [], catalogoEnDisco: false });
    await leerCatalogoGuardado(useCaja.setState);
    expect(useCaja.getState().catalogoEnDisco).toBe(true);
    expect(useCaja.getState().paginas).toEqual([PAGINA]);
    expect(useCaja.getState().indice.leer('8412345678905')?.articulo.nombre).toBe('Café');
  });

  it('sin conexión la descarga no borra lo que había: sigue vendiendo con el catálogo en memoria', async () => {
    red = false;
    useCaja.setState({ indice: new IndiceCatalogo([CAFE]) });
    await useCaja.getState().cargarCatalogo();
    expect(useCaja.getState().catalogoCargado).toBe(true);
    expect(useCaja.getState().indice.size).toBe(1);
    useCaja.setState({ indice: new IndiceCatalogo([]) });
    await useCaja.getState().cargarCatalogo();
    await waitFor(() => expect(useCaja.getState().catalogoCargado).toBe(false));
  });
});
