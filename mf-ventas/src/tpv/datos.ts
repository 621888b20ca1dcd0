import { BLOQUEO_MINUTOS_TPV, FORMAS_PAGO_TPV, MESSAGES_TPV, terminalSchema as terminalSchemaServidor } from 'shared';
import type { CierreTpv as CierreTpvServidor, FieldErrors, ImpresoraTpv, Schema, Terminal } from 'shared';

/**
 * The back office's side of the TPV (issue 13): terminals, till buttons and cash closings, as the server's
 * actions answer them (docs/tpv-servidor.md). Money in cents, quantities in thousandths, as everywhere.
 */

export const FORMAS_TPV = FORMAS_PAGO_TPV;
export { formaTpvLabel } from 'shared';

export type { Terminal };

/** The form of a terminal: selects hold ids as text, the float is a scaled integer (or the text typed). */
export type TerminalValues = {
  nombre: string;
  almacen_id: string;
  serie_id: string;
  serie_rectificativa_id: string;
  cliente_id: string;
  cliente_nombre: string;
  numero_instalacion: string;
  formas_pago: string[];
  fondo: bigint | string | null;
  /** Issue 23: blind count at the closing. */
  arqueo_ciego: 0 | 1;
  /** Issue 23: minutes without use before the till locks (0 = never), as typed. */
  bloqueo_minutos: string;
  /** Issue 23: how the till prints (the browser's dialog, or ESC/POS by WebUSB / WebSerial). */
  impresora: ImpresoraTpv;
  activo: 0 | 1;
};

export const TERMINAL_VACIO: TerminalValues = {
  nombre: '',
  almacen_id: '',
  serie_id: '',
  serie_rectificativa_id: '',
  cliente_id: '',
  cliente_nombre: '',
  numero_instalacion: '',
  formas_pago: ['efectivo', 'tarjeta'],
  fondo: 0n,
  arqueo_ciego: 0,
  bloqueo_minutos: String(BLOQUEO_MINUTOS_TPV),
  impresora: 'navegador',
  activo: 1,
};

const { id: _id, ...camposTerminal } = terminalSchemaServidor;
/** `editarterminal`'s fields as the server checks them (shared/domain/tpv.ts); here the float can't be left empty. */
export const terminalSchema = { ...camposTerminal, fondo: { ...camposTerminal.fondo, required: true } } satisfies Schema;

export const MENSAJE_FORMAS = MESSAGES_TPV.formasPagoRequeridas;

/** The terminal's payment methods as a list, whichever way the server wrote them. */
export function formasDe(t: { formas_pago: readonly string[] | string | null }): string[] {
  const f = t.formas_pago;
  if (typeof f !== 'string') return [...(f ?? [])];
  return f.split(',').map((x) => x.trim()).filter(Boolean);
}

export function terminalValues(t: Terminal): TerminalValues {
  return {
    nombre: t.nombre,
    almacen_id: String(t.almacen_id ?? ''),
    serie_id: String(t.serie_id ?? ''),
    serie_rectificativa_id: String(t.serie_rectificativa_id ?? ''),
    cliente_id: t.cliente_id ? String(t.cliente_id) : '',
    cliente_nombre: t.cliente_nombre ?? '',
    numero_instalacion: t.numero_instalacion ?? '',
    formas_pago: formasDe(t),
    fondo: BigInt(t.fondo ?? 0),
    arqueo_ciego: t.arqueo_ciego === 1 ? 1 : 0,
    bloqueo_minutos: String(t.bloqueo_minutos ?? BLOQUEO_MINUTOS_TPV),
    impresora: t.impresora ?? 'navegador',
    activo: t.activo,
  };
}

/** What the schema can't say: at least one payment method. */
export function comprobarTerminal(v: TerminalValues): FieldErrors {
  return v.formas_pago.length ? {} : { formas_pago: MENSAJE_FORMAS };
}

/** The body of `editarterminal` from the schema-checked values. */
export function cuerpoTerminal(validated: Record<string, unknown>, v: TerminalValues, id?: number): Record<string, unknown> {
  return {
    ...(id ? { id } : {}),
    ...validated,
    // In the order of FORMAS_TPV, whatever order they were ticked in.
    formas_pago: FORMAS_TPV.filter((f) => v.formas_pago.includes(f)),
  };
}

/** The one-time pairing code: typed on the till, valid until `expira`. */
export type CodigoVinculo = { terminal_id?: number; codigo: string; expira: string };

/** The pairing-code action (docs/tpv-servidor.md): `{ id }` → `{ terminal_id, codigo, expira }`; a new one replaces the last. */
export const AC_VINCULAR = 'codigoterminal';

/* ── Botones TPV ───────────────────────────────────────────────────────────── */

/** The palette offered for buttons and page tabs; the till paints the colour as stored (`#rrggbb`, the server's rule). */
export const COLORES_BOTON = [
  { value: '#e2e8f0', label: 'Gris' },
  { value: '#2563eb', label: 'Azul' },
  { value: '#16a34a', label: 'Verde' },
  { value: '#facc15', label: 'Amarillo' },
  { value: '#ea580c', label: 'Naranja' },
  { value: '#dc2626', label: 'Rojo' },
  { value: '#7c3aed', label: 'Morado' },
  { value: '#db2777', label: 'Rosa' },
] as const;
export const COLOR_POR_DEFECTO = COLORES_BOTON[0].value;

/** A stored colour as the till paints it: its background (the default grey if none or not `#rrggbb`) and a legible text colour. */
export function colorBoton(c: string | null | undefined): { fondo: string; texto: string } {
  const fondo = c && /^#[0-9a-f]{6}$/i.test(c) ? c.toLowerCase() : COLOR_POR_DEFECTO;
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(fondo.slice(i, i + 2), 16));
  // Perceived luminance (ITU-R BT.601): dark text on light colours, white on dark ones.
  return { fondo, texto: r * 0.299 + g * 0.587 + b * 0.114 > 160 ? '#0f172a' : '#ffffff' };
}

/**
 * One button of a page: an article. `listadobotonestpv` answers in `etiqueta` the label the till shows (the button's
 * own, else the article's «Nombre en el TPV», else its description); `nombre_tpv` / `descripcion`, when given, tell
 * the own label apart.
 */
export type BotonTpv = {
  articulo_id: number;
  codigo?: string | null;
  descripcion?: string | null;
  nombre_tpv?: string | null;
  etiqueta: string | null;
  color: string | null;
  /** 0-based, unique in the page. */
  posicion: number;
  /** IVA included, cents. */
  precio?: number | null;
};

/** A page of the till: its own buttons, or a family's articles (`familia_id`). */
export type PaginaTpv = {
  id?: number;
  orden?: number;
  nombre: string;
  familia_id: number | null;
  familia_nombre?: string | null;
  color: string | null;
  botones: BotonTpv[];
};

/** `listadobotonestpv`'s row: the set shown for a terminal (its own, `propias` 1, else the shared one) or the shared one. */
export type BotonesTpv = { terminal_id: number | null; propias?: 0 | 1; paginas: PaginaTpv[] };

/** What the till shows on a button: its label, else the article's TPV name, else its description. */
export function textoBoton(b: BotonTpv): string {
  return b.etiqueta?.trim() || b.nombre_tpv?.trim() || b.descripcion || b.codigo || `#${b.articulo_id}`;
}

/* ── Cierres TPV ───────────────────────────────────────────────────────────── */

/** A closing as `listadocierrestpv` answers it (shared/domain/tpv.ts): a made one has its id, code and closing time. */
export type CierreTpv = CierreTpvServidor & { id: number; codigo: number; cierre: string };
