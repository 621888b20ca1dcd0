import { todayIn } from '../context.ts';
import { MESSAGES } from 'shared/domain';
import { ActionError } from '../errors.ts';
import { recalcularAgregados } from '../informes/agregados.ts';
import { informeInventario, informeMovimientos, informeTarifas } from '../informes/almacen.ts';
import { baseSchema, idFiltro, periodo } from '../informes/comun.ts';
import { AGRUPAR_COMPRAS, informeCompras, informeProveedores } from '../informes/compras.ts';
import { informeRegistros, libroExpedidas, libroRecibidas, modelo303, modelo347, numeracionFacturas, periodoFiscal } from '../informes/fiscal.ts';
import { TIPOS_VENTA } from '../informes/lineas-venta.ts';
import { modelo349 } from '../informes/modelo349.ts';
import { informeCierresTpv } from '../informes/tpv.ts';
import { AGRUPAR_VENTAS, informeArticulos, informeClientes, informeFurgonetas, informeVentas } from '../informes/ventas.ts';
import { defineAction, fail } from './registry.ts';
import { readConfiguracion } from './configuracion.ts';

/** Issue 16: what the 303 answers a company outside the IVA territory. */
const MODELO_303_SIN_IVA = {
  igic:
    'El Modelo 303 es del IVA y la empresa factura con IGIC: su autoliquidación es el Modelo 420 de la Agencia Tributaria Canaria, que este programa no prepara. El libro de facturas expedidas da las bases y cuotas de IGIC por tipo.',
  ipsi:
    'El Modelo 303 es del IVA y la empresa factura con IPSI, que se declara ante la Ciudad Autónoma (Ceuta o Melilla) con sus propios modelos, que este programa no prepara. El libro de facturas expedidas da las bases y cuotas de IPSI por tipo.',
} as const;

/**
 * The reports (issue 14; docs/informes.md): one GET action each, answering `data` (the page of rows), `total` (rows
 * in the whole selection) and `totales` (sums over the whole selection). Amounts in cents, quantities in thousandths,
 * unit prices and costs in ten-thousandths, percentages in hundredths — as the documents.
 */

const ventasFiltros = {
  cliente_id: idFiltro,
  articulo_id: idFiltro,
  familia_id: idFiltro,
  marca_id: idFiltro,
  serie_id: idFiltro,
  almacen_id: idFiltro,
  usuario_id: idFiltro,
  terminal_id: idFiltro,
  tipo: { type: 'enum', values: TIPOS_VENTA },
} as const;

const paging = (i: { orden: string | null; dir: string | null; pagina: number | null; porPagina: number | null }) => ({
  orden: i.orden,
  dir: i.dir,
  pagina: i.pagina,
  porPagina: i.porPagina,
});

export const informeActions = [
  defineAction({
    name: 'informeventas',
    method: 'GET',
    flags: ['ventas'],
    input: { ...baseSchema, ...ventasFiltros, agrupar: { type: 'enum', values: AGRUPAR_VENTAS } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return await informeVentas(app, { ...input, ...p }, input.agrupar ?? 'mes', paging(input));
    },
  }),
  defineAction({
    name: 'informecompras',
    method: 'GET',
    flags: ['compras'],
    input: { ...baseSchema, proveedor_id: idFiltro, articulo_id: idFiltro, familia_id: idFiltro, almacen_id: idFiltro, agrupar: { type: 'enum', values: AGRUPAR_COMPRAS } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return await informeCompras(app, { ...input, ...p }, input.agrupar ?? 'mes', paging(input));
    },
  }),
  defineAction({
    name: 'informeinventario',
    method: 'GET',
    flags: ['almacenes'],
    input: {
      ...baseSchema,
      fecha: { type: 'date' },
      almacen_id: idFiltro,
      familia_id: idFiltro,
      marca_id: idFiltro,
      agrupar: { type: 'enum', values: ['articulo', 'almacen', 'familia'] },
      vista: { type: 'enum', values: ['todos', 'negativo', 'sin_movimiento', 'bajo_minimo'] },
      dias: { type: 'int', min: 1, max: 3650 },
    } as const,
    async handler({ input, app }) {
      const fecha = input.fecha ?? todayIn(app.timeZone);
      return informeInventario(app, { ...input, fecha, agrupar: input.agrupar ?? 'articulo', vista: input.vista ?? 'todos', dias: input.dias ?? 90 }, paging(input));
    },
  }),
  defineAction({
    name: 'informemovimientos',
    method: 'GET',
    flags: ['almacenes'],
    input: { ...baseSchema, articulo_id: idFiltro, almacen_id: idFiltro, ubicacion_id: idFiltro, causa: { type: 'string', max: 40 } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return await informeMovimientos(app, { ...input, ...p }, paging(input));
    },
  }),
  defineAction({
    name: 'informeproveedores',
    method: 'GET',
    flags: ['compras'],
    input: { ...baseSchema, proveedor_id: idFiltro, agrupar: { type: 'enum', values: ['proveedor', 'mes', 'anio'] } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return await informeProveedores(app, { ...input, ...p, agrupar: input.agrupar ?? 'proveedor' }, paging(input));
    },
  }),
  defineAction({
    name: 'informeclientes',
    method: 'GET',
    flags: ['ventas'],
    input: { ...baseSchema, cliente_id: idFiltro, serie_id: idFiltro, agrupar: { type: 'enum', values: ['cliente', 'mes', 'anio'] } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return await informeClientes(app, { ...input, ...p, agrupar: input.agrupar ?? 'cliente' }, paging(input));
    },
  }),
  defineAction({
    name: 'informearticulos',
    method: 'GET',
    flags: ['ventas'],
    input: { ...baseSchema, familia_id: idFiltro, marca_id: idFiltro, almacen_id: idFiltro, cliente_id: idFiltro, vista: { type: 'enum', values: ['todos', 'bajo_coste'] } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return await informeArticulos(app, { ...input, ...p, vista: input.vista ?? 'todos' }, paging(input));
    },
  }),
  defineAction({
    name: 'informetarifas',
    method: 'GET',
    input: { ...baseSchema, familia_id: idFiltro, marca_id: idFiltro, bajo_coste: { type: 'flag' } } as const,
    async handler({ input, app }) {
      return await informeTarifas(app, await app.config.flags(), input, paging(input));
    },
  }),
  defineAction({
    name: 'informefurgonetas',
    method: 'GET',
    flags: ['furgonetas'],
    input: { ...baseSchema, almacen_id: idFiltro, agrupar: { type: 'enum', values: ['furgoneta', 'dia', 'conductor'] } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return await informeFurgonetas(app, { ...input, ...p, agrupar: input.agrupar ?? 'furgoneta' }, paging(input));
    },
  }),
  defineAction({
    name: 'informecierrestpv',
    method: 'GET',
    flags: ['tpv'],
    input: { ...baseSchema, terminal_id: idFiltro, agrupar: { type: 'enum', values: ['cierre', 'dia', 'terminal'] } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return informeCierresTpv(app, { ...input, ...p, agrupar: input.agrupar ?? 'cierre' }, paging(input));
    },
  }),
  defineAction({
    name: 'librofacturasexpedidas',
    method: 'GET',
    flags: ['ventas', 'ventas_facturas'],
    input: { ...baseSchema, ...fiscalPeriodo(), serie_id: idFiltro } as const,
    async handler({ input, app }) {
      return libroExpedidas(app, { ...periodoDe(app, input), serie_id: input.serie_id }, paging(input));
    },
  }),
  defineAction({
    name: 'librofacturasrecibidas',
    method: 'GET',
    flags: ['compras', 'hcp'],
    input: { ...baseSchema, ...fiscalPeriodo(), proveedor_id: idFiltro } as const,
    async handler({ input, app }) {
      return libroRecibidas(app, { ...periodoDe(app, input), proveedor_id: input.proveedor_id }, paging(input));
    },
  }),
  defineAction({
    name: 'modelo303',
    method: 'GET',
    flags: ['ventas', 'ventas_facturas'],
    input: { ...baseSchema, ...fiscalPeriodo() } as const,
    async handler({ input, app }) {
      // Issue 16: the 303 is IVA's. IGIC is declared to the Agencia Tributaria Canaria (Modelo 420), IPSI to the city
      // of Ceuta or Melilla: neither is prepared here; the libro de facturas expedidas gives their bases and quotas.
      const impuesto = (await readConfiguracion(app))?.impuesto ?? 'iva';
      if (impuesto !== 'iva') throw fail(MODELO_303_SIN_IVA[impuesto]);
      const flags = await app.config.flags();
      return modelo303(app, periodoDe(app, input), flags.compras === 1 && flags.hcp === 1);
    },
  }),
  defineAction({
    name: 'modelo347',
    method: 'GET',
    input: { ...baseSchema, ejercicio: { type: 'int', min: 2000, max: 2100 }, clave: { type: 'enum', values: ['A', 'B'] } } as const,
    async handler({ input, app }) {
      const flags = await app.config.flags();
      const ventas = flags.ventas === 1 && flags.ventas_facturas === 1;
      const compras = flags.compras === 1 && flags.hcp === 1;
      if (!ventas && !compras) throw new ActionError(403, { RESULT: '1', message: MESSAGES.moduleOff });
      const ejercicio = input.ejercicio ?? Number(todayIn(app.timeZone).slice(0, 4));
      return modelo347(app, { ejercicio, clave: input.clave }, paging(input), { ventas, compras });
    },
  }),
  defineAction({
    name: 'recalcularinformes',
    method: 'POST',
    input: {} as const,
    async handler({ app }) {
      const r = await recalcularAgregados(app.db, app.dialect);
      const message = r.diferencias === 0
        ? `Informes recalculados: ${r.filas.toLocaleString('es-ES')} filas, sin diferencias`
        : `Informes recalculados: ${r.filas.toLocaleString('es-ES')} filas; ${r.diferencias.toLocaleString('es-ES')} diferían y se han corregido`;
      return { RESULT: '0', message, data: [{ filas: r.filas, diferencias: r.diferencias }] };
    },
  }),
  defineAction({
    // Issue 16: intra-EU operations per NIF-IVA and quarter (E and S from the invoices, A from the supplier invoices).
    name: 'modelo349',
    method: 'GET',
    input: { ...baseSchema, ...fiscalPeriodo(), clave: { type: 'enum', values: ['E', 'S', 'A'] }, agrupar: { type: 'enum', values: ['operador', 'rectificacion'] } } as const,
    async handler({ input, app }) {
      const flags = await app.config.flags();
      const ventas = flags.ventas === 1 && flags.ventas_facturas === 1;
      const compras = flags.compras === 1 && flags.hcp === 1;
      if (!ventas && !compras) throw new ActionError(403, { RESULT: '1', message: MESSAGES.moduleOff });
      return modelo349(app, { ...periodoDe(app, input), clave: input.clave, agrupar: input.agrupar }, paging(input), { ventas, compras });
    },
  }),
  defineAction({
    // Issue 25: the numbering of each serie in a year: issued, cancelled, and the numbers no document holds.
    name: 'numeracionfacturas',
    method: 'GET',
    flags: ['ventas', 'ventas_facturas'],
    input: { ...baseSchema, ejercicio: { type: 'int', min: 2000, max: 2100 }, serie_id: idFiltro } as const,
    async handler({ input, app }) {
      const ejercicio = input.ejercicio ?? Number(todayIn(app.timeZone).slice(0, 4));
      return numeracionFacturas(app, { ejercicio, serie_id: input.serie_id }, paging(input));
    },
  }),
  defineAction({
    name: 'informeregistros',
    method: 'GET',
    flags: ['ventas', 'ventas_facturas'],
    input: { ...baseSchema, estado: { type: 'string', max: 40 }, agrupar: { type: 'enum', values: ['estado', 'registro'] } } as const,
    async handler({ input, app }) {
      const p = periodo(app, input);
      return informeRegistros(app, { ...p, estado: input.estado, agrupar: input.agrupar ?? 'estado' }, paging(input));
    },
  }),
];

/** Fiscal periods: `ejercicio` + `periodo` (1T-4T or 01-12), or desde/hasta (default: the current quarter). */
function fiscalPeriodo() {
  return {
    ejercicio: { type: 'int', min: 2000, max: 2100 },
    periodo: { type: 'enum', values: ['1T', '2T', '3T', '4T', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'] },
  } as const;
}

function periodoDe(
  app: Parameters<typeof periodo>[0],
  input: { desde: string | null; hasta: string | null; ejercicio: number | null; periodo: string | null },
): { desde: string; hasta: string } {
  if (input.periodo || input.ejercicio) {
    const hoy = todayIn(app.timeZone);
    const ejercicio = input.ejercicio ?? Number(hoy.slice(0, 4));
    const periodo = input.periodo ?? `${Math.floor((Number(hoy.slice(5, 7)) - 1) / 3) + 1}T`;
    return periodoFiscal(ejercicio, periodo);
  }
  if (input.desde || input.hasta) return periodo(app, input);
  const hoy = todayIn(app.timeZone);
  return periodoFiscal(Number(hoy.slice(0, 4)), `${Math.floor((Number(hoy.slice(5, 7)) - 1) / 3) + 1}T`);
}
