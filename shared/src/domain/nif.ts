const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_LETTERS = 'JABCDEFGHI';

/**
 * A NIF/CIF/NIE as it is stored and printed: capitals, without spaces, dots, dashes or slashes, and
 * without the «ES» of its VAT number ('ES B58378431', 'b 5837 8431' and 'B-58378431' are 'B58378431').
 * No Spanish NIF starts with «ES» (a CIF's second character is a digit), so the prefix is never a part of it.
 */
export function normalizeNif(value: string): string {
  const v = value.toUpperCase().replace(/[\s./-]/g, '');
  return /^ES[0-9A-Z]{9}$/.test(v) ? v.slice(2) : v;
}

/** Validates a Spanish DNI, NIE or CIF (check digit or letter included). */
export function isValidNif(raw: string): boolean {
  const v = normalizeNif(raw);
  if (/^\d{8}[A-Z]$/.test(v)) return DNI_LETTERS[Number(v.slice(0, 8)) % 23] === v[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(v)) {
    const n = Number('XYZ'.indexOf(v[0]) + v.slice(1, 8));
    return DNI_LETTERS[n % 23] === v[8];
  }
  // Persons without DNI (K, L, M) carry a DNI-style letter.
  if (/^[KLM]\d{7}[A-Z]$/.test(v)) return DNI_LETTERS[Number(v.slice(1, 8)) % 23] === v[8];
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(v)) {
    const d = v.slice(1, 8).split('').map(Number);
    const a = d[1] + d[3] + d[5];
    const b = [d[0], d[2], d[4], d[6]].reduce((s, x) => s + Math.floor((2 * x) / 10) + ((2 * x) % 10), 0);
    const c = (10 - ((a + b) % 10)) % 10;
    return v[8] === String(c) || v[8] === CIF_LETTERS[c];
  }
  return false;
}

/** IBAN check (ISO 7064 mod 97); Spanish IBANs must have 24 characters. */
export function isValidIban(raw: string): boolean {
  const v = raw.toUpperCase().replace(/\s/g, '');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(v)) return false;
  if (v.startsWith('ES') && v.length !== 24) return false;
  const digits = (v.slice(4) + v.slice(0, 4)).replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}

export function isValidPostalCode(v: string): boolean {
  return /^\d{5}$/.test(v) && Number(v.slice(0, 2)) >= 1 && Number(v.slice(0, 2)) <= 52;
}
