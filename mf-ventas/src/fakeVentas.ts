import type { Almacen, Cliente, Documento, DocumentoLinea, Proceso, Usuario } from 'shared';
import { createFakeApi, fakeArticulos, fakeDocumento, fakeLinea, fakeListado, fakeListadoDocs, type FakeHandler } from 'shared/testing';

/** Test data and a fake `op.asp` for the sales screens (tests only). */
export const ALMACENES: Almacen[] = [
  { id: 1, codigo: 'CEN', nombre: 'Central', direccion: null, activo: 1, es_furgoneta: 0, matricula: null, conductor_id: null },
  { id: 2, codigo: 'TDA', nombre: 'Tienda', direccion: null, activo: 1, es_furgoneta: 0, matricula: null, conductor_id: null },
];

export const CLIENTES: Cliente[] = [
  {
    id: 3,
    codigo: 'C0003',
    nif: 'B12345674',
    razon_social: 'Droguería Sol SL',
    nombre_comercial: 'Droguería Sol',
    direccion: 'Calle Mayor 1',
    codigo_postal: '46001',
    poblacion: 'Valencia',
    provincia: 'Valencia',
    telefono: '963000000',
    email: 'compras@drogueriasol.es',
    iban: 'ES9121000418450200051332',
    forma_pago: 'recibo_30',
    retencion: 0,
    observaciones: null,
    activo: 1,
    recargo: 1,
    tarifa: 2,
    descuento: 500,
    ventas_por_ejercicio: [
      { ejercicio: 2025, base: 800000, total: 968000 },
      { ejercicio: 2026, base: 125000, total: 151250 },
    ],
    pendiente_cobro: 151250,
    vencido: 30000,
  },
  {
    id: 4,
    codigo: 'C0004',
    nif: '12345678Z',
    razon_social: 'Talleres Norte',
    nombre_comercial: null,
    direccion: null,
    codigo_postal: null,
    poblacion: 'Bilbao',
    provincia: 'Bizkaia',
    telefono: null,
    email: null,
    iban: null,
    forma_pago: 'contado',
    retencion: 1500,
    observaciones: null,
    activo: 0,
    recargo: 0,
    tarifa: 1,
    descuento: 0,
  },
];

export const ARTICULOS = [
  { id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', tipo_iva: '21', precio_venta: 2000, tarifa_2: 1800, tarifa_3: 1500, codigo_barras: '8412345678905' },
  { id: 8, codigo: 'LIB-01', descripcion: 'Libro técnico', tipo_iva: '4', precio_venta: 300000, tarifa_2: 250000, tarifa_3: 200000, codigo_barras: null },
];

export const PROCESOS: Proceso[] = [
  { id: 1, codigo: 'MONT', nombre: 'Montaje', activo: 1, tiempo: 90, coste: 250000 },
  { id: 2, codigo: 'PINT', nombre: 'Pintura', activo: 1, tiempo: 0, coste: 200000 },
];

export const USUARIOS: Usuario[] = [
  { id: 1, nombre: 'Administrador', email: 'admin@demo.es', activo: 1, ultimo_acceso: null, creado: '2026-01-01T00:00:00Z' },
  { id: 2, nombre: 'Lucía Pérez', email: 'lucia@demo.es', activo: 1, ultimo_acceso: null, creado: '2026-01-01T00:00:00Z' },
];

/** listado<entidades>: one row with `id`, else the rows filtered by the usual filters and `q`. */
export const listado = <R extends { id: number }>(rows: R[]): FakeHandler => fakeListado(rows, ['activo', 'cliente_id', 'estado']);

/** A line of a sales document at the article's tarifa 1 price. */
export const linea = (id: number, art: (typeof ARTICULOS)[number], cantidad: number, over: Partial<DocumentoLinea> = {}): DocumentoLinea =>
  fakeLinea(id, art, cantidad, art.precio_venta, over);

/** A sales document of Droguería Sol (pedido PV 2026/000005 unless `over` says). */
export function doc(over: Partial<Documento>): Documento {
  return fakeDocumento({
    tipo: 'pedidoventa',
    numero: 'PV 2026/000005',
    cliente_id: 3,
    cliente_nombre: 'Droguería Sol SL',
    cliente_nif: 'B12345674',
    forma_pago: 'recibo_30',
    con_recargo: 1,
    lineas: [linea(51, ARTICULOS[0], 10000)],
    ...over,
  });
}

/** listado<plural> of sales documents: one with `id`, else the rows (without lines), filtered, with totales. */
export const listadoDocs = (docs: Documento[]): FakeHandler => fakeListadoDocs(docs, ['cliente_id', 'estado', 'almacen_id']);

/** `disponibleventa` from { articulo_id: disponible } (thousandths) per warehouse. */
export const disponible =
  (porAlmacen: Record<number, Record<number, number>>): FakeHandler =>
  ({ params }) => {
    const valores = porAlmacen[Number(params?.almacen_id)] ?? {};
    const ids = String(params?.ids ?? '')
      .split(',')
      .filter(Boolean)
      .map(Number);
    return {
      RESULT: '0',
      data: ids.map((id) => ({ articulo_id: id, stock: valores[id] ?? 0, reservado: 0, disponible: valores[id] ?? 0 })),
    };
  };

/** A fake op.asp with the masters the sales screens read, plus `extra` handlers. */
export function fakeVentas(extra: Record<string, FakeHandler> = {}) {
  return createFakeApi({
    listadoalmacenes: fakeListado(ALMACENES),
    listadoclientes: listado(CLIENTES),
    listadoarticulos: fakeArticulos(ARTICULOS),
    listadoprocesos: fakeListado(PROCESOS),
    listadousuarios: fakeListado(USUARIOS),
    disponibleventa: disponible({ 1: { 7: 25000, 8: 0 }, 2: { 7: 3000, 8: 1000 } }),
    listadopedidosventa: listadoDocs([]),
    listadoalbaranesventa: listadoDocs([]),
    listadofacturas: listadoDocs([]),
    listadodevolucionesventa: listadoDocs([]),
    listadorectificativas: listadoDocs([]),
    listadopartes: listadoDocs([]),
    ...extra,
  });
}
