import { CONSTANTS, type Serie } from 'shared';
import { createFakeApi, fakeDocumento, fakeLinea, fakeListado, fakeListadoDocs, type FakeHandler } from 'shared/testing';
import { ALMACENES, CLIENTES } from '../../fakeVentas';
import type { BotonesTpv, CierreTpv, Terminal } from '../datos';

/** Test data and a fake `op.asp` for the TPV screens of the back office (tests only). */
export const SERIES: Serie[] = [
  { id: 1, codigo: 'A', descripcion: 'Facturas', tipo: 'normal', activo: 1 },
  { id: 2, codigo: 'T1', descripcion: 'Tickets caja 1', tipo: 'simplificada', activo: 1 },
  { id: 3, codigo: 'R1', descripcion: 'Devoluciones caja 1', tipo: 'rectificativa', activo: 1 },
  { id: 4, codigo: 'T2', descripcion: 'Tickets caja 2', tipo: 'simplificada', activo: 1 },
  { id: 5, codigo: 'R2', descripcion: 'Devoluciones caja 2', tipo: 'rectificativa', activo: 1 },
  { id: 6, codigo: 'TX', descripcion: 'Tickets antiguos', tipo: 'simplificada', activo: 0 },
];

export const TERMINALES: Terminal[] = [
  {
    id: 1,
    nombre: 'Caja 1',
    almacen_id: 2,
    almacen_nombre: 'Tienda',
    serie_id: 2,
    serie_codigo: 'T1',
    serie_rectificativa_id: 3,
    serie_rectificativa_codigo: 'R1',
    cliente_id: 3,
    cliente_nombre: 'Droguería Sol SL',
    numero_instalacion: 'B12345674-TPV1',
    formas_pago: ['efectivo', 'tarjeta', 'bizum'],
    fondo: 15000,
    activo: 1,
    emparejado: '2026-11-20T09:00:00Z',
  },
];

export const ARTICULOS_TPV = [
  { id: 7, codigo: 'CAF', descripcion: 'Café con leche grande', nombre_tpv: 'Café leche', pvp_1: 180, tipo_iva: '10', activo: 1, familia_id: 1, codigo_barras: null },
  { id: 8, codigo: 'CRO', descripcion: 'Cruasán de mantequilla', nombre_tpv: 'Cruasán', pvp_1: 150, tipo_iva: '10', activo: 1, familia_id: 1, codigo_barras: null },
  { id: 9, codigo: 'ZUM', descripcion: 'Zumo de naranja natural', nombre_tpv: null, pvp_1: 250, tipo_iva: '10', activo: 1, familia_id: 2, codigo_barras: null },
];

export const BOTONES: BotonesTpv = {
  terminal_id: null,
  propias: 0,
  paginas: [
    {
      id: 10,
      orden: 0,
      nombre: 'Desayunos',
      familia_id: null,
      color: '#2563eb',
      botones: [
        { posicion: 0, articulo_id: 7, codigo: 'CAF', descripcion: 'Café con leche grande', nombre_tpv: 'Café leche', etiqueta: 'Café leche', color: '#2563eb', precio: 18000 },
        { posicion: 1, articulo_id: 8, codigo: 'CRO', descripcion: 'Cruasán de mantequilla', nombre_tpv: 'Cruasán', etiqueta: 'Cruasán', color: '#ea580c', precio: 15000 },
        { posicion: 2, articulo_id: 9, codigo: 'ZUM', descripcion: 'Zumo de naranja natural', nombre_tpv: null, etiqueta: 'Zumo', color: '#16a34a', precio: 25000 },
      ],
    },
    { id: 11, orden: 1, nombre: 'Bollería', familia_id: 1, color: '#16a34a', botones: [] },
  ],
};

export const CIERRE: CierreTpv = {
  id: 5,
  terminal_id: 1,
  terminal_nombre: 'Caja 1',
  codigo: 12,
  caja_id: 40,
  usuario_id: 2,
  usuario_nombre: 'Lucía Pérez',
  apertura: '2026-11-25T08:00:00Z',
  cierre: '2026-11-25T20:05:00Z',
  fondo: 15000,
  tickets: 48,
  devoluciones: 1,
  total: 61230,
  formas: [
    { forma: 'efectivo', ventas: 30000, devoluciones: 500, esperado: 42500, contado: 42000, diferencia: -500 },
    { forma: 'tarjeta', ventas: 31730, devoluciones: 0, esperado: 31730, contado: 31730, diferencia: 0 },
  ],
  efectivo: { fondo: 15000, cobrado: 31000, cambio: 1000, devuelto: 500, entradas: 0, salidas: 2000, esperado: 42500, contado: 42000, diferencia: -500 },
  diferencia: -500,
  impuestos: [
    { tipo_iva: '10', base: 50000, iva: 5000, total: 55000 },
    { tipo_iva: '21', base: 5149, iva: 1081, total: 6230 },
  ],
  movimientos: [{ fecha_hora: '2026-11-25T13:00:00Z', importe: -2000, motivo: 'Pago al repartidor del pan', usuario_nombre: 'Lucía Pérez' }],
  // 200 + 2 × 100 + 20 = 420 €: the count by denomination is `efectivo.contado`.
  denominaciones: [
    { valor: 20000, cantidad: 1 },
    { valor: 10000, cantidad: 2 },
    { valor: 2000, cantidad: 1 },
    { valor: 50, cantidad: 0 },
  ],
  primer_numero: 'T1 2026/000101',
  ultimo_numero: 'T1 2026/000148',
  cajeros: [
    { usuario_id: 2, nombre: 'Lucía Pérez', tickets: 30, devoluciones: 1, total: 40000 },
    { usuario_id: 3, nombre: 'Marcos Gil', tickets: 18, devoluciones: 0, total: 21230 },
  ],
};

const MARTILLO = { id: 6, codigo: 'MAR-500', descripcion: 'Martillo de carpintero 500 g', tipo_iva: '21', codigo_barras: null };
const QR = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T1%202026%2F000101&fecha=25-11-2026&importe=14.95';

/** Two tickets of the closing's caja (40); the first read by id with its lines, payments and record. */
export const TICKETS = [
  fakeDocumento({
    id: 300,
    tipo: 'ticket',
    numero: 'T1 2026/000101',
    fecha: '2026-11-25',
    estado: 'emitido',
    almacen_id: 2,
    almacen_nombre: 'Tienda',
    // 14,95 € with IVA as the till charged it: base 12,36 + IVA 2,59; the net unit price 12,3554 alone would make 14,96.
    base: 1236,
    iva: 259,
    total: 1495,
    desglose: [{ tipo_iva: '21', base: 1236, iva: 259, recargo: 0 }],
    lineas: [fakeLinea(1, MARTILLO, 1000, 123554)],
    registro: { id: 77, tipo: 'alta', huella: 'A1B2C3D4E5F60718293A4B5C6D7E8F90112233445566778899AABBCCDDEEFF00', fecha_hora_huso: '2026-11-25T09:10:00+01:00', estado_envio: 'pendiente', qr_url: QR, xml: '<sum1:RegistroAlta/>', entorno: 'produccion', demo: 0, verifactu: 1 },
  }),
  fakeDocumento({ id: 301, tipo: 'ticket', numero: 'T1 2026/000102', fecha: '2026-11-25', estado: 'emitido', total: 180 }),
].map((d, i) => ({ ...d, caja_id: 40, terminal_id: 1, fecha_hora: `2026-11-25T08:1${i}:00Z`, offline: i as 0 | 1, cambio: i ? 0 : 505, pagos: i ? [] : [{ forma: 'efectivo', importe: 1495, entregado: 2000 }], devoluciones: [] }));

export function tpvApi(over: Record<string, FakeHandler> = {}) {
  return createFakeApi({
    listadoterminales: fakeListado(TERMINALES),
    listadoalmacenes: fakeListado(ALMACENES),
    listadoseries: fakeListado(SERIES, ['activo', 'tipo']),
    listadoclientes: fakeListado(CLIENTES),
    listadofamilias: fakeListado([
      { id: 1, codigo: 'BOL', nombre: 'Bollería', activo: 1 },
      { id: 2, codigo: 'BEB', nombre: 'Bebidas', activo: 1 },
    ]),
    // The server refuses a page size it doesn't offer (the preview asked for 30: a 400).
    listadoarticulos: (call) =>
      call.params?.porPagina !== undefined && !(CONSTANTS.pageSizes as readonly number[]).includes(Number(call.params.porPagina))
        ? { RESULT: '1', message: 'Revise los campos marcados', errors: { porPagina: 'Seleccione una opción' } }
        : fakeListado(ARTICULOS_TPV, ['activo', 'familia_id'])(call),
    editarterminal: ({ body }) => {
      const b = body as Record<string, unknown>;
      return { RESULT: '0', data: [{ ...TERMINALES[0], ...b, id: (b.id as number) ?? 2, emparejado: null }] };
    },
    codigoterminal: () => ({ RESULT: '0', data: [{ terminal_id: 1, codigo: 'K7PQ-M2XD', expira: new Date(Date.now() + 15 * 60_000).toISOString() }] }),
    listadobotonestpv: () => ({ RESULT: '0', data: [BOTONES] }),
    editarbotonestpv: ({ body }) => ({ RESULT: '0', data: [{ ...BOTONES, ...(body as object) }] }),
    listadocierrestpv: fakeListado([CIERRE], ['terminal_id']),
    listadotickets: fakeListadoDocs(TICKETS, ['caja_id', 'terminal_id', 'estado']),
    facturarticket: ({ body }) => ({ RESULT: '0', data: [{ ...TICKETS[0], id: 900, tipo: 'factura', numero: 'A 2026/000007', cliente_id: (body as { cliente_id: number }).cliente_id }] }),
    ...over,
  });
}
