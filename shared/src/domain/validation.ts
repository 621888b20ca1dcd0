import { CONSTANTS, MESSAGES } from './messages';
import { isValidIban, isValidNif, isValidPostalCode, normalizeNif } from './nif';

/**
 * One declarative schema per input, used by the server at the edge (HTTP 400 with field errors)
 * and by the forms (the same Spanish messages before the request leaves the browser).
 */
export type FieldRule =
  | { type: 'string'; required?: boolean; max?: number; min?: number; trim?: boolean; pattern?: RegExp; patternMessage?: string }
  | { type: 'email'; required?: boolean; max?: number }
  | { type: 'password'; required?: boolean; min?: number; max?: number }
  | { type: 'nif'; required?: boolean }
  | { type: 'postalCode'; required?: boolean }
  | { type: 'iban'; required?: boolean }
  | { type: 'int'; required?: boolean; min?: number; max?: number }
  | { type: 'flag'; required?: boolean }
  | { type: 'enum'; required?: boolean; values: readonly string[] }
  | { type: 'date'; required?: boolean };

export type Schema = Record<string, FieldRule>;

type RuleValue<R extends FieldRule> = R extends { type: 'int' }
  ? number
  : R extends { type: 'flag' }
    ? 0 | 1
    : R extends { type: 'enum'; values: readonly (infer V)[] }
      ? V
      : string;

export type Infer<S extends Schema> = {
  [K in keyof S]: S[K] extends { required: true } ? RuleValue<S[K]> : RuleValue<S[K]> | null;
};

export type FieldErrors = Record<string, string>;
export type ValidationResult<S extends Schema> =
  | { ok: true; value: Infer<S> }
  | { ok: false; errors: FieldErrors };

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

function requiredMessage(field: string, rule: FieldRule): string {
  if (rule.type === 'email') return MESSAGES.emailRequired;
  if (rule.type === 'password') return MESSAGES.passwordRequired;
  if (rule.type === 'enum') return MESSAGES.selectOption;
  if (rule.type === 'date') return MESSAGES.selectDate;
  if (field === 'usuario' || field === 'username') return MESSAGES.usernameRequired;
  return MESSAGES.required;
}

/** Checks one value against its rule; returns the Spanish message or the normalised value. */
export function checkField(field: string, rule: FieldRule, raw: unknown): { error: string } | { value: unknown } {
  if (isEmpty(raw)) {
    if (rule.required) return { error: requiredMessage(field, rule) };
    return { value: rule.type === 'flag' ? 0 : null };
  }
  switch (rule.type) {
    case 'string': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return { error: MESSAGES.required };
      const v = rule.trim === false ? String(raw) : String(raw).trim();
      if (rule.max !== undefined && v.length > rule.max) return { error: MESSAGES.tooLong };
      if (rule.min !== undefined && v.length < rule.min) return { error: MESSAGES.emptyNotAllowed };
      if (rule.pattern && !rule.pattern.test(v)) return { error: rule.patternMessage ?? MESSAGES.invalidUsername };
      return { value: v };
    }
    case 'email': {
      const v = String(raw).trim().toLowerCase();
      if (v.length > (rule.max ?? 254)) return { error: MESSAGES.tooLong };
      if (!EMAIL_RE.test(v)) return { error: MESSAGES.invalidEmail };
      return { value: v };
    }
    case 'password': {
      if (typeof raw !== 'string') return { error: MESSAGES.invalidPassword };
      if (raw.length > (rule.max ?? 200)) return { error: MESSAGES.tooLong };
      if (rule.min !== undefined && raw.length < rule.min) return { error: MESSAGES.passwordTooShort };
      return { value: raw };
    }
    case 'nif': {
      const v = normalizeNif(String(raw));
      return isValidNif(v) ? { value: v } : { error: MESSAGES.invalidNif };
    }
    case 'postalCode': {
      const v = String(raw).trim();
      return isValidPostalCode(v) ? { value: v } : { error: MESSAGES.invalidPostalCode };
    }
    case 'iban': {
      const v = String(raw).toUpperCase().replace(/\s/g, '');
      return isValidIban(v) ? { value: v } : { error: MESSAGES.invalidIban };
    }
    case 'int': {
      const s = String(raw).trim();
      if (!/^-?\d+$/.test(s)) return { error: MESSAGES.invalidNumber };
      const n = Number(s);
      if (!Number.isSafeInteger(n)) return { error: MESSAGES.invalidNumber };
      if (rule.min !== undefined && n < rule.min) return { error: MESSAGES.invalidNumber };
      if (rule.max !== undefined && n > rule.max) return { error: MESSAGES.invalidNumber };
      return { value: n };
    }
    case 'flag': {
      if (raw === 1 || raw === '1' || raw === true || raw === 'true') return { value: 1 };
      if (raw === 0 || raw === '0' || raw === false || raw === 'false') return { value: 0 };
      return { error: MESSAGES.selectOption };
    }
    case 'enum': {
      const v = String(raw);
      return rule.values.includes(v) ? { value: v } : { error: MESSAGES.selectOption };
    }
    case 'date': {
      const v = String(raw);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v + 'T00:00:00Z'))) return { error: MESSAGES.selectDate };
      // A real day (not 2026-02-31), in the years a business works in: year 0001 or 9999 broke the SQL of a listing.
      if (new Date(v + 'T00:00:00Z').toISOString().slice(0, 10) !== v) return { error: MESSAGES.selectDate };
      const year = Number(v.slice(0, 4));
      if (year < CONSTANTS.minYear || year > CONSTANTS.maxYear) return { error: MESSAGES.fechaFueraDeRango };
      return { value: v };
    }
  }
}

/** Validates every field of the schema; unknown input keys are dropped. */
export function validate<S extends Schema>(schema: S, input: unknown): ValidationResult<S> {
  const src = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const value: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(schema)) {
    const r = checkField(field, rule, src[field]);
    if ('error' in r) errors[field] = r.error;
    else value[field] = r.value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: value as Infer<S> };
}
