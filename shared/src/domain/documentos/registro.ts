import type { FlagName } from '../flags';
import type { MenuEntry } from '../menu';
import { albarancompra } from './albarancompra';
import { albaranventa } from './albaranventa';
import { devolucioncompra } from './devolucioncompra';
import { devolucionventa } from './devolucionventa';
import { factura } from './factura';
import { inventario } from './inventario';
import type { AccionDef, DocumentoTipoDef, SeccionDocumentos } from './motor';
import { movimiento } from './movimiento';
import { parte } from './parte';
import { pedidocompra } from './pedidocompra';
import { pedidoventa } from './pedidoventa';
import { perdida } from './perdida';
import { rectificativa } from './rectificativa';
import { ticket } from './ticket';

/**
 * The registry of document types: each is one file of this folder; its name goes in its section's list and its
 * definition in DOCUMENTO_TIPOS. Everything else (the server's actions and rights, the remote's routes, paths, flag
 * gate and menu entry) is derived from the definition.
 */

export const DOCUMENTO_TIPOS_ALMACEN = ['movimiento', 'inventario', 'perdida'] as const;
export const DOCUMENTO_TIPOS_COMPRA = ['pedidocompra', 'albarancompra', 'devolucioncompra'] as const;
export const DOCUMENTO_TIPOS_VENTA = ['pedidoventa', 'albaranventa', 'factura', 'devolucionventa', 'rectificativa', 'parte'] as const;
/** The till's (issue 13): a ticket is a factura simplificada (F2) issued at the counter; its returns are R5 rectificativas. */
export const DOCUMENTO_TIPOS_TPV = ['ticket'] as const;
export type DocumentoTipo =
  | (typeof DOCUMENTO_TIPOS_ALMACEN)[number]
  | (typeof DOCUMENTO_TIPOS_COMPRA)[number]
  | (typeof DOCUMENTO_TIPOS_VENTA)[number]
  | (typeof DOCUMENTO_TIPOS_TPV)[number];

export const DOCUMENTO_TIPOS: Record<DocumentoTipo, DocumentoTipoDef> = {
  movimiento,
  inventario,
  perdida,
  pedidocompra,
  albarancompra,
  devolucioncompra,
  pedidoventa,
  albaranventa,
  factura,
  devolucionventa,
  rectificativa,
  parte,
  ticket,
};


/**
 * The fiscal documents: the types numbered by a serie when issued (facturas, rectificativas; tickets when they
 * come), each with its VERI*FACTU record. A restore may never lose one (server/src/fiscal/restaurar.ts).
 */
export const DOCUMENTO_TIPOS_FISCALES: readonly DocumentoTipo[] = Object.values(DOCUMENTO_TIPOS)
  .filter((d) => d.series)
  .map((d) => d.tipo);

/** 'la factura', 'el ticket': a document's kind as a sentence names it. */
export function conArticulo(def: DocumentoTipoDef): string {
  return `${def.femenino ? 'la' : 'el'} ${def.singular.toLowerCase()}`;
}

/** The record screen of a document: '/almacenes/movimiento/12'; null for a type this build doesn't know. */
export function rutaDocumento(tipo: string | null, id: number | null): string | null {
  const def = tipo ? DOCUMENTO_TIPOS[tipo as DocumentoTipo] : undefined;
  return def && id ? `${def.ruta}/${id}` : null;
}

/** The actions the table allows from a state (what the record screen shows). */
export function accionesDesde(def: DocumentoTipoDef, estado: string): AccionDef[] {
  return def.acciones.filter((a) => a.from.includes(estado));
}

export function estadoLabel(def: DocumentoTipoDef, estado: string): string {
  return def.estados.find((e) => e.id === estado)?.label ?? estado;
}

/** The flags a type's screens and menu entry need: its `pantalla.flags`, else the ones the server requires. */
export function flagsPantalla(def: DocumentoTipoDef): readonly FlagName[] {
  return def.pantalla?.flags ?? def.flags;
}

/** The types whose screens a section remote mounts, in the order of their menu entries. */
export function tiposDeSeccion(seccion: SeccionDocumentos): DocumentoTipoDef[] {
  return Object.values(DOCUMENTO_TIPOS)
    .filter((d) => d.pantalla?.seccion === seccion)
    .sort((a, b) => (a.pantalla?.menu.orden ?? 0) - (b.pantalla?.menu.orden ?? 0));
}

/** A type's addresses, from its definition: absolute (links, redirects) and relative to its section (routes). */
export type DireccionesDocumento = {
  /** '/ventas/pedidos'. */
  list: string;
  /** '/ventas/pedido/nuevo-pedido'. */
  nuevo: string;
  /** '/ventas/pedido/12'. */
  record: (id: number | string) => string;
  /** Route segments relative to the section, and the record's id parameter. */
  rutas: { list: string; nuevo: string; record: string; param: string };
  /** What its routes are gated behind (the section's flag among them). */
  flag: FlagName[];
};

/** The addresses of a type with screens (`pantalla`); throws for one without: a programming error, found by the tests. */
export function direccionesDocumento(def: DocumentoTipoDef): DireccionesDocumento {
  const p = def.pantalla;
  if (!p) throw new Error(`El tipo de documento ${def.tipo} no tiene pantallas del motor`);
  const base = `/${p.seccion}`;
  const ficha = def.ruta.startsWith(`${base}/`) ? def.ruta.slice(base.length + 1) : '';
  if (!ficha) throw new Error(`La ruta de ${def.tipo} (${def.ruta}) no está bajo ${base}`);
  const param = `${def.entidad}Id`;
  return {
    list: `${base}/${p.lista}`,
    nuevo: `${def.ruta}/${p.nuevo}`,
    record: (id) => `${def.ruta}/${id}`,
    rutas: { list: p.lista, nuevo: `${ficha}/${p.nuevo}`, record: `${ficha}/:${param}`, param },
    flag: [...flagsPantalla(def)],
  };
}

/** A menu entry with its place among the section's entries (the generator sorts by it, then drops it). */
export type EntradaMenuOrdenada = MenuEntry & { orden: number };

/**
 * A type's menu entry in its section's menu.json: its list's path, its label, its area, and the flags it needs beyond
 * the section's own (`moduloSeccion`, the menu's `module`).
 */
export function entradaMenuDocumento(def: DocumentoTipoDef, moduloSeccion?: FlagName | readonly FlagName[]): EntradaMenuOrdenada {
  const p = def.pantalla;
  if (!p) throw new Error(`El tipo de documento ${def.tipo} no tiene pantallas del motor`);
  const seccion: readonly FlagName[] = moduloSeccion === undefined ? [] : typeof moduloSeccion === 'string' ? [moduloSeccion] : moduloSeccion;
  const propios = flagsPantalla(def).filter((f) => !seccion.includes(f));
  return {
    path: p.lista,
    label: p.menu.label,
    ...(propios.length === 1 ? { module: propios[0] } : propios.length > 1 ? { module: [...propios] } : {}),
    ...(p.menu.area ? { area: p.menu.area } : {}),
    orden: p.menu.orden,
  };
}
