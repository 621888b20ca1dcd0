/**
 * Code 128 (ISO/IEC 15417), written here rather than taken from a package: the ticket prints its number as a barcode
 * (issue 23) so a return finds it with the scanner. Subsets B (ASCII 32–127) and C (pairs of digits), switching to C
 * for runs of four digits or more (a ticket number «T 2026/000123» is mostly digits: a shorter symbol on an 80 mm
 * roll). Each symbol is six alternating bar/space widths (11 modules); the stop has seven (13 modules).
 */
const PATRONES: readonly string[] = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232',
];
const PARADA = '2331112';
const INICIO_B = 104;
const INICIO_C = 105;
const A_B = 100;
const A_C = 99;

/** What a Code 128 symbol can carry here: printable ASCII (a ticket's number as printed). */
export const textoCode128Valido = (texto: string) => texto.length > 0 && /^[\x20-\x7e]+$/.test(texto);

/** The symbol values of `texto`: start, data (with any change of subset), check symbol; the stop is implied. */
export function valoresCode128(texto: string): number[] {
  if (!textoCode128Valido(texto)) throw new Error(`Code 128: «${texto}» no es texto ASCII imprimible.`);
  const cifrasDesde = (i: number) => {
    let j = i;
    while (j < texto.length && texto.charCodeAt(j) >= 48 && texto.charCodeAt(j) <= 57) j++;
    return j - i;
  };
  const valores: number[] = [];
  const inicial = cifrasDesde(0);
  let c = inicial >= 4 && inicial % 2 === 0;
  valores.push(c ? INICIO_C : INICIO_B);
  let i = 0;
  while (i < texto.length) {
    const run = cifrasDesde(i);
    if (c) {
      if (run >= 2) {
        valores.push(Number(texto.slice(i, i + 2)));
        i += 2;
        continue;
      }
      valores.push(A_B);
      c = false;
    }
    // In B: a run of four digits or more goes to C (an odd run's first digit stays in B).
    if (run >= 4) {
      if (run % 2 === 1) {
        valores.push(texto.charCodeAt(i) - 32);
        i++;
      }
      valores.push(A_C);
      c = true;
      continue;
    }
    valores.push(texto.charCodeAt(i) - 32);
    i++;
  }
  let suma = valores[0];
  for (let k = 1; k < valores.length; k++) suma += k * valores[k];
  valores.push(suma % 103);
  return valores;
}

/**
 * The bars of `texto` left to right, in modules: each entry a bar's start and width (the spaces between are implied),
 * and the symbol's whole width without its quiet zones (ten modules each side, the drawer's to leave).
 */
export function barrasCode128(texto: string): { barras: { x: number; ancho: number }[]; modulos: number } {
  const anchos = [...valoresCode128(texto).map((v) => PATRONES[v]), PARADA].join('');
  const barras: { x: number; ancho: number }[] = [];
  let x = 0;
  for (let k = 0; k < anchos.length; k++) {
    const w = Number(anchos[k]);
    if (k % 2 === 0) barras.push({ x, ancho: w });
    x += w;
  }
  return { barras, modulos: x };
}
