// What the generated years share (the demo company's past at first start, and the compras and ventas benches):
// a seeded PRNG (the same data on both engines), word lists, tax ids, dates, the generated catalogue, document
// rows as the engine writes them, and set-based inserts straight into the tables.
import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import { calcularTotales } from 'shared/domain';
import type { TipoIva } from 'shared/domain';
import { derivedColumns, withPvp } from '../catalogo/derivados.ts';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';

/** Where generated rows go: raw SQL on the database (`?` on SQLite, `$i` on PostgreSQL), several statements in one transaction. */
export type Escritor = {
  name: DialectName;
  rawQuery: (sql: string, params: unknown[]) => Promise<unknown[]>;
  rawTransaction: (run: () => Promise<void>) => Promise<void>;
};

/** An Escritor on a Kysely connection or transaction (the demo writes inside the first start's transaction: no nested one). */
export function escritorDe(db: Kysely<Database>, name: DialectName): Escritor {
  return {
    name,
    rawQuery: async (text, params) => (await db.executeQuery(CompiledQuery.raw(text, params))).rows as unknown[],
    rawTransaction: (run) => run(),
  };
}

/** `?` on SQLite, `$i` on PostgreSQL. */
export const param = (dialect: DialectName, i: number) => (dialect === 'sqlite' ? '?' : `$${i}`);

let seed = 1;
/** Restarts the sequence: each engine's generation calls it first, so both get the same data. */
export const semilla = (n: number) => {
  seed = n;
};
export const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
export const int = (n: number) => Math.floor(rand() * n);

export const TIPOS = ['Tornillo', 'Tuerca', 'Bisagra', 'Cable', 'Grifo', 'Pintura', 'Guante', 'Sartén', 'Maceta', 'Brocha'];
export const ATRIBUTOS = ['de acero', 'de latón', 'blanco', 'negro', 'profesional', 'para exterior', 'M4 x 20', '10 m', 'pack 10', '1 kg'];
export const IVAS: TipoIva[] = ['21', '21', '21', '21', '10', '4'];
export const EMPRESAS = ['Suministros', 'Distribuciones', 'Ferretería', 'Comercial', 'Industrias', 'Almacenes', 'Importaciones'];
export const LUGARES = ['Castilla', 'Mediterráneo', 'del Norte', 'Levante', 'Atlántico', 'Ibérica', 'del Sur', 'Central'];
export const POBLACIONES = ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Zaragoza', 'Bilbao', 'Valladolid', 'Murcia'];

/** A line's net unit price (ten-thousandths): precio × (100 % − descuento), half-up, as precioNetoSql. */
export const neto = (precio: number, descuento: number) => Math.floor((precio * (10_000 - descuento) + 5_000) / 10_000);

/** A CIF with its control digit (letter B: a digit). */
export function cif(n: number): string {
  const d = String(n).padStart(7, '0');
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const x = Number(d[i]);
    if (i % 2 === 0) sum += Math.floor((x * 2) / 10) + ((x * 2) % 10);
    else sum += x;
  }
  return `B${d}${(10 - (sum % 10)) % 10}`;
}

export const addDays = (fecha: string, days: number) => {
  const t = new Date(`${fecha}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
};

/** The generated year: 360 days, oldest first, the last one the day before yesterday. */
export const ultimoAno = (hoy: string) => Array.from({ length: 360 }, (_, k) => addDays(hoy, k - 361));

/** The generated years' days, oldest first, the last one the day before yesterday: one year is `ultimoAno`, n years the last n × 365 days. */
export const diasGenerados = (hoy: string, anos: number) =>
  anos <= 1 ? ultimoAno(hoy) : Array.from({ length: Math.round(anos * 365) }, (_, k) => addDays(hoy, k - Math.round(anos * 365) - 1));

/** Prints how long each phase of a generation took (since the previous one). */
export function cronometro(etiqueta: string): (fase: string) => void {
  let t = Date.now();
  return (fase) => {
    const now = Date.now();
    console.log(`  ${etiqueta}: ${fase} in ${((now - t) / 1000).toFixed(1)} s`);
    t = now;
  };
}

/** Inserts rows straight into a table: multi-row INSERTs on SQLite, one INSERT … SELECT FROM unnest(arrays) per 10.000 rows on PostgreSQL. */
export async function bulk(r: Escritor, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  if (!rows.length) return;
  // Columns null in every row are left out (they default to null); the rest take their type from a value.
  const keep = columns.map((_, c) => rows.some((row) => row[c] !== null && row[c] !== undefined));
  const cols = columns.filter((_, c) => keep[c]);
  const pick = (row: unknown[]) => row.filter((_, c) => keep[c]);
  if (r.name === 'sqlite') {
    const per = Math.max(1, Math.floor(30_000 / cols.length / 100) * 100);
    await r.rawTransaction(async () => {
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        const tuple = `(${cols.map(() => '?').join(', ')})`;
        await r.rawQuery(`insert into ${table} (${cols.join(', ')}) values ${chunk.map(() => tuple).join(', ')}`, chunk.flatMap(pick));
      }
    });
    return;
  }
  const types = columns
    .map((_, c) => {
      const v = rows.find((row) => row[c] !== null && row[c] !== undefined)?.[c];
      return typeof v === 'number' ? 'bigint' : 'text';
    })
    .filter((_, c) => keep[c]);
  const text = `insert into ${table} (${cols.join(', ')}) select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
  await r.rawTransaction(async () => {
    for (let i = 0; i < rows.length; i += 10_000) {
      const chunk = rows.slice(i, i + 10_000).map(pick);
      await r.rawQuery(text, cols.map((_, c) => chunk.map((row) => row[c] ?? null)));
    }
  });
}

/** The next free id of a table (rows are inserted with explicit ids; PostgreSQL's sequences follow them afterwards). */
export async function siguienteId(r: Escritor, table: string): Promise<number> {
  const [row] = (await r.rawQuery(`select max(id) as m from ${table}`, [])) as { m: number | string | null }[];
  return Number(row?.m ?? 0) + 1;
}

/** PostgreSQL: the tables' id sequences continue after the ids inserted by hand. */
export async function seguirSecuencias(r: Escritor, tables: string[]): Promise<void> {
  if (r.name !== 'postgres') return;
  for (const t of tables) await r.rawQuery(`select setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from ${t}))`, []);
}

/** n articles of a hardware shop's catalogue, ids from `first`, codes `${prefijo}000001`…, with their PVPs and search columns. */
export function articulosGenerados(first: number, n: number, prefijo: string) {
  return Array.from({ length: n }, (_, i) => {
    const precio = (50 + int(50_000)) * 100;
    const base = withPvp({
      codigo: `${prefijo}${String(i + 1).padStart(6, '0')}`,
      referencia: null,
      descripcion: `${TIPOS[int(TIPOS.length)]} ${ATRIBUTOS[int(ATRIBUTOS.length)]} ${i + 1}`,
      unidad_medida: 'ud',
      familia_id: null,
      subfamilia_id: null,
      marca_id: null,
      precio_compra: Math.floor(precio * 0.6),
      precio_venta: precio,
      tarifa_2: Math.floor(precio * 0.95),
      tarifa_3: Math.floor(precio * 0.9),
      tipo_iva: IVAS[int(IVAS.length)],
      palabras_clave: null,
      nombre_tpv: null,
      codigo_barras: null,
      activo: 1,
    });
    return { id: first + i, ...base, ...derivedColumns(base) };
  });
}

export async function bulkArticulos(r: Escritor, arts: ReturnType<typeof articulosGenerados>): Promise<void> {
  const cols = Object.keys(arts[0]);
  await bulk(r, 'articulos', cols, arts.map((a) => cols.map((c) => (a as Record<string, unknown>)[c])));
}

/** documentos' columns in the order `filaDocumento` writes them. */
export const DOC_COLS = [
  'id', 'tipo', 'serie_id', 'numero', 'ejercicio', 'fecha', 'estado', 'almacen_id', 'almacen_destino_id', 'familia_id', 'ubicacion_id', 'cliente_id',
  'proveedor_id', 'forma_pago', 'fecha_entrega', 'retencion', 'con_recargo', 'observaciones', 'base', 'iva', 'recargo', 'retencion_importe', 'total',
  'desglose', 'clave', 'creado', 'creado_por', 'modificado', 'modificado_por', 'tipo_factura', 'factura_id', 'cobro_fecha', 'cobro_forma', 'modo_rectificacion',
];
export const LINE_COLS = ['id', 'documento_id', 'orden', 'articulo_id', 'codigo', 'descripcion', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'recargo', 'pendiente', 'almacen_id', 'ubicacion_id', 'motivo', 'teorico'];
export const ACC_COLS = ['id', 'documento_id', 'accion', 'fecha', 'usuario_id', 'estado_antes', 'detalle', 'deshecha_por'];
export const LEDGER_COLS = ['articulo_id', 'almacen_id', 'ubicacion', 'ubicacion_id', 'cantidad', 'causa', 'documento_tipo', 'documento_id', 'documento_linea_id', 'accion_id', 'fecha', 'precio'];

/** A generated document's header. */
export type DocGenerado = {
  id: number;
  tipo: string;
  numero: number | null;
  fecha: string;
  estado: string;
  almacen: number;
  tercero: { id: number; forma_pago: string; retencion: number; recargo?: number };
  admin: number;
  serie_id?: number | null;
  fecha_entrega?: string | null;
  tipo_factura?: string | null;
  /** A rectificativa's corrected invoice (by differences). */
  factura_id?: number | null;
  cobro_fecha?: string | null;
  cobro_forma?: string | null;
  /** A movimiento's destination. */
  almacen_destino?: number | null;
  observaciones?: string | null;
};

/**
 * A documentos row (DOC_COLS) with the totals the engine stores: with a party (`parte`), commercial, IVA per rate, the
 * party's retención and recargo; without one (warehouse documents), the lines' net amount only.
 */
export function filaDocumento(
  d: DocGenerado,
  parte: 'proveedor_id' | 'cliente_id' | null,
  lineas: { cantidad: number; precio: number; descuento: number; tipo_iva: TipoIva }[],
): unknown[] {
  const tercero = parte ? d.tercero : null;
  const recargo = tercero?.recargo ? 1 : 0;
  const t = tercero ? calcularTotales(lineas, { retencion: tercero.retencion, recargo: recargo === 1 }) : calcularTotales(lineas, { iva: false });
  return [
    d.id, d.tipo, d.serie_id ?? null, d.numero, Number(d.fecha.slice(0, 4)), d.fecha, d.estado, d.almacen, d.almacen_destino ?? null, null, null,
    parte === 'cliente_id' ? d.tercero.id : null, parte === 'proveedor_id' ? d.tercero.id : null, tercero?.forma_pago ?? null, d.fecha_entrega ?? null,
    tercero?.retencion ?? 0, recargo, d.observaciones ?? null, t.base, t.iva, t.recargo, t.retencion_importe, t.total, JSON.stringify(t.desglose), null,
    `${d.fecha}T09:00:00.000Z`, d.admin, null, null, d.tipo_factura ?? null, d.factura_id ?? null, d.cobro_fecha ?? null, d.cobro_forma ?? null,
    d.factura_id ? 'diferencias' : null,
  ];
}

/** Ledger rows (LEDGER_COLS) sorted by their date, stable. */
export const porFecha = (ledger: unknown[][]) =>
  ledger.sort((a, b) => ((a[10] as string) < (b[10] as string) ? -1 : (a[10] as string) > (b[10] as string) ? 1 : 0));

/** A generated document line: `articulo` indexes the writer's articles. */
export type LineaGenerada = {
  id: number;
  articulo: number;
  cantidad: number;
  precio: number;
  descuento: number;
  pendiente: number;
  motivo?: string | null;
  teorico?: number | null;
};
export type ArticuloGenerado = { id: number; codigo: string; descripcion: string; tipo_iva: TipoIva };

/**
 * Writes generated documents as the engine stores them: each header (`cabecera`, a filaDocumento) and its lines, then
 * the actions, line links and ledger rows (in date order); PostgreSQL's sequences follow. Answers the lines written.
 */
export async function escribirDocumentos<D extends { id: number; lineas: LineaGenerada[] }>(
  r: Escritor,
  docs: D[],
  arts: ArticuloGenerado[],
  cabecera: (d: D, lineas: (LineaGenerada & { tipo_iva: TipoIva })[]) => unknown[],
  filas: { acciones: unknown[][]; enlaces?: unknown[][]; ledger: unknown[][] },
): Promise<number> {
  const docRows: unknown[][] = [];
  const lines: unknown[][] = [];
  for (const d of docs) {
    const ls = d.lineas.map((l) => ({ ...l, tipo_iva: arts[l.articulo].tipo_iva }));
    docRows.push(cabecera(d, ls));
    for (const [k, l] of ls.entries()) {
      const a = arts[l.articulo];
      lines.push([
        l.id, d.id, k + 1, a.id, a.codigo, a.descripcion, a.tipo_iva, l.cantidad, l.precio, l.descuento, 0, l.pendiente, null, null, l.motivo ?? null, l.teorico ?? null,
      ]);
    }
  }
  await bulk(r, 'documentos', DOC_COLS, docRows);
  await bulk(r, 'documento_lineas', LINE_COLS, lines);
  await bulk(r, 'documento_acciones', ACC_COLS, filas.acciones);
  await bulk(r, 'documento_enlaces', ['linea_id', 'padre_linea_id', 'cantidad'], filas.enlaces ?? []);
  await bulk(r, 'stock_movimientos', LEDGER_COLS, porFecha(filas.ledger));
  await seguirSecuencias(r, ['documentos', 'documento_lineas', 'documento_acciones']);
  return lines.length;
}
