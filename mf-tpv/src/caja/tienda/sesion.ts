import { MESSAGES_TPV } from 'shared/caja';
import { borrar, guardarClave, leer } from '../../datos/almacen';
import { comprobarPinLocal, guardarBloqueo, leerBloqueo, recordarPin } from '../bloqueo';
import * as srv from '../servidor';
import type { Sesion, TerminalTpv } from '../tipos';
import { leerCatalogoGuardado } from './catalogo';
import { colaDe } from './subida';
import { restaurarTicket } from './ticket';
import type { Porcion } from './tipos';

/**
 * Pairing and the cashier's session: the start (offline too, as the till was left), the terminal paired, the cashier
 * in, the caja opened, «Salir», the idle lock and the PIN.
 */
export const porcionSesion: Porcion<
  'fase' | 'terminal' | 'sesion' | 'online' | 'error' | 'bloqueada' | 'arrancar' | 'emparejado' | 'entrar' | 'cajaAbierta' | 'salir' | 'bloquear' | 'desbloquear' | 'cambiarPin'
> = (set, get) => ({
  fase: 'cargando',
  terminal: null,
  sesion: null,
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  error: null,
  bloqueada: false,

  async arrancar() {
    set({ fase: 'cargando', error: null });
    // A till locked before the reload stays locked (issue 23).
    set({ bloqueada: await leerBloqueo() });
    // The catalogue kept from the last time: the till sells at once, even offline.
    await leerCatalogoGuardado(set);
    await restaurarTicket(set, get);
    await get().leerOperaciones();
    let terminal: TerminalTpv | null;
    try {
      terminal = await srv.leerTerminal();
      if (terminal) await guardarClave('estado', 'terminal', terminal);
    } catch (e) {
      if (!(e instanceof srv.SinConexion)) {
        set({ fase: 'emparejar', error: (e as Error).message });
        return;
      }
      // Offline: the terminal and the cashier as they were last time.
      terminal = (await leer<TerminalTpv>('estado', 'terminal')) ?? null;
      const sesion = (await leer<Sesion>('estado', 'sesion')) ?? null;
      if (!terminal) {
        set({ fase: 'emparejar', error: 'Sin conexión con el servidor: el terminal se empareja con conexión.', online: false });
        return;
      }
      set({ terminal, sesion, online: false, fase: sesion ? 'venta' : 'cajero' });
      colaDe(terminal, (c) => set({ cola: c }));
      return;
    }
    if (!terminal) {
      set({ fase: 'emparejar' });
      return;
    }
    await get().emparejado(terminal);
  },

  async emparejado(terminal) {
    set({ terminal, error: null });
    await guardarClave('estado', 'terminal', terminal);
    colaDe(terminal, (c) => set({ cola: c }));
    const sesion = await srv.leerSesion().catch(() => null);
    if (sesion) await get().entrar(sesion);
    else set({ fase: 'cajero' });
  },

  async entrar(sesion) {
    set({ sesion, error: null, bloqueada: false });
    void guardarBloqueo(false);
    await guardarClave('estado', 'sesion', sesion);
    const terminal = get().terminal!;
    void get().cargarCatalogo();
    let abierta = !!terminal.caja_abierta;
    try {
      const t = await srv.leerTerminal();
      if (t) {
        set({ terminal: t });
        await guardarClave('estado', 'terminal', t);
        abierta = !!t.caja_abierta;
      }
    } catch {
      /* offline: as it was */
    }
    set({ fase: abierta ? 'venta' : 'apertura' });
  },

  cajaAbierta(caja) {
    const terminal = get().terminal;
    if (caja && terminal) {
      const t = { ...terminal, caja_abierta: { id: caja.id, apertura: caja.apertura, fondo: caja.fondo, usuario_nombre: get().sesion?.user.nombre ?? null } };
      set({ terminal: t });
      void guardarClave('estado', 'terminal', t);
    }
    set({ fase: 'venta' });
  },

  async salir() {
    // The ticket on screen waits parked for whoever comes next (F9), never dropped.
    if (get().lineas.length) await get().aparcar().catch(() => undefined);
    await srv.salir();
    await borrar('estado', 'sesion').catch(() => undefined);
    await guardarBloqueo(false);
    set({ sesion: null, fase: 'cajero', lineas: [], seleccion: null, bloqueada: false });
  },

  bloquear() {
    if (get().bloqueada || !get().sesion) return;
    set({ bloqueada: true });
    void guardarBloqueo(true);
  },

  async desbloquear(usuarioId, pin) {
    if (!/^\d{4,8}$/.test(pin)) throw new Error(MESSAGES_TPV.pinNoValido);
    const actual = get().sesion;
    try {
      const sesion = await srv.entrarConPin(usuarioId, pin);
      await recordarPin(usuarioId, pin);
      // Another cashier takes over the open caja (the tickets from now on are theirs); the same one goes on.
      set({ sesion });
      await guardarClave('estado', 'sesion', sesion);
    } catch (e) {
      if (!(e instanceof srv.SinConexion)) throw e;
      // Offline: the cashier whose session is open, checked against the PIN this browser kept.
      if (!actual || actual.user.id !== usuarioId) {
        throw new Error(`Sin conexión solo ${actual?.user.nombre ?? 'el cajero que la dejó'} puede desbloquear la caja: otro cajero necesita la conexión.`);
      }
      const ok = await comprobarPinLocal(usuarioId, pin);
      if (ok === null) throw new Error('Sin conexión no se puede comprobar el PIN en este equipo: espere a que vuelva la conexión.');
      if (!ok) throw new Error(MESSAGES_TPV.pinIncorrecto);
    }
    await guardarBloqueo(false);
    set({ bloqueada: false });
  },

  async cambiarPin(nuevo, actualPin) {
    if (!/^\d{4,8}$/.test(nuevo)) throw new Error(MESSAGES_TPV.pinNoValido);
    await srv.cambiarPin(nuevo, actualPin);
    const yo = get().sesion?.user.id;
    if (yo) await recordarPin(yo, nuevo);
  },
});
