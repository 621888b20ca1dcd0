import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { CONF_FIELDS, MESSAGES, SERIE_TIPOS, TIPOS_IVA, UNIDADES_MEDIDA } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from './common.ts';
import { readUpload } from './archivos.ts';
import { derivedColumns } from '../catalogo/derivados.ts';
import type { Searchable } from '../catalogo/derivados.ts';
import { DEFAULT_ALMACEN } from '../db/migrations/index.ts';
import { completarRolesRestaurados } from '../auth/roles.ts';
import { protegerRegistrosFiscales } from '../fiscal/restaurar.ts';
import { cobrosDesdeFechas } from '../documentos/cobros.ts';
import { FileDownload, defineAction, fail } from './registry.ts';

export const BACKUP_FORMAT = 'manager-tpv-backup';
export const BACKUP_VERSION = 1;
const MAX_BACKUP_BYTES = 100 * 1024 * 1024;

/** `int0` / `flag0` / `flag1`: a column a backup from before it existed doesn't carry (restored as 0, or 1 for flag1). */
type ColumnKind = 'int' | 'int?' | 'int0' | 'text' | 'text?' | 'flag' | 'flag0' | 'flag1' | 'base64' | { enum: readonly string[] };

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

/** The backed-up tables, in insert order (parents first), and how each column travels in JSON. */
const TABLES = {
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
    ...Object.fromEntries(CONF_FIELDS.map((f) => [f, 'flag'])),
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
  },
  facturas_proveedor_documentos: { factura_id: 'int', documento_id: 'int' },
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
  // The demo's generated rows by id range (db/demo/): a restored backup says itself what in it is demo.
  demo_datos: { tabla: 'text', desde: 'int', hasta: 'int' },
  // The TPV (issue 13): terminals (their paired browser's token too), buttons, sessions, closings, cash, the tickets' till data.
  tpv_terminales: {
    id: 'int', nombre: 'text', almacen_id: 'int', serie_id: 'int', serie_rectificativa_id: 'int', cliente_id: 'int?', numero_instalacion: 'text', formas_pago: 'text',
    fondo: 'int0', activo: 'flag', arqueo_ciego: 'flag0', token_hash: 'text?', emparejado: 'text?', codigo_hash: 'text?', codigo_expira: 'text?', creado: 'text',
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
  tpv_pagos: { id: 'int', documento_id: 'int', orden: 'int', forma: 'text', importe: 'int', entregado: 'int' },
  // Issue 23: store credits given as refunds at the till (spent once).
  tpv_vales: { id: 'int', codigo: 'text', importe: 'int', terminal_id: 'int', documento_id: 'int?', creado: 'text', documento_usado: 'int?', usado: 'text?' },
  tpv_incidencias: {
    id: 'int', terminal_id: 'int', caja_id: 'int?', documento_id: 'int?', movimiento_id: 'int?', uuid: 'text?', tipo: 'text', detalle: 'text', remedio: 'text',
    datos: 'text?', fecha: 'text', usuario_id: 'int?', resuelta: 'flag0', resuelta_fecha: 'text?', resuelta_por: 'int?',
  },
} satisfies Record<string, Record<string, ColumnKind>>;

type TableName = keyof typeof TABLES;
const TABLE_NAMES = Object.keys(TABLES) as TableName[];
/** Tables with a serial id whose PostgreSQL sequence must follow the restored ids. */
const SERIAL_TABLES: TableName[] = [
  'configuracion', 'usuarios', 'roles', 'series', 'documentos', 'almacenes', 'familias', 'subfamilias', 'marcas', 'materiales', 'procesos',
  'articulos', 'stock_movimientos', 'ubicaciones', 'documento_lineas', 'documento_enlaces', 'documento_acciones', 'proveedores', 'facturas_proveedor',
  'clientes', 'parte_horas', 'registros_facturacion', 'verifactu_envios', 'cobros',
  'tpv_terminales', 'tpv_paginas', 'tpv_botones', 'tpv_cajas', 'tpv_cierres', 'tpv_movimientos', 'tpv_pagos', 'tpv_incidencias', 'tpv_vales',
];
/** Tables a version-1 backup made before the catalogue existed doesn't have: restored empty. */
const CATALOGUE_TABLES = new Set<TableName>([
  'almacenes', 'familias', 'subfamilias', 'marcas', 'materiales', 'procesos', 'articulos', 'articulo_materiales', 'articulo_procesos',
  'articulo_componentes', 'articulo_proporciones', 'stock_movimientos',
  // Issue 6.
  'ubicaciones', 'articulo_ubicaciones', 'documento_lineas', 'documento_enlaces', 'documento_acciones', 'contadores',
  // Issue 7.
  'proveedores', 'facturas_proveedor', 'facturas_proveedor_documentos',
  // Issue 8.
  'clientes', 'parte_horas', 'registros_facturacion', 'registros_cadena',
  // Issue 9.
  'verifactu_envios',
  // Roles.
  'roles',
  // The demo's past.
  'demo_datos',
  // Issue 17.
  'cobros',
  // Issue 13.
  'tpv_terminales', 'tpv_paginas', 'tpv_botones', 'tpv_cajas', 'tpv_cierres', 'tpv_movimientos', 'tpv_tickets', 'tpv_pagos',
  // Issue 23.
  'tpv_incidencias', 'tpv_vales',
]);
/** Columns computed from the others on restore. */
const DERIVED: Partial<Record<TableName, (row: Row) => Row>> = {
  articulos: (row) => ({ ...row, ...derivedColumns(row as Searchable) }),
};

type Row = Record<string, unknown>;

class InvalidBackup extends Error {}

function convert(kind: ColumnKind, value: unknown): unknown {
  const isNull = value === null || value === undefined;
  if (typeof kind === 'object') {
    if (typeof value === 'string' && kind.enum.includes(value)) return value;
    throw new InvalidBackup();
  }
  // A nullable column takes null, or whatever its non-null kind takes.
  const nullable = kind === 'int?' || kind === 'text?';
  if (nullable && isNull) return null;
  if ((kind === 'int0' || kind === 'flag0') && isNull) return 0;
  if (kind === 'flag1' && isNull) return 1;
  switch (kind) {
    case 'int0':
    case 'int?':
    case 'int':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
      throw new InvalidBackup();
    case 'text?':
    case 'text':
      if (typeof value === 'string') return value;
      throw new InvalidBackup();
    case 'flag0':
    case 'flag1':
    case 'flag':
      if (value === 1 || value === true || value === '1') return 1;
      if (value === 0 || value === false || value === '0') return 0;
      throw new InvalidBackup();
    case 'base64':
      if (typeof value === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(value)) return Buffer.from(value, 'base64');
      throw new InvalidBackup();
  }
}

/** Checks the whole file before anything is touched; rows come out typed for this database. */
export function parseBackup(json: unknown): Record<TableName, Row[]> {
  const doc = json as { formato?: unknown; version?: unknown; tablas?: Record<string, unknown> };
  if (!doc || doc.formato !== BACKUP_FORMAT || doc.version !== BACKUP_VERSION || typeof doc.tablas !== 'object' || !doc.tablas) {
    throw new InvalidBackup();
  }
  const out = {} as Record<TableName, Row[]>;
  for (const table of TABLE_NAMES) {
    const rows = doc.tablas[table] ?? (CATALOGUE_TABLES.has(table) ? [] : undefined);
    if (!Array.isArray(rows)) throw new InvalidBackup();
    const columns = Object.entries(TABLES[table]) as [string, ColumnKind][];
    const derive = DERIVED[table];
    out[table] = rows.map((row) => {
      if (!row || typeof row !== 'object' || Array.isArray(row)) throw new InvalidBackup();
      const typed = Object.fromEntries(columns.map(([col, kind]) => [col, convert(kind, (row as Row)[col])]));
      return derive ? derive(typed) : typed;
    });
  }
  // A backup that would lock everybody out, or leave the company without its record, is refused.
  if (!out.configuracion.length || !out.usuarios.some((u) => u.activo === 1)) throw new InvalidBackup();
  return out;
}

async function dumpTables(db: Kysely<Database>): Promise<Record<TableName, Row[]>> {
  const out = {} as Record<TableName, Row[]>;
  for (const table of TABLE_NAMES) {
    const columns = Object.keys(TABLES[table]);
    // Link tables have no id: by their key, the first two columns.
    const order = 'id' in TABLES[table] ? ['id'] : columns.slice(0, 2);
    const rows = (await db
      .selectFrom(table)
      .select(columns as never[])
      .orderBy(order as never[])
      .execute()) as Row[];
    out[table] = table === 'archivos' ? rows.map((r) => ({ ...r, datos: Buffer.from(r.datos as Uint8Array).toString('base64') })) : rows;
  }
  return out;
}

async function resetSequences(trx: Transaction<Database>): Promise<void> {
  for (const table of SERIAL_TABLES) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(trx);
  }
}

async function restore(
  app: AppContext,
  tables: Record<TableName, Row[]>,
  keepSession: { id: number; email: string; tokenHash: string } | null,
  sinCobros = false,
) {
  await app.db.transaction().execute(async (trx) => {
    // Before anything is deleted: refused if it would lose an issued invoice or a fiscal record.
    await protegerRegistrosFiscales(trx, tables, app.dialect);
    for (const table of [...TABLE_NAMES].reverse()) await trx.deleteFrom(table).execute();
    for (const table of TABLE_NAMES) {
      const rows = tables[table];
      // Small chunks stay below SQLite's bound-parameter limit even for the wide configuracion row.
      for (let i = 0; i < rows.length; i += 100) {
        await trx.insertInto(table).values(rows.slice(i, i + 100) as never).execute();
      }
    }
    if (app.dialect === 'postgres') await resetSequences(trx);
    // A backup from before cobros in parts: each paid document's cobro becomes its row; every account is computed.
    if (sinCobros) await cobrosDesdeFechas(trx);
    await completarRolesRestaurados(trx);
    // A backup from before the catalogue has no warehouse: the default one, as a fresh install has.
    if (!tables.almacenes.length) await trx.insertInto('almacenes').values(DEFAULT_ALMACEN).execute();
    await trx.deleteFrom('recuperaciones').execute();
    await trx.deleteFrom('intentos_login').execute();
    // Only the restoring session survives, and only if its user is restored as the same active person.
    const same = keepSession
      ? await trx
          .selectFrom('usuarios')
          .select('id')
          .where('id', '=', keepSession.id)
          .where('email', '=', keepSession.email)
          .where('activo', '=', 1)
          .executeTakeFirst()
      : undefined;
    await trx
      .deleteFrom('sesiones')
      .$if(!!same, (q) => q.where('token_hash', '<>', keepSession!.tokenHash))
      .execute();
  });
  app.config.invalidate();
}

/**
 * The backup file's text (what `copiaseguridad` downloads and the scheduled backups write, copias/programadas.ts): one
 * snapshot, every table as of the same moment; and each table's row count, to check the file read back against.
 */
export async function volcarCopia(app: Pick<AppContext, 'db' | 'dialect'>): Promise<{ body: string; filas: Record<string, number> }> {
  const tx = app.dialect === 'postgres' ? app.db.transaction().setIsolationLevel('repeatable read') : app.db.transaction();
  const tablas = await tx.execute((trx) => dumpTables(trx));
  const body = JSON.stringify({ formato: BACKUP_FORMAT, version: BACKUP_VERSION, creado: nowIso(), tablas });
  return { body, filas: Object.fromEntries(TABLE_NAMES.map((t) => [t, tablas[t].length])) };
}

/**
 * Reads a backup file's text as `restaurarcopia` would, checking every row of every table (parseBackup): the rows per
 * table it would restore. Throws when the file is not a whole, valid backup.
 */
export function leerCopia(texto: string): Record<string, number> {
  const tablas = parseBackup(JSON.parse(texto));
  return Object.fromEntries(TABLE_NAMES.map((t) => [t, tablas[t].length]));
}

export const copiaActions = [
  defineAction({
    name: 'copiaseguridad',
    method: 'GET',
    async handler({ app }) {
      const { body } = await volcarCopia(app);
      return new FileDownload(`manager-tpv-${todayIn(app.timeZone)}.json`, 'application/json; charset=utf-8', body);
    },
  }),

  defineAction({
    name: 'restaurarcopia',
    method: 'POST',
    async handler({ request, user, app }) {
      const { buffer } = await readUpload(request, MAX_BACKUP_BYTES);
      let tables: Record<TableName, Row[]>;
      // A backup made before cobros in parts (issue 17) has no `cobros`: they are made from each document's cobro.
      let sinCobros = false;
      try {
        const parsed = JSON.parse(buffer.toString('utf8'));
        sinCobros = !Array.isArray(parsed?.tablas?.cobros);
        tables = parseBackup(parsed);
      } catch {
        throw fail(MESSAGES.invalidBackup, '1', 400);
      }
      try {
        await restore(app, tables, user, sinCobros);
      } catch (err) {
        if (isUniqueViolation(err) || isForeignKeyViolation(err) || isConstraintViolation(err)) throw fail(MESSAGES.invalidBackup, '1', 400);
        throw err;
      }
      const counts = Object.fromEntries(TABLE_NAMES.map((t) => [t, tables[t].length]));
      return { RESULT: '0', message: MESSAGES.backupRestored, data: [counts] };
    },
  }),
];

function isConstraintViolation(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return code.startsWith('SQLITE_CONSTRAINT') || code.startsWith('23');
}
