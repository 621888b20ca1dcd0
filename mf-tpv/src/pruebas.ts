import { afterEach, beforeEach, vi } from 'vitest';
import { reiniciarCola, useCaja, type TiendaCaja } from './caja/estado';
import type { TerminalTpv } from './caja/tipos';
import { vaciar } from './datos/almacen';
import type { ArticuloTpv } from './datos/catalogo';

/**
 * What the till's tests share (not part of the till): a paired terminal, articles, the server's answers, and a
 * till that starts every test empty.
 */

/** A paired terminal with its caja open (serie T1, production records); `over` changes what a test needs. */
export function terminalDePrueba(over: Partial<TerminalTpv> = {}): TerminalTpv {
  return {
    id: 7,
    nombre: 'Caja 1',
    almacen_id: 1,
    serie_id: 3,
    serie_rectificativa_id: 4,
    cliente_id: null,
    emparejado: '2026-11-26T07:00:00Z',
    formas_pago: ['efectivo', 'tarjeta'],
    fondo: 10000,
    activo: 1,
    numero_instalacion: 'B12345678-TPV7',
    caja_abierta: { id: 1, apertura: '2026-11-26T08:00:00Z', fondo: 10000, usuario_nombre: 'Ana' },
    serie: { id: 3, codigo: 'T1' },
    serie_rectificativa: { id: 4, codigo: 'TR1' },
    emisor: { nif: 'B12345678', nombre: 'Tienda SL' },
    sistema: { nombre: 'Manager TPV', id: 'MT', version: '0.1.0' },
    zona_horaria: 'Europe/Madrid',
    entorno: 'produccion',
    demo: 0,
    verifactu: 1,
    ultimo: { ejercicio: 2026, numero: 0 },
    cadena: null,
    cajeros: [],
    ...over,
  };
}

/** An article at 10,00 € with IVA (21 %), code A{id}. */
export const articuloDePrueba = (id: number, over: Partial<ArticuloTpv> = {}): ArticuloTpv => ({
  id,
  codigo: `A${id}`,
  nombre: `Artículo ${id}`,
  descripcion: `Artículo ${id}`,
  codigo_barras: null,
  precio: 10000,
  tipo_iva: '21',
  ...over,
});

/** op.asp's answer with rows. */
export const respuestaOk = (data: unknown[]) => new Response(JSON.stringify({ RESULT: '0', data }), { status: 200 });

/** op.asp's answer to an action the test's server does not know. */
export const sinRespuesta = (ac: string | null) => new Response(JSON.stringify({ RESULT: '1', message: `sin respuesta de prueba para ${ac}` }), { status: 200 });

/**
 * Every test starts from an empty till: the page's queue forgotten, IndexedDB's tickets and state emptied, `fetch`
 * answered by `servidor`, the store selling (no lines, nothing parked) with what `estado` gives; afterwards the
 * queue stopped and the globals restored.
 */
export function cajaDePrueba(servidor: (url: string, init?: RequestInit) => Response | Promise<Response>, estado: () => Partial<TiendaCaja>) {
  beforeEach(async () => {
    reiniciarCola();
    await vaciar('tickets');
    await vaciar('estado');
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => servidor(url, init)));
    useCaja.setState({ fase: 'venta', sesion: null, paginas: [], lineas: [], seleccion: null, aparcados: [], ultimo: null, ...estado() });
  });
  afterEach(() => {
    reiniciarCola();
    vi.unstubAllGlobals();
  });
}
