import { almacenColaIdb, esOperacion, type FilaSubida, type TicketLocal } from '../../datos/cola';
import { guardarClave } from '../../datos/almacen';
import * as srv from '../servidor';
import { ahoraIso } from './comun';
import { colaDe } from './subida';
import type { Porcion } from './tipos';

/**
 * Cash movements, the caja's opening and its closing — online at once, or queued in order when the server cannot be
 * reached (or something waits before them) — and the incidences the server left (kept, resolved, never deleted).
 */
export const porcionOperaciones: Porcion<'operaciones' | 'leerOperaciones' | 'abrirCaja' | 'resolverIncidencia' | 'anotarMovimiento' | 'cerrarCaja'> = (set, get) => ({
  operaciones: [],

  async leerOperaciones() {
    const todas = await almacenColaIdb.todos().catch(() => [] as TicketLocal[]);
    set({ operaciones: todas.filter((t) => (esOperacion(t) && t.estado === 'pendiente') || t.estado === 'incidencia').sort((a, b) => a.seq - b.seq) });
  },

  async abrirCaja(fondo, id) {
    const terminal = get().terminal!;
    const q = colaDe(terminal, (c) => set({ cola: c }));
    // A closing prepared offline goes first (the server still has that caja open until it arrives).
    if (navigator.onLine) await q.vaciar();
    if (navigator.onLine && !(await q.pendientes()).length) {
      try {
        get().cajaAbierta(await srv.abrirCaja(terminal.id, fondo));
        return { enCola: false };
      } catch (e) {
        if (!(e instanceof srv.SinConexion)) throw e;
      }
    }
    await q.añadir({
      uuid: id, seq: await q.siguienteSeq(), terminal_id: terminal.id, fecha_hora: ahoraIso(), lineas: [], pagos: [], total: fondo, cambio: 0,
      cajero: get().sesion?.user.nombre, estado: 'pendiente', clase: 'apertura', apertura: { fondo },
    });
    await get().leerOperaciones();
    set({ fase: 'venta' });
    return { enCola: true };
  },

  async resolverIncidencia(id) {
    const t = (await almacenColaIdb.todos()).find((x) => x.uuid === id);
    if (t?.estado !== 'incidencia') return;
    await almacenColaIdb.guardar({ ...t, estado: 'resuelta', resuelta: { fecha: ahoraIso(), por: get().sesion?.user.nombre ?? null } });
    await get().leerOperaciones();
  },

  async anotarMovimiento(importe, motivo, id) {
    const terminal = get().terminal!;
    const q = colaDe(terminal, (c) => set({ cola: c }));
    if (navigator.onLine && !(await q.pendientes()).length) {
      try {
        const m = await srv.movimientoCaja(terminal.id, importe, motivo, id);
        return { enCola: false, fila: { uuid: id, id: Number((m as { id?: number }).id ?? 0), numero: '', total: importe, huella: '', qr_url: '' } };
      } catch (e) {
        // Refused (a withdrawal beyond the drawer…): said as it is. No answer: queued with the same uuid (if it did arrive, the upload finds it).
        if (!(e instanceof srv.SinConexion)) throw e;
      }
    }
    await q.añadir({
      uuid: id, seq: await q.siguienteSeq(), terminal_id: terminal.id, fecha_hora: ahoraIso(), lineas: [], pagos: [], total: importe, cambio: 0,
      cajero: get().sesion?.user.nombre, estado: 'pendiente', clase: 'movimiento', movimiento: { importe, motivo, caja_id: terminal.caja_abierta?.id ?? null },
    });
    await get().leerOperaciones();
    return { enCola: true };
  },

  async cerrarCaja(contado, denominaciones, id) {
    const terminal = get().terminal!;
    const q = colaDe(terminal, (c) => set({ cola: c }));
    const cajaId = terminal.caja_abierta?.id ?? null;
    const fin = async () => {
      const t = { ...terminal, caja_abierta: null };
      set({ terminal: t });
      await guardarClave('estado', 'terminal', t);
    };
    if (navigator.onLine && !(await q.pendientes()).length) {
      try {
        const c = await srv.cerrarCaja(terminal.id, contado, denominaciones, { caja_id: cajaId });
        await fin();
        return { enCola: false, fila: { uuid: id, id: c.id ?? 0, numero: `Cierre nº ${c.codigo}`, total: c.total, huella: '', qr_url: '', codigo: c.codigo, cierre: c } as FilaSubida };
      } catch (e) {
        if (!(e instanceof srv.SinConexion)) throw e;
      }
    }
    // Prepared here: sent after every ticket, return and movement queued before it, so its Z includes them all.
    await q.añadir({
      uuid: id, seq: await q.siguienteSeq(), terminal_id: terminal.id, fecha_hora: ahoraIso(), lineas: [], pagos: [], total: 0, cambio: 0,
      cajero: get().sesion?.user.nombre, estado: 'pendiente', clase: 'cierre', cierre: { caja_id: cajaId, contado, denominaciones },
    });
    await fin();
    await get().leerOperaciones();
    return { enCola: true };
  },

});
