import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCaja } from '../caja/estado';
import { IndiceCatalogo } from '../datos/catalogo';
import type { TicketLocal } from '../datos/cola';
import { cajaDePrueba, sinRespuesta, terminalDePrueba } from '../pruebas';
import TicketImpreso from '../venta/TicketImpreso';
import { APERTURA_CAJON, codificar } from './escpos';
import { imprimir } from './impresora';

/** «Imprimir» with an ESC/POS printer (issue 23): WebUSB / WebSerial from the till, the browser's dialog as fallback. */

const buscar = (todo: Uint8Array, parte: number[] | Uint8Array) => {
  const p = [...parte];
  for (let i = 0; i + p.length <= todo.length; i++) if (p.every((b, j) => todo[i + j] === b)) return i;
  return -1;
};

/** A WebUSB printer: one bulk OUT endpoint; what it was sent. */
function impresoraUsb(enviado: Uint8Array[], estado = 'ok') {
  const d = {
    opened: false,
    configuration: null as null | object,
    open: vi.fn(async () => {
      d.opened = true;
    }),
    selectConfiguration: vi.fn(async () => {
      d.configuration = { interfaces: [{ interfaceNumber: 0, alternate: { endpoints: [{ direction: 'in', type: 'bulk', endpointNumber: 2 }, { direction: 'out', type: 'bulk', endpointNumber: 1 }] } }] };
    }),
    claimInterface: vi.fn(async () => undefined),
    releaseInterface: vi.fn(async () => undefined),
    transferOut: vi.fn(async (_ep: number, data: Uint8Array) => {
      enviado.push(data);
      return { status: estado };
    }),
    close: vi.fn(async () => undefined),
  };
  return { getDevices: vi.fn(async () => [] as (typeof d)[]), requestDevice: vi.fn(async () => d), d };
}

const TICKET: TicketLocal = {
  uuid: 'u-1', seq: 1, terminal_id: 7, fecha_hora: '2026-11-27T10:15:00+01:00', estado: 'subido', total: 770, cambio: 230,
  lineas: [{ articulo_id: 1, codigo: 'CAF', nombre: 'Café', tipo_iva: '21', cantidad: 1000, precio: 77000, descuento: 0 }],
  pagos: [{ forma: 'efectivo', importe: 1000 }],
  respuesta: { uuid: 'u-1', id: 1, numero: 'T1 2026/000042', total: 770, huella: 'A'.repeat(64), qr_url: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=T1%202026%2F000042&fecha=27-11-2026&importe=7.70', emision: { entorno: 'produccion', demo: 0, verifactu: 1 } },
} as unknown as TicketLocal;

let print: ReturnType<typeof vi.fn>;
cajaDePrueba((url) => sinRespuesta(new URL(url, 'http://x').searchParams.get('ac')), () => ({ terminal: terminalDePrueba({ impresora: 'usb' }), indice: new IndiceCatalogo([]) }));
beforeEach(() => {
  print = vi.fn();
  vi.stubGlobal('print', print);
});
afterEach(() => {
  delete (navigator as { usb?: unknown }).usb;
  delete (navigator as { serial?: unknown }).serial;
});

describe('impresora ESC/POS (issue 23)', () => {
  it('por USB: el ticket va a la impresora sin diálogo, con su número, su total, el QR y la apertura del cajón (pagado en efectivo)', async () => {
    const enviado: Uint8Array[] = [];
    const usb = impresoraUsb(enviado);
    Object.defineProperty(navigator, 'usb', { value: usb, configurable: true });
    const user = userEvent.setup();
    renderWithShell(<TicketImpreso ticket={TICKET} onCerrar={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Imprimir' }));
    await waitFor(() => expect(enviado).toHaveLength(1));
    const b = enviado[0];
    expect(usb.requestDevice).toHaveBeenCalledWith({ filters: [{ classCode: 7 }, { vendorId: 0x04b8 }] });
    expect(usb.d.transferOut.mock.calls[0][0]).toBe(1);
    expect(buscar(b, codificar('T1 2026/000042'))).toBeGreaterThan(0);
    expect(buscar(b, codificar('7,70 €'))).toBeGreaterThan(0);
    expect(buscar(b, new TextEncoder().encode('numserie=T1%202026%2F000042'))).toBeGreaterThan(0);
    expect(buscar(b, APERTURA_CAJON)).toBe(b.length - 5);
    expect(print).not.toHaveBeenCalled();
    expect(screen.queryByTestId('aviso-impresion')).toBeNull();
  });

  it('pagado con tarjeta, no abre el cajón', async () => {
    const enviado: Uint8Array[] = [];
    Object.defineProperty(navigator, 'usb', { value: impresoraUsb(enviado), configurable: true });
    const user = userEvent.setup();
    renderWithShell(<TicketImpreso ticket={{ ...TICKET, cambio: 0, pagos: [{ forma: 'tarjeta', importe: 770 }] }} onCerrar={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Imprimir' }));
    await waitFor(() => expect(enviado).toHaveLength(1));
    expect(buscar(enviado[0], APERTURA_CAJON)).toBe(-1);
  });

  it('si la impresora falla, lo dice y abre la impresión del navegador', async () => {
    const enviado: Uint8Array[] = [];
    Object.defineProperty(navigator, 'usb', { value: impresoraUsb(enviado, 'stall'), configurable: true });
    const user = userEvent.setup();
    renderWithShell(<TicketImpreso ticket={TICKET} onCerrar={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Imprimir' }));
    expect((await screen.findByTestId('aviso-impresion')).textContent).toBe(
      'No se ha podido imprimir en la impresora del mostrador (la impresora USB no ha aceptado los datos (stall)): se imprime con el navegador.',
    );
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('un navegador sin WebSerial: lo dice y abre la impresión del navegador; el terminal «navegador» abre el diálogo sin más', async () => {
    useCaja.setState({ terminal: terminalDePrueba({ impresora: 'serie' }) });
    const user = userEvent.setup();
    const { unmount } = renderWithShell(<TicketImpreso ticket={TICKET} onCerrar={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Imprimir' }));
    expect((await screen.findByTestId('aviso-impresion')).textContent).toMatch(/este navegador no permite puertos serie/);
    expect(print).toHaveBeenCalledTimes(1);
    unmount();
    expect(await imprimir('navegador', () => new Uint8Array())).toBeNull();
    expect(print).toHaveBeenCalledTimes(2);
  });

  it('por puerto serie: escribe los bytes en el puerto y lo cierra', async () => {
    const escrito: Uint8Array[] = [];
    const puerto = {
      open: vi.fn(async () => undefined),
      close: vi.fn(async () => undefined),
      writable: new WritableStream<Uint8Array>({ write: (c) => void escrito.push(c) }),
    };
    Object.defineProperty(navigator, 'serial', { value: { getPorts: async () => [puerto], requestPort: vi.fn() }, configurable: true });
    const bytes = Uint8Array.from([0x1b, 0x40, 0x41]);
    expect(await imprimir('serie', () => bytes)).toBeNull();
    expect(puerto.open).toHaveBeenCalledWith({ baudRate: 38_400 });
    expect(escrito).toEqual([bytes]);
    expect(puerto.close).toHaveBeenCalled();
    expect(print).not.toHaveBeenCalled();
  });
});
