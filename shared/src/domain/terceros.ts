import { OPERACIONES, type Operacion } from './operaciones';
import { formatDecimal } from './format';
import type { Schema } from './validation';
import { MESSAGES } from './messages';
import { BIC_RE, MANDATO_RE } from './sepa';
import { PAISES, TIPOS_ID, type TipoId } from './paises';
import { mediosDePago, medioPagoLabel, type MedioPago } from './mediosPago';
import type { FieldErrors } from './validation';

/**
 * The parties documents are made with (docs/documentos.md, "Masters that documents use"): proveedores
 * now, clientes with ventas. Formas de pago and provinces are fixed lists shared by both.
 */

/**
 * Formas de pago: payment terms, with the days after the document date on which each instalment falls due and the
 * medio de pago (mediosPago.ts) it is paid by.
 */
export const FORMAS_PAGO = [
  { id: 'contado', label: 'Contado', dias: [0], medio: 'efectivo' },
  { id: 'transferencia', label: 'Transferencia bancaria', dias: [0], medio: 'transferencia' },
  { id: 'transferencia_30', label: 'Transferencia a 30 días', dias: [30], medio: 'transferencia' },
  { id: 'transferencia_60', label: 'Transferencia a 60 días', dias: [60], medio: 'transferencia' },
  { id: 'recibo_30', label: 'Recibo domiciliado a 30 días', dias: [30], medio: 'recibo' },
  { id: 'recibo_30_60', label: 'Recibo domiciliado a 30 y 60 días', dias: [30, 60], medio: 'recibo' },
  { id: 'recibo_30_60_90', label: 'Recibo domiciliado a 30, 60 y 90 días', dias: [30, 60, 90], medio: 'recibo' },
  { id: 'confirming_60', label: 'Confirming a 60 días', dias: [60], medio: 'confirming' },
  { id: 'tarjeta', label: 'Tarjeta', dias: [0], medio: 'tarjeta' },
  { id: 'efectivo', label: 'Efectivo', dias: [0], medio: 'efectivo' },
] as const satisfies readonly { id: string; label: string; dias: readonly number[]; medio: MedioPago }[];
export type FormaPago = (typeof FORMAS_PAGO)[number]['id'];
export const FORMA_PAGO_IDS = FORMAS_PAGO.map((f) => f.id) as unknown as readonly FormaPago[];

/**
 * The medios de pago (mediosPago.ts) the back office offers as «Forma de cobro» / «Forma de pago» when a cobro of an
 * invoice or a payment of a supplier invoice is recorded — how it is actually paid, not payment terms. A cobro or
 * payment recorded before (or without a medio: the invoice's own) keeps the forma de pago it was given, so both are
 * accepted (FORMAS_COBRO_ADMITIDAS) and formaPagoLabel names both.
 */
export const MEDIOS_COBRO = mediosDePago(['efectivo', 'tarjeta', 'transferencia', 'recibo', 'cheque', 'confirming']);
export type MedioCobro = (typeof MEDIOS_COBRO)[number]['id'];
export const MEDIO_COBRO_IDS = MEDIOS_COBRO.map((m) => m.id) as readonly MedioCobro[];
export const MEDIO_COBRO_OPTIONS = MEDIOS_COBRO.map((m) => ({ value: m.id as string, label: m.label as string }));
/** What a recorded cobro or payment may carry as its `forma`: a medio de cobro, or a document's forma de pago. */
export const FORMAS_COBRO_ADMITIDAS: readonly string[] = [...MEDIO_COBRO_IDS, ...FORMA_PAGO_IDS.filter((f) => !(MEDIO_COBRO_IDS as readonly string[]).includes(f))];

/** The medio de cobro a document's forma de pago is paid by (a «Recibo domiciliado a 30 y 60 días»: a recibo); null if none. */
export function medioCobroDe(formaPago: string | null | undefined): MedioCobro | null {
  if (!formaPago) return null;
  const medio: string | undefined = FORMAS_PAGO.find((f) => f.id === formaPago)?.medio ?? formaPago;
  return (MEDIO_COBRO_IDS as readonly string[]).includes(medio) ? (medio as MedioCobro) : null;
}

/** The label of a forma de pago (payment terms) or of a medio de pago (a cobro's, a payment's, a ticket's). */
export function formaPagoLabel(id: string | null | undefined): string {
  return FORMAS_PAGO.find((f) => f.id === id)?.label ?? medioPagoLabel(id);
}

/** Whether a forma de pago is paid by transfer: the payer needs the company's IBAN (on the PDF, in Facturae). */
export const esTransferencia = (formaPago: string | null | undefined): boolean => !!formaPago && formaPago.startsWith('transferencia');

/** Due dates ('aaaa-mm-dd') of a document dated `fecha` with this payment method. */
export function vencimientos(fecha: string, formaPago: string | null | undefined): string[] {
  const forma = FORMAS_PAGO.find((f) => f.id === formaPago);
  if (!forma) return [];
  return forma.dias.map((d) => {
    const t = new Date(`${fecha}T00:00:00Z`);
    t.setUTCDate(t.getUTCDate() + d);
    return t.toISOString().slice(0, 10);
  });
}

/** Retención IRPF rates a supplier or customer may have, hundredths of a percent (docs/fiscal.md). */
export const RETENCIONES = [0, 100, 700, 1500, 1900] as const;

/** '7 %' of a retención in hundredths of a percent. */
export const retencionLabel = (r: number) => `${formatDecimal(r, 2, 0)} %`;
/** The options of the 'Forma de pago' and '% Retención' selects (party records, document headers). */
export const FORMA_PAGO_OPTIONS = FORMAS_PAGO.map((f) => ({ value: f.id as string, label: f.label as string }));
export const RETENCION_OPTIONS = RETENCIONES.map((r) => ({ value: String(r), label: retencionLabel(r) }));

/** An IBAN as people read it: groups of four ('ES91 2100 0418 4502 0005 1332'). */
export function formatIban(v: string): string {
  return v
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .replace(/(.{4})(?=.)/g, '$1 ');
}

/** Spanish provinces by the first two digits of the postal code (01 Álava … 52 Melilla). */
export const PROVINCIAS: Record<string, string> = {
  '01': 'Álava', '02': 'Albacete', '03': 'Alicante', '04': 'Almería', '05': 'Ávila', '06': 'Badajoz', '07': 'Illes Balears',
  '08': 'Barcelona', '09': 'Burgos', '10': 'Cáceres', '11': 'Cádiz', '12': 'Castellón', '13': 'Ciudad Real', '14': 'Córdoba',
  '15': 'A Coruña', '16': 'Cuenca', '17': 'Girona', '18': 'Granada', '19': 'Guadalajara', '20': 'Gipuzkoa', '21': 'Huelva',
  '22': 'Huesca', '23': 'Jaén', '24': 'León', '25': 'Lleida', '26': 'La Rioja', '27': 'Lugo', '28': 'Madrid', '29': 'Málaga',
  '30': 'Murcia', '31': 'Navarra', '32': 'Ourense', '33': 'Asturias', '34': 'Palencia', '35': 'Las Palmas', '36': 'Pontevedra',
  '37': 'Salamanca', '38': 'Santa Cruz de Tenerife', '39': 'Cantabria', '40': 'Segovia', '41': 'Sevilla', '42': 'Soria',
  '43': 'Tarragona', '44': 'Teruel', '45': 'Toledo', '46': 'Valencia', '47': 'Valladolid', '48': 'Bizkaia', '49': 'Zamora',
  '50': 'Zaragoza', '51': 'Ceuta', '52': 'Melilla',
};

/** The province of a valid postal code, or null. */
export function provinciaDeCodigoPostal(cp: string | null | undefined): string | null {
  const v = (cp ?? '').trim();
  return /^\d{5}$/.test(v) ? (PROVINCIAS[v.slice(0, 2)] ?? null) : null;
}

export type Proveedor = {
  id: number;
  /** Supplier code, unique ('P0001' by default). */
  codigo: string;
  /** The identifier: a Spanish NIF, or what `tipo_id` says (a NIF-IVA with its country prefix, a passport…). */
  nif: string;
  /** Issue 16: ISO 3166-1 alpha-2 (null: Spain). */
  pais?: string | null;
  /** Issue 16: the AEAT's IDType ('02' NIF-IVA … '06' otro; null: Spanish NIF). */
  tipo_id?: TipoId | null;
  razon_social: string;
  nombre_comercial: string | null;
  direccion: string | null;
  codigo_postal: string | null;
  poblacion: string | null;
  provincia: string | null;
  telefono: string | null;
  email: string | null;
  iban: string | null;
  forma_pago: FormaPago | null;
  /** Retención IRPF, hundredths of a percent. */
  retencion: number;
  observaciones: string | null;
  activo: 0 | 1;
  /** Record only: purchases per year from real documents (albaranes − devoluciones, cents, without IVA). */
  compras_por_ejercicio?: { ejercicio: number; base: number; total: number }[];
  /** Record only (issue 26): what the shop owes it (unpaid instalments of its invoices, cents), and of it what is overdue. */
  pendiente_pago?: number;
  vencido_pago?: number;
};

export const proveedorSchema = {
  codigo: { type: 'string', max: 20 },
  // Checked with the country and the type by validarIdentificacion (a Spanish NIF as always).
  nif: { type: 'string', required: true, max: 30 },
  pais: { type: 'enum', values: PAISES },
  tipo_id: { type: 'enum', values: ['NIF', ...TIPOS_ID] },
  razon_social: { type: 'string', required: true, max: 150 },
  nombre_comercial: { type: 'string', max: 150 },
  direccion: { type: 'string', max: 200 },
  // Spanish postal codes are checked by validarIdentificacion; other countries' are free.
  codigo_postal: { type: 'string', max: 20 },
  poblacion: { type: 'string', max: 100 },
  provincia: { type: 'string', max: 100 },
  telefono: { type: 'string', max: 30 },
  email: { type: 'email' },
  iban: { type: 'iban' },
  forma_pago: { type: 'enum', values: FORMA_PAGO_IDS },
  retencion: { type: 'int', min: 0, max: 5000 },
  observaciones: { type: 'string', max: 2000 },
  activo: { type: 'flag' },
} satisfies Schema;

/** Tariffs a customer may buy at (tarifa_2 / tarifa_3 flags allow the 2nd and 3rd). */
export const TARIFAS = [1, 2, 3] as const;
export type Tarifa = (typeof TARIFAS)[number];

export type Cliente = Omit<Proveedor, 'compras_por_ejercicio' | 'pendiente_pago' | 'vencido_pago'> & {
  /** 1: pays recargo de equivalencia (docs/fiscal.md) on every sale. */
  recargo: 0 | 1;
  /** The price list its lines start from. */
  tarifa: Tarifa;
  /** Default discount of its lines, hundredths of a percent. */
  descuento: number;
  /** Issue 16: 1: a public administration, invoiced through FACe with its DIR3 codes (Facturae). */
  administracion_publica?: 0 | 1;
  /** Its DIR3 units (9 characters): oficina contable (role 01), órgano gestor (02), unidad tramitadora (03), órgano proponente (04, where asked). */
  dir3_oficina_contable?: string | null;
  dir3_organo_gestor?: string | null;
  dir3_unidad_tramitadora?: string | null;
  dir3_organo_proponente?: string | null;
  /** Issue 26: its SEPA direct-debit mandate (sepa.ts): reference, date of signature, FRST/RCUR, CORE/B2B; its bank's BIC. */
  bic?: string | null;
  mandato_referencia?: string | null;
  mandato_fecha?: string | null;
  mandato_secuencia?: 'FRST' | 'RCUR' | null;
  mandato_esquema?: 'CORE' | 'B2B' | null;
  /** Issue 16: its lines' operation unless the article has one (E2 exports, E5 intra-EU with a NIF-IVA…); null: S1. */
  operacion?: Operacion | null;
  /** Record only: sales per year from real documents (albaranes and direct invoices − devoluciones, cents). */
  ventas_por_ejercicio?: { ejercicio: number; base: number; total: number }[];
  /** Record only: what it owes: emitted invoices not yet paid (cents), and of it what is overdue. */
  pendiente_cobro?: number;
  vencido?: number;
};

/** A DIR3 code: 9 characters, letters and digits, the first a letter (L01280796, GE0000156, EA0003045); any case, kept in capitals. */
export const DIR3_RE = /^[A-Za-z][A-Za-z0-9]{8}$/;
const dir3 = { type: 'string', pattern: DIR3_RE, patternMessage: MESSAGES.dir3NoValido } as const;

/** The DIR3 fields of a public administration: oficina contable, órgano gestor, unidad tramitadora (required), órgano proponente (optional). */
export const DIR3_CAMPOS = [
  { campo: 'dir3_oficina_contable', rol: '01', label: 'Oficina contable', requerido: true },
  { campo: 'dir3_organo_gestor', rol: '02', label: 'Órgano gestor', requerido: true },
  { campo: 'dir3_unidad_tramitadora', rol: '03', label: 'Unidad tramitadora', requerido: true },
  { campo: 'dir3_organo_proponente', rol: '04', label: 'Órgano proponente', requerido: false },
] as const;
export type Dir3Campo = (typeof DIR3_CAMPOS)[number]['campo'];

/**
 * What the schema can't say of a public administration: its three DIR3 codes are required (the proponente is
 * optional). `v` holds the values as the request or the form has them (a code's format is the schema's).
 */
export function validarDir3(v: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  if (Number(v.administracion_publica ?? 0) !== 1) return errors;
  for (const d of DIR3_CAMPOS) {
    const x = v[d.campo];
    if (d.requerido && (x === undefined || x === null || String(x).trim() === '')) errors[d.campo] = MESSAGES.dir3Requerido;
  }
  return errors;
}

export const clienteSchema = {
  ...proveedorSchema,
  recargo: { type: 'flag' },
  tarifa: { type: 'int', min: 1, max: 3 },
  descuento: { type: 'int', min: 0, max: 10000 },
  administracion_publica: { type: 'flag' },
  dir3_oficina_contable: dir3,
  dir3_organo_gestor: dir3,
  dir3_unidad_tramitadora: dir3,
  dir3_organo_proponente: dir3,
  operacion: { type: 'enum', values: OPERACIONES },
  // Issue 26: the SEPA mandate its receipts are collected under.
  bic: { type: 'string', max: 11, pattern: BIC_RE, patternMessage: MESSAGES.bicNoValido },
  mandato_referencia: { type: 'string', max: 35, pattern: MANDATO_RE, patternMessage: MESSAGES.mandatoReferenciaNoValida },
  mandato_fecha: { type: 'date' },
  mandato_secuencia: { type: 'enum', values: ['FRST', 'RCUR'] },
  mandato_esquema: { type: 'enum', values: ['CORE', 'B2B'] },
} satisfies Schema;

/** Header fields of `editar<entidad>` of every document with a party, but the party itself (lines travel apart, as `lineas`). */
const documentoTerceroSchema = {
  id: { type: 'int', min: 1 },
  fecha: { type: 'date', required: true },
  almacen_id: { type: 'int', required: true, min: 1 },
  forma_pago: { type: 'enum', values: FORMA_PAGO_IDS },
  retencion: { type: 'int', min: 0, max: 5000 },
  observaciones: { type: 'string', max: 2000 },
  /** Printed on the customer's or supplier's PDF (the internal observaciones never are). */
  observaciones_cliente: { type: 'string', max: 2000 },
  clave: { type: 'string', max: 64 },
} satisfies Schema;

/** Header fields of the purchase documents (pedido, albarán, devolución de compra). */
export const documentoCompraSchema = { ...documentoTerceroSchema, proveedor_id: { type: 'int', required: true, min: 1 } } satisfies Schema;
/** Header fields of the sales documents (pedido, albarán, devolución de venta, factura; a type adds its own). */
export const documentoVentaSchema = { ...documentoTerceroSchema, cliente_id: { type: 'int', required: true, min: 1 } } satisfies Schema;
