/** CSV for Spanish spreadsheets: ';' separator, UTF-8 BOM, quotes doubled. */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (v: string | number | null | undefined) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[";\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return '\uFEFF' + [header, ...rows].map((r) => r.map(cell).join(';')).join('\r\n') + '\r\n';
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

export function downloadCsv(fileName: string, header: string[], rows: (string | number | null | undefined)[][]): void {
  downloadBlob(new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }), fileName);
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
