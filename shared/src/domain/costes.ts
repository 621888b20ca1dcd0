import { DOCUMENTO_TIPOS, DOCUMENTO_TIPOS_ALMACEN, DOCUMENTO_TIPOS_COMPRA } from './documentos';
import type { DocumentoTipo } from './documentos';

/**
 * Issue 24: what «Ver precios de compra, costes y márgenes» (`ver_costes`) covers, for the server (which takes it out of
 * every answer and every sort of a role without it: server/src/auth/costes.ts) and for the screens (which hide the
 * columns). docs/derechos.md, «Costes», gives the decision and why.
 */

/** Names that are a cost wherever an answer carries them, at any depth. */
const COSTE_NOMBRES: ReadonlySet<string> = new Set([
  'coste',
  'costes',
  'margen',
  'valor',
  'precio_compra',
  'precio_medio_compra',
  'precio_medio',
  'ultimo_precio',
  'bajo_coste',
  'lineas_bajo_coste',
  'clase_margen',
  'importe_pedir',
]);
const COSTE_PREFIJOS = ['coste_', 'margen_', 'valor_'] as const;

/** Whether a field is a cost in any answer (coste_medio, valor_total, margen_1_ultimo…). */
export function esCampoCoste(campo: string): boolean {
  return COSTE_NOMBRES.has(campo) || COSTE_PREFIJOS.some((p) => campo.startsWith(p));
}

/**
 * The amounts of a purchase (or of a document valued at cost): each is a purchase price, or reveals one with the
 * quantities beside it. Costs only in the answers about purchases and the warehouse's documents (a sale's `total` is not).
 */
export const IMPORTES_COMPRA = [
  'precio',
  'descuento',
  'importe',
  'base',
  'iva',
  'recargo',
  'cuota',
  'total',
  'retencion_importe',
  'desglose',
  'facturado',
  'pendiente_facturar',
  'pendiente_recibir',
  'devoluciones',
] as const;

/** The documents whose lines carry purchase prices or costs: purchases, and the warehouse's (valued at cost). */
export const DOCUMENTOS_A_COSTE: readonly DocumentoTipo[] = [...DOCUMENTO_TIPOS_COMPRA, ...DOCUMENTO_TIPOS_ALMACEN];

/** Whether a document type's amounts are costs (its screens hide the prices and totals without `ver_costes`). */
export const documentoACoste = (tipo: DocumentoTipo): boolean => DOCUMENTOS_A_COSTE.includes(tipo);

/** The op.asp actions of the documents at cost: listado, editar, eliminar and each verb. */
export function accionesDocumentosACoste(): string[] {
  return DOCUMENTOS_A_COSTE.flatMap((t) => {
    const def = DOCUMENTO_TIPOS[t];
    return [`listado${def.plural}`, `editar${def.entidad}`, `eliminar${def.entidad}`, ...def.acciones.map((a) => `${a.verbo}${def.entidad}`)];
  });
}

/** Per op.asp action: its fields that are costs besides `esCampoCoste`'s (the server's filter and the screens). */
export const COSTES_ACCION: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  // Orders, albaranes and returns of purchase, movements, inventories and losses: line prices, discounts, totals.
  ...accionesDocumentosACoste().map((ac) => [ac, IMPORTES_COMPRA] as const),
  // Supplier invoices (they need ver_costes as well: the rights table) and what they may still record.
  ['listadopendienteshcp', IMPORTES_COMPRA],
  ['listadofacturasproveedor', IMPORTES_COMPRA],
  ['editarfacturaproveedor', IMPORTES_COMPRA],
  // A supplier's purchases per year (its record).
  ['listadoproveedores', ['compras_por_ejercicio']],
  ['editarproveedor', ['compras_por_ejercicio']],
  // The home chart's purchases per month.
  ['graficoinicio', ['compras']],
  // Reports: every amount of the purchases report (by article, base ÷ units is the price), of the suppliers' one, and
  // the price of each movement of the ledger (a purchase's is its purchase price).
  ['informecompras', IMPORTES_COMPRA],
  ['informeproveedores', IMPORTES_COMPRA],
  ['informemovimientos', ['precio']],
]);

/** Whether `campo` is a cost in the answers of `action` (a column the screens hide without ver_costes). */
export function esCosteDe(action: string, campo: string): boolean {
  return esCampoCoste(campo) || (COSTES_ACCION.get(action)?.includes(campo) ?? false);
}
