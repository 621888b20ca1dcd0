import type { jsPDF } from 'jspdf';

type Cell = string | number | null | undefined;

/**
 * An A4 page in mm for a table (jsPDF, loaded only when the user asks for it): the columns share the
 * width between the margins by their relative `widths` (equal by default); `cellText` is a value cut
 * to one line of its column.
 */
export async function openTablePdf(orientation: 'portrait' | 'landscape', header: string[], widths?: number[]) {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ orientation, unit: 'mm', format: 'a4' });
  const pageW = doc.internal.pageSize.getWidth();
  const pageH = doc.internal.pageSize.getHeight();
  const margin = 12;
  const relative = widths ?? header.map(() => 1);
  const sum = relative.reduce((a, b) => a + b, 0);
  const cols = relative.map((w) => ((pageW - margin * 2) * w) / sum);
  const cellText = (v: Cell, w: number): string => doc.splitTextToSize(v === null || v === undefined ? '' : String(v), w - 2)[0] ?? '';
  return { doc, pageW, pageH, margin, cols, cellText };
}

/**
 * 'Página n de m' at the foot of every page, then the download. With `sections` (the first page of
 * each document of a batch), each document counts its own pages.
 */
export function savePdf(doc: jsPDF, fileName: string, sections?: number[]) {
  numberPages(doc, sections);
  doc.save(fileName);
}

/** 'Página n de m' at the foot of every page (each section counts its own), without saving: for a PDF kept as a Blob. */
export function numberPages(doc: jsPDF, sections?: number[]) {
  const pageW = doc.internal.pageSize.getWidth();
  const pageH = doc.internal.pageSize.getHeight();
  const pages = doc.getNumberOfPages();
  const starts = sections?.length ? sections : [1];
  for (let p = 1; p <= pages; p++) {
    const s = starts.filter((x) => x <= p).length - 1;
    const from = starts[Math.max(0, s)];
    const to = s + 1 < starts.length ? starts[s + 1] - 1 : pages;
    doc.setPage(p);
    doc.setFontSize(7);
    doc.text(`Página ${p - from + 1} de ${to - from + 1}`, pageW / 2, pageH - 5, { align: 'center' });
  }
}

/** A list as a PDF table (jsPDF, loaded only when the user asks for it). */
export async function downloadTablePdf(opts: {
  fileName: string;
  title: string;
  subtitle?: string;
  header: string[];
  rows: Cell[][];
  /** Relative column widths; equal by default. */
  widths?: number[];
}): Promise<void> {
  const { doc, pageW, pageH, margin, cols, cellText } = await openTablePdf(opts.header.length > 5 ? 'landscape' : 'portrait', opts.header, opts.widths);
  let y = margin;
  const printed = new Date().toLocaleString('es-ES');

  const drawHeader = () => {
    doc.setFontSize(14);
    doc.text(opts.title, margin, y + 4);
    doc.setFontSize(8);
    doc.text(`${opts.subtitle ? opts.subtitle + ' · ' : ''}${printed}`, pageW - margin, y + 4, { align: 'right' });
    y += 10;
    doc.setFillColor(226, 232, 240);
    doc.rect(margin, y, pageW - margin * 2, 6, 'F');
    doc.setFont('helvetica', 'bold');
    let x = margin;
    opts.header.forEach((h, i) => {
      doc.text(String(h), x + 1, y + 4, { maxWidth: cols[i] - 2 });
      x += cols[i];
    });
    doc.setFont('helvetica', 'normal');
    y += 8;
  };

  drawHeader();
  for (const row of opts.rows) {
    if (y > pageH - margin) {
      doc.addPage();
      y = margin;
      drawHeader();
    }
    let x = margin;
    row.forEach((v, i) => {
      doc.text(cellText(v, cols[i]), x + 1, y);
      x += cols[i];
    });
    y += 5;
  }
  savePdf(doc, opts.fileName);
}

export type PdfTableGroup = { title: string; rows: Cell[][] };

/**
 * A table split into titled groups (a price list per familia) as a PDF: the header row repeats on
 * every page, a group title never ends a page alone, numbers can be right-aligned. jsPDF loads lazily.
 */
export async function downloadGroupedTablePdf(opts: {
  fileName: string;
  title: string;
  /** Under the title: the company, the date. */
  subtitle?: string;
  header: string[];
  groups: PdfTableGroup[];
  widths?: number[];
  align?: ('left' | 'right')[];
  orientation?: 'portrait' | 'landscape';
}): Promise<void> {
  const orientation = opts.orientation ?? (opts.header.length > 6 ? 'landscape' : 'portrait');
  const { doc, pageW, pageH, margin, cols, cellText } = await openTablePdf(orientation, opts.header, opts.widths);
  const bottom = pageH - margin - 4;
  let y = margin;

  const drawRow = (cells: Cell[]) => {
    let x = margin;
    cells.forEach((v, i) => {
      const right = opts.align?.[i] === 'right';
      doc.text(cellText(v, cols[i]), right ? x + cols[i] - 1 : x + 1, y, right ? { align: 'right' } : undefined);
      x += cols[i];
    });
  };
  const drawPageHeader = (first: boolean) => {
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(first ? 15 : 10);
    doc.text(opts.title, margin, y + 5);
    doc.setFont('helvetica', 'normal');
    if (opts.subtitle) {
      doc.setFontSize(9);
      doc.text(opts.subtitle, pageW - margin, y + 5, { align: 'right' });
    }
    y += 10;
    doc.setFontSize(8);
    doc.setFillColor(226, 232, 240);
    doc.rect(margin, y, pageW - margin * 2, 6, 'F');
    doc.setFont('helvetica', 'bold');
    y += 4;
    drawRow(opts.header);
    doc.setFont('helvetica', 'normal');
    y += 6;
  };
  const newPage = () => {
    doc.addPage();
    y = margin;
    drawPageHeader(false);
  };

  drawPageHeader(true);
  for (const group of opts.groups) {
    // The title and at least one row together.
    if (y + 12 > bottom) newPage();
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(10);
    doc.text(group.title, margin, y + 1);
    doc.setDrawColor(148, 163, 184);
    doc.line(margin, y + 2.5, pageW - margin, y + 2.5);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(8);
    y += 7;
    for (const row of group.rows) {
      if (y > bottom) newPage();
      drawRow(row);
      y += 4.6;
    }
    y += 3;
  }
  savePdf(doc, opts.fileName);
}
