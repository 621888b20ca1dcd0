import type { ApiResponse } from 'shared';
import { createFakeApi, type FakeCall } from 'shared/testing';

/** Rows of `informeventas` by grouping: amounts as scaled integers (cents, thousandths), as the server sends them. */
export const VENTAS: Record<string, Record<string, unknown>[]> = {
  mes: [
    { clave: '2026-10', documentos: 12, unidades: 40000, base: 100000, iva: 21000, recargo: 0, total: 121000, devoluciones: 0, coste: 60000, margen: 40000 },
    { clave: '2026-11', documentos: 8, unidades: 20500, base: 50050, iva: 10510, recargo: 0, total: 60560, devoluciones: -1210, coste: 30000, margen: 20050 },
  ],
  dia: [
    { clave: '2026-10-30', documentos: 2, unidades: 1000, base: 1000, iva: 210, recargo: 0, total: 1210, coste: 500, margen: 500 },
    { clave: '2026-10-31', documentos: 1, unidades: 1000, base: 2000, iva: 420, recargo: 0, total: 2420, coste: 1000, margen: 1000 },
    { clave: '2026-11-02', documentos: 1, unidades: 1000, base: 500, iva: 105, recargo: 0, total: 605, coste: 250, margen: 250 },
  ],
  cliente: [
    { clave: '7', cliente_id: 7, nombre: '=HYPERLINK("http://x")', documentos: 3, unidades: 5000, base: 123456, iva: 25926, recargo: 0, total: 149382, devoluciones: 0, coste: 100000, margen: 23456 },
    { clave: '9', cliente_id: 9, nombre: 'Ferretería Sol', documentos: 1, unidades: 1000, base: -2500, iva: -525, recargo: 0, total: -3025, devoluciones: -3025, coste: -2000, margen: -500 },
  ],
  articulo: [{ clave: '15', articulo_id: 15, codigo: 'BRO-50', descripcion: 'Brocha 50 mm', nombre: 'BRO-50 · Brocha 50 mm', documentos: 2, unidades: 3000, base: 4500, iva: 945, recargo: 0, total: 5445, devoluciones: 0, coste: 3000, margen: 1500 }],
};

export const TOTALES_VENTAS = { documentos: 20, unidades: 60500, base: 150050, iva: 31510, recargo: 0, total: 181560, coste: 90000, margen: 60050, margen_pct: 4002 };

/** `informeinventario` by article, sorted by family (orden=familia). */
export const INVENTARIO = [
  { clave: '1', articulo_id: 1, codigo: 'A1', descripcion: 'Tornillo', familia: 'Ferretería', unidades: 10000, coste_unitario: 1000, valor: 1000, valor_ultimo: 1200 },
  { clave: '2', articulo_id: 2, codigo: 'A2', descripcion: 'Tuerca', familia: 'Ferretería', unidades: -2000, coste_unitario: 1500, valor: -300, valor_ultimo: -320 },
  { clave: '3', articulo_id: 3, codigo: 'P1', descripcion: 'Pintura', familia: 'Pinturas', unidades: 5000, coste_unitario: 1000, valor: 500, valor_ultimo: 600 },
];

/** `informeinventario` vista=bajo_minimo: an article under its minimum, what to order and from whom. */
export const BAJO_MINIMO = [
  { clave: '1', articulo_id: 1, codigo: 'A1', descripcion: 'Tornillo', familia: 'Ferretería', stock_minimo: 10000, unidades: 2000, a_pedir: 8000, ultimo_precio: 1200, importe_pedir: 96, proveedor: 'Suministros Levante SL' },
];

const ok = (data: unknown[], extra: Record<string, unknown> = {}): ApiResponse => ({ RESULT: '0', data, total: data.length, ...extra }) as ApiResponse;

/** An op.asp answering the reports and the pickers they use. */
export function fakeInformes() {
  return createFakeApi({
    informeventas: (c: FakeCall) => {
      const filas = VENTAS[String(c.params?.agrupar ?? 'mes')] ?? [];
      return ok(filas, { totales: TOTALES_VENTAS, total: filas.length });
    },
    // Issue 16: the 349 by operator, or its rectificaciones (corrections of an earlier quarter).
    modelo349: (c: FakeCall) =>
      c.params?.agrupar === 'rectificacion'
        ? ok(
            [{ clave: 'R|E|FR40303265045|2026 4T|2026 3T', clave_operacion: 'E', cliente_id: 7, pais: 'FR', nif: 'FR40303265045', nombre: 'Quincaillerie Dupont SARL', periodo: '2026 4T', periodo_rectificado: '2026 3T', base_anterior: 40000, base_rectificada: 20000, diferencia: -20000 }],
            { totales: { rectificaciones: 1, base_anterior: 40000, base_rectificada: 20000 }, total: 1 },
          )
        : ok([{ clave: 'E|FR40303265045|2026 4T', clave_operacion: 'E', cliente_id: 7, pais: 'FR', nif: 'FR40303265045', nombre: 'Quincaillerie Dupont SARL', periodo: '2026 4T', base: 10000 }], { totales: { base: 10000 }, total: 1 }),
    informeinventario: (c: FakeCall) =>
      c.params?.vista === 'bajo_minimo'
        ? ok(BAJO_MINIMO, { totales: { articulos: 1, unidades: 2000, a_pedir: 8000, importe_pedir: 96 } })
        : ok(INVENTARIO, { totales: { unidades: 13000, valor: 1200, valor_ultimo: 1480 } }),
    listadoclientes: (c: FakeCall) => ok([{ id: Number(c.params?.id ?? 7), codigo: 'C7', razon_social: 'Construcciones Norte SL', nombre_comercial: null, nif: 'B12345678' }]),
    listadoalmacenes: () => ok([
      { id: 1, nombre: 'Central', activo: 1 },
      { id: 2, nombre: 'Furgoneta 1', activo: 1 },
    ]),
    listadofamilias: () => ok([{ id: 3, codigo: 'PIN', nombre: 'Pinturas', activo: 1 }]),
    listadomarcas: () => ok([]),
    listadoseries: () => ok([{ id: 1, codigo: 'F', descripcion: 'Facturas', tipo: 'factura', activo: 1 }]),
    listadousuarios: () => ok([{ id: 1, nombre: 'Administrador', email: 'admin@demo.es', activo: 1 }]),
    listadoterminales: () => ok([{ id: 2, nombre: 'Caja mostrador' }, { id: 5, nombre: 'Caja terraza' }]),
  });
}
