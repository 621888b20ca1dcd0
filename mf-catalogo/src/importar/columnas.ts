import { MESSAGES, TIPOS_IVA, TIPOS_POR_IMPUESTO, UNIDADES_MEDIDA, isValidEan, parseDecimal, toCsv, type Impuesto } from 'shared';

/** A column of the import file: the field `importararticulos` receives and the headers that mean it. */
export type Columna = { campo: string; etiqueta: string; requerido?: boolean; importe?: boolean; alias: string[]; ejemplo: string };

export const COLUMNAS: Columna[] = [
  { campo: 'codigo', etiqueta: 'Código', requerido: true, alias: ['cod', 'code', 'codigo_articulo'], ejemplo: 'TOR-M4-20' },
  { campo: 'descripcion', etiqueta: 'Descripción', requerido: true, alias: ['nombre', 'articulo'], ejemplo: 'Tornillo hexagonal M4 x 20 inox' },
  { campo: 'referencia', etiqueta: 'Referencia', alias: ['ref'], ejemplo: 'DIN933-M4-20' },
  { campo: 'descripcion_larga', etiqueta: 'Descripción larga', alias: [], ejemplo: '' },
  { campo: 'familia_codigo', etiqueta: 'Código de familia', alias: ['cod_familia', 'codigo_familia'], ejemplo: 'TOR' },
  { campo: 'familia_nombre', etiqueta: 'Familia', alias: ['familia'], ejemplo: 'Tornillería' },
  { campo: 'subfamilia_codigo', etiqueta: 'Código de subfamilia', alias: ['cod_subfamilia', 'codigo_subfamilia'], ejemplo: 'HEX' },
  { campo: 'subfamilia_nombre', etiqueta: 'Subfamilia', alias: ['subfamilia'], ejemplo: 'Hexagonales' },
  { campo: 'marca_codigo', etiqueta: 'Código de marca', alias: ['cod_marca', 'codigo_marca'], ejemplo: 'ACME' },
  { campo: 'marca_nombre', etiqueta: 'Marca', alias: ['marca'], ejemplo: 'Acme' },
  { campo: 'precio_compra', etiqueta: 'Precio de compra', importe: true, alias: ['compra', 'coste'], ejemplo: '0,0850' },
  { campo: 'precio_venta', etiqueta: 'Precio de venta', importe: true, alias: ['venta', 'precio', 'tarifa_1', 'pvp_sin_iva'], ejemplo: '0,1736' },
  { campo: 'tarifa_2', etiqueta: 'Tarifa 2', importe: true, alias: [], ejemplo: '' },
  { campo: 'tarifa_3', etiqueta: 'Tarifa 3', importe: true, alias: [], ejemplo: '' },
  { campo: 'tipo_iva', etiqueta: 'Tipo de IVA', alias: ['iva'], ejemplo: '21' },
  { campo: 'codigo_barras', etiqueta: 'Código de barras', alias: ['ean', 'ean13', 'barras', 'codigo_de_barras'], ejemplo: '8412345678905' },
  { campo: 'unidad_medida', etiqueta: 'Unidad de medida', alias: ['unidad', 'ud'], ejemplo: 'ud' },
  { campo: 'palabras_clave', etiqueta: 'Palabras clave', alias: [], ejemplo: 'tornillo inoxidable' },
  { campo: 'nombre_tpv', etiqueta: 'Nombre TPV', alias: ['tpv'], ejemplo: 'TORN M4x20' },
];

/** 'Precio de compra ' → 'precio_de_compra'; 'Código' → 'codigo'. */
export function normalizarCabecera(h: string): string {
  return h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

const POR_NOMBRE = new Map<string, Columna>();
for (const c of COLUMNAS) {
  for (const n of [c.campo, c.etiqueta, ...c.alias]) POR_NOMBRE.set(normalizarCabecera(n), c);
}

export type Mapeo = {
  /** For each file column, the field it fills, or null when ignored. */
  campos: (string | null)[];
  ignoradas: string[];
  /** Required fields with no column. */
  faltan: string[];
  /** Fields named by two columns. */
  repetidas: string[];
};

/** Which field each header names (by field name, Spanish label or a usual alias). */
export function mapearCabecera(header: string[]): Mapeo {
  const usados = new Set<string>();
  const repetidas: string[] = [];
  const ignoradas: string[] = [];
  const campos = header.map((h) => {
    const c = POR_NOMBRE.get(normalizarCabecera(h));
    if (!c) {
      if (h.trim()) ignoradas.push(h.trim());
      return null;
    }
    if (usados.has(c.campo)) {
      repetidas.push(c.etiqueta);
      return null;
    }
    usados.add(c.campo);
    return c.campo;
  });
  const faltan = COLUMNAS.filter((c) => c.requerido && !usados.has(c.campo)).map((c) => c.etiqueta);
  return { campos, ignoradas, faltan, repetidas };
}

export type Fila = Record<string, string>;

/** The rows as `importararticulos` receives them: mapped fields, trimmed text, empty cells left out. */
export function filasDe(rows: string[][], mapeo: Mapeo): Fila[] {
  return rows.map((cells) => {
    const fila: Fila = {};
    mapeo.campos.forEach((campo, i) => {
      const v = (cells[i] ?? '').trim();
      if (campo && v !== '') fila[campo] = campo === 'tipo_iva' ? normalizarIva(v) : v;
    });
    return fila;
  });
}

/** '21 %', '21,00', 'Exento' → '21', 'exento'. */
export function normalizarIva(v: string): string {
  const s = v.trim().toLowerCase().replace(/\s|%/g, '');
  if (s.startsWith('exent')) return 'exento';
  return s.replace(/[,.]0+$/, '');
}

export const MENSAJES = {
  codigoRepetido: (linea: number) => `El código ya aparece en la línea ${linea}`,
  importe: 'Debe ser un importe válido (por ejemplo 12,50)',
  iva: 'El tipo de IVA debe ser 21, 10, 4, exento o tabaco',
  unidad: `La unidad de medida debe ser una de: ${UNIDADES_MEDIDA.join(', ')}`,
  ean: 'El código de barras no es un EAN-13 o EAN-8 válido',
} as const;

export type ErroresFila = Record<string, string>;

/**
 * The checks that can be made without the database, over the whole file (the server validates
 * each chunk apart, so only the browser sees a code repeated in two chunks).
 */
export function validarFilas(filas: Fila[], lineas: number[], impuesto: Impuesto = 'iva'): Map<number, ErroresFila> {
  const out = new Map<number, ErroresFila>();
  const vistos = new Map<string, number>();
  filas.forEach((f, i) => {
    const e: ErroresFila = {};
    for (const c of COLUMNAS) {
      const v = f[c.campo];
      if (c.requerido && !v) e[c.campo] = MESSAGES.required;
      if (v && c.importe) {
        const n = parseDecimal(v, 4);
        if (n === null || n < 0n) e[c.campo] = MENSAJES.importe;
      }
    }
    // Under IGIC or IPSI (issue 16) a rate is typed as a number ('7', '9,5'): the server checks it against the company's tax.
    if (f.tipo_iva && (impuesto === 'iva' ? !(TIPOS_POR_IMPUESTO.iva as readonly string[]).includes(f.tipo_iva) : !(TIPOS_IVA as readonly string[]).includes(f.tipo_iva) && !/^\d+([,.]\d+)?$/.test(f.tipo_iva)))
      e.tipo_iva = MENSAJES.iva;
    if (f.unidad_medida && !(UNIDADES_MEDIDA as readonly string[]).includes(f.unidad_medida)) e.unidad_medida = MENSAJES.unidad;
    if (f.codigo_barras && !isValidEan(f.codigo_barras)) e.codigo_barras = MENSAJES.ean;
    if (f.codigo) {
      const key = f.codigo.toLowerCase();
      const antes = vistos.get(key);
      if (antes !== undefined) e.codigo ??= MENSAJES.codigoRepetido(antes);
      else vistos.set(key, lineas[i]);
    }
    if (Object.keys(e).length) out.set(i, e);
  });
  return out;
}

export const ETIQUETA: Record<string, string> = Object.fromEntries(COLUMNAS.map((c) => [c.campo, c.etiqueta]));

/** The template to download: every column with an example row, as Spanish spreadsheets read it. */
export function plantillaCsv(): string {
  return toCsv(
    COLUMNAS.map((c) => c.campo),
    [COLUMNAS.map((c) => c.ejemplo)],
  );
}
