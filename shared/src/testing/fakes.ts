import type { ApiResponse } from '../domain/api';
import type { Documento, DocumentoLinea } from '../domain/documentos';
import type { FakeCall, FakeHandler } from './index';

/* Fake `op.asp` answers shared by the sections' tests: listings, the article lookup, documents. */

/** listado<entidades>: one row with `id`, else the rows filtered by `filtros` (equal values) and `q` (anywhere in the row). */
export function fakeListado<R extends { id: number }>(rows: R[], filtros: string[] = ['activo']): FakeHandler {
  return ({ params }: FakeCall): ApiResponse => {
    if (params?.id !== undefined) {
      const one = rows.filter((r) => r.id === Number(params.id));
      return one.length ? { RESULT: '0', data: one, total: 1 } : { RESULT: '3', message: 'No se ha encontrado el elemento solicitado' };
    }
    let out = rows;
    for (const f of filtros) {
      const v = params?.[f];
      if (v !== undefined && v !== '') out = out.filter((r) => String((r as Record<string, unknown>)[f]) === String(v));
    }
    const q = String(params?.q ?? '').toLowerCase();
    if (q) out = out.filter((r) => JSON.stringify(r).toLowerCase().includes(q));
    return { RESULT: '0', data: out, total: out.length };
  };
}

/** An article as `listadoarticulos` answers it, with the fields the lines editor reads. */
export type ArticuloDePrueba = { id: number; codigo: string; descripcion: string; tipo_iva: string; codigo_barras: string | null } & Record<string, unknown>;

/** `listadoarticulos`: `barras` answers the one article by barcode or code, else a search of code and description. */
export function fakeArticulos(articulos: ArticuloDePrueba[]): FakeHandler {
  return ({ params }) => {
    if (params?.barras !== undefined) {
      const a = articulos.find((x) => x.codigo_barras === params.barras || x.codigo === params.barras);
      return { RESULT: '0', data: a ? [a] : [], total: a ? 1 : 0 };
    }
    const q = String(params?.q ?? '').toLowerCase();
    const rows = articulos.filter((a) => `${a.codigo} ${a.descripcion}`.toLowerCase().includes(q));
    return { RESULT: '0', data: rows, total: rows.length };
  };
}

/** A document's line of article `art` (its code, description and rate) at `precio` (ten-thousandths). */
export function fakeLinea(id: number, art: ArticuloDePrueba, cantidad: number, precio: number, over: Partial<DocumentoLinea> = {}): DocumentoLinea {
  return {
    id,
    orden: id,
    articulo_id: art.id,
    codigo: art.codigo,
    descripcion: art.descripcion,
    tipo_iva: art.tipo_iva as DocumentoLinea['tipo_iva'],
    cantidad,
    precio,
    descuento: 0,
    pendiente: 0,
    ubicacion_id: null,
    motivo: null,
    teorico: null,
    ...over,
  };
}

/** A document read by id, in warehouse 1 'Central', 100,00 € at 21 %; `over` gives its type, party and lines. */
export function fakeDocumento(over: Partial<Documento> & Pick<Documento, 'tipo' | 'numero'>): Documento {
  return {
    id: 5,
    ejercicio: 2026,
    fecha: '2026-03-02',
    estado: 'pendiente',
    serie_id: null,
    almacen_id: 1,
    almacen_nombre: 'Central',
    almacen_destino_id: null,
    familia_id: null,
    ubicacion_id: null,
    cliente_id: null,
    proveedor_id: null,
    forma_pago: null,
    fecha_entrega: null,
    retencion: 0,
    con_recargo: 0,
    observaciones: null,
    clave: null,
    creado: '2026-03-02T10:00:00Z',
    modificado: null,
    base: 10000,
    iva: 2100,
    recargo: 0,
    retencion_importe: 0,
    total: 12100,
    desglose: [{ tipo_iva: '21', base: 10000, iva: 2100, recargo: 0 }],
    num_lineas: 1,
    lineas: [],
    historial: [],
    ...over,
  };
}

/** listado<plural> of documents: one with `id`, else the rows (without lines) filtered by `filtros`, with `totales`. */
export function fakeListadoDocs(docs: Documento[], filtros: string[]): FakeHandler {
  return ({ params }) => {
    if (params?.id !== undefined) {
      const d = docs.find((x) => x.id === Number(params.id));
      return d ? { RESULT: '0', data: [d] } : { RESULT: '3', message: 'No se ha encontrado el elemento solicitado' };
    }
    let rows = docs.map(({ lineas: _l, historial: _h, ...rest }) => rest);
    for (const f of filtros) {
      const v = params?.[f];
      if (v !== undefined && v !== '') rows = rows.filter((r) => String((r as Record<string, unknown>)[f]) === String(v));
    }
    return { RESULT: '0', data: rows, total: rows.length, totales: { total: rows.reduce((t, r) => t + r.total, 0) } } as ApiResponse;
  };
}
