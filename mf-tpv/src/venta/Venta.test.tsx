import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import type { EmisionTpv } from 'shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { almacenColaIdb } from '../datos/cola';
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
/** The server's refusal of the next upload (null: accepted). */
let rechazo: string | null = null;
function servidor(url: string, init?: RequestInit): Response {
  const ac = new URL(url, 'http://x').searchParams.get('ac');
  if (ac === 'subirtickets' && rechazo) return new Response(JSON.stringify({ RESULT: '1', message: rechazo }), { status: 400 });
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
  rechazo = null;
  emisionServidor = { entorno: 'produccion', demo: 0, verifactu: 1 };
});
cajaDePrueba(servidor, () => ({
  terminal: TERMINAL,
  sesion: { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null },
  indice: new IndiceCatalogo(ARTICULOS),
  paginas: [{ nombre: 'Panadería', familia_id: null, color: null, botones: [{ posicion: 0, articulo_id: 3, color: '#fde68a', etiqueta: 'Barra' }] }],
}));

const total = () => screen.getByLabelText('Total del ticket').textContent;
const lineas = () => {
  const lista = screen.queryByRole('listbox', { name: 'Líneas del ticket' });
  return lista ? within(lista).queryAllByRole('option') : [];
};

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

  it('las teclas de la caja valen tenga el foco lo que lo tenga: F12 tras tocar un botón, el lector tras tocar una línea', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    const barra = screen.getByRole('button', { name: /Barra/ });
    await user.click(barra);
    await user.click(barra);
    expect(total()).toBe('2,20 €');
    // The button keeps the focus (a touch screen, a mouse that never leaves it): F12 pays all the same.
    barra.focus();
    expect(document.activeElement).toBe(barra);
    await user.keyboard('{F12}');
    const cobro = await screen.findByRole('dialog', { name: 'Cobrar' });
    // Inside the dialog its own keys rule: F8 does not park the ticket under it.
    await user.keyboard('{F8}');
    expect(useCaja.getState().aparcados).toHaveLength(0);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cobro.isConnected).toBe(false);

    // A line tapped holds the focus: the scanner's digits and its Enter still land in the search box.
    const linea = lineas()[0] as HTMLElement;
    linea.focus();
    await user.keyboard('4006381333931{Enter}');
    expect(lineas()).toHaveLength(2);
    expect(total()).toBe('5,19 €');
    // A button reached with the keyboard keeps its Enter: «Aparcar» parks, it does not pay.
    screen.getByRole('button', { name: /Aparcar/ }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(useCaja.getState().aparcados).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: 'Cobrar' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Aparcados (1)' }));
    await user.click(await screen.findByRole('button', { name: /2 líneas · 5,19 €/ }));
    await waitFor(() => expect(lineas()).toHaveLength(2));
    // F8 from the page itself (nothing focused) parks it.
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{F8}');
    await waitFor(() => expect(useCaja.getState().aparcados).toHaveLength(1));
    expect(lineas()).toHaveLength(0);
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

describe('botones que funcionan (issue 23)', () => {
  it('una página de familia muestra los artículos activos de la familia, por nombre, y vende con un toque', async () => {
    const user = userEvent.setup();
    useCaja.setState({
      indice: new IndiceCatalogo([
        art(11, { codigo: 'TOR-M4-20', nombre: 'Tornillo hex. M4 x 20 inox.', descripcion: 'Tornillo hexagonal M4 x 20 inoxidable (bolsa 50)', precio: 49500, familia_id: 7 }),
        art(12, { codigo: 'ARA-M8', nombre: 'Arandela plana M8 acero', descripcion: 'Arandela plana M8 acero (bolsa 100)', precio: 27500, familia_id: 7 }),
        art(13, { codigo: 'ESM-BL750', nombre: 'Esmalte sint. blanco', descripcion: 'Esmalte sintético blanco brillante 750 ml', precio: 129500, familia_id: 8 }),
      ]),
      paginas: [
        { nombre: 'Ferretería', familia_id: 7, color: '#fde68a', botones: [] },
        { nombre: 'Vacía', familia_id: 9, color: null, botones: [] },
      ],
    });
    renderWithShell(<Venta />);
    const botonera = screen.getByLabelText('Botones: Ferretería');
    expect(within(botonera).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ' '))).toEqual(['Arandela plana M8 acero2,75 €', 'Tornillo hex. M4 x 20 inox.4,95 €']);
    await user.click(within(botonera).getByRole('button', { name: /Tornillo/ }));
    expect(total()).toBe('4,95 €');
    await user.click(screen.getByRole('tab', { name: 'Vacía' }));
    expect(screen.getByText('La familia no tiene artículos activos.')).toBeTruthy();
  });
});

describe('lo que se imprime, los libros lo guardan (issue 23)', () => {
  it('un ticket que supera el límite de la factura simplificada se para antes del cobro, con el motivo y la salida', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    // 40 × 12,95 € = 518,00 €.
    await user.keyboard('40*JAM{Enter}');
    expect(total()).toBe('518,00 €');
    const aviso = screen.getByTestId('supera-limite').textContent!;
    expect(aviso).toMatch(/Este ticket \(518,00\s€\) supera el límite de la factura simplificada \(400,00\s€ IVA incluido\)/);
    expect(aviso).toContain('factura completa');
    expect(screen.getByRole('button', { name: /^Cobrar/ })).toHaveProperty('disabled', true);
    // F12 and Enter don't open the payment either: nothing is charged, printed or sent.
    await user.keyboard('{F12}{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await expect(useCaja.getState().cobrar([{ forma: 'efectivo', importe: 51_800 }])).rejects.toThrow(/supera el límite de la factura simplificada/);
    expect(subidos).toEqual([]);
    expect(await almacenColaIdb.todos()).toEqual([]);
    expect(useCaja.getState().lineas).toHaveLength(1);
  });

  it('con la opción de la empresa (3.000 €) el mismo ticket se cobra', async () => {
    useCaja.setState({ terminal: { ...TERMINAL, limite_simplificada: 300_000 } });
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    await user.keyboard('40*JAM{Enter}');
    expect(screen.queryByTestId('supera-limite')).toBeNull();
    await user.keyboard('{F12}');
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('un ticket cobrado con conexión que el servidor rechaza no se imprime: el motivo se dice y la venta sigue en pantalla', async () => {
    rechazo = 'Su rol no permite cambiar el precio de un artículo en un documento. (línea 1)';
    useCaja.getState().añadirArticulo(ARTICULOS[0]);
    await expect(useCaja.getState().cobrar([{ forma: 'efectivo', importe: 299 }])).rejects.toThrow(rechazo);
    expect(useCaja.getState().lineas).toHaveLength(1);
    expect(useCaja.getState().ultimo).toBeNull();
    const [t] = await almacenColaIdb.todos();
    expect(t).toMatchObject({ estado: 'rechazado', incidencia: rechazo });
    expect(t.registro).toBeUndefined();
    // Charged again once fixed: a new uuid, never the refused one.
    rechazo = null;
    const otro = await useCaja.getState().cobrar([{ forma: 'efectivo', importe: 299 }]);
    expect(otro.uuid).not.toBe(t.uuid);
    expect(otro.estado).toBe('subido');
  });

  it('sin conexión y con el reloj atrasado respecto al último registro, no vende: lo dice y no hace registro', async () => {
    const año = new Date().getFullYear();
    const futuro = new Date(Date.now() + 60 * 60_000);
    const hh = futuro.toLocaleString('sv-SE', { timeZone: 'Europe/Madrid' }).replace(' ', 'T');
    const off = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Madrid', timeZoneName: 'longOffset' }).formatToParts(futuro).find((p) => p.type === 'timeZoneName')!.value.replace('GMT', '') || '+00:00';
    useCaja.setState({
      terminal: { ...TERMINAL, ultimo: { ejercicio: año, numero: 9 }, cadena: { huella: 'B'.repeat(64), num_serie: `T1 ${año}/000009`, fecha_expedicion: '01-01-2026', fecha_hora_huso: `${hh}${off}` } },
    });
    const linea = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      useCaja.getState().añadirArticulo(ARTICULOS[2]);
      await expect(useCaja.getState().cobrar([{ forma: 'efectivo', importe: 110 }])).rejects.toThrow(/El reloj de este equipo .* va por detrás del último registro de la caja .*: sin conexión no se puede vender con el reloj atrasado/);
      expect(await almacenColaIdb.todos()).toEqual([]);
      expect(useCaja.getState().lineas).toHaveLength(1);
    } finally {
      linea.mockRestore();
    }
  });
});
