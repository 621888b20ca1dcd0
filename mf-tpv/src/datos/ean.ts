/**
 * Weighted and priced barcodes (EAN-13 of the in-store range 20–29, as the shop's scale prints them):
 * `PP IIIII VVVVV C` — the prefix, the article's 5-digit code at the scale (PLU), the value and the check
 * digit. Which prefixes carry a weight (grams: the line's quantity in thousandths of a kilo) and which a price
 * (cents: the line's amount) is the shop's choice; the default is the common one, 20–24 weight, 25–29 price.
 */
export type TipoValorEan = 'peso' | 'precio';

export type ConfigEan = Record<string, TipoValorEan>;

export const CONFIG_EAN_DEFECTO: ConfigEan = {
  '20': 'peso', '21': 'peso', '22': 'peso', '23': 'peso', '24': 'peso',
  '25': 'precio', '26': 'precio', '27': 'precio', '28': 'precio', '29': 'precio',
};

export type EanVariable = {
  /** The first 7 digits (prefix + PLU): what the article's barcode is matched by. */
  clave: string;
  prefijo: string;
  plu: string;
  tipo: TipoValorEan;
  /** Grams (peso) or cents (precio). */
  valor: number;
};

/** The EAN/GTIN check digit of the digits before it. */
export function digitoControl(digitos: string): number {
  let sum = 0;
  for (let i = 0; i < digitos.length; i++) {
    const d = digitos.charCodeAt(digitos.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether a 8/12/13/14-digit code has a right check digit. */
export function ean13Valido(code: string): boolean {
  if (!/^\d{13}$/.test(code)) return false;
  return digitoControl(code.slice(0, 12)) === code.charCodeAt(12) - 48;
}

/** A weighted or priced EAN-13 read into its parts; null for any other code (or a wrong check digit). */
export function leerEanVariable(code: string, config: ConfigEan = CONFIG_EAN_DEFECTO): EanVariable | null {
  const c = code.trim();
  if (!ean13Valido(c)) return null;
  const prefijo = c.slice(0, 2);
  const tipo = config[prefijo];
  if (!tipo) return null;
  const valor = Number(c.slice(7, 12));
  return { clave: c.slice(0, 7), prefijo, plu: c.slice(2, 7), tipo, valor };
}

/** The 7-digit key an article's own barcode gives for weighted/priced labels ('2100123' or '2100123000009'). */
export function claveVariable(codigoBarras: string | null | undefined, config: ConfigEan = CONFIG_EAN_DEFECTO): string | null {
  const c = (codigoBarras ?? '').trim();
  if (!/^\d{7}$|^\d{13}$/.test(c)) return null;
  return config[c.slice(0, 2)] ? c.slice(0, 7) : null;
}

/** Builds a valid EAN-13 of the range (tests and the demo labels). */
export function eanVariable(clave: string, valor: number): string {
  const doce = clave + String(valor).padStart(5, '0');
  return doce + digitoControl(doce);
}

/**
 * A priced label's quantity at the article's own unit price: the thousandths whose amount (cantidad × precio,
 * rounded to cents as the ticket does) is exactly the printed price — the scale weighed it, the till finds the
 * weight back, so the line keeps the article's price (no price change) and the stock moves by what was sold.
 * Null when no quantity gives exactly that amount (the label's price is then the line's price).
 */
export function cantidadDeImporte(importe: number, precio: number): number | null {
  if (precio <= 0 || importe <= 0) return null;
  // cantidad (thousandths) × precio (ten-thousandths) = amount at scale 7; cents are scale 2.
  const estimada = Math.round((importe * 100_000) / precio);
  for (const d of [0, -1, 1, -2, 2, -3, 3]) {
    const c = estimada + d;
    if (c > 0 && Math.round((c * precio) / 100_000) === importe) return c;
  }
  return null;
}
