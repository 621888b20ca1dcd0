import type { Schema } from './validation';
import { CAUSA_LABEL, DOCUMENTO_TIPOS, type DocumentoTipo } from './documentos';

/**
 * Warehouses (issue 6): almacenes, ubicaciones inside them, the stock they hold and the article's
 * movements. Scales as everywhere: quantities in thousandths, costs in ten-thousandths, amounts in cents.
 */

export type Almacen = {
  id: number;
  codigo: string;
  nombre: string;
  direccion: string | null;
  activo: 0 | 1;
  /** Flag furgonetas: a van is a warehouse on wheels. */
  es_furgoneta: 0 | 1;
  matricula: string | null;
  /** The user who drives it. */
  conductor_id: number | null;
  conductor_nombre?: string | null;
};

export const almacenSchema = {
  codigo: { type: 'string', required: true, max: 30 },
  nombre: { type: 'string', required: true, max: 120 },
  direccion: { type: 'string', max: 200 },
  activo: { type: 'flag' },
  es_furgoneta: { type: 'flag' },
  matricula: { type: 'string', max: 15 },
  conductor_id: { type: 'int', min: 1 },
} satisfies Schema;

export type Ubicacion = {
  id: number;
  almacen_id: number;
  almacen_nombre?: string;
  /** 'A-03-2': aisle, rack, shelf. */
  codigo: string;
  descripcion: string | null;
  activo: 0 | 1;
};

export const ubicacionSchema = {
  almacen_id: { type: 'int', required: true, min: 1 },
  codigo: { type: 'string', required: true, max: 30 },
  descripcion: { type: 'string', max: 120 },
  activo: { type: 'flag' },
} satisfies Schema;

/** One row of the stock an almacén holds (`listadostockalmacen`). */
export type StockAlmacenFila = {
  articulo_id: number;
  codigo: string;
  descripcion: string;
  /** Thousandths. */
  stock: number;
  /** Average cost, ten-thousandths. */
  coste_medio: number;
  /** stock × coste_medio, cents. */
  valor: number;
};

/** Stock of an article in one location of a warehouse. */
export type StockUbicacion = { ubicacion_id: number | null; ubicacion_codigo: string | null; stock: number };

/** One row of an article's movements (`listadomovimientosarticulo`), with the running balance. */
export type MovimientoArticulo = {
  id: number;
  fecha: string;
  almacen_id: number;
  almacen_nombre: string;
  ubicacion_id: number | null;
  ubicacion_codigo: string | null;
  causa: string;
  documento_tipo: string | null;
  documento_id: number | null;
  /** Displayed number of the document, when there is one. */
  documento_numero: string | null;
  /** Signed thousandths. */
  cantidad: number;
  /** Stock after this row, in the filtered warehouse (or all of them), thousandths. */
  saldo: number;
  /** The document's action that wrote it (`recibir`, `deshacerrecepcion`…); null for a save's difference. */
  accion?: string | null;
};

/** A row of a warehouse's ledger (`listadomovimientosalmacen`): every entry and exit, with its article and document. */
export type MovimientoAlmacen = Omit<MovimientoArticulo, 'saldo'> & { articulo_id: number; articulo_codigo: string; articulo_descripcion: string };

/**
 * What a ledger row is, as a clerk reads it: the cause ('Traspaso', 'Compra'), and when an undo wrote it, which
 * ('Traspaso · Deshacer recepción'): an undone reception never reads as another transfer.
 */
export function causaMovimiento(m: { causa: string; documento_tipo: string | null; accion?: string | null }): string {
  const causa = CAUSA_LABEL[m.causa] ?? m.causa;
  if (!m.accion || !m.documento_tipo || !(m.documento_tipo in DOCUMENTO_TIPOS)) return causa;
  const accion = DOCUMENTO_TIPOS[m.documento_tipo as DocumentoTipo].acciones.find((a) => a.verbo === m.accion);
  return accion?.undoes ? `${causa} · ${accion.label}` : causa;
}

/**
 * One article `recalcularstock` finds wrong: its stored stock (`guardado`) against the ledger's sum (`libro`), and its
 * stored average cost against the ledger replayed (ten-thousandths; null: no valued entry).
 */
export type DiferenciaStock = {
  articulo_id: number;
  codigo: string;
  descripcion: string;
  guardado: number;
  libro: number;
  coste_guardado: number | null;
  coste_libro: number | null;
};
