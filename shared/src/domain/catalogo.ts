import { OPERACIONES, type Operacion } from './operaciones';
import { divRound } from './decimal';
import type { Schema } from './validation';

/**
 * Catalogue contract: entities, input schemas and the exact price rules, shared by the server
 * (`listadoarticulos`, `editararticulo`, ...) and the `mf-catalogo` remote.
 *
 * Scales (docs/arquitectura.md): unit prices and costs in ten-thousandths of a euro (precio 12,3456 €
 * travels as 123456), PVP (IVA included) in cents, quantities in thousandths, percentages in
 * hundredths (21 % = 2100). JSON carries them as integers; never binary floating point.
 */

/**
 * The tax types an article or a line carries (issue 16: the company's tax is IVA, IGIC in the Canary Islands or IPSI
 * in Ceuta and Melilla). IVA's keep their historic codes ('21', '10', '4', 'exento'); «tabaco» is IVA 21 % whose
 * recargo de equivalencia is 1,75 %; IGIC's and IPSI's carry their tax in the code, so a stored line or desglose
 * group says which tax it is without the company's setting. «exento» is the exempt type of any of the three.
 * IPSI's rates differ between Ceuta and Melilla and by kind of goods: the set offered (0,5, 1, 2, 4, 8, 10 %) covers
 * both cities' ordinance rates for deliveries and services.
 */
export const TIPOS_IVA = [
  '21', '10', '4', 'exento', 'tabaco',
  'igic_0', 'igic_3', 'igic_7', 'igic_9_5', 'igic_15', 'igic_20',
  'ipsi_0_5', 'ipsi_1', 'ipsi_2', 'ipsi_4', 'ipsi_8', 'ipsi_10',
] as const;
export type TipoIva = (typeof TIPOS_IVA)[number];
export const TIPO_IVA_LABEL: Record<TipoIva, string> = {
  '21': 'General 21 %', '10': 'Reducido 10 %', '4': 'Superreducido 4 %', exento: 'Exento', tabaco: 'Tabaco 21 % (R.E. 1,75 %)',
  igic_0: 'Cero 0 %', igic_3: 'Reducido 3 %', igic_7: 'General 7 %', igic_9_5: 'Incrementado 9,5 %', igic_15: 'Incrementado 15 %', igic_20: 'Especial 20 %',
  ipsi_0_5: 'IPSI 0,5 %', ipsi_1: 'IPSI 1 %', ipsi_2: 'IPSI 2 %', ipsi_4: 'IPSI 4 %', ipsi_8: 'IPSI 8 %', ipsi_10: 'IPSI 10 %',
};
/** Rate in hundredths of a percent: 21 % → 2100. Exempt operations are not a 0 % rate, but carry no IVA. */
export const IVA_RATE: Record<TipoIva, bigint> = {
  '21': 2100n, '10': 1000n, '4': 400n, exento: 0n, tabaco: 2100n,
  igic_0: 0n, igic_3: 300n, igic_7: 700n, igic_9_5: 950n, igic_15: 1500n, igic_20: 2000n,
  ipsi_0_5: 50n, ipsi_1: 100n, ipsi_2: 200n, ipsi_4: 400n, ipsi_8: 800n, ipsi_10: 1000n,
};

/** A type as a percentage, es-ES: '21 %', '9,5 %', '0,5 %'; «Exento». */
export function porcentajeTipo(t: string): string {
  if (t === 'exento') return 'Exento';
  const r = IVA_RATE[t as TipoIva];
  if (r === undefined) return t;
  const dec = String(r % 100n).padStart(2, '0').replace(/0+$/, '');
  return `${r / 100n}${dec ? `,${dec}` : ''} %`;
}

/** The company's indirect tax (Configuración › Empresa): IVA, IGIC (Canarias) or IPSI (Ceuta y Melilla). */
export const IMPUESTOS = ['iva', 'igic', 'ipsi'] as const;
export type Impuesto = (typeof IMPUESTOS)[number];
export const IMPUESTO_NOMBRE: Record<Impuesto, string> = { iva: 'IVA', igic: 'IGIC', ipsi: 'IPSI' };
export const IMPUESTO_LABEL: Record<Impuesto, string> = { iva: 'IVA (península y Baleares)', igic: 'IGIC (Canarias)', ipsi: 'IPSI (Ceuta y Melilla)' };
/** VERI*FACTU's `Impuesto` (L1): 01 IVA, 02 IPSI, 03 IGIC. */
export const IMPUESTO_AEAT: Record<Impuesto, '01' | '02' | '03'> = { iva: '01', ipsi: '02', igic: '03' };
/** The types the catalogue offers under each tax, in the select's order. */
export const TIPOS_POR_IMPUESTO: Record<Impuesto, readonly TipoIva[]> = {
  iva: ['21', '10', '4', 'exento', 'tabaco'],
  igic: ['igic_7', 'igic_3', 'igic_0', 'igic_9_5', 'igic_15', 'igic_20', 'exento'],
  ipsi: ['ipsi_10', 'ipsi_8', 'ipsi_4', 'ipsi_2', 'ipsi_1', 'ipsi_0_5', 'exento'],
};
/** The tax a type belongs to; null for «exento» (any tax's). */
export function impuestoDeTipo(t: string): Impuesto | null {
  if (t.startsWith('igic_')) return 'igic';
  if (t.startsWith('ipsi_')) return 'ipsi';
  return t === 'exento' ? null : 'iva';
}
/** The tax of a document from its lines or desglose groups (IVA when all are exempt and nothing else says). */
export function impuestoDe(grupos: readonly { tipo_iva: string }[], porDefecto: Impuesto = 'iva'): Impuesto {
  for (const g of grupos) {
    const i = impuestoDeTipo(g.tipo_iva);
    if (i) return i;
  }
  return porDefecto;
}
/**
 * When the company changes its tax (only before any invoice or ticket is issued), each article's type moves to the
 * same class in the new tax: general, reducido, superreducido/cero, the special one (tabaco, IGIC 20 %), exento; the
 * others to the general. Net prices stay; the PVPs are recomputed.
 */
const CLASES: Record<Impuesto, readonly TipoIva[]> = {
  iva: ['21', '10', '4', 'tabaco'],
  igic: ['igic_7', 'igic_3', 'igic_0', 'igic_20'],
  ipsi: ['ipsi_10', 'ipsi_4', 'ipsi_1', 'ipsi_10'],
};
export function tipoEquivalente(t: TipoIva, destino: Impuesto): TipoIva {
  if (t === 'exento') return t;
  const origen = impuestoDeTipo(t) ?? 'iva';
  const clase = CLASES[origen].indexOf(t);
  return CLASES[destino][Math.max(clase, 0)];
}

export const UNIDADES_MEDIDA = ['ud', 'kg', 'g', 'l', 'ml', 'm', 'm2', 'm3', 'h', 'caja', 'paquete'] as const;
export type UnidadMedida = (typeof UNIDADES_MEDIDA)[number];
export const UNIDAD_LABEL: Record<UnidadMedida, string> = {
  ud: 'Unidad', kg: 'Kilogramo', g: 'Gramo', l: 'Litro', ml: 'Mililitro', m: 'Metro', m2: 'Metro cuadrado', m3: 'Metro cúbico', h: 'Hora', caja: 'Caja', paquete: 'Paquete',
};

/** PVP in cents from a net unit price in ten-thousandths: round(net × (1 + IVA)) half-up. */
export function pvpFromNet(net4: bigint, iva: TipoIva): bigint {
  return divRound(net4 * (10000n + IVA_RATE[iva]), 10000n * 100n);
}

/**
 * Net price (ten-thousandths) from a PVP in cents: the value whose PVP is exactly the typed one.
 * net = pvp / (1 + IVA) rounded to 4 decimals always maps back to the same cents.
 */
export function netFromPvp(pvpCents: bigint, iva: TipoIva): bigint {
  return divRound(pvpCents * 100n * 10000n, 10000n + IVA_RATE[iva]);
}

/** EAN-13 / EAN-8 check digit (GS1 mod 10). */
export function isValidEan(code: string): boolean {
  if (!/^(\d{8}|\d{13})$/.test(code)) return false;
  const digits = code.split('').map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

export type Familia = { id: number; codigo: string; nombre: string; activo: 0 | 1 };
export type Subfamilia = Familia & { familia_id: number; familia_nombre?: string };
export type Marca = Familia;
export type Material = Familia;
/** tiempo in minutes; coste in ten-thousandths. */
export type Proceso = Familia & { tiempo: number; coste: number };

export type StockAlmacen = {
  almacen_id: number;
  almacen_nombre: string;
  stock: number;
  /** Issue 6: stock per location of that warehouse (rows with stock; ubicacion_id null for the unlocated rest). */
  ubicaciones?: { ubicacion_id: number | null; ubicacion_codigo: string | null; stock: number }[];
  /** Issue 6: sent towards this warehouse and not yet received, thousandths. */
  en_transito?: number;
  /** Issue 6: the article's usual location in this warehouse (editarubicacionarticulo). */
  ubicacion_habitual_id?: number | null;
  ubicacion_habitual_codigo?: string | null;
};
export type Componente = { componente_id: number; codigo?: string; descripcion?: string; cantidad: number };
export type Proporcion = { material_id: number; nombre?: string; porcentaje: number };

export type Articulo = {
  id: number;
  codigo: string;
  referencia: string | null;
  descripcion: string;
  descripcion_larga: string | null;
  unidad_medida: UnidadMedida;
  familia_id: number | null;
  familia_nombre?: string | null;
  subfamilia_id: number | null;
  subfamilia_nombre?: string | null;
  marca_id: number | null;
  marca_nombre?: string | null;
  precio_compra: number;
  /** Tarifa 1. */
  precio_venta: number;
  tarifa_2: number;
  tarifa_3: number;
  /** IVA included, cents; kept consistent with the net price and tax by the server. */
  pvp_1: number;
  pvp_2: number;
  pvp_3: number;
  tipo_iva: TipoIva;
  /** Issue 16: the operation its sale lines take before the customer's (S2 scrap or construction, E1 art. 20…); null: none. */
  operacion?: Operacion | null;
  palabras_clave: string | null;
  nombre_tpv: string | null;
  codigo_barras: string | null;
  tiempo: number | null;
  /** Minimum stock (thousandths, all warehouses together; 0: none): under it the article is listed «Bajo mínimo» in info-inventario. */
  stock_minimo?: number;
  activo: 0 | 1;
  foto: string | null;
  seo_slug: string | null;
  seo_titulo: string | null;
  seo_descripcion: string | null;
  /** Derived from documents, never typed in (read-only in the record). */
  precio_medio_compra?: number;
  precio_medio_venta?: number;
  unidades_compradas?: number;
  unidades_vendidas?: number;
  stock_total?: number;
  stock?: StockAlmacen[];
  materiales?: number[];
  procesos?: number[];
  componentes?: Componente[];
  proporciones?: Proporcion[];
};

const code = { type: 'string', required: true, max: 30 } as const;
const name = { type: 'string', required: true, max: 120 } as const;

export const familiaSchema = { codigo: code, nombre: name, activo: { type: 'flag' } } satisfies Schema;
export const subfamiliaSchema = { ...familiaSchema, familia_id: { type: 'int', required: true, min: 1 } } satisfies Schema;
export const marcaSchema = familiaSchema;
export const materialSchema = familiaSchema;
export const procesoSchema = {
  ...familiaSchema,
  tiempo: { type: 'int', min: 0, max: 1_000_000 },
  coste: { type: 'int', min: 0, max: 1_000_000_000_000 },
} satisfies Schema;

const price = { type: 'int', min: 0, max: 1_000_000_000_000 } as const;

export const articuloSchema = {
  codigo: code,
  referencia: { type: 'string', max: 50 },
  descripcion: { type: 'string', required: true, max: 200 },
  descripcion_larga: { type: 'string', max: 5000 },
  unidad_medida: { type: 'enum', required: true, values: UNIDADES_MEDIDA },
  familia_id: { type: 'int', min: 1 },
  subfamilia_id: { type: 'int', min: 1 },
  marca_id: { type: 'int', min: 1 },
  precio_compra: price,
  precio_venta: price,
  tarifa_2: price,
  tarifa_3: price,
  pvp_1: price,
  pvp_2: price,
  pvp_3: price,
  /** Absent on a new article: the general type of the company's tax (issue 16). */
  tipo_iva: { type: 'enum', values: TIPOS_IVA },
  operacion: { type: 'enum', values: OPERACIONES },
  palabras_clave: { type: 'string', max: 500 },
  nombre_tpv: { type: 'string', max: 30 },
  codigo_barras: { type: 'string', max: 13, pattern: /^\d{8}(\d{5})?$/, patternMessage: 'El código de barras debe tener 8 o 13 cifras' },
  tiempo: { type: 'int', min: 0, max: 1_000_000 },
  stock_minimo: { type: 'int', min: 0, max: 1_000_000_000_000 },
  activo: { type: 'flag' },
  foto: { type: 'string', max: 300 },
  seo_slug: { type: 'string', max: 200, pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/, patternMessage: 'Solo minúsculas, números y guiones' },
  seo_titulo: { type: 'string', max: 70 },
  seo_descripcion: { type: 'string', max: 160 },
} satisfies Schema;

export const CAMPOS_PRECIO = ['precio_compra', 'precio_venta', 'tarifa_2', 'tarifa_3'] as const;
export type CampoPrecio = (typeof CAMPOS_PRECIO)[number];
export const CAMPO_PRECIO_LABEL: Record<CampoPrecio, string> = {
  precio_compra: 'Precio de compra', precio_venta: 'Precio de venta (tarifa 1)', tarifa_2: 'Tarifa 2', tarifa_3: 'Tarifa 3',
};
export const REDONDEOS = ['ninguno', 'centimos', 'x9'] as const;
export type Redondeo = (typeof REDONDEOS)[number];
export const REDONDEO_LABEL: Record<Redondeo, string> = { ninguno: 'Sin redondeo (4 decimales)', centimos: 'A céntimos', x9: 'Terminado en ,x9' };

/**
 * New price after a bulk change. `valor`: percentage in hundredths (modo porcentaje) or an amount
 * in ten-thousandths (modo importe), signed. Never below zero.
 */
export function cambiarPrecio(actual4: bigint, modo: 'porcentaje' | 'importe', valor: bigint, redondeo: Redondeo): bigint {
  let p = modo === 'porcentaje' ? actual4 + divRound(actual4 * valor, 10000n) : actual4 + valor;
  if (redondeo === 'centimos') p = divRound(p, 100n) * 100n;
  // ,x9: to cents, then the last cent digit becomes 9 in the nearest ten (12,34 → 12,39; 12,30 → 12,29).
  if (redondeo === 'x9') {
    const cents = divRound(p, 100n);
    const tens = divRound(cents + 1n, 10n);
    p = (tens * 10n - 1n) * 100n;
  }
  return p < 0n ? 0n : p;
}
