import { ESTADO_ENVIO_LABEL, rutaDocumento } from 'shared';
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
const margenPct = (margen = 'margen', base = 'base'): Columna => ({
  id: `${margen}_pct`,
  header: 'Margen %',
  formato: 'porcentaje',
  sinOrden: true,
  calcular: (r) => porcentaje(r[margen], r[base]),
});

/** The group's key and its text. */
const clave = (row: Fila): string => String(row.clave ?? row.id ?? '');
const nombre = (header: string): Columna => txt('nombre', header);
const mesCol: Columna = { id: 'clave', header: 'Mes', formato: 'mes', movil: true };
const diaCol: Columna = { id: 'clave', header: 'Día', formato: 'fecha', movil: true };
const codigoCol: Columna = txt('codigo', 'Código');

/** The same report one level down: a month becomes its own period; a group becomes a filter. */
const bajar =
  (slug: string, agrupar: string, filtro?: string) =>
  (row: Fila, ctx: Contexto): string =>
    ctx.informe(slug, { agrupar, ...(filtro ? { [filtro]: clave(row) } : {}), pagina: undefined }, true);
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
const documento = (row: Fila) => rutaDocumento((row.documento_tipo ?? row.tipo) as string | null, Number(row.documento_id ?? row.id) || null);

const agrupacionArticulo = (abrir?: Agrupacion['abrir']): Agrupacion => ({
  value: 'articulo',
  label: 'Artículo',
  claves: [{ ...codigoCol, movil: false }, nombre('Artículo')],
  abrir: abrir ?? ((r) => articulo(r)),
});

const TIPOS_VENTA = [
  { value: 'factura', label: 'Facturas' },
  { value: 'ticket', label: 'Tickets' },
  { value: 'albaran', label: 'Albaranes sin facturar' },
  { value: 'rectificativa', label: 'Rectificativas' },
  { value: 'devolucion', label: 'Devoluciones' },
];

const ventas: Informe = {
  slug: 'info-ventas',
  titulo: 'Ventas',
  descripcion: 'Facturas, tickets y albaranes sin facturar, con rectificativas y devoluciones restadas; margen sobre el coste medio del momento',
  ac: 'informeventas',
  grupo: 'Informes',
  module: 'ventas',
  area: 'ventas',
  periodo: 'rango',
  filtros: ['cliente', 'almacen', 'familia', 'marca', 'serie', 'terminal', 'usuario', 'tipo'],
  tipos: TIPOS_VENTA,
  agrupar: [
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-ventas', 'cliente') },
    { value: 'cliente', label: 'Cliente', claves: [nombre('Cliente')], abrir: bajar('info-ventas', 'articulo', 'cliente_id') },
    agrupacionArticulo(),
    { value: 'familia', label: 'Familia', claves: [nombre('Familia')], abrir: bajar('info-ventas', 'articulo', 'familia_id') },
    { value: 'marca', label: 'Marca', claves: [nombre('Marca')], abrir: bajar('info-ventas', 'articulo', 'marca_id') },
    { value: 'serie', label: 'Serie', claves: [nombre('Serie')], abrir: bajar('info-ventas', 'cliente', 'serie_id') },
    { value: 'terminal', label: 'Terminal', claves: [nombre('Terminal')], abrir: bajar('info-ventas', 'usuario', 'terminal_id') },
    { value: 'usuario', label: 'Cajero', claves: [nombre('Usuario')], abrir: bajar('info-ventas', 'cliente', 'usuario_id') },
  ],
  cifras: [
    entero('documentos', 'Documentos'),
    cantidad('unidades', 'Unidades'),
    dinero('base', 'Base', { movil: true }),
    dinero('iva', 'IVA'),
    dinero('recargo', 'Recargo'),
    dinero('total', 'Total'),
    dinero('devoluciones', 'Devoluciones'),
    dinero('coste', 'Coste'),
    dinero('margen', 'Margen', { movil: true }),
    margenPct(),
  ],
  grafico: { valor: 'base', titulo: 'Base imponible' },
};

const compras: Informe = {
  slug: 'info-compras',
  titulo: 'Compras',
  descripcion: 'Albaranes recibidos y facturas de proveedor registradas, con las devoluciones restadas; precio medio y último',
  ac: 'informecompras',
  grupo: 'Informes',
  module: 'compras',
  area: 'compras',
  periodo: 'rango',
  filtros: ['proveedor', 'almacen', 'familia', 'marca'],
  agrupar: [
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-compras', 'proveedor') },
    { value: 'proveedor', label: 'Proveedor', claves: [nombre('Proveedor')], abrir: bajar('info-compras', 'articulo', 'proveedor_id') },
    agrupacionArticulo(),
    { value: 'familia', label: 'Familia', claves: [nombre('Familia')], abrir: bajar('info-compras', 'articulo', 'familia_id') },
  ],
  cifras: [
    entero('documentos', 'Documentos'),
    cantidad('unidades', 'Unidades'),
    dinero('base', 'Base', { movil: true }),
    dinero('iva', 'IVA'),
    dinero('total', 'Total'),
    dinero('recibido', 'Recibido'),
    dinero('facturado', 'Facturado', { movil: true }),
    dinero('devoluciones', 'Devoluciones'),
    precio('precio_medio', 'Precio medio'),
    precio('precio_ultimo', 'Último precio'),
  ],
  grafico: { valor: 'base', titulo: 'Base de las compras' },
};

const inventario: Informe = {
  slug: 'info-inventario',
  titulo: 'Inventario valorado',
  descripcion: 'Stock y su valor a una fecha, a coste medio y a último precio de compra',
  ac: 'informeinventario',
  grupo: 'Informes',
  module: 'almacenes',
  area: 'almacenes',
  periodo: 'fecha',
  filtros: ['almacen', 'familia', 'marca', 'dias'],
  vistas: [
    { value: 'stock', label: 'Todo el stock' },
    { value: 'bajo_minimo', label: 'Bajo mínimo' },
    { value: 'sin_movimiento', label: 'Sin movimiento' },
    { value: 'negativo', label: 'Stock negativo' },
  ],
  agrupar: [
    {
      value: 'articulo',
      label: 'Artículo',
      claves: [{ ...codigoCol, movil: false }, nombre('Artículo'), txt('almacen_nombre', 'Almacén', { movil: false, sinOrden: true })],
      abrir: (r, ctx) => ctx.informe('info-movimientos', { articulo_id: String(r.articulo_id ?? clave(r)), almacen_id: r.almacen_id ? String(r.almacen_id) : undefined }),
    },
    { value: 'almacen', label: 'Almacén', claves: [nombre('Almacén')], abrir: bajar('info-inventario', 'articulo', 'almacen_id') },
    { value: 'familia', label: 'Familia', claves: [nombre('Familia')], abrir: bajar('info-inventario', 'articulo', 'familia_id') },
  ],
  cifras: [
    cantidad('unidades', 'Stock', { movil: true }),
    cantidad('minimo', 'Mínimo', { total: false }),
    precio('coste_medio', 'Coste medio'),
    dinero('valor', 'Valor', { movil: true }),
    dinero('valor_ultimo', 'Valor a último precio'),
    { id: 'dias_cobertura', header: 'Días de cobertura', formato: 'entero' },
    { id: 'ultimo_movimiento', header: 'Último movimiento', formato: 'fecha' },
  ],
  subtotal: { campo: 'almacen_nombre', etiqueta: (r) => `Subtotal ${String(r.almacen_nombre ?? '')}`, agrupar: ['articulo'] },
  grafico: { valor: 'valor', titulo: 'Valor del stock' },
};

const TIPOS_MOVIMIENTO = [
  { value: 'entrada', label: 'Entradas (compras)' },
  { value: 'salida', label: 'Salidas (ventas)' },
  { value: 'traspaso', label: 'Traspasos' },
  { value: 'inventario', label: 'Inventarios' },
  { value: 'perdida', label: 'Pérdidas' },
  { value: 'devolucion', label: 'Devoluciones' },
];

const movimientos: Informe = {
  slug: 'info-movimientos',
  titulo: 'Movimientos de stock',
  descripcion: 'El libro de stock: cada entrada y salida con su documento y el saldo tras ella',
  ac: 'informemovimientos',
  grupo: 'Informes',
  module: 'almacenes',
  area: 'almacenes',
  periodo: 'rango',
  filtros: ['articulo', 'almacen', 'familia', 'tipo'],
  tipos: TIPOS_MOVIMIENTO,
  agrupar: [
    {
      value: 'movimiento',
      label: 'Movimiento',
      claves: [
        { id: 'fecha', header: 'Fecha', formato: 'fecha', movil: true },
        txt('documento', 'Documento'),
        txt('articulo_nombre', 'Artículo'),
        txt('almacen_nombre', 'Almacén', { movil: false }),
        txt('ubicacion', 'Ubicación', { movil: false, sinOrden: true }),
        txt('causa', 'Tipo', { movil: false }),
      ],
      abrir: (r) => documento(r),
    },
  ],
  cifras: [
    cantidad('unidades', 'Cantidad', { movil: true }),
    cantidad('saldo', 'Saldo', { total: false, sinOrden: true, movil: true }),
    precio('coste', 'Coste unitario'),
    dinero('valor', 'Valor'),
  ],
  subtotal: { campo: 'articulo_nombre', etiqueta: (r) => `Subtotal ${String(r.articulo_nombre ?? '')}` },
};

const proveedores: Informe = {
  slug: 'info-proveedores',
  titulo: 'Proveedores',
  descripcion: 'Por proveedor: documentos, importes por año y mes, devoluciones y lo pendiente de recibir',
  ac: 'informeproveedores',
  grupo: 'Informes',
  module: 'compras',
  area: 'compras',
  periodo: 'rango',
  periodoInicial: 'este-ano',
  filtros: ['proveedor'],
  agrupar: [
    { value: 'proveedor', label: 'Proveedor (ranking)', claves: [txt('nif', 'NIF', { movil: false }), nombre('Proveedor')], abrir: (r) => proveedor(clave(r)) },
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-proveedores', 'proveedor') },
    { value: 'ano', label: 'Año', claves: [{ id: 'clave', header: 'Año', formato: 'texto', movil: true }] },
  ],
  cifras: [
    entero('documentos', 'Documentos'),
    dinero('base', 'Base'),
    dinero('total', 'Total', { movil: true }),
    dinero('devoluciones', 'Devoluciones'),
    dinero('pendiente_recibir', 'Pendiente de recibir', { movil: true }),
    dinero('pendiente_pago', 'Pendiente de pago'),
  ],
  grafico: { valor: 'total', titulo: 'Compras por proveedor' },
};

const clientes: Informe = {
  slug: 'info-clientes',
  titulo: 'Clientes',
  descripcion: 'Por cliente: ventas, devoluciones, lo pendiente de servir y los cobros pendientes con su antigüedad',
  ac: 'informeclientes',
  grupo: 'Informes',
  module: 'ventas',
  area: 'ventas',
  periodo: 'rango',
  periodoInicial: 'este-ano',
  filtros: ['cliente', 'serie'],
  vistas: [
    { value: 'ventas', label: 'Ventas' },
    { value: 'cobros', label: 'Cobros pendientes' },
  ],
  agrupar: [
    { value: 'cliente', label: 'Cliente (ranking)', claves: [txt('nif', 'NIF', { movil: false }), nombre('Cliente')], abrir: (r) => cliente(clave(r)) },
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('info-clientes', 'cliente') },
    { value: 'ano', label: 'Año', claves: [{ id: 'clave', header: 'Año', formato: 'texto', movil: true }] },
  ],
  cifras: (vista) =>
    vista === 'cobros'
      ? [
          dinero('pendiente_cobro', 'Pendiente', { movil: true }),
          dinero('tramo_0_30', '0–30 días'),
          dinero('tramo_31_60', '31–60 días'),
          dinero('tramo_61_90', '61–90 días'),
          dinero('tramo_mas_90', 'Más de 90 días'),
          dinero('vencido', 'Vencido', { movil: true }),
          entero('facturas_vencidas', 'Facturas vencidas'),
        ]
      : [
          entero('documentos', 'Documentos'),
          dinero('base', 'Base'),
          dinero('total', 'Total', { movil: true }),
          dinero('devoluciones', 'Devoluciones'),
          dinero('pendiente_servir', 'Pendiente de servir'),
          dinero('pendiente_cobro', 'Pendiente de cobro', { movil: true }),
        ],
  grafico: { valor: 'total', titulo: 'Ventas por cliente' },
};

const articulos: Informe = {
  slug: 'info-articulos',
  titulo: 'Artículos',
  descripcion: 'Más y menos vendidos, análisis ABC por facturación y por margen, rotación y ventas bajo coste',
  ac: 'informearticulos',
  grupo: 'Informes',
  area: 'catalogo',
  periodo: 'rango',
  periodoInicial: 'este-ano',
  filtros: ['familia', 'marca', 'proveedor', 'almacen'],
  vistas: [
    { value: 'mas_vendidos', label: 'Más vendidos' },
    { value: 'menos_vendidos', label: 'Menos vendidos' },
    { value: 'abc_facturacion', label: 'ABC por facturación' },
    { value: 'abc_margen', label: 'ABC por margen' },
    { value: 'rotacion', label: 'Rotación' },
    { value: 'bajo_coste', label: 'Vendidos bajo coste' },
  ],
  agrupar: [agrupacionArticulo()],
  cifras: [
    txt('clase', 'ABC', { sinOrden: true }),
    cantidad('unidades_vendidas', 'Vendidas', { movil: true }),
    cantidad('unidades_compradas', 'Compradas'),
    dinero('base', 'Ventas (base)', { movil: true }),
    dinero('margen', 'Margen'),
    margenPct(),
    { id: 'acumulado', header: '% acumulado', formato: 'porcentaje', sinOrden: true },
    { id: 'rotacion', header: 'Rotación', formato: 'porcentaje' },
    cantidad('stock', 'Stock', { total: false }),
  ],
  grafico: { valor: 'base', titulo: 'Ventas por artículo' },
};

const tarifas: Informe = {
  slug: 'info-tarifas',
  titulo: 'Tarifas y márgenes',
  descripcion: 'Precios de cada artículo en las tarifas y PVP, con el margen sobre el coste medio y el último coste',
  ac: 'informetarifas',
  grupo: 'Informes',
  area: 'catalogo',
  periodo: 'ninguno',
  filtros: ['familia', 'marca', 'proveedor'],
  vistas: [
    { value: 'todos', label: 'Todos los artículos' },
    { value: 'bajo_coste', label: 'Precio bajo coste' },
  ],
  agrupar: [agrupacionArticulo()],
  cifras: [
    precio('coste_medio', 'Coste medio'),
    precio('coste_ultimo', 'Último coste'),
    precio('tarifa_1', 'Tarifa 1', { movil: true }),
    { id: 'margen_medio', header: 'Margen T1 s/ medio', formato: 'porcentaje', movil: true },
    { id: 'margen_ultimo', header: 'Margen T1 s/ último', formato: 'porcentaje' },
    precio('tarifa_2', 'Tarifa 2', { flag: 'tarifa_2' }),
    precio('tarifa_3', 'Tarifa 3', { flag: 'tarifa_3' }),
    precio('pvp_1', 'PVP 1', { flag: 'pvp' }),
    precio('pvp_2', 'PVP 2', { flag: 'pvp_2' }),
    precio('pvp_3', 'PVP 3', { flag: 'pvp_3' }),
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
  filtros: ['furgoneta', 'usuario'],
  agrupar: [
    { value: 'furgoneta', label: 'Furgoneta', claves: [nombre('Furgoneta'), txt('matricula', 'Matrícula', { movil: false })], abrir: bajar('info-furgonetas', 'dia', 'almacen_id') },
    { value: 'dia', label: 'Día', claves: [diaCol], abrir: bajarDia('info-furgonetas', 'furgoneta') },
    { value: 'conductor', label: 'Conductor', claves: [nombre('Conductor')], abrir: bajar('info-furgonetas', 'dia', 'usuario_id') },
  ],
  cifras: [
    cantidad('cargado', 'Cargado'),
    cantidad('unidades', 'Vendido (uds.)'),
    dinero('ventas', 'Ventas', { movil: true }),
    dinero('devoluciones', 'Devoluciones'),
    cantidad('stock', 'Stock a bordo', { total: true }),
    dinero('valor', 'Valor a bordo', { movil: true }),
  ],
  grafico: { valor: 'ventas', titulo: 'Ventas' },
};

const cierres: Informe = {
  slug: 'cierres-tpv',
  titulo: 'Cierres de TPV',
  descripcion: 'Cierres por terminal y día: tickets, cobros por forma de pago, efectivo esperado y contado',
  ac: 'informecierrestpv',
  grupo: 'Informes',
  module: 'tpv',
  area: 'tpv',
  periodo: 'rango',
  filtros: ['terminal', 'usuario'],
  agrupar: [
    {
      value: 'cierre',
      label: 'Cierre',
      claves: [{ id: 'fecha', header: 'Fecha', formato: 'fecha', movil: true }, txt('terminal_nombre', 'Terminal'), txt('usuario_nombre', 'Cajero', { movil: false })],
    },
    { value: 'terminal', label: 'Terminal', claves: [nombre('Terminal')], abrir: bajar('cierres-tpv', 'cierre', 'terminal_id') },
    { value: 'dia', label: 'Día', claves: [diaCol], abrir: bajarDia('cierres-tpv', 'cierre') },
  ],
  cifras: [
    entero('tickets', 'Tickets'),
    dinero('total', 'Total', { movil: true }),
    dinero('efectivo', 'Efectivo'),
    dinero('tarjeta', 'Tarjeta'),
    dinero('otros', 'Otros'),
    dinero('esperado', 'Efectivo esperado'),
    dinero('contado', 'Contado'),
    dinero('diferencia', 'Diferencia', { movil: true }),
  ],
  grafico: { valor: 'total', titulo: 'Ventas del TPV' },
};

const expedidas: Informe = {
  slug: 'libro-expedidas',
  titulo: 'Libro de facturas expedidas',
  descripcion: 'Libro registro de IVA de facturas expedidas, con las columnas de la AEAT (una línea por tipo de IVA)',
  ac: 'librofacturasexpedidas',
  grupo: 'Fiscal',
  module: ['ventas', 'ventas_facturas'],
  area: 'facturas',
  periodo: 'rango',
  periodoInicial: 'trimestre-pasado',
  filtros: ['serie', 'cliente'],
  agrupar: [
    {
      value: 'factura',
      label: 'Factura',
      claves: [
        { id: 'fecha_expedicion', header: 'Fecha expedición', formato: 'fecha', movil: true },
        { id: 'fecha_operacion', header: 'Fecha operación', formato: 'fecha' },
        txt('serie', 'Serie', { movil: false }),
        txt('numero', 'Número'),
        txt('tipo_factura', 'Tipo', { movil: false }),
        txt('nif', 'NIF destinatario', { movil: false }),
        txt('nombre', 'Nombre destinatario'),
      ],
      abrir: (r) => documento(r),
    },
  ],
  cifras: [
    dinero('base', 'Base imponible', { movil: true }),
    { id: 'tipo_iva', header: 'Tipo IVA', formato: 'porcentaje', sinOrden: true },
    dinero('iva', 'Cuota IVA'),
    { id: 'tipo_recargo', header: 'Tipo recargo', formato: 'porcentaje', sinOrden: true },
    dinero('recargo', 'Cuota recargo'),
    dinero('total', 'Total', { movil: true }),
  ],
};

const recibidas: Informe = {
  slug: 'libro-recibidas',
  titulo: 'Libro de facturas recibidas',
  descripcion: 'Libro registro de IVA de facturas recibidas (las facturas de proveedor registradas), columnas de la AEAT',
  ac: 'librofacturasrecibidas',
  grupo: 'Fiscal',
  module: ['compras', 'hcp'],
  area: 'compras',
  periodo: 'rango',
  periodoInicial: 'trimestre-pasado',
  filtros: ['proveedor'],
  agrupar: [
    {
      value: 'factura',
      label: 'Factura',
      claves: [
        { id: 'fecha_expedicion', header: 'Fecha expedición', formato: 'fecha', movil: true },
        { id: 'fecha_registro', header: 'Fecha registro', formato: 'fecha' },
        txt('numero', 'Número'),
        txt('nif', 'NIF emisor', { movil: false }),
        txt('nombre', 'Nombre emisor'),
      ],
      abrir: (r) => proveedor(r.proveedor_id),
    },
  ],
  cifras: [
    dinero('base', 'Base imponible', { movil: true }),
    { id: 'tipo_iva', header: 'Tipo IVA', formato: 'porcentaje', sinOrden: true },
    dinero('iva', 'Cuota soportada'),
    { id: 'tipo_recargo', header: 'Tipo recargo', formato: 'porcentaje', sinOrden: true },
    dinero('recargo', 'Cuota recargo'),
    dinero('total', 'Total', { movil: true }),
  ],
};

const m303: Informe = {
  slug: 'modelo-303',
  titulo: 'Modelo 303',
  descripcion: 'Resumen del trimestre: bases y cuotas por tipo, recargo y rectificativas restadas, con las casillas del modelo',
  ac: 'modelo303',
  grupo: 'Fiscal',
  area: 'facturas',
  periodo: 'rango',
  periodoInicial: 'trimestre-pasado',
  filtros: [],
  sinPaginas: true,
  agrupar: [{ value: 'casilla', label: 'Casilla', claves: [txt('casilla', 'Casilla', { sinOrden: true }), txt('concepto', 'Concepto', { sinOrden: true })] }],
  cifras: [
    dinero('base', 'Base', { total: false, sinOrden: true, movil: true }),
    { id: 'tipo', header: 'Tipo', formato: 'porcentaje', sinOrden: true },
    dinero('cuota', 'Cuota', { total: false, sinOrden: true, movil: true }),
  ],
};

const m347: Informe = {
  slug: 'modelo-347',
  titulo: 'Modelo 347',
  descripcion: 'Clientes y proveedores con operaciones de más de 3.005,06 € en el año, por trimestre, con NIF y provincia',
  ac: 'modelo347',
  grupo: 'Fiscal',
  area: ['facturas', 'compras'],
  periodo: 'rango',
  periodoInicial: 'ano-pasado',
  filtros: [],
  agrupar: [
    {
      value: 'tercero',
      label: 'Tercero',
      claves: [
        txt('clave', 'Clave', { movil: false }),
        txt('nif', 'NIF'),
        txt('nombre', 'Nombre'),
        txt('provincia', 'Provincia', { movil: false }),
      ],
      abrir: (r) => (r.clave === 'A' ? proveedor(r.tercero_id) : cliente(r.tercero_id)),
    },
  ],
  cifras: [dinero('t1', '1T'), dinero('t2', '2T'), dinero('t3', '3T'), dinero('t4', '4T'), dinero('importe', 'Total año', { movil: true })],
};

const ESTADOS_VERIFACTU = (['enviado', 'correcto', 'aceptado_con_errores', 'incorrecto', 'pendiente'] as const).map((e) => ({ value: e, label: ESTADO_ENVIO_LABEL[e] }));

const verifactu: Informe = {
  slug: 'registros-verifactu',
  titulo: 'Registros VERI*FACTU',
  descripcion: 'Control de los registros de facturación por estado (enviados, aceptados, aceptados con errores, rechazados)',
  ac: 'informeverifactu',
  grupo: 'Fiscal',
  module: ['ventas', 'ventas_facturas'],
  area: ['facturas', 'verifactu'],
  periodo: 'rango',
  filtros: ['estado', 'serie'],
  estados: ESTADOS_VERIFACTU,
  agrupar: [
    { value: 'estado', label: 'Estado', claves: [{ id: 'clave', header: 'Estado', formato: 'verifactu', movil: true }], abrir: bajar('registros-verifactu', 'registro', 'estado') },
    { value: 'mes', label: 'Mes', claves: [mesCol], abrir: bajarMes('registros-verifactu', 'estado') },
    {
      value: 'registro',
      label: 'Registro',
      claves: [
        { id: 'fecha', header: 'Fecha', formato: 'fecha', movil: true },
        txt('numero', 'Factura'),
        txt('tipo_registro', 'Tipo', { movil: false }),
        { id: 'estado', header: 'Estado', formato: 'verifactu', movil: true },
        txt('error', 'Error AEAT', { movil: false, sinOrden: true }),
      ],
      abrir: (r) => documento(r),
    },
  ],
  cifras: [entero('registros', 'Registros', { movil: true }), dinero('importe', 'Importe')],
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
  recibidas,
  m303,
  m347,
  verifactu,
];

export const informePorSlug = (slug: string | undefined) => INFORMES.find((i) => i.slug === slug);
