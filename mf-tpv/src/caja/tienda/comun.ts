import type { StoreApi } from 'zustand';
import type { TiendaCaja } from './tipos';

export const uuid = () => crypto.randomUUID();

/** Offset ISO time ('2026-11-26T10:15:00+01:00'): when the ticket was sold, as the till's clock says. */
export function ahoraIso(d = new Date()): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 19);
  return `${local}${sign}${pad(off / 60)}:${pad(off % 60)}`;
}

let api: StoreApi<TiendaCaja> | null = null;

/** The store, for what runs outside an action (the queue's uploads and answers). Set once, when `useCaja` is made. */
export function fijarTienda(t: StoreApi<TiendaCaja>) {
  api = t;
}
export function tienda(): StoreApi<TiendaCaja> {
  if (!api) throw new Error('La caja aún no está creada.');
  return api;
}
