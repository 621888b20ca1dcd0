import type { ApiResponse } from '../../domain/api';
import { CONSTANTS } from '../../domain/messages';
import type { FakeCall } from '../../testing';
import type { ArticuloLinea } from '../lineas';

export const ARTICULOS: (ArticuloLinea & { codigo_barras: string | null })[] = [
  { id: 1, codigo: 'TOR-6', descripcion: 'Tornillo hexagonal 6 mm', tipo_iva: '21', precio_compra: 1250, precio_venta: 2500, codigo_barras: '8412345678905' },
  { id: 2, codigo: 'TUE-6', descripcion: 'Tuerca 6 mm', tipo_iva: '21', precio_compra: 500, precio_venta: 1000, codigo_barras: null },
  { id: 3, codigo: 'ARA-6', descripcion: 'Arandela plana 6 mm', tipo_iva: '10', precio_compra: 200, precio_venta: 400, codigo_barras: null },
  { id: 4, codigo: 'LIB-1', descripcion: 'Libro de instrucciones', tipo_iva: '4', precio_compra: 100000, precio_venta: 200000, codigo_barras: null },
];

/** listadoarticulos as the server answers it: `barras` (barcode or code, exact) or `q` (words). */
export function articulosHandler(call: FakeCall): ApiResponse {
  const p = call.params ?? {};
  // The server refuses a page size it doesn't offer (as the real listadoarticulos does).
  if (p.porPagina !== undefined && !(CONSTANTS.pageSizes as readonly number[]).includes(Number(p.porPagina)))
    return { RESULT: '1', message: 'Revise los campos marcados', errors: { porPagina: 'Seleccione una opción' } };
  if (p.barras !== undefined) {
    const a = ARTICULOS.find((x) => x.codigo_barras === p.barras || x.codigo === p.barras);
    return { RESULT: '0', data: a ? [a] : [], total: a ? 1 : 0 };
  }
  const words = String(p.q ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  const rows = ARTICULOS.filter((a) => words.every((w) => `${a.codigo} ${a.descripcion}`.toLowerCase().includes(w)));
  return { RESULT: '0', data: rows, total: rows.length };
}

