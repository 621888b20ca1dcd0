import { CAUSA_LABEL, DOCUMENTO_TIPOS, ESTADO_ENVIO_LABEL, FORMAS_PAGO_TPV, formatMonth, medioPagoLabel, rutaDocumento, type DocumentoTipo } from 'shared';
import { rangoMes } from './periodo';
import type { Agrupacion, Columna, Contexto, Fila, Informe } from './tipos';

/**
 * Every report as data: the one screen (ReportePage) draws any of them. A row of a grouped answer carries
 * `clave` (the group's id or key: a customer's id, 'YYYY-MM', a serie's code) and `nombre` (its text).
 */

const prefix = '/informes';
export const rutaInforme = (slug: string) => `${prefix}/${slug}`;

const txt = (id: string, header: string, extra: Partial<Columna> = {}): Columna => ({ id, header, formato: 'texto', movil: true, ...extra });
const dinero = (id: string, header: string, extra: Partial<Columna> = {}): Columna => ({ id, header, formato: 'dinero', total: true, ...extra });
const cantidad = (id: string, header: string, extra: Partial<Columna> = {}): Columna => ({ id, header, formato: 'cantidad', total: true, ...extra });
const entero = (id: string, header: string, extra: Partial<Columna> = {}): Columna => ({ id, header, formato: 'entero', total: true, ...extra });
const precio = (id: string, header: string, extra: Partial<Columna> = {}): Columna => ({ id, header, formato: 'precio', ...extra });
const num = (v: unknown): bigint | null => {
  if (v === null || v === undefined || v === '') return null;
  try {
    return BigInt(typeof v === 'number' ? Math.round(v) : String(v));
  } catch {
    return null;
  }
};
/** a / b as hundredths of a percent, rounded half away from zero; null without a base. */
export function porcentaje(a: unknown, b: unknown): bigint | null {
  const x = num(a);
  const y = num(b);
  if (x === null || y === null || y === 0n) return null;
  const n = x * 20000n;
  const q = n / y;
  return (q + (q >= 0n ? 1n : -1n)) / 2n;
}
/** The group's key and its text. */
const clave = (row: Fila): string => String(row.clave ?? row.id ?? '');
const nombre = (header: string): Columna => txt('nombre', header);
const mesCol: Columna = { id: 'clave', header: 'Mes', formato: 'mes', movil: true };
const diaCol: Columna = { id: 'clave', header: 'Día', formato: 'fecha', movil: true };
const codigoCol: Columna = txt('codigo', 'Código');

/** The same report one level down: a month or a day becomes its own period; a group becomes a filter (bajarPor). */
const bajarMes =
  (slug: string, agrupar: string) =>
  (row: Fila, ctx: Contexto): string =>
    ctx.informe(slug, { agrupar, ...rangoMes(clave(row).slice(0, 7)), pagina: undefined }, true);
const bajarDia =
  (slug: string, agrupar: string) =>
  (row: Fila, ctx: Contexto): string =>
    ctx.informe(slug, { agrupar, desde: clave(row), hasta: clave(row), pagina: undefined }, true);

const articulo = (row: Fila) => (clave(row) ? `/catalogo/articulo/${row.articulo_id ?? clave(row)}` : null);
const cliente = (id: unknown) => (id ? `/ventas/cliente/${id}` : null);
const proveedor = (id: unknown) => (id ? `/compras/proveedor/${id}` : null);
const documento = (row: Fila) => rutaDocumento((row.documento_tipo ?? row.tipo) as string | null, Number(row.documento_id) || null);
const textoMes = (d: string) => (/^\d{4}-\d{2}/.test(d) ? formatMonth(d.slice(0, 7)) : d);

const articuloClaves: Columna[] = [codigoCol, txt('descripcion', 'Artículo')];
/** By article: `nombre` is «código · descripción» in the sales and purchases; the article reports send both apart. */
const agrupacionArticulo = (abrir?: Agrupacion['abrir'], claves: Columna[] = [nombre('Artículo')]): Agrupacion => ({
  value: 'articulo',
  label: 'Artículo',
  claves,
  abrir: abrir ?? ((r) => articulo(r)),
});
/** A row's own id for a filter: the group id the server names (`cliente_id`...), else its `clave`. */
const id = (campo: string) => (row: Fila) => String(row[campo] ?? clave(row));
const bajarPor =
  (slug: string, agrupar: string, filtro: string) =>
  (row: Fila, ctx: Contexto): string =>
    ctx.informe(slug, { agrupar, [filtro]: id(filtro)(row), pagina: undefined }, true);
const bajarAno =
  (slug: string, agrupar: string) =>
  (row: Fila, ctx: Contexto): string =>
    ctx.informe(slug, { agrupar, desde: `${clave(row)}-01-01`, hasta: `${clave(row)}-12-31`, pagina: undefined }, true);

/** What `informeventas` calls a kind of document (`tipo`). */
const TIPOS_VENTA = [
  { value: 'factura', label: 'Facturas' },
  { value: 'ticket', label: 'Tickets' },
  { value: 'albaranventa', label: 'Albaranes sin facturar' },
  { value: 'parte', label: 'Partes de trabajo sin facturar' },
  { value: 'rectificativa', label: 'Rectificativas' },
  { value: 'devolucionventa', label: 'Devoluciones sin facturar' },
];
const TIPO_LABEL: Record<string, string> = { ...Object.fromEntries(TIPOS_VENTA.map((t) => [t.value, t.label])), albarancompra: 'Albaranes de compra', devolucioncompra: 'Devoluciones de compra' };
const margenPctCol: Columna = { id: 'margen_pct', header: 'Margen %', formato: 'porcentaje', calcular: (r) => (r.margen_pct !== undefined && r.margen_pct !== null ? (r.margen_pct as number) : porcentaje(r.margen, r.base)) };

/** A document type as a word: «Factura», «Ticket», «Albarán de compra»... */
const tipoTexto = (tipo: unknown): string | null => {
  const t = String(tipo ?? '');
  if (!t) return null;
  return DOCUMENTO_TIPOS[t as DocumentoTipo]?.singular ?? TIPO_LABEL[t] ?? t;
};
/** By document: `nombre` is «número · cliente». */
const documentoClaves: Columna[] = [
  { id: 'fecha', header: 'Fecha', formato: 'fecha', movil: true },
  txt('nombre', 'Documento'),
  { id: 'tipo', header: 'Tipo', formato: 'texto', calcular: (r) => tipoTexto(r.tipo) },
];
const tipoClaves: Columna[] = [{ id: 'nombre', header: 'Tipo', formato: 'texto', movil: true, calcular: (r) => tipoTexto(r.tipo ?? r.clave) }];

const ventas: Informe = {
  slug: 'info-ventas',
  titulo: 'Ventas',
  descripcion: 'Facturas, tickets y lo aún sin facturar (albaranes, partes), con rectificativas y devoluciones restadas; margen sobre el coste medio del momento',
  ac: 'informeventas',
  grupo: 'Informes',
  module: 'ventas',
  area: 'ventas',
  periodo: 'rango',
  filtros: ['cliente', 'articulo', 'almacen', 'familia', 'marca', 'serie', 'terminal', 'usuario', 'tipo'],
  tipos: TIPOS_VENTA,
  agrupar: [
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-ventas', 'cliente') },
    { value: 'dia', label: 'Día', claves: [diaCol], abrir: bajarDia('info-ventas', 'documento') },
    { value: 'cliente', label: 'Cliente', claves: [nombre('Cliente')], abrir: bajarPor('info-ventas', 'articulo', 'cliente_id') },
    agrupacionArticulo(),
    { value: 'familia', label: 'Familia', claves: [nombre('Familia')], abrir: bajarPor('info-ventas', 'articulo', 'familia_id') },
    { value: 'marca', label: 'Marca', claves: [nombre('Marca')], abrir: bajarPor('info-ventas', 'articulo', 'marca_id') },
    { value: 'serie', label: 'Serie', claves: [nombre('Serie')], abrir: bajarPor('info-ventas', 'documento', 'serie_id') },
    { value: 'almacen', label: 'Almacén', claves: [nombre('Almacén')], abrir: bajarPor('info-ventas', 'articulo', 'almacen_id') },
    { value: 'terminal', label: 'Terminal', flag: 'tpv', claves: [nombre('Terminal')], abrir: bajarPor('info-ventas', 'documento', 'terminal_id') },
    { value: 'usuario', label: 'Usuario (cajero)', claves: [nombre('Usuario')], abrir: bajarPor('info-ventas', 'documento', 'usuario_id') },
    { value: 'tipo', label: 'Tipo de documento', claves: tipoClaves, abrir: (r, ctx) => ctx.informe('info-ventas', { agrupar: 'documento', tipo: clave(r), pagina: undefined }, true) },
    { value: 'documento', label: 'Documento', claves: documentoClaves, abrir: (r) => documento(r) },
  ],
  cifras: [
    entero('documentos', 'Documentos'),
    cantidad('unidades', 'Unidades'),
    dinero('base', 'Base', { movil: true }),
    dinero('iva', 'IVA'),
    dinero('recargo', 'Recargo'),
    dinero('total', 'Total'),
    dinero('coste', 'Coste'),
    dinero('margen', 'Margen', { movil: true }),
    margenPctCol,
    dinero('facturas', 'Facturas', { total: false }),
    dinero('tickets', 'Tickets', { total: false, flag: 'tpv' }),
    dinero('albaranes', 'Albaranes', { total: false }),
    dinero('partes', 'Partes', { total: false, flag: 'partes_trabajo' }),
    dinero('rectificativas', 'Rectificativas', { total: false }),
    dinero('devoluciones', 'Devoluciones', { total: false }),
  ],
  subtotal: { clave: (r) => String(r.clave ?? '').slice(0, 7), etiqueta: (r) => `Subtotal ${textoMes(String(r.clave ?? ''))}`, agrupar: ['dia'], orden: [undefined, 'clave', 'fecha'] },
  grafico: { valor: 'base', titulo: 'Base imponible' },
};

const compras: Informe = {
  slug: 'info-compras',
  titulo: 'Compras',
  descripcion: 'Albaranes recibidos, con las devoluciones restadas; lo facturado por el proveedor (facturas registradas) y lo pendiente; precio medio y último',
  ac: 'informecompras',
  grupo: 'Informes',
  module: 'compras',
  area: 'compras',
  periodo: 'rango',
  filtros: ['proveedor', 'articulo', 'almacen', 'familia'],
  agrupar: [
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-compras', 'proveedor') },
    { value: 'proveedor', label: 'Proveedor', claves: [nombre('Proveedor')], abrir: bajarPor('info-compras', 'articulo', 'proveedor_id') },
    agrupacionArticulo(),
    { value: 'familia', label: 'Familia', claves: [nombre('Familia')], abrir: bajarPor('info-compras', 'articulo', 'familia_id') },
    { value: 'almacen', label: 'Almacén', claves: [nombre('Almacén')], abrir: bajarPor('info-compras', 'articulo', 'almacen_id') },
    { value: 'tipo', label: 'Tipo de documento', claves: tipoClaves },
    { value: 'documento', label: 'Documento', claves: documentoClaves, abrir: (r) => documento(r) },
  ],
  cifras: (_v, agrupar) => [
    entero('documentos', 'Documentos'),
    cantidad('unidades', 'Unidades'),
    dinero('base', 'Base', { movil: true }),
    dinero('iva', 'IVA'),
    dinero('total', 'Total'),
    dinero('facturado', 'Facturado', { movil: true }),
    dinero('pendiente_facturar', 'Pendiente de facturar'),
    dinero('devoluciones', 'Devoluciones'),
    ...(agrupar === 'articulo' ? [precio('precio_medio', 'Precio medio'), precio('ultimo_precio', 'Último precio')] : []),
  ],
  grafico: { valor: 'base', titulo: 'Base de las compras' },
};

const inventario: Informe = {
  slug: 'info-inventario',
  titulo: 'Inventario valorado',
  descripcion: 'Stock y su valor a una fecha, a coste medio y a último precio de compra; cobertura y artículos sin movimiento',
  ac: 'informeinventario',
  grupo: 'Informes',
  module: 'almacenes',
  area: 'almacenes',
  periodo: 'fecha',
  filtros: ['almacen', 'familia', 'marca', 'dias'],
  vistas: [
    { value: 'todos', label: 'Todo el stock' },
    { value: 'negativo', label: 'Stock negativo' },
    { value: 'sin_movimiento', label: 'Sin movimiento en N días' },
    // Per article whatever the grouping (the server answers one row per article under its minimum).
    { value: 'bajo_minimo', label: 'Bajo mínimo', params: { vista: 'bajo_minimo', agrupar: 'articulo' } },
  ],
  agrupar: [
    {
      value: 'articulo',
      label: 'Artículo',
      claves: [...articuloClaves, txt('familia', 'Familia', { movil: false })],
      abrir: (r, ctx) => ctx.informe('info-movimientos', { articulo_id: String(r.articulo_id ?? clave(r)), almacen_id: ctx.params.get('almacen_id') ?? undefined }),
    },
    // The goods in transit (issue 25: a transfer sent, not received) come as a row of their own, «En tránsito»: no
    // warehouse to open.
    {
      value: 'almacen',
      label: 'Almacén',
      claves: [nombre('Almacén')],
      abrir: (r, ctx) => (r.en_transito ? null : bajarPor('info-inventario', 'articulo', 'almacen_id')(r, ctx)),
    },
    { value: 'familia', label: 'Familia', claves: [nombre('Familia')], abrir: bajarPor('info-inventario', 'articulo', 'familia_id') },
  ],
  cifras: (vista, agrupar) =>
    vista === 'bajo_minimo'
      ? [
          cantidad('stock_minimo', 'Stock mínimo', { total: false }),
          cantidad('unidades', 'Stock', { movil: true }),
          cantidad('a_pedir', 'A pedir', { movil: true }),
          precio('ultimo_precio', 'Último precio'),
          dinero('importe_pedir', 'Importe a pedir'),
          txt('proveedor', 'Proveedor (última compra)', { movil: false }),
        ]
      : agrupar === 'articulo'
      ? [
          cantidad('unidades', 'Stock', { movil: true }),
          // Of the stock, what a transfer has on its way (issue 25: the company's, in no warehouse yet).
          cantidad('en_transito', 'En tránsito', { total: false }),
          precio('coste_unitario', 'Coste medio'),
          dinero('valor', 'Valor', { movil: true }),
          precio('ultimo_precio', 'Último precio'),
          dinero('valor_ultimo', 'Valor a último precio'),
          cantidad('vendidas', 'Vendidas (N días)'),
          { id: 'dias_cobertura', header: 'Días de cobertura', formato: 'entero' },
          { id: 'ultimo_movimiento', header: 'Último movimiento', formato: 'fecha' },
          { id: 'dias_sin_movimiento', header: 'Días sin movimiento', formato: 'entero' },
        ]
      : [
          { id: 'articulos', header: 'Artículos', formato: 'entero', movil: false },
          cantidad('unidades', 'Stock'),
          dinero('valor', 'Valor', { movil: true }),
          dinero('valor_ultimo', 'Valor a último precio'),
          cantidad('vendidas', 'Vendidas (N días)'),
        ],
  subtotal: { clave: (r) => String(r.familia ?? ''), etiqueta: (r) => `Subtotal ${String(r.familia ?? 'sin familia')}`, agrupar: ['articulo'], orden: ['familia'] },
  grafico: { valor: 'valor', titulo: 'Valor del stock' },
};

const CAUSAS = Object.entries(CAUSA_LABEL).map(([value, label]) => ({ value, label }));

const movimientos: Informe = {
  slug: 'info-movimientos',
  titulo: 'Movimientos de stock',
  descripcion: 'El libro de stock: cada entrada y salida con su documento y el saldo del artículo en su almacén tras ella',
  ac: 'informemovimientos',
  grupo: 'Informes',
  module: 'almacenes',
  area: 'almacenes',
  periodo: 'rango',
  filtros: ['articulo', 'almacen', 'causa'],
  tipos: CAUSAS,
  agrupar: [
    {
      value: 'movimiento',
      label: 'Movimiento',
      claves: [
        { id: 'fecha', header: 'Fecha', formato: 'fecha', movil: true },
        txt('documento_numero', 'Documento', { sinOrden: true }),
        txt('codigo', 'Código', { movil: false, sinOrden: true }),
        txt('descripcion', 'Artículo', { sinOrden: true }),
        txt('almacen', 'Almacén', { movil: false, sinOrden: true }),
        txt('ubicacion', 'Ubicación', { movil: false, sinOrden: true }),
        { id: 'causa', header: 'Tipo', formato: 'causa', sinOrden: true },
      ],
      abrir: (r) => documento(r),
    },
  ],
  cifras: [
    cantidad('unidades', 'Cantidad', { movil: true, sinOrden: true }),
    cantidad('saldo', 'Saldo', { total: false, sinOrden: true, movil: true }),
    precio('coste', 'Coste medio tras él', { sinOrden: true }),
    dinero('valor', 'Valor', { total: false, sinOrden: true }),
  ],
};

const proveedores: Informe = {
  slug: 'info-proveedores',
  titulo: 'Proveedores',
  descripcion: 'Ranking de proveedores: documentos, importes por año y mes, devoluciones, lo pendiente de recibir y de facturar',
  ac: 'informeproveedores',
  grupo: 'Informes',
  module: 'compras',
  area: 'compras',
  periodo: 'rango',
  periodoInicial: 'este-ano',
  filtros: ['proveedor'],
  agrupar: [
    { value: 'proveedor', label: 'Proveedor (ranking)', claves: [nombre('Proveedor'), txt('nif', 'NIF', { movil: false }), txt('provincia', 'Provincia', { movil: false })], abrir: bajarPor('info-compras', 'articulo', 'proveedor_id') },
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-proveedores', 'proveedor') },
    { value: 'anio', label: 'Año', claves: [{ id: 'clave', header: 'Año', formato: 'anio', movil: true }], abrir: bajarAno('info-proveedores', 'mes') },
  ],
  cifras: [
    entero('documentos', 'Documentos'),
    dinero('base', 'Base'),
    dinero('total', 'Total', { movil: true }),
    dinero('devoluciones', 'Devoluciones'),
    entero('facturas', 'Facturas recibidas'),
    dinero('facturado', 'Facturado'),
    dinero('pendiente_facturar', 'Pendiente de facturar'),
    dinero('pendiente_recibir', 'Pendiente de recibir', { movil: true }),
  ],
  grafico: { valor: 'total', titulo: 'Compras' },
};

const clientes: Informe = {
  slug: 'info-clientes',
  titulo: 'Clientes',
  descripcion: 'Ranking de clientes: ventas, margen, devoluciones, lo pendiente de servir y los cobros pendientes con su antigüedad',
  ac: 'informeclientes',
  grupo: 'Informes',
  module: 'ventas',
  area: 'ventas',
  periodo: 'rango',
  periodoInicial: 'este-ano',
  filtros: ['cliente', 'serie'],
  vistas: [
    { value: 'ventas', label: 'Ventas', local: true },
    { value: 'cobros', label: 'Cobros pendientes y antigüedad', local: true },
  ],
  agrupar: [
    { value: 'cliente', label: 'Cliente (ranking)', claves: [nombre('Cliente'), txt('nif', 'NIF', { movil: false }), txt('provincia', 'Provincia', { movil: false })], abrir: bajarPor('info-ventas', 'articulo', 'cliente_id') },
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-clientes', 'cliente') },
    { value: 'anio', label: 'Año', claves: [{ id: 'clave', header: 'Año', formato: 'anio', movil: true }], abrir: bajarAno('info-clientes', 'mes') },
  ],
  cifras: (vista) =>
    vista === 'cobros'
      ? [
          dinero('pendiente_cobro', 'Pendiente de cobro', { movil: true }),
          dinero('tramo_0_30', '0–30 días'),
          dinero('tramo_31_60', '31–60 días'),
          dinero('tramo_61_90', '61–90 días'),
          dinero('tramo_90', 'Más de 90 días'),
          dinero('vencido', 'Vencido', { movil: true }),
          entero('facturas_vencidas', 'Facturas vencidas'),
        ]
      : [
          entero('documentos', 'Documentos'),
          dinero('base', 'Base', { movil: true }),
          dinero('total', 'Total'),
          dinero('margen', 'Margen'),
          margenPctCol,
          dinero('devoluciones', 'Devoluciones'),
          dinero('pendiente_servir', 'Pendiente de servir'),
          dinero('pendiente_cobro', 'Pendiente de cobro', { movil: true }),
        ],
  grafico: { valor: 'total', titulo: 'Ventas' },
};

const articulos: Informe = {
  slug: 'info-articulos',
  titulo: 'Artículos',
  descripcion: 'Más y menos vendidos (ordene por base), ABC por facturación y por margen, rotación, compras y ventas bajo coste',
  ac: 'informearticulos',
  grupo: 'Informes',
  module: 'ventas',
  area: 'catalogo',
  periodo: 'rango',
  periodoInicial: 'este-ano',
  filtros: ['familia', 'marca', 'almacen', 'cliente'],
  vistas: [
    { value: 'todos', label: 'Todos los vendidos' },
    { value: 'bajo_coste', label: 'Vendidos bajo coste' },
  ],
  agrupar: [agrupacionArticulo(undefined, articuloClaves)],
  cifras: [
    txt('clase_abc', 'ABC', { movil: true }),
    txt('clase_margen', 'ABC margen', { movil: false }),
    cantidad('unidades', 'Vendidas', { movil: true }),
    dinero('base', 'Ventas (base)', { movil: true }),
    dinero('coste', 'Coste'),
    dinero('margen', 'Margen'),
    margenPctCol,
    cantidad('unidades_compradas', 'Compradas'),
    cantidad('stock', 'Stock hoy', { total: false }),
    { id: 'rotacion', header: 'Rotación', formato: 'razon' },
    entero('lineas_bajo_coste', 'Líneas bajo coste'),
  ],
  grafico: { valor: 'base', titulo: 'Ventas por artículo' },
};

const tarifas: Informe = {
  slug: 'info-tarifas',
  titulo: 'Tarifas y márgenes',
  descripcion: 'Precios de cada artículo activo en sus tarifas y PVP, con el margen sobre el coste medio y sobre el último precio de compra',
  ac: 'informetarifas',
  grupo: 'Informes',
  area: 'catalogo',
  periodo: 'ninguno',
  filtros: ['familia', 'marca'],
  vistas: [
    { value: 'todos', label: 'Todos los artículos', params: {} },
    { value: 'bajo_coste', label: 'Algún precio bajo coste', params: { bajo_coste: '1' } },
  ],
  agrupar: [agrupacionArticulo(undefined, articuloClaves)],
  cifras: [
    txt('familia', 'Familia', { movil: false }),
    // The answer's `coste` (the average cost; informeinventario's is `coste_unitario`).
    precio('coste', 'Coste medio'),
    precio('ultimo_precio', 'Último precio'),
    precio('precio_venta', 'Tarifa 1', { movil: true }),
    { id: 'margen_1', header: 'Margen T1', formato: 'porcentaje', movil: true },
    { id: 'margen_1_ultimo', header: 'Margen T1 s/ último', formato: 'porcentaje' },
    precio('tarifa_2', 'Tarifa 2', { flag: 'tarifa_2' }),
    { id: 'margen_2', header: 'Margen T2', formato: 'porcentaje', flag: 'tarifa_2' },
    precio('tarifa_3', 'Tarifa 3', { flag: 'tarifa_3' }),
    { id: 'margen_3', header: 'Margen T3', formato: 'porcentaje', flag: 'tarifa_3' },
    dinero('pvp_1', 'PVP 1', { total: false, flag: 'pvp' }),
    dinero('pvp_2', 'PVP 2', { total: false, flag: 'pvp_2' }),
    dinero('pvp_3', 'PVP 3', { total: false, flag: 'pvp_3' }),
  ],
};

const furgonetas: Informe = {
  slug: 'info-furgonetas',
  titulo: 'Furgonetas',
  descripcion: 'Por furgoneta: cargas, ventas, devoluciones y el stock a bordo con su valor, por día y conductor',
  ac: 'informefurgonetas',
  grupo: 'Informes',
  module: ['almacenes', 'furgonetas'],
  area: 'almacenes',
  periodo: 'rango',
  filtros: ['furgoneta'],
  agrupar: [
    { value: 'furgoneta', label: 'Furgoneta', claves: [nombre('Furgoneta'), txt('matricula', 'Matrícula', { movil: false }), txt('conductor', 'Conductor', { movil: false })], abrir: bajarPor('info-furgonetas', 'dia', 'almacen_id') },
    { value: 'dia', label: 'Día', claves: [diaCol], abrir: bajarDia('info-furgonetas', 'furgoneta') },
    { value: 'conductor', label: 'Conductor', claves: [nombre('Conductor')] },
  ],
  cifras: [
    cantidad('cargas', 'Cargado (uds.)'),
    cantidad('descargas', 'Descargado (uds.)'),
    cantidad('unidades_vendidas', 'Vendido (uds.)'),
    cantidad('devoluciones', 'Devuelto (uds.)'),
    entero('documentos', 'Documentos'),
    dinero('base', 'Ventas (base)', { movil: true }),
    dinero('total', 'Ventas (total)'),
    cantidad('unidades', 'Stock a bordo'),
    dinero('valor', 'Valor a bordo', { movil: true }),
  ],
  grafico: { valor: 'base', titulo: 'Ventas' },
};

const ticketsDelDia = (r: Fila, ctx: Contexto) => {
  const dia = String(r.fecha ?? r.clave ?? '').slice(0, 10);
  return ctx.informe('info-ventas', { agrupar: 'documento', desde: dia, hasta: dia, tipo: 'ticket', terminal_id: r.terminal_id ? String(r.terminal_id) : undefined });
};

const cierres: Informe = {
  slug: 'cierres-tpv',
  titulo: 'Cierres de TPV',
  descripcion: 'Cierres por terminal y día: tickets, cobros por forma de pago, efectivo esperado y contado, y sus diferencias',
  ac: 'informecierrestpv',
  grupo: 'Informes',
  module: 'tpv',
  area: 'tpv',
  periodo: 'rango',
  filtros: ['terminal'],
  agrupar: [
    {
      value: 'cierre',
      label: 'Cierre',
      claves: [
        { id: 'fecha', header: 'Fecha', formato: 'fecha', movil: true },
        txt('codigo', 'Cierre', { movil: false }),
        { id: 'terminal', header: 'Terminal', formato: 'texto', movil: true, calcular: (r) => (r.terminal as string) ?? (r.nombre as string) ?? (r.terminal_id ? `Terminal ${r.terminal_id}` : null) },
      ],
      // A closing opens that day's tickets of its terminal.
      abrir: ticketsDelDia,
    },
    { value: 'dia', label: 'Día', claves: [diaCol], abrir: bajarDia('cierres-tpv', 'cierre') },
    { value: 'terminal', label: 'Terminal', claves: [nombre('Terminal')], abrir: bajarPor('cierres-tpv', 'cierre', 'terminal_id') },
  ],
  cifras: [
    entero('cierres', 'Cierres'),
    entero('tickets', 'Tickets'),
    dinero('devoluciones', 'Devoluciones'),
    dinero('total', 'Total', { movil: true }),
    // One column per medio de pago the till offers (shared/domain/mediosPago.ts), as the server sums them.
    ...FORMAS_PAGO_TPV.map((f) => dinero(f, medioPagoLabel(f))),
    dinero('efectivo_esperado', 'Efectivo esperado'),
    dinero('efectivo_contado', 'Contado'),
    dinero('diferencia', 'Diferencia', { movil: true }),
    dinero('base', 'Base'),
    dinero('iva', 'IVA'),
  ],
  grafico: { valor: 'total', titulo: 'Ventas del TPV' },
};

const expedidas: Informe = {
  slug: 'libro-expedidas',
  xlsx: true,
  titulo: 'Libro de facturas expedidas',
  descripcion: 'Libro registro de IVA de facturas expedidas con las columnas de la AEAT: una línea por factura y tipo de IVA',
  ac: 'librofacturasexpedidas',
  grupo: 'Fiscal',
  module: ['ventas', 'ventas_facturas'],
  area: 'facturas',
  periodo: 'rango',
  periodoInicial: 'trimestre-pasado',
  filtros: ['serie'],
  agrupar: [
    {
      value: 'factura',
      label: 'Factura',
      claves: [
        txt('ejercicio', 'Ejercicio', { movil: false, sinOrden: true, formato: 'anio' }),
        txt('periodo', 'Periodo', { movil: false, sinOrden: true }),
        { id: 'fecha_expedicion', header: 'Fecha expedición', formato: 'fecha', movil: true, sinOrden: true },
        { id: 'fecha_operacion', header: 'Fecha operación', formato: 'fecha', sinOrden: true },
        txt('serie', 'Serie', { movil: false, sinOrden: true }),
        txt('numero_factura', 'Número', { sinOrden: true }),
        txt('tipo_factura', 'Tipo factura', { movil: false, sinOrden: true }),
        txt('nif_destinatario', 'NIF destinatario', { movil: false, sinOrden: true }),
        txt('nombre_destinatario', 'Nombre destinatario', { sinOrden: true }),
        // Issue 25: a cancelled invoice keeps its row, «Anulada» here and amounts 0 (the answer's `anulacion_fecha` is
        // its anulación record's date), a ticket replaced by an F3 its own, «Sustituida» (one column: the PDF's page
        // has no width for another beside the number and the NIF).
        txt('calificacion', 'Calificación', {
          movil: false,
          sinOrden: true,
          calcular: (r) => (r.estado === 'Anulada' || r.estado === 'Sustituida' ? String(r.estado) : ((r.calificacion as string | null) ?? null)),
        }),
      ],
      abrir: (r) => documento(r),
    },
  ],
  cifras: [
    dinero('base', 'Base imponible', { movil: true, sinOrden: true }),
    { id: 'tipo_iva', header: 'Tipo IVA', formato: 'porcentaje', sinOrden: true },
    dinero('iva', 'Cuota IVA', { sinOrden: true }),
    { id: 'tipo_recargo', header: 'Tipo recargo', formato: 'porcentaje', sinOrden: true },
    dinero('recargo', 'Cuota recargo', { sinOrden: true }),
    dinero('retencion', 'Retención', { sinOrden: true }),
    dinero('total', 'Total factura', { movil: true, sinOrden: true }),
  ],
};

/** Issue 25: the correlative numbering of each serie in a year, every number accounted for. */
const numeracion: Informe = {
  slug: 'numeracion-facturas',
  titulo: 'Numeración de facturas',
  descripcion: 'Por serie y año: números dados, facturas emitidas, anuladas (con sus números) y los huecos, números que ningún documento tiene',
  ac: 'numeracionfacturas',
  grupo: 'Fiscal',
  module: ['ventas', 'ventas_facturas'],
  area: 'facturas',
  periodo: 'ejercicio',
  periodoInicial: 'este-ano',
  filtros: ['serie'],
  agrupar: [
    {
      value: 'serie',
      label: 'Serie',
      claves: [txt('serie', 'Serie', { movil: true }), txt('ejercicio', 'Ejercicio', { movil: false, sinOrden: true })],
      abrir: (r, ctx) =>
        ctx.informe('libro-expedidas', { serie_id: String(r.serie_id ?? ''), desde: `${r.ejercicio}-01-01`, hasta: `${r.ejercicio}-12-31`, pagina: undefined }, true),
    },
  ],
  cifras: [
    entero('primero', 'Primero', { total: false }),
    entero('ultimo', 'Último', { total: false }),
    entero('emitidas', 'Emitidas', { movil: true }),
    entero('anuladas', 'Anuladas', { movil: true }),
    txt('numeros_anulados', 'Números anulados', { sinOrden: true }),
    entero('huecos', 'Huecos', { movil: true }),
    txt('numeros_huecos', 'Números sin documento', { sinOrden: true }),
  ],
};

const recibidas: Informe = {
  slug: 'libro-recibidas',
  xlsx: true,
  titulo: 'Libro de facturas recibidas',
  descripcion: 'Libro registro de IVA de facturas recibidas (las facturas de proveedor registradas) con las columnas de la AEAT',
  ac: 'librofacturasrecibidas',
  grupo: 'Fiscal',
  module: ['compras', 'hcp'],
  area: 'facturas',
  periodo: 'rango',
  periodoInicial: 'trimestre-pasado',
  filtros: ['proveedor'],
  agrupar: [
    {
      value: 'factura',
      label: 'Factura',
      claves: [
        txt('ejercicio', 'Ejercicio', { movil: false, sinOrden: true, formato: 'anio' }),
        txt('periodo', 'Periodo', { movil: false, sinOrden: true }),
        txt('numero_registro', 'Nº registro', { movil: false, sinOrden: true }),
        { id: 'fecha_expedicion', header: 'Fecha expedición', formato: 'fecha', movil: true, sinOrden: true },
        { id: 'fecha_registro', header: 'Fecha registro', formato: 'fecha', sinOrden: true },
        txt('numero_factura', 'Número factura', { sinOrden: true }),
        txt('nif_emisor', 'NIF emisor', { movil: false, sinOrden: true }),
        txt('nombre_emisor', 'Nombre emisor', { sinOrden: true }),
      ],
      abrir: (r) => proveedor(r.proveedor_id),
    },
  ],
  cifras: [
    dinero('base', 'Base imponible', { movil: true, sinOrden: true }),
    { id: 'tipo_iva', header: 'Tipo IVA', formato: 'porcentaje', sinOrden: true },
    dinero('iva', 'Cuota soportada', { sinOrden: true }),
    dinero('iva_deducible', 'Cuota deducible', { sinOrden: true }),
    dinero('total', 'Total factura', { movil: true, sinOrden: true }),
  ],
};

const m303: Informe = {
  slug: 'modelo-303',
  titulo: 'Modelo 303',
  descripcion: 'Resumen del trimestre con las casillas del modelo: bases y cuotas por tipo, recargo, rectificativas, el IVA soportado y la información adicional (entregas intracomunitarias, exportaciones, no sujetas, inversión del sujeto pasivo)',
  ac: 'modelo303',
  grupo: 'Fiscal',
  module: ['ventas', 'ventas_facturas'],
  area: 'facturas',
  periodo: 'rango',
  periodoInicial: 'trimestre-pasado',
  filtros: [],
  sinPaginas: true,
  agrupar: [{ value: 'casilla', label: 'Casilla', claves: [txt('casilla', 'Casilla', { sinOrden: true }), txt('concepto', 'Concepto', { sinOrden: true })] }],
  cifras: [
    dinero('importe', 'Importe', { total: false, sinOrden: true, movil: true }),
    { id: 'porcentaje', header: 'Tipo', formato: 'porcentaje', sinOrden: true, movil: true },
  ],
};

const m347: Informe = {
  slug: 'modelo-347',
  titulo: 'Modelo 347',
  descripcion: 'Clientes y proveedores con operaciones de más de 3.005,06 € en el año (IVA incluido), por trimestre, con NIF y provincia',
  ac: 'modelo347',
  grupo: 'Fiscal',
  area: 'facturas',
  periodo: 'ejercicio',
  periodoInicial: 'ano-pasado',
  filtros: ['clave'],
  tipos: [
    { value: 'A', label: 'A · Compras (proveedores)' },
    { value: 'B', label: 'B · Ventas (clientes)' },
  ],
  agrupar: [
    {
      value: 'tercero',
      label: 'Tercero',
      claves: [
        txt('clave_operacion', 'Clave', { movil: false }),
        txt('nif', 'NIF'),
        txt('nombre', 'Nombre'),
        txt('provincia', 'Provincia', { movil: false }),
        txt('codigo_provincia', 'Cód. provincia', { movil: false }),
      ],
      abrir: (r) => (r.clave_operacion === 'A' ? proveedor(r.proveedor_id) : cliente(r.cliente_id)),
    },
  ],
  cifras: [dinero('t1', '1T'), dinero('t2', '2T'), dinero('t3', '3T'), dinero('t4', '4T'), dinero('importe', 'Total año', { movil: true })],
};

/** Issue 16: the intra-EU operations per operator (NIF-IVA), clave and quarter. */
const m349: Informe = {
  slug: 'modelo-349',
  titulo: 'Modelo 349',
  descripcion: 'Operaciones intracomunitarias por operador (NIF-IVA) y trimestre: entregas de bienes (E), servicios prestados (S) y adquisiciones (A)',
  ac: 'modelo349',
  grupo: 'Fiscal',
  area: 'facturas',
  periodo: 'rango',
  periodoInicial: 'trimestre-pasado',
  filtros: ['clave'],
  tipos: [
    { value: 'E', label: 'E · Entregas intracomunitarias de bienes' },
    { value: 'S', label: 'S · Prestaciones intracomunitarias de servicios' },
    { value: 'A', label: 'A · Adquisiciones intracomunitarias' },
  ],
  agrupar: [
    {
      value: 'operador',
      label: 'Operador',
      claves: [
        txt('periodo', 'Periodo'),
        txt('clave_operacion', 'Clave'),
        txt('pais', 'País', { movil: false }),
        txt('nif', 'NIF-IVA'),
        txt('nombre', 'Nombre'),
      ],
      abrir: (r) => (r.clave_operacion === 'A' ? proveedor(r.proveedor_id) : cliente(r.cliente_id)),
    },
    {
      // Corrections of an earlier quarter, declared apart: the quarter corrected, what was declared and the corrected base.
      value: 'rectificacion',
      label: 'Rectificaciones',
      claves: [
        txt('periodo', 'Periodo'),
        txt('periodo_rectificado', 'Periodo rectificado'),
        txt('clave_operacion', 'Clave'),
        txt('pais', 'País', { movil: false }),
        txt('nif', 'NIF-IVA'),
        txt('nombre', 'Nombre'),
      ],
      abrir: (r) => cliente(r.cliente_id),
    },
  ],
  cifras: (_v, agrupar) =>
    agrupar === 'rectificacion'
      ? [dinero('base_anterior', 'Base declarada anteriormente', { movil: true }), dinero('base_rectificada', 'Base rectificada', { movil: true })]
      : [dinero('base', 'Base imponible', { movil: true })],
};

const verifactu: Informe = {
  slug: 'registros-verifactu',
  titulo: 'Registros VERI*FACTU',
  descripcion: 'Control de los registros de facturación del periodo por estado: pendientes, enviados, aceptados, aceptados con errores, rechazados',
  ac: 'informeregistros',
  grupo: 'Fiscal',
  module: ['ventas', 'ventas_facturas'],
  area: ['facturas', 'verifactu'],
  periodo: 'rango',
  filtros: ['estado'],
  estados: (['pendiente', 'enviado', 'correcto', 'aceptado_con_errores', 'incorrecto'] as const).map((e) => ({ value: e, label: ESTADO_ENVIO_LABEL[e] })),
  agrupar: [
    { value: 'estado', label: 'Estado', claves: [{ id: 'estado', header: 'Estado', formato: 'verifactu', movil: true }], abrir: (r, ctx) => ctx.informe('registros-verifactu', { agrupar: 'registro', estado: String(r.estado ?? clave(r)), pagina: undefined }, true) },
    {
      value: 'registro',
      label: 'Registro',
      claves: [
        { id: 'fecha_expedicion', header: 'Fecha', formato: 'fecha', movil: true },
        txt('num_serie', 'Factura'),
        txt('tipo', 'Alta / anulación', { movil: false }),
        txt('tipo_factura', 'Tipo', { movil: false }),
        { id: 'estado', header: 'Estado', formato: 'verifactu', movil: true },
        txt('codigo_error', 'Código error', { movil: false }),
        txt('descripcion_error', 'Error AEAT', { movil: false, sinOrden: true }),
      ],
      abrir: (r) => documento(r),
    },
  ],
  cifras: (_v, agrupar) =>
    agrupar === 'registro'
      ? [dinero('cuota', 'Cuota', { total: false }), dinero('importe', 'Importe', { movil: true })]
      : [entero('registros', 'Registros', { movil: true }), entero('altas', 'Altas'), entero('anulaciones', 'Anulaciones'), dinero('importe', 'Importe')],
  grafico: { valor: 'registros', titulo: 'Registros' },
};

/** In menu order. */
export const INFORMES: Informe[] = [
  ventas,
  compras,
  inventario,
  movimientos,
  proveedores,
  clientes,
  articulos,
  tarifas,
  furgonetas,
  cierres,
  expedidas,
  numeracion,
  recibidas,
  m303,
  m347,
  m349,
  verifactu,
];

export const informePorSlug = (slug: string | undefined) => INFORMES.find((i) => i.slug === slug);
