import { DIR3_CAMPOS, IMPUESTO_AEAT, IVA_RATE, NIF_IVA, RECARGO_RATE, divRound, impuestoDeTipo, operacionEfectiva, plazosDe } from 'shared/domain';
import type { DatosParte, DesgloseIva, TipoIva } from 'shared/domain';

/**
 * Facturae 3.2.2 (issue 16; `docs/fuentes/facturae/`): the electronic invoice the public administrations take
 * through FACe, built from what an invoice stored at emission. The XML is written here, as text, already in its
 * canonical form (C14N 1.0: no XML declaration inside the signed parts, every namespace declared once on the root,
 * attributes in canonical order, no self-closing tags, text escaped as C14N escapes it), so the signature
 * (fiscal/xades.ts) digests exactly the bytes written. Amounts are the invoice's: its bases, taxes, retención and total
 * to the cent; the lines carry their own amounts with up to eight decimals.
 */

export const NS_FACTURAE = 'http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml';
export const NS_DS = 'http://www.w3.org/2000/09/xmldsig#';
export const NS_XADES = 'http://uri.etsi.org/01903/v1.3.2#';

/** The namespaces declared on the root (in C14N's order: by prefix), in scope in every signed part. */
export const ESPACIOS: [string, string][] = [
  ['ds', NS_DS],
  ['fe', NS_FACTURAE],
  ['xades', NS_XADES],
];

export type LineaFacturae = {
  codigo: string;
  descripcion: string;
  /** Thousandths. */
  cantidad: number;
  /** Ten-thousandths of a euro. */
  precio: number;
  /** Hundredths of a percent. */
  descuento: number;
  tipo_iva: string;
  /** S1, S2, E1-E6, N1, N2 (null: S1, or E1 for an exempt rate). */
  operacion?: string | null;
};

export type RectificacionFacturae = {
  /** The corrected invoice: its number in its serie ('2026/000012'), serie code and date. */
  numero: string;
  serie: string | null;
  fecha: string;
  /** R1-R5 of the rectificativa. */
  tipoFactura: string;
  /** By substitution (the whole invoice again) or by differences. */
  modo: 'sustitucion' | 'diferencias';
  /** The reason code the user chose (MOTIVOS_RECTIFICACION); absent: the one derived from the R type. */
  motivo?: MotivoRectificacion | null;
};

export type DatosFacturae = {
  /** The number in its serie: '2026/000012'. */
  numero: string;
  serie: string;
  fecha: string;
  fechaOperacion: string | null;
  /** F2 / R5: a simplified invoice. */
  simplificada: boolean;
  emisor: DatosParte;
  receptor: DatosParte;
  lineas: LineaFacturae[];
  desglose: DesgloseIva[];
  conRecargo: boolean;
  /** Cents. */
  base: number;
  iva: number;
  recargo: number;
  /** Hundredths of a percent, and its amount in cents. */
  retencion: number;
  retencionImporte: number;
  total: number;
  observaciones: string | null;
  /** The document's forma de pago (shared/domain/terceros.ts FORMAS_PAGO): its instalments go in PaymentDetails. */
  formaPago: string | null;
  /** The company's IBAN: the account a transfer is paid to (PaymentDetails/AccountToBeCredited). */
  iban?: string | null;
  rectifica: RectificacionFacturae | null;
};

/** Facturae's PaymentMeans of each forma de pago: 01 contado, 02 recibo domiciliado, 04 transferencia, 19 tarjeta, 13 especial (confirming). */
const MEDIO_PAGO: Record<string, string> = {
  contado: '01',
  efectivo: '01',
  transferencia: '04',
  transferencia_30: '04',
  transferencia_60: '04',
  recibo_30: '02',
  recibo_30_60: '02',
  recibo_30_60_90: '02',
  confirming_60: '13',
  tarjeta: '19',
};

/** PaymentDetails: the instalments of a positive invoice with a known forma de pago (a refund has none). */
function pagos(f: DatosFacturae): string {
  const medio = f.formaPago ? MEDIO_PAGO[f.formaPago] : undefined;
  if (!medio || f.total <= 0) return '';
  const plazos = plazosDe(f.fecha, f.formaPago, f.total);
  // A transfer (04) names the company's account, where the payer sends it.
  const cuenta = medio === '04' && f.iban?.trim() ? el('AccountToBeCredited', t('IBAN', f.iban.replace(/\s/g, '').toUpperCase(), 34)) : '';
  return el(
    'PaymentDetails',
    plazos.map((p) => el('Installment', t('InstallmentDueDate', p.fecha) + t('InstallmentAmount', euros(p.importe)) + t('PaymentMeans', medio) + cuenta)).join(''),
  );
}


/** Facturae's reason codes (ReasonCodeType) with the exact ReasonDescription the schema lists (ReasonDescriptionType). */
export const MOTIVOS_RECTIFICACION = {
  '01': 'Número de la factura',
  '02': 'Serie de la factura',
  '03': 'Fecha expedición',
  '04': 'Nombre y apellidos/Razón Social-Emisor',
  '05': 'Nombre y apellidos/Razón Social-Receptor',
  '06': 'Identificación fiscal Emisor/obligado',
  '07': 'Identificación fiscal Receptor',
  '08': 'Domicilio Emisor/Obligado',
  '09': 'Domicilio Receptor',
  '10': 'Detalle Operación',
  '11': 'Porcentaje impositivo a aplicar',
  '12': 'Cuota tributaria a aplicar',
  '13': 'Fecha/Periodo a aplicar',
  '14': 'Clase de factura',
  '15': 'Literales legales',
  '16': 'Base imponible',
  '80': 'Cálculo de cuotas repercutidas',
  '81': 'Cálculo de cuotas retenidas',
  '82': 'Base imponible modificada por devolución de envases / embalajes',
  '83': 'Base imponible modificada por descuentos y bonificaciones',
  '84': 'Base imponible modificada por resolución firme, judicial o administrativa',
  '85': 'Base imponible modificada cuotas repercutidas no satisfechas. Auto de declaración de concurso',
} as const;
export type MotivoRectificacion = keyof typeof MOTIVOS_RECTIFICACION;
export const esMotivoRectificacion = (v: unknown): v is MotivoRectificacion => typeof v === 'string' && Object.hasOwn(MOTIVOS_RECTIFICACION, v);

/**
 * The reason of a rectificativa: R2 (art. 80.Tres, concurso) and R3 (art. 80.Cuatro, unpaid debts) correct the
 * base for taxes not paid (85); the others (R1 errors and art. 80.Uno/Dos returns and discounts, R4, R5) correct
 * the base (16).
 */
export function motivoRectificacion(tipoFactura: string): MotivoRectificacion {
  return tipoFactura === 'R2' || tipoFactura === 'R3' ? '85' : '16';
}

// Canonical text -----------------------------------------------------------------------------------------------

/** Characters XML 1.0 does not allow are dropped; the rest escaped as C14N writes text. */
export function texto(v: string): string {
  return (
    v
      // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\r/g, '&#xD;')
  );
}

/** An attribute value as C14N writes it. */
export function atributo(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;').replace(/\r/g, '&#xD;');
}

/** `<tag a="…">content</tag>`; attributes are given in canonical order by the caller. */
export function el(tag: string, contenido: string, attrs: [string, string][] = []): string {
  return `<${tag}${attrs.map(([k, v]) => ` ${k}="${atributo(v)}"`).join('')}>${contenido}</${tag}>`;
}

const t = (tag: string, v: string, max?: number) => el(tag, texto(max ? recortar(v, max) : v));
const recortar = (v: string, max: number) => [...v.trim()].slice(0, max).join('');

// Amounts --------------------------------------------------------------------------------------------------------

/** A scaled integer as a decimal with `escala` digits: (12345n, 2) → '123.45'. */
export function decimal(v: bigint | number, escala: number): string {
  const n = BigInt(v);
  const neg = n < 0n;
  const a = (neg ? -n : n).toString().padStart(escala + 1, '0');
  const s = escala ? `${a.slice(0, -escala)}.${a.slice(-escala)}` : a;
  return neg && /[1-9]/.test(s) ? `-${s}` : s;
}

/** Cents → '123.45'. */
export const euros = (c: number | bigint) => decimal(c, 2);

/** A tax rate in hundredths of a percent: 2100 → '21.00'. */
const tasa = (r: bigint | number) => decimal(r, 2);

/** The IVA rate of a line's `tipo_iva` (hundredths of a percent): the catalogue's, else its number ('7' → 700). */
export function tasaIva(tipo: string): bigint {
  const r = IVA_RATE[tipo as TipoIva];
  if (r !== undefined) return r;
  const n = Number(tipo.replace(',', '.'));
  return Number.isFinite(n) ? BigInt(Math.round(n * 100)) : 0n;
}

/** Facturae's TaxTypeCode of a line's type (issue 16): 01 IVA, 02 IPSI, 03 IGIC (the same codes as VERI*FACTU's L1). */
const tipoImpuesto = (tipo: string) => IMPUESTO_AEAT[impuestoDeTipo(tipo) ?? 'iva'];
const tasaRecargo = (tipo: string) => RECARGO_RATE[tipo as TipoIva] ?? 0n;

// Parties --------------------------------------------------------------------------------------------------------

/**
 * ISO 3166-1 alpha-2 → the alpha-3 code of Facturae's CountryType, for the countries its list names (a few newer
 * codes, such as CW or SS, are not in the 3.2.2 list: such a customer's Facturae is refused with a message).
 */
export const PAIS_ALFA3: Record<string, string> = Object.fromEntries(
  (
    'ADAND AEARE AFAFG AGATG AIAIA ALALB AMARM AOAGO ARARG ASASM ATAUT AUAUS AWABW AZAZE BABIH BBBRB BDBGD BEBEL ' +
    'BFBFA BGBGR BHBHR BIBDI BJBEN BMBMU BNBRN BOBOL BRBRA BSBHS BTBTN BWBWA BYBLR BZBLZ CACAN CDCOD CFCAF CGCOG ' +
    'CHCHE CICIV CKCOK CLCHL CMCMR CNCHN COCOL CRCRI CUCUB CVCPV CYCYP CZCZE DEDEU DJDJI DKDNK DMDMA DODOM DZDZA ' +
    'ECECU EEEST EGEGY ERERI ESESP ETETH FIFIN FJFJI FKFLK FMFSM FOFRO FRFRA GAGAB GBGBR GDGRD GEGEO GGGGY GHGHA ' +
    'GIGIB GLGRL GMGMB GNGIN GQGNQ GRGRC GTGTM GUGUM GWGNB GYGUY HKHKG HNHND HRHRV HTHTI HUHUN IDIDN IEIRL ILISR ' +
    'IMIMN ININD IQIRQ IRIRN ISISL ITITA JEJEY JMJAM JOJOR JPJPN KEKEN KGKGZ KHKHM KIKIR KMCOM KNKNA KPPRK KRKOR ' +
    'KWKWT KYCYM KZKAZ LALAO LBLBN LCLCA LILIE LKLKA LRLBR LSLSO LTLTU LULUX LVLVA LYLBY MAMAR MCMCO MDMDA MEMNE ' +
    'MGMDG MHMHL MKMKD MLMLI MMMMR MNMNG MOMAC MPMNP MRMRT MSMSR MTMLT MUMUS MVMDV MWMWI MXMEX MYMYS MZMOZ NANAM ' +
    'NCNCL NENER NFNFK NGNGA NINIC NLNLD NONOR NPNPL NRNRU NUNIU NZNZL OMOMN PAPAN PEPER PFPYF PGPNG PHPHL PKPAK ' +
    'PLPOL PMSPM PNPCN PRPRI PSPSE PTPRT PWPLW PYPRY QAQAT ROROU RSSRB RURUS RWRWA SASAU SBSLB SCSYC SDSDN SESWE ' +
    'SGSGP SHSHN SISVN SKSVK SLSLE SMSMR SNSEN SOSOM SRSUR STSTP SVSLV SYSYR SZSWZ TCTCA TDTCD TGTGO THTHA TJTJK ' +
    'TKTKL TLTLS TMTKM TNTUN TOTON TRTUR TTTTO TVTUV TWTWN TZTZA UAUKR UGUGA USUSA UYURY UZUZB VAVAT VCVCT VEVEN ' +
    'VGVGB VIVIR VNVNM VUVUT WFWLF WSWSM YEYEM YTMYT ZAZAF ZMZMB ZWZWE '
  )
    .trim()
    .split(' ')
    .map((x) => [x.slice(0, 2), x.slice(2)]),
);

/** NIF starting with a company letter: a legal entity (J); a DNI or NIE: a person (F). */
export const personaJuridica = (nif: string) => /^[ABCDEFGHJNPQRSUVW]/i.test(nif.trim());

/** A party outside Spain (its country, ISO 3166-1 alpha-2, other than ES). */
export const extranjera = (p: DatosParte) => !!p.pais && p.pais.toUpperCase() !== 'ES';

/**
 * Whether a party lacks what its address needs: in Spain (AddressInSpain) address, a 5-digit postal code, town and
 * province; abroad (OverseasAddress) address and town, in a country Facturae's list (CountryType) names.
 */
export function faltaDireccion(p: DatosParte): boolean {
  if (extranjera(p)) return !p.direccion?.trim() || !p.poblacion?.trim();
  return !p.direccion?.trim() || !/^\d{5}$/.test(p.codigo_postal?.trim() ?? '') || !p.poblacion?.trim() || !p.provincia?.trim();
}

/** Facturae's ResidenceTypeCode: R resident in Spain, U resident in another EU member state, E anywhere else. */
export function residencia(p: DatosParte): 'R' | 'U' | 'E' {
  if (!extranjera(p)) return 'R';
  return NIF_IVA[p.pais!.toUpperCase()] ? 'U' : 'E';
}

/**
 * TaxIdentificationNumber: a Spanish NIF as it is; a foreign identifier preceded by the country's two letters, as the
 * schema's description asks (a NIF-IVA with its own prefix: EL for Greece).
 */
export function identificador(p: DatosParte): string {
  const nif = p.nif.trim().toUpperCase().replace(/\s+/g, '');
  if (!extranjera(p)) return nif;
  const pais = p.pais!.toUpperCase();
  const prefijo = p.tipo_id === '02' ? (NIF_IVA[pais]?.prefijo ?? pais) : pais;
  return nif.startsWith(prefijo) ? nif : prefijo + nif;
}

/**
 * Legal or natural person: a Spanish NIF by its first letter; abroad a passport is a person's, any other identifier
 * (a NIF-IVA, an official document or certificate of residence) is taken as a business's.
 */
export const juridicaParte = (p: DatosParte) => (extranjera(p) ? p.tipo_id !== '03' : personaJuridica(p.nif));

function direccion(p: DatosParte): string {
  if (extranjera(p)) {
    const pais = PAIS_ALFA3[p.pais!.toUpperCase()];
    const cpPoblacion = [p.codigo_postal?.trim(), p.poblacion?.trim()].filter(Boolean).join(' ');
    return el(
      'OverseasAddress',
      t('Address', p.direccion ?? '', 80) + t('PostCodeAndTown', cpPoblacion, 50) + t('Province', p.provincia?.trim() || p.poblacion || '', 20) + t('CountryCode', pais ?? ''),
    );
  }
  return el(
    'AddressInSpain',
    t('Address', p.direccion ?? '', 80) + t('PostCode', (p.codigo_postal ?? '').trim()) + t('Town', p.poblacion ?? '', 50) + t('Province', p.provincia ?? '', 20) + t('CountryCode', 'ESP'),
  );
}

function contacto(p: DatosParte): string {
  const partes = (p.telefono?.trim() ? t('Telephone', p.telefono, 15) : '') + (p.email?.trim() ? t('ElectronicMail', p.email, 60) : '');
  return partes ? el('ContactDetails', partes) : '';
}

/** A person's name split as Facturae wants it: the first word, then the surnames. */
function nombrePersona(nombre: string): { nombre: string; apellido1: string; apellido2: string } {
  const w = nombre.trim().split(/\s+/);
  if (w.length === 1) return { nombre: w[0], apellido1: w[0], apellido2: '' };
  return { nombre: w[0], apellido1: w[1], apellido2: w.slice(2).join(' ') };
}

/** SellerParty / BuyerParty: identification, the public administration's DIR3 units, the entity. */
function parte(p: DatosParte, administrativos: boolean): string {
  const juridica = juridicaParte(p);
  const id = el('TaxIdentification', t('PersonTypeCode', juridica ? 'J' : 'F') + t('ResidenceTypeCode', residencia(p)) + t('TaxIdentificationNumber', identificador(p), 30));
  let centros = '';
  if (administrativos && p.administracion_publica === 1) {
    const filas = DIR3_CAMPOS.filter((d) => p[d.campo]?.trim()).map((d) =>
      el('AdministrativeCentre', t('CentreCode', p[d.campo]!.trim().toUpperCase(), 10) + t('RoleTypeCode', d.rol) + direccion(p) + t('CentreDescription', d.label)),
    );
    if (filas.length) centros = el('AdministrativeCentres', filas.join(''));
  }
  let entidad: string;
  if (juridica) {
    entidad = el(
      'LegalEntity',
      t('CorporateName', p.nombre, 80) + (p.nombre_comercial?.trim() ? t('TradeName', p.nombre_comercial, 40) : '') + direccion(p) + contacto(p),
    );
  } else {
    const n = nombrePersona(p.nombre);
    entidad = el(
      'Individual',
      t('Name', n.nombre, 40) + t('FirstSurname', n.apellido1, 40) + (n.apellido2 ? t('SecondSurname', n.apellido2, 40) : '') + direccion(p) + contacto(p),
    );
  }
  return id + centros + entidad;
}

// Lines ----------------------------------------------------------------------------------------------------------

const EXENTAS: Record<string, string> = {
  E1: 'Exenta por el artículo 20 de la Ley 37/1992 del IVA',
  E2: 'Exenta por el artículo 21 de la Ley 37/1992 del IVA (exportación)',
  E3: 'Exenta por el artículo 22 de la Ley 37/1992 del IVA',
  E4: 'Exenta por los artículos 23 y 24 de la Ley 37/1992 del IVA',
  E5: 'Exenta por el artículo 25 de la Ley 37/1992 del IVA (entrega intracomunitaria)',
  E6: 'Exenta por otra causa',
  N1: 'No sujeta por los artículos 7, 14 y otros de la Ley 37/1992 del IVA',
  N2: 'No sujeta por las reglas de localización',
};

/** TaxTypeCode of IVA: what a SpecialTaxableEventReason starts with (the tax it speaks of, as the field's description asks). */
const IMPUESTO_IVA = '01';

/**
 * LegalLiterals (LegalReference, at most 250 characters each) for the operations of an invoice other than S1: the
 * schema's own text «Inversión del sujeto pasivo» for S2; «Operación exenta por aplicación del artículo … de la Ley
 * 37/1992 …» for each exemption; the non-subject ones with their ground.
 */
const LITERALES: Record<string, string> = {
  S2: 'Inversión del sujeto pasivo',
  E1: 'Operación exenta por aplicación del artículo 20 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido',
  E2: 'Operación exenta por aplicación del artículo 21 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido',
  E3: 'Operación exenta por aplicación del artículo 22 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido',
  E4: 'Operación exenta por aplicación de los artículos 23 y 24 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido',
  E5: 'Operación exenta por aplicación del artículo 25 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido',
  E6: 'Operación exenta',
  N1: 'Operación no sujeta por aplicación de los artículos 7, 14 y otros de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido',
  N2: 'Operación no sujeta por aplicación de las reglas de localización (artículos 68 a 70 de la Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido)',
};

/** The invoice's legal literals: one per operation other than S1 among its lines, in the lines' order. */
export function literales(lineas: readonly LineaFacturae[]): string[] {
  const out: string[] = [];
  for (const l of lineas) {
    const x = LITERALES[operacionEfectiva(l)];
    if (x && !out.includes(x)) out.push(x);
  }
  return out;
}

/**
 * `exactos` (at `escala` per cent) rounded to cents so that they add up to `objetivo` exactly (largest remainder): each
 * amount is its rounding or one cent away from it. Used so that a Facturae's lines add up to its totals as FACe checks
 * them (issue 22): Σ GrossAmount = TotalGrossAmount, Σ line taxes = the invoice's taxes.
 */
export function repartir(exactos: readonly bigint[], escala: bigint, objetivo: bigint): bigint[] {
  const out = exactos.map((x) => divRound(x, escala));
  if (!out.length) return out;
  // Nothing to charge in the group (a tax the invoice does not charge) beyond rounding: none on its lines.
  const suma = out.reduce((a, b) => a + b, 0n);
  if (objetivo === 0n && (suma > BigInt(out.length) || suma < -BigInt(out.length))) return out.map(() => 0n);
  let diferencia = objetivo - out.reduce((a, b) => a + b, 0n);
  if (diferencia === 0n) return out;
  const resto = exactos.map((x, i) => x - out[i] * escala);
  const paso = diferencia > 0n ? 1n : -1n;
  // Up: the lines that were rounded down the most first; down: those rounded up the most.
  const orden = out.map((_, i) => i).sort((a, b) => (resto[a] === resto[b] ? a - b : (paso > 0n ? resto[b] > resto[a] : resto[a] > resto[b]) ? 1 : -1));
  for (let k = 0; diferencia !== 0n; k = (k + 1) % orden.length) {
    out[orden[k]] += paso;
    diferencia -= paso;
  }
  return out;
}

/** A line's amounts in cents, as the invoice's totals share them out (importesDeLineas). */
type ImportesLinea = { base: bigint; cuota: bigint; recargo: bigint };

/**
 * Each line's base, tax and surcharge in cents, so that per group of the desglose (a rate, or an operation: the groups
 * calcularTotales sums) they add up to the group's stored base, IVA and recargo — and so the lines to the invoice's
 * totals. A line of no group (never from a stored invoice) keeps its own rounding.
 */
export function importesDeLineas(f: Pick<DatosFacturae, 'lineas' | 'desglose' | 'conRecargo'>): ImportesLinea[] {
  const netos = f.lineas.map((l) => BigInt(l.cantidad) * BigInt(l.precio) * (10000n - BigInt(l.descuento)));
  const cuotaDe = (l: LineaFacturae, neto: bigint) => {
    const op = operacionEfectiva(l);
    const sinCuota = !!EXENTAS[op] || op === 'S2';
    const cuota = sinCuota ? 0n : neto * tasaIva(l.tipo_iva);
    const recargo = f.conRecargo && !sinCuota ? neto * tasaRecargo(l.tipo_iva) : 0n;
    return { cuota, recargo };
  };
  const out: ImportesLinea[] = f.lineas.map((l, i) => {
    const c = cuotaDe(l, netos[i]);
    return { base: divRound(netos[i], 10n ** 9n), cuota: divRound(c.cuota, 10n ** 13n), recargo: divRound(c.recargo, 10n ** 13n) };
  });
  const grupoDe = (l: LineaFacturae) => {
    const op = l.operacion ?? null;
    return f.desglose.findIndex((g) => {
      const gop = g.operacion ?? null;
      if (op === null || op === 'S1') return g.tipo_iva === l.tipo_iva && (gop === null || gop === 'S1') && (op === null) === (gop === null);
      return gop === op;
    });
  };
  const grupos = new Map<number, number[]>();
  f.lineas.forEach((l, i) => {
    const g = grupoDe(l);
    if (g >= 0) grupos.set(g, [...(grupos.get(g) ?? []), i]);
  });
  for (const [g, idx] of grupos) {
    const d = f.desglose[g];
    const bases = repartir(idx.map((i) => netos[i]), 10n ** 9n, BigInt(d.base));
    const exactas = idx.map((i) => cuotaDe(f.lineas[i], netos[i]));
    const cuotas = repartir(exactas.map((c) => c.cuota), 10n ** 13n, BigInt(d.iva));
    const recargos = repartir(exactas.map((c) => c.recargo), 10n ** 13n, BigInt(d.recargo ?? 0));
    idx.forEach((i, k) => {
      out[i] = { base: bases[k], cuota: cuotas[k], recargo: recargos[k] };
    });
  }
  return out;
}

/**
 * One InvoiceLine: quantity, unit price, cost (8 decimals), discount, and its gross amount, base and tax to the cent as
 * importesDeLineas shares the invoice's totals out (the discount is what takes the cost to that gross amount).
 */
function linea(l: LineaFacturae, conRecargo: boolean, importes: ImportesLinea): string {
  // Scales: cantidad 3 × precio 4 = 7.
  const coste7 = BigInt(l.cantidad) * BigInt(l.precio);
  const bruto8 = importes.base * 10n ** 6n;
  const coste8 = coste7 * 10n;
  const rate = tasaIva(l.tipo_iva);
  const op = operacionEfectiva(l);
  const especial = EXENTAS[op];
  const sinCuota = !!especial || op === 'S2';
  const rr = conRecargo && !sinCuota ? tasaRecargo(l.tipo_iva) : 0n;
  let tax =
    t('TaxTypeCode', tipoImpuesto(l.tipo_iva)) +
    t('TaxRate', tasa(sinCuota ? 0n : rate)) +
    el('TaxableBase', t('TotalAmount', euros(importes.base))) +
    el('TaxAmount', t('TotalAmount', euros(importes.cuota)));
  if (rr > 0n) tax += t('EquivalenceSurcharge', tasa(rr)) + el('EquivalenceSurchargeAmount', t('TotalAmount', euros(importes.recargo)));
  const descuento =
    Number(l.descuento) !== 0
      ? el('DiscountsAndRebates', el('Discount', t('DiscountReason', 'Descuento') + t('DiscountRate', decimal(l.descuento, 2)) + t('DiscountAmount', decimal(coste8 - bruto8, 8))))
      : '';
  return el(
    'InvoiceLine',
    t('ItemDescription', l.descripcion || l.codigo, 2500) +
      t('Quantity', decimal(l.cantidad, 3)) +
      t('UnitOfMeasure', '01') +
      t('UnitPriceWithoutTax', decimal(l.precio, 4)) +
      t('TotalCost', decimal(coste8, 8)) +
      descuento +
      t('GrossAmount', euros(importes.base)) +
      el('TaxesOutputs', el('Tax', tax)) +
      (especial ? el('SpecialTaxableEvent', t('SpecialTaxableEventCode', op.startsWith('N') ? '02' : '01') + t('SpecialTaxableEventReason', `${IMPUESTO_IVA} ${especial}`)) : '') +
      (l.codigo ? t('ArticleCode', l.codigo, 20) : ''),
  );
}

// The file -------------------------------------------------------------------------------------------------------

function ultimoDiaDelMes(fecha: string): string {
  const [a, m] = fecha.split('-').map(Number);
  const d = new Date(Date.UTC(a, m, 0)).getUTCDate();
  return `${fecha.slice(0, 7)}-${String(d).padStart(2, '0')}`;
}

function rectificacion(r: RectificacionFacturae): string {
  const codigo = r.motivo ?? motivoRectificacion(r.tipoFactura);
  const integra = r.modo === 'sustitucion';
  return el(
    'Corrective',
    t('InvoiceNumber', r.numero, 20) +
      (r.serie ? t('InvoiceSeriesCode', r.serie, 20) : '') +
      t('ReasonCode', codigo) +
      t('ReasonDescription', MOTIVOS_RECTIFICACION[codigo]) +
      el('TaxPeriod', t('StartDate', `${r.fecha.slice(0, 7)}-01`) + t('EndDate', ultimoDiaDelMes(r.fecha))) +
      t('CorrectionMethod', integra ? '01' : '02') +
      t('CorrectionMethodDescription', integra ? 'Rectificación íntegra' : 'Rectificación por diferencias') +
      t('InvoiceIssueDate', r.fecha),
  );
}

function leyendas(f: DatosFacturae): string {
  const xs = literales(f.lineas);
  return xs.length ? el('LegalLiterals', xs.map((x) => t('LegalReference', x, 250)).join('')) : '';
}

/** The root's opening tag: every namespace the file uses, declared once (C14N order). */
export const APERTURA = `<fe:Facturae${ESPACIOS.map(([p, ns]) => ` xmlns:${p}="${ns}"`).join('')}>`;
export const CIERRE = '</fe:Facturae>';

/**
 * The content of the root (FileHeader, Parties, Invoices) of one invoice, in canonical form. The file is
 * `APERTURA + contenido + [ds:Signature] + CIERRE`.
 */
export function contenidoFacturae(f: DatosFacturae): string {
  const total = euros(f.total);
  const lote = `${f.emisor.nif.trim()}${f.serie}${f.numero}`.replace(/[^0-9A-Za-z]/g, '').slice(0, 70);
  const cabecera = el(
    'FileHeader',
    t('SchemaVersion', '3.2.2') +
      t('Modality', 'I') +
      t('InvoiceIssuerType', 'EM') +
      el(
        'Batch',
        t('BatchIdentifier', lote) +
          t('InvoicesCount', '1') +
          el('TotalInvoicesAmount', t('TotalAmount', total)) +
          el('TotalOutstandingAmount', t('TotalAmount', total)) +
          el('TotalExecutableAmount', t('TotalAmount', total)) +
          t('InvoiceCurrencyCode', 'EUR'),
      ),
  );
  const partes = el('Parties', el('SellerParty', parte(f.emisor, false)) + el('BuyerParty', parte(f.receptor, true)));

  const impuestos = f.desglose.map((g) => {
    // Only S1 charges the tax: exempt, non-subject and reverse-charge (S2) groups go at 0 % with no quota.
    const exenta = operacionEfectiva(g) !== 'S1' || (Number(g.iva) === 0 && tasaIva(g.tipo_iva) > 0n && Number(g.base) !== 0);
    const rate = exenta ? 0n : tasaIva(g.tipo_iva);
    let tax = t('TaxTypeCode', tipoImpuesto(g.tipo_iva)) + t('TaxRate', tasa(rate)) + el('TaxableBase', t('TotalAmount', euros(g.base))) + el('TaxAmount', t('TotalAmount', euros(g.iva)));
    if (f.conRecargo && Number(g.recargo) !== 0) tax += t('EquivalenceSurcharge', tasa(tasaRecargo(g.tipo_iva))) + el('EquivalenceSurchargeAmount', t('TotalAmount', euros(g.recargo)));
    return el('Tax', tax);
  });
  const retenidos =
    f.retencionImporte !== 0
      ? el(
          'TaxesWithheld',
          el('Tax', t('TaxTypeCode', '04') + t('TaxRate', tasa(f.retencion)) + el('TaxableBase', t('TotalAmount', euros(f.base))) + el('TaxAmount', t('TotalAmount', euros(f.retencionImporte)))),
        )
      : '';
  const totales = el(
    'InvoiceTotals',
    t('TotalGrossAmount', euros(f.base)) +
      t('TotalGeneralDiscounts', '0.00') +
      t('TotalGeneralSurcharges', '0.00') +
      t('TotalGrossAmountBeforeTaxes', euros(f.base)) +
      t('TotalTaxOutputs', euros(f.iva + f.recargo)) +
      t('TotalTaxesWithheld', euros(f.retencionImporte)) +
      t('InvoiceTotal', total) +
      t('TotalOutstandingAmount', total) +
      t('TotalExecutableAmount', total),
  );
  const factura = el(
    'Invoice',
    el(
      'InvoiceHeader',
      t('InvoiceNumber', f.numero, 20) +
        t('InvoiceSeriesCode', f.serie, 20) +
        t('InvoiceDocumentType', f.simplificada ? 'FA' : 'FC') +
        t('InvoiceClass', f.rectifica ? 'OR' : 'OO') +
        (f.rectifica ? rectificacion(f.rectifica) : ''),
    ) +
      el(
        'InvoiceIssueData',
        t('IssueDate', f.fecha) +
          (f.fechaOperacion ? t('OperationDate', f.fechaOperacion) : '') +
          t('InvoiceCurrencyCode', 'EUR') +
          t('TaxCurrencyCode', 'EUR') +
          t('LanguageName', 'es') +
          (f.observaciones?.trim() ? t('InvoiceDescription', f.observaciones, 2500) : ''),
      ) +
      el('TaxesOutputs', impuestos.join('')) +
      retenidos +
      totales +
      el('Items', (() => {
        const importes = importesDeLineas(f);
        return f.lineas.map((l, i) => linea(l, f.conRecargo, importes[i])).join('');
      })()) +
      pagos(f) +
      leyendas(f),
  );
  return cabecera + partes + el('Invoices', factura);
}
