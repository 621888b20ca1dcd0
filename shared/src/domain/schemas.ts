import { CONF_FIELDS } from './flags';
import { CONSTANTS, MESSAGES } from './messages';
import { BIC_RE } from './sepa';
import { SERIE_TIPOS } from './entities';
import { IMPUESTOS } from './catalogo';
import type { Schema } from './validation';

/** Input schemas of the op.asp actions, shared by the server (edge validation) and the forms. */
export const loginSchema = {
  email: { type: 'email', required: true },
  password: { type: 'password', required: true },
} satisfies Schema;

export const recordarSchema = { email: { type: 'email', required: true } } satisfies Schema;

export const restablecerSchema = {
  token: { type: 'string', required: true, max: 200 },
  password: { type: 'password', required: true, min: CONSTANTS.minPasswordLength },
} satisfies Schema;

const flagRules = Object.fromEntries(CONF_FIELDS.map((f) => [f, { type: 'flag' as const }]));

export const configuracionSchema = {
  razon_social: { type: 'string', required: true, max: 150 },
  nombre_comercial: { type: 'string', max: 150 },
  nif: { type: 'nif', required: true },
  direccion: { type: 'string', max: 200 },
  codigo_postal: { type: 'postalCode' },
  poblacion: { type: 'string', max: 100 },
  provincia: { type: 'string', max: 100 },
  telefono: { type: 'string', max: 30 },
  email: { type: 'email' },
  logo: { type: 'string', max: 300 },
  favicon: { type: 'string', max: 300 },
  /** Retail or hospitality: simplified invoices up to 3.000 € instead of 400 € (docs/fiscal.md). */
  minorista: { type: 'flag' },
  /** 1 (default): documents may leave stock below zero, with a warning on the line; 0: they are refused. */
  stock_negativo: { type: 'flag' },
  /** IVA, IGIC (Canarias) or IPSI (Ceuta y Melilla); fixed once an invoice or ticket has been issued. */
  impuesto: { type: 'enum', values: IMPUESTOS },
  /** The account transfers are paid to (Facturae AccountToBeCredited). */
  iban: { type: 'iban' },
  /** Issue 26: its bank's BIC and its SEPA creditor identifier (the transfer and direct-debit files). */
  bic: { type: 'string', max: 11, pattern: BIC_RE, patternMessage: MESSAGES.bicNoValido },
  acreedor_sepa: { type: 'acreedorSepa' },
  ...flagRules,
} as Schema;

export const usuarioSchema = {
  nombre: { type: 'string', required: true, max: 100 },
  email: { type: 'email', required: true },
  password: { type: 'password', min: CONSTANTS.minPasswordLength },
  activo: { type: 'flag' },
  /** The user's role (roles.ts); a new user without one gets Consulta, an update without it keeps theirs. */
  rol_id: { type: 'int', min: 1 },
} satisfies Schema;

export const serieSchema = {
  codigo: { type: 'string', required: true, max: 10, pattern: /^[A-Z0-9_-]+$/i, patternMessage: 'Solo letras, números, guion y guion bajo' },
  descripcion: { type: 'string', required: true, max: 100 },
  tipo: { type: 'enum', required: true, values: SERIE_TIPOS },
  activo: { type: 'flag' },
} satisfies Schema;
