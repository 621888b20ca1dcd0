import type { Almacen, ApiResponse, Documento, DocumentoLinea, Proveedor } from 'shared';
import { createFakeApi, type FakeCall, type FakeHandler } from 'shared/testing';

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
export function listado<R extends { id: number }>(rows: R[], filtros: string[] = ['activo', 'proveedor_id', 'estado']): FakeHandler {
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

/** `listadoarticulos`: `barras` answers the one article by barcode or code, else a search. */
export const articulos: FakeHandler = ({ params }) => {
  if (params?.barras !== undefined) {
    const a = ARTICULOS.find((x) => x.codigo_barras === params.barras || x.codigo === params.barras);
    return { RESULT: '0', data: a ? [a] : [], total: a ? 1 : 0 };
  }
  const q = String(params?.q ?? '').toLowerCase();
  const rows = ARTICULOS.filter((a) => `${a.codigo} ${a.descripcion}`.toLowerCase().includes(q));
  return { RESULT: '0', data: rows, total: rows.length };
};

export const linea = (id: number, art: (typeof ARTICULOS)[number], cantidad: number, over: Partial<DocumentoLinea> = {}): DocumentoLinea => ({
  id,
  orden: id,
  articulo_id: art.id,
  codigo: art.codigo,
  descripcion: art.descripcion,
  tipo_iva: art.tipo_iva as DocumentoLinea['tipo_iva'],
  cantidad,
  precio: art.precio_compra,
  descuento: 0,
  pendiente: 0,
  ubicacion_id: null,
  motivo: null,
  teorico: null,
  ...over,
});

export function doc(over: Partial<Documento>): Documento {
  return {
    id: 5,
    tipo: 'pedidocompra',
    numero: 'PC 2026/000005',
    ejercicio: 2026,
    fecha: '2026-03-02',
    estado: 'creado',
    serie_id: null,
    almacen_id: 1,
    almacen_nombre: 'Central',
    almacen_destino_id: null,
    familia_id: null,
    ubicacion_id: null,
    cliente_id: null,
    proveedor_id: 3,
    proveedor_nombre: 'Ferretería Levante SL',
    proveedor_nif: 'B12345674',
    forma_pago: 'transferencia_30',
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
    lineas: [linea(51, ARTICULOS[0], 10000)],
    historial: [],
    ...over,
  };
}

/** listado<plural> of documents: one with `id`, else the rows (without lines), filtered, with totales. */
export const listadoDocs =
  (docs: Documento[]): FakeHandler =>
  ({ params }) => {
    if (params?.id !== undefined) {
      const d = docs.find((x) => x.id === Number(params.id));
      return d ? { RESULT: '0', data: [d] } : { RESULT: '3', message: 'No se ha encontrado el elemento solicitado' };
    }
    let rows = docs.map(({ lineas: _l, historial: _h, ...rest }) => rest);
    for (const f of ['proveedor_id', 'estado', 'almacen_id']) {
      const v = params?.[f];
      if (v !== undefined && v !== '') rows = rows.filter((r) => String((r as Record<string, unknown>)[f]) === String(v));
    }
    return { RESULT: '0', data: rows, total: rows.length, totales: { total: rows.reduce((t, r) => t + r.total, 0) } } as ApiResponse;
  };

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
