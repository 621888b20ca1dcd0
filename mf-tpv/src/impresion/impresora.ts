import type { ImpresoraTpv } from 'shared';

/**
 * Sends an ESC/POS byte stream to the counter's printer from the browser (issue 23), as the terminal says
 * (`impresora`): WebUSB (`usb`: the printer's bulk OUT endpoint) or WebSerial (`serie`: a serial or USB-serial port).
 * Chromium only, from a secure page (https or localhost). The first time the browser asks which device (a user's
 * click: «Imprimir»); afterwards it remembers the permission and prints without asking. Any failure is an
 * `ErrorImpresora` with the reason: the caller says it and prints through the browser's dialog instead.
 */

export class ErrorImpresora extends Error {}

/** Serial speed of an ESC/POS printer on a serial port (the usual 38.400 bps; the printer's DIP switches may say otherwise). */
export const BAUDIOS = 38_400;

// The two APIs, as much of them as this uses (not in TypeScript's DOM library).
type DispositivoUsb = {
  opened: boolean;
  configuration: { interfaces: { interfaceNumber: number; alternate: { endpoints: { direction: 'in' | 'out'; type: string; endpointNumber: number }[] } }[] } | null;
  open(): Promise<void>;
  selectConfiguration(n: number): Promise<void>;
  claimInterface(n: number): Promise<void>;
  releaseInterface(n: number): Promise<void>;
  transferOut(endpoint: number, data: BufferSource): Promise<{ status: string }>;
  close(): Promise<void>;
};
type Usb = { getDevices(): Promise<DispositivoUsb[]>; requestDevice(o: { filters: { classCode?: number; vendorId?: number }[] }): Promise<DispositivoUsb> };
type PuertoSerie = {
  open(o: { baudRate: number }): Promise<void>;
  close(): Promise<void>;
  writable: WritableStream<Uint8Array> | null;
};
type Serie = { getPorts(): Promise<PuertoSerie[]>; requestPort(): Promise<PuertoSerie> };

/** USB class 7: printers. Epson's vendor id too (its TM printers may present a vendor-specific class). */
const FILTROS_USB = [{ classCode: 7 }, { vendorId: 0x04b8 }];

async function porUsb(bytes: Uint8Array) {
  const usb = (navigator as unknown as { usb?: Usb }).usb;
  if (!usb) throw new ErrorImpresora('este navegador no permite USB (WebUSB: Chrome o Edge, en https)');
  const d = (await usb.getDevices())[0] ?? (await usb.requestDevice({ filters: FILTROS_USB }).catch(() => null));
  if (!d) throw new ErrorImpresora('no se ha elegido ninguna impresora USB');
  if (!d.opened) await d.open();
  if (!d.configuration) await d.selectConfiguration(1);
  const iface = d.configuration?.interfaces.find((i) => i.alternate.endpoints.some((e) => e.direction === 'out' && e.type === 'bulk'));
  if (!iface) throw new ErrorImpresora('el dispositivo USB no es una impresora (sin salida de datos)');
  const salida = iface.alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk')!;
  await d.claimInterface(iface.interfaceNumber);
  try {
    const r = await d.transferOut(salida.endpointNumber, bytes as BufferSource);
    if (r.status !== 'ok') throw new ErrorImpresora(`la impresora USB no ha aceptado los datos (${r.status})`);
  } finally {
    await d.releaseInterface(iface.interfaceNumber).catch(() => undefined);
  }
}

async function porSerie(bytes: Uint8Array) {
  const serial = (navigator as unknown as { serial?: Serie }).serial;
  if (!serial) throw new ErrorImpresora('este navegador no permite puertos serie (WebSerial: Chrome o Edge, en https)');
  const puerto = (await serial.getPorts())[0] ?? (await serial.requestPort().catch(() => null));
  if (!puerto) throw new ErrorImpresora('no se ha elegido ningún puerto serie');
  await puerto.open({ baudRate: BAUDIOS });
  try {
    const w = puerto.writable?.getWriter();
    if (!w) throw new ErrorImpresora('el puerto serie no admite escritura');
    try {
      await w.write(bytes);
    } finally {
      w.releaseLock();
    }
  } finally {
    await puerto.close().catch(() => undefined);
  }
}

/** Prints the bytes on the terminal's ESC/POS printer; an `ErrorImpresora` (with the reason) if it cannot. */
export async function enviarEscPos(impresora: Exclude<ImpresoraTpv, 'navegador'>, bytes: Uint8Array): Promise<void> {
  try {
    if (impresora === 'usb') await porUsb(bytes);
    else await porSerie(bytes);
  } catch (e) {
    if (e instanceof ErrorImpresora) throw e;
    throw new ErrorImpresora((e as Error)?.message || 'error desconocido');
  }
}

/**
 * «Imprimir» at the till: on the terminal's ESC/POS printer when it has one, else (or when it fails) the browser's
 * dialog. Answers what the cashier should read: null when printed as configured, or why it went to the browser.
 */
export async function imprimir(impresora: ImpresoraTpv | undefined, bytes: () => Uint8Array, navegador: () => void = () => window.print()): Promise<string | null> {
  if (!impresora || impresora === 'navegador') {
    navegador();
    return null;
  }
  try {
    await enviarEscPos(impresora, bytes());
    return null;
  } catch (e) {
    navegador();
    return `No se ha podido imprimir en la impresora del mostrador (${(e as Error).message}): se imprime con el navegador.`;
  }
}
