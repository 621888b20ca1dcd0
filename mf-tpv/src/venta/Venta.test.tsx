import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import type { EmisionTpv } from 'shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { guardarClave, leer } from '../datos/almacen';
import { IndiceCatalogo } from '../datos/catalogo';
import { eanVariable } from '../datos/ean';
import { useCaja } from '../caja/estado';
import { articuloDePrueba, cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';
import { Venta } from './Venta';

const art = articuloDePrueba;
const ARTICULOS = [
  art(1, { codigo: 'CAF', nombre: 'Café molido', descripcion: 'Café molido natural 250 g', codigo_barras: '4006381333931', precio: 29900 }),
  art(2, { codigo: 'JAM', nombre: 'Jamón cocido', descripcion: 'Jamón cocido al corte', codigo_barras: '2100123', precio: 129500, tipo_iva: '10' }),
  art(3, { codigo: 'PAN', nombre: 'Pan de barra', descripcion: 'Pan de barra', precio: 11000, tipo_iva: '4' }),
];

const TERMINAL = terminalDePrueba({ formas_pago: ['efectivo', 'tarjeta', 'bizum'], cajeros: [{ id: 1, nombre: 'Ana', con_pin: 1 }] });

/** What the server says each record was made for (issue 22): a live company sending, unless a test says otherwise. */
let emisionServidor: EmisionTpv = { entorno: 'produccion', demo: 0, verifactu: 1 };
/** The server's subirtickets: numbers tickets in arrival order; records what arrived. */
let subidos: { uuid: string; pagos: unknown; lineas: unknown[] }[] = [];
function servidor(url: string, init?: RequestInit): Response {
  const ac = new URL(url, 'http://x').searchParams.get('ac');
  if (ac === 'subirtickets') {
    const body = JSON.parse(String(init?.body));
    const data = body.tickets.map((t: { uuid: string; pagos: unknown; lineas: unknown[] }) => {
      subidos.push(t);
      const n = subidos.length;
      const host = emisionServidor.entorno === 'produccion' ? 'www2.agenciatributaria.gob.es' : 'prewww2.aeat.es';
      return {
        uuid: t.uuid, id: n, numero: `T1 2026/${String(n).padStart(6, '0')}`, total: 0, cambio: 0, huella: 'A'.repeat(64), xml: '<x/>',
        qr_url: `https://${host}/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=T1%202026%2F${n}`, fecha_hora_huso: '2026-11-26T10:00:00+01:00', offline: 0, repetido: 0,
        emision: emisionServidor,
      };
    });
    return respuestaOk(data);
  }
  return sinRespuesta(ac);
}

beforeEach(() => {
  subidos = [];
  emisionServidor = { entorno: 'produccion', demo: 0, verifactu: 1 };
});
cajaDePrueba(servidor, () => ({
  terminal: TERMINAL,
  sesion: { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null },
  indice: new IndiceCatalogo(ARTICULOS),
  paginas: [{ nombre: 'Panadería', familia_id: null, color: null, botones: [{ posicion: 0, articulo_id: 3, color: '#fde68a', etiqueta: 'Barra' }] }],
}));

const total = () => screen.getByLabelText('Total del ticket').textContent;
const lineas = () => within(screen.getByRole('listbox', { name: 'Líneas del ticket' })).queryAllByRole('option');

describe('pantalla de venta, solo con el teclado y el escáner', () => {
  it('escanear, sumar una, buscar sin acentos, botón, cobrar en efectivo con cambio', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    const buscador = screen.getByLabelText('Escanear o buscar artículo');
    await waitFor(() => expect(document.activeElement).toBe(buscador));

    // The scanner types the barcode and Enter.
    await user.keyboard('4006381333931{Enter}');
    expect(lineas()).toHaveLength(1);
    expect(total()).toBe('2,99 €');
    // + on the empty box: one more of the selected line.
    await user.keyboard('+');
    expect(total()).toBe('5,98 €');
    expect(lineas()[0].textContent).toContain('2 ×');

    // A weighed label: 0,500 kg of ham at 12,95 €/kg.
    await user.keyboard(`${eanVariable('2100123', 500)}{Enter}`);
    expect(lineas()).toHaveLength(2);
    expect(total()).toBe('12,46 €'); // 5,98 + 6,475 → 6,48

    // Search without accents, pick with the arrows.
    await user.keyboard('jamon');
    expect(screen.getByRole('listbox', { name: 'Resultados de la búsqueda' })).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(lineas()).toHaveLength(3);
    expect(total()).toBe('25,41 €');

    // Delete the selected line (the last).
    await user.keyboard('{Delete}');
    expect(lineas()).toHaveLength(2);

    // A button of the page.
    await user.click(screen.getByRole('button', { name: /Barra/ }));
    expect(total()).toBe('13,56 €');
    expect(document.activeElement).toBe(buscador);

    // Enter on the empty box: pay. 20 € in cash → 6,44 € change.
    await user.keyboard('{Enter}');
    const cobro = await screen.findByRole('dialog', { name: 'Cobrar' });
    expect(within(cobro).getByTestId('cobro-total').textContent).toBe('13,56 €');
    await user.keyboard('20{Enter}');
    expect(await screen.findByTestId('cambio')).toHaveProperty('textContent', expect.stringContaining('6,44 €'));
    expect(await screen.findByTestId('ticket-numero')).toHaveProperty('textContent', expect.stringContaining('T1 2026/000001'));
    expect(screen.getByText('Factura verificable en la sede electrónica de la AEAT')).toBeTruthy();
    expect(subidos).toHaveLength(1);
    expect(subidos[0].pagos).toEqual([{ forma: 'efectivo', importe: 2000 }]);
    expect(subidos[0].lineas).toEqual([
      { articulo_id: 1, cantidad: 2000, precio: 29900, descuento: 0 },
      { articulo_id: 2, cantidad: 500, precio: 129500, descuento: 0 },
      { articulo_id: 3, cantidad: 1000, precio: 11000, descuento: 0 },
    ]);
    // Enter: next customer, the box has the focus again.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lineas()).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(buscador));
  });

  it('pago mixto: tarjeta una parte y el resto en efectivo', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await user.keyboard('3*PAN{Enter}');
    expect(total()).toBe('3,30 €');
    await user.keyboard('{F12}');
    await screen.findByRole('dialog', { name: 'Cobrar' });
    await user.click(screen.getByRole('radio', { name: 'Tarjeta' }));
    await user.keyboard('2{Enter}');
    expect(screen.getByTestId('cobro-pendiente').textContent).toBe('1,30 €');
    await user.click(screen.getByRole('radio', { name: 'Efectivo' }));
    await user.keyboard('{Enter}');
    await screen.findByTestId('ticket-numero');
    expect(subidos[0].pagos).toEqual([
      { forma: 'tarjeta', importe: 200 },
      { forma: 'efectivo', importe: 130 },
    ]);
  });

  it('el ticket impreso lleva arriba el QR y la leyenda de lo que su registro es (issue 22): demostración, en vivo sin envío', async () => {
    const user = userEvent.setup();
    // The demo company: its records are demo, the ticket says it has no fiscal value.
    emisionServidor = { entorno: 'pruebas', demo: 1, verifactu: 0 };
    renderWithShell(<Venta />);
    await user.keyboard('PAN{Enter}{F12}');
    await screen.findByRole('dialog', { name: 'Cobrar' });
    await user.keyboard('{Enter}');
    const impreso = await screen.findByTestId('ticket-impreso');
    expect(within(impreso).getByTestId('ticket-leyenda').textContent).toBe('DEMOSTRACIÓN — sin validez fiscal');
    expect(impreso.textContent).not.toContain('verificable');
    // The QR block comes first, before the ticket's content.
    expect(impreso.firstElementChild?.getAttribute('data-testid')).toBe('ticket-qr');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Live, sending not on yet: the QR with no legend.
    emisionServidor = { entorno: 'produccion', demo: 0, verifactu: 0 };
    await user.keyboard('PAN{Enter}{F12}');
    await screen.findByRole('dialog', { name: 'Cobrar' });
    await user.keyboard('{Enter}');
    const vivo = await screen.findByTestId('ticket-impreso');
    await within(vivo).findByTestId('ticket-numero');
    expect(within(vivo).getByTestId('ticket-qr')).toBeTruthy();
    expect(within(vivo).queryByTestId('ticket-leyenda')).toBeNull();
    expect(vivo.textContent).not.toMatch(/verificable|DEMOSTRACI|PRUEBA/);
  });

  it('un código que no existe lo dice y no añade nada', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await user.keyboard('8400000000000{Enter}');
    expect(screen.getByRole('alert').textContent).toContain('No se encuentra «8400000000000»');
    expect(lineas()).toHaveLength(0);
  });

  it('aparcar y recuperar un ticket', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await user.keyboard('CAF{Enter}{F8}');
    expect(lineas()).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Aparcados (1)' })).toBeTruthy();
    await user.keyboard('PAN{Enter}{F9}');
    await user.click(await screen.findByRole('button', { name: /1 líneas · 2,99 €/ }));
    await waitFor(() => expect(total()).toBe('2,99 €'));
    // The ticket on screen was parked in its place.
    expect(useCaja.getState().aparcados.map((a) => a.total)).toEqual([110]);
  });

  it('sin el derecho «cambiar precio» el precio no se edita y el descuento tiene su máximo', async () => {
    const user = userEvent.setup();
    useCaja.setState({
      sesion: { user: { id: 2, nombre: 'Caja', email: 'c@t.es', rol: { id: 4, nombre: 'Caja', clave: 'caja', derechos: { areas: { tpv: ['ver', 'editar', 'acciones'] }, especiales: [], descuento_maximo: 500 } } }, config: null },
    });
    renderWithShell(<Venta />);
    await user.keyboard('CAF{Enter}{F2}');
    const d = await screen.findByRole('dialog', { name: /Editar/ });
    expect(within(d).getByLabelText('Precio (€, IVA incluido)')).toHaveProperty('disabled', true);
    await user.clear(within(d).getByLabelText('Descuento (%)'));
    await user.type(within(d).getByLabelText('Descuento (%)'), '10{Enter}');
    expect(within(d).getByRole('alert').textContent).toContain('hasta 5 %');
    await user.clear(within(d).getByLabelText('Descuento (%)'));
    await user.type(within(d).getByLabelText('Descuento (%)'), '5{Enter}');
    await waitFor(() => expect(total()).toBe('2,84 €')); // 2,99 − 5 % = 2,8405
  });

  it('una recarga a mitad de venta devuelve el ticket con sus líneas; uno ya cobrado no vuelve para cobrarse dos veces', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await user.keyboard('4006381333931{Enter}4006381333931{Enter}PAN{Enter}');
    expect(total()).toBe('7,08 €');
    // Each change is in IndexedDB without the scan waiting for it.
    const enIdb = () => leer<{ uuid: string; lineas: unknown[] }>('estado', 'ticket');
    await waitFor(async () => expect((await enIdb())?.lineas).toHaveLength(2));
    const guardado = (await enIdb())!;

    // The page dies and a new one starts from what IndexedDB kept.
    const nueva = async (conIdb: typeof guardado) => {
      useCaja.setState({ lineas: [], seleccion: null });
      await guardarClave('estado', 'ticket', conIdb);
      await useCaja.getState().arrancar();
    };
    await nueva(guardado);
    expect(useCaja.getState().lineas.map((l) => [l.codigo, l.cantidad])).toEqual([['CAF', 2000], ['PAN', 1000]]);

    // Paid, then the page dies before the emptied ticket reached IndexedDB: the paid one is not given back.
    useCaja.setState({ fase: 'venta' });
    await useCaja.getState().cobrar([{ forma: 'efectivo', importe: 1000 }]);
    expect(subidos.map((t) => t.uuid)).toEqual([guardado.uuid]);
    await nueva(guardado);
    expect(useCaja.getState().lineas).toEqual([]);
  });
});
