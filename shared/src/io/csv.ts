export type CsvCell = string | number | bigint | null | undefined;

export type CsvOptions = {
  /**
   * Per column: its text cells are numbers as the lists show them ('-1.234,56', '8,2562 €', '21 %').
   * Such a cell is written as it is (a spreadsheet reads it as a number); anything else in that
   * column is still treated as text.
   */
  numeric?: readonly boolean[];
};

/** A number as the Spanish lists format it: sign, digits with '.' thousands, ',' decimals, then € or %. */
const SPANISH_NUMBER = /^-?\d{1,3}(?:\.\d{3})*(?:,\d+)?(?: ?[€%])?$|^-?\d+(?:,\d+)?(?: ?[€%])?$/;

/** Text a spreadsheet would run as a formula (OWASP "CSV injection"): starts with = + - @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One text cell made safe for a spreadsheet: text starting with a formula character gets a leading
 * single quote (`=1+1` → `'=1+1`), which spreadsheets show as text and never evaluate.
 */
export function neutraliseCsvText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * CSV for Spanish spreadsheets: ';' separator, UTF-8 BOM, quotes doubled. Text cells that a
 * spreadsheet would evaluate are neutralised (see `neutraliseCsvText`); JavaScript numbers, and
 * strings in columns declared `numeric` that read as Spanish numbers, stay numbers.
 *
 * @example
 * toCsv(['d', 'n'], [['=1+1', -5]]) // → '\uFEFFd;n\r\n\'=1+1;-5\r\n'
 */
export function toCsv(header: string[], rows: CsvCell[][], options: CsvOptions = {}): string {
  const quote = (s: string) => (/[";\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const cell = (v: CsvCell, column: number) => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (options.numeric?.[column] && SPANISH_NUMBER.test(v)) return v;
    return quote(neutraliseCsvText(v));
  };
  const line = (r: CsvCell[]) => r.map(cell).join(';');
  return '\uFEFF' + [header, ...rows].map(line).join('\r\n') + '\r\n';
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(fileName: string, header: string[], rows: CsvCell[][], options?: CsvOptions): void {
  downloadBlob(new Blob([toCsv(header, rows, options)], { type: 'text/csv;charset=utf-8' }), fileName);
}

export type ParsedCsv = {
  /** First row (names of the columns), trimmed. */
  header: string[];
  /** Data rows; blank lines are skipped. Each keeps the file's number of cells. */
  rows: string[][];
  /** The separator found (or given). */
  separator: ';' | ',' | '\t';
  /** File line (1-based) where each data row starts: for messages like "línea 14". */
  lines: number[];
};

/** The separator of the header line: the most frequent of ';', ',' and tab outside quotes (';' on a tie, as Spanish spreadsheets write). */
export function detectCsvSeparator(text: string): ';' | ',' | '\t' {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text.replace(/^\uFEFF/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch as keyof typeof counts]++;
  }
  if (counts['\t'] > counts[';'] && counts['\t'] > counts[',']) return '\t';
  return counts[','] > counts[';'] ? ',' : ';';
}

/**
 * Parses CSV text (RFC 4180 quoting: "a;b", "" for a quote, line breaks inside quotes), UTF-8 with
 * or without BOM, LF or CRLF. The separator is detected from the header line unless given.
 *
 * @example
 * parseCsv('\uFEFFcodigo;precio\r\nA1;"1.234,5"\r\n') // → { header: ['codigo','precio'], rows: [['A1','1.234,5']], ... }
 */
export function parseCsv(text: string, separator?: ';' | ',' | '\t'): ParsedCsv {
  const src = text.replace(/^\uFEFF/, '');
  const sep = separator ?? detectCsvSeparator(src);
  const records: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  const endRecord = () => {
    endCell();
    if (touched || cells.length > 1 || cells[0] !== '') records.push({ cells, line: start });
    cells = [];
    touched = false;
  };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"') {
      quoted = true;
      touched = true;
    } else if (ch === sep) endCell();
    else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else cell += ch;
  }
  if (cell !== '' || cells.length > 0 || touched) endRecord();
  const [first, ...rest] = records;
  return {
    header: (first?.cells ?? []).map((h) => h.trim()),
    rows: rest.map((r) => r.cells),
    separator: sep,
    lines: rest.map((r) => r.line),
  };
}

/**
 * The text of a CSV file: UTF-8 (with or without BOM) when the bytes are valid UTF-8, otherwise
 * Windows-1252, which is what a Spanish Excel writes for "CSV (delimitado por comas)".
 */
export function decodeCsvBytes(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
