import type { Almacen, Documento, DocumentoLinea, Proveedor } from 'shared';
import { createFakeApi, fakeArticulos, fakeDocumento, fakeLinea, fakeListado, fakeListadoDocs, type FakeHandler } from 'shared/testing';

/** Test data and a fake `op.asp` for the purchase screens (tests only). */
export const ALMACENES: Almacen[] = [
  { id: 1, codigo: 'CEN', nombre: 'Central', direccion: null, activo: 1, es_furgoneta: 0, matricula: null, conductor_id: null },
];

export const PROVEEDORES: Proveedor[] = [
  {
    id: 3,
    codigo: 'P0003',
    nif: 'B12345674',
    razon_social: 'Ferretería Levante SL',
    nombre_comercial: 'Ferrelevante',
    direccion: 'Calle Mayor 1',
    codigo_postal: '46001',
    poblacion: 'Valencia',
    provincia: 'Valencia',
    telefono: '963000000',
    email: 'pedidos@ferrelevante.es',
    iban: 'ES9121000418450200051332',
    forma_pago: 'transferencia_30',
    retencion: 1500,
    observaciones: null,
    activo: 1,
    compras_por_ejercicio: [{ ejercicio: 2026, base: 125000, total: 151250 }],
  },
  {
    id: 4,
    codigo: 'P0004',
    nif: '12345678Z',
    razon_social: 'Pinturas Sur',
    nombre_comercial: null,
    direccion: null,
    codigo_postal: null,
    poblacion: 'Sevilla',
    provincia: 'Sevilla',
    telefono: null,
    email: null,
    iban: null,
    forma_pago: 'contado',
    retencion: 0,
    observaciones: null,
    activo: 0,
  },
];

export const ARTICULOS = [
  { id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', tipo_iva: '21', precio_compra: 1000, codigo_barras: '8412345678905' },
  { id: 8, codigo: 'LIB-01', descripcion: 'Libro técnico', tipo_iva: '4', precio_compra: 200000, codigo_barras: null },
];

/** listado<entidades>: one row with `id`, else the rows filtered by the usual filters and `q`. */
export const listado = <R extends { id: number }>(rows: R[], filtros: string[] = ['activo', 'proveedor_id', 'estado']): FakeHandler => fakeListado(rows, filtros);

/** `listadoarticulos`: `barras` answers the one article by barcode or code, else a search. */
export const articulos: FakeHandler = fakeArticulos(ARTICULOS);

export const linea = (id: number, art: (typeof ARTICULOS)[number], cantidad: number, over: Partial<DocumentoLinea> = {}): DocumentoLinea =>
  fakeLinea(id, art, cantidad, art.precio_compra, over);

export function doc(over: Partial<Documento>): Documento {
  return fakeDocumento({
    tipo: 'pedidocompra',
    numero: 'PC 2026/000005',
    estado: 'creado',
    proveedor_id: 3,
    proveedor_nombre: 'Ferretería Levante SL',
    proveedor_nif: 'B12345674',
    forma_pago: 'transferencia_30',
    lineas: [linea(51, ARTICULOS[0], 10000)],
    ...over,
  });
}

/** listado<plural> of documents: one with `id`, else the rows (without lines), filtered, with totales. */
export const listadoDocs = (docs: Documento[]): FakeHandler => fakeListadoDocs(docs, ['proveedor_id', 'estado', 'almacen_id']);

/** A fake op.asp with the masters the purchase screens read, plus `extra` handlers. */
export function fakeCompras(extra: Record<string, FakeHandler> = {}) {
  return createFakeApi({
    listadoalmacenes: listado(ALMACENES),
    listadoproveedores: listado(PROVEEDORES),
    listadoarticulos: articulos,
    listadopedidoscompra: listadoDocs([]),
    listadoalbaranescompra: listadoDocs([]),
    listadodevolucionescompra: listadoDocs([]),
    listadofacturasproveedor: () => ({ RESULT: '0', data: [], total: 0 }),
    ...extra,
  });
}
