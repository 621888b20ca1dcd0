import { CONF_FIELDS, IMPRESORAS_TPV, IMPUESTOS, SERIE_TIPOS, TIPOS_IVA, UNIDADES_MEDIDA } from 'shared/domain';
import type { Database } from './schema.ts';

type Row = Record<string, unknown>;

/**
 * How a column travels in the backup's JSON. `int0` / `flag0` / `flag1`: a column an older backup may lack, restored as 0
 * (or 1 for flag1); `int?` / `text?`: restored as null when absent. `{ tipo, defecto }`: any kind with the value (or, a
 * function of the row, the value) a backup made before the column existed restores it with.
 */
export type BaseKind = 'int' | 'int?' | 'int0' | 'text' | 'text?' | 'flag' | 'flag0' | 'flag1' | 'base64' | { enum: readonly string[] };
export type ColumnKind = BaseKind | { tipo: BaseKind; defecto: string | number | ((row: Row) => string | number) };

/** A column an older backup may not carry, with what it restores as. */
const conDefecto = (tipo: BaseKind, defecto: string | number | ((row: Row) => string | number)) => ({ tipo, defecto });

const MAESTRO = { id: 'int', codigo: 'text', nombre: 'text', activo: 'flag' } as const satisfies Record<string, ColumnKind>;

/** The columns proveedores and clientes share (clientes add recargo, tarifa and descuento). */
const TERCERO = {
  id: 'int',
  codigo: 'text',
  nif: 'text',
  pais: 'text?',
  tipo_id: 'text?',
  razon_social: 'text',
  nombre_comercial: 'text?',
  direccion: 'text?',
  codigo_postal: 'text?',
  poblacion: 'text?',
  provincia: 'text?',
  telefono: 'text?',
  email: 'text?',
  iban: 'text?',
  forma_pago: 'text?',
  retencion: 'int0',
  observaciones: 'text?',
  activo: 'flag',
} satisfies Record<string, ColumnKind>;

/**
 * THE declaration of what a backup holds (issue 27: one declaration for schema, backup and restore): the backed-up
 * tables in insert order (parents first) and how each column travels in JSON, with its default for a backup made
 * before the column existed. db/schema.ts's `Database` is checked against it at compile time (below: a column added to
 * the schema and not here, or not in NOT_BACKED_UP, does not compile) and the migrated database at run time
 * (test/copia-antigua.test.ts).
 */
export const TABLES = {
  configuracion: {
    id: 'int',
    razon_social: 'text',
    nombre_comercial: 'text?',
    nif: 'text',
    direccion: 'text?',
    codigo_postal: 'text?',
    poblacion: 'text?',
    provincia: 'text?',
    telefono: 'text?',
    email: 'text?',
    logo: 'text?',
    favicon: 'text?',
    minorista: 'flag0',
    stock_negativo: 'flag1',
    // Issue 16 (0025): the company's IBAN; an older backup restores it as null.
    iban: 'text?',
    // Issue 26 (0048): its BIC and SEPA creditor identifier.
    bic: 'text?',
    acreedor_sepa: 'text?',
    // Issue 16 (0024): the company's tax; an older backup is of an IVA company.
    impuesto: conDefecto({ enum: IMPUESTOS }, 'iva'),
    // A module flag added after the backup was made: off, as on a fresh installation.
    ...(Object.fromEntries(CONF_FIELDS.map((f) => [f, 'flag0'])) as Record<(typeof CONF_FIELDS)[number], 'flag0'>),
  },
  // Roles (0009) before the users that have them; a user without one (an older backup) becomes Administrador.
  roles: { id: 'int', nombre: 'text', clave: 'text?', predefinido: 'flag', derechos: 'text', creado: 'text' },
  usuarios: { id: 'int', nombre: 'text', email: 'text', password_hash: 'text', activo: 'flag', ultimo_acceso: 'text?', creado: 'text', rol_id: 'int?', pin_hash: 'text?' },
  series: { id: 'int', codigo: 'text', descripcion: 'text', tipo: { enum: SERIE_TIPOS }, activo: 'flag' },
  archivos: { id: 'text', nombre: 'text', tipo: 'text', tamano: 'int', datos: 'base64', creado: 'text' },
  // Catalogue (issue 3).
  almacenes: { ...MAESTRO, direccion: 'text?', es_furgoneta: 'flag0', matricula: 'text?', conductor_id: 'int?' },
  familias: MAESTRO,
  subfamilias: { ...MAESTRO, familia_id: 'int' },
  marcas: MAESTRO,
  materiales: MAESTRO,
  procesos: { ...MAESTRO, tiempo: 'int', coste: 'int' },
  // Without busqueda, orden_descripcion (derived on restore) and stock_total (the ledger's sum, rebuilt as it is restored).
  articulos: {
    id: 'int',
    codigo: 'text',
    referencia: 'text?',
    descripcion: 'text',
    descripcion_larga: 'text?',
    unidad_medida: { enum: UNIDADES_MEDIDA },
    familia_id: 'int?',
    subfamilia_id: 'int?',
    marca_id: 'int?',
    precio_compra: 'int',
    precio_venta: 'int',
    tarifa_2: 'int',
    tarifa_3: 'int',
    pvp_1: 'int',
    pvp_2: 'int',
    pvp_3: 'int',
    tipo_iva: { enum: TIPOS_IVA },
    operacion: 'text?',
    palabras_clave: 'text?',
    nombre_tpv: 'text?',
    codigo_barras: 'text?',
    tiempo: 'int?',
    stock_minimo: 'int0',
    activo: 'flag',
    foto: 'text?',
    seo_slug: 'text?',
    seo_titulo: 'text?',
    seo_descripcion: 'text?',
  },
  articulo_materiales: { articulo_id: 'int', material_id: 'int' },
  articulo_procesos: { articulo_id: 'int', proceso_id: 'int' },
  articulo_componentes: { articulo_id: 'int', componente_id: 'int', cantidad: 'int' },
  articulo_proporciones: { articulo_id: 'int', material_id: 'int', porcentaje: 'int' },
  // Warehouses and the document engine (issue 6); documentos after what its columns refer to.
  ubicaciones: { id: 'int', almacen_id: 'int', codigo: 'text', descripcion: 'text?', activo: 'flag' },
  articulo_ubicaciones: { articulo_id: 'int', almacen_id: 'int', ubicacion_id: 'int' },
  // Compras (issue 7): before the documents that name them.
  proveedores: TERCERO,
  // Ventas (issue 8): before the documents that name them.
  clientes: {
    ...TERCERO, recargo: 'flag0', tarifa: 'int', descuento: 'int0', operacion: 'text?',
    administracion_publica: 'flag0', dir3_oficina_contable: 'text?', dir3_organo_gestor: 'text?', dir3_unidad_tramitadora: 'text?', dir3_organo_proponente: 'text?',
    // Issue 26: the SEPA mandate.
    bic: 'text?', mandato_referencia: 'text?', mandato_fecha: 'text?', mandato_secuencia: 'text?', mandato_esquema: 'text?',
  },
  documentos: {
    id: 'int',
    tipo: 'text',
    serie_id: 'int?',
    numero: 'int?',
    fecha: 'text',
    estado: 'text',
    total: 'int',
    creado: 'text',
    ejercicio: 'int0',
    almacen_id: 'int?',
    almacen_destino_id: 'int?',
    familia_id: 'int?',
    ubicacion_id: 'int?',
    cliente_id: 'int?',
    proveedor_id: 'int?',
    forma_pago: 'text?',
    fecha_entrega: 'text?',
    retencion: 'int0',
    con_recargo: 'flag0',
    observaciones: 'text?',
    observaciones_cliente: 'text?',
    serie_codigo: 'text?',
    emision: 'text?',
    fecha_operacion: 'text?',
    // Issue 16: the further invoices a rectificativa corrects (JSON array of ids).
    facturas_rectificadas: 'text?',
    base: 'int0',
    iva: 'int0',
    recargo: 'int0',
    retencion_importe: 'int0',
    desglose: 'text?',
    clave: 'text?',
    creado_por: 'int?',
    modificado: 'text?',
    modificado_por: 'int?',
    // Ventas (issue 8).
    tipo_factura: 'text?',
    factura_id: 'int?',
    modo_rectificacion: 'text?',
    cobro_fecha: 'text?',
    cobro_forma: 'text?',
    usuario_id: 'int?',
    // Issue 17 (absent in older backups: computed on restore).
    por_cobrar: 'int0',
    plazos_cubiertos: 'int0',
    albaran_proveedor: 'text?',
  },
  // Issue 17: cobros in parts (refunds negative).
  cobros: { id: 'int', documento_id: 'int', fecha: 'text', importe: 'int', forma: 'text?', creado: 'text', creado_por: 'int?' },
  // Issue 26: remesas of SEPA direct debits and their receipts (each its cobro once paid, its return).
  remesas: { id: 'int', fecha_cargo: 'text', hasta: 'text', estado: 'text', pagada_fecha: 'text?', creado: 'text', creado_por: 'int?' },
  remesa_recibos: {
    id: 'int', remesa_id: 'int', documento_id: 'int', cliente_id: 'int', plazo: 'int', vencimiento: 'text', importe: 'int', secuencia: 'text', esquema: 'text',
    mandato_referencia: 'text', mandato_fecha: 'text', iban: 'text', cobro_id: 'int?', devuelto_fecha: 'text?', devuelto_motivo: 'text?',
  },
  documento_lineas: {
    id: 'int',
    documento_id: 'int',
    orden: 'int',
    articulo_id: 'int',
    codigo: 'text',
    descripcion: 'text',
    tipo_iva: { enum: TIPOS_IVA },
    cantidad: 'int',
    precio: 'int',
    descuento: 'int',
    recargo: 'int',
    pendiente: 'int',
    almacen_id: 'int?',
    ubicacion_id: 'int?',
    motivo: 'text?',
    teorico: 'int?',
    operacion: 'text?',
    // Issue 13: a ticket line's price with IVA.
    precio_iva: 'int?',
  },
  documento_enlaces: { id: 'int', linea_id: 'int', padre_linea_id: 'int', cantidad: 'int' },
  documento_acciones: {
    id: 'int',
    documento_id: 'int',
    accion: 'text',
    fecha: 'text',
    usuario_id: 'int?',
    estado_antes: 'text',
    detalle: 'text?',
    deshecha_por: 'int?',
  },
  contadores: { tipo: 'text', serie_id: 'int', ejercicio: 'int', ultimo: 'int', ultima_fecha: 'text?' },
  stock_movimientos: {
    id: 'int',
    articulo_id: 'int',
    almacen_id: 'int',
    ubicacion: 'text?',
    cantidad: 'int',
    causa: 'text',
    documento_tipo: 'text?',
    documento_id: 'int?',
    fecha: 'text',
    precio: 'int',
    ubicacion_id: 'int?',
    documento_linea_id: 'int?',
    accion_id: 'int?',
  },
  facturas_proveedor: {
    id: 'int',
    proveedor_id: 'int',
    numero_proveedor: 'text',
    fecha: 'text',
    total: 'int',
    base: 'int',
    iva: 'int',
    total_documentos: 'int',
    creado: 'text',
    creado_por: 'int?',
    // Issue 26 (absent in older backups: one due date, its own; the accounts computed on restore).
    forma_pago: 'text?',
    vencimientos: 'text?',
    por_pagar: 'int0',
    plazos_cubiertos: 'int0',
    pago_fecha: 'text?',
    rectifica_id: 'int?',
  },
  facturas_proveedor_documentos: { factura_id: 'int', documento_id: 'int' },
  // Issue 26: payments of supplier invoices (refunds received negative).
  pagos_proveedor: { id: 'int', factura_id: 'int', fecha: 'text', importe: 'int', forma: 'text?', creado: 'text', creado_por: 'int?' },
  // Ventas (issue 8): a parte's hours; the VERI*FACTU records and the head of each issuer's chain, as they were.
  parte_horas: { id: 'int', documento_id: 'int', orden: 'int', proceso_id: 'int', horas: 'int', precio: 'int' },
  registros_facturacion: {
    id: 'int',
    emisor: 'text',
    orden: 'int',
    tipo: { enum: ['alta', 'anulacion'] },
    documento_id: 'int',
    num_serie: 'text',
    fecha_expedicion: 'text',
    tipo_factura: 'text?',
    cuota_total: 'text?',
    importe_total: 'text?',
    huella_anterior: 'text',
    huella: 'text',
    fecha_hora_huso: 'text',
    xml: 'text',
    estado_envio: 'text',
    creado: 'text',
    // Issue 9: the AEAT's answer (absent in older backups).
    csv: 'text?',
    codigo_error: 'text?',
    descripcion_error: 'text?',
    enviado: 'text?',
    envio_id: 'int?',
    subsana_id: 'int?',
    // Issue 16: generated during an outage of the submission (absent in older backups: 0).
    incidencia: 'flag0',
    // Issue 22 (0031): what the record was made for, frozen on it; a backup from before it: as migration 0031 guessed.
    entorno: conDefecto({ enum: ['produccion', 'pruebas'] }, (r) => (r.estado_envio === 'demo' ? 'pruebas' : 'produccion')),
    demo: conDefecto('flag', (r) => (r.estado_envio === 'demo' ? 1 : 0)),
    verifactu: conDefecto('flag', (r) => (r.estado_envio !== 'demo' && r.envio_id !== null && r.envio_id !== undefined ? 1 : 0)),
  },
  registros_cadena: { emisor: 'text', ultimo_orden: 'int', ultima_huella: 'text' },
  // Issue 9: the submissions' log. The settings row (and its certificate, encrypted with this installation's key) stays.
  verifactu_envios: {
    id: 'int',
    fecha: 'text',
    emisor: 'text',
    entorno: 'text',
    registros: 'int',
    estado: 'text',
    csv: 'text?',
    tiempo_espera: 'int?',
    http_status: 'int?',
    error: 'text?',
    respuesta: 'text?',
  },
  // The demo's generated rows by id range (demo/): a restored backup says itself what in it is demo.
  demo_datos: { tabla: 'text', desde: 'int', hasta: 'int' },
  // The TPV (issue 13): terminals (their paired browser's token too), buttons, sessions, closings, cash, the tickets' till data.
  tpv_terminales: {
    id: 'int', nombre: 'text', almacen_id: 'int', serie_id: 'int', serie_rectificativa_id: 'int', cliente_id: 'int?', numero_instalacion: 'text', formas_pago: 'text',
    fondo: 'int0', activo: 'flag', arqueo_ciego: 'flag0',
    // Issue 23 (0042): an older backup's terminal locks after 5 minutes and prints through the browser.
    bloqueo_minutos: conDefecto('int', 5), impresora: conDefecto({ enum: IMPRESORAS_TPV }, 'navegador'),
    token_hash: 'text?', emparejado: 'text?', codigo_hash: 'text?', codigo_expira: 'text?', creado: 'text',
  },
  tpv_paginas: { id: 'int', terminal_id: 'int?', orden: 'int', nombre: 'text', familia_id: 'int?', color: 'text?' },
  tpv_botones: { id: 'int', pagina_id: 'int', posicion: 'int', articulo_id: 'int', color: 'text?', etiqueta: 'text?' },
  tpv_cajas: { id: 'int', terminal_id: 'int', usuario_id: 'int?', apertura: 'text', fondo: 'int0', cierre_id: 'int?' },
  tpv_cierres: {
    id: 'int', terminal_id: 'int', codigo: 'int', caja_id: 'int', usuario_id: 'int?', apertura: 'text', cierre: 'text', fondo: 'int0', tickets: 'int0',
    devoluciones: 'int0', total: 'int0', efectivo_esperado: 'int0', efectivo_contado: 'int0', diferencia: 'int0', datos: 'text',
  },
  tpv_movimientos: { id: 'int', terminal_id: 'int', caja_id: 'int', uuid: 'text?', fecha_hora: 'text', usuario_id: 'int?', importe: 'int', motivo: 'text' },
  tpv_tickets: {
    documento_id: 'int', uuid: 'text?', tipo: { enum: ['ticket', 'devolucion', 'factura'] }, terminal_id: 'int', caja_id: 'int?', ticket_id: 'int?', fecha_hora: 'text',
    usuario_id: 'int?', cambio: 'int0', offline: 'flag0',
  },
  tpv_pagos: { id: 'int', documento_id: 'int', orden: 'int', forma: 'text', importe: 'int', entregado: 'int', vale: 'text?', vale_saldo: 'int?' },
  // Issue 23: store credits given as refunds at the till (spent once).
  tpv_vales: { id: 'int', codigo: 'text', importe: 'int', terminal_id: 'int', documento_id: 'int?', creado: 'text', documento_usado: 'int?', usado: 'text?',
    saldo: conDefecto('int', (r) => (r.documento_usado === null || r.documento_usado === undefined ? Number(r.importe) : 0)),
  },
  tpv_incidencias: {
    id: 'int', terminal_id: 'int', caja_id: 'int?', documento_id: 'int?', movimiento_id: 'int?', uuid: 'text?', tipo: 'text', detalle: 'text', remedio: 'text',
    datos: 'text?', fecha: 'text', usuario_id: 'int?', resuelta: 'flag0', resuelta_fecha: 'text?', resuelta_por: 'int?',
  },
} satisfies Record<string, Record<string, ColumnKind>>;


export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** Tables with a serial id whose PostgreSQL sequence must follow the restored ids. */
export const SERIAL_TABLES: TableName[] = TABLE_NAMES.filter((t) => 'id' in TABLES[t] && !['archivos'].includes(t));

/** The tables of the first backups (issue 1): every backup has them. Any other a backup lacks restores empty. */
export const TABLES_IN_EVERY_BACKUP = new Set<TableName>(['configuracion', 'usuarios', 'series', 'archivos', 'documentos']);

/**
 * What stays out of a backup, and why: whole tables of this installation, and columns the database computes (restored
 * by its triggers, or derived on restore from the others).
 */
export const TABLES_NOT_BACKED_UP = {
  sesiones: 'las sesiones son de esta instalación',
  recuperaciones: 'los enlaces de recuperación son de esta instalación',
  intentos_login: 'los intentos de acceso son de esta instalación',
  verifactu: 'el certificado va cifrado con la clave de esta instalación',
  copias_programadas: 'el estado de las copias diarias es de esta instalación',
  actividad: 'el registro de actividad es de esta instalación',
} as const satisfies Partial<Record<keyof Database, string>>;

/** Tables the database keeps from the backed-up ones (the stock per warehouse, the reports' aggregates): rebuilt as rows are restored. */
export const TABLES_DERIVED = [
  'stock_almacen', 'informe_compras_mes', 'informe_pendientes', 'informe_ventas_articulo', 'informe_ventas_articulo_mes', 'informe_ventas_dia',
  // PostgreSQL: the articles' count, kept by a trigger.
  'articulos_cuenta',
  // Issue 25 (0047): the articles whose average cost a back-dated row left to recompute (a restore replays the ledger).
  'costes_pendientes',
];

export const NOT_BACKED_UP = {
  articulos: { busqueda: 'derivada al restaurar', orden_descripcion: 'derivada al restaurar', stock_total: 'la suma del libro de stock', coste_medio: 'el disparador del libro' },
  documento_lineas: { coste_libro: 'el disparador del libro' },
  stock_movimientos: { coste: 'el disparador del libro' },
} as const satisfies { [T in TableName]?: Partial<Record<keyof Database[T], string>> };

// Compile-time: the declaration and db/schema.ts name the same tables and columns.
type Declared<T extends TableName> =
  | keyof (typeof TABLES)[T]
  | (T extends keyof typeof NOT_BACKED_UP ? keyof (typeof NOT_BACKED_UP)[T] : never)
  // The module flags: CONF_FIELDS, spread above (their names are typed `conf_${string}`).
  | (T extends 'configuracion' ? (typeof CONF_FIELDS)[number] : never);
type MissingTables = Exclude<keyof Database, TableName | keyof typeof TABLES_NOT_BACKED_UP>;
type UnknownTables = Exclude<TableName, keyof Database>;
type MissingColumns = { [T in TableName]: T extends keyof Database ? Exclude<keyof Database[T], Declared<T>> : never }[TableName];
type UnknownColumns = { [T in TableName]: T extends keyof Database ? Exclude<Declared<T>, keyof Database[T]> : never }[TableName];
/** Each of these is `true` only while nothing is missing; else the type names what is (a table or a column). */
export const SCHEMA_MATCHES: [
  [MissingTables] extends [never] ? true : MissingTables,
  [UnknownTables] extends [never] ? true : UnknownTables,
  [MissingColumns] extends [never] ? true : MissingColumns,
  [UnknownColumns] extends [never] ? true : UnknownColumns,
] = [true, true, true, true];
