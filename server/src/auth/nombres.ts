/**
 * Names that must not look alike (issue 24): a role called `Admіnistrador` with a Cyrillic «і», or `Administrador`
 * followed by a zero-width space, is the Administrador role to anyone reading a list of users. Two names are the
 * same when their folded forms are equal: Unicode NFKC (full-width and compatibility forms), without format and
 * default-ignorable characters (zero-width spaces and joiners, soft hyphens, bidi marks), the Cyrillic and Greek
 * letters that look like Latin ones taken as those, spaces collapsed, and without regard to case.
 */

/** Cyrillic and Greek letters drawn like a Latin one (Unicode's confusables for the Latin alphabet), by case. */
const PARECIDAS: Record<string, string> = {
  // Cyrillic, lower case.
  а: 'a', в: 'b', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm', н: 'h', о: 'o', р: 'p', ԛ: 'q',
  ѕ: 's', т: 't', у: 'y', ԝ: 'w', х: 'x', с: 'c', ԁ: 'd', ь: 'b', ɡ: 'g', ѵ: 'v', ү: 'y',
  // Cyrillic, upper case.
  А: 'A', В: 'B', Е: 'E', Ё: 'E', Н: 'H', І: 'I', Ї: 'I', Ј: 'J', К: 'K', Ӏ: 'I', М: 'M', О: 'O', Р: 'P', Ԛ: 'Q', Ѕ: 'S',
  Т: 'T', У: 'Y', Ԝ: 'W', Х: 'X', С: 'C', Ү: 'Y', Ѵ: 'V', Ԁ: 'D',
  // Greek, lower case.
  α: 'a', β: 'b', γ: 'y', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ϳ: 'j', ς: 's',
  // Greek, upper case.
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};

const INVISIBLES = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** The name as stored: NFKC, without invisible characters, spaces collapsed and trimmed. */
export const limpiarNombre = (nombre: string): string => nombre.normalize('NFKC').replace(INVISIBLES, '').replace(/\s+/gu, ' ').trim();

/** The form two names are compared by: equal folded forms are the same name. */
export function plegarNombre(nombre: string): string {
  const limpio = limpiarNombre(nombre);
  const mapear = (s: string) => Array.from(s, (c) => PARECIDAS[c] ?? c).join('');
  // Again after lowering the case: an upper-case letter the table lacks may have a lower-case twin it has.
  return mapear(mapear(limpio).toLowerCase()).toLowerCase().normalize('NFKC');
}
