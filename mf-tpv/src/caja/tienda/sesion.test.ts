import { beforeEach, describe, expect, it } from 'vitest';
import { guardarClave, leer, vaciar } from '../../datos/almacen';
import { articuloDePrueba, cajaDePrueba, terminalDePrueba } from '../../pruebas';
import { useCaja } from '../estado';
import type { Sesion } from '../tipos';

/** Pairing and the cashier's session (caja/tienda/sesion.ts): the start, offline too, and «Salir». */
const TERMINAL = terminalDePrueba();
const ANA = { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null } as unknown as Sesion;
let red = false;
const llamadas: string[] = [];

cajaDePrueba(
  (url) => {
    const ac = new URL(url, 'http://x').searchParams.get('ac') ?? '';
    llamadas.push(ac);
    if (!red) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify({ RESULT: '0', data: [] }), { status: 200 });
  },
  () => ({ fase: 'cargando', terminal: null, sesion: null }),
);
beforeEach(async () => {
  red = false;
  llamadas.length = 0;
  await vaciar('aparcados');
});

describe('la sesión de la caja', () => {
  it('sin conexión arranca como se dejó: el terminal y el cajero guardados, vendiendo', async () => {
    await guardarClave('estado', 'terminal', TERMINAL);
    await guardarClave('estado', 'sesion', ANA);
    await useCaja.getState().arrancar();
    expect(useCaja.getState()).toMatchObject({ fase: 'venta', online: false, terminal: TERMINAL, sesion: ANA });
    // Without a cashier kept: «¿quién vende?».
    await guardarClave('estado', 'sesion', undefined);
    await useCaja.getState().arrancar();
    expect(useCaja.getState()).toMatchObject({ fase: 'cajero', sesion: null });
  });

  it('sin conexión y sin emparejar, lo dice: el terminal se empareja con conexión', async () => {
    await useCaja.getState().arrancar();
    expect(useCaja.getState()).toMatchObject({ fase: 'emparejar', error: 'Sin conexión con el servidor: el terminal se empareja con conexión.' });
  });

  it('«Salir» aparca el ticket en pantalla y pide el siguiente cajero; la caja sigue abierta', async () => {
    red = true;
    useCaja.setState({ fase: 'venta', terminal: TERMINAL, sesion: ANA });
    await guardarClave('estado', 'sesion', ANA);
    useCaja.getState().añadirArticulo(articuloDePrueba(1));
    await useCaja.getState().salir();
    expect(llamadas).toContain('cerrarsesion');
    expect(useCaja.getState()).toMatchObject({ fase: 'cajero', sesion: null, lineas: [], bloqueada: false });
    expect(useCaja.getState().aparcados.map((a) => a.total)).toEqual([100]);
    expect(useCaja.getState().terminal?.caja_abierta).toEqual(TERMINAL.caja_abierta);
    expect(await leer('estado', 'sesion')).toBeUndefined();
  });
});
