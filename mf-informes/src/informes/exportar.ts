import { downloadBlob, numberPages, openTablePdf, toCsv, type EmpresaPdf } from 'shared';
import { esNumerico, texto, valor } from './formato';
import type { Columna, Fila } from './tipos';
import { numeroEs, xlsx, type CeldaXlsx } from './xlsx';

/** A row of the table as exported: the page's rows, the subtotals and the totals row. */
export type FilaTabla = Fila & { __tipo?: 'subtotal' | 'total'; __etiqueta?: string; __k?: string };

/** The cells of every row as es-ES text ('1.234,56'), numbers without units so a spreadsheet reads them. */
export function celdas(columnas: Columna[], filas: FilaTabla[]): string[][] {
  return filas.map((f) => columnas.map((c, i) => (f.__tipo && i === 0 ? (f.__etiqueta ?? '') : f.__tipo && !c.total && !c.calcular ? '' : texto(c.formato, valor(c, f)))));
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
  const filasXlsx: CeldaXlsx[][] = celdas(columnas, filas).map((f) => f.map((t, i) => (t === '' ? null : numericas[i] ? (numeroEs(t) ?? t) : t)));
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

/** Builds the report's PDF (jsPDF, loaded now): company header, title, filters, the table, page numbers. */
export async function pdfInforme(opts: PdfInforme) {
  const widths = opts.columnas.map((c) => (esNumerico(c.formato) ? 1 : c.id === 'nombre' || c.id.endsWith('_nombre') ? 2.4 : 1.3));
  const header = opts.columnas.map((c) => c.header);
  const { doc, pageW, pageH, margin, cols, cellText } = await openTablePdf(opts.columnas.length > 6 ? 'landscape' : 'portrait', header, widths);
  const bottom = pageH - margin - 6;
  const right = opts.columnas.map((c) => esNumerico(c.formato));
  let y = margin;

  const fila = (cells: string[]) => {
    let x = margin;
    cells.forEach((v, i) => {
      doc.text(cellText(v, cols[i]), right[i] ? x + cols[i] - 1 : x + 1, y, right[i] ? { align: 'right' } : undefined);
      x += cols[i];
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
    // The column names in up to two lines each, so narrow numeric columns keep their whole name.
    doc.setFontSize(7.5);
    doc.setFont('helvetica', 'bold');
    const partes = header.map((h, i) => (doc.splitTextToSize(h, cols[i] - 2) as string[]).slice(0, 2));
    const lineas = Math.max(1, ...partes.map((p) => p.length));
    doc.setFillColor(226, 232, 240);
    doc.rect(margin, y, pageW - margin * 2, 3 + lineas * 3.2, 'F');
    let x = margin;
    for (const [i, p] of partes.entries()) {
      for (const [j, t] of p.entries()) doc.text(t, right[i] ? x + cols[i] - 1 : x + 1, y + 3.6 + j * 3.2, right[i] ? { align: 'right' } : undefined);
      x += cols[i];
    }
    doc.setFont('helvetica', 'normal');
    y += 3 + lineas * 3.2 + 4;
  };

  cabecera(true);
  const textos = celdas(opts.columnas, opts.filas);
  opts.filas.forEach((f, i) => {
    if (y > bottom) {
      doc.addPage();
      y = margin;
      cabecera(false);
    }
    const destacada = f.__tipo === 'subtotal' || f.__tipo === 'total';
    if (destacada) {
      doc.setFont('helvetica', 'bold');
      doc.setDrawColor(148, 163, 184);
      doc.line(margin, y - 3.4, pageW - margin, y - 3.4);
    }
    fila(textos[i]);
    if (destacada) doc.setFont('helvetica', 'normal');
    y += f.__tipo === 'subtotal' ? 5.6 : 4.4;
  });
  if (opts.filas.length === 0) doc.text('No hay resultados con estos filtros.', margin, y);
  numberPages(doc);
  return doc;
}

export async function descargarPdf(opts: PdfInforme): Promise<void> {
  const doc = await pdfInforme(opts);
  doc.save(opts.fileName);
}
