import { isValidIban } from './nif';

/** One instalment still owed to a supplier (cents), as `listadovencimientosproveedor` answers it and Compras › Pagos shows it: `clave` «factura:plazo» names it for the transfer file. */
export type VencimientoProveedor = {
  clave: string;
  factura_id: number;
  numero_proveedor: string;
  proveedor_id: number;
  proveedor_nombre: string;
  proveedor_iban: string | null;
  iban_valido: boolean;
  plazo: number;
  fecha: string;
  importe: number;
  pendiente: number;
};

/**
 * SEPA (issue 26): transfers to suppliers (pain.001.001.03) and direct debits of customers (pain.008.001.02). What the
 * screens and the server check alike: the creditor identifier, BICs, mandate references, the return reason codes.
 */

/** A BIC: 4 letters (bank), 2 (country), 2 letters or digits (location), optionally 3 more (branch). */
export const BIC_RE = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
/** A mandate reference as the EPC allows it (up to 35 characters; letters, digits, space and + ? / - : ( ) . , '). */
export const MANDATO_RE = /^[A-Za-z0-9+?/:().,' -]{1,35}$/;

/** ISO 7064 mod 97-10 of a string of letters (A=10 … Z=35) and digits. */
function mod97(s: string): number {
  const digits = s.toUpperCase().replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest;
}

/** The creditor identifier as stored: capitals, no spaces. */
export const normalizarAcreedor = (raw: string) => raw.toUpperCase().replace(/[\s-]/g, '');

/**
 * A SEPA creditor identifier (EPC262-08, «Creditor Identifier»; AEB/CSB 19.14 for Spain): the country code `ES`, two
 * check digits, a three-character business code (`ZZZ` or the company's suffix, e.g. `000`, `001`) and the national
 * identifier (the NIF). The check digits are the mod 97-10 of the national identifier followed by the country code and
 * `00` (the business code takes no part): 98 − that remainder.
 */
export function isValidAcreedorSepa(raw: string): boolean {
  const v = normalizarAcreedor(raw);
  const m = /^([A-Z]{2})(\d{2})([A-Z0-9]{3})([A-Z0-9]{1,28})$/.exec(v);
  if (!m) return false;
  const [, pais, control, , nacional] = m;
  if (pais === 'ES' && nacional.length !== 9) return false;
  return Number(control) === 98 - mod97(`${nacional}${pais}00`);
}

/** The creditor identifier of a Spanish NIF with this business code ('000' unless the bank gave another). */
export function acreedorSepaDeNif(nif: string, sufijo = '000'): string {
  const n = normalizarAcreedor(nif);
  const control = String(98 - mod97(`${n}ES00`)).padStart(2, '0');
  return `ES${control}${sufijo}${n}`;
}

/** An IBAN as stored in the SEPA files: capitals, no spaces (and whether it is valid: mod 97). */
export const ibanSepa = (raw: string | null | undefined) => (raw ?? '').toUpperCase().replace(/\s/g, '');
export const ibanValido = (raw: string | null | undefined) => !!raw && isValidIban(raw);

export const SECUENCIAS_SEPA = ['FRST', 'RCUR'] as const;
export type SecuenciaSepa = (typeof SECUENCIAS_SEPA)[number];
export const ESQUEMAS_SEPA = ['CORE', 'B2B'] as const;
export type EsquemaSepa = (typeof ESQUEMAS_SEPA)[number];
export const SECUENCIA_LABEL: Record<SecuenciaSepa, string> = { FRST: 'Primer cargo (FRST)', RCUR: 'Recurrente (RCUR)' };
export const ESQUEMA_LABEL: Record<EsquemaSepa, string> = { CORE: 'Básico (CORE)', B2B: 'Entre empresas (B2B)' };

/** The formas de pago whose invoices are collected by direct debit (remesas). */
export const esReciboDomiciliado = (forma: string | null | undefined) => !!forma && forma.startsWith('recibo');

/** R-transaction reason codes of a returned direct debit (ISO 20022 ExternalReturnReason1Code, as Spanish banks report them). */
export const MOTIVOS_DEVOLUCION = [
  { codigo: 'AC01', label: 'Cuenta incorrecta (IBAN no válido)' },
  { codigo: 'AC04', label: 'Cuenta cancelada' },
  { codigo: 'AC06', label: 'Cuenta bloqueada' },
  { codigo: 'AC13', label: 'El deudor es un consumidor (no admite B2B)' },
  { codigo: 'AG01', label: 'Operación no permitida en esta cuenta' },
  { codigo: 'AG02', label: 'Código de operación incorrecto' },
  { codigo: 'AM04', label: 'Fondos insuficientes' },
  { codigo: 'AM05', label: 'Cargo duplicado' },
  { codigo: 'BE05', label: 'Acreedor no reconocido' },
  { codigo: 'FF01', label: 'Formato de fichero no válido' },
  { codigo: 'MD01', label: 'Sin mandato' },
  { codigo: 'MD02', label: 'Datos del mandato incompletos o erróneos' },
  { codigo: 'MD06', label: 'Devolución solicitada por el deudor' },
  { codigo: 'MD07', label: 'Deudor fallecido' },
  { codigo: 'MS02', label: 'Motivo no indicado por el deudor' },
  { codigo: 'MS03', label: 'Motivo no indicado por el banco' },
  { codigo: 'RC01', label: 'BIC incorrecto' },
  { codigo: 'RR01', label: 'Falta la identificación del deudor (regulatorio)' },
  { codigo: 'RR02', label: 'Falta el nombre o la dirección del deudor (regulatorio)' },
  { codigo: 'RR03', label: 'Falta el nombre o la dirección del acreedor (regulatorio)' },
  { codigo: 'RR04', label: 'Motivo regulatorio' },
  { codigo: 'SL01', label: 'Servicio específico del banco del deudor' },
] as const;
export const MOTIVO_DEVOLUCION_CODIGOS = MOTIVOS_DEVOLUCION.map((m) => m.codigo) as unknown as readonly string[];
export const motivoDevolucionLabel = (codigo: string | null | undefined) => MOTIVOS_DEVOLUCION.find((m) => m.codigo === codigo)?.label ?? codigo ?? '';

/** One remesa as the list and the record answer it (cents). */
export type Remesa = {
  id: number;
  fecha_cargo: string;
  hasta: string;
  estado: 'emitida' | 'pagada';
  pagada_fecha: string | null;
  creado: string;
  num_recibos: number;
  total: number;
  devueltos: number;
  recibos?: ReciboRemesa[];
};

export type ReciboRemesa = {
  id: number;
  remesa_id: number;
  documento_id: number;
  documento_numero: string;
  cliente_id: number;
  cliente_nombre: string;
  plazo: number;
  vencimiento: string;
  importe: number;
  secuencia: SecuenciaSepa;
  esquema: EsquemaSepa;
  mandato_referencia: string;
  mandato_fecha: string;
  iban: string;
  cobro_id: number | null;
  devuelto_fecha: string | null;
  devuelto_motivo: string | null;
};

/** A due instalment that can go into a remesa or a transfer file: `clave` is «documento:plazo». */
export type ReciboPendiente = {
  clave: string;
  documento_id: number;
  documento_numero: string;
  cliente_id: number;
  cliente_nombre: string;
  plazo: number;
  vencimiento: string;
  importe: number;
  forma_pago: string | null;
  /** Why it can't be collected by direct debit yet (no IBAN, no mandate): null when it can. */
  problema: string | null;
};

/** The customer's fields of its SEPA mandate (clientes, migration 0048). */
export const MANDATO_CAMPOS = ['bic', 'mandato_referencia', 'mandato_fecha', 'mandato_secuencia', 'mandato_esquema'] as const;
