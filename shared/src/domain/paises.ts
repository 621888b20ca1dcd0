import { MESSAGES } from './messages';
import { isValidNif, isValidPostalCode, normalizeNif } from './nif';

/**
 * Parties from anywhere (issue 16): a country (ISO 3166-1 alpha-2, the codes the AEAT's CountryType2 admits) and
 * an identifier type (the AEAT's IDType of IDOtro). A Spanish NIF is the default and is validated as always; the
 * rest travel in the VERI*FACTU record as IDOtro (CodigoPais, IDType, ID).
 */

/** ISO 3166-1 alpha-2 codes of SuministroInformacion.xsd's CountryType2 (its internal codes left out). */
export const PAISES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AZ BA BB BD BE BF BG BH BI BJ BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL ' +
  'CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG ER ES ET FI FJ FK FM FO FR GA GB GD GE GG GH GI GL GM GN GQ GR GS GT GU GW GY ' +
  'HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ' +
  'ME MG MH MK ML MM MN MO MP MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY ' +
  'QA RO RS RU RW SA SB SC SD SE SG SH SI SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US ' +
  'UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

let nombres: Intl.DisplayNames | null = null;
/** A country's name in Spanish ('FR' → 'Francia'); the code itself where the runtime has no name for it. */
export function nombrePais(codigo: string): string {
  try {
    nombres ??= new Intl.DisplayNames(['es'], { type: 'region' });
    return nombres.of(codigo) ?? codigo;
  } catch {
    return codigo;
  }
}

/** The countries as options, by name (Spain first). */
let opciones: { value: string; label: string }[] | null = null;
export function opcionesPais(): { value: string; label: string }[] {
  if (opciones) return opciones;
  const resto = PAISES.filter((p) => p !== 'ES')
    .map((p) => ({ value: p, label: nombrePais(p) }))
    .sort((a, b) => a.label.localeCompare(b.label, 'es'));
  opciones = [{ value: 'ES', label: nombrePais('ES') }, ...resto];
  return opciones;
}

/** Identifier types: 'NIF' (a Spanish NIF, stored as null) and the AEAT's IDType codes of IDOtro (07, no censado, is refused). */
export const TIPOS_ID = ['02', '03', '04', '05', '06'] as const;
export type TipoId = (typeof TIPOS_ID)[number];
export const TIPO_ID_LABEL: Record<'NIF' | TipoId, string> = {
  NIF: 'NIF español',
  '02': 'NIF-IVA (otro país de la UE)',
  '03': 'Pasaporte',
  '04': 'Documento oficial del país de residencia',
  '05': 'Certificado de residencia',
  '06': 'Otro documento probatorio',
};

/**
 * The VAT numbers of the other member states (VIES formats): the country prefix (EL for Greece, XI for Northern
 * Ireland) and the number's structure.
 */
export const NIF_IVA: Record<string, { prefijo: string; patron: RegExp; ejemplo: string }> = {
  AT: { prefijo: 'AT', patron: /^U\d{8}$/, ejemplo: 'ATU12345678' },
  BE: { prefijo: 'BE', patron: /^[01]\d{9}$/, ejemplo: 'BE0123456789' },
  BG: { prefijo: 'BG', patron: /^\d{9,10}$/, ejemplo: 'BG123456789' },
  CY: { prefijo: 'CY', patron: /^\d{8}[A-Z]$/, ejemplo: 'CY12345678L' },
  CZ: { prefijo: 'CZ', patron: /^\d{8,10}$/, ejemplo: 'CZ12345678' },
  DE: { prefijo: 'DE', patron: /^\d{9}$/, ejemplo: 'DE123456789' },
  DK: { prefijo: 'DK', patron: /^\d{8}$/, ejemplo: 'DK12345678' },
  EE: { prefijo: 'EE', patron: /^\d{9}$/, ejemplo: 'EE123456789' },
  FI: { prefijo: 'FI', patron: /^\d{8}$/, ejemplo: 'FI12345678' },
  FR: { prefijo: 'FR', patron: /^[0-9A-HJ-NP-Z]{2}\d{9}$/, ejemplo: 'FR12345678901' },
  GR: { prefijo: 'EL', patron: /^\d{9}$/, ejemplo: 'EL123456789' },
  HR: { prefijo: 'HR', patron: /^\d{11}$/, ejemplo: 'HR12345678901' },
  HU: { prefijo: 'HU', patron: /^\d{8}$/, ejemplo: 'HU12345678' },
  IE: { prefijo: 'IE', patron: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, ejemplo: 'IE1234567T' },
  IT: { prefijo: 'IT', patron: /^\d{11}$/, ejemplo: 'IT12345678901' },
  LT: { prefijo: 'LT', patron: /^(\d{9}|\d{12})$/, ejemplo: 'LT123456789' },
  LU: { prefijo: 'LU', patron: /^\d{8}$/, ejemplo: 'LU12345678' },
  LV: { prefijo: 'LV', patron: /^\d{11}$/, ejemplo: 'LV12345678901' },
  MT: { prefijo: 'MT', patron: /^\d{8}$/, ejemplo: 'MT12345678' },
  NL: { prefijo: 'NL', patron: /^\d{9}B\d{2}$/, ejemplo: 'NL123456789B01' },
  PL: { prefijo: 'PL', patron: /^\d{10}$/, ejemplo: 'PL1234567890' },
  PT: { prefijo: 'PT', patron: /^\d{9}$/, ejemplo: 'PT123456789' },
  RO: { prefijo: 'RO', patron: /^[1-9]\d{1,9}$/, ejemplo: 'RO1234567' },
  SE: { prefijo: 'SE', patron: /^\d{10}01$/, ejemplo: 'SE123456789001' },
  SI: { prefijo: 'SI', patron: /^\d{8}$/, ejemplo: 'SI12345678' },
  SK: { prefijo: 'SK', patron: /^\d{10}$/, ejemplo: 'SK1234567890' },
};
/** Member states of the EU but Spain (a NIF-IVA of theirs is an intra-community operator). */
export const PAISES_UE = Object.keys(NIF_IVA);

/** A party's identification as its record keeps it: country (null: Spain), type (null: Spanish NIF) and the identifier. */
export type Identificacion = { pais?: string | null; tipo_id?: string | null; nif: string };

/**
 * Checks a party's identification and postal code the way the AEAT will (Validaciones §13, IDOtro): a Spanish
 * NIF as always; a NIF-IVA only of another member state, with its prefix and structure; in Spain only a passport
 * besides the NIF. Answers the normalised values, or the field errors in Spanish.
 */
export function validarIdentificacion(t: Identificacion & { codigo_postal?: string | null }):
  | { ok: true; pais: string; tipo_id: TipoId | null; nif: string }
  | { ok: false; errors: Record<string, string> } {
  const pais = (t.pais || 'ES').toUpperCase();
  const tipo = (t.tipo_id && t.tipo_id !== 'NIF' ? t.tipo_id : null) as TipoId | null;
  const errors: Record<string, string> = {};
  if (!PAISES.includes(pais)) errors.pais = MESSAGES.selectOption;
  if (tipo !== null && !TIPOS_ID.includes(tipo)) errors.tipo_id = MESSAGES.selectOption;
  let nif = (t.nif ?? '').trim();
  if (!nif) errors.nif = MESSAGES.required;
  else if (tipo === null) {
    // A Spanish NIF: only for a party in Spain.
    if (pais !== 'ES') errors.tipo_id = MESSAGES.tipoIdExtranjero;
    nif = normalizeNif(nif);
    if (!isValidNif(nif)) errors.nif = MESSAGES.invalidNif;
  } else if (tipo === '02') {
    const formato = NIF_IVA[pais];
    nif = nif.toUpperCase().replace(/[\s.-]/g, '');
    if (!formato) errors.pais = MESSAGES.nifIvaSoloUe;
    else {
      if (!nif.startsWith(formato.prefijo)) nif = formato.prefijo + nif;
      if (!formato.patron.test(nif.slice(2))) errors.nif = MESSAGES.nifIvaNoValido.replace('{ejemplo}', formato.ejemplo);
    }
  } else {
    // Spain admits only a passport in IDOtro (Validaciones §13).
    if (pais === 'ES' && tipo !== '03') errors.tipo_id = MESSAGES.tipoIdEspana;
    if (nif.length > 20) errors.nif = MESSAGES.tooLong;
  }
  const cp = (t.codigo_postal ?? '').trim();
  if (cp) {
    if (pais === 'ES' && !isValidPostalCode(cp)) errors.codigo_postal = MESSAGES.invalidPostalCode;
    else if (cp.length > 20) errors.codigo_postal = MESSAGES.tooLong;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, pais, tipo_id: tipo, nif };
}

/** How a party is named in the VERI*FACTU record: by NIF (a Spanish one) or by IDOtro. */
export function idRegistro(t: Identificacion): { nif: string } | { idOtro: { codigoPais: string; idType: TipoId; id: string } } {
  const tipo = (t.tipo_id && t.tipo_id !== 'NIF' ? t.tipo_id : null) as TipoId | null;
  if (tipo === null) return { nif: normalizeNif(t.nif) };
  return { idOtro: { codigoPais: (t.pais || 'ES').toUpperCase(), idType: tipo, id: t.nif.trim().slice(0, 20) } };
}
