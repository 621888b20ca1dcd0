import type { Impuesto, TipoIva } from './catalogo';
import { PAISES_UE } from './paises';

/**
 * Issue 16: what operation each sales line is, as the VERI*FACTU record classifies it (SuministroInformacion.xsd:
 * CalificacionOperacion S1, S2, N1, N2; OperacionExenta E1-E6). Only S1 charges the tax (and recargo); the others
 * carry a base and no quota. Every invoice's totals, PDF and record group by it (docs/fiscal.md).
 *
 * A line's operation, when the request doesn't say it (operacionPorDefecto): the article's (what the goods are: scrap
 * or construction works S2, an art. 20 service E1), else the customer's (where it goes: an export E2, an intra-EU
 * delivery E5), else S1 (E1 for an article whose tax type is «Exento»). E5 only for a customer with a NIF-IVA of
 * another EU country (Validaciones 13, IDType 02).
 */
export const OPERACIONES = ['S1', 'S2', 'E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'N1', 'N2'] as const;
export type Operacion = (typeof OPERACIONES)[number];

export const OPERACION_LABEL: Record<Operacion, string> = {
  S1: 'S1 · Sujeta y no exenta',
  S2: 'S2 · Inversión del sujeto pasivo',
  E1: 'E1 · Exenta (art. 20)',
  E2: 'E2 · Exenta: exportación (art. 21)',
  E3: 'E3 · Exenta: asimilada a exportación (art. 22)',
  E4: 'E4 · Exenta: zonas francas y depósitos (arts. 23 y 24)',
  E5: 'E5 · Exenta: entrega intracomunitaria (art. 25)',
  E6: 'E6 · Exenta por otra causa',
  N1: 'N1 · No sujeta (arts. 7, 14 y otros)',
  N2: 'N2 · No sujeta por reglas de localización',
};

/** Short name in a totals box: «Inversión del sujeto pasivo», «Exenta art. 25». */
export const OPERACION_CORTA: Record<Operacion, string> = {
  S1: 'Sujeta',
  S2: 'Inversión del sujeto pasivo',
  E1: 'Exenta art. 20',
  E2: 'Exenta art. 21 (exportación)',
  E3: 'Exenta art. 22',
  E4: 'Exenta arts. 23 y 24',
  E5: 'Exenta art. 25 (intracomunitaria)',
  E6: 'Exenta',
  N1: 'No sujeta',
  N2: 'No sujeta (localización)',
};

/**
 * What an invoice prints for each operation other than S1 (RD 1619/2012 art. 6.1.j and m: the exemption's or the
 * reverse charge's legal ground). Law 37/1992 of IVA; with IGIC (Canarias) the equivalent articles of Ley 20/1991.
 */
export const LEYENDA_OPERACION: Record<Exclude<Operacion, 'S1'>, string> = {
  S2: 'Inversión del sujeto pasivo (art. 84.Uno.2.º de la Ley 37/1992 del IVA)',
  E1: 'Operación exenta (art. 20 de la Ley 37/1992 del IVA)',
  E2: 'Exportación exenta (art. 21 de la Ley 37/1992 del IVA)',
  E3: 'Operación asimilada a la exportación, exenta (art. 22 de la Ley 37/1992 del IVA)',
  E4: 'Operación exenta (arts. 23 y 24 de la Ley 37/1992 del IVA)',
  E5: 'Entrega intracomunitaria exenta (art. 25 de la Ley 37/1992 del IVA)',
  E6: 'Operación exenta',
  N1: 'Operación no sujeta (arts. 7, 14 y otros de la Ley 37/1992 del IVA)',
  N2: 'Operación no sujeta por las reglas de localización (arts. 68 a 70 de la Ley 37/1992 del IVA)',
};

export const esOperacion = (v: unknown): v is Operacion => typeof v === 'string' && (OPERACIONES as readonly string[]).includes(v);

/** The operation a line or a totals group stands for: its own, or (stored before issue 16) S1, E1 when «Exento». */
export function operacionEfectiva(g: { operacion?: string | null; tipo_iva: string }): Operacion {
  if (esOperacion(g.operacion)) return g.operacion;
  return g.tipo_iva === 'exento' ? 'E1' : 'S1';
}

/** Only S1 charges the tax and the recargo. */
export const conCuota = (op: Operacion) => op === 'S1';
export const esExenta = (op: Operacion) => op.startsWith('E');

/**
 * The record's ClaveRegimen for an operation: 02 (exportación) for E2 and E3, which the AEAT refuses under 01
 * (Validaciones 15.5); 01 (régimen general) for the rest.
 */
export const claveRegimen = (op: Operacion): '01' | '02' => (op === 'E2' || op === 'E3' ? '02' : '01');

/** A line's operation when the request doesn't say it: the article's, else the customer's, else S1 (E1 if «Exento»). */
export function operacionPorDefecto(articulo: string | null | undefined, cliente: string | null | undefined, tipoIva: TipoIva | string): Operacion {
  if (esOperacion(articulo)) return articulo;
  if (esOperacion(cliente)) return cliente;
  return tipoIva === 'exento' ? 'E1' : 'S1';
}

/** Where a customer is, as its record says: country (null: Spain), identifier type (02: NIF-IVA) and postal code. */
export type Destino = { pais?: string | null; tipo_id?: string | null; codigo_postal?: string | null };

/** Provinces outside the IVA's territory (Ley 37/1992 art. 3.Dos): Canarias (35, 38), Ceuta (51) and Melilla (52). */
const FUERA_DEL_IVA = ['35', '38', '51', '52'];

/**
 * Issue 25: the operation a customer's sales are by where it is, when its record names none. An operator of another
 * member state identified by its NIF-IVA (VIES format, checked on save) → E5, the exempt intra-EU delivery (art. 25
 * Ley 37/1992; box 59 of the 303 and the 349); a customer outside the EU → E2, an export (art. 21; box 60); a customer
 * in Canarias, Ceuta or Melilla of a company in the IVA's territory → E2 too (goods leaving the territory are exported,
 * art. 21). Anyone else (Spain, an EU consumer without NIF-IVA) → null: the article's or S1. An article's own
 * operation (a service: N2, a scrap sale: S2) still wins, and each line can be changed.
 */
export function operacionPorDestino(c: Destino, impuesto: Impuesto = 'iva'): { operacion: 'E2' | 'E5'; motivo: string } | null {
  const pais = (c.pais || 'ES').toUpperCase();
  if (pais !== 'ES') {
    if (!PAISES_UE.includes(pais)) return { operacion: 'E2', motivo: 'cliente fuera de la Unión Europea: exportación' };
    return c.tipo_id === '02' ? { operacion: 'E5', motivo: 'empresa de otro país de la UE con NIF-IVA: entrega intracomunitaria' } : null;
  }
  const cp = (c.codigo_postal ?? '').trim();
  if (impuesto === 'iva' && /^\d{5}$/.test(cp) && FUERA_DEL_IVA.includes(cp.slice(0, 2))) {
    return { operacion: 'E2', motivo: 'Canarias, Ceuta o Melilla, fuera del territorio del IVA: exportación' };
  }
  return null;
}

/** The customer's default operation for its lines: the one its record names, else the one where it is says. */
export function operacionDelCliente(c: Destino & { operacion?: string | null }, impuesto?: Impuesto): Operacion | null {
  if (esOperacion(c.operacion)) return c.operacion;
  return operacionPorDestino(c, impuesto)?.operacion ?? null;
}

/** The legends an invoice prints for its groups (each operation other than S1 once, in the totals' order). */
export function leyendasOperaciones(desglose: readonly { operacion?: string | null; tipo_iva: string }[], impuesto?: 'iva' | 'igic' | 'ipsi'): string[] {
  // Issue 16: an IGIC or IPSI invoice (its lines' types say so, or the issuer's tax kept at emission) cites its own
  // law, not the IVA's articles.
  const ley = impuesto === 'igic' || desglose.some((g) => g.tipo_iva.startsWith('igic_'))
    ? ' (Ley 20/1991 del IGIC)'
    : impuesto === 'ipsi' || desglose.some((g) => g.tipo_iva.startsWith('ipsi_'))
      ? ' (Ley 8/1991 del IPSI)'
      : null;
  const out: string[] = [];
  for (const g of desglose) {
    const op = operacionEfectiva(g);
    if (op === 'S1') continue;
    const texto = ley ? LEYENDA_OPERACION[op].replace(/ \(.*Ley 37\/1992 del IVA\)$/, ley) : LEYENDA_OPERACION[op];
    if (!out.includes(texto)) out.push(texto);
  }
  return out;
}

/** A totals group's name: the rate for S1 (and groups without an operation), the operation's short name otherwise. */
export function nombreGrupo(g: { operacion?: string | null; tipo_iva: string }, etiquetaTipo: (tipo: string) => string): string {
  return esOperacion(g.operacion) && g.operacion !== 'S1' ? OPERACION_CORTA[g.operacion] : etiquetaTipo(g.tipo_iva);
}
