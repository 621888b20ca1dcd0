/**
 * A minimal XLSX writer (Office Open XML spreadsheet) for the IVA books: one sheet, a header row, text cells as inline
 * strings (never a formula) and numbers as numbers, in a ZIP of stored (uncompressed) entries — no dependency. What a
 * spreadsheet needs and nothing else: content types, the package and workbook relations, the workbook, a style sheet
 * (a bold header, numbers with two decimals and thousands) and the sheet.
 */

export type CeldaXlsx = string | { numero: string; decimales: number; general?: boolean } | { fecha: string } | null;

/** A date 'aaaa-mm-dd' as the spreadsheet's serial day (1900 date system: 1 = 1900-01-01, with its phantom 29 Feb). */
export function serialFecha(iso: string): number {
  const [a, m, d] = iso.split('-').map(Number);
  return Math.round((Date.UTC(a!, m! - 1, d!) - Date.UTC(1899, 11, 30)) / 86_400_000);
}

const enc = new TextEncoder();

const xml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // Characters XML 1.0 does not allow.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');

/** Column letters of a 0-based index: 0 → A, 25 → Z, 26 → AA. */
export function columna(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** An es-ES number as the CSV writes it ('-1.234,56') to the XLSX value ('-1234.56') and its decimals; null if not one. */
export function numeroEs(texto: string): { numero: string; decimales: number } | null {
  const t = texto.trim();
  if (!/^-?\d{1,3}(\.\d{3})*(,\d+)?$/.test(t) && !/^-?\d+(,\d+)?$/.test(t)) return null;
  const [ent, dec = ''] = t.replace(/\./g, '').split(',');
  return { numero: dec ? `${ent}.${dec}` : ent!, decimales: dec.length };
}

function hoja(cabecera: string[], filas: CeldaXlsx[][]): string {
  const fila = (r: number, celdas: CeldaXlsx[], cab: boolean) =>
    `<row r="${r}">${celdas
      .map((c, i) => {
        const ref = `${columna(i)}${r}`;
        if (c === null || c === '') return '';
        if (typeof c === 'string') return `<c r="${ref}" t="inlineStr"${cab ? ' s="1"' : ''}><is><t xml:space="preserve">${xml(c)}</t></is></c>`;
        if ('fecha' in c) return `<c r="${ref}" s="4"><v>${serialFecha(c.fecha)}</v></c>`;
        if (c.general) return `<c r="${ref}"><v>${c.numero}</v></c>`;
        return `<c r="${ref}" s="${c.decimales === 0 ? 3 : 2}"><v>${c.numero}</v></c>`;
      })
      .join('')}</row>`;
  const anchos = cabecera.map((h, i) => {
    const largo = Math.max(h.length, ...filas.slice(0, 500).map((f) => (f[i] === null ? 0 : typeof f[i] === 'string' ? (f[i] as string).length : 'fecha' in (f[i] as object) ? 10 : (f[i] as { numero: string }).numero.length + 3)));
    return `<col min="${i + 1}" max="${i + 1}" width="${Math.min(60, Math.max(8, largo + 2))}" customWidth="1"/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${anchos.join('')}</cols><sheetData>${fila(1, cabecera, true)}${filas.map((f, i) => fila(i + 2, f, false)).join('')}</sheetData></worksheet>`;
}

const ESTILOS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`;

/** The workbook's files: one sheet named `nombre` (Excel's limit: 31 characters, no []:*?/\). */
export function partesXlsx(nombre: string, cabecera: string[], filas: CeldaXlsx[][]): [string, string][] {
  const hojaNombre = xml(nombre.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Hoja1');
  return [
    [
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${hojaNombre}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    ],
    ['xl/styles.xml', ESTILOS],
    ['xl/worksheets/sheet1.xml', hoja(cabecera, filas)],
  ];
}

let tablaCrc: Uint32Array | null = null;

/** CRC-32 (IEEE 802.3), as ZIP checks each entry. */
export function crc32(datos: Uint8Array): number {
  if (!tablaCrc) {
    tablaCrc = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      tablaCrc[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of datos) crc = tablaCrc[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A ZIP of stored entries (no compression): local headers, data, the central directory and its end record. */
export function zip(entradas: [string, Uint8Array][]): Uint8Array {
  const partes: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  // 1980-01-01 00:00, the DOS epoch: the file is the same for the same data.
  const FECHA = 0x0021;
  for (const [nombre, datos] of entradas) {
    const n = enc.encode(nombre);
    const crc = crc32(datos);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true); // UTF-8 names
    local.setUint16(8, 0, true); // stored
    local.setUint16(10, 0, true);
    local.setUint16(12, FECHA, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, datos.length, true);
    local.setUint32(22, datos.length, true);
    local.setUint16(26, n.length, true);
    local.setUint16(28, 0, true);
    partes.push(new Uint8Array(local.buffer), n, datos);
    const c = new DataView(new ArrayBuffer(46));
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(8, 0x0800, true);
    c.setUint16(10, 0, true);
    c.setUint16(12, 0, true);
    c.setUint16(14, FECHA, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, datos.length, true);
    c.setUint32(24, datos.length, true);
    c.setUint16(28, n.length, true);
    c.setUint32(42, offset, true);
    central.push(new Uint8Array(c.buffer), n);
    offset += 30 + n.length + datos.length;
  }
  const tamCentral = central.reduce((s, p) => s + p.length, 0);
  const fin = new DataView(new ArrayBuffer(22));
  fin.setUint32(0, 0x06054b50, true);
  fin.setUint16(8, entradas.length, true);
  fin.setUint16(10, entradas.length, true);
  fin.setUint32(12, tamCentral, true);
  fin.setUint32(16, offset, true);
  const todo = [...partes, ...central, new Uint8Array(fin.buffer)];
  const out = new Uint8Array(todo.reduce((s, p) => s + p.length, 0));
  let i = 0;
  for (const p of todo) {
    out.set(p, i);
    i += p.length;
  }
  return out;
}

/** The .xlsx file of one sheet. */
export function xlsx(nombre: string, cabecera: string[], filas: CeldaXlsx[][]): Uint8Array {
  return zip(partesXlsx(nombre, cabecera, filas).map(([n, t]) => [n, enc.encode(t)]));
}
