import type { ApiResponse, Articulo, Familia, Marca, Material, Proceso, Subfamilia } from 'shared';
import { createFakeApi, type FakeCall, type FakeHandler } from 'shared/testing';

/** Test data and a fake `op.asp` for the catalogue's screens (tests only). */
export const FAMILIAS: Familia[] = [
  { id: 1, codigo: 'TOR', nombre: 'Tornillería', activo: 1 },
  { id: 2, codigo: 'PIN', nombre: 'Pintura', activo: 1 },
];
export const SUBFAMILIAS: Subfamilia[] = [
  { id: 10, codigo: 'HEX', nombre: 'Hexagonales', activo: 1, familia_id: 1, familia_nombre: 'Tornillería' },
  { id: 11, codigo: 'ALL', nombre: 'Allen', activo: 1, familia_id: 1, familia_nombre: 'Tornillería' },
  { id: 20, codigo: 'ESM', nombre: 'Esmaltes', activo: 1, familia_id: 2, familia_nombre: 'Pintura' },
];
export const MARCAS: Marca[] = [{ id: 5, codigo: 'ACME', nombre: 'Acme', activo: 1 }];
export const MATERIALES: Material[] = [
  { id: 30, codigo: 'ALG', nombre: 'Algodón', activo: 1 },
  { id: 31, codigo: 'POL', nombre: 'Poliéster', activo: 1 },
];
export const PROCESOS: Proceso[] = [{ id: 40, codigo: 'COR', nombre: 'Corte', activo: 1, tiempo: 15, coste: 125000 }];

export const ARTICULO: Articulo = {
  id: 7,
  codigo: 'TOR-M4',
  referencia: 'DIN933',
  descripcion: 'Tornillo M4',
  descripcion_larga: null,
  unidad_medida: 'ud',
  familia_id: 1,
  familia_nombre: 'Tornillería',
  subfamilia_id: 10,
  subfamilia_nombre: 'Hexagonales',
  marca_id: 5,
  marca_nombre: 'Acme',
  precio_compra: 850,
  precio_venta: 1736,
  tarifa_2: 0,
  tarifa_3: 0,
  pvp_1: 21,
  pvp_2: 0,
  pvp_3: 0,
  tipo_iva: '21',
  palabras_clave: null,
  nombre_tpv: null,
  codigo_barras: '8412345678905',
  tiempo: null,
  activo: 1,
  foto: null,
  seo_slug: null,
  seo_titulo: null,
  seo_descripcion: null,
  precio_medio_compra: 0,
  precio_medio_venta: 0,
  unidades_compradas: 0,
  unidades_vendidas: 0,
  stock_total: 0,
  stock: [],
  materiales: [],
  procesos: [],
  componentes: [],
  proporciones: [],
};

/** A listado answering with `rows` filtered by the call's familia_id (and `id`), as the server does. */
export function listado<R extends { id: number }>(rows: R[]): FakeHandler {
  return ({ params }: FakeCall): ApiResponse => {
    let out = rows;
    if (params?.id !== undefined) {
      out = rows.filter((r) => r.id === Number(params.id));
      return out.length ? { RESULT: '0', data: out, total: 1 } : { RESULT: '3', message: 'No se ha encontrado el elemento solicitado' };
    }
    if (params?.familia_id) out = out.filter((r) => String((r as { familia_id?: number }).familia_id) === String(params.familia_id));
    return { RESULT: '0', data: out, total: out.length };
  };
}

/** The masters' listados plus the given handlers. */
export function fakeCatalogo(handlers: Record<string, FakeHandler> = {}) {
  return createFakeApi({
    listadofamilias: listado(FAMILIAS),
    listadosubfamilias: listado(SUBFAMILIAS),
    listadomarcas: listado(MARCAS),
    listadomateriales: listado(MATERIALES),
    listadoprocesos: listado(PROCESOS),
    listadoarticulos: listado([ARTICULO]),
    ...handlers,
  });
}
