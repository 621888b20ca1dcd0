import { MESSAGES } from './messages';
import type { Schema } from './validation';

/**
 * Roles (who may do what): the contract the server enforces and the screens mirror. A role is a table of
 * rights per area × level, a few named rights and the largest line discount without the `descuento` right.
 * The server's table of every op.asp action's need (server/src/auth/derechos.ts) is answered to the UI
 * with the session (`acciones`, each need coded by `codificarNecesidad`), so both sides decide with the
 * same pure functions below (`puede`, `falta`).
 */

/** The areas of the back office and the till, in the order the role's grid shows them. */
export const AREAS = [
  'catalogo', 'compras', 'ventas', 'facturas', 'almacenes', 'informes', 'tpv', 'configuracion', 'usuarios', 'copias', 'verifactu',
] as const;
export type Area = (typeof AREAS)[number];

/** What a role may do in an area: see it, create and change its records, run its actions, delete. */
export const NIVELES = ['ver', 'editar', 'acciones', 'eliminar'] as const;
export type Nivel = (typeof NIVELES)[number];

/** Rights a shop names apart from the grid. */
export const DERECHOS_ESPECIALES = ['cambiar_precio', 'descuento', 'anular_facturas', 'deshacer_anterior', 'ver_costes', 'devolver_anteriores', 'reembolso_vale', 'devolver_sin_ticket'] as const;
export type DerechoEspecial = (typeof DERECHOS_ESPECIALES)[number];

export const AREA_INFO: Record<Area, { label: string; hint: string; niveles?: Partial<Record<Nivel, string>> }> = {
  catalogo: { label: 'Catálogo', hint: 'Artículos, familias, marcas, materiales, procesos, cambio de precios e importación' },
  compras: { label: 'Compras', hint: 'Proveedores, pedidos, albaranes y devoluciones de compra, facturas de proveedor' },
  ventas: { label: 'Ventas', hint: 'Clientes, pedidos, albaranes, devoluciones de venta y partes de trabajo' },
  facturas: { label: 'Facturas', hint: 'Facturas, rectificativas, series, facturación de albaranes y registros de facturación' },
  almacenes: { label: 'Almacenes', hint: 'Almacenes, ubicaciones, stock, movimientos, inventarios y pérdidas' },
  informes: { label: 'Informes', hint: 'Gráficos e informes' },
  tpv: { label: 'TPV', hint: 'Vender en el mostrador, devoluciones y cierre de caja' },
  configuracion: {
    label: 'Configuración',
    hint: 'Datos de la empresa y módulos',
    niveles: { editar: 'Datos de la empresa', acciones: 'Activar y desactivar módulos' },
  },
  usuarios: { label: 'Usuarios y roles', hint: 'Quién entra y qué puede hacer' },
  copias: { label: 'Copias de seguridad', hint: 'Descargar y restaurar toda la base de datos', niveles: { ver: 'Descargar', acciones: 'Restaurar' } },
  verifactu: { label: 'VERI*FACTU', hint: 'Envío a la AEAT, certificado de la empresa y subsanaciones' },
};

export const AREA_LABEL: Record<Area, string> = Object.fromEntries(AREAS.map((a) => [a, AREA_INFO[a].label])) as Record<Area, string>;

export const NIVEL_LABEL: Record<Nivel, string> = { ver: 'Ver', editar: 'Crear y modificar', acciones: 'Acciones', eliminar: 'Eliminar' };
export const NIVEL_HINT: Record<Nivel, string> = {
  ver: 'Ver sus pantallas y listados',
  editar: 'Crear y modificar sus registros',
  acciones: 'Enviar, recibir, emitir, anular, deshacer…',
  eliminar: 'Eliminar sus registros',
};
/** How a refusal names the level: «Su rol no permite {verbo} en {área}.» */
const NIVEL_VERBO: Record<Nivel, string> = { ver: 'ver', editar: 'crear ni modificar', acciones: 'hacer acciones', eliminar: 'eliminar' };
/** Levels of an area that are one thing: «Su rol no permite {esto}.» */
const NIVEL_AREA_VERBO: Partial<Record<`${Area}.${Nivel}`, string>> = {
  'configuracion.acciones': 'activar ni desactivar módulos',
  'copias.ver': 'descargar copias de seguridad',
  'copias.acciones': 'restaurar copias de seguridad',
};

export const ESPECIAL_LABEL: Record<DerechoEspecial, string> = {
  cambiar_precio: 'Cambiar el precio en un documento o en el TPV',
  descuento: 'Dar un descuento superior al máximo del rol',
  anular_facturas: 'Anular facturas',
  deshacer_anterior: 'Deshacer acciones en documentos de días anteriores',
  ver_costes: 'Ver precios de compra, costes y márgenes',
  devolver_anteriores: 'Devolver en el TPV tickets de días anteriores',
  reembolso_vale: 'Reembolsar una devolución del TPV con un vale',
  devolver_sin_ticket: 'Hacer en el TPV devoluciones sin ticket',
};
const ESPECIAL_FALTA: Record<DerechoEspecial, string> = {
  cambiar_precio: 'cambiar el precio de un artículo en un documento',
  descuento: 'dar ese descuento',
  anular_facturas: 'anular facturas',
  deshacer_anterior: 'deshacer acciones en un documento de un día anterior a hoy',
  ver_costes: 'ver precios de compra, costes ni márgenes',
  devolver_anteriores: 'devolver tickets de días anteriores',
  reembolso_vale: 'reembolsar con un vale',
  devolver_sin_ticket: 'hacer devoluciones sin ticket',
};

/** A role's rights. `descuento_maximo`: hundredths of a percent (as a line's descuento), the largest one without `descuento`. */
export type Derechos = {
  areas: Partial<Record<Area, readonly Nivel[]>>;
  especiales: readonly DerechoEspecial[];
  descuento_maximo: number;
};

export const ROLES_PREDEFINIDOS = ['administrador', 'gestion', 'almacen', 'caja', 'consulta'] as const;
export type RolPredefinido = (typeof ROLES_PREDEFINIDOS)[number];

/** A role as `listadoroles` answers it. Built-in roles (`predefinido` 1, `clave` set) are read-only: copy them. */
export type Rol = {
  id: number;
  nombre: string;
  clave: RolPredefinido | null;
  predefinido: 0 | 1;
  derechos: Derechos;
  /** Users with this role (the list and the record). */
  usuarios?: number;
};

/** The role a session carries (identificar, sesion): read on every request by the server. */
export type RolSesion = Pick<Rol, 'id' | 'nombre' | 'clave' | 'derechos'>;

const TODOS: readonly Nivel[] = NIVELES;
const todas = (areas: readonly Area[], niveles: readonly Nivel[] = TODOS) => Object.fromEntries(areas.map((a) => [a, niveles])) as Derechos['areas'];
const NEGOCIO: readonly Area[] = ['catalogo', 'compras', 'ventas', 'facturas', 'almacenes', 'informes', 'tpv'];

/** The five built-in roles, as data: the migration seeds them and every start brings their rows up to this. */
export const ROL_PREDEFINIDO: Record<RolPredefinido, { nombre: string; descripcion: string; derechos: Derechos }> = {
  administrador: {
    nombre: 'Administrador',
    descripcion: 'Todo.',
    derechos: { areas: todas(AREAS), especiales: DERECHOS_ESPECIALES, descuento_maximo: 10000 },
  },
  gestion: {
    nombre: 'Gestión',
    descripcion: 'Todas las secciones que permitan los módulos, salvo usuarios y roles, copias de seguridad, VERI*FACTU y activar módulos.',
    derechos: {
      areas: { ...todas(NEGOCIO), configuracion: ['ver', 'editar'] },
      especiales: DERECHOS_ESPECIALES,
      descuento_maximo: 10000,
    },
  },
  almacen: {
    nombre: 'Almacén',
    descripcion: 'Catálogo en consulta, almacenes y la recepción de las compras (sin precios de compra; enviar pedidos no).',
    derechos: { areas: { catalogo: ['ver'], almacenes: TODOS, compras: ['ver', 'acciones'] }, especiales: [], descuento_maximo: 0 },
  },
  caja: {
    nombre: 'Caja',
    descripcion: 'Solo el TPV: vender, devoluciones del día y su cierre de caja.',
    derechos: { areas: { tpv: ['ver', 'editar', 'acciones'] }, especiales: [], descuento_maximo: 0 },
  },
  consulta: {
    nombre: 'Consulta',
    descripcion: 'Ver todo lo que permitan los módulos, sin cambiar nada (las copias de seguridad no: llevan las contraseñas cifradas).',
    derechos: {
      areas: todas([...NEGOCIO, 'configuracion', 'usuarios', 'verifactu'], ['ver']),
      especiales: ['ver_costes'],
      descuento_maximo: 0,
    },
  },
};

/** Whether the rights allow `nivel` in `area`. */
export function puede(derechos: Derechos | null | undefined, area: Area, nivel: Nivel = 'ver'): boolean {
  return !!derechos?.areas?.[area]?.includes(nivel);
}

/** Whether the rights include a named right. */
export function tiene(derechos: Derechos | null | undefined, especial: DerechoEspecial): boolean {
  return !!derechos?.especiales?.includes(especial);
}

/** The largest line discount the rights allow (hundredths of a percent): anything with `descuento`. */
export const descuentoPermitido = (derechos: Derechos | null | undefined): number =>
  tiene(derechos, 'descuento') ? 10000 : Math.max(0, Math.min(10000, derechos?.descuento_maximo ?? 0));

/**
 * What an op.asp action needs: nothing (`publica`), a session (`sesion`: logging out, drawing the app), or a level
 * in one of `areas` (the first names it in a refusal; a lookup list other areas' screens read too) and, for some,
 * a named right as well (anular → anular_facturas).
 */
export type Necesidad = 'publica' | 'sesion' | { areas: readonly Area[]; nivel: Nivel; especial?: DerechoEspecial };

/** What is missing: a level in an area, or a named right. */
export type Falta = { area: Area; nivel: Nivel } | { especial: DerechoEspecial };

/** What the rights lack for `necesidad`; null when they have it. */
export function falta(derechos: Derechos | null | undefined, necesidad: Necesidad): Falta | null {
  if (necesidad === 'publica' || necesidad === 'sesion') return null;
  if (!necesidad.areas.some((a) => puede(derechos, a, necesidad.nivel))) return { area: necesidad.areas[0], nivel: necesidad.nivel };
  if (necesidad.especial && !tiene(derechos, necesidad.especial)) return { especial: necesidad.especial };
  return null;
}

/** The Spanish refusal naming what is missing: «Su rol no permite eliminar en Catálogo.» */
export function mensajeFalta(f: Falta, derechos?: Derechos | null): string {
  const propio = 'area' in f ? NIVEL_AREA_VERBO[`${f.area}.${f.nivel}`] : undefined;
  if (propio) return MESSAGES.rolSinDerechoEspecial.replace('{accion}', propio);
  if ('area' in f) return MESSAGES.rolSinDerecho.replace('{accion}', NIVEL_VERBO[f.nivel]).replace('{area}', AREA_LABEL[f.area]);
  if (f.especial === 'descuento') return MESSAGES.rolSinDescuento.replace('{n}', formatoPorcentaje(derechos?.descuento_maximo ?? 0));
  return MESSAGES.rolSinDerechoEspecial.replace('{accion}', ESPECIAL_FALTA[f.especial]);
}

/** Machine-readable name of what is missing (the 403's `derecho`): 'catalogo.eliminar', 'anular_facturas'. */
export const claveFalta = (f: Falta): string => ('area' in f ? `${f.area}.${f.nivel}` : f.especial);

const formatoPorcentaje = (centesimas: number) => (centesimas / 100).toLocaleString('es-ES', { maximumFractionDigits: 2 });

/**
 * A need as text (the session's `acciones` table): 'publica', 'sesion', 'catalogo.editar',
 * 'ventas|facturas.ver', 'facturas.acciones+anular_facturas'.
 */
export function codificarNecesidad(n: Necesidad): string {
  if (typeof n === 'string') return n;
  return `${n.areas.join('|')}.${n.nivel}${n.especial ? `+${n.especial}` : ''}`;
}

/** The inverse of codificarNecesidad; null for text it doesn't understand (a newer server's). */
export function leerNecesidad(texto: string): Necesidad | null {
  if (texto === 'publica' || texto === 'sesion') return texto;
  const m = /^([a-z|]+)\.([a-z]+)(?:\+([a-z_]+))?$/.exec(texto);
  if (!m) return null;
  const areas = m[1].split('|');
  if (!areas.every((a) => (AREAS as readonly string[]).includes(a)) || !(NIVELES as readonly string[]).includes(m[2])) return null;
  if (m[3] !== undefined && !(DERECHOS_ESPECIALES as readonly string[]).includes(m[3])) return null;
  return { areas: areas as Area[], nivel: m[2] as Nivel, ...(m[3] ? { especial: m[3] as DerechoEspecial } : {}) };
}

/** The area of each document type (its listado, editar, eliminar and verbs); a new type must name one. */
export const AREA_DOCUMENTO = {
  movimiento: 'almacenes',
  inventario: 'almacenes',
  perdida: 'almacenes',
  pedidocompra: 'compras',
  albarancompra: 'compras',
  devolucioncompra: 'compras',
  pedidoventa: 'ventas',
  albaranventa: 'ventas',
  devolucionventa: 'ventas',
  parte: 'ventas',
  factura: 'facturas',
  rectificativa: 'facturas',
  ticket: 'tpv',
} as const satisfies Record<string, Area>;

/** Sales and invoicing read each other's documents (an invoice from albaranes, a devolución of an invoice). */
const LECTORES: Partial<Record<Area, readonly Area[]>> = { ventas: ['ventas', 'facturas'], facturas: ['facturas', 'ventas'] };

/**
 * Verbs that need another level than «acciones» (issue 24): sending a purchase order (and undoing it) commits the shop
 * to a purchase — the buyer's, who writes orders (Compras › crear y modificar), not the warehouse's, which receives
 * them (Compras › acciones: recibir, finalizar).
 */
const NIVEL_VERBO_DOCUMENTO: Readonly<Record<string, Nivel>> = { 'pedidocompra.enviar': 'editar', 'pedidocompra.deshacerenvio': 'editar' };

/**
 * What an action of a document type needs, from its row (`listado`, `editar`, `eliminar` or a verb of its table):
 * ver / editar / eliminar / acciones of the type's area (a purchase order's enviar: editar); `anular` also
 * anular_facturas. Server and screens use it.
 */
export function necesidadDocumento(
  def: { tipo: string; acciones: readonly { verbo: string }[] },
  que: 'listado' | 'editar' | 'eliminar' | string,
): Necesidad {
  const area = (AREA_DOCUMENTO as Record<string, Area>)[def.tipo];
  if (!area) throw new Error(`El tipo de documento ${def.tipo} no tiene área en AREA_DOCUMENTO`);
  if (que === 'listado') return { areas: LECTORES[area] ?? [area], nivel: 'ver' };
  if (que === 'editar' || que === 'eliminar') return { areas: [area], nivel: que };
  const nivel = Object.hasOwn(NIVEL_VERBO_DOCUMENTO, `${def.tipo}.${que}`) ? NIVEL_VERBO_DOCUMENTO[`${def.tipo}.${que}`]! : 'acciones';
  return { areas: [area], nivel, ...(que === 'anular' ? { especial: 'anular_facturas' as const } : {}) };
}

/** The back-office areas: a role without any of them (Caja) only works at the TPV. */
export const AREAS_GESTION: readonly Area[] = AREAS.filter((a) => a !== 'tpv');
export const soloTpv = (derechos: Derechos | null | undefined): boolean => !!derechos && !AREAS_GESTION.some((a) => puede(derechos, a, 'ver'));

/**
 * The rights as the server stores them: known areas, levels and named rights only, in their order, each level
 * bringing `ver` with it (whoever may change or delete may see), the discount between 0 and 100 %. Null when
 * `raw` is not a rights object at all.
 */
export function normalizarDerechos(raw: unknown): Derechos | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const areasIn = r.areas && typeof r.areas === 'object' && !Array.isArray(r.areas) ? (r.areas as Record<string, unknown>) : null;
  if (!areasIn || !Array.isArray(r.especiales ?? [])) return null;
  const areas: Partial<Record<Area, Nivel[]>> = {};
  for (const a of AREAS) {
    const v = areasIn[a];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) return null;
    const niveles = NIVELES.filter((n) => v.includes(n));
    if (niveles.length && !niveles.includes('ver')) niveles.unshift('ver');
    if (niveles.length) areas[a] = niveles;
  }
  const esp = (r.especiales ?? []) as unknown[];
  const especiales = DERECHOS_ESPECIALES.filter((e) => esp.includes(e));
  const d = r.descuento_maximo ?? 0;
  const n = typeof d === 'number' ? d : typeof d === 'string' && /^\d+$/.test(d) ? Number(d) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0 || n > 10000) return null;
  return { areas, especiales, descuento_maximo: n };
}

/** A role's name: required, at most 60 characters. */
export const rolSchema = {
  nombre: { type: 'string', required: true, max: 60 },
} satisfies Schema;
