import {
  isValidEan,
  netFromPvp,
  pvpFromNet,
  type Articulo,
  type FieldErrors,
  type ModuleFlags,
  type TipoIva,
} from 'shared';
import { asBigInt } from '../formato';

/** A decimal box's value: the scaled integer, empty, or the text typed when it isn't a number. */
export type Dec = bigint | number | string | null;

export type ComponenteValue = { componente_id: number; codigo: string; descripcion: string; cantidad: Dec };
export type ProporcionValue = { material_id: string; porcentaje: Dec };

export type ArticuloValues = {
  codigo: string;
  referencia: string;
  descripcion: string;
  descripcion_larga: string;
  unidad_medida: string;
  familia_id: string;
  subfamilia_id: string;
  marca_id: string;
  precio_compra: Dec;
  precio_venta: Dec;
  tarifa_2: Dec;
  tarifa_3: Dec;
  pvp_1: Dec;
  pvp_2: Dec;
  pvp_3: Dec;
  tipo_iva: string;
  /** Issue 16: the operation of its sale lines ('' none: the customer's, else S1). */
  operacion: string;
  palabras_clave: string;
  nombre_tpv: string;
  codigo_barras: string;
  tiempo: string;
  /** Minimum stock, thousandths (0: none). */
  stock_minimo: Dec;
  activo: 0 | 1;
  foto: string | null;
  seo_slug: string;
  seo_titulo: string;
  seo_descripcion: string;
  materiales: string[];
  procesos: string[];
  componentes: ComponenteValue[];
  proporciones: ProporcionValue[];
};

export const EMPTY_ARTICULO: ArticuloValues = {
  codigo: '',
  referencia: '',
  descripcion: '',
  descripcion_larga: '',
  unidad_medida: 'ud',
  familia_id: '',
  subfamilia_id: '',
  marca_id: '',
  precio_compra: 0n,
  precio_venta: 0n,
  tarifa_2: 0n,
  tarifa_3: 0n,
  pvp_1: 0n,
  pvp_2: 0n,
  pvp_3: 0n,
  tipo_iva: '21',
  operacion: '',
  palabras_clave: '',
  nombre_tpv: '',
  codigo_barras: '',
  tiempo: '',
  stock_minimo: 0n,
  activo: 1,
  foto: null,
  seo_slug: '',
  seo_titulo: '',
  seo_descripcion: '',
  materiales: [],
  procesos: [],
  componentes: [],
  proporciones: [],
};

const text = (v: string | null | undefined) => v ?? '';
const id = (v: number | null | undefined) => (v ? String(v) : '');

/** Form values of a record; links the answer leaves out (a save that returns the bare row) keep `previous`. */
export function toValues(a: Articulo, previous?: ArticuloValues): ArticuloValues {
  return {
    codigo: a.codigo,
    referencia: text(a.referencia),
    descripcion: a.descripcion,
    descripcion_larga: text(a.descripcion_larga),
    unidad_medida: a.unidad_medida,
    familia_id: id(a.familia_id),
    subfamilia_id: id(a.subfamilia_id),
    marca_id: id(a.marca_id),
    precio_compra: a.precio_compra ?? 0,
    precio_venta: a.precio_venta ?? 0,
    tarifa_2: a.tarifa_2 ?? 0,
    tarifa_3: a.tarifa_3 ?? 0,
    pvp_1: a.pvp_1 ?? 0,
    pvp_2: a.pvp_2 ?? 0,
    pvp_3: a.pvp_3 ?? 0,
    tipo_iva: a.tipo_iva,
    operacion: a.operacion ?? '',
    palabras_clave: text(a.palabras_clave),
    nombre_tpv: text(a.nombre_tpv),
    codigo_barras: text(a.codigo_barras),
    tiempo: a.tiempo === null || a.tiempo === undefined ? '' : String(a.tiempo),
    stock_minimo: a.stock_minimo ?? 0,
    activo: a.activo,
    foto: a.foto,
    seo_slug: text(a.seo_slug),
    seo_titulo: text(a.seo_titulo),
    seo_descripcion: text(a.seo_descripcion),
    materiales: a.materiales ? a.materiales.map(String) : (previous?.materiales ?? []),
    procesos: a.procesos ? a.procesos.map(String) : (previous?.procesos ?? []),
    componentes: a.componentes
      ? a.componentes.map((c) => ({ componente_id: c.componente_id, codigo: c.codigo ?? '', descripcion: c.descripcion ?? '', cantidad: c.cantidad }))
      : (previous?.componentes ?? []),
    proporciones: a.proporciones ? a.proporciones.map((p) => ({ material_id: String(p.material_id), porcentaje: p.porcentaje })) : (previous?.proporciones ?? []),
  };
}

/** Each net tariff and its PVP with IVA included. */
export const TARIFAS = [
  { net: 'precio_venta', pvp: 'pvp_1' },
  { net: 'tarifa_2', pvp: 'pvp_2' },
  { net: 'tarifa_3', pvp: 'pvp_3' },
] as const;
export type NetField = (typeof TARIFAS)[number]['net'];
export type PvpField = (typeof TARIFAS)[number]['pvp'];

/** The fields that change with a typed net price: the net itself and its PVP, exact (pvpFromNet). */
export function withNet(values: ArticuloValues, field: NetField, net: Dec): Partial<ArticuloValues> {
  const pvp = TARIFAS.find((t) => t.net === field)!.pvp;
  const n = asBigInt(net);
  return n !== null && n >= 0n ? { [field]: net, [pvp]: pvpFromNet(n, values.tipo_iva as TipoIva) } : { [field]: net };
}

/** The fields that change with a typed PVP: the PVP and the net price whose PVP it is (netFromPvp). */
export function withPvp(values: ArticuloValues, field: PvpField, pvp: Dec): Partial<ArticuloValues> {
  const net = TARIFAS.find((t) => t.pvp === field)!.net;
  const p = asBigInt(pvp);
  return p !== null && p >= 0n ? { [field]: pvp, [net]: netFromPvp(p, values.tipo_iva as TipoIva) } : { [field]: pvp };
}

/** Another IVA keeps the net prices and recomputes every PVP (the server does the same). */
export function withIva(values: ArticuloValues, iva: string): Partial<ArticuloValues> {
  const out: Partial<ArticuloValues> = { tipo_iva: iva };
  for (const t of TARIFAS) {
    const n = asBigInt(values[t.net]);
    if (n !== null && n >= 0n && iva) out[t.pvp] = pvpFromNet(n, iva as TipoIva);
  }
  return out;
}

export const MSG = {
  ean: 'El dígito de control del código de barras no es válido',
  proporcionesTotal: 'Las proporciones deben sumar 100 %',
  proporcionMaterial: 'Elija el material de cada proporción y no lo repita',
  proporcionPorcentaje: 'Cada proporción debe ser un porcentaje mayor que 0',
  componenteCantidad: 'Cada componente necesita una cantidad mayor que 0',
} as const;

/** 100 % in hundredths. */
export const CIEN = 10000n;

export function sumaProporciones(list: ProporcionValue[]): bigint {
  return list.reduce((s, p) => s + (asBigInt(p.porcentaje) ?? 0n), 0n);
}

/** Checks the schema can't express: the EAN check digit, kit quantities, proportions summing 100 %. */
export function checkArticulo(v: ArticuloValues, flags: ModuleFlags): FieldErrors {
  const errors: FieldErrors = {};
  const ean = v.codigo_barras.trim();
  if (/^(\d{8}|\d{13})$/.test(ean) && !isValidEan(ean)) errors.codigo_barras = MSG.ean;
  if (flags.compuestos && v.componentes.some((c) => (asBigInt(c.cantidad) ?? 0n) <= 0n)) errors.componentes = MSG.componenteCantidad;
  if (flags.proporciones && v.proporciones.length > 0) {
    const ids = v.proporciones.map((p) => p.material_id);
    if (ids.some((m) => !m) || new Set(ids).size !== ids.length) errors.proporciones = MSG.proporcionMaterial;
    else if (v.proporciones.some((p) => (asBigInt(p.porcentaje) ?? 0n) <= 0n)) errors.proporciones = MSG.proporcionPorcentaje;
    else if (sumaProporciones(v.proporciones) !== CIEN) errors.proporciones = MSG.proporcionesTotal;
  }
  return errors;
}

/** The body of `editararticulo`: the schema's values plus the links of the flags that are on. */
export function toBody(validated: Record<string, unknown>, v: ArticuloValues, flags: ModuleFlags, recordId?: number): Record<string, unknown> {
  const body: Record<string, unknown> = { ...validated };
  if (recordId !== undefined) body.id = recordId;
  if (flags.materiales) body.materiales = v.materiales.map(Number);
  if (flags.procesos) body.procesos = v.procesos.map(Number);
  if (flags.compuestos) body.componentes = v.componentes.map((c) => ({ componente_id: c.componente_id, cantidad: Number(asBigInt(c.cantidad) ?? 0n) }));
  if (flags.proporciones) body.proporciones = v.proporciones.map((p) => ({ material_id: Number(p.material_id), porcentaje: Number(asBigInt(p.porcentaje) ?? 0n) }));
  return body;
}

/** 'Tornillo M4 inox' → 'tornillo-m4-inox' (the seo_slug pattern). */
export function slugify(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);
}
