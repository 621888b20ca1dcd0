import type { Almacen, ApiResponse, StockAlmacenFila, Ubicacion, Usuario } from 'shared';
import { createFakeApi, type FakeCall, type FakeHandler } from 'shared/testing';

/** Test data and a fake `op.asp` for the warehouse screens (tests only). */
export const ALMACENES: Almacen[] = [
  { id: 1, codigo: 'CEN', nombre: 'Central', direccion: 'Calle Mayor 1, Valencia', activo: 1, es_furgoneta: 0, matricula: null, conductor_id: null },
  { id: 2, codigo: 'F01', nombre: 'Furgoneta norte', direccion: null, activo: 1, es_furgoneta: 1, matricula: '1234BCD', conductor_id: 2, conductor_nombre: 'Ana Ruiz' },
  { id: 3, codigo: 'VIE', nombre: 'Nave vieja', direccion: 'Polígono Sur', activo: 0, es_furgoneta: 0, matricula: null, conductor_id: null },
];

export const UBICACIONES: Ubicacion[] = [
  { id: 20, almacen_id: 1, almacen_nombre: 'Central', codigo: 'A-03-2', descripcion: 'Pasillo A, estantería 3, balda 2', activo: 1 },
  { id: 21, almacen_id: 1, almacen_nombre: 'Central', codigo: 'B-01-1', descripcion: null, activo: 1 },
  { id: 22, almacen_id: 3, almacen_nombre: 'Nave vieja', codigo: 'Z-99-9', descripcion: 'Fondo', activo: 0 },
];

export const USUARIOS: Usuario[] = [
  { id: 1, nombre: 'Administrador', email: 'admin@demo.es', activo: 1, ultimo_acceso: null, creado: '2026-01-01T00:00:00Z' },
  { id: 2, nombre: 'Ana Ruiz', email: 'ana@demo.es', activo: 1, ultimo_acceso: null, creado: '2026-01-01T00:00:00Z' },
];

/** Central holds 12,5 tornillos at 0,85 € and 3 botes at 10,2345 €: 10,63 € + 30,70 € = 41,33 €. */
export const STOCK_CENTRAL: StockAlmacenFila[] = [
  { articulo_id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', stock: 12500, coste_medio: 8500, valor: 1063 },
  { articulo_id: 8, codigo: 'PIN-01', descripcion: 'Bote de esmalte', stock: 3000, coste_medio: 102345, valor: 3070 },
];

const FILTERS = ['almacen_id', 'activo', 'es_furgoneta'] as const;

/** A listado answering with `rows` filtered by `id`, the usual filters and `q` (código or nombre), as the server does. */
export function listado<R extends { id: number }>(rows: R[]): FakeHandler {
  return ({ params }: FakeCall): ApiResponse => {
    if (params?.id !== undefined) {
      const one = rows.filter((r) => r.id === Number(params.id));
      return one.length ? { RESULT: '0', data: one, total: 1 } : { RESULT: '3', message: 'No se ha encontrado el elemento solicitado' };
    }
    let out = rows;
    for (const f of FILTERS) {
      const v = params?.[f];
      if (v !== undefined && v !== '') out = out.filter((r) => String((r as Record<string, unknown>)[f]) === String(v));
    }
    const q = String(params?.q ?? '').toLowerCase();
    if (q) out = out.filter((r) => JSON.stringify(r).toLowerCase().includes(q));
    return { RESULT: '0', data: out, total: out.length };
  };
}

/** `listadostockalmacen`: the stock of Central (others are empty), with `valor_total`. */
export const stockAlmacen: FakeHandler = ({ params }) => {
  let rows = Number(params?.almacen_id) === 1 ? STOCK_CENTRAL : [];
  const q = String(params?.q ?? '').toLowerCase();
  if (q) rows = rows.filter((s) => `${s.codigo} ${s.descripcion}`.toLowerCase().includes(q));
  return { RESULT: '0', data: rows, total: rows.length, valor_total: rows.reduce((t, s) => t + s.valor, 0) } as ApiResponse;
};

/** The warehouse listados plus the given handlers. */
export function fakeAlmacenes(handlers: Record<string, FakeHandler> = {}) {
  return createFakeApi({
    listadoalmacenes: listado(ALMACENES),
    listadoubicaciones: listado(UBICACIONES),
    listadousuarios: listado(USUARIOS),
    listadostockalmacen: stockAlmacen,
    ...handlers,
  });
}
