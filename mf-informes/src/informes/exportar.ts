import { downloadBlob, numberPages, openTablePdf, toCsv, type EmpresaPdf } from 'shared';
import { decimalesColumna, enFilaTotal, esNumerico, texto, valor } from './formato';
import type { Columna, Fila } from './tipos';
import { numeroEs, xlsx, type CeldaXlsx } from './xlsx';

/** A row of the table as exported: the page's rows, the subtotals and the totals row. */
export type FilaTabla = Fila & { __tipo?: 'subtotal' | 'total'; __etiqueta?: string; __k?: string };

/**
 * The cells of every row as es-ES text ('1.234,56'), numbers without units so a spreadsheet reads them; a price column
 * with the same decimals on every row, a totals row with every column the answer totals.
 */
export function celdas(columnas: Columna[], filas: FilaTabla[]): string[][] {
  const decimales = columnas.map((c) => decimalesColumna(c, filas));
  return filas.map((f) =>
    columnas.map((c, i) => (f.__tipo && i === 0 ? (f.__etiqueta ?? '') : f.__tipo && !enFilaTotal(c, f) ? '' : texto(c.formato, valor(c, f), decimales[i]))),
  );
}

/**
 * The report as CSV for a Spanish spreadsheet: ';', UTF-8 with BOM, es-ES numbers kept as numbers, and any text
 * a spreadsheet would run as a formula (= + - @) neutralised with a leading quote.
 */
export function csvInforme(columnas: Columna[], filas: FilaTabla[]): string {
  return toCsv(
    columnas.map((c) => c.header),
    celdas(columnas, filas),
    { numeric: columnas.map((c) => esNumerico(c.formato)) },
  );
}

export function descargarCsv(nombre: string, columnas: Columna[], filas: FilaTabla[]): void {
  downloadBlob(new Blob([csvInforme(columnas, filas)], { type: 'text/csv;charset=utf-8' }), nombre);
}

/**
 * The report as an .xlsx workbook (the IVA books' layout for the asesor): the same cells as the CSV, the numeric
 * columns as numbers (euros with their cents, percentages, units), the rest as text.
 */
export function xlsxInforme(titulo: string, columnas: Columna[], filas: FilaTabla[]): Uint8Array {
  const numericas = columnas.map((c) => esNumerico(c.formato));
  const filasXlsx: CeldaXlsx[][] = celdas(columnas, filas).map((f, r) =>
    f.map((t, i) => {
      if (t === '') return null;
      // Issue 25: a date is a date (a spreadsheet sorts and filters it), a year a number.
      const v = valor(columnas[i]!, filas[r]!);
      if (columnas[i]!.formato === 'fecha' && !filas[r]!.__tipo && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) return { fecha: v.slice(0, 10) };
      if (columnas[i]!.formato === 'anio' && /^\d{4}$/.test(t)) return { numero: t, decimales: 0, general: true };
      return numericas[i] ? (numeroEs(t) ?? t) : t;
    }),
  );
  return xlsx(titulo, columnas.map((c) => c.header), filasXlsx);
}

export function descargarXlsx(nombre: string, titulo: string, columnas: Columna[], filas: FilaTabla[]): void {
  const datos = xlsxInforme(titulo, columnas, filas);
  downloadBlob(new Blob([datos as BlobPart], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), nombre);
}

export type PdfInforme = {
  fileName: string;
  titulo: string;
  empresa: EmpresaPdf | null;
  /** 'Periodo: 01/11/2026 – 30/11/2026', 'Cliente: Ferretería Sol'... printed under the title. */
  filtros: string[];
  columnas: Columna[];
  filas: FilaTabla[];
};

/** Font sizes of the PDF's table: the cells and the column names. */
const CELDA_PT = 7.5;
const LINEA_MM = 3.2;

/** Each column's width at least (its longest word: a number, a NIF, a word of its name, never split) and ideally (its longest cell, up to 60 mm). */
function medidas(medir: (t: string, negrita: boolean) => number, header: string[], textos: string[][]): { minimo: number[]; ideal: number[] } {
  const pad = 2.2;
  const palabras = (t: string) => t.split(/\s+/).filter(Boolean);
  const minimo = header.map((h, i) => {
    let m = Math.max(0, ...palabras(h).map((w) => medir(w, true)));
    for (const f of textos) for (const w of palabras(f[i] ?? '')) m = Math.max(m, medir(w, false));
    return m + pad;
  });
  const ideal = header.map((_, i) => {
    let m = 0;
    for (const f of textos) m = Math.max(m, medir(f[i] ?? '', false));
    return Math.max(minimo[i]!, Math.min(60, m + pad));
  });
  return { minimo, ideal };
}

const suma = (a: number[]) => a.reduce((x, y) => x + y, 0);

/**
 * Column widths sized by their content (issue 25): the room left over the ideal is shared out in proportion; when the
 * ideal does not fit, the text columns give up room down to their longest word and wrap.
 */
function anchos({ minimo, ideal }: { minimo: number[]; ideal: number[] }, disponible: number): number[] {
  const sIdeal = suma(ideal);
  if (sIdeal <= disponible) return ideal.map((w) => (w * disponible) / sIdeal);
  const sMin = suma(minimo);
  if (sMin <= disponible) return minimo.map((m, i) => m + ((ideal[i]! - m) * (disponible - sMin)) / (sIdeal - sMin));
  return minimo.map((m) => (m * disponible) / sMin);
}

/** Builds the report's PDF (jsPDF, loaded now): company header, title, filters, the table, page numbers. */
export async function pdfInforme(opts: PdfInforme) {
  const header = opts.columnas.map((c) => c.header);
  const textos = celdas(opts.columnas, opts.filas);
  const right = opts.columnas.map((c) => esNumerico(c.formato));
  const medirCon = (doc: Awaited<ReturnType<typeof openTablePdf>>['doc']) => (t: string, negrita: boolean) => {
    doc.setFont('helvetica', negrita ? 'bold' : 'normal');
    doc.setFontSize(CELDA_PT);
    return doc.getTextWidth(t);
  };
  // Portrait unless there are many columns or they need more than a portrait page's width.
  let pdf = await openTablePdf('portrait', header);
  let m = medidas(medirCon(pdf.doc), header, textos);
  if (opts.columnas.length > 6 || suma(m.ideal) > pdf.pageW - pdf.margin * 2) {
    pdf = await openTablePdf('landscape', header);
    m = medidas(medirCon(pdf.doc), header, textos);
  }
  const { doc, pageW, pageH, margin } = pdf;
  const cols = anchos(m, pageW - margin * 2);
  const bottom = pageH - margin - 6;
  let y = margin;

  /** A row's lines per cell: text wraps at its spaces, never cut; numbers stay on one line. */
  const lineasDe = (cells: string[], negrita: boolean): string[][] => {
    doc.setFont('helvetica', negrita ? 'bold' : 'normal');
    doc.setFontSize(CELDA_PT);
    return cells.map((v, i) => (right[i] || !v ? [v] : (doc.splitTextToSize(v, cols[i]! - 2) as string[])));
  };
  const fila = (lineas: string[][]) => {
    let x = margin;
    lineas.forEach((ls, i) => {
      for (const [j, l] of ls.entries()) doc.text(l, right[i] ? x + cols[i]! - 1 : x + 1, y + j * LINEA_MM, right[i] ? { align: 'right' } : undefined);
      x += cols[i]!;
    });
  };
  const cabecera = (primera: boolean) => {
    if (primera) {
      // The company at the left, the report and when it was made at the right.
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(11);
      doc.text(opts.empresa?.nombre ?? '', margin, y + 4);
      doc.setFont('helvetica', 'normal');
      doc.setFontSize(8);
      const lineas = [opts.empresa?.nif ? `NIF ${opts.empresa.nif}` : null, ...(opts.empresa?.lineas ?? [])].filter((l): l is string => !!l);
      for (const [i, l] of lineas.slice(0, 4).entries()) doc.text(l, margin, y + 8 + i * 3.6);
      doc.text(`Emitido el ${new Date().toLocaleString('es-ES')}`, pageW - margin, y + 4, { align: 'right' });
      y += 10 + Math.min(lineas.length, 4) * 3.6;
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(15);
      doc.text(opts.titulo, margin, y + 4);
      doc.setFont('helvetica', 'normal');
      doc.setFontSize(8.5);
      y += 9;
      for (const f of opts.filtros) {
        for (const l of doc.splitTextToSize(f, pageW - margin * 2)) {
          doc.text(l, margin, y);
          y += 4;
        }
      }
      y += 2;
    } else {
      doc.setFontSize(9);
      doc.text(opts.titulo, margin, y + 3);
      y += 6;
    }
    // The column names wrap at their spaces: every column is at least as wide as its longest word.
    doc.setFontSize(CELDA_PT);
    doc.setFont('helvetica', 'bold');
    const partes = header.map((h, i) => doc.splitTextToSize(h, cols[i]! - 2) as string[]);
    const lineas = Math.max(1, ...partes.map((p) => p.length));
    doc.setFillColor(226, 232, 240);
    doc.rect(margin, y, pageW - margin * 2, 3 + lineas * LINEA_MM, 'F');
    let x = margin;
    for (const [i, p] of partes.entries()) {
      for (const [j, t] of p.entries()) doc.text(t, right[i] ? x + cols[i]! - 1 : x + 1, y + 3.6 + j * LINEA_MM, right[i] ? { align: 'right' } : undefined);
      x += cols[i]!;
    }
    doc.setFont('helvetica', 'normal');
    y += 3 + lineas * LINEA_MM + 4;
  };

  cabecera(true);
  opts.filas.forEach((f, i) => {
    const destacada = f.__tipo === 'subtotal' || f.__tipo === 'total';
    const lineas = lineasDe(textos[i]!, destacada);
    const alto = Math.max(1, ...lineas.map((l) => l.length)) * LINEA_MM + 1.2;
    if (y + alto - LINEA_MM > bottom) {
      doc.addPage();
      y = margin;
      cabecera(false);
    }
    doc.setFont('helvetica', destacada ? 'bold' : 'normal');
    doc.setFontSize(CELDA_PT);
    if (destacada) {
      doc.setDrawColor(148, 163, 184);
      doc.line(margin, y - 3.4, pageW - margin, y - 3.4);
    }
    fila(lineas);
    if (destacada) doc.setFont('helvetica', 'normal');
    y += alto + (f.__tipo === 'subtotal' ? 1.2 : 0);
  });
  if (opts.filas.length === 0) doc.text('No hay resultados con estos filtros.', margin, y);
  numberPages(doc);
  return doc;
}

export async function descargarPdf(opts: PdfInforme): Promise<void> {
  const doc = await pdfInforme(opts);
  doc.save(opts.fileName);
}
