import type { Articulo, TipoIva } from '../domain/catalogo';
import { divRound, parseDecimal } from '../domain/decimal';
import type { Operacion } from '../domain/operaciones';
import { calcularTotales, type DocumentoLinea, type LineaInput, type LineaModo, type MotivoPerdida, type Totales } from '../domain/documentos';

/**
 * The lines of a document while they are edited: a local `key` per line (a new line has no id yet),
 * numbers as scaled integers (BigInt) or, while the user types something that is not a number, that text.
 */

/** A scaled integer, null when the box is empty, or the text typed when it isn't a number. */
export type DecimalValue = bigint | string | null;

export type LineaEditable = {
  /** Local identity: React key, focus target, reducer address. */
  key: string;
  /** The document's own line id once saved (partial receipts send it back). */
  id?: number;
  articulo_id: number;
  codigo: string;
  descripcion: string;
  tipo_iva: TipoIva;
  /** Thousandths. Inventario: the counted quantity. */
  cantidad: DecimalValue;
  /** Ten-thousandths: unit cost or price. */
  precio: DecimalValue;
  /** Hundredths of a percent. */
  descuento: DecimalValue;
  ubicacion_id: number | null;
  motivo: MotivoPerdida | null;
  /** Inventario: the theoretical stock (thousandths) when known. */
  teorico: number | null;
  /** What is still to be received / served (thousandths), from the server. */
  pendiente?: number;
  /** The other document's line this one comes from (a devolución's albarán line): kept when saved again. */
  origen_linea_id?: number | null;
  /** Sales lines (issue 16): S1, S2, E1-E6, N1, N2 (null: the server's default). */
  operacion?: Operacion | null;
};

/** What the lines editor needs of an article (`listadoarticulos` rows). */
export type ArticuloLinea = Pick<Articulo, 'id' | 'codigo' | 'descripcion' | 'tipo_iva'> &
  Partial<Pick<Articulo, 'operacion' | 'precio_compra' | 'precio_venta' | 'tarifa_2' | 'tarifa_3' | 'precio_medio_compra' | 'stock_total' | 'codigo_barras' | 'activo'>>;

/** Warehouse documents value their lines at cost and let the server fill the average cost in. */
export const MODOS_ALMACEN: readonly LineaModo[] = ['coste', 'recuento', 'perdida'];
export const esModoAlmacen = (modo: LineaModo) => MODOS_ALMACEN.includes(modo);

export const UNO = 1000n;

let seq = 0;
/** A fresh local line key. */
export const nuevaClaveLinea = () => `l${++seq}`;

/**
 * Default unit price of a new line by mode: the average (or last) cost for stock, the tariff for sales. A purchase line
 * of an article answered without its purchase price (a role that doesn't see costs) has none: the server puts it.
 */
export function precioPorDefecto(a: ArticuloLinea, modo: LineaModo): bigint | null {
  if (modo === 'venta') return BigInt(a.precio_venta ?? 0);
  if (modo === 'compra') return a.precio_compra === undefined || a.precio_compra === null ? null : BigInt(a.precio_compra);
  return BigInt(a.precio_medio_compra || a.precio_compra || 0);
}

export function lineaDesdeArticulo(a: ArticuloLinea, modo: LineaModo, extra: Partial<LineaEditable> = {}): LineaEditable {
  return {
    key: nuevaClaveLinea(),
    articulo_id: a.id,
    codigo: a.codigo,
    descripcion: a.descripcion,
    tipo_iva: a.tipo_iva,
    cantidad: UNO,
    precio: precioPorDefecto(a, modo),
    descuento: 0n,
    ubicacion_id: null,
    motivo: null,
    teorico: null,
    ...extra,
  };
}

export function lineaDesdeDocumento(l: DocumentoLinea): LineaEditable {
  return {
    key: nuevaClaveLinea(),
    id: l.id,
    articulo_id: l.articulo_id,
    codigo: l.codigo,
    descripcion: l.descripcion,
    tipo_iva: l.tipo_iva,
    cantidad: BigInt(l.cantidad),
    // Issue 24: a document at cost read by a role without ver_costes comes without prices nor discounts (null: unknown,
    // and not sent back — the server keeps the saved ones).
    precio: l.precio === undefined || l.precio === null ? null : BigInt(l.precio),
    descuento: l.descuento === undefined ? null : BigInt(l.descuento ?? 0),
    ubicacion_id: l.ubicacion_id,
    motivo: l.motivo,
    teorico: l.teorico,
    pendiente: l.pendiente,
    ...(l.origen_linea_id ? { origen_linea_id: l.origen_linea_id } : {}),
    ...(l.operacion ? { operacion: l.operacion } : {}),
  };
}

export type LineasAction =
  | { type: 'reset'; lineas: LineaEditable[] }
  | { type: 'add'; lineas: LineaEditable[]; /** Recuento: the same article (and location) adds its quantity to its line. */ sumar?: boolean }
  | { type: 'update'; key: string; patch: Partial<Omit<LineaEditable, 'key'>> }
  | { type: 'remove'; key: string }
  | { type: 'move'; key: string; delta: -1 | 1 };

const num = (v: DecimalValue): bigint => (typeof v === 'bigint' ? v : 0n);

/** The lines' reducer: every change replaces only the line it touches, so the other rows keep their object and don't redraw. */
export function lineasReducer(state: LineaEditable[], action: LineasAction): LineaEditable[] {
  switch (action.type) {
    case 'reset':
      return action.lineas;
    case 'add': {
      if (!action.sumar) return [...state, ...action.lineas];
      const next = [...state];
      for (const l of action.lineas) {
        const i = next.findIndex((x) => x.articulo_id === l.articulo_id && x.ubicacion_id === l.ubicacion_id);
        if (i < 0) next.push(l);
        else next[i] = { ...next[i], cantidad: num(next[i].cantidad) + num(l.cantidad) };
      }
      return next;
    }
    case 'update': {
      const i = state.findIndex((l) => l.key === action.key);
      if (i < 0) return state;
      const next = [...state];
      next[i] = { ...next[i], ...action.patch };
      return next;
    }
    case 'remove':
      return state.filter((l) => l.key !== action.key);
    case 'move': {
      const i = state.findIndex((l) => l.key === action.key);
      const j = i + action.delta;
      if (i < 0 || j < 0 || j >= state.length) return state;
      const next = [...state];
      [next[i], next[j]] = [next[j], next[i]];
      return next;
    }
  }
}

/** Totals of the lines as typed (lines whose numbers are not valid yet count as 0). Warehouse modes: value at cost, no IVA. */
export function totalesLineas(lineas: readonly LineaEditable[], modo: LineaModo, opciones: { retencion?: number; recargo?: boolean } = {}): Totales {
  return calcularTotales(
    lineas.map((l) => ({
      cantidad: num(l.cantidad),
      precio: num(l.precio),
      descuento: num(l.descuento),
      tipo_iva: l.tipo_iva,
      // Sales (issue 16): grouped by operation as the server does; a line without one stays as before.
      ...(modo === 'venta' && l.operacion ? { operacion: l.operacion } : {}),
    })),
    { ...opciones, iva: !esModoAlmacen(modo) },
  );
}

/** Messages of the client-side check of the lines (the server says the same in its 400). */
export const LINEA_MENSAJES = {
  cantidad: 'La cantidad debe ser un número mayor que cero',
  cantidadRecuento: 'La cantidad contada debe ser un número (0 o más)',
  /** Recuento: a line loaded with its theoretical stock and not counted yet. */
  sinContar: 'Sin contar: escanee el artículo o escriba lo contado (0 si no hay ninguno)',
  numero: 'Debe ser un número válido',
  motivo: 'Indique el motivo de la pérdida',
  sinLineas: 'Añada al menos una línea',
  /** Invoices (`negativas`): a line may reduce, but not be zero. */
  cantidadDistintaDeCero: 'La cantidad debe ser un número distinto de cero',
} as const;

/**
 * Checks the lines before sending; errors keyed as the server's (`lineas.3.cantidad`). With `negativas`
 * (invoices: hfa's returned units, a rectificativa by differences) a quantity may be negative, not zero.
 */
export function validarLineas(lineas: readonly LineaEditable[], modo: LineaModo, opciones: { negativas?: boolean } = {}): Record<string, string> {
  const errors: Record<string, string> = {};
  lineas.forEach((l, i) => {
    const c = l.cantidad;
    if (opciones.negativas) {
      if (typeof c !== 'bigint' || c === 0n) errors[`lineas.${i}.cantidad`] = LINEA_MENSAJES.cantidadDistintaDeCero;
    } else if (modo === 'recuento') {
      if (c === null && l.teorico !== null) errors[`lineas.${i}.cantidad`] = LINEA_MENSAJES.sinContar;
      else if (typeof c !== 'bigint' || c < 0n) errors[`lineas.${i}.cantidad`] = LINEA_MENSAJES.cantidadRecuento;
    } else if (typeof c !== 'bigint' || c <= 0n) errors[`lineas.${i}.cantidad`] = LINEA_MENSAJES.cantidad;
    if (!esModoAlmacen(modo)) {
      // No price at all (null): the server takes the article's (a purchase line of a role that doesn't see costs).
      if (l.precio !== null && (typeof l.precio !== 'bigint' || l.precio < 0n)) errors[`lineas.${i}.precio`] = LINEA_MENSAJES.numero;
      if (l.descuento !== null && (typeof l.descuento !== 'bigint' || l.descuento < 0n || l.descuento > 10000n))
        errors[`lineas.${i}.descuento`] = LINEA_MENSAJES.numero;
    }
    if (modo === 'perdida' && !l.motivo) errors[`lineas.${i}.motivo`] = LINEA_MENSAJES.motivo;
  });
  return errors;
}

/** The `lineas` of `editar<entidad>`. Warehouse modes send no price: the server values them at the article's average cost. */
export function lineasAInput(lineas: readonly LineaEditable[], modo: LineaModo): LineaInput[] {
  return lineas.map((l) => {
    const input: LineaInput = { articulo_id: l.articulo_id, cantidad: Number(num(l.cantidad)), ubicacion_id: l.ubicacion_id };
    if (!esModoAlmacen(modo)) {
      if (l.precio !== null) input.precio = Number(num(l.precio));
      if (l.descuento !== null) input.descuento = Number(num(l.descuento));
      input.descripcion = l.descripcion;
    }
    if (modo === 'perdida') input.motivo = l.motivo;
    if (modo === 'venta' && l.operacion) input.operacion = l.operacion;
    if (l.origen_linea_id) input.origen_linea_id = l.origen_linea_id;
    return input;
  });
}

/** Line errors of a 400 answer by line index: { 3: { cantidad: '…' } }; `lineas` alone is a general one. */
export function erroresPorLinea(errors: Record<string, string>): { general?: string; porLinea: Map<number, Record<string, string>> } {
  const porLinea = new Map<number, Record<string, string>>();
  let general: string | undefined;
  for (const [k, v] of Object.entries(errors)) {
    const m = /^lineas\.(\d+)\.(\w+)$/.exec(k);
    if (m) {
      const i = Number(m[1]);
      porLinea.set(i, { ...porLinea.get(i), [m[2]]: v });
    } else if (k === 'lineas') general = v;
  }
  return { general, porLinea };
}

/** Rows pasted from a spreadsheet: 'código<TAB>cantidad' or 'código;cantidad' per line; the quantity is 1 when absent. */
export type FilaPegada = { fila: number; codigo: string; cantidad: bigint | null };

export function parsearPegado(text: string): FilaPegada[] {
  const out: FilaPegada[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const [codigo = '', cantidadText = ''] = raw.split(/\t|;/).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (!codigo) return;
    out.push({ fila: i + 1, codigo, cantidad: cantidadText === '' ? UNO : parseDecimal(cantidadText, 3) });
  });
  // A header row ('Código  Cantidad') is not a line.
  if (out.length > 1 && out[0].cantidad === null) out.shift();
  return out;
}

/** True when a paste is lines (several rows, or a tab / ; between code and quantity) rather than one code. */
export const esPegadoDeLineas = (text: string) => /\r?\n./.test(text.trim()) || /\t|;/.test(text);

/** Net amount of a line in cents: cantidad (3) × precio (4) × (100 % − dto) (4), rounded once, half-up. */
export function importeLinea(l: Pick<LineaEditable, 'cantidad' | 'precio' | 'descuento'>): bigint {
  const bruto = num(l.cantidad) * num(l.precio) * (10000n - num(l.descuento));
  return divRound(bruto, 10n ** 9n);
}
